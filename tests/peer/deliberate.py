"""A bot that takes its time, for the tests of ``test_watchers_lan.py``: the greedy bot's
move, after :data:`THINK` seconds of "thought" for every move it is asked for
(``--strategy tests.peer.deliberate:Deliberate``)."""

from __future__ import annotations

import time

from condottiere.bots.greedy import GreedyBot
from condottiere.games.condottiere import Game, Move

THINK = 0.4


class Deliberate:
    """Greedy, slowly."""

    name = "deliberate"

    def __init__(self, seed: int = 0) -> None:
        self._greedy = GreedyBot(seed)

    def choose(self, game: Game, seat: int) -> Move:
        time.sleep(THINK)
        return self._greedy.choose(game, seat)
