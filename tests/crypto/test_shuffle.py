"""The verifiable shuffle: honest shuffles verify and keep the cards; proofs encode canonically."""

from __future__ import annotations

import dataclasses
from collections import Counter
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from condottiere.crypto.context import Context
from condottiere.crypto.elgamal import Ciphertext, decrypt, trivial
from condottiere.crypto.errors import DecodeError, VerificationError
from condottiere.crypto.group import L, Point, hash_to_point, mul_base, random_scalar
from condottiere.crypto.shuffle import (
    ShuffleProof,
    random_permutation,
    shuffle,
    shuffle_with,
    verify_shuffle,
)

TABLE = b"table-7"
SECRET = 0x5EC2E7
KEY = mul_base(SECRET)


def messages(n: int) -> list[Point]:
    return [hash_to_point(b"test-card", i.to_bytes(2, "little")) for i in range(n)]


def starting_deck(n: int) -> list[Ciphertext]:
    return [trivial(m, KEY) for m in messages(n)]


def opened(deck: list[Ciphertext]) -> Counter[Point]:
    return Counter(decrypt(c, SECRET) for c in deck)


@pytest.mark.parametrize("n", [1, 2, 23, 110])
def test_honest_shuffle_verifies_and_keeps_every_card(n: int) -> None:
    deck = starting_deck(n)
    ctx = Context(TABLE, 0, 2)
    out, proof = shuffle(deck, KEY, ctx)
    verify_shuffle(deck, out, KEY, proof, ctx)
    assert opened(out) == Counter(messages(n))
    assert not set(out) & set(deck)


@pytest.mark.parametrize("seats", [2, 6])
def test_chain_of_seats_verifies_step_by_step_and_keeps_the_cards(seats: int) -> None:
    deck = starting_deck(23)
    for seat in range(seats):
        ctx = Context(TABLE, 3, seat)
        out, proof = shuffle(deck, KEY, ctx)
        verify_shuffle(deck, out, KEY, ShuffleProof.decode(proof.encode(), len(deck)), ctx)
        deck = out
    assert opened(deck) == Counter(messages(23))


def test_shuffle_with_moves_card_at_permutation_index_to_each_position() -> None:
    deck = starting_deck(5)
    permutation = [3, 0, 4, 1, 2]
    randomness = [random_scalar() for _ in range(5)]
    ctx = Context(TABLE, 0, 0)
    out, proof = shuffle_with(deck, KEY, ctx, permutation, randomness)
    verify_shuffle(deck, out, KEY, proof, ctx)
    assert [decrypt(c, SECRET) for c in out] == [messages(5)[j] for j in permutation]
    again, _ = shuffle_with(deck, KEY, ctx, permutation, randomness)
    assert again == out


@pytest.mark.parametrize(
    ("permutation", "randomness"),
    [
        ([0, 0, 2], [1, 2, 3]),
        ([0, 1], [1, 2, 3]),
        ([2, 1, 0], [1, 2]),
        ([2, 1, 0], [1, 0, 3]),
        ([2, 1, 0], [1, L, 3]),
    ],
)
def test_shuffle_with_refuses_a_witness_that_is_not_one(
    permutation: list[int], randomness: list[int]
) -> None:
    with pytest.raises(ValueError):
        shuffle_with(starting_deck(3), KEY, Context(TABLE, 0, 0), permutation, randomness)


def test_empty_deck_cannot_be_shuffled_and_its_verification_blames_the_seat() -> None:
    with pytest.raises(ValueError):
        shuffle([], KEY, Context(TABLE, 0, 0))
    _, proof = shuffle(starting_deck(1), KEY, Context(TABLE, 0, 4))
    with pytest.raises(VerificationError) as err:
        verify_shuffle([], [], KEY, proof, Context(TABLE, 0, 4))
    assert err.value.seat == 4


def test_random_permutation_draws_every_ordering_about_equally_often() -> None:
    draws = Counter(tuple(random_permutation(3)) for _ in range(6000))
    assert len(draws) == 6
    # Each count is Binomial(6000, 1/6): mean 1000, standard deviation about 29.
    assert all(850 < count < 1150 for count in draws.values())


@cache
def small_shuffle(n: int) -> tuple[list[Ciphertext], list[Ciphertext], ShuffleProof]:
    deck = starting_deck(n)
    out, proof = shuffle(deck, KEY, Context(TABLE, 1, 5))
    return deck, out, proof


def test_proof_encoding_has_the_documented_size_and_round_trips() -> None:
    _, _, proof = small_shuffle(3)
    data = proof.encode()
    assert len(data) == ShuffleProof.encoded_size(3) == 32 * (4 * 3 + 5)
    assert ShuffleProof.decode(data, 3) == proof
    assert ShuffleProof.decode(data, 3).encode() == data


def test_decode_refuses_a_deck_size_below_one() -> None:
    with pytest.raises(DecodeError):
        ShuffleProof.decode(b"", 0)


def check_received(data: bytes, n: int = 2) -> str:
    """Decode then verify ``data`` as the proof of the cached shuffle; which error (if any)."""
    deck, out, _ = small_shuffle(n)
    try:
        proof = ShuffleProof.decode(data, n)
    except DecodeError:
        return "decode"
    try:
        verify_shuffle(deck, out, KEY, proof, Context(TABLE, 1, 5))
    except VerificationError as err:
        assert err.seat == 5
        return "verify"
    return "accepted"


@settings(max_examples=60, deadline=None)
@given(st.integers(0, ShuffleProof.encoded_size(2) - 1), st.integers(0, 7))
def test_any_bit_flip_in_a_proof_is_refused_or_fails_verification(byte: int, bit: int) -> None:
    data = bytearray(small_shuffle(2)[2].encode())
    data[byte] ^= 1 << bit
    assert check_received(bytes(data)) in ("decode", "verify")


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_truncated_or_extended_proofs_are_refused(data: st.DataObject) -> None:
    encoded = small_shuffle(2)[2].encode()
    cut = data.draw(st.integers(0, len(encoded) - 1))
    tail = data.draw(st.binary(min_size=1, max_size=64))
    assert check_received(encoded[:cut]) == "decode"
    assert check_received(encoded + tail) == "decode"


@settings(max_examples=30, deadline=None)
@given(st.binary(min_size=ShuffleProof.encoded_size(1), max_size=ShuffleProof.encoded_size(1)))
def test_random_bytes_of_the_right_length_never_pass(data: bytes) -> None:
    assert check_received(data, n=1) in ("decode", "verify")


def test_proof_for_another_deck_size_is_refused_by_decode_and_by_verify() -> None:
    deck, out, proof = small_shuffle(3)
    with pytest.raises(DecodeError):
        ShuffleProof.decode(proof.encode(), 2)
    shorter = dataclasses.replace(proof, s_prime=proof.s_prime[:2])
    with pytest.raises(VerificationError, match="lengths"):
        verify_shuffle(deck, out, KEY, shorter, Context(TABLE, 1, 5))
