"""The game interface: the one way the platform reaches the games it plays.

The platform (``condottiere.crypto``, ``condottiere.peer``, the client's shell, the bot
harness) imports this package, never a game: the interface's types (:mod:`.game`), the seam
of a game's screen (:mod:`.screen`) and the registry (:mod:`.registry`), which loads each game
(a subpackage of ``condottiere.games``, such as ``condottiere.games.condottiere``) by name.

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
    GameRules,
    GameState,
    Handed,
    HandHolds,
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
    GAMES,
    TABLE_GAMES,
    game_named,
    table_game_named,
)

__all__ = [
    "DEFAULT_GAME",
    "GAMES",
    "TABLE_GAMES",
    "CardFlow",
    "CardStep",
    "ChanceNode",
    "Choice",
    "Deal",
    "Draw",
    "GameRules",
    "GameState",
    "HandHolds",
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
    "table_game_named",
]
