"""Random games in which seats leave at random points (RULES.md, "A seat that leaves"): on
every edition and table size, with chance answered by hand so that a seat may also leave
while a fair choice or a deal is pending. The invariants: every card is somewhere (those gone
with a leaver out of the game), no turn and no choice ever goes to a seat that left, no deal
is made to it, it never wins, the game always ends, the record replays to the same game, and
the seat-view and spectator engines folded from the record stay in step with the open table.
"""

from __future__ import annotations

import random

import pytest

from condottiere.games.condottiere import Game
from condottiere.games.condottiere.chance import Choice, Deal
from condottiere.interface.game import OutcomeKind
from tests.games.condottiere.playout import (
    MOVE_LIMIT,
    TABLES,
    cards_on_table,
    engines_in_step,
    whole_deck,
)

GAMES = 3000
BATCHES = 10


def _answer_chance(game: Game, rng: random.Random) -> None:
    """Answer the pending chance node at random, as a dealer outside the rules would."""
    node = game.chance
    if isinstance(node, Choice):
        game.resolve(rng.choice(node.seats))
    else:
        assert isinstance(node, Deal)
        pile = list(game.draw_piles[game.pending_draws()[0].pile])
        game.resolve(rng.sample(pile, node.count))


def _check_cards(game: Game) -> None:
    """Every card is somewhere: those gone with a leaver's hand are out of the game."""
    assert cards_on_table(game) == whole_deck(game)
    for seat in game.departed:
        assert game.hand_size(seat) == 0 and not game.row(seat)


def _check_step(game: Game) -> None:
    """Nothing the game waits for is a seat that left, and no such seat has won."""
    departed = game.departed
    assert game.to_act not in departed
    node = game.chance
    if isinstance(node, Choice):
        assert departed.isdisjoint(node.seats) and len(node.seats) > 1
    for draw in game.pending_draws():
        assert draw.deal.seat not in departed
    assert departed.isdisjoint(game.winners)


def _leaver(game: Game, rng: random.Random) -> int:
    """A seat still at the table; half the time the one the game waits for (to act, to be
    dealt, among a pending choice), so that every way of waiting meets a leave."""
    seated = [seat for seat in range(game.players) if seat not in game.departed]
    node = game.chance
    awaited = (
        [game.to_act]
        if game.to_act is not None
        else list(node.seats)
        if isinstance(node, Choice)
        else [node.seat]
        if isinstance(node, Deal)
        else []
    )
    return rng.choice(awaited if awaited and rng.random() < 0.5 else seated)


def _play_with_leavers(table: tuple[str, int, tuple[str, ...]], seed: int) -> Game:
    """A game with chance answered at random in which, at every step, a seat may leave (at
    most all but one)."""
    edition, players, options = table
    rng = random.Random(seed)
    game = Game({"edition": edition, "players": players, "options": list(options)})
    leave_chance = rng.choice((1 / 20, 1 / 100, 1 / 400))
    steps = 0
    while game.phase != "over":
        if len(game.departed) < players - 1 and rng.random() < leave_chance:
            seat = _leaver(game, rng)
            hand = game.hand_size(seat)
            assert game.remove_seat(seat).count == hand
            _check_cards(game)
            if rng.random() < 0.1:
                engines_in_step(game)
        elif game.chance is not None:
            _answer_chance(game, rng)
        else:
            game.play(rng.choice(game.legal_moves()))
        steps += 1
        assert steps < MOVE_LIMIT, "the game does not end"
        _check_step(game)
        if game.departed and rng.random() < 0.05:
            _check_cards(game)
    _check_cards(game)
    return game


@pytest.mark.parametrize("batch", range(BATCHES))
def test_random_leaves_keep_every_invariant(batch: int) -> None:
    rng = random.Random(batch)
    for _ in range(GAMES // BATCHES):
        table = rng.choice(TABLES)
        seed = rng.getrandbits(32)
        game = _play_with_leavers(table, seed)
        outcome = game.outcome
        assert outcome is not None
        remaining = [seat for seat in range(game.players) if seat not in game.departed]
        if len(remaining) == 1:
            assert outcome.kind is OutcomeKind.FORFEIT and outcome.winners == tuple(remaining)
            assert outcome.how == "the others left: a win by forfeit"
        else:
            assert outcome.kind is not OutcomeKind.FORFEIT
        if rng.random() < 0.05:
            engines_in_step(game)
        else:
            record = game.record()
            assert Game.replay(record).record() == record
