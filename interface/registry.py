"""The registry of games: a table definition's ``game`` field names one of them.

A game is a distribution's entry point in the group :data:`GAME_GROUP` (``condottiere.games``),
named as tables name the game and pointing at its :class:`GameRules` value
(``module:attribute``). This project's own games are declared so in its ``pyproject.toml``;
another package adds a game by declaring one of its own, and every command (``play``, ``host``,
``verify``, ``replay``, ``tournament`` ...) then offers it, with no edit here or anywhere in the
platform. A game is loaded only when asked for, so the platform never imports a game's module
itself.

>>> game_named("condottiere").title
'Condottiere'
>>> {"captains", "condottiere"} <= set(game_names())
True
>>> game_named("chess")
Traceback (most recent call last):
...
ValueError: this peer plays ..., not 'chess'
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import EntryPoint, distributions
from typing import cast

from condottiere.interface.game import GameRules

__all__ = ["DEFAULT_GAME", "GAME_GROUP", "game_named", "game_names", "game_of"]

GAME_GROUP = "condottiere.games"
"""The entry-point group where games are declared: each entry's name is the game's."""

DEFAULT_GAME = "condottiere"
"""The game a command plays when it is not told which."""


@cache
def _declared() -> dict[str, EntryPoint]:
    """Every game declared in :data:`GAME_GROUP` by the distributions on ``sys.path``, by name
    (the first of one name wins, in the order of ``sys.path``, as for modules).

    Every copy of a distribution's metadata is read, not only the first of its name: a
    source tree's stale ``*.egg-info`` (left by an older build, and first on ``sys.path`` when
    a command runs from the tree) would otherwise hide the games the installed copy declares.
    """
    found: dict[str, EntryPoint] = {}
    for distribution in distributions():
        for entry in distribution.entry_points.select(group=GAME_GROUP):
            found.setdefault(entry.name, entry)
    return found


def game_names() -> tuple[str, ...]:
    """The names of the games this peer can play, in alphabetical order."""
    return tuple(sorted(_declared()))


@cache
def game_named(name: str) -> GameRules:
    """The game declared as ``name``; ValueError if there is none, or if what it points at is
    not that game."""
    entry = _declared().get(name)
    if entry is None:
        raise ValueError(f"this peer plays {', '.join(game_names())}, not {name!r}")
    rules = entry.load()
    declared = getattr(rules, "name", None)
    if declared != name:
        raise ValueError(f"{entry.value} is the game {declared!r}, not {name!r}")
    return cast(GameRules, rules)


def game_of(state: object) -> GameRules:
    """The game whose rules made ``state`` (:meth:`GameRules.plays`); ValueError if no game
    declared here did.

    >>> from condottiere.interface.game import TableRules
    >>> game_of(game_named("captains").for_spectator(TableRules("captains", "standard", 2))).name
    'captains'
    """
    kind = type(state)
    found = _games_by_type.get(kind)
    if found is None:
        found = next((game_named(n) for n in game_names() if game_named(n).plays(state)), None)
        if found is None:
            raise ValueError(f"no game this peer plays makes a {kind.__name__}")
        _games_by_type[kind] = found
    return found


_games_by_type: dict[type, GameRules] = {}
"""The games :func:`game_of` found, by the type of their states."""
