"""A bot that picks uniformly among the legal moves, from its own seeded generator.

>>> from condottiere.games.condottiere import Game
>>> game = Game.new("zman", players=4, seed=5)
>>> bot = RandomBot(seed=9)
>>> bot.choose(game, game.to_act) in game.legal_moves()
True
"""

from __future__ import annotations

import random

from condottiere.bots.strategy import moves_for
from condottiere.games.condottiere import Game, Move

__all__ = ["RandomBot"]


class RandomBot:
    """Uniform among ``legal_moves()``; the same seed and the same positions give the same moves."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, game: Game, seat: int) -> Move:
        """Any legal move of ``seat``, each with the same probability."""
        return self._rng.choice(moves_for(game, seat))
