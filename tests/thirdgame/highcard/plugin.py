"""High Card as the platform sees it: the :class:`GameRules` value its entry point names
(``highcard = highcard.plugin:RULES`` in the group ``condottiere.games``), and its screen.

>>> from condottiere.interface import TableRules
>>> table = TableRules("highcard", "standard", 2)
>>> RULES.check(table)
>>> RULES.for_seat(table, 1).waiting
Deal(seat=0, count=3)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from google.protobuf.message import Message
from highcard.game import GAME_NAME, HAND, MAX_SEATS, MIN_SEATS, SPECTATOR, Game
from highcard.game import SeatView as HighCardSeatView
from highcard.view_pb2 import HighCardView

from condottiere.interface import (
    Edition,
    FigureNames,
    GameState,
    SeatView,
    TableRules,
)
from condottiere.interface.screen import Choices, Explanation, GameScreen, Line, Scene

EDITION = "standard"


class HighCardRules:
    """High Card, in its one edition."""

    name = GAME_NAME
    title = "High Card"
    default_edition = EDITION
    move_examples = ("play 7",)
    editions: Mapping[str, Edition] = MappingProxyType(
        {EDITION: Edition(EDITION, "three tricks", MIN_SEATS, MAX_SEATS, MIN_SEATS)}
    )
    options: Mapping[str, str] = MappingProxyType({})
    bots: Mapping[str, str] = MappingProxyType({"random": "condottiere.bots.random_bot:RandomBot"})

    def plays(self, state: object) -> bool:
        return isinstance(state, Game)

    def check(self, table: TableRules) -> None:
        if table.game != self.name or table.edition != EDITION or table.options:
            raise ValueError(f"High Card is played in edition {EDITION!r}, without options")
        Game({"players": table.seats}, SPECTATOR)

    def for_seat(self, table: TableRules, seat: int) -> Game:
        return Game({"players": table.seats}, seat)

    def for_spectator(self, table: TableRules) -> Game:
        return Game({"players": table.seats}, SPECTATOR)

    def omniscient(self, table: TableRules) -> Game:
        return Game({"players": table.seats})

    def offline(self, table: TableRules, seed: int) -> Game:
        return Game.new(table.seats, seed)

    def replay(self, record: Mapping[str, Any]) -> Game:
        return Game.replay(record)

    def view_message(self, view: SeatView) -> Message:
        assert isinstance(view, HighCardSeatView)
        return HighCardView(
            hand=view.hand,
            trick=[card for _, card in view.trick],
            leader=view.leader,
            tricks_won=view.tricks_won,
            hand_sizes=view.hand_sizes,
        )

    def summary(self, table: TableRules) -> tuple[str, ...]:
        return (
            f"Each of {table.seats} seats is dealt {HAND} of the cards 1 to 12.",
            "The leader plays a card, then each other seat; the highest card takes the trick.",
            "The most tricks wins.",
        )

    def safe_move(self, legal: Sequence[Any]) -> Any:
        return legal[0]

    def hand_words(self, view: SeatView) -> str:
        assert isinstance(view, HighCardSeatView)
        return ", ".join(view.hand) or "no cards"

    def table_words(self, game: GameState[Any], names: Sequence[str]) -> str:
        assert isinstance(game, Game)
        won = ", ".join(f"{names[seat]} {n}" for seat, n in enumerate(game.tricks_won))
        trick = " ".join(card for _, card in game.trick) or "none"
        return f"tricks: {won}; on the table: {trick}"

    def standings(self, game: GameState[Any]) -> tuple[int, ...]:
        assert isinstance(game, Game)
        return game.tricks_won

    def figure_names(self, edition: str) -> FigureNames:
        return FigureNames(results="tricks taken", standings="tricks held")

    def public_state(self, view: SeatView) -> dict[str, Any]:
        assert isinstance(view, HighCardSeatView)
        return {
            "phase": view.phase,
            "tricks_won": list(view.tricks_won),
            "hand_sizes": list(view.hand_sizes),
            "trick": [card for _, card in view.trick],
        }

    def screen(self) -> GameScreen:
        return SCREEN


class HighCardScreen:
    """The board is the trick under way; a row per seat its tricks and cards in hand."""

    board_size = (30, 3)
    verbs = ("play",)

    def choices(self, view: SeatView) -> Choices:
        moves = tuple(str(move) for move in view.legal_moves)
        return Choices(moves=moves, numbered=moves[:9])

    def effect(self, scene: Scene, move: str) -> str:
        return move

    def headline(self, scene: Scene, actor: int | None) -> str:
        if actor is None:
            return "High Card"
        return f"{scene.seats.who(actor)} to play a card"

    def status(self, scene: Scene) -> str:
        view = _view(scene)
        return f"trick led by {scene.seats.who(view.leader)}"

    def board(self, scene: Scene, width: int, height: int) -> list[Line]:
        view = _view(scene)
        played = " ".join(f"{scene.seats.who(seat)}:{card}" for seat, card in view.trick)
        return [[("class:title", "Trick")], [("", played or "no card yet")]]

    def rows(self, scene: Scene, width: int, height: int) -> list[Line]:
        view = _view(scene)
        return [
            [("", f"{scene.seats.who(seat)}: {won} tricks, {view.hand_sizes[seat]} cards")]
            for seat, won in enumerate(view.tricks_won)
        ]

    def hand(self, scene: Scene, width: int, height: int) -> list[Line]:
        view = _view(scene)
        return [[("", f"Hand ({len(view.hand)}) "), ("class:card", " ".join(view.hand))]]

    def explain(self, scene: Scene, seat: int, width: int) -> Explanation:
        won = _view(scene).tricks_won[seat]
        return Explanation(f"{scene.seats.who(seat)}", ([("", f"{won} tricks taken")],))

    def standing(self, scene: Scene) -> tuple[str, ...]:
        view = _view(scene)
        return tuple(f"{scene.seats.who(s)}: {n} tricks" for s, n in enumerate(view.tricks_won))

    def help(self, table: TableRules, game: GameState[Any] | None) -> tuple[str, ...]:
        return RULES.summary(table)


def _view(scene: Scene) -> HighCardSeatView:
    assert isinstance(scene.view, HighCardSeatView)
    return scene.view


RULES = HighCardRules()
SCREEN = HighCardScreen()
