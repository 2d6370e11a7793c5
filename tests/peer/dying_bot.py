"""A bot that dies as a killed process does (SIGKILL, no goodbye) when it is asked for its
second move: a seat killed with ``kill -9`` in the middle of a game, at a move, exactly."""

from __future__ import annotations

import os
import signal
from typing import Any

from condottiere.bots.greedy import GreedyBot


class DyingBot:
    """Plays as ``greedy``, then kills its own process at its second move."""

    name = "dying"

    def __init__(self, seed: int = 0) -> None:
        self._greedy = GreedyBot(seed=seed)
        self._asked = 0

    def choose(self, game: Any, seat: int) -> Any:
        self._asked += 1
        if self._asked == 2:
            os.kill(os.getpid(), signal.SIGKILL)
        return self._greedy.choose(game, seat)
