"""The scheduler: the one place that says which step comes next once a step hands the table
back to the game (:attr:`~condottiere.peer.steps.base.After.GAME`).

It makes the game first if there is none yet (the seats put out before the deal removed),
then asks the game what it waits for: a fair choice (a coin flip), a deal (the re-key or new
backup a leaver calls for, the shuffle chain, the shares, a stand-in, then the cards), a
search of a draw pile, a hand shown to one seat, a move; or nothing (the audit).
"""

from __future__ import annotations

from typing import Any, Protocol

from condottiere.interface import (
    Choice,
    Deal,
    GameRules,
    GameState,
    HandHolds,
    SearchDeck,
    SeatToMove,
    ShowHand,
)
from condottiere.peer.lobby import TableSpec
from condottiere.peer.steps import coins, deal, leavers, searches
from condottiere.peer.steps.base import Step, StepKind


class Context(leavers.Context, coins.Context, searches.Context, Protocol):
    """What the scheduler sees of the table."""

    spec: TableSpec
    rules: GameRules
    game: GameState[Any] | None


def start_game(t: Context) -> GameState[Any]:
    """Make the game for the table's seating, without the seats put out before the deal
    (the game's rules go on without them as with any leaver)."""
    table = t.spec.rules
    game = t.rules.for_spectator(table) if t.seat is None else t.rules.for_seat(table, t.seat)
    t.game = game
    for seat in sorted(t.out):
        game.remove_seat(seat)
    return game


def ending(t: Context) -> str:
    """The game's outcome in players' words."""
    assert t.game is not None and t.game.outcome is not None
    outcome = t.game.outcome
    winners = " and ".join(t.who(t.seating[s]) for s in outcome.winners)
    if not winners:
        return f"the game is over: nobody won ({outcome.how})"
    return f"the game is over: {winners} won ({outcome.how})"


def next_step(t: Context, step: Step) -> Step:
    """The step that follows ``step`` where the game says what comes next."""
    game = t.game if t.game is not None else start_game(t)
    dealer = t.dealer
    assert dealer is not None
    while True:
        sizes = [game.hand_size(seat) for seat in range(t.spec.seats)]
        waiting = game.waiting
        if waiting is None:
            t._say("over", ending(t))
            return step.then(StepKind.AUDIT, t._remaining_authors())
        if isinstance(waiting, Choice):
            seats = tuple(s for s in range(t.spec.seats) if s not in t.out)
            return coins.start_flip(t, step, waiting, game.choices_made, seats)
        if isinstance(waiting, Deal):
            draws = game.pending_draws()
            dealer.shuffles.sync(draws, sizes)
            again = leavers.rekey_step(t, step, draws) or leavers.redeal_step(t, step, draws)
            if again is not None:
                return again
            for draw in draws:
                shuffler = dealer.shuffles.next_shuffler(draw.pile)
                if shuffler is not None:
                    shufflers = t._seat_authors([shuffler])
                    return step.then(StepKind.SHUFFLE, shufflers, deck=draw.pile)
            sharers = [seat for seat in dealer.shares.sharers(draws) if seat not in t.out]
            if sharers:
                return step.then(StepKind.SHARES, t._seat_authors(sharers), draws=draws)
            stand_in = deal.stand_in_step(t, step, draws)
            if stand_in is not None:
                return stand_in
            deal.deal(t, draws)
            continue
        if isinstance(waiting, SearchDeck):
            search = searches.start_search(t, step, waiting)
            if search is not None:
                return search
            continue
        if isinstance(waiting, ShowHand):
            dealer.check_hands(sizes)
            return step.then(StepKind.HAND_SHOWN, t._seat_authors([waiting.seat]), shown=waiting)
        if isinstance(waiting, HandHolds):
            dealer.check_hands(sizes)
            return step.then(StepKind.HAND_PROOF, t._seat_authors([waiting.seat]), holds=waiting)
        assert isinstance(waiting, SeatToMove)
        dealer.check_hands(sizes)
        return step.then(StepKind.MOVE, t._seat_authors([waiting.seat]))
