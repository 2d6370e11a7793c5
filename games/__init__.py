"""The games the platform plays, and the one interface through which it plays them.

The platform (``condottiere.crypto``, ``condottiere.peer``, the client's shell, the bot
harness) imports this package only: the interface's types and the registry. Each game is a
subpackage (``condottiere.games.condottiere``) that the registry loads by name.

>>> game_named("condottiere").variants["zman"].title
'Z-Man 2018, the new version'
"""

from condottiere.games.interface import (
    CardFlow,
    ChanceNode,
    Choice,
    Deal,
    Draw,
    GameRules,
    GameState,
    HandOutOfGame,
    IllegalMoveError,
    InvalidMoveError,
    MoveError,
    Outcome,
    OutcomeKind,
    SeatToMove,
    SeatView,
    TableRules,
    Told,
    ToldKind,
    Variant,
    Waiting,
)
from condottiere.games.registry import DEFAULT_GAME, GAMES, game_named

__all__ = [
    "DEFAULT_GAME",
    "GAMES",
    "CardFlow",
    "ChanceNode",
    "Choice",
    "Deal",
    "Draw",
    "GameRules",
    "GameState",
    "HandOutOfGame",
    "IllegalMoveError",
    "InvalidMoveError",
    "MoveError",
    "Outcome",
    "OutcomeKind",
    "SeatToMove",
    "SeatView",
    "TableRules",
    "Told",
    "ToldKind",
    "Variant",
    "Waiting",
    "game_named",
]
