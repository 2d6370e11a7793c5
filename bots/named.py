"""A strategy given by name (``greedy``), played in each game by the strategy that game's
plugin names so (:attr:`~condottiere.interface.GameRules.bots`): Condottiere's ``greedy`` is
:class:`~condottiere.bots.greedy.GreedyBot`, Captains' is
:class:`~condottiere.bots.captains_greedy.CaptainsGreedy`, and a game that names no
``greedy`` cannot be played by one. Nothing here knows a game: the game of a state is found in
the registry (:func:`~condottiere.interface.game_of`), and its strategy loaded from the
``module:attribute`` its plugin gives, once per game, with this bot's seed (and budget).

>>> from condottiere.interface import TableRules, game_named
>>> bot = NamedBot("greedy", seed=1)
>>> game = game_named("captains").offline(TableRules("captains", "standard", 2), seed=3)
>>> bot.choose(game, game.to_act) in game.legal_moves(), bot.played()
(True, ('captains',))
>>> NamedBot("clever", seed=1).choose(game, game.to_act)
Traceback (most recent call last):
...
ValueError: Condottieri Captains has no bot called 'clever' (its bots: greedy, ismcts, random)
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any

from condottiere.bots.budget import Budget
from condottiere.bots.strategy import Strategy
from condottiere.interface import GameRules, game_of

__all__ = ["NamedBot", "strategy_of"]


class NamedBot:
    """The strategy called ``name`` in whichever game it is asked to move; deterministic for a
    seed, as each game's own strategy is."""

    def __init__(self, name: str, seed: int = 0, budget: Budget | None = None) -> None:
        self.name = name
        self.seed = seed
        self.budget = budget
        self._per_game: dict[str, Strategy] = {}

    def choose(self, game: Any, seat: int) -> Any:
        """The move the strategy of ``game``'s own game called :attr:`name` chooses."""
        rules = game_of(game)
        strategy = self._per_game.get(rules.name)
        if strategy is None:
            strategy = self._per_game[rules.name] = strategy_of(rules, self.name, self.seed,
                                                                self.budget)
        return strategy.choose(game, seat)

    def played(self) -> tuple[str, ...]:
        """The games it has played a move of, by name."""
        return tuple(self._per_game)


def strategy_of(rules: GameRules, name: str, seed: int, budget: Budget | None = None) -> Strategy:
    """A new strategy of game ``rules`` called ``name``, seeded with ``seed`` (and given
    ``budget`` when it searches); ValueError when the game names no such strategy."""
    where = rules.bots.get(name)
    if where is None:
        raise ValueError(
            f"{rules.title} has no bot called {name!r} (its bots: {', '.join(sorted(rules.bots))})"
        )
    module, _, attribute = where.partition(":")
    factory = getattr(importlib.import_module(module), attribute)
    if budget is not None and "budget" in inspect.signature(factory).parameters:
        return factory(seed=seed, budget=budget)  # type: ignore[no-any-return]
    return factory(seed=seed)  # type: ignore[no-any-return]
