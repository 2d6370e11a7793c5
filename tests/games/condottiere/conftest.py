"""Small helpers for the engine scenario tests: edition groups and a battle already under way.

A scenario is a ``Game.setup`` with explicit hands; seats with empty hands are passed
automatically by the engine, so a scenario only spells out the moves that matter.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from condottiere.games.condottiere import Game, Move

ALL_EDITIONS = ("zman", "zman-classic", "zman-duel", "ffg", "eurogames")
BOARD_EDITIONS = ("zman", "zman-classic", "ffg", "eurogames")
SPRING_EDITIONS = ("zman", "zman-duel", "ffg")
FAVOR_BISHOP_EDITIONS = ("zman", "ffg")
CLASSIC_BISHOP_EDITIONS = ("zman-classic", "eurogames")
OWN_ROW_SCARECROW_EDITIONS = ("zman", "zman-classic", "zman-duel", "ffg")
ZMAN_FAMILY = ("zman", "zman-classic", "zman-duel")

BATTLE_REGION = "Firenze"

# Six seats holding every region but Siena, nobody near a victory (no 3 connected, at most 4
# each); seat 0 holds 3 regions, none next to Siena, so winning Siena makes it the sole leader.
EVERY_REGION_BUT_SIENA = {
    "Torino": 2, "Milano": 3, "Genova": 3, "Venezia": 0, "Mantova": 4, "Parma": 5,
    "Modena": 2, "Ferrara": 5, "Bologna": 1, "Lucca": 4, "Firenze": 2, "Urbino": 0,
    "Ancona": 1, "Spoleto": 1, "Roma": 0, "Napoli": 3,
}
# The same kind of board where seat 1 already holds 4 regions: seat 0 winning Siena ties it.
EVERY_REGION_BUT_SIENA_SEAT_1_AT_FOUR = {
    "Torino": 3, "Milano": 4, "Genova": 2, "Venezia": 0, "Mantova": 2, "Parma": 2,
    "Modena": 4, "Ferrara": 1, "Bologna": 0, "Lucca": 1, "Firenze": 1, "Urbino": 5,
    "Ancona": 1, "Spoleto": 5, "Roma": 3, "Napoli": 0,
}
# A chain of six regions, each next to the one before it (no three touching each other).
CHAIN = ("Torino", "Milano", "Venezia", "Ferrara", "Bologna", "Urbino")
# Six regions no two of which are adjacent.
SCATTERED = ("Torino", "Venezia", "Lucca", "Ancona", "Siena", "Bologna")

BATTLE_ENDER = {
    "zman": "turncoat",
    "zman-classic": "turncoat",
    "zman-duel": "turncoat",
    "ffg": "surrender",
    "eurogames": "surrender",
}


def battle(edition: str, hands: Sequence[Sequence[str]], **setup: Any) -> Game:
    """A game of ``len(hands)`` seats whose battle is already open, seat ``first`` (0) to act.

    On a board the battle is in Firenze unless ``battle=`` says otherwise; zman-duel has no board.
    """
    region = setup.pop("battle", BATTLE_REGION)
    return Game.setup(
        edition,
        players=len(hands),
        hands=[list(hand) for hand in hands],
        battle=None if edition == "zman-duel" else region,
        **setup,
    )


def play(game: Game, *moves: str | Move) -> Game:
    """Play ``moves`` in order (each by whoever is to act) and return the game."""
    for move in moves:
        game.play(move)
    return game


def move_texts(moves: Iterable[Move]) -> set[str]:
    """The text notation of ``moves``, for comparing legal-move lists with expectations."""
    return {str(move) for move in moves}


def won_last_battle(game: Game, edition: str, seat: int, region: str = BATTLE_REGION) -> bool:
    """Whether ``seat`` is credited with the battle just fought (a region, or a duel battle)."""
    if edition == "zman-duel":
        return game.battles_won[seat] == 1
    return game.control.get(region) == seat


def nobody_won_last_battle(game: Game, edition: str, region: str = BATTLE_REGION) -> bool:
    """Whether the battle just fought credited no seat (no region taken, no duel battle scored)."""
    if edition == "zman-duel":
        return not any(game.battles_won)
    return region not in game.control
