"""Chance, kept outside the rules.

The rules core never draws a random number. When it needs chance it stops at a
chance node and waits to be told the outcome:

- :class:`Deal`: ``count`` cards from draw pile ``pile`` go to ``seat``;
- :class:`Choice`: a fair random choice of one of ``seats``, for ``purpose``.

Offline, :class:`SeededChance` answers from a seed (and from a scenario's given
deck order); on the network the mental-poker deal and the commit-reveal coin
answer instead. Every answer is a pure function of the seed and the game state,
so a replayed game can be continued exactly where the original would have gone.

>>> chance = SeededChance(seed=7)
>>> chance.choose(Choice((0, 1, 2), "first battle marker"), index=0) in (0, 1, 2)
True
>>> chance.deal(Deal(seat=0, count=3), pile=0, epoch=1, contents=["1", "2", "3", "4"], dealt=0)
('3', '1', '2')
"""

from __future__ import annotations

import random
import sys
from array import array
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["ChanceNode", "Choice", "Deal", "Draw", "SeededChance"]


@dataclass(frozen=True, slots=True)
class Deal:
    """``count`` cards from the top of the draw pile to ``seat``."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class Choice:
    """A fair random choice of one of ``seats``; ``purpose`` says what it decides."""

    seats: tuple[int, ...]
    purpose: str


ChanceNode = Deal | Choice


@dataclass(frozen=True, slots=True)
class Draw:
    """Where a pending :class:`Deal` takes its cards from, for a dealer outside the rules.

    Draw pile ``pile`` is re-formed (shuffled afresh) at each ``epoch``; the deal takes
    positions ``start`` to ``start + deal.count - 1`` of that epoch's order.
    """

    deal: Deal
    pile: int
    epoch: int
    start: int

    @property
    def positions(self) -> range:
        """The positions of the epoch's order this deal takes."""
        return range(self.start, self.start + self.deal.count)


class SeededChance:
    """Answers chance nodes from a seed.

    A draw pile is shuffled afresh each time it is re-formed (each ``epoch``): its
    order is the sorted contents shuffled by a generator seeded with (seed, pile,
    epoch); ``explicit`` gives the order of a pile at epoch 0 instead (a scenario's
    deck, top first).
    """

    def __init__(self, seed: int, explicit: dict[int, Sequence[str]] | None = None) -> None:
        self.seed = seed
        self._explicit = {pile: tuple(order) for pile, order in (explicit or {}).items()}
        self._orders: dict[tuple[int, int], tuple[str, ...]] = {}

    def deal(
        self, node: Deal, *, pile: int, epoch: int, contents: Sequence[str], dealt: int
    ) -> tuple[str, ...]:
        """The next ``node.count`` cards of pile ``pile``, ``dealt`` cards into ``epoch``.

        ``contents`` is what the pile held when the epoch began, in notation order.
        """
        key = (pile, epoch)
        order = self._orders.get(key)
        if order is None:
            if epoch == 0 and pile in self._explicit:
                order = self._explicit[pile]
            else:
                order = _shuffled(tuple(contents), f"{self.seed}/pile/{pile}/{epoch}")
            self._orders[key] = order
        return order[dealt : dealt + node.count]

    def choose(self, node: Choice, *, index: int) -> int:
        """The outcome of the ``index``-th fair random choice of the game."""
        return random.Random(f"{self.seed}/choice/{index}").choice(node.seats)


def _shuffled(cards: tuple[str, ...], seed: str) -> tuple[str, ...]:
    """``cards`` in a uniformly random order drawn from ``seed``: each card gets an independent
    uniform 64-bit key, all drawn at once, and the cards are sorted by key (several times
    faster than ``random.shuffle``, which draws one bounded integer per card in Python)."""
    count = len(cards)
    keys = array("Q", random.Random(seed).getrandbits(64 * count).to_bytes(8 * count, "little"))
    if sys.byteorder == "big":
        keys.byteswap()
    by_key = sorted(range(count), key=keys.__getitem__)
    return tuple(map(cards.__getitem__, by_key))
