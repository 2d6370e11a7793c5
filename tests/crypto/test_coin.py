"""Fair random choices: commitments to values, outcomes in range and even, every value counts,
and a value opened from its escrow is the value itself."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from condottiere.crypto.coin import (
    commitment_of,
    draw_value,
    outcome,
    recover_value,
    value_matches,
)
from condottiere.crypto.context import Context
from condottiere.crypto.errors import VerificationError
from condottiere.crypto.group import L, mul_base
from condottiere.crypto.sealing import BoxSecret
from condottiere.crypto.vss import make_dealing, open_piece

TABLE, PURPOSE = b"table-9", b"first player"
values_st = st.lists(st.integers(1, L - 1), min_size=1, max_size=6)


@given(values_st, st.integers(1, 2**32))
def test_outcome_is_always_in_range(values: list[int], options: int) -> None:
    assert 0 <= outcome(TABLE, PURPOSE, options, values) < options


@given(values_st, st.data())
def test_every_committers_value_changes_the_outcome(values: list[int], data: st.DataObject) -> None:
    before = outcome(TABLE, PURPOSE, 2**32, values)
    seat = data.draw(st.integers(0, len(values) - 1))
    changed = list(values)
    changed[seat] = values[seat] % (L - 1) + 1
    assert outcome(TABLE, PURPOSE, 2**32, changed) != before


def test_outcome_is_bound_to_table_and_purpose() -> None:
    values = [draw_value() for _ in range(3)]
    results = {
        (table, purpose): outcome(table, purpose, 2**32, values)
        for table in (TABLE, b"table-10")
        for purpose in (PURPOSE, b"tie break")
    }
    assert len(set(results.values())) == 4


def test_a_value_matches_its_commitment_only() -> None:
    value = draw_value()
    commitment = commitment_of(value)
    assert commitment == mul_base(value) and value_matches(value, commitment)
    assert not value_matches(value + 1, commitment)
    assert not value_matches(0, commitment) and not value_matches(value + L, commitment)


@pytest.mark.parametrize("options", [0, 2**32 + 1])
def test_number_of_options_out_of_bounds_is_refused(options: int) -> None:
    with pytest.raises(ValueError):
        outcome(TABLE, PURPOSE, options, [draw_value()])


def test_a_value_that_is_no_scalar_is_refused() -> None:
    with pytest.raises(ValueError):
        outcome(TABLE, PURPOSE, 2, [0])
    with pytest.raises(ValueError):
        outcome(TABLE, PURPOSE, 2, [])


@pytest.mark.parametrize("options", [2, 3, 6])
def test_outcomes_are_spread_evenly_over_the_options(options: int) -> None:
    counts: Counter[int] = Counter()
    for i in range(600 * options):
        values = [
            int.from_bytes(hashlib.sha256(f"{i}/{seat}".encode()).digest(), "little") % L or 1
            for seat in range(3)
        ]
        counts[outcome(TABLE, PURPOSE, options, values)] += 1
    assert set(counts) == set(range(options))
    assert all(abs(count - 600) < 6 * 600**0.5 for count in counts.values())


@settings(max_examples=20, deadline=None)
@given(st.integers(3, 6), st.data())
def test_a_value_opened_from_every_other_committers_piece_is_the_value_itself(
    seats: int, data: st.DataObject
) -> None:
    dealer = data.draw(st.integers(0, seats - 1))
    boxes = [BoxSecret(bytes([seat + 1]) * 32) for seat in range(seats)]
    value = draw_value()
    context = Context(TABLE, 0, dealer)
    dealing = make_dealing(value, [box.public for box in boxes], context)
    commitment = commitment_of(value)
    pieces = {
        holder: open_piece(dealing, commitment, boxes[holder], holder, context)
        for holder in range(seats)
        if holder != dealer
    }
    assert recover_value(commitment, pieces, dealer) == value
    fewer = dict(list(pieces.items())[1:])  # one holder short: any value is as likely
    with pytest.raises(VerificationError) as caught:
        recover_value(commitment, fewer, dealer)
    assert caught.value.seat == dealer
