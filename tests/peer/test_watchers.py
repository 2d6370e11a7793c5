"""What watchers learn from how a seat plays, with no socket (the real processes are in
``test_watchers_lan.py``): which copy of a card a move shows.

Of several hidden copies of a card in a hand, the one a move shows is drawn uniformly at
random, so a reveal says nothing of the slots it leaves hidden (it used to be the lowest
slot, so every reveal told every watcher that the lower hidden slots were not that card)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import TypeVar

import pytest

import condottiere.peer.dealer
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


@pytest.mark.parametrize("seed", [1, 2])
def test_a_move_shows_a_copy_drawn_uniformly_not_the_lowest_slot(
    monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    recording = Recording(seed)
    monkeypatch.setattr(condottiere.peer.dealer, "_RANDOM", recording)
    Harness("zman", 3, seed=seed).play()
    several = [(candidates, chosen) for candidates, chosen in recording.choices
               if len(candidates) > 1]  # fmt: skip
    assert len(several) >= 10, "too few moves with a choice of copies to tell"
    ranks = Counter(candidates.index(chosen) for candidates, chosen in several)
    assert ranks[0] < len(several), "always the lowest slot"
    assert sum(ranks[rank] for rank in ranks if rank > 0) >= len(several) // 4, ranks
    for candidates, _ in several:
        assert candidates == sorted(candidates)  # drawn from every copy, in slot order
