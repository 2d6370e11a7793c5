"""The rules of Condottiere, for every edition: pure, deterministic, no I/O, no clock,
no randomness of its own.

>>> from engine import Game
>>> g = Game.new("zman-duel", players=2, seed=3)
>>> g.phase, len(g.hand(0)), len(g.hand(1))
('battle', 8, 8)
"""

from engine.board import ADJACENT, REGIONS
from engine.cards import CARDS
from engine.chance import ChanceNode, Choice, Deal, Draw, SeededChance
from engine.editions import EDITIONS, OPTIONS, Edition, Victory
from engine.game import BattleResult, Game, SeatView
from engine.moves import (
    CardFlow,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    MoveError,
    card_flow,
)
from engine.strength import Step

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
    "Game",
    "IllegalMoveError",
    "InvalidMoveError",
    "Move",
    "MoveError",
    "SeatView",
    "SeededChance",
    "Step",
    "Victory",
    "card_flow",
]
