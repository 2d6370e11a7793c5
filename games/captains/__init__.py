"""Condottieri Captains (seed 001): city states, provinces, ducats and captains, ten turns of
seven phases, attacks on one's neighbours. The rules engine, pure and deterministic; every
point the seed leaves open is settled in ``RULES.md``.

>>> game = Game.new(players=3, seed=4)
>>> game.phase
<Phase.CITY: 'city'>
"""

from condottiere.games.captains.cards import CARDS, DECK, Card, Effect, Kind, card_name
from condottiere.games.captains.cities import CITIES, City
from condottiere.games.captains.game import GAME_NAME, OPTIONS, TURNS, Battle, Game, SeatView
from condottiere.games.captains.moves import (
    Bundle,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Verb,
)
from condottiere.games.captains.phase import Phase

__all__ = [
    "CARDS",
    "CITIES",
    "DECK",
    "GAME_NAME",
    "OPTIONS",
    "TURNS",
    "Battle",
    "Bundle",
    "Card",
    "City",
    "Effect",
    "Game",
    "IllegalMoveError",
    "InvalidMoveError",
    "Kind",
    "Move",
    "Phase",
    "SeatView",
    "Verb",
    "card_name",
]
