"""Proofs of knowledge of secrets in linear relations: complete, sound against a wrong witness,
bound to their statement, refused when malformed."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from condottiere.crypto import linear
from condottiere.crypto.codec import Reader
from condottiere.crypto.context import Context
from condottiere.crypto.errors import VerificationError
from condottiere.crypto.group import BASE, L, add, hash_to_point, mul, mul_base
from condottiere.crypto.linear import LinearProof

scalars = st.integers(min_value=1, max_value=L - 1)
H = hash_to_point(b"test", b"H")
CTX = Context(b"t", 0, 3)


def relation(x: int, r: int) -> list[linear.Equation]:
    """``X = x·G``, ``R = r·G``, ``C = x·H + r·X``-like: the shape of a sealed share."""
    key = mul_base(x)
    return [
        (key, (BASE, None)),
        (mul_base(r), (None, BASE)),
        (add(mul(x, H), mul(r, key)), (H, key)),
    ]


@settings(max_examples=25, deadline=None)
@given(scalars, scalars)
def test_a_proof_of_true_secrets_verifies(x: int, r: int) -> None:
    equations = relation(x, r)
    proof = linear.prove((x, r), equations, b"test", CTX, (b"s",))
    linear.verify(proof, equations, b"test", CTX, (b"s",), "it")
    assert LinearProof.read(Reader(proof.encode()), 2) == proof


@settings(max_examples=25, deadline=None)
@given(scalars, scalars, scalars)
def test_a_proof_made_with_a_wrong_secret_is_refused_naming_the_prover(
    x: int, r: int, wrong: int
) -> None:
    if wrong == x:
        return
    equations = relation(x, r)
    proof = linear.prove((wrong, r), equations, b"test", CTX, (b"s",))
    with pytest.raises(VerificationError, match="does not verify") as err:
        linear.verify(proof, equations, b"test", CTX, (b"s",), "it")
    assert err.value.seat == 3


def test_a_proof_is_bound_to_its_kind_context_and_statement() -> None:
    equations = relation(5, 7)
    proof = linear.prove((5, 7), equations, b"test", CTX, (b"s",))
    for domain, context, statement in (
        (b"other", CTX, (b"s",)),
        (b"test", Context(b"t", 1, 3), (b"s",)),
        (b"test", CTX, (b"t",)),
    ):
        with pytest.raises(VerificationError):
            linear.verify(proof, equations, domain, context, statement, "it")


def test_a_proof_of_another_shape_or_with_non_canonical_scalars_is_refused() -> None:
    equations = relation(5, 7)
    proof = linear.prove((5, 7), equations, b"test", CTX, (b"s",))
    c, responses = proof.challenge, proof.responses
    for bad, why in (
        (LinearProof(c, responses[:1]), "another relation"),
        (LinearProof(c, (*responses, 1)), "another relation"),
        (LinearProof(c + L, responses), "canonical"),
        (LinearProof(c, (responses[0], responses[1] + L)), "canonical"),
    ):
        with pytest.raises(VerificationError, match=why):
            linear.verify(bad, equations, b"test", CTX, (b"s",), "it")
