"""Condottieri Captains as the platform sees it: the :class:`GameRules` value the registry
holds under the name ``captains``.

>>> from condottiere.interface.game import TableRules
>>> table = TableRules("captains", "standard", 3)
>>> RULES.check(table)
>>> RULES.for_seat(table, 1).waiting
Choice(seats=(0, 1, 2), purpose='first player')
>>> RULES.check(TableRules("captains", "standard", 9))
Traceback (most recent call last):
...
ValueError: Captains is played by 2 to 8 players, not 9
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from google.protobuf.message import Message

from condottiere.games.captains.cards import card_name, sort_cards
from condottiere.games.captains.game import (
    GAME_NAME,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OPTIONS,
    Game,
    SeatView,
)
from condottiere.games.captains.moves import Move, Verb
from condottiere.games.captains.narration import table_words
from condottiere.games.captains.summary import rules_summary
from condottiere.games.captains.wire import view_message
from condottiere.interface.game import Edition, FigureNames, GameState, TableRules
from condottiere.interface.game import SeatView as AnySeatView
from condottiere.interface.screen import GameScreen

__all__ = ["RULES", "CaptainsRules"]

EDITION = "standard"
DEFAULT_SEATS = 4
_SAFE = (Move(Verb.PASS), Move(Verb.DONE), Move(Verb.REFUSE), Move(Verb.NO_BLOCK), Move(Verb.PAY))


def _header(table: TableRules) -> dict[str, Any]:
    return {"players": table.seats, "options": list(table.options)}


class CaptainsRules:
    """Condottieri Captains: one edition, the seed's rules with ``RULES.md``'s readings."""

    name = GAME_NAME
    title = "Condottieri Captains"
    default_edition = EDITION
    move_examples = (
        "city milan",
        "captain francesco-sforza",
        "attach heavy-cavalry francesco-sforza",
        "attack francesco-sforza 2",
        "play ambush",
        "offer 1 give 3d get pikemen",
    )

    def __init__(self) -> None:
        self.editions: Mapping[str, Edition] = MappingProxyType(
            {
                EDITION: Edition(
                    EDITION,
                    "the seed's rules (Italy 1200-1550)",
                    MIN_PLAYERS,
                    MAX_PLAYERS,
                    DEFAULT_SEATS,
                )
            }
        )
        self.options: Mapping[str, str] = MappingProxyType(OPTIONS)

    def check(self, table: TableRules) -> None:
        if table.game != self.name:
            raise ValueError(f"this is {self.name}, not {table.game!r}")
        if table.edition != EDITION:
            raise ValueError(f"unknown edition {table.edition!r}; Captains has {EDITION!r}")
        if list(table.options) != sorted(set(table.options)):
            raise ValueError("options are listed once each, in order")
        Game.spectate(_header(table))

    def for_seat(self, table: TableRules, seat: int) -> Game:
        return Game.observe(_header(table), seat, narrated=True)

    def for_spectator(self, table: TableRules) -> Game:
        return Game.spectate(_header(table), narrated=True)

    def omniscient(self, table: TableRules) -> Game:
        return Game(_header(table), narrated=True)

    def offline(self, table: TableRules, seed: int) -> Game:
        return Game.new(table.seats, seed=seed, options=table.options, narrated=True)

    def replay(self, record: Mapping[str, Any]) -> Game:
        return Game.replay(record, narrated=True)

    def view_message(self, view: AnySeatView) -> Message:
        """The view as the controller's ``condottiere.v1.CaptainsView`` (:mod:`.wire`)."""
        assert isinstance(view, SeatView)
        return view_message(view)

    def summary(self, table: TableRules) -> tuple[str, ...]:
        return rules_summary(table.seats, table.options)

    def safe_move(self, legal: Sequence[Any]) -> Any:
        """``pass``, ``done``, ``refuse``, ``no-block`` or ``pay`` when legal, else the first."""
        for move in _SAFE:
            if move in legal:
                return move
        return legal[0]

    def hand_words(self, view: AnySeatView) -> str:
        assert isinstance(view, SeatView)
        counts = Counter(view.hand)
        words = [
            card_name(card) if counts[card] == 1 else f"{counts[card]}x {card_name(card)}"
            for card in sort_cards(counts)
        ]
        return ", ".join(words) or "no cards"

    def table_words(self, game: GameState[Any], names: Sequence[str]) -> str:
        assert isinstance(game, Game)
        return table_words(game, names)

    def standings(self, game: GameState[Any]) -> tuple[int, ...]:
        """Provinces held."""
        assert isinstance(game, Game)
        return game.provinces

    bots: Mapping[str, str] = MappingProxyType(
        {
            "greedy": "condottiere.bots.captains_greedy:CaptainsGreedy",
            "ismcts": "condottiere.bots.ismcts:IsmctsBot",
            "random": "condottiere.bots.random_bot:RandomBot",
        }
    )
    """The strategies of :mod:`condottiere.bots` that play this game, by name."""

    def plays(self, state: object) -> bool:
        return isinstance(state, Game)

    def figure_names(self, edition: str) -> FigureNames:
        """Battles won (a battle's result sentence names its winner), and provinces held."""
        return FigureNames(results="battles won", standings="provinces held")

    def public_state(self, view: AnySeatView) -> dict[str, Any]:
        """What every seat sees alike.

        >>> game = Game.new(players=2, seed=3)
        >>> RULES.public_state(game.view(0)) == RULES.public_state(game.view(1))
        True
        """
        assert isinstance(view, SeatView)
        return {
            "phase": str(view.phase),
            "cities": list(view.cities),
            "provinces": list(view.provinces),
            "ducats": list(view.ducats),
            "revenues": [list(r) for r in view.revenues],
            "armies": [{c: list(a) for c, a in army} for army in view.armies],
            "turns": list(view.turns),
            "hand_sizes": list(view.hand_sizes),
            "discard_pile": list(view.discard_pile),
            "draw_pile_size": view.draw_pile_size,
            "defeated": sorted(view.defeated),
            "winners": list(view.winners),
        }

    def screen(self) -> GameScreen:
        # Imported when a client asks for it, not by every peer and bot that loads the rules.
        from condottiere.games.captains.screen import SCREEN

        return SCREEN


RULES = CaptainsRules()
"""The one value the registry loads."""
