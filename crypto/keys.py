"""Per-seat ElGamal keys with Schnorr proofs of knowledge, and the joint key.

Each seat draws ``x``, publishes ``X = x·G`` with a Schnorr proof of knowledge
of ``x`` bound to the table, round and seat (strong Fiat-Shamir: the challenge
hashes the context, ``X`` and the commitment). The joint key is ``Y = ΣX_i``.

A rogue key ``X_k = x·G - ΣX_others`` would make ``Y = x·G`` known to its author
alone; it is refused because its author cannot prove knowledge of its discrete
logarithm. A proof copied from another seat or made for another table or round
fails because the challenge would differ.

>>> from condottiere.crypto.context import Context
>>> ctx = Context(b"table", 0, 0)
>>> secrets, announcements = zip(*(generate_key(ctx.for_seat(i)) for i in range(3)))
>>> Y = joint_key(announcements, ctx)
>>> from condottiere.crypto.group import mul_base
>>> Y == mul_base(sum(secrets) % L)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from condottiere.crypto.codec import Reader, encode_scalar
from condottiere.crypto.context import Context, challenge
from condottiere.crypto.errors import VerificationError
from condottiere.crypto.group import (
    POINT_BYTES,
    SCALAR_BYTES,
    GroupError,
    L,
    Point,
    is_point,
    is_scalar,
    mul,
    mul_base,
    random_scalar,
    sub,
    sum_points,
)

__all__ = ["KeyAnnouncement", "generate_key", "joint_key", "prove_key", "verify_key"]

_KEY_DOMAIN = b"key-proof"


@dataclass(frozen=True, slots=True)
class KeyAnnouncement:
    """A seat's public key ``X`` with a Schnorr proof ``(c, s)``: ``c = H(ctx, X, s·G - c·X)``."""

    key: Point
    challenge: int
    response: int

    ENCODED_BYTES = POINT_BYTES + 2 * SCALAR_BYTES

    def encode(self) -> bytes:
        """``X ‖ c ‖ s``, 96 bytes."""
        return self.key + encode_scalar(self.challenge) + encode_scalar(self.response)

    @classmethod
    def decode(cls, data: bytes) -> KeyAnnouncement:
        """The announcement ``data`` encodes; :class:`DecodeError` if malformed."""
        reader = Reader(data)
        announcement = cls(reader.point(), reader.scalar(), reader.scalar())
        reader.finish()
        return announcement


def prove_key(secret: int, context: Context) -> KeyAnnouncement:
    """The announcement of ``secret·G`` with a proof bound to ``context``."""
    key = mul_base(secret)
    nonce = random_scalar()
    c = challenge(_KEY_DOMAIN, context, key, mul_base(nonce))
    return KeyAnnouncement(key, c, (nonce + c * secret) % L)


def generate_key(context: Context) -> tuple[int, KeyAnnouncement]:
    """A fresh secret and its announcement for ``context`` (the seat's own context)."""
    secret = random_scalar()
    return secret, prove_key(secret, context)


def verify_key(announcement: KeyAnnouncement, context: Context) -> None:
    """Check the proof of ``context.seat``'s key; :class:`VerificationError` naming it otherwise."""
    if not is_point(announcement.key):
        raise VerificationError(context.seat, "public key is not a valid group element")
    if not (is_scalar(announcement.challenge) and is_scalar(announcement.response)):
        raise VerificationError(context.seat, "key proof: not a canonical scalar")
    try:
        commitment = sub(
            mul_base(announcement.response), mul(announcement.challenge, announcement.key)
        )
    except GroupError:
        raise VerificationError(context.seat, "key proof is degenerate") from None
    if challenge(_KEY_DOMAIN, context, announcement.key, commitment) != announcement.challenge:
        raise VerificationError(
            context.seat, "key proof does not verify (secret unknown, or proof for another context)"
        )


def joint_key(announcements: Sequence[KeyAnnouncement], context: Context) -> Point:
    """Verify every seat's announcement (seat ``i`` is the i-th) and return ``Y = ΣX_i``.

    ``context.seat`` is ignored: announcement ``i`` is checked against
    ``context.for_seat(i)``. A joint key equal to the identity (keys that cancel
    out) is blamed on the last seat, whose key completed the sum.
    """
    if not announcements:
        raise ValueError("a joint key needs at least one seat")
    for seat, announcement in enumerate(announcements):
        verify_key(announcement, context.for_seat(seat))
    joint = sum_points(a.key for a in announcements)
    if not is_point(joint):
        raise VerificationError(len(announcements) - 1, "the joint key is the identity")
    return joint
