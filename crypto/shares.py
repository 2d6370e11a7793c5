"""Decryption shares ``x_k·a`` with Chaum-Pedersen (DLEQ) proofs
(:mod:`~condottiere.crypto.dleq`).

To open the ciphertext ``(a, b)`` at some position, every seat ``k`` but the
owner publishes ``D_k = x_k·a`` and proves ``log_G X_k = log_a D_k`` without
revealing ``x_k``. The proof's challenge hashes the context (table, round,
seat), the seat's key, the position and the whole ciphertext, so a share proof
replayed for another card, position, round or seat fails. The owner adds its
own share privately: ``M = b - ΣD_k``.

>>> from condottiere.crypto.context import Context
>>> from condottiere.crypto.elgamal import encrypt
>>> from condottiere.crypto.group import hash_to_point, mul_base
>>> x0, x1 = 5, 9
>>> M = hash_to_point(b"doc", b"card")
>>> c = encrypt(M, mul_base(x0 + x1), 1234)
>>> ctx = Context(b"t", 0, 1)
>>> s1 = make_share(x1, mul_base(x1), c, 7, ctx)
>>> verify_share(s1, mul_base(x1), c, 7, ctx)
>>> unblind(c, [s1.share, share_point(x0, c)]) == M
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from condottiere.crypto import dleq
from condottiere.crypto.codec import encode_ciphertext, encode_u32
from condottiere.crypto.context import Context
from condottiere.crypto.elgamal import Ciphertext
from condottiere.crypto.errors import VerificationError
from condottiere.crypto.group import Point, mul, sub, sum_points
from condottiere.crypto.workers import WORKERS, pool

__all__ = [
    "DecryptionShare",
    "ShareCheck",
    "make_share",
    "make_shares",
    "share_point",
    "unblind",
    "verify_share",
    "verify_shares",
]

_SHARE_DOMAIN = b"decryption-share"


@dataclass(frozen=True, slots=True)
class DecryptionShare:
    """``D = x·a`` with a DLEQ proof ``(c, s)`` that ``log_G X = log_a D``."""

    share: Point
    challenge: int
    response: int

    ENCODED_BYTES = dleq.ENCODED_BYTES

    def encode(self) -> bytes:
        """``D ‖ c ‖ s``, 96 bytes."""
        return dleq.encode(self.share, self.challenge, self.response)

    @classmethod
    def decode(cls, data: bytes) -> DecryptionShare:
        """The share ``data`` encodes; :class:`DecodeError` if malformed."""
        return cls(*dleq.decode(data))


def share_point(secret: int, ciphertext: Ciphertext) -> Point:
    """``x·a``: a seat's decryption share of ``ciphertext``, without a proof (kept private)."""
    return mul(secret, ciphertext[0])


def _statement(
    key: Point, ciphertext: Ciphertext, position: int, share: Point
) -> tuple[bytes, ...]:
    return (key, encode_u32(position), encode_ciphertext(ciphertext), share)


def make_share(
    secret: int, key: Point, ciphertext: Ciphertext, position: int, context: Context
) -> DecryptionShare:
    """The share of ``ciphertext`` at ``position`` by ``context.seat``, whose key is ``key``."""
    share = share_point(secret, ciphertext)
    statement = _statement(key, ciphertext, position, share)
    return DecryptionShare(
        share, *dleq.prove(secret, ciphertext[0], _SHARE_DOMAIN, context, statement)
    )


def make_shares(
    secret: int, key: Point, items: Sequence[tuple[Ciphertext, int]], context: Context
) -> list[DecryptionShare]:
    """The shares of every ``(ciphertext, position)`` of ``items``, in order, as
    :func:`make_share` makes each; on the crypto threads when there are enough (libsodium
    releases the GIL).

    >>> from condottiere.crypto.context import Context
    >>> from condottiere.crypto.elgamal import encrypt
    >>> from condottiere.crypto.group import hash_to_point, mul_base
    >>> x, ctx = 9, Context(b"t", 0, 1)
    >>> items = [(encrypt(hash_to_point(b"doc", bytes([i])), mul_base(x), 5 + i), i)
    ...          for i in range(20)]
    >>> made = make_shares(x, mul_base(x), items, ctx)
    >>> [verify_share(s, mul_base(x), c, p, ctx) for s, (c, p) in zip(made, items)] == [None] * 20
    True
    """

    def make(chunk: Sequence[tuple[Ciphertext, int]]) -> list[DecryptionShare]:
        return [make_share(secret, key, c, position, context) for c, position in chunk]

    if len(items) < dleq.PARALLEL_THRESHOLD or WORKERS == 1:
        return make(items)
    size = -(-len(items) // WORKERS)
    chunks = [items[i : i + size] for i in range(0, len(items), size)]
    return [share for made in pool().map(make, chunks) for share in made]


def verify_share(
    share: DecryptionShare, key: Point, ciphertext: Ciphertext, position: int, context: Context
) -> None:
    """Check a share by ``context.seat`` (key ``key``); :class:`VerificationError` naming that
    seat for a share that does not verify or is not even well formed."""
    if not 0 <= position < 2**32:
        raise VerificationError(context.seat, f"share for position {position}, which no deck has")
    dleq.verify(
        key,
        ciphertext[0],
        share.share,
        share.challenge,
        share.response,
        _SHARE_DOMAIN,
        context,
        _statement(key, ciphertext, position, share.share),
        f"decryption share for position {position}",
    )


@dataclass(frozen=True, slots=True)
class ShareCheck:
    """One share to verify, with everything its proof is checked against."""

    share: DecryptionShare
    key: Point
    ciphertext: Ciphertext
    position: int
    context: Context

    def run(self) -> None:
        """Verify the share; :class:`VerificationError` naming ``context.seat`` otherwise."""
        verify_share(self.share, self.key, self.ciphertext, self.position, self.context)


def verify_shares(checks: Sequence[ShareCheck]) -> None:
    """Verify many shares, on threads when there are enough (libsodium releases the GIL).

    The first failing check in ``checks`` order raises its :class:`VerificationError`.
    """
    dleq.verify_all([check.run for check in checks])


def unblind(ciphertext: Ciphertext, shares: Iterable[Point]) -> Point:
    """``b - ΣD``: the card's point once every seat's share (the owner's included) is in."""
    return sub(ciphertext[1], sum_points(shares))
