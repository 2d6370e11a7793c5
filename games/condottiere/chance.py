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
('4', '3', '2')
"""

from __future__ import annotations

import hashlib
import sys
from array import array
from collections.abc import Sequence

from condottiere.interface.game import ChanceNode, Choice, Deal, Draw

__all__ = ["ChanceNode", "Choice", "Deal", "Draw", "SeededChance"]


class SeededChance:
    """Answers chance nodes from a seed.

    A draw pile is shuffled afresh each time it is re-formed (each ``epoch``): its
    order is its contents (in notation order) shuffled by a stream of pseudorandom
    bytes drawn from (seed, pile, epoch); ``explicit`` gives the order of a pile at
    epoch 0 instead (a scenario's deck, top first). A fair choice is drawn from
    (seed, index) alike. The streams are SHAKE-128 outputs: a pure function of their
    label, and cheap (a random playout re-forms a pile a few times a game).
    """

    def __init__(self, seed: int, explicit: dict[int, Sequence[str]] | None = None) -> None:
        self.seed = seed
        self._explicit = {pile: tuple(order) for pile, order in (explicit or {}).items()}
        self._shuffles: dict[tuple[int, int], _Shuffle] = {}

    def deal(
        self, node: Deal, *, pile: int, epoch: int, contents: Sequence[str], dealt: int
    ) -> tuple[str, ...]:
        """The next ``node.count`` cards of pile ``pile``, ``dealt`` cards into ``epoch``.

        ``contents`` is what the pile held when the epoch began, in notation order.
        """
        if epoch == 0 and pile in self._explicit:
            return self._explicit[pile][dealt : dealt + node.count]
        contents = tuple(contents)
        key = (pile, epoch)
        shuffle = self._shuffles.get(key)
        # Copies of one game share this source, and lines of play that part ways may re-form
        # the same epoch's pile from different cards: each contents has its own order.
        if shuffle is None or (shuffle.contents is not contents and shuffle.contents != contents):
            shuffle = _Shuffle(contents, f"{self.seed}/pile/{pile}/{epoch}")
            self._shuffles[key] = shuffle
        return shuffle.take(dealt, node.count)

    def choose(self, node: Choice, *, index: int) -> int:
        """The outcome of the ``index``-th fair random choice of the game."""
        (draw,) = _stream(f"{self.seed}/choice/{index}", 1)
        return node.seats[draw % len(node.seats)]


def _stream(label: str, count: int) -> array[int]:
    """``count`` pseudorandom 64-bit integers, a pure function of ``label``. Taken modulo a
    bound ``n``, each is uniform over ``range(n)`` to within ``n / 2**64``."""
    numbers = array("Q", hashlib.shake_128(label.encode()).digest(8 * count))
    if sys.byteorder == "big":
        numbers.byteswap()
    return numbers


class _Shuffle:
    """A uniformly random order of ``contents``, drawn from ``label``: a Fisher-Yates shuffle
    run front to back, only as far as the cards dealt so far (a round deals a fraction of
    the pile, and every position a deal reads is final once reached)."""

    __slots__ = ("_draws", "_order", "_placed", "contents")

    def __init__(self, contents: tuple[str, ...], label: str) -> None:
        self.contents = contents
        self._order = list(contents)
        self._draws = _stream(label, len(contents))
        self._placed = 0

    def take(self, start: int, count: int) -> tuple[str, ...]:
        """Positions ``start`` to ``start + count - 1`` of the order."""
        order = self._order
        size = len(order)
        end = min(start + count, size)
        draws = self._draws
        for position in range(self._placed, end):
            other = position + draws[position] % (size - position)
            order[position], order[other] = order[other], order[position]
        self._placed = max(self._placed, end)
        return tuple(order[start:end])
