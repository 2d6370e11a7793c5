"""Bots: strategies that play a seat, and the small API a bot author writes against.

A strategy has a ``name`` and a ``choose(game, seat)`` method returning one of
``game.legal_moves()``; see :mod:`condottiere.bots.strategy`. A player names one (``greedy``),
and each game's plugin says which strategy plays it under that name
(:attr:`~condottiere.interface.GameRules.bots`, through :class:`NamedBot`). Three come with
the project, for both its games:

- ``random``: :class:`RandomBot`, uniform among the legal moves;
- ``greedy``: :class:`GreedyBot` (Captains:
  :class:`~condottiere.bots.captains_greedy.CaptainsGreedy`), one move of look-ahead and a few
  rules of thumb;
- ``ismcts``: :class:`IsmctsBot`, information-set Monte Carlo tree search from its own seat's
  view (it never reads another hand; for Captains, its moves compared on common samples), the
  game's own number of iterations a move (Condottiere 400, Captains 120 playouts) unless given
  a :class:`Budget`.

>>> from condottiere.games.condottiere import Game
>>> game = Game.new("zman", players=3, seed=11)
>>> bots = [make_bot("greedy", seed=1), make_bot("random", seed=2), make_bot("greedy", seed=3)]
>>> play_out(game, bots).phase
'over'
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from condottiere.bots.budget import Budget
from condottiere.bots.greedy import GreedyBot
from condottiere.bots.named import NamedBot
from condottiere.bots.random_bot import RandomBot
from condottiere.bots.strategy import NotYourTurnError, Strategy, moves_for, play_out
from condottiere.interface import game_named, game_names

if TYPE_CHECKING:
    from condottiere.bots.ismcts import IsmctsBot

__all__ = [
    "BOTS",
    "SEARCHING_BOTS",
    "Budget",
    "GreedyBot",
    "IsmctsBot",
    "NamedBot",
    "NotYourTurnError",
    "RandomBot",
    "Strategy",
    "make_bot",
    "moves_for",
    "play_out",
]

BOTS: dict[str, Callable[[int], Strategy]] = {
    name: partial(NamedBot, name)
    for name in sorted({name for game in game_names() for name in game_named(game).bots})
}
"""The strategies the command line knows, by name (every name a game's plugin gives one):
each takes a seed, and plays each game with the strategy that game names so."""
SEARCHING_BOTS: dict[str, Callable[[int, Budget], Strategy]] = {
    "ismcts": partial(NamedBot, "ismcts")
}
"""The strategies that search, by name: each takes a seed and a :class:`Budget`."""


def __getattr__(name: str) -> Any:
    """:class:`IsmctsBot`, imported when first asked for: the search and every game's policies
    are for a bot that searches, not for every peer's start."""
    if name == "IsmctsBot":
        from condottiere.bots.ismcts import IsmctsBot

        return IsmctsBot
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def make_bot(name: str, seed: int, budget: Budget | None = None) -> Strategy:
    """A new bot of the strategy called ``name``, seeded with ``seed``; ``budget`` sets how
    long a searching bot (``ismcts``) thinks per move, and the others ignore it.

    >>> make_bot("random", seed=4).name
    'random'
    >>> make_bot("ismcts", seed=4, budget=Budget(seconds=0.5)).budget
    Budget(iterations=None, seconds=0.5, cpu_seconds=None)
    >>> make_bot("clever", seed=4)
    Traceback (most recent call last):
    ...
    ValueError: no bot called 'clever' (known: greedy, ismcts, random)
    """
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"no bot called {name!r} (known: {', '.join(sorted(BOTS))})") from None
    if budget is not None and name in SEARCHING_BOTS:
        return SEARCHING_BOTS[name](seed, budget)
    return factory(seed)
