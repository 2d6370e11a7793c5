"""The game interface: the one way the platform reaches the games it plays.

The platform (``condottiere.crypto``, ``condottiere.peer``, the client's shell, the bot
harness) imports this package, never a game: the interface's types (:mod:`.game`), the
events of a game's record (:mod:`.events`), the bookkeeping every game shares
(:mod:`.bookkeeping`, a base class for the games' state), the seam of a game's screen
(:mod:`.screen`) and the registry (:mod:`.registry`), which finds each game by name among the
entry points of the group ``condottiere.games`` and loads it when asked.

>>> game_named("condottiere").editions["zman"].title
'Z-Man 2018, the new version'
"""

from condottiere.interface.events import (
    Chosen,
    Dealt,
    ForcedMove,
    HandProved,
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
    Edition,
    FigureNames,
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
    Sentence,
    ShowHand,
    TableRules,
    Told,
    ToldKind,
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
    "Chosen",
    "Deal",
    "Dealt",
    "Draw",
    "Edition",
    "FigureNames",
    "ForcedMove",
    "GameRules",
    "GameState",
    "HandHolds",
    "HandOutOfGame",
    "HandProved",
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
    "Waiting",
    "event_from_json",
    "game_named",
    "game_names",
    "game_of",
    "parse_event",
]
