"""The bots on Condottieri Captains: legal moves to the end of whole games, greedy's edge over
random, and the search working through the game's state alone."""

from __future__ import annotations

import random

import pytest

from condottiere.bots import Budget, IsmctsBot, make_bot, play_out
from condottiere.bots.captains_greedy import CaptainsGreedy
from condottiere.bots.policies import policy_for
from condottiere.games.captains import CARDS, Game, Kind, Move, Phase, Verb


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (5, 3), (8, 4)])
def test_random_and_greedy_play_legal_moves_to_the_end(players: int, seed: int) -> None:
    """Every move is listed, or an offer of the bot's own making that the engine accepts
    (game.play refuses an illegal one)."""
    bots = [make_bot("greedy" if s % 2 else "random", seed * 10 + s) for s in range(players)]
    game = Game.new(players, seed=seed)
    for _ in range(100_000):
        seat = game.to_act
        if seat is None:
            break
        move = bots[seat].choose(game, seat)  # type: ignore[arg-type]
        assert move in game.legal_moves() or move.verb is Verb.OFFER
        game.play(move)
    assert game.outcome is not None


def test_greedy_beats_random_at_three_seats() -> None:
    wins = 0.0
    games = 12
    for seed in range(games):
        seat = seed % 3
        bots = [
            CaptainsGreedy(seed) if s == seat else make_bot("random", seed + s) for s in range(3)
        ]
        game = Game.new(3, seed=seed)
        while (to_act := game.to_act) is not None:
            game.play(bots[to_act].choose(game, to_act))  # type: ignore[arg-type]
        outcome = game.outcome
        assert outcome is not None
        wins += 1 / len(outcome.winners) if seat in outcome.winners else 0.0
    assert wins / games > 0.8


def test_ismcts_plays_a_whole_game_of_captains_through_its_state() -> None:
    bots = [IsmctsBot(1, Budget(iterations=4)), make_bot("greedy", 2)]
    game = play_out(Game.new(2, seed=7), bots)  # type: ignore[arg-type]
    assert game.phase == Phase.OVER


def test_ismcts_reads_only_what_its_seat_sees() -> None:
    """From the open table it rebuilds the seat's own engine: the same move as when it is
    handed that engine, as on the network."""
    game = Game.new(3, seed=4)
    rng = random.Random(4)
    while game.to_act is not None and game.phase != Phase.RECRUIT:
        game.play(rng.choice(game.legal_moves()))
    seat = game.to_act
    assert seat is not None
    from_table = IsmctsBot(5, Budget(iterations=30)).choose(game, seat)
    from_seat = IsmctsBot(5, Budget(iterations=30)).choose(game.seen_by(seat), seat)
    assert from_table == from_seat and from_table in game.legal_moves()


def test_the_search_has_no_policy_for_a_game_it_does_not_know() -> None:
    with pytest.raises(ValueError, match="no policy"):
        policy_for(object())


def test_ismcts_without_a_budget_runs_the_games_own_number_of_iterations() -> None:
    from condottiere.bots import captains_policy, condottiere_policy
    from condottiere.games.condottiere import Game as CondottiereGame

    captains = Game.new(3, seed=4)
    rng = random.Random(4)
    while captains.to_act is not None and captains.phase != Phase.RECRUIT:
        captains.play(rng.choice(captains.legal_moves()))
    assert policy_for(captains).iterations == captains_policy.ITERATIONS
    bot = IsmctsBot(5)
    bot.choose(captains, captains.to_act)
    assert 1 <= bot.last_iterations <= captains_policy.ITERATIONS
    condottiere = CondottiereGame.new("zman", players=3, seed=11)
    assert policy_for(condottiere).iterations == condottiere_policy.ITERATIONS
    assert captains_policy.ITERATIONS < condottiere_policy.ITERATIONS


def test_a_captains_playout_is_cut_at_its_move_limit_and_scored_by_the_estimate() -> None:
    from condottiere.bots import captains_policy
    from condottiere.bots.ismcts import playout

    def moves_played(game: Game) -> int:
        return sum(1 for event in game.record()["events"] if event[0] == "move")

    game = Game.new(3, seed=9)
    played: list[Move] = []
    values = playout(game, random.Random(9), played)
    assert game.phase != Phase.OVER
    assert moves_played(game) == len(played) == captains_policy.PLAYOUT_MOVES
    assert values == captains_policy.rewards(game)
    assert sum(values) == pytest.approx(1.0) and all(0 < value < 1 for value in values)


@pytest.mark.parametrize("turns", [0, 4, 8])
def test_a_seat_with_no_captain_in_play_stands_lower_than_with_one_at_every_stage(
    turns: int,
) -> None:
    """The fitted estimate agrees with the rulebook's threat: every unblocked attack takes a
    province, so a seat open to its neighbours' captains stands lower than an armed one."""
    from condottiere.bots import captains_policy

    def standings(armies: list[dict[str, list[str]]]) -> list[float]:
        game = Game.setup(3, cities=["milan", "pisa", "savoy"], hands=[[], [], []], seed=0,
                          ducats=[10, 10, 10], armies=armies, turns=[turns] * 3)
        return [captains_policy.standing(game, seat) for seat in range(3)]

    armed = {"faggiuola": ["pikemen"]}
    open_seat = standings([{"gonzaga": []}, {"carmagnola": []}, {}])
    armed_seat = standings([{"gonzaga": []}, {"carmagnola": []}, armed])
    assert armed_seat[2] > open_seat[2]


def test_the_threat_to_a_seat_counts_its_neighbours_captains_up_to_its_provinces() -> None:
    from condottiere.bots.captains_policy import STANDING_FEATURES, standing_features

    exposed, thin = STANDING_FEATURES.index("exposed"), STANDING_FEATURES.index("thin")
    game = Game.setup(3, cities=["milan", "pisa", "savoy"], hands=[[], [], []], seed=0,
                      provinces=[5, 1, 5],
                      armies=[{"gonzaga": [], "faggiuola": []}, {}, {"carmagnola": []}])
    assert standing_features(game, 1)[exposed] == 1  # three captains around, one province
    assert standing_features(game, 2)[thin] == 2  # one captain: two around if it went
    assert standing_features(game, 0)[exposed] == standing_features(game, 0)[thin] == 0


def test_the_estimate_weighs_each_stage_of_the_game_by_its_own_weights() -> None:
    from condottiere.bots import captains_policy
    from condottiere.bots.fitting import shares

    for turns, expected in ((0, 0), (2, 0), (3, 1), (5, 1), (6, 2), (9, 2)):
        game = Game.setup(2, cities=["milan", "pisa"], hands=[["pikemen"], []], seed=0,
                          ducats=[10, 15], armies=[{"gonzaga": []}, {}], turns=[turns] * 2)
        assert captains_policy.stage(game) == expected
        weights = captains_policy.STANDING_WEIGHTS[expected]
        standings = [
            sum(w * x for w, x in zip(weights, captains_policy.standing_features(game, seat),
                                       strict=True))
            for seat in range(2)
        ]
        assert captains_policy.rewards(game) == pytest.approx(shares(standings))


def test_the_captains_search_compares_root_moves_within_its_iteration_budget() -> None:
    """Every candidate is played out on the same samples, and the search stops at its budget
    (a playout is an iteration)."""
    game = Game.setup(3, cities=["milan", "pisa", "savoy"], hands=[[], [], []], seed=0,
                      armies=[{"gonzaga": ["pikemen"]}, {}, {"faggiuola": []}],
                      turns=[1, 1, 1], deck=["duchy"])
    while game.phase is not Phase.BATTLE:
        game.play(game.legal_moves()[0] if game.phase is not Phase.UPKEEP else "pay")
    assert policy_for(game).compare_at_root
    bot = IsmctsBot(3, Budget(iterations=9))
    move = bot.choose(game, 0)
    assert move in game.legal_moves()
    assert bot.last_iterations == 9


def test_the_captains_search_takes_a_province_from_a_neighbour_with_no_captain() -> None:
    """Seat 1 cannot block; seat 2's captain would beat ours."""
    game = Game.setup(3, cities=["milan", "pisa", "savoy"], hands=[[], [], []], seed=0,
                      armies=[{"gonzaga": ["pikemen"]}, {},
                              {"francesco-sforza": ["heavy-cavalry", "armored-knights"]}],
                      turns=[1, 1, 1], deck=["duchy"])
    while game.phase is not Phase.BATTLE:
        game.play(game.legal_moves()[0] if game.phase is not Phase.UPKEEP else "pay")
    assert str(IsmctsBot(3, Budget(iterations=30)).choose(game, 0)) == "attack gonzaga 1"


def test_the_paired_choice_keeps_the_default_unless_another_move_beats_it_clear_of_noise() -> None:
    from condottiere.bots.ismcts import paired_choice

    steady = [[0.5, 0.6, 0.55], [0.3, 0.4, 0.32], [0.7, 0.8, 0.71], [0.5, 0.6, 0.52]]
    assert paired_choice(steady, 1.0) == 1  # 0.1 better on every sample
    noisy = [[0.5, 0.9, 0.5], [0.5, 0.1, 0.5], [0.5, 0.8, 0.5], [0.5, 0.3, 0.5]]
    assert paired_choice(noisy, 1.0) == 0  # 0.025 better on average, within the noise
    assert paired_choice(noisy, None) == 1  # no default to keep: the best mean
    assert paired_choice([[0.1, 0.9]], 1.0) == 0  # one sample says nothing of the noise
    assert paired_choice([], 1.0) == paired_choice([], None) == 0


def test_the_captains_search_trades_only_where_the_search_finds_it_pays() -> None:
    """The search's default in diplomacy is no offer (a seat that never trades beat the greedy
    bots); the trading bots' offers stay among its candidates."""
    from condottiere.bots.captains_policy import candidates, default_move

    game = Game.setup(2, cities=["milan", "pisa"], hands=[[], []], seed=0, deck=["duchy"],
                      ducats=[30, 5])
    for move in ("done", "done"):
        game.play(move)
    legal = game.legal_moves()
    assert default_move(game, 0, legal).verb is Verb.DONE
    assert "offer 1 give 12d get 1p" in {str(move) for move in candidates(game, legal)}


def test_a_kept_hand_must_hold_a_captain_until_a_captain_leaves_it() -> None:
    from condottiere.bots.captains_policy import captain_holders

    game = Game.new(3, seed=5)
    for move in ("city naples", "city genoa", "city milan", "keep", "mulligan"):
        game.play(move)
    assert captain_holders(game.seen_by(0)) == [1]  # seat 2 showed a hand with no captain
    for move in ("keep", "keep", "revenue republican-regime"):
        game.play(move)
    assert captain_holders(game.seen_by(0)) == [0, 1, 2]
    game.play("captain erasmo-de-narni")  # seat 1's hand may hold no captain now
    assert captain_holders(game.seen_by(0)) == [0, 2]


def test_the_captains_sampler_deals_a_captain_to_every_hand_proven_to_hold_one() -> None:
    from condottiere.bots.captains_policy import sampler

    game = Game.new(3, seed=5)
    for move in ("city naples", "city genoa", "city milan", "keep", "mulligan", "keep", "keep"):
        game.play(move)
    view = game.seen_by(0)
    captains = {card for card, info in CARDS.items() if info.kind is Kind.CAPTAIN}
    rng = random.Random(1)
    unconstrained = [view.determinise(rng) for _ in range(60)]
    assert any(not captains.intersection(table.hand(1)) for table in unconstrained)
    sample = sampler(view)
    for _ in range(60):
        table = sample(rng)
        assert captains.intersection(table.hand(1)) and captains.intersection(table.hand(2))
        assert table.hand(0) == view.hand(0)
