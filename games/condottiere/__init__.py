"""The rules of Condottiere, for every edition: pure, deterministic, no I/O, no clock,
no randomness of its own.

>>> from condottiere.games.condottiere import Game
>>> g = Game.new("zman-duel", players=2, seed=3)
>>> g.phase, len(g.hand(0)), len(g.hand(1))
('battle', 8, 8)
"""

from condottiere.games.condottiere.battle_result import BattleResult, EndedBy
from condottiere.games.condottiere.board import ADJACENT, REGIONS
from condottiere.games.condottiere.cards import CARDS
from condottiere.games.condottiere.chance import ChanceNode, Choice, Deal, Draw, SeededChance
from condottiere.games.condottiere.editions import EDITIONS, OPTIONS, Edition, Victory
from condottiere.games.condottiere.game import Game, SeatView
from condottiere.games.condottiere.moves import (
    CardFlow,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    MoveError,
    card_flow,
)
from condottiere.games.condottiere.phase import Phase
from condottiere.games.condottiere.strength import Step

GAME_NAME = "condottiere"
"""The game these rules are, as a table names it on the network."""

__all__ = [
    "ADJACENT",
    "CARDS",
    "EDITIONS",
    "GAME_NAME",
    "OPTIONS",
    "REGIONS",
    "BattleResult",
    "CardFlow",
    "ChanceNode",
    "Choice",
    "Deal",
    "Draw",
    "Edition",
    "EndedBy",
    "Game",
    "IllegalMoveError",
    "InvalidMoveError",
    "Move",
    "MoveError",
    "Phase",
    "SeatView",
    "SeededChance",
    "Step",
    "Victory",
    "card_flow",
]
