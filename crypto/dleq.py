"""Chaum-Pedersen proofs that two points have the same discrete logarithm (DLEQ).

A seat that knows ``x``, with public key ``X = x·G``, publishes ``R = x·a`` for a
base ``a`` and proves ``log_G X = log_a R`` without revealing ``x``: for a fresh
nonce ``k`` the challenge is ``c = H(domain, context, statement, k·G, k·a)`` and
the response ``s = k + c·x``; a verifier recomputes ``k·G = s·G - c·X`` and
``k·a = s·a - c·R`` and then the challenge. Decryption shares
(:mod:`~condottiere.crypto.shares`) and the parts that stand in for a seat that
left (:mod:`~condottiere.crypto.standin`) are such proofs, each under its own
domain tag and over its own statement, so that one never passes for the other.

The statement is the caller's, and must name everything the proof is about (strong
Fiat-Shamir): ``X``, whatever fixes ``a``, and ``R``.

>>> from condottiere.crypto.context import Context
>>> from condottiere.crypto.group import hash_to_point, mul, mul_base
>>> x, a, ctx = 5, hash_to_point(b"doc", b"base"), Context(b"t", 0, 1)
>>> X, R = mul_base(x), mul(x, a)
>>> c, s = prove(x, a, b"doc-proof", ctx, (X, a, R))
>>> verify(X, a, R, c, s, b"doc-proof", ctx, (X, a, R), "the example")
>>> verify(X, a, R, c, s, b"other-proof", ctx, (X, a, R), "the example")
Traceback (most recent call last):
    ...
condottiere.crypto.errors.VerificationError: seat 1: the example does not verify
>>> decode(encode(R, c, s)) == (R, c, s)
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

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
)
from condottiere.crypto.workers import WORKERS, pool

__all__ = [
    "ENCODED_BYTES",
    "PARALLEL_THRESHOLD",
    "decode",
    "encode",
    "prove",
    "verify",
    "verify_all",
]

ENCODED_BYTES = POINT_BYTES + 2 * SCALAR_BYTES
"""The length of ``R ‖ c ‖ s``."""

PARALLEL_THRESHOLD = 8
"""Below this many proofs, handing them to the thread pool costs more than it saves."""


def encode(result: Point, c: int, s: int) -> bytes:
    """``R ‖ c ‖ s``, 96 bytes."""
    return result + encode_scalar(c) + encode_scalar(s)


def decode(data: bytes) -> tuple[Point, int, int]:
    """``(R, c, s)`` from the bytes :func:`encode` makes; :class:`DecodeError` if malformed."""
    reader = Reader(data)
    decoded = reader.point(), reader.scalar(), reader.scalar()
    reader.finish()
    return decoded


def prove(
    secret: int, base: Point, domain: bytes, context: Context, statement: Sequence[bytes]
) -> tuple[int, int]:
    """``(c, s)``: the proof that ``log_G (secret·G) = log_base (secret·base)``, of kind
    ``domain``, bound to ``context`` and ``statement``."""
    nonce = random_scalar()
    c = challenge(domain, context, *statement, mul_base(nonce), mul(nonce, base))
    return c, (nonce + c * secret) % L


def verify(
    key: Point,
    base: Point,
    result: Point,
    c: int,
    s: int,
    domain: bytes,
    context: Context,
    statement: Sequence[bytes],
    subject: str,
) -> None:
    """Check the proof ``(c, s)`` that ``log_G key = log_base result``, of kind ``domain``, for
    ``context`` and ``statement``; otherwise :class:`VerificationError` naming ``context.seat``,
    its reason starting with ``subject`` (what the proof is for), also when ``result`` is not
    a group element or ``c`` or ``s`` is not a canonical scalar."""
    if not (is_scalar(c) and is_scalar(s)):
        raise VerificationError(context.seat, f"{subject}: not a canonical scalar")
    try:
        # libsodium refuses to multiply a point outside the group, so this also checks result
        commitment_base = sub(mul_base(s), mul(c, key))
        commitment_result = sub(mul(s, base), mul(c, result))
    except GroupError:
        what = "proof is degenerate" if is_point(result) else "not a group element"
        raise VerificationError(context.seat, f"{subject}: {what}") from None
    if challenge(domain, context, *statement, commitment_base, commitment_result) != c:
        raise VerificationError(context.seat, f"{subject} does not verify")


def verify_all(checks: Sequence[Callable[[], None]]) -> None:
    """Run ``checks``, each verifying one proof and raising if it fails, on threads when there
    are enough (libsodium releases the GIL); the first failing check in ``checks`` order raises
    its error."""
    if len(checks) < PARALLEL_THRESHOLD or WORKERS == 1:
        _run_all(checks)
        return
    size = -(-len(checks) // WORKERS)
    for _ in pool().map(_run_all, [checks[i : i + size] for i in range(0, len(checks), size)]):
        pass


def _run_all(checks: Sequence[Callable[[], None]]) -> None:
    for check in checks:
        check()
