"""Fair choices on the table (peer/coin.py): the verdict on an attempt's reveals and closes,
the next attempt, labels and outcomes."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from condottiere import crypto
from condottiere.peer.coin import Abandoned, Flip, Settled, verdict

TABLE = b"T" * 16


def flip_of(seats: tuple[int, ...] = (0, 1, 2), **changes: object) -> Flip:
    fields: dict[str, object] = {
        "choice": 0,
        "attempt": 0,
        "purpose": "first battle marker",
        "options": seats,
        "committers": seats,
    }
    fields.update(changes)
    return Flip(**fields)  # type: ignore[arg-type]


FLIP = flip_of()
NONE: frozenset[int] = frozenset()
ALL = {0, 1, 2}


def closes(**named: set[int]) -> dict[int, frozenset[int]]:
    """Closes by seat: ``closes(s0=set(), s1={2})``."""
    return {int(key[1:]): frozenset(value) for key, value in named.items()}


# ------------------------------------------------------------------ settled


def test_every_reveal_and_a_majority_closing_with_nothing_missing_settle_the_flip() -> None:
    assert verdict(FLIP, ALL, closes(s0=set(), s2=set())) == Settled()


def test_every_reveal_with_only_a_minority_closed_is_no_verdict_yet() -> None:
    assert verdict(FLIP, ALL, closes(s1=set())) is None


def test_a_missing_reveal_never_settles_even_with_every_close_empty() -> None:
    assert verdict(FLIP, {0, 1}, closes(s0=set(), s1=set(), s2=set())) is None


# ------------------------------------------------------------------ abandoned


def test_abandoned_when_every_other_committer_names_the_same_missing_seat() -> None:
    assert verdict(FLIP, {0, 1}, closes(s0={2}, s1={2})) == Abandoned((2,))


def test_closes_naming_different_missing_seats_give_no_verdict() -> None:
    assert verdict(FLIP, {0, 1}, closes(s0={2}, s1={0, 2})) is None


def test_a_blamed_seat_needs_no_close_of_its_own_and_its_close_changes_nothing() -> None:
    before = verdict(FLIP, {0, 1}, closes(s0={2}, s1={2}))
    after = verdict(FLIP, ALL, closes(s0={2}, s1={2}, s2=set()))
    assert before == after == Abandoned((2,))


def test_two_committers_can_never_abandon_a_flip() -> None:
    flip = flip_of((0, 1))
    assert verdict(flip, {0}, closes(s0={1})) is None
    assert verdict(flip, {0, 1}, closes(s0={1}, s1={0})) is None


def test_half_the_table_withholding_cannot_be_abandoned() -> None:
    flip = flip_of((0, 1, 2, 3))
    assert verdict(flip, {0, 1}, closes(s0={2, 3}, s1={2, 3})) is None
    assert verdict(flip, {0, 1, 2}, closes(s0={3}, s1={3}, s2={3})) == Abandoned((3,))


def test_a_close_naming_its_own_seat_or_a_stranger_is_ignored() -> None:
    assert verdict(FLIP, {0, 1}, closes(s0={0}, s1={0})) is None
    assert verdict(FLIP, {0, 1}, closes(s0={7}, s1={7})) is None
    assert verdict(FLIP, ALL, closes(s5=set(), s0=set())) is None


def test_no_verdict_while_nobody_has_closed() -> None:
    assert verdict(FLIP, ALL, {}) is None
    assert verdict(FLIP, set(), {}) is None


# ------------------------------------------------------------------ agreement


@st.composite
def histories(draw: st.DrawFn) -> tuple[Flip, set[int], dict[int, frozenset[int]], list[int]]:
    """A flip, the reveals that exist, every committer's (first) close, and an order in which
    a peer hears of the closes."""
    size = draw(st.integers(2, 6))
    seats = tuple(range(size))
    revealed = draw(st.sets(st.sampled_from(seats)))
    final: dict[int, frozenset[int]] = {}
    for seat in seats:
        if draw(st.booleans()):
            others = [s for s in seats if s != seat]
            final[seat] = frozenset(draw(st.sets(st.sampled_from(others))))
    order = draw(st.permutations(list(final)))
    return flip_of(seats), revealed, final, order


@settings(max_examples=300, deadline=None)
@given(histories(), st.data())
def test_no_two_peers_ever_reach_different_verdicts_and_a_verdict_stays(
    history: tuple[Flip, set[int], dict[int, frozenset[int]], list[int]], data: st.DataObject
) -> None:
    """Two peers hear of the same reveals and closes in different orders: whenever both have
    a verdict, it is the same, and a peer's verdict never changes as more comes in."""
    flip, revealed, final, order = history
    other = data.draw(st.permutations(order))
    reached = set()
    for heard in (order, other):
        verdict_so_far = None
        for count in range(len(heard) + 1):
            known = {seat: final[seat] for seat in heard[:count]}
            for reveals in (set(), revealed):
                now = verdict(flip, reveals, known)
                if verdict_so_far is not None and reveals == revealed:
                    assert now == verdict_so_far
                if reveals == revealed and now is not None:
                    verdict_so_far = now
        if verdict_so_far is not None:
            reached.add(verdict_so_far)
    assert len(reached) <= 1


# ------------------------------------------------------------------ the next attempt


def test_again_drops_the_blamed_seats_and_counts_the_attempt() -> None:
    flip = flip_of((0, 1, 2, 3), choice=4, attempt=1)
    again = flip.again((2,))
    assert again == Flip(4, 2, flip.purpose, options=(0, 1, 3), committers=(0, 1, 3))


def test_again_with_one_option_left_is_that_seat() -> None:
    assert FLIP.again((0, 2)) == 1


def test_again_with_no_option_left_is_none() -> None:
    assert FLIP.again((0, 1, 2)) is None


def test_again_keeps_options_that_are_not_blamed_and_drops_blamed_committers() -> None:
    flip = flip_of((0, 1, 2, 3), options=(1, 3))
    again = flip.again((0,))
    assert isinstance(again, Flip)
    assert (again.options, again.committers, again.attempt) == ((1, 3), (1, 2, 3), 1)
    assert flip.again((1,)) == 3


def test_label_differs_per_choice_attempt_and_purpose() -> None:
    labels = {
        flip_of(choice=c, attempt=a, purpose=p).label
        for c in range(3)
        for a in range(3)
        for p in ("first battle marker", "tie")
    }
    assert len(labels) == 18
    assert flip_of(choice=1).label == flip_of(choice=1).label
    assert flip_of(choice=1, attempt=11).label != flip_of(choice=11, attempt=1).label


# ------------------------------------------------------------------ outcomes


def committed(flip: Flip) -> tuple[dict[int, bytes], dict[int, bytes]]:
    """Commitments and nonces of every committer, by seat (bound to its position)."""
    nonces = {seat: os.urandom(crypto.NONCE_BYTES) for seat in flip.committers}
    commitments = {
        seat: crypto.commitment_of(TABLE, flip.label, index, nonces[seat])
        for index, seat in enumerate(flip.committers)
    }
    return commitments, nonces


@pytest.mark.parametrize(
    ("committers", "options"), [((0, 1, 2), (0, 1, 2)), ((1, 3, 4), (3, 4)), ((2, 5), (5,))]
)
def test_outcome_is_the_option_crypto_outcome_picks(
    committers: tuple[int, ...], options: tuple[int, ...]
) -> None:
    flip = flip_of(committers, options=options)
    for _ in range(5):
        commitments, nonces = committed(flip)
        index = crypto.outcome(
            TABLE,
            flip.label,
            len(options),
            [commitments[s] for s in committers],
            {i: nonces[s] for i, s in enumerate(committers)},
        )
        assert flip.outcome(TABLE, commitments, nonces) == options[index]


def test_outcome_reaches_every_option() -> None:
    flip = flip_of((0, 1, 2))
    seen = {flip.outcome(TABLE, *committed(flip)) for _ in range(60)}
    assert seen == {0, 1, 2}


def test_wrong_nonce_is_refused_naming_its_position_among_committers() -> None:
    flip = flip_of((1, 3, 4), options=(3, 4))
    commitments, nonces = committed(flip)
    nonces[3] = os.urandom(crypto.NONCE_BYTES)
    with pytest.raises(crypto.VerificationError) as caught:
        flip.outcome(TABLE, commitments, nonces)
    assert caught.value.seat == 1


def test_missing_nonce_is_refused() -> None:
    flip = flip_of((1, 3, 4))
    commitments, nonces = committed(flip)
    del nonces[4]
    with pytest.raises(crypto.VerificationError) as caught:
        flip.outcome(TABLE, commitments, nonces)
    assert caught.value.seat == 2


def test_commitments_of_one_attempt_do_not_open_the_next() -> None:
    flip = flip_of((0, 1, 2))
    commitments, nonces = committed(flip)
    next_attempt = flip_of((0, 1, 2), attempt=1)
    with pytest.raises(crypto.VerificationError):
        next_attempt.outcome(TABLE, commitments, nonces)
    with pytest.raises(crypto.VerificationError):
        flip.outcome(b"U" * 16, commitments, nonces)
