"""What every proof is bound to: the table, the round and the seat that makes it.

Fiat-Shamir challenges hash the context, a domain tag for the kind of proof,
the whole statement and every commitment (strong Fiat-Shamir), so a proof made
for one table, round, seat or statement is worthless for any other.

>>> ctx = Context(table=b"t1", round=0, seat=2)
>>> ctx.for_seat(3).seat
3
>>> challenge(b"test", ctx, b"x") == challenge(b"test", ctx.for_seat(3), b"x")
False
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from condottiere.crypto.codec import encode_bytes, encode_u32
from condottiere.crypto.group import hash_to_scalar

__all__ = ["Context", "challenge"]


@dataclass(frozen=True, slots=True)
class Context:
    """A table id, the round of the game (each reshuffle is a new round) and a seat."""

    table: bytes
    round: int
    seat: int

    def encode(self) -> bytes:
        """Canonical bytes: the length-prefixed table id, then round and seat (u32 LE each)."""
        return encode_bytes(self.table) + encode_u32(self.round) + encode_u32(self.seat)

    def for_seat(self, seat: int) -> Context:
        """The same table and round, for another seat."""
        return replace(self, seat=seat)


def challenge(domain: bytes, context: Context, *parts: bytes) -> int:
    """The Fiat-Shamir challenge for a proof of kind ``domain`` over ``parts`` in ``context``."""
    return hash_to_scalar(domain, context.encode(), *parts)
