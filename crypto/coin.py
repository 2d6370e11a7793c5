"""Fair random choices (first player, ties) whose values the others can open: commit, escrow,
reveal.

Every committer draws a secret *value* ``v``, a random non-zero scalar, and publishes the
commitment ``C = v·G``; once every commitment is in, it escrows ``v`` among the others by
Feldman verifiable secret sharing (:mod:`condottiere.crypto.vss`, whose ``F_0`` is ``C``), so
that the others together can open ``v`` without it; then it reveals ``v``. The outcome among
``k`` options comes from every value, in committer order, by rejection sampling over a
SHA-256 stream, so it has no modulo bias and no committer can steer it without breaking the
hash. A value is the one scalar whose multiple of ``G`` is its commitment, so a revealed value
and a value opened from its escrow are the same value, and give the same outcome.

>>> values = [draw_value() for _ in range(4)]
>>> commitments = [commitment_of(v) for v in values]
>>> all(value_matches(v, c) for v, c in zip(values, commitments))
True
>>> choice = outcome(b"table-1", b"first player", 4, values)
>>> 0 <= choice < 4
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence

from condottiere.crypto.errors import VerificationError
from condottiere.crypto.group import POINT_BYTES, SCALAR_BYTES, L, mul_base, random_scalar
from condottiere.crypto.vss import evaluation_point, lagrange_at_zero

__all__ = [
    "COMMITMENT_BYTES",
    "VALUE_BYTES",
    "commitment_of",
    "draw_value",
    "outcome",
    "recover_value",
    "value_matches",
]

VALUE_BYTES = SCALAR_BYTES
COMMITMENT_BYTES = POINT_BYTES

_OUTCOME_DOMAIN = b"condottiere/v1/coin-outcome"
_SAMPLE_BITS = 64
_MAX_OPTIONS = 1 << 32


def _frame(part: bytes) -> bytes:
    return len(part).to_bytes(8, "little") + part


def draw_value() -> int:
    """A fresh secret value: a uniformly random non-zero scalar (the operating system's
    generator)."""
    return random_scalar()


def commitment_of(value: int) -> bytes:
    """The commitment to ``value``: ``value·G`` (binding, and hiding a random value)."""
    return mul_base(value)


def value_matches(value: int, commitment: bytes) -> bool:
    """Whether ``value`` is a non-zero scalar whose commitment is ``commitment``."""
    return 0 < value < L and mul_base(value) == commitment


def recover_value(commitment: bytes, pieces: Mapping[int, int], committer: int) -> int:
    """The value of ``committer`` (its index among the committers) opened from its escrow:
    Lagrange interpolation at 0 of ``pieces`` (index of the holder -> its piece, every other
    committer's); :class:`VerificationError` naming ``committer`` if they do not open its
    commitment (each piece must have been checked against the dealing already)."""
    holders = sorted(pieces)
    weights = lagrange_at_zero([evaluation_point(holder) for holder in holders])
    value = sum(w * pieces[h] for w, h in zip(weights, holders, strict=True)) % L
    if not value_matches(value, commitment):
        raise VerificationError(committer, "its escrowed pieces do not open its commitment")
    return value


def outcome(table: bytes, purpose: bytes, options: int, values: Sequence[int]) -> int:
    """The choice in ``range(options)`` from every committer's value, in committer order."""
    if not 1 <= options <= _MAX_OPTIONS:
        raise ValueError(f"a choice is among 1 to {_MAX_OPTIONS} options, not {options}")
    if not values:
        raise ValueError("a choice needs at least one committer")
    if not all(0 < value < L for value in values):
        raise ValueError("a coin value is a non-zero scalar")
    parts = (
        _OUTCOME_DOMAIN,
        table,
        purpose,
        options.to_bytes(8, "little"),
        *(value.to_bytes(VALUE_BYTES, "little") for value in values),
    )
    seed = hashlib.sha256(b"".join(_frame(p) for p in parts)).digest()
    return _sample(seed, options)


def _sample(seed: bytes, options: int) -> int:
    """A uniform integer below ``options`` from the stream ``SHA-256(seed ‖ counter)``.

    Values at or above the largest multiple of ``options`` that fits in 64
    bits are rejected, so every option is exactly equally likely.
    """
    limit = (1 << _SAMPLE_BITS) - (1 << _SAMPLE_BITS) % options
    counter = 0
    while True:
        block = hashlib.sha256(seed + counter.to_bytes(8, "little")).digest()
        for start in range(0, len(block), _SAMPLE_BITS // 8):
            value = int.from_bytes(block[start : start + _SAMPLE_BITS // 8], "little")
            if value < limit:
                return value % options
        counter += 1
