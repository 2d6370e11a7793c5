"""The shell's :class:`~condottiere.interface.screen.Scene` as Condottiere reads it: its view
and game are Condottiere's own."""

from __future__ import annotations

from condottiere.games.condottiere.game import Game, SeatView
from condottiere.interface.screen import Scene

__all__ = ["game_of", "seat_view"]


def seat_view(scene: Scene) -> SeatView:
    """The scene's view, of Condottiere's own type."""
    view = scene.view
    assert isinstance(view, SeatView), f"not a view of Condottiere: {type(view).__name__}"
    return view


def game_of(scene: Scene) -> Game | None:
    """The scene's game, of Condottiere's own type (None until the client has fetched it)."""
    game = scene.game
    assert game is None or isinstance(game, Game), f"not Condottiere: {type(game).__name__}"
    return game
