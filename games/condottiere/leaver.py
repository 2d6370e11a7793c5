"""A seat that leaves the table for good (``RULES.md``, "A seat that leaves").

Its hand goes out of the game face down, unseen; its battle line leaves the battle under way;
its control markers stay on the board and count for nobody; it holds the battle marker no
longer (the seat on its left takes it); every later battle, turn order and fair choice leaves
it out, and it cannot win. Whatever the game waited for goes on without it: its turn passes
to its left, a fair choice among it and others is among the others only, a deal to it is not
made. Once a single seat is left, that seat wins by forfeit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from condottiere.games.condottiere import battle, next_battle, round_end, victory
from condottiere.games.condottiere.chance import Choice, Deal
from condottiere.games.condottiere.chance_asked import settle
from condottiere.games.condottiere.phase import BATTLE, BATTLE_CHOICE, DISCARD, FAVOR, OVER, RETAIN
from condottiere.games.condottiere.piles import deck_of, throw_away
from condottiere.games.condottiere.tables import CLOCKWISE
from condottiere.interface.events import SeatLeft
from condottiere.interface.game import HandOutOfGame

if TYPE_CHECKING:
    from condottiere.games.condottiere.game import Game

__all__ = ["remove_seat"]


def remove_seat(game: Game, seat: int) -> HandOutOfGame:
    """``seat`` leaves ``game`` for good (an event of the record); the hidden cards that left
    with it. ValueError, changing nothing, for a seat not at the table or a game over."""
    if game._phase is OVER:
        raise ValueError("the game is over: nobody can leave it")
    if seat not in game._seated:
        raise ValueError(f"seat {seat} is not at the table")
    game._events.append(SeatLeft(seat))
    game._legal = None
    gone = _hand_leaves(game, seat)
    _row_leaves(game, seat)
    holder_before = game._marker
    game._departed |= {seat}
    game._seated = seated = tuple(other for other in game._seated if other != seat)
    game._left_of = tuple(
        next(other for other in CLOCKWISE[game.players][start + 1] if other in seated)
        for start in range(game.players)
    )
    game._participants = tuple(other for other in game._participants if other != seat)
    if holder_before == seat:
        game._marker = next_battle.seat_on_the_left(game, seat)
    if len(game._seated) == 1:
        _forfeit(game)
    elif game.chance is not None:
        _chance_without(game, seat)
    else:
        _turn_without(game, seat, holder_before)
    if game.chance is not None:
        settle(game)
    return gone


def _hand_leaves(game: Game, seat: int) -> HandOutOfGame:
    """``seat``'s hand goes out of the game face down: the cards this engine saw in it among
    the cards out of the game, the others counted as gone unseen."""
    pile = deck_of(game, seat)
    count = game._sizes[seat]
    game._out[pile].extend(game._hands[seat].elements())
    game._out_unseen[pile] += game._unknown[seat]
    game._hands[seat].clear()
    game._held[seat] = 0
    game._unknown[seat] = 0
    game._sizes[seat] = 0
    return HandOutOfGame(seat, count)


def _row_leaves(game: Game, seat: int) -> None:
    """``seat``'s battle line leaves the battle (face up, as at a battle's end) and it counts
    as passed; if it defended the contested region, nobody defends it now. Season cards it
    played stay in play: they are the table's season, not its row's."""
    for card in game._rows[seat]:
        throw_away(game, card, seat)
    game._rows[seat] = []  # a new list: the last battle's result keeps the old one
    game._row_mercenaries[seat] = 0
    game._bishop_removed[seat] = []
    game._passed.add(seat)
    if game._defender == seat:
        game._defender = None


def _forfeit(game: Game) -> None:
    """A single seat is left: whatever the game waited for is dropped, and it wins."""
    game.chance = None
    game._deals_queued = ()
    game._after_choice = game._after_deals = game._after_discard_step = None
    victory.finish(game, game._seated)


def _chance_without(game: Game, seat: int) -> None:
    """The pending fair choice is among the other seats (one left: it is chosen without
    asking); a pending or queued deal to ``seat`` is not made."""
    node = game.chance
    if isinstance(node, Choice):
        seats = tuple(other for other in node.seats if other != seat)
        if len(seats) == len(node.seats):
            return
        if len(seats) > 1:
            game.chance = Choice(seats, node.purpose)
            return
        then_choose = game._after_choice
        assert then_choose is not None  # set whenever a choice is asked
        game.chance = game._after_choice = None
        then_choose(game, seats[0])
        return
    queued = tuple(deal for deal in game._deals_queued if deal.seat != seat)
    game._deals_queued = queued
    if not isinstance(node, Deal) or node.seat != seat:
        return
    if queued:
        game.chance, game._deals_queued = queued[0], queued[1:]
        return
    then = game._after_deals
    assert then is not None  # set whenever deals are asked
    game.chance = game._after_deals = None
    then(game)


def _turn_without(game: Game, seat: int, holder_before: int) -> None:
    """The game goes on without ``seat``: the discard step with the seats not yet asked (it
    may end, as fewer seats may hold cards now); otherwise the seat to act goes on, and if
    it was ``seat``, the game goes on from its left: the battle (also after a Bishop whose
    Favor it was to place: the Favor stays off the board), the battle choice by the new
    marker holder, FFG's refill."""
    phase = game._phase
    if phase is DISCARD:
        round_end.discard_step_without(game, seat, holder_before)
        return
    if game._to_act != seat:
        return
    if phase is BATTLE or phase is FAVOR:
        battle.next_turn(game, seat + 1)
    elif phase is BATTLE_CHOICE:
        next_battle.open_choice(game, after_compare=game._choice_after_compare)
    elif phase is RETAIN:
        round_end.ffg_refill(game)
