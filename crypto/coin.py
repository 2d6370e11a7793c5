"""Fair random choices by commit-reveal (first player, ties).

Every seat draws a 32-byte nonce and publishes the commitment
``SHA-256(domain ‖ table ‖ purpose ‖ seat ‖ nonce)`` (each part length-framed);
once every commitment is in, every seat reveals its nonce. The outcome among
``k`` options is derived from all nonces, in seat order, by rejection sampling
over a SHA-256 stream, so it has no modulo bias and no seat can steer it
without breaking the hash. A reveal that does not match its commitment, or a
missing one, is blamed on its seat.

>>> nonces, commitments = zip(*(commit(b"table-1", b"first player", seat) for seat in range(4)))
>>> choice = outcome(b"table-1", b"first player", 4, commitments, dict(enumerate(nonces)))
>>> 0 <= choice < 4
True
>>> outcome(b"table-1", b"first player", 4, commitments, {0: nonces[0]})
Traceback (most recent call last):
...
condottiere.crypto.errors.VerificationError: seat 1: no coin reveal
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping, Sequence

from condottiere.crypto.errors import VerificationError

__all__ = ["COMMITMENT_BYTES", "NONCE_BYTES", "commit", "commitment_of", "outcome"]

NONCE_BYTES = 32
COMMITMENT_BYTES = 32

_COMMIT_DOMAIN = b"condottiere/v1/coin-commit"
_OUTCOME_DOMAIN = b"condottiere/v1/coin-outcome"
_SAMPLE_BITS = 64
_MAX_OPTIONS = 1 << 32


def _frame(part: bytes) -> bytes:
    return len(part).to_bytes(8, "little") + part


def commitment_of(table: bytes, purpose: bytes, seat: int, nonce: bytes) -> bytes:
    """The commitment of ``seat`` to ``nonce`` for this table and purpose."""
    if len(nonce) != NONCE_BYTES:
        raise ValueError(f"a coin nonce is {NONCE_BYTES} bytes, got {len(nonce)}")
    parts = (_COMMIT_DOMAIN, table, purpose, seat.to_bytes(4, "little"), nonce)
    return hashlib.sha256(b"".join(_frame(p) for p in parts)).digest()


def commit(table: bytes, purpose: bytes, seat: int) -> tuple[bytes, bytes]:
    """A fresh random nonce and the commitment to publish for it."""
    nonce = os.urandom(NONCE_BYTES)
    return nonce, commitment_of(table, purpose, seat, nonce)


def outcome(
    table: bytes,
    purpose: bytes,
    options: int,
    commitments: Sequence[bytes],
    reveals: Mapping[int, bytes],
) -> int:
    """The choice in ``range(options)`` from every seat's reveal (``commitments[i]`` is seat i's).

    Checks every reveal first; the lowest seat whose reveal is missing or does
    not match its commitment is blamed with :class:`VerificationError`.
    """
    if not 1 <= options <= _MAX_OPTIONS:
        raise ValueError(f"a choice is among 1 to {_MAX_OPTIONS} options, not {options}")
    if not commitments:
        raise ValueError("a choice needs at least one seat")
    for seat, commitment in enumerate(commitments):
        nonce = reveals.get(seat)
        if nonce is None:
            raise VerificationError(seat, "no coin reveal")
        if len(nonce) != NONCE_BYTES or commitment_of(table, purpose, seat, nonce) != commitment:
            raise VerificationError(seat, "coin reveal does not match its commitment")
    seed = hashlib.sha256(
        b"".join(
            _frame(p)
            for p in (_OUTCOME_DOMAIN, table, purpose, options.to_bytes(8, "little"),
                      *(reveals[seat] for seat in range(len(commitments))))
        )
    ).digest()
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
