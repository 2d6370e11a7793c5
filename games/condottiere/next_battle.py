"""The choice of the next battle: where a battle may be fought, the battle-marker holder's
choice (``battle Firenze``, or ``cede`` where the edition allows it), and the battle it opens.

The choice is asked only when there is one (:func:`open_choice`): with a single region and no
``cede`` the battle opens there at once, and with none left the game ends
(:func:`.victory.no_region_left`). In FFG's order the choice comes right after strengths are
compared, and the chosen battle waits (``_next_region``) for the battle lines to be cleared,
the discard step and the round's end (:func:`begin_chosen_battle`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from condottiere.games.condottiere import battle, battle_end, round_end, victory
from condottiere.games.condottiere.phase import BATTLE_CHOICE
from condottiere.games.condottiere.tables import REGION_BIT, regions_but

if TYPE_CHECKING:
    from condottiere.games.condottiere.game import Game

__all__ = [
    "battle_sites",
    "begin_chosen_battle",
    "cede",
    "may_cede",
    "open_battle",
    "open_choice",
    "seat_on_the_left",
]


def battle_sites(game: Game) -> tuple[str, ...]:
    """The regions a battle may be fought in now, in board order: none with the Favor, and
    (unless the edition lets owners defend) none with a control marker."""
    if game.edition.battle_in_owned:
        return regions_but(REGION_BIT.get(game._favor, 0))
    return regions_but(REGION_BIT.get(game._favor, 0) | sum(game._regions_of))


def may_cede(game: Game) -> bool:
    """Whether the battle-marker holder may cede it (not once it has gone round the table)."""
    return game.edition.may_cede and game._cedes < len(game._seated) - 1


def seat_on_the_left(game: Game, seat: int) -> int:
    """The first seat still at the table clockwise from ``seat``'s left."""
    return game._left_of[seat]


def open_choice(game: Game, *, after_compare: bool = False) -> None:
    """The battle-marker holder chooses the next battle, if there is a choice
    (``after_compare``: FFG's choice right after strengths are compared)."""
    sites = battle_sites(game)
    if not sites:
        victory.no_region_left(game)
        return
    game._cedes = 0
    game._choice_after_compare = after_compare
    if len(sites) == 1 and not may_cede(game):
        open_battle(game, sites[0])
        return
    game._phase = BATTLE_CHOICE
    game._to_act = game._marker


def cede(game: Game) -> None:
    """The battle-marker holder hands it to the left, who chooses in turn."""
    game._cedes += 1
    game._marker = seat_on_the_left(game, game._marker)
    game._to_act = game._marker


def open_battle(game: Game, region: str) -> None:
    """A battle is chosen in ``region``: it begins now, or (FFG) once the battle lines are
    cleared, the discard step and the round's end are over."""
    if game._choice_after_compare:
        game._next_region = region
        battle_end.clear_battle(game)
        round_end.start_discard_step(game, then=round_end.ffg_next_round_or_battle)
    else:
        battle.begin_battle(game, region)


def begin_chosen_battle(game: Game) -> None:
    """The battle chosen before the round's end (or by a scenario) begins."""
    region, game._next_region = game._next_region, None
    battle.begin_battle(game, region)
