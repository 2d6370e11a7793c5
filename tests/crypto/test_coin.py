"""Commit-reveal random choices: range, blame, every reveal counts, uniformity."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from condottiere.crypto.coin import NONCE_BYTES, commit, commitment_of, outcome
from condottiere.crypto.errors import VerificationError

TABLE, PURPOSE = b"table-9", b"first player"
nonces_st = st.lists(st.binary(min_size=NONCE_BYTES, max_size=NONCE_BYTES), min_size=1, max_size=6)


def commitments_for(nonces: list[bytes], purpose: bytes = PURPOSE) -> list[bytes]:
    return [commitment_of(TABLE, purpose, seat, n) for seat, n in enumerate(nonces)]


@given(nonces_st, st.integers(1, 2**32))
def test_outcome_is_always_in_range(nonces: list[bytes], options: int) -> None:
    result = outcome(TABLE, PURPOSE, options, commitments_for(nonces), dict(enumerate(nonces)))
    assert 0 <= result < options


@given(nonces_st, st.data())
def test_every_seats_reveal_changes_the_outcome(nonces: list[bytes], data: st.DataObject) -> None:
    options = 2**32
    before = outcome(TABLE, PURPOSE, options, commitments_for(nonces), dict(enumerate(nonces)))
    seat = data.draw(st.integers(0, len(nonces) - 1))
    changed = list(nonces)
    changed[seat] = hashlib.sha256(nonces[seat]).digest()
    after = outcome(TABLE, PURPOSE, options, commitments_for(changed), dict(enumerate(changed)))
    assert after != before


def test_outcome_is_the_same_for_every_seat_computing_it() -> None:
    nonces, commitments = zip(*(commit(TABLE, PURPOSE, seat) for seat in range(5)), strict=True)
    results = {outcome(TABLE, PURPOSE, 5, commitments, dict(enumerate(nonces))) for _ in range(3)}
    assert len(results) == 1


@given(nonces_st, st.data())
def test_reveal_that_does_not_match_its_commitment_is_blamed(
    nonces: list[bytes], data: st.DataObject
) -> None:
    seat = data.draw(st.integers(0, len(nonces) - 1))
    reveals = dict(enumerate(nonces))
    reveals[seat] = bytes(b ^ 1 for b in nonces[seat])
    with pytest.raises(VerificationError, match="does not match") as err:
        outcome(TABLE, PURPOSE, 3, commitments_for(nonces), reveals)
    assert err.value.seat == seat


@given(nonces_st, st.data())
def test_missing_reveal_is_blamed(nonces: list[bytes], data: st.DataObject) -> None:
    seat = data.draw(st.integers(0, len(nonces) - 1))
    reveals = dict(enumerate(nonces))
    del reveals[seat]
    with pytest.raises(VerificationError, match="no coin reveal") as err:
        outcome(TABLE, PURPOSE, 3, commitments_for(nonces), reveals)
    assert err.value.seat == seat


def test_commitment_is_bound_to_table_purpose_and_seat() -> None:
    nonce, commitment = commit(TABLE, PURPOSE, 1)
    assert commitment == commitment_of(TABLE, PURPOSE, 1, nonce)
    assert commitment != commitment_of(b"table-10", PURPOSE, 1, nonce)
    assert commitment != commitment_of(TABLE, b"tie break", 1, nonce)
    assert commitment != commitment_of(TABLE, PURPOSE, 2, nonce)


def test_reveal_reused_by_another_seat_is_blamed_on_it() -> None:
    nonce, commitment = commit(TABLE, PURPOSE, 0)
    with pytest.raises(VerificationError) as err:
        outcome(TABLE, PURPOSE, 2, [commitment, commitment], {0: nonce, 1: nonce})
    assert err.value.seat == 1


def test_reveal_of_the_wrong_length_is_refused() -> None:
    nonce, commitment = commit(TABLE, PURPOSE, 0)
    with pytest.raises(VerificationError):
        outcome(TABLE, PURPOSE, 2, [commitment], {0: nonce[:-1]})


@pytest.mark.parametrize("options", [0, 2**32 + 1])
def test_number_of_options_out_of_bounds_is_refused(options: int) -> None:
    nonce, commitment = commit(TABLE, PURPOSE, 0)
    with pytest.raises(ValueError):
        outcome(TABLE, PURPOSE, options, [commitment], {0: nonce})


@pytest.mark.parametrize("options", [2, 3, 6])
def test_outcomes_are_spread_evenly_over_the_options(options: int) -> None:
    draws = 600 * options
    counts: Counter[int] = Counter()
    for i in range(draws):
        nonces = [hashlib.sha256(f"{i}/{seat}".encode()).digest() for seat in range(3)]
        reveals = dict(enumerate(nonces))
        counts[outcome(TABLE, PURPOSE, options, commitments_for(nonces), reveals)] += 1
    assert set(counts) == set(range(options))
    assert all(abs(count - 600) < 6 * 600**0.5 for count in counts.values())
