"""Victory: the regions each seat controls, when a seat has won, and how else the game ends:
when no region is left to fight for (most regions wins; FFG: a final battle among the tied),
or when a ``zman-duel`` can go no further (more battles won wins).

A seat's regions are kept as bits (:data:`.tables.REGION_BIT`) beside the control markers, so
that the check after every battle (:func:`has_won`) is a bit count and a cached lookup of the
largest connected group. Victory is checked for the battle's winner only, right after its
control marker is placed (see :mod:`.battle_end`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from condottiere.games.condottiere import battle, battle_end, piles, round_end
from condottiere.games.condottiere.phase import OVER
from condottiere.games.condottiere.tables import CLOCKWISE, REGION_BIT, largest_group_of

if TYPE_CHECKING:
    from condottiere.games.condottiere.game import Game

__all__ = [
    "duel_stalled",
    "end_stalled_duel",
    "finish",
    "has_won",
    "most",
    "no_region_left",
    "take_control",
]


def take_control(game: Game, region: str, seat: int) -> None:
    """``seat`` takes control of ``region``, from whoever held it."""
    bit = REGION_BIT[region]
    previous = game._control.get(region)
    if previous is not None:
        game._regions_of[previous] &= ~bit
    game._control[region] = seat
    game._regions_of[seat] |= bit


def has_won(game: Game, seat: int) -> bool:
    """Whether ``seat`` meets the victory condition: battles won (``zman-duel``), or a
    connected group of regions or enough regions in all."""
    victory = game._victory
    if not game.edition.board:
        return game._battles_won[seat] >= victory.connected
    regions = game._regions_of[seat]
    held = regions.bit_count()
    if victory.total is not None and held >= victory.total:
        return True
    return held >= victory.connected and largest_group_of(regions) >= victory.connected


def finish(game: Game, winners: Iterable[int]) -> None:
    """The game is over; ``winners`` share the victory (none: a draw)."""
    game._winners = tuple(sorted(winners))
    game._phase = OVER
    game._to_act = None


def most(counts: Sequence[int], seats: Sequence[int]) -> tuple[int, ...]:
    """Of ``seats``, those with the highest count.

    >>> most([2, 4, 1, 4], seats=(0, 1, 2, 3)), most([2, 4, 1, 4], seats=(0, 2, 3))
    ((1, 3), (3,))
    """
    best = max(counts[seat] for seat in seats)
    return tuple(seat for seat in seats if counts[seat] == best)


def duel_stalled(game: Game) -> bool:
    """``zman-duel``, once both seats have drawn up: whether no battle can follow, because
    both are out of cards or nobody played a card in the battle just fought."""
    sizes, pile_sizes = game._sizes, game._pile_sizes
    out_of_cards = [seat for seat in range(game.players) if not sizes[seat] + pile_sizes[seat]]
    ended = game._last_battle  # its last field, in both forms, is cards_played
    stalled = ended is not None and not ended[-1]
    return len(out_of_cards) == game.players or stalled


def end_stalled_duel(game: Game) -> None:
    """``zman-duel`` can go no further: more battles won wins; a tie is a draw."""
    leaders = most(game._battles_won, game._seated)
    finish(game, leaders if len(leaders) == 1 else ())


def no_region_left(game: Game) -> None:
    """No region can host a battle: the seats with the most regions win together, or (FFG)
    fight a final battle among themselves for the victory (a seat that left is not among
    them: its regions count for nobody)."""
    tied = most(game.battles_won, game._seated)
    if game.edition.no_region_left == "final-battle" and len(tied) > 1:
        battle_end.clear_battle(game)
        game._final_battle = True
        game._participants = tied
        piles.gather(game, keep_hands=False)
        round_end.deal_round(game, then=_final_battle_dealt)
        return
    finish(game, tied)


def _final_battle_dealt(game: Game) -> None:
    """The final battle begins, with the first of the tied seats clockwise from the battle
    marker holder's left."""
    left = CLOCKWISE[game.players][game._marker + 1]
    battle.begin_battle(game, None, next(seat for seat in left if seat in game._participants))
