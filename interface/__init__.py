"""The game interface: the one way the platform reaches the games it plays.

The platform (``condottiere.crypto``, ``condottiere.peer``, the client's shell, the bot
harness) imports this package, never a game: the interface's types (:mod:`.game`), the seam
of a game's screen (:mod:`.screen`) and the registry (:mod:`.registry`), which finds each game
by name among the entry points of the group ``condottiere.games`` and loads it when asked.

>>> game_named("condottiere").variants["zman"].title
'Z-Man 2018, the new version'
"""

from condottiere.interface.game import (
    CardFlow,
    CardStep,
    ChanceNode,
    Choice,
    Deal,
    Draw,
    FigureNames,
    GameRules,
    GameState,
    Handed,
    HandOutOfGame,
    IllegalMoveError,
    InvalidMoveError,
    MoveError,
    Outcome,
    OutcomeKind,
    SearchDeck,
    SeatToMove,
    SeatView,
    ShowHand,
    TableRules,
    Told,
    ToldKind,
    Variant,
    Waiting,
)
from condottiere.interface.registry import (
    DEFAULT_GAME,
    GAME_GROUP,
    game_named,
    game_names,
    game_of,
)

__all__ = [
    "DEFAULT_GAME",
    "GAME_GROUP",
    "CardFlow",
    "CardStep",
    "ChanceNode",
    "Choice",
    "Deal",
    "Draw",
    "FigureNames",
    "GameRules",
    "GameState",
    "HandOutOfGame",
    "Handed",
    "IllegalMoveError",
    "InvalidMoveError",
    "MoveError",
    "Outcome",
    "OutcomeKind",
    "SearchDeck",
    "SeatToMove",
    "SeatView",
    "ShowHand",
    "TableRules",
    "Told",
    "ToldKind",
    "Variant",
    "Waiting",
    "game_named",
    "game_names",
    "game_of",
]
