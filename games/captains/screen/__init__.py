"""Condottieri Captains on the client's screen: the
:class:`~condottiere.interface.screen.GameScreen` the shell draws the game with
(``RULES.screen()``), in plain data (no terminal library).

- :mod:`~condottiere.games.captains.screen.table`: the board (this seat's city state, purse,
  captains and neighbours, the battle or the offer under way), every seat's row, and a seat's
  whole table (why its row is worth what it is);
- :mod:`~condottiere.games.captains.screen.hand`: the hand;
- :mod:`~condottiere.games.captains.screen.choices`: what the keys choose among, and what a
  move would do;
- :mod:`~condottiere.games.captains.screen.words`: the headline, the status line, the
  standing at the end and the game's part of the help page;
- :mod:`~condottiere.games.captains.screen.scene`: the figures every panel draws from.

>>> SCREEN.board_size, SCREEN.verbs[:3]
((44, 9), ('city', 'keep', 'mulligan'))
"""

from __future__ import annotations

from typing import Any

from condottiere.games.captains.game import SeatView
from condottiere.games.captains.moves import Verb
from condottiere.games.captains.screen import choices, hand, table, words
from condottiere.interface.game import GameState, TableRules
from condottiere.interface.game import SeatView as AnySeatView
from condottiere.interface.screen import Choices, Explanation, Line, Scene

__all__ = ["SCREEN", "CaptainsScreen"]


class CaptainsScreen:
    """Condottieri Captains as the client's shell draws it."""

    board_size = (table.BOARD_WIDTH, table.BOARD_LINES)
    verbs = tuple(verb.value for verb in Verb)

    def choices(self, view: AnySeatView) -> Choices:
        assert isinstance(view, SeatView)
        return choices.choices(view)

    def effect(self, scene: Scene, move: str) -> str:
        return choices.effect(scene, move)

    def headline(self, scene: Scene, actor: int | None) -> str:
        return words.headline(scene, actor)

    def status(self, scene: Scene) -> str:
        return words.status(scene)

    def board(self, scene: Scene, width: int, height: int) -> list[Line]:
        return table.board(scene, width, height)

    def rows(self, scene: Scene, width: int, height: int) -> list[Line]:
        return table.rows(scene, width, height)

    def hand(self, scene: Scene, width: int, height: int) -> list[Line]:
        return hand.hand(scene, width, height)

    def explain(self, scene: Scene, seat: int, width: int) -> Explanation:
        return table.explain(scene, seat, width)

    def standing(self, scene: Scene) -> tuple[str, ...]:
        return words.standing(scene)

    def help(self, table: TableRules, game: GameState[Any] | None) -> tuple[str, ...]:
        return words.help_page(table, game)


SCREEN = CaptainsScreen()
"""The one screen ``RULES.screen()`` gives."""
