"""The scheduler: the one place that says which step comes next once a step hands the table
back to the game (:attr:`~condottiere.peer.steps.base.After.GAME`).

It makes the game first if there is none yet (the seats put out before the deal removed),
puts first what a seat put out still calls for (the others re-key the decks without it and
back their secrets up again: :func:`~condottiere.peer.steps.leavers.catch_up`), then asks the
game what it waits for and hands that value to the rule that declares it answers
its type (``StepRule.answers``: a fair choice to the coins, a deal to the shuffle and the deal,
a search to the searches, a hand shown, a hand's proof or a move to the moves); a rule that
settles it without a step (the cards dealt, a search of an empty pile) has the game asked
again. When the game waits for nothing, the audit comes.
"""

from __future__ import annotations

from typing import Any, Protocol

from condottiere.interface import GameRules, GameState
from condottiere.peer.lobby import TableSpec
from condottiere.peer.steps import audit, coins, leavers, searches
from condottiere.peer.steps.base import Step, rule_answering


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
    while True:
        waiting = game.waiting
        if waiting is None:
            t._say("over", ending(t))
            return step.then(audit.AUDIT, t._remaining_authors())
        again = leavers.catch_up(t, step)
        if again is not None:
            return again
        started = rule_answering(waiting).start(t, step, waiting)
        if started is not None:
            return started
