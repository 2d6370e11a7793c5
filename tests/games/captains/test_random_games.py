"""Invariants over thousands of random games: cards conserved, ducats changed only as the
seed says, provinces conserved among the players, ten turns each unless defeated, every game
ends, and a record replays to the same game."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from condottiere.games.captains import Game
from condottiere.games.captains.game import TURNS
from tests.games.captains.playout import check_move, play_randomly

CHECKED_GAMES = 150
"""Games checked move by move (every move copies the table to compare)."""
FAST_GAMES = 1500
"""Games checked at their end only."""


def _table(seed: int) -> Game:
    rng = random.Random(seed)
    options = rng.choice([(), ("all-draw",), ("spoils",), ("all-draw", "spoils")])
    return Game.new(players=rng.randint(2, 8), seed=seed, options=options)


def _check_end(game: Game) -> None:
    outcome = game.outcome
    assert outcome is not None and game.phase == "over"
    assert outcome.winners and set(outcome.winners) <= set(game.in_game)
    if len(game.in_game) > 1:
        assert all(game.turns[seat] == TURNS for seat in game.in_game)
        best = max((game.provinces[s], game.ducats[s]) for s in game.in_game)
        assert all((game.provinces[s], game.ducats[s]) == best for s in outcome.winners)
    for seat in game.defeated:
        assert game.provinces[seat] == 0 and game.hand_size(seat) == 0 and not game.army(seat)
    start = sum(5 + (game.cities[s] == "naples") for s in range(game.players))
    assert sum(game.provinces) == start


def test_random_games_keep_every_invariant_move_by_move() -> None:
    for seed in range(CHECKED_GAMES):
        game = play_randomly(_table(seed), random.Random(seed), check_move)
        _check_end(game)


def test_thousands_of_random_games_end_and_replay_to_themselves() -> None:
    for seed in range(CHECKED_GAMES, CHECKED_GAMES + FAST_GAMES):
        game = play_randomly(_table(seed), random.Random(seed))
        _check_end(game)
        if seed % 10 == 0:
            again = play_randomly(_table(seed), random.Random(seed))
            assert again.record() == game.record()
            assert Game.replay(game.record()).record() == game.record()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), leave_at=st.integers(0, 400))
def test_a_game_with_a_seat_that_leaves_goes_on_and_ends(seed: int, leave_at: int) -> None:
    game = _table(seed)
    rng = random.Random(seed)
    for _ in range(leave_at):
        if game.to_act is None:
            break
        game.play(rng.choice(game.legal_moves()))
    if game.to_act is None:
        return
    leaver = rng.choice(game.in_game)
    hand = game.hand_size(leaver)
    assert game.remove_seat(leaver).count == hand
    game = play_randomly(game, rng)
    assert leaver not in (game.outcome.winners if game.outcome else ())
    rebuilt = Game.replay(game.record())
    assert rebuilt.outcome == game.outcome


@pytest.mark.parametrize("players", [2, 3, 8])
def test_a_record_without_its_seed_replays_from_its_chance_events(players: int) -> None:
    game = play_randomly(Game.new(players, seed=players), random.Random(players))
    record = game.record()
    record["seed"] = None
    assert Game.replay(record).outcome == game.outcome
