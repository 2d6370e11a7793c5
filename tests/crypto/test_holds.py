"""A hidden hand proves that it holds a card of a set: completeness, soundness, and a proof
that does not depend on which card of the hand is the one (beyond its randomness)."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from condottiere.crypto import holds
from condottiere.crypto.context import Context
from condottiere.crypto.deck import Slot
from condottiere.crypto.elgamal import Ciphertext, encrypt
from condottiere.crypto.errors import DecodeError, VerificationError
from condottiere.crypto.group import L, Point, hash_to_point, mul, mul_base
from condottiere.crypto.holds import (
    HiddenCard,
    HoldsProof,
    Simulated,
    prove,
    prove_with,
    verify,
)
from condottiere.crypto.sealed import Holding, seal_share

scalars = st.integers(min_value=1, max_value=L - 1)
POINTS = [hash_to_point(b"test-holds", bytes([n])) for n in range(12)]
"""The deck: card ``n`` is ``POINTS[n]``."""
CONTEXT = Context(b"table", 0, 1)
SEATS = 3
HOLDER = 1


def dealt_hand(secrets: list[int], cards: list[int], r: int) -> tuple[HiddenCard, ...]:
    """The cards ``cards`` dealt to seat 1 of three, as every peer knows them."""
    joint = mul_base(sum(secrets) % L)
    hand = []
    for n, card in enumerate(cards):
        ciphertext = encrypt(POINTS[card], joint, (r + n) % L or 1)
        hand.append(hidden(secrets, ciphertext))
    return tuple(hand)


def hidden(secrets: list[int], ciphertext: Ciphertext) -> HiddenCard:
    public = [mul(x, ciphertext[0]) for seat, x in enumerate(secrets) if seat != HOLDER]
    return HiddenCard.of(mul_base(secrets[HOLDER]), Holding.dealt(ciphertext), ciphertext, public)


hands = st.lists(st.integers(0, 11), min_size=1, max_size=7, unique=True)
card_sets = st.lists(st.integers(0, 11), min_size=1, max_size=5, unique=True)


@settings(max_examples=20, deadline=None)
@given(st.lists(scalars, min_size=SEATS, max_size=SEATS), hands, card_sets, scalars, st.data())
def test_a_hand_holding_a_card_of_the_set_proves_it(
    secrets: list[int], cards: list[int], wanted: list[int], r: int, data: st.DataObject
) -> None:
    assume(sum(secrets) % L)  # a joint key of zero: no table accepts it
    held = data.draw(st.sampled_from(cards))
    if held not in wanted:
        wanted = [*wanted[:-1], held]
    hand = dealt_hand(secrets, cards, r)
    points = [POINTS[c] for c in wanted]
    proof = prove(secrets[HOLDER], hand, points, (cards.index(held), wanted.index(held)), CONTEXT)
    verify(proof, hand, points, CONTEXT)
    assert HoldsProof.decode(proof.encode(), len(cards) * len(wanted)) == proof


@settings(max_examples=20, deadline=None)
@given(st.lists(scalars, min_size=SEATS, max_size=SEATS), hands, scalars, st.data())
def test_a_hand_with_no_card_of_the_set_cannot_prove_it(
    secrets: list[int], cards: list[int], r: int, data: st.DataObject
) -> None:
    assume(sum(secrets) % L)  # a joint key of zero: no table accepts it
    others = [c for c in range(12) if c not in cards]
    wanted = data.draw(st.lists(st.sampled_from(others), min_size=1, max_size=5, unique=True))
    hand = dealt_hand(secrets, cards, r)
    points = [POINTS[c] for c in wanted]
    claimed = (
        data.draw(st.integers(0, len(cards) - 1)),
        data.draw(st.integers(0, len(wanted) - 1)),
    )
    with pytest.raises(ValueError, match="is not card"):
        prove(secrets[HOLDER], hand, points, claimed, CONTEXT)
    # a prover that ignores the check: it answers the claimed branch as if it were true
    forged = _forged(secrets[HOLDER], hand, points, claimed)
    with pytest.raises(VerificationError, match="does not verify"):
        verify(forged, hand, points, CONTEXT)


def _forged(
    secret: int, hand: tuple[HiddenCard, ...], points: list[Point], claimed: tuple[int, int]
) -> HoldsProof:
    """What an honest prover's arithmetic gives for a branch that is not true."""
    real = claimed[0] * len(points) + claimed[1]
    results = holds._branch_results(hand, points)
    nonce = 12345
    fakes = [Simulated(n + 2, n + 3) for n in range(len(results) - 1)]
    commitments: list[bytes] = []
    others = iter(fakes)
    for branch, (card, result) in enumerate(results):
        if branch == real:
            commitments += [mul_base(nonce), mul(nonce, card.base)]
        else:
            fake = next(others)
            commitments += holds._commitments(card, result, fake.challenge, fake.response)
    c = holds.challenge(holds._DOMAIN, CONTEXT, *holds._statement(hand, points), *commitments)
    real_c = (c - sum(f.challenge for f in fakes)) % L
    challenges = [f.challenge for f in fakes]
    responses = [f.response for f in fakes]
    challenges.insert(real, real_c)
    responses.insert(real, (nonce + real_c * secret) % L)
    return HoldsProof(tuple(challenges), tuple(responses))


@pytest.fixture(scope="module")
def holding_two() -> tuple[list[int], list[int], tuple[HiddenCard, ...], list[Point]]:
    secrets = [3, 5, 7]
    cards = [4, 0, 9, 2]
    wanted = [9, 7, 4]
    return secrets, cards, dealt_hand(secrets, cards, 99), [POINTS[c] for c in wanted]


def test_a_tampered_proof_fails(holding_two: tuple) -> None:
    secrets, _, hand, points = holding_two
    proof = prove(secrets[HOLDER], hand, points, (2, 0), CONTEXT)
    verify(proof, hand, points, CONTEXT)
    for branch in (0, 6, 11):
        challenges = list(proof.challenges)
        challenges[branch] = (challenges[branch] + 1) % L
        with pytest.raises(VerificationError):
            verify(dataclasses.replace(proof, challenges=tuple(challenges)), hand, points, CONTEXT)
        responses = list(proof.responses)
        responses[branch] = (responses[branch] + 1) % L
        with pytest.raises(VerificationError):
            verify(dataclasses.replace(proof, responses=tuple(responses)), hand, points, CONTEXT)
    non_canonical = (proof.responses[0] + L, *proof.responses[1:])
    with pytest.raises(VerificationError, match="canonical"):
        verify(dataclasses.replace(proof, responses=non_canonical), hand, points, CONTEXT)
    with pytest.raises(DecodeError):
        HoldsProof.decode(proof.encode()[:-1], proof.branches)


def test_a_proof_is_bound_to_its_table_round_seat_and_statement(holding_two: tuple) -> None:
    secrets, _, hand, points = holding_two
    proof = prove(secrets[HOLDER], hand, points, (0, 2), CONTEXT)
    for context in (Context(b"other", 0, 1), Context(b"table", 1, 1), CONTEXT.for_seat(2)):
        with pytest.raises(VerificationError):
            verify(proof, hand, points, context)
    with pytest.raises(VerificationError):  # the same branches, the set in another order
        verify(proof, hand, [points[1], points[0], points[2]], CONTEXT)
    with pytest.raises(VerificationError):  # another hand of the same size
        verify(proof, (*hand[1:], hand[0]), points, CONTEXT)
    with pytest.raises(VerificationError, match="another statement"):
        verify(proof, hand[:3], points, CONTEXT)


@settings(max_examples=15, deadline=None)
@given(scalars, st.lists(st.tuples(scalars, scalars), min_size=11, max_size=11))
def test_the_proof_is_the_same_whichever_true_card_made_it(
    nonce: int, simulated: list[tuple[int, int]]
) -> None:
    """Two cards of the hand are in the set: the randomness of a proof made from the first
    maps one to one onto randomness that makes the very same proof from the second, so a
    proof's distribution does not depend on which card is used."""
    secrets, cards = [3, 5, 7], [4, 0, 9, 2]
    hand = dealt_hand(secrets, cards, 99)
    points = [POINTS[c] for c in (9, 7, 4)]
    x = secrets[HOLDER]
    first, second = (2, 0), (0, 2)  # card 9 (point 0) and card 4 (point 2)
    fakes = [Simulated(c, s) for c, s in simulated]
    proof = prove_with(x, hand, points, first, CONTEXT, nonce, fakes)
    verify(proof, hand, points, CONTEXT)
    a, b = first[0] * 3 + first[1], second[0] * 3 + second[1]
    # the second prover simulates the first's true branch with what the first answered, and
    # takes as its nonce the one that gives the first's answer on its own true branch
    mapped_nonce = (proof.responses[b] - proof.challenges[b] * x) % L
    mapped = [Simulated(proof.challenges[n], proof.responses[n]) for n in range(12) if n != b]
    assert prove_with(x, hand, points, second, CONTEXT, mapped_nonce, mapped) == proof
    assert proof.challenges[a] != 0 and len(proof.encode()) == HoldsProof.encoded_bytes(12)


def test_a_card_received_sealed_is_proved_through_its_holding() -> None:
    """A card handed to the holder by another seat: the holder knows its hidden part through
    the sealed pair it received, and proves the card as well as a card dealt to it."""
    secrets = [3, 5, 7]
    joint = mul_base(sum(secrets))
    ciphertext = encrypt(POINTS[6], joint, 41)
    giver = 0
    share = seal_share(
        secrets[giver], Holding.dealt(ciphertext), ciphertext, Slot(0, 0), HOLDER,
        mul_base(secrets[HOLDER]), Context(b"table", 0, giver),
    )
    public = [mul(x, ciphertext[0]) for seat, x in enumerate(secrets) if seat != giver]
    card = HiddenCard.of(mul_base(secrets[HOLDER]), Holding.received(share), ciphertext, public)
    hand = (*dealt_hand(secrets, [1, 2], 5), card)
    points = [POINTS[3], POINTS[6]]
    proof = prove(secrets[HOLDER], hand, points, (2, 1), CONTEXT)
    verify(proof, hand, points, CONTEXT)
    with pytest.raises(ValueError):
        prove(secrets[HOLDER], hand, points, (2, 0), CONTEXT)
