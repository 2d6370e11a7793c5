"""The battle: it begins, seats take turns clockwise to play a card or pass, and each card
does what it does (a mercenary joins the row, a season card replaces another, a Bishop
discards the highest mercenaries and has the Favor placed, a Scarecrow takes a mercenary back,
a Turncoat or a Surrender ends the battle).

A seat with no cards is passed when its turn comes; the battle ends when every seat has
passed (:func:`next_turn`), or when a card ends it: :mod:`.battle_end` takes over. Under
``sieges`` and in ``eurogames`` the owner of the contested region defends it: it may pass and
come back until it plays a card. This runs once per move: it is written for speed (kinds of
card as bits, seats in turn from :data:`.tables.CLOCKWISE`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from condottiere.games.condottiere import battle_end
from condottiere.games.condottiere.battle_result import EndedBy
from condottiere.games.condottiere.cards import MERCENARY_VALUE, SEASONS
from condottiere.games.condottiere.moves import Move
from condottiere.games.condottiere.phase import BATTLE, FAVOR
from condottiere.games.condottiere.piles import throw_away
from condottiere.games.condottiere.strength import highest_mercenary
from condottiere.games.condottiere.tables import (
    CARD_BIT,
    CLOCKWISE,
    REGION_BIT,
    mercenary_kinds,
    regions_but,
)

if TYPE_CHECKING:
    from condottiere.games.condottiere.game import Game

__all__ = [
    "begin_battle",
    "favor_sites",
    "next_turn",
    "pass_turn",
    "place_favor",
    "play_card",
]


def begin_battle(game: Game, region: str | None, first: int | None = None) -> None:
    """A battle begins in ``region`` (None: ``zman-duel``, or FFG's final battle), with
    ``first`` to play (by default the battle-marker holder). Seats outside a final battle,
    and seats that left, count as passed; the owner defends its region only from the table."""
    game._phase = BATTLE
    game._battles_begun += 1
    game._battle_region = region
    participants = game._participants
    players = game.players
    game._passed = (
        set()
        if len(participants) == players
        else {seat for seat in range(players) if seat not in participants}
    )
    game._played = set()
    game._defender = None
    if region is not None and game.edition.owner_defends:
        owner = game._control.get(region)
        game._defender = owner if owner in participants else None
    next_turn(game, game._marker if first is None else first)


def next_turn(game: Game, start: int) -> None:
    """The first seat from ``start`` clockwise that has not passed is to act; a seat with no
    cards passes on the way. When every seat has passed, the battle ends."""
    passed = game._passed
    sizes = game._sizes
    for seat in CLOCKWISE[game.players][start]:
        if seat in passed:
            continue
        if not sizes[seat]:
            passed.add(seat)
            continue
        game._phase = BATTLE
        game._to_act = seat
        return
    battle_end.end_battle(game, EndedBy.PASSES)


def pass_turn(
    game: Game, seat: int, move: Move | None = None, revealed: tuple[str, ...] | None = None
) -> None:
    """``seat`` passes for the rest of the battle; a defender that has played no card yet
    only lets its turn go by (and when nobody else is left to play, the battle ends).
    (``move``, the ``pass``, and ``revealed``, None, give the rule the shape of every verb's
    rule, as :func:`play_card`'s.)"""
    if seat == game._defender and seat not in game._played:
        if not any(
            other != seat and other not in game._passed and game._sizes[other] > 0
            for other in range(game.players)
        ):
            battle_end.end_battle(game, EndedBy.PASSES)
            return
    else:
        game._passed.add(seat)
    next_turn(game, seat + 1)


def play_card(game: Game, seat: int, move: Move, revealed: tuple[str, ...] | None = None) -> None:
    """``seat`` plays the card of ``move`` (a checked ``play`` move) and it takes effect.
    (``revealed``, always None here, gives the rule the shape of every verb's rule: the game
    calls it straight from its table of verbs, :class:`.game.Game`.)"""
    card: str = move.card  # type: ignore[assignment]
    edition = game.edition
    hand = game._hands[seat]
    count = hand.get(card, 0)
    if count > 1:
        hand[card] = count - 1
    elif count:
        hand.pop(card)
        game._held[seat] ^= CARD_BIT[card]
    else:
        game._unknown[seat] -= 1
    game._sizes[seat] -= 1
    game._played.add(seat)
    if card in MERCENARY_VALUE:
        game._rows[seat].append(card)
        game._row_mercenaries[seat] |= CARD_BIT[card]
    elif card in SEASONS:
        kept = []
        for season_card, owner in game._season_cards:
            if edition.seasons_replace or season_card != card:
                throw_away(game, season_card, owner)
            else:
                kept.append((season_card, owner))
        game._season_cards = [*kept, (card, seat)]
    elif card == "bishop":
        game._rows[seat].append(card)
        if edition.bishop == "ends-battle":
            battle_end.end_battle(game, EndedBy.BISHOP)
            return
        _bishop_discards(game)
        if not edition.specials_stay_in_row:
            game._rows[seat].pop()
            throw_away(game, card, seat)
        if _ask_favor(game, seat):
            return
    elif card == "scarecrow":
        if move.target is not None:
            source = seat if move.target_seat is None else move.target_seat
            row = game._rows[source]
            row.remove(move.target)
            game._row_mercenaries[source] = mercenary_kinds(row)
            game._hands[seat][move.target] += 1
            game._held[seat] |= CARD_BIT[move.target]
            game._sizes[seat] += 1
        if edition.specials_stay_in_row:
            game._rows[seat].append(card)
        else:
            throw_away(game, card, seat)
    else:
        game._rows[seat].append(card)
        if card == edition.ends_battle:
            battle_end.end_battle(game, EndedBy(card))
            return
    next_turn(game, seat + 1)


def _bishop_discards(game: Game) -> None:
    """A Bishop that does not end the battle: every mercenary of the highest printed value,
    in every row, is discarded."""
    highest = highest_mercenary(game._rows)
    if not highest:
        return
    for owner, row in enumerate(game._rows):
        removed = [card for card in row if MERCENARY_VALUE.get(card) == highest]
        if removed:
            row[:] = [card for card in row if MERCENARY_VALUE.get(card) != highest]
            game._row_mercenaries[owner] = mercenary_kinds(row)
            game._bishop_removed[owner] = [*game._bishop_removed[owner], *removed]
            for card in removed:
                throw_away(game, card, owner)


def favor_sites(game: Game) -> tuple[str, ...]:
    """The regions the Favor may be placed on, in board order: free regions other than the
    contested one."""
    return regions_but(REGION_BIT.get(game._battle_region, 0) | sum(game._regions_of))


def _ask_favor(game: Game, seat: int) -> bool:
    """Take the Favor up and have ``seat`` place it; False when nobody needs to be asked (no
    Favor in the edition or the final battle; no place or a single one: it goes there)."""
    favor = game.edition.favor
    if favor == "none" or game._final_battle:
        return False
    game._favor = None
    sites = favor_sites(game)
    choices = len(sites) + (favor == "uncontrolled-or-off")
    if choices == 0:
        return False
    if choices == 1:
        game._favor = sites[0] if sites else None
        return False
    game._phase = FAVOR
    game._to_act = seat
    return True


def place_favor(game: Game, seat: int, region: str | None) -> None:
    """``seat``, who played the Bishop, places the Favor on ``region`` (None: off the board);
    the battle goes on from its left."""
    game._favor = region
    next_turn(game, seat + 1)
