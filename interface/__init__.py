"""The game interface: the one way the platform reaches the games it plays.

The platform (``condottiere.crypto``, ``condottiere.peer``, the client's shell, the bot
harness) imports this package, never a game: the interface's types (:mod:`.game`), the
events of a game's record (:mod:`.events`), the bookkeeping every game shares
(:mod:`.bookkeeping`, a base class for the games' state), the seam
of a game's screen (:mod:`.screen`) and the registry (:mod:`.registry`), which loads each game
(a subpackage of ``condottiere.games``, such as ``condottiere.games.condottiere``) by name.

>>> game_named("condottiere").variants["zman"].title
'Z-Man 2018, the new version'
"""

from condottiere.interface.events import (
    Chosen,
    Dealt,
    ForcedMove,
    HandShown,
    MovePlayed,
    RecordEvent,
    Searched,
    SeatLeft,
    event_from_json,
    parse_event,
)
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
    HandOutOfGame,
    IllegalMoveError,
    InvalidMoveError,
    MoveError,
    Outcome,
    OutcomeKind,
    SearchDeck,
    SeatToMove,
    SeatView,
    Sentence,
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
    "Chosen",
    "Deal",
    "Dealt",
    "Draw",
    "ForcedMove",
    "GameRules",
    "GameState",
    "HandOutOfGame",
    "HandShown",
    "Handed",
    "IllegalMoveError",
    "InvalidMoveError",
    "MoveError",
    "MovePlayed",
    "Outcome",
    "OutcomeKind",
    "RecordEvent",
    "SearchDeck",
    "Searched",
    "SeatLeft",
    "SeatToMove",
    "SeatView",
    "Sentence",
    "ShowHand",
    "TableRules",
    "Told",
    "ToldKind",
    "Variant",
    "Waiting",
    "event_from_json",
    "game_named",
    "parse_event",
    "table_game_named",
]
