"""Condottiere on the client's screen: the :class:`~condottiere.interface.screen.GameScreen` the
shell draws the game with (``RULES.screen()``), in plain data (no terminal library).

- :mod:`~condottiere.games.condottiere.screen.board`: the map (or the battles won);
- :mod:`~condottiere.games.condottiere.screen.rows`: the battle's rows, and why each is worth
  what it is;
- :mod:`~condottiere.games.condottiere.screen.hand`: the hand;
- :mod:`~condottiere.games.condottiere.screen.choices`: what the keys choose among, and what
  a move would do;
- :mod:`~condottiere.games.condottiere.screen.banner`: what the seat to act must decide;
- :mod:`~condottiere.games.condottiere.screen.standing`: regions held, what wins;
- :mod:`~condottiere.games.condottiere.screen.help_page`: the game's part of the help page.

>>> SCREEN.board_size, SCREEN.verbs[:3]
((48, 8), ('battle', 'cede', 'play'))
"""

from __future__ import annotations

from typing import Any

from condottiere.games.condottiere.game import SeatView
from condottiere.games.condottiere.moves import VERBS
from condottiere.games.condottiere.screen import (
    banner,
    board,
    choices,
    hand,
    help_page,
    rows,
    standing,
)
from condottiere.interface.game import GameState, TableRules
from condottiere.interface.game import SeatView as AnySeatView
from condottiere.interface.screen import Choices, Explanation, Line, Scene

__all__ = ["SCREEN", "CondottiereScreen"]

BOARD_HEIGHT = board.MAP_LINES + 1
"""The map's lines and the line of regions per seat below it; also room for six rows."""


class CondottiereScreen:
    """Condottiere, in every edition, as the client's shell draws it."""

    board_size = (board.MAP_WIDTH, BOARD_HEIGHT)
    verbs = VERBS

    def choices(self, view: AnySeatView) -> Choices:
        assert isinstance(view, SeatView)
        return choices.choices(view)

    def effect(self, scene: Scene, move: str) -> str:
        return choices.effect(scene, move)

    def headline(self, scene: Scene, actor: int | None) -> str:
        return banner.headline(scene, actor)

    def status(self, scene: Scene) -> str:
        return banner.status(scene)

    def board(self, scene: Scene, width: int, height: int) -> list[Line]:
        return board.board(scene, width, height)

    def rows(self, scene: Scene, width: int, height: int) -> list[Line]:
        return rows.rows(scene, width, height)

    def hand(self, scene: Scene, width: int, height: int) -> list[Line]:
        return hand.hand(scene, width, height)

    def explain(self, scene: Scene, seat: int, width: int) -> Explanation:
        return rows.explain(scene, seat, width)

    def standing(self, scene: Scene) -> tuple[str, ...]:
        return standing.standing(scene)

    def help(self, table: TableRules, game: GameState[Any] | None) -> tuple[str, ...]:
        return help_page.help_page(table, game)


SCREEN = CondottiereScreen()
"""The one screen ``RULES.screen()`` gives."""
