"""The registry of games: a table definition's ``game`` field names one of them.

Each game is found by name and loaded only when asked for, so the platform never imports a
game's module itself.

>>> game_named("condottiere").title
'Condottiere'
>>> GAMES[DEFAULT_GAME]
'condottiere.games.condottiere.plugin:RULES'
>>> game_named("chess")
Traceback (most recent call last):
...
ValueError: this peer plays captains, condottiere, not 'chess'
>>> table_game_named("captains").title
'Condottieri Captains'
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import cast

from condottiere.interface.game import GameRules

__all__ = ["DEFAULT_GAME", "GAMES", "TABLE_GAMES", "game_named", "table_game_named"]

GAMES: dict[str, str] = {
    "captains": "condottiere.games.captains.plugin:RULES",
    "condottiere": "condottiere.games.condottiere.plugin:RULES",
}
"""Each game's name, and where its :class:`GameRules` value is (``module:attribute``)."""

DEFAULT_GAME = "condottiere"

TABLE_GAMES: tuple[str, ...] = ("captains", "condottiere")
"""The games peers can play at a table on the network (every one, now that the platform
carries every kind of card flow they ask for: a hand shown to one seat, a named card taken
from the deck, cards handed between hands); a game registered but not listed here would be
played offline only (``demo``, ``tournament``)."""


@cache
def game_named(name: str) -> GameRules:
    """The game registered as ``name``; ValueError if there is none."""
    where = GAMES.get(name)
    if where is None:
        raise ValueError(f"this peer plays {', '.join(GAMES)}, not {name!r}")
    module, attribute = where.split(":")
    rules = getattr(importlib.import_module(module), attribute)
    if rules.name != name:
        raise ValueError(f"{where} is the game {rules.name!r}, not {name!r}")
    return cast(GameRules, rules)


def table_game_named(name: str) -> GameRules:
    """The game registered as ``name`` if peers can play it at a table; ValueError saying why
    not."""
    if name not in TABLE_GAMES:
        if name in GAMES:
            raise ValueError(
                f"{game_named(name).title} is played offline only (demo, tournament), "
                "not at a table"
            )
        raise ValueError(f"this peer plays {', '.join(TABLE_GAMES)}, not {name!r}")
    return game_named(name)
