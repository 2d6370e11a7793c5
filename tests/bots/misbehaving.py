"""Strategies that misbehave on purpose, for the tests that check they cannot stall a table:
they are loaded by path (``--strategy tests/bots/misbehaving.py:CLASS``), as an author's own
file would be."""

from __future__ import annotations

import itertools
import time

from condottiere.games.condottiere import Game, Move


class Raising:
    """Raises at every move."""

    name = "raising"

    def choose(self, game: Game, seat: int) -> Move:
        raise RuntimeError("this bot always fails")


class Sleeping:
    """Never answers its first move (sleeps for an hour), and so is never asked again."""

    name = "sleeping"

    def choose(self, game: Game, seat: int) -> Move:
        time.sleep(3600)
        return Move.parse("pass")


class Garbage:
    """Answers a number, words that are no move, and a move that is not legal now, in turn."""

    name = "garbage"

    def __init__(self) -> None:
        self._answers = itertools.cycle([42, "fly to the moon", Move.parse("retain 10 heroine")])

    def choose(self, game: Game, seat: int) -> Move:
        return next(self._answers)  # type: ignore[return-value]
