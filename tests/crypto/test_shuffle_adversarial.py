"""A cheating shuffler is caught by verification and the failure names its seat.

Each cheat is tried with the honest proof of the step it corrupts and with the
proof a cheater gets by running the honest prover on the corrupted deck (its
best effort without breaking the group), from the starting deck (every ``a = G``)
and from a deck in the middle of a chain.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import cache

import pytest

from condottiere.crypto.context import Context
from condottiere.crypto.elgamal import Ciphertext, encrypt, rerandomise, trivial
from condottiere.crypto.errors import DecodeError, VerificationError
from condottiere.crypto.group import (
    BASE,
    IDENTITY,
    Point,
    add,
    hash_to_point,
    mul_base,
    random_scalar,
)
from condottiere.crypto.shuffle import (
    ShuffleProof,
    prove_shuffle,
    shuffle,
    shuffle_with,
    verify_shuffle,
)

N = 8
CHEATER = 3
TABLE = b"table-9"
CTX = Context(TABLE, 4, CHEATER)
SECRET = 0xC0FFEE
KEY = mul_base(SECRET)
CARDS = [hash_to_point(b"test-card", bytes([i])) for i in range(N)]
OUTSIDER = hash_to_point(b"test-card", b"not in the deck")

NEGATIVE = (1).to_bytes(32, "little")  # s = 1 is odd ("negative"): no element
NON_CANONICAL = (2**255 - 19 + 2).to_bytes(32, "little")  # s = p + 2, an encoding of s = 2
MINUS_ONE = (2**255 - 19 - 1).to_bytes(32, "little")  # s = -1: y = 0, refused by the decoding


@cache
def input_deck(kind: str) -> list[Ciphertext]:
    start = [trivial(m, KEY) for m in CARDS]
    if kind == "starting deck":
        return start
    return shuffle(start, KEY, Context(TABLE, 4, 0))[0]


@dataclasses.dataclass(frozen=True)
class Step:
    deck_in: list[Ciphertext]
    deck_out: list[Ciphertext]
    proof: ShuffleProof
    permutation: list[int]
    randomness: list[int]


def honest_step(kind: str) -> Step:
    deck_in = input_deck(kind)
    permutation = [5, 2, 7, 0, 1, 6, 4, 3]
    randomness = [random_scalar() for _ in range(N)]
    out, proof = shuffle_with(deck_in, KEY, CTX, permutation, randomness)
    return Step(deck_in, out, proof, permutation, randomness)


def assert_blamed(
    deck_in: list[Ciphertext],
    deck_out: list[Ciphertext],
    proof: ShuffleProof,
    context: Context = CTX,
    reason: str = "does not verify",
) -> None:
    with pytest.raises(VerificationError, match=reason) as err:
        verify_shuffle(deck_in, deck_out, KEY, proof, context)
    assert err.value.seat == context.seat


def duplicate_exact(step: Step) -> list[Ciphertext]:
    return [*step.deck_out[:2], step.deck_out[1], *step.deck_out[3:]]


def duplicate_rerandomised(step: Step) -> list[Ciphertext]:
    twin = rerandomise(step.deck_out[1], KEY, random_scalar())
    return [*step.deck_out[:2], twin, *step.deck_out[3:]]


def drop_for_known_card(step: Step) -> list[Ciphertext]:
    # Drop the card at position 6 and put a fresh encryption of the one at position 0 instead.
    copy = encrypt(CARDS[step.permutation[0]], KEY, random_scalar())
    return [*step.deck_out[:6], copy, *step.deck_out[7:]]


def replace_by_outsider(step: Step) -> list[Ciphertext]:
    fresh = encrypt(OUTSIDER, KEY, random_scalar())
    return [fresh, *step.deck_out[1:]]


def tamper_a(step: Step) -> list[Ciphertext]:
    a, b = step.deck_out[4]
    return [*step.deck_out[:4], (add(a, BASE), b), *step.deck_out[5:]]


def tamper_b(step: Step) -> list[Ciphertext]:
    a, b = step.deck_out[4]
    return [*step.deck_out[:4], (a, add(b, BASE)), *step.deck_out[5:]]


def swap_after_proving(step: Step) -> list[Ciphertext]:
    out = list(step.deck_out)
    out[0], out[1] = out[1], out[0]
    return out


CHEATS: dict[str, Callable[[Step], list[Ciphertext]]] = {
    "duplicates a card": duplicate_exact,
    "duplicates a card, re-randomised": duplicate_rerandomised,
    "drops a card for a fresh encryption of another": drop_for_known_card,
    "replaces a card by a fresh encryption of a different card": replace_by_outsider,
    "tampers with an a": tamper_a,
    "tampers with a b": tamper_b,
    "reorders the output after proving": swap_after_proving,
}


@pytest.mark.parametrize("kind", ["starting deck", "mid-chain deck"])
@pytest.mark.parametrize("cheat", list(CHEATS))
@pytest.mark.parametrize("proof_source", ["honest proof", "prover run on the cheat"])
def test_corrupted_output_deck_is_blamed_on_the_shuffler(
    kind: str, cheat: str, proof_source: str
) -> None:
    step = honest_step(kind)
    cheat_out = CHEATS[cheat](step)
    proof = step.proof
    if proof_source == "prover run on the cheat":
        proof = prove_shuffle(step.deck_in, cheat_out, KEY, CTX, step.permutation, step.randomness)
    assert_blamed(step.deck_in, cheat_out, proof)


def test_prover_run_with_another_permutation_than_the_one_used_fails() -> None:
    step = honest_step("mid-chain deck")
    wrong = [step.permutation[1], step.permutation[0], *step.permutation[2:]]
    proof = prove_shuffle(step.deck_in, step.deck_out, KEY, CTX, wrong, step.randomness)
    assert_blamed(step.deck_in, step.deck_out, proof)


def test_valid_proof_presented_for_another_input_deck_is_blamed() -> None:
    step = honest_step("mid-chain deck")
    other_input = shuffle(step.deck_in, KEY, Context(TABLE, 4, 1))[0]
    verify_shuffle(step.deck_in, step.deck_out, KEY, step.proof, CTX)
    assert_blamed(other_input, step.deck_out, step.proof)


@pytest.mark.parametrize(
    "context",
    [Context(b"table-other", 4, CHEATER), Context(TABLE, 5, CHEATER), Context(TABLE, 4, 2)],
    ids=["other table", "other round", "other seat"],
)
def test_proof_made_for_another_context_is_blamed_on_the_claimed_seat(context: Context) -> None:
    step = honest_step("mid-chain deck")
    assert_blamed(step.deck_in, step.deck_out, step.proof, context)


def test_proof_of_one_shuffle_attached_to_another_shuffle_of_the_same_deck_is_blamed() -> None:
    first, second = honest_step("mid-chain deck"), honest_step("mid-chain deck")
    assert_blamed(second.deck_in, second.deck_out, first.proof)
    assert_blamed(first.deck_in, first.deck_out, second.proof)


def test_proof_under_another_key_is_blamed() -> None:
    step = honest_step("mid-chain deck")
    with pytest.raises(VerificationError) as err:
        verify_shuffle(step.deck_in, step.deck_out, mul_base(SECRET + 1), step.proof, CTX)
    assert err.value.seat == CHEATER


def odd_point() -> Point:
    """A valid element's encoding with its low bit set: a negative ``s``, no element."""
    valid = mul_base(12345)
    return bytes([valid[0] ^ 1]) + valid[1:]


BAD_POINTS = {
    "identity": IDENTITY,
    "negative": NEGATIVE,
    "non-canonical": NON_CANONICAL,
    "minus one": MINUS_ONE,
    "an element made odd": odd_point(),
}


@pytest.mark.parametrize("bad", list(BAD_POINTS))
@pytest.mark.parametrize("component", [0, 1])
def test_point_outside_the_group_in_the_output_deck_is_named_and_blamed(
    bad: str, component: int
) -> None:
    step = honest_step("mid-chain deck")
    card = list(step.deck_out[5])
    card[component] = BAD_POINTS[bad]
    cheat_out = [*step.deck_out[:5], (card[0], card[1]), *step.deck_out[6:]]
    proof = prove_shuffle(step.deck_in, cheat_out, KEY, CTX, step.permutation, step.randomness)
    where = f"output card 5 \\({'ab'[component]}\\)"
    assert_blamed(step.deck_in, cheat_out, proof, reason=where)
    assert_blamed(step.deck_in, cheat_out, step.proof, reason=where)


@pytest.mark.parametrize("bad", list(BAD_POINTS))
@pytest.mark.parametrize("field", ["commitments", "chain"])
def test_point_outside_the_group_in_a_proof_object_is_named_and_blamed(
    bad: str, field: str
) -> None:
    step = honest_step("mid-chain deck")
    points = list(getattr(step.proof, field))
    points[2] = BAD_POINTS[bad]
    if field == "commitments":
        proof = dataclasses.replace(step.proof, commitments=tuple(points))
    else:
        proof = dataclasses.replace(step.proof, chain=tuple(points))
    name = "permutation commitment" if field == "commitments" else "commitment chain element"
    assert_blamed(step.deck_in, step.deck_out, proof, reason=f"{name} 2 ")


@pytest.mark.parametrize(
    "malformed",
    [
        lambda out: out[:-1],
        lambda out: [*out, out[0]],
        lambda out: [*out[:-1], (out[-1][0][:31], out[-1][1])],
        lambda out: [*out[:-1], (out[-1][0],)],
        lambda out: [*out[:-1], [out[-1][0], out[-1][1]]],
    ],
    ids=["a card short", "a card too many", "short point", "half a card", "a list, not a pair"],
)
def test_malformed_output_deck_is_blamed_without_touching_the_group(
    malformed: Callable[[list[Ciphertext]], list[Ciphertext]],
) -> None:
    step = honest_step("mid-chain deck")
    with pytest.raises(VerificationError) as err:
        verify_shuffle(step.deck_in, malformed(step.deck_out), KEY, step.proof, CTX)
    assert err.value.seat == CHEATER


def test_out_of_range_scalar_in_a_proof_object_is_blamed() -> None:
    step = honest_step("mid-chain deck")
    bloated = dataclasses.replace(step.proof, s3=step.proof.s3 + 2**252 + 2**253)
    assert_blamed(step.deck_in, step.deck_out, bloated, reason="scalar")


@pytest.mark.parametrize("bad", list(BAD_POINTS))
@pytest.mark.parametrize("index", [0, N + 3])
def test_point_outside_the_group_in_an_encoded_proof_is_refused_by_decode(
    bad: str, index: int
) -> None:
    data = bytearray(honest_step("mid-chain deck").proof.encode())
    data[32 * index : 32 * (index + 1)] = BAD_POINTS[bad]
    with pytest.raises(DecodeError, match=f"proof point {index} "):
        ShuffleProof.decode(bytes(data), N)
