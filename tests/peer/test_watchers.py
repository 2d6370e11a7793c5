"""What watchers learn from how a seat plays, with no socket (the real processes are in
``test_watchers_lan.py``).

- Which copy of a card a move shows: of several hidden copies, the one shown is drawn
  uniformly at random, so a reveal says nothing of the slots it leaves hidden (it used to be
  the lowest slot, so every reveal told every watcher that the lower hidden slots were not
  that card).
- When a forced move is published: a table that holds its forced moves (a node's) publishes
  one only through ``play_forced``, which the node calls once its pacer's delay has passed
  (``peer/pacing.py``): a delay drawn from the seat's own chosen moves' times."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import TypeVar

import pytest

import condottiere.peer.dealing.moves
from condottiere.peer.controller import snapshot_of
from condottiere.peer.pacing import BOT, KEPT, PERSON, Pacer
from tests.peer.stacked import like_hands
from tests.peer.tables import Harness

T = TypeVar("T")


class Recording(random.Random):
    """A seeded generator that records every choice of a copy: (candidates, chosen)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.choices: list[tuple[list[object], object]] = []

    def choice(self, seq: Sequence[T]) -> T:
        chosen = super().choice(seq)
        self.choices.append((list(seq), chosen))
        return chosen


def test_a_move_shows_a_copy_drawn_uniformly_not_the_lowest_slot(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Over a game whose hands hold several copies of their cards (dealt from a stacked deck),
    20 moves or more have several hidden copies to show one of, and the copy shown is not
    always the lowest slot, as it was every time before; a draw that showed the lowest of k
    copies with probability 1/k shows it 20 times in a row with probability 2**-20 at most."""
    recording = Recording(7)
    monkeypatch.setattr(condottiere.peer.dealing.moves, "_RANDOM", recording)
    like_hands(monkeypatch, 3)
    Harness("zman", 3, seed=0).play()
    several = [(candidates, chosen) for candidates, chosen in recording.choices
               if len(candidates) > 1]
    assert len(several) >= 20, "too few moves with a choice of copies to tell"
    ranks = Counter(candidates.index(chosen) for candidates, chosen in several)
    assert ranks[0] < len(several), "always the lowest slot"
    for candidates, _ in several:
        assert candidates == sorted(candidates)  # drawn from every copy, in slot order


# ------------------------------------------------------------------ forced moves


def held(harness: Harness) -> list[tuple[int, int]]:
    """Hold every seat's forced moves; the (seat, turn) of each one played since, by
    :meth:`Table.play_forced` (what a node does once its pacer's delay has passed)."""
    played: list[tuple[int, int]] = []
    for table in harness.tables:
        table.hold_forced = True

    def play_forced() -> None:
        for seat, table in enumerate(harness.tables):
            turn = table.forced_move()
            if turn is None:
                continue
            log = len(table.logs.log(table.me))
            game = table.game
            assert game is not None and len(game.legal_moves()) == 1
            snapshot = snapshot_of(table, 0.0)  # the owner is not asked to play it
            assert snapshot.forced and not snapshot.my_turn
            assert snapshot.waiting is not None and "only move" in snapshot.waiting.text
            assert table.submit(str(game.legal_moves()[0])) is None  # taken as said ...
            assert len(table.logs.log(table.me)) == log  # ... but not published
            assert table.play_forced(turn) and not table.play_forced(turn)
            played.append((seat, turn))

    harness.play(before_each=play_forced)
    return played


def test_a_held_forced_move_is_published_only_by_play_forced_and_the_game_ends_the_same() -> None:
    harness = Harness("zman", 3, seed=4)
    played = held(harness)
    assert played, "no forced move in this game"
    for table in harness.tables:
        assert table.halt is None and table.cards is not None
    assert len({table.record_hash() for table in harness.tables}) == 1


def test_without_hold_a_forced_move_is_published_at_once_and_none_is_ever_held() -> None:
    harness = Harness("zman", 3, seed=4)
    waiting: list[int | None] = []
    harness.play(before_each=lambda: waiting.extend(t.forced_move() for t in harness.tables))
    assert waiting and set(waiting) == {None}
    assert all(table.cards is not None for table in harness.tables)


def test_a_pacer_draws_from_its_prior_then_only_from_the_times_recorded() -> None:
    pacer = Pacer(PERSON, rng=random.Random(3))
    first = [pacer.draw() for _ in range(200)]
    assert all(PERSON[0] <= delay <= PERSON[1] for delay in first)
    assert max(first) - min(first) > (PERSON[1] - PERSON[0]) / 2  # spread over the prior
    for seconds in (0.5, 1.5, 4.0):
        pacer.record(seconds)
    drawn = Counter(pacer.draw() for _ in range(300))
    assert set(drawn) == {0.5, 1.5, 4.0} and min(drawn.values()) > 60  # each about a third


def test_a_pacer_keeps_only_the_latest_times_and_refuses_a_prior_that_is_no_range() -> None:
    pacer = Pacer(BOT, rng=random.Random(4))
    for seconds in range(KEPT + 10):
        pacer.record(float(seconds))
    assert {pacer.draw() for _ in range(500)} == {float(s) for s in range(10, KEPT + 10)}
    pacer.record(-1.0)  # a clock that went back counts as no time
    assert 0.0 in {pacer.draw() for _ in range(500)}
    with pytest.raises(ValueError):
        Pacer((2.0, 1.0))
    with pytest.raises(ValueError):
        Pacer((-1.0, 1.0))
