"""Condottiere as the platform sees it: the :class:`~condottiere.interface.game.GameRules`
value the registry holds under the name ``condottiere``.

The engine's :class:`Game` is itself a :class:`~condottiere.interface.game.GameState`;
this module adds what concerns the game as a whole: its editions, its
options, making a game for a seat, a spectator or an omniscient table, the narration, the
seat's view on the wire, and the rules in a few sentences.

>>> from condottiere.interface.game import TableRules
>>> table = TableRules("condottiere", "zman-duel", 2)
>>> RULES.check(table)
>>> game = RULES.for_seat(table, 1)
>>> game.waiting
Choice(seats=(0, 1), purpose='first battle marker')
>>> RULES.standings(game)
(0, 0)
>>> RULES.check(TableRules("condottiere", "zman-duel", 3))
Traceback (most recent call last):
...
ValueError: zman-duel is played by exactly 2 players, not 3
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from google.protobuf.message import Message

from condottiere.games.condottiere import GAME_NAME
from condottiere.games.condottiere.cards import card_name, sort_cards
from condottiere.games.condottiere.editions import EDITIONS, OPTIONS
from condottiere.games.condottiere.game import Game, SeatView
from condottiere.games.condottiere.moves import Move
from condottiere.games.condottiere.narration import table_words
from condottiere.games.condottiere.summary import rules_summary
from condottiere.games.condottiere.wire import view_message
from condottiere.interface.game import Edition, FigureNames, GameState, TableRules
from condottiere.interface.game import SeatView as AnySeatView
from condottiere.interface.screen import GameScreen

__all__ = ["RULES", "CondottiereRules", "header_of"]

DEFAULT_SEATS = 4
PASS = Move("pass")


def header_of(table: TableRules) -> dict[str, Any]:
    """The engine's record header for ``table``."""
    return {"edition": table.edition, "players": table.seats, "options": list(table.options)}


class CondottiereRules:
    """Condottiere, in every edition."""

    name = GAME_NAME
    title = "Condottiere"
    default_edition = "zman"
    move_examples = ("play 10", "play scarecrow 5", "battle Firenze", "pass", "favor Roma")

    def __init__(self) -> None:
        self.editions: Mapping[str, Edition] = MappingProxyType(
            {
                name: Edition(
                    name,
                    edition.title,
                    edition.min_players,
                    edition.max_players,
                    min(max(DEFAULT_SEATS, edition.min_players), edition.max_players),
                )
                for name, edition in EDITIONS.items()
            }
        )
        self.options: Mapping[str, str] = MappingProxyType(OPTIONS)

    def check(self, table: TableRules) -> None:
        if table.game != self.name:
            raise ValueError(f"this is {self.name}, not {table.game!r}")
        if table.edition not in EDITIONS:
            raise ValueError(
                f"unknown edition {table.edition!r}; choose one of {', '.join(EDITIONS)}"
            )
        if list(table.options) != sorted(set(table.options)):
            raise ValueError("options are listed once each, in order")
        Game.spectate(header_of(table))

    def for_seat(self, table: TableRules, seat: int) -> Game:
        return Game.observe(header_of(table), seat, narrated=True)

    def for_spectator(self, table: TableRules) -> Game:
        return Game.spectate(header_of(table), narrated=True)

    def omniscient(self, table: TableRules) -> Game:
        return Game(header_of(table), narrated=True)

    def offline(self, table: TableRules, seed: int) -> Game:
        return Game.new(
            table.edition, players=table.seats, seed=seed, options=table.options, narrated=True
        )

    def replay(self, record: Mapping[str, Any]) -> Game:
        return Game.replay(record, narrated=True)

    def view_message(self, view: AnySeatView) -> Message:
        assert isinstance(view, SeatView)
        return view_message(view)

    def summary(self, table: TableRules) -> tuple[str, ...]:
        return rules_summary(table.edition, table.seats, table.options)

    def safe_move(self, legal: Sequence[Any]) -> Any:
        """``pass`` when it is legal, else the first legal move."""
        return PASS if PASS in legal else legal[0]

    def hand_words(self, view: AnySeatView) -> str:
        assert isinstance(view, SeatView)
        counts = Counter(view.hand)
        words = [
            card_name(card) if counts[card] == 1 else f"{counts[card]}x {card_name(card)}"
            for card in sort_cards(counts)
        ]
        return ", ".join(words) or "no cards"

    def public_state(self, view: AnySeatView) -> dict[str, Any]:
        """The phase, the regions' owners, the Favor, the battles won, the hands' sizes, the
        discard pile and the winners.

        >>> game = Game.new("zman-duel", players=2, seed=3)
        >>> RULES.public_state(game.view(0)) == RULES.public_state(game.view(1))
        True
        >>> RULES.public_state(game.view(0))["hand_sizes"]
        [8, 8]
        """
        assert isinstance(view, SeatView)
        return {
            "phase": view.phase,
            "control": dict(sorted(view.control.items())),
            "favor": view.favor,
            "battles_won": list(view.battles_won),
            "hand_sizes": list(view.hand_sizes),
            "discard_pile": list(view.discard_pile),
            "winners": list(view.winners),
        }

    def table_words(self, game: GameState[Any], names: Sequence[str]) -> str:
        """The battle marker, the board (or battles won) and the Favor (:func:`.table_words`)."""
        assert isinstance(game, Game)
        return table_words(game, names)

    def standings(self, game: GameState[Any]) -> tuple[int, ...]:
        """Regions held; battles won in an edition without a board (``zman-duel``)."""
        assert isinstance(game, Game)
        return game.battles_won

    bots: Mapping[str, str] = MappingProxyType(
        {
            "greedy": "condottiere.bots.greedy:GreedyBot",
            "ismcts": "condottiere.bots.ismcts:IsmctsBot",
            "random": "condottiere.bots.random_bot:RandomBot",
        }
    )
    """The strategies of :mod:`condottiere.bots` that play this game, by name."""

    def plays(self, state: object) -> bool:
        return isinstance(state, Game)

    def figure_names(self, edition: str) -> FigureNames:
        """Battles won, and regions held (battles won again where there is no board).

        >>> RULES.figure_names("zman-duel").standings
        'battles won'
        """
        held = "regions held" if EDITIONS[edition].board else "battles won"
        return FigureNames(results="battles won", standings=held)

    def screen(self) -> GameScreen:
        # Imported when a client asks for it, not by every peer and bot that loads the rules.
        from condottiere.games.condottiere.screen import SCREEN

        return SCREEN


RULES = CondottiereRules()
"""The one value the registry loads."""
