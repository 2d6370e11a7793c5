"""Schnorr-style proofs of knowledge of secrets that satisfy linear relations between points.

The prover knows scalars ``w_1 .. w_m`` such that, for each equation ``i``,
``Y_i = Σ_j w_j·P_ij`` (a term may be absent: ``P_ij = None``). For fresh nonces
``k_j`` it commits ``K_i = Σ_j k_j·P_ij``, takes the challenge
``c = H(domain, context, statement, K_1 .. K_n)`` and answers ``s_j = k_j + c·w_j``;
a verifier recomputes ``K_i = Σ_j s_j·P_ij - c·Y_i`` and then the challenge.
Special soundness: two answers to different challenges for the same commitments give
every ``w_j``, so a prover that passes knows them (the proof is a proof of knowledge, not
only of existence). It is honest-verifier zero-knowledge, and with the challenge a hash
of everything (strong Fiat-Shamir) it is non-interactive.

A Chaum-Pedersen proof (:mod:`~condottiere.crypto.dleq`) is the case of one secret and
two equations; a share sealed to one seat (:mod:`~condottiere.crypto.sealed`) has two
secrets and three equations; a blinding step of a plaintext equivalence test
(:mod:`~condottiere.crypto.pet`) one secret and two equations over bases that are not ``G``.

The statement is the caller's, and must name every point of the equations (the caller's
bases and results) and whatever else the proof is about.

>>> from condottiere.crypto.context import Context
>>> from condottiere.crypto.group import BASE, add, hash_to_point, mul, mul_base
>>> H = hash_to_point(b"doc", b"H")
>>> x, r = 7, 11
>>> equations = [(mul_base(x), (BASE, None)), (add(mul(x, H), mul_base(r)), (H, BASE))]
>>> ctx = Context(b"t", 0, 1)
>>> proof = prove((x, r), equations, b"doc-linear", ctx, (b"statement",))
>>> verify(proof, equations, b"doc-linear", ctx, (b"statement",), "the example")
>>> verify(proof, equations, b"doc-linear", ctx, (b"other",), "the example")
Traceback (most recent call last):
    ...
condottiere.crypto.errors.VerificationError: seat 1: the example does not verify
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from condottiere.crypto.codec import Reader, encode_scalar
from condottiere.crypto.context import Context, challenge
from condottiere.crypto.errors import VerificationError
from condottiere.crypto.group import (
    SCALAR_BYTES,
    GroupError,
    L,
    Point,
    is_scalar,
    mul,
    random_scalar,
    sub,
    sum_points,
)

__all__ = ["Equation", "LinearProof", "prove", "verify"]

Equation = tuple[Point, Sequence[Point | None]]
"""``(Y, (P_1 .. P_m))``: ``Y = Σ_j w_j·P_j``, skipping the ``None`` bases."""


@dataclass(frozen=True, slots=True)
class LinearProof:
    """The challenge ``c`` and one response per secret."""

    challenge: int
    responses: tuple[int, ...]

    def encode(self) -> bytes:
        """``c ‖ s_1 ‖ .. ‖ s_m``, 32 bytes each (the count travels elsewhere)."""
        return encode_scalar(self.challenge) + b"".join(encode_scalar(s) for s in self.responses)

    @classmethod
    def read(cls, reader: Reader, secrets: int) -> LinearProof:
        """The proof of ``secrets`` responses at ``reader``'s front."""
        c = reader.scalar()
        return cls(c, tuple(reader.scalar() for _ in range(secrets)))

    @staticmethod
    def encoded_bytes(secrets: int) -> int:
        """The length of a proof of ``secrets`` secrets."""
        return (1 + secrets) * SCALAR_BYTES


def _combination(scalars: Sequence[int], bases: Sequence[Point | None]) -> Point:
    terms = [mul(k, p) for k, p in zip(scalars, bases, strict=True) if p is not None]
    return sum_points(terms)


def prove(
    secrets: Sequence[int],
    equations: Sequence[Equation],
    domain: bytes,
    context: Context,
    statement: Sequence[bytes],
) -> LinearProof:
    """The proof, of kind ``domain``, that the prover knows ``secrets`` satisfying every one
    of ``equations``, bound to ``context`` and ``statement``."""
    nonces = [random_scalar() for _ in secrets]
    commitments = [_combination(nonces, bases) for _, bases in equations]
    c = challenge(domain, context, *statement, *commitments)
    return LinearProof(c, tuple((k + c * w) % L for k, w in zip(nonces, secrets, strict=True)))


def verify(
    proof: LinearProof,
    equations: Sequence[Equation],
    domain: bytes,
    context: Context,
    statement: Sequence[bytes],
    subject: str,
) -> None:
    """Check ``proof`` of ``equations``, of kind ``domain``, for ``context`` and ``statement``;
    otherwise :class:`VerificationError` naming ``context.seat``, its reason starting with
    ``subject`` (also when a scalar is not canonical or a point is outside the group)."""
    seat = context.seat
    scalars = (proof.challenge, *proof.responses)
    if not all(is_scalar(k) for k in scalars):
        raise VerificationError(seat, f"{subject}: not a canonical scalar")
    if any(len(bases) != len(proof.responses) for _, bases in equations):
        raise VerificationError(seat, f"{subject}: a proof of another relation")
    try:
        # libsodium refuses to multiply a point outside the group: this also checks them all
        commitments = [
            sub(_combination(proof.responses, bases), mul(proof.challenge, result))
            if proof.challenge
            else _combination(proof.responses, bases)
            for result, bases in equations
        ]
    except GroupError:
        raise VerificationError(seat, f"{subject}: proof is degenerate") from None
    if challenge(domain, context, *statement, *commitments) != proof.challenge:
        raise VerificationError(seat, f"{subject} does not verify")
