"""The shell's :class:`~condottiere.interface.screen.Scene` as Captains reads it (its view and
game are Captains' own), and each card's short tag (the figures a view shows once worked out
are in :mod:`condottiere.games.captains.figures`).

>>> tag("gonzaga"), tag("pikemen"), tag("crafty"), tag("ambush"), tag("spies"), tag("duchy")
('C4', 'S+1', 'A+1', 'B+5', 'E', 'R')
"""

from __future__ import annotations

from condottiere.games.captains.cards import CARDS, Kind
from condottiere.games.captains.game import Game, SeatView
from condottiere.interface.screen import Scene

__all__ = ["game_of", "seat_view", "tag"]

_LETTER = {
    Kind.CAPTAIN: "C",
    Kind.TROOP: "S",
    Kind.TRAIT: "A",
    Kind.EVENT: "E",
    Kind.BATTLE: "B",
    Kind.REVENUE: "R",
}
"""The seed's letters for the card types (its "card list notation")."""


def seat_view(scene: Scene) -> SeatView:
    """The scene's view, of Captains' own type."""
    view = scene.view
    assert isinstance(view, SeatView), f"not a view of Captains: {type(view).__name__}"
    return view


def game_of(scene: Scene) -> Game | None:
    """The scene's game, of Captains' own type (None until the client has fetched it)."""
    game = scene.game
    assert game is None or isinstance(game, Game), f"not Captains: {type(game).__name__}"
    return game


def tag(card: str) -> str:
    """A card's type letter (the seed's notation) and its force: ``C4`` a level-4 captain,
    ``S+1`` a troop, ``A+1`` a trait, ``B+5`` a battle card, ``E`` an event, ``R`` revenue."""
    info = CARDS[card]
    letter = _LETTER[info.kind]
    if info.kind is Kind.CAPTAIN:
        return f"{letter}{info.force}"
    return f"{letter}+{info.force}" if info.force else letter
