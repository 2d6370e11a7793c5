"""Who won a finished game of Condottiere, and how, in words.

>>> from condottiere.games.condottiere import Game
>>> g = Game.setup("zman", players=2, hands=[["10"], ["1"]], control={"Milano": 0,
...     "Torino": 0}, first=0, seed=0)
>>> g.play("battle Genova"); g.play("play 10"); g.play("pass")
>>> outcome_of(g)
Outcome(kind=<OutcomeKind.VICTORY: 'victory'>, winners=(0,), how='3 connected regions')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from condottiere.games.condottiere.board import largest_group
from condottiere.interface.game import Outcome, OutcomeKind

if TYPE_CHECKING:
    from condottiere.games.condottiere.game import Game

__all__ = ["outcome_of"]


def outcome_of(game: Game) -> Outcome | None:
    """The outcome of ``game`` once it is over; None before. A game that ended because every
    other seat left is the last seat's win by forfeit (a leave is refused once it is over)."""
    if game.phase != "over":
        return None
    winners = game.winners
    if len(game.departed) == game.players - 1:
        return Outcome(OutcomeKind.FORFEIT, winners, "the others left: a win by forfeit")
    if not winners:
        return Outcome(OutcomeKind.DRAW, (), _draw(game))
    kind = OutcomeKind.VICTORY if len(winners) == 1 else OutcomeKind.SHARED
    return Outcome(kind, winners, _how(game, winners[0]))


def _draw(game: Game) -> str:
    if not game.edition.board:
        return f"nobody has more battles won ({game.battles_won[0]} each)"
    return "nobody won"


def _how(game: Game, seat: int) -> str:
    edition = game.edition
    victory = edition.victory(game.players)
    if not edition.board:
        won = game.battles_won[seat]
        if won >= victory.connected:
            return f"first to win {victory.connected} battles"
        return f"more battles won ({won}) when both were out of cards"
    held = [region for region, owner in game.control.items() if owner == seat]
    group = largest_group(held)
    if group >= victory.connected:
        return f"{group} connected regions"
    if victory.total is not None and len(held) >= victory.total:
        return f"{len(held)} regions"
    if game.final_battle:
        return "the final battle, among those tied for most regions"
    return f"most regions ({len(held)}) when no region was left to fight for"
