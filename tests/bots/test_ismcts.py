"""The ISMCTS bot: legal moves only, from its own seat's engine, blind to the other hands, within
its budget, reproducible for a seed; and its playout policy and board estimate."""

from __future__ import annotations

import random
import time

import pytest

from condottiere.bots import BOTS, Budget, GreedyBot, IsmctsBot, Strategy, make_bot, play_out
from condottiere.bots.condottiere_policy import board_rewards, playout_move, rewards
from condottiere.bots.named import strategy_of
from condottiere.games.condottiere import EDITIONS, Game
from condottiere.interface import game_named

SMALL = Budget(iterations=8)
"""Enough to exercise every part of the search, little enough for whole games in a test."""

TABLES = [("zman", 4, ()), ("zman-classic", 3, ()), ("zman-duel", 2, ()),
          ("ffg", 2, ("sieges", "cede")), ("eurogames", 2, ())]


DECISIONS = 40
"""The ismcts seat's decisions a legality test plays (a whole game in most editions)."""


@pytest.mark.parametrize(("edition", "players", "options"), TABLES)
def test_ismcts_plays_only_legal_moves_from_its_own_seat_engine_through_a_game(
    edition: str, players: int, options: tuple[str, ...]
) -> None:
    table = Game.new(edition, players=players, seed=3, options=options)
    view = Game.observe(table.record(), seat=0)  # what seat 0 runs on the network
    bot = IsmctsBot(seed=1, budget=SMALL)
    others = [GreedyBot(seed) for seed in range(players)]
    followed = 0
    decisions = 0
    while table.to_act is not None and decisions < DECISIONS:
        events = table.record()["events"]
        view.follow(events[followed:])
        followed = len(events)
        seat = table.to_act
        if seat == 0:
            move = bot.choose(view, 0)
            assert move in view.legal_moves()
            assert move in table.legal_moves()
            decisions += 1
        else:
            move = others[seat].choose(table, seat)
        table.play(move)
    assert decisions >= 10


def test_ismcts_makes_the_same_choices_whatever_the_cards_it_cannot_see() -> None:
    # Two tables with the same public history that differ only in seat 1's hand and the deck:
    # a bot that never peeks plays seat 0 identically at both.
    seat_0 = ["10", "5", "3", "drummer", "heroine", "1", "2", "scarecrow", "spy", "4"]
    hands_1 = (["6", "6", "1", "2", "turncoat", "winter", "bishop", "spy", "5", "3"],
               ["10", "10", "10", "heroine", "heroine", "drummer", "4", "4", "2", "1"])
    choices = []
    for hand_1 in hands_1:
        table = Game.setup("zman", players=2, hands=[seat_0, hand_1], first=0, seed=5)
        bot = IsmctsBot(seed=7, budget=Budget(iterations=60))
        blind = GreedyBot(seed=2)  # plays seat 1 by the public state alone until it must differ
        moves = []
        for _ in range(6):
            seat = table.to_act
            assert seat is not None
            if seat == 0:
                move = bot.choose(table, 0)
                moves.append(str(move))
            else:
                move = blind.choose(table, 1) if table.phase != "battle" else _pass(table)
            table.play(move)
        choices.append(moves)
    assert choices[0] == choices[1]


def _pass(table: Game) -> object:
    return next(move for move in table.legal_moves() if move.verb == "pass")


def test_ismcts_chooses_the_same_from_its_seat_view_as_at_the_open_table() -> None:
    table = Game.new("ffg", players=3, seed=9)
    for _ in range(5):
        table.play(GreedyBot(seed=0).choose(table, table.to_act or 0))
    seat = table.to_act
    assert seat is not None
    at_table = IsmctsBot(seed=4, budget=Budget(iterations=80)).choose(table, seat)
    from_view = IsmctsBot(seed=4, budget=Budget(iterations=80)).choose(table.seen_by(seat), seat)
    assert at_table == from_view


def test_ismcts_refuses_to_play_from_another_seats_engine() -> None:
    table = Game.new("zman", players=3, seed=2)
    seat = table.to_act
    assert seat is not None
    with pytest.raises(ValueError, match="cannot play from"):
        IsmctsBot(seed=0, budget=SMALL).choose(table.seen_by((seat + 1) % 3), seat)


def test_ismcts_stops_at_its_iteration_budget_and_replays_for_a_seed() -> None:
    def game_with(seed: int) -> list[object]:
        bots: list[Strategy] = [IsmctsBot(seed, budget=Budget(iterations=10)), GreedyBot(1)]
        return list(play_out(Game.new("zman-duel", players=2, seed=6), bots).record()["events"])

    assert game_with(3) == game_with(3)
    bot = IsmctsBot(seed=1, budget=Budget(iterations=25))
    game = Game.new("zman", players=4, seed=8)
    seat = game.to_act
    assert seat is not None
    bot.choose(game, seat)
    assert 1 <= bot.last_iterations <= 25


def test_ismcts_stops_near_its_time_budget() -> None:
    bot = IsmctsBot(seed=1, budget=Budget(seconds=0.2))
    game = Game.setup("zman", players=4, hands=[["10", "5", "3", "1", "drummer"]] * 4,
                      battle="Firenze")
    start = time.perf_counter()
    bot.choose(game, 0)
    assert time.perf_counter() - start < 0.2 + 0.3
    assert bot.last_iterations > 1


def test_a_cpu_time_budget_stops_the_search_after_that_much_cpu_time() -> None:
    bot = IsmctsBot(seed=1, budget=Budget(cpu_seconds=0.2))
    game = Game.setup("zman", players=4, hands=[["10", "5", "3", "1", "drummer"]] * 4,
                      battle="Firenze")
    start = time.process_time()
    bot.choose(game, 0)
    assert time.process_time() - start < 0.2 + 0.3
    assert bot.last_iterations > 1


def test_a_budget_needs_iterations_or_seconds_and_they_must_be_positive() -> None:
    with pytest.raises(ValueError, match="iterations, seconds or CPU seconds"):
        Budget()
    with pytest.raises(ValueError, match="seconds"):
        Budget(cpu_seconds=0)
    with pytest.raises(ValueError, match="iterations"):
        Budget(iterations=0)
    with pytest.raises(ValueError, match="seconds"):
        Budget(seconds=0)


def test_ismcts_is_registered_by_name_and_plays_each_game_as_its_plugin_names_it() -> None:
    assert "ismcts" in BOTS
    bot = make_bot("ismcts", seed=1, budget=Budget(iterations=5))
    game = Game.new("zman-duel", players=2, seed=2)
    assert bot.choose(game, game.to_act or 0) in game.legal_moves()
    assert isinstance(strategy_of(game_named("condottiere"), "ismcts", 1), IsmctsBot)


def test_ismcts_takes_a_battle_it_leads_once_the_other_seat_has_passed() -> None:
    game = Game.setup("zman", players=2, hands=[["10", "1", "turncoat"], ["5", "6"]], first=1,
                      battle="Firenze", seed=0)
    game.play("play 6")
    game.play("play 10")
    game.play("pass")  # seat 1 passes behind: seat 0 leads 10 to 6
    bot = IsmctsBot(seed=2, budget=Budget(iterations=100))
    while game.battle_region == "Firenze" and game.to_act == 0:
        game.play(bot.choose(game, 0))
    assert game.last_battle is not None and game.last_battle.winner == 0


# ----------------------------------------------------------------------- policy and estimate


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_the_playout_policy_plays_legal_moves_to_the_end_of_games(edition: str) -> None:
    players = 2 if edition == "zman-duel" else 4
    rng = random.Random(1)
    for seed in range(3):
        game = Game.new(edition, players=players, seed=seed)
        while game.to_act is not None:
            legal = game.legal_moves()
            move = playout_move(game, game.to_act, legal, rng)
            assert move in legal
            game.play(move)


def policy_choices(game: Game, seat: int, tries: int = 40) -> list[str]:
    rng = random.Random(0)
    return [str(playout_move(game, seat, game.legal_moves(), rng)) for _ in range(tries)]


def test_the_playout_policy_takes_the_lead_with_its_cheapest_card_that_does() -> None:
    game = Game.setup("zman", players=2, hands=[["4", "1"], ["10", "6", "3"]], battle="Roma")
    game.play("play 4")
    assert policy_choices(game, 1).count("play 6") >= 34  # bar the few random playout moves


def test_the_playout_policy_passes_when_ahead() -> None:
    game = Game.setup("zman", players=2, hands=[["4", "1"], ["10", "6", "3"]], battle="Roma")
    game.play("play 4")
    game.play("play 6")
    game.play("play 1")  # 5 against 6: seat 1 leads
    assert policy_choices(game, 1).count("pass") >= 34


def test_the_playout_policy_gives_up_a_hopeless_chase() -> None:
    game = Game.setup("zman", players=2, hands=[["10", "6", "1"], ["2", "1"]], battle="Roma")
    game.play("play 10")  # seat 1 would need 11 from a hand worth 3
    assert policy_choices(game, 1).count("pass") >= 34


def test_board_rewards_favour_the_seat_nearer_victory_and_sum_to_one() -> None:
    near = Game.setup("zman", players=3, control={"Roma": 1, "Napoli": 1, "Lucca": 2})
    values = board_rewards(near, count_hands=False)
    assert values[1] > values[2] > values[0]
    assert sum(values) == pytest.approx(1)


def test_rewards_at_the_end_of_a_game_are_win_shares() -> None:
    game = play_out(Game.new("zman", players=3, seed=4), [GreedyBot(s) for s in range(3)])
    values = rewards(game)
    assert sum(values) == pytest.approx(1)
    assert all(values[seat] > 0 for seat in game.winners)
