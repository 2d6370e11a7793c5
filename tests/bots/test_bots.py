"""The bots: legal moves only, reproducible for a seed, games that finish, greedy's rules of thumb,
and the README's "write your own bot" example."""

from __future__ import annotations

import doctest
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from condottiere.bots import (
    BOTS,
    GreedyBot,
    NotYourTurnError,
    RandomBot,
    Strategy,
    make_bot,
    play_out,
)
from condottiere.bots.strategy import battle_ended, moves_for
from condottiere.games.condottiere import EDITIONS, Game

README = Path(__file__).resolve().parents[2] / "README.md"
QUICK_BOTS = sorted(name for name in BOTS if name != "ismcts")
"""The bots cheap enough to play many whole games here; ismcts searches hundreds of playouts a
move, and tests/bots/test_ismcts.py runs the same checks on it with a small budget."""

# Every edition at each player count, plus the ffg house rules (they add `cede`).
TABLES = [
    (edition, players, ())
    for edition, spec in EDITIONS.items()
    for players in range(spec.min_players, spec.max_players + 1)
] + [("ffg", 3, ("sieges", "cede")), ("ffg", 5, ("sieges", "cede"))]


def mixed_bots(players: int, seed: int) -> list[Strategy]:
    """Greedy and random bots taking turns round the table."""
    names = QUICK_BOTS
    return [
        make_bot(names[(seat + seed) % len(names)], seed * 100 + seat) for seat in range(players)
    ]


@pytest.mark.parametrize(("edition", "players", "options"), TABLES)
def test_bots_choose_only_legal_moves_in_every_position_of_whole_games(
    edition: str, players: int, options: tuple[str, ...]
) -> None:
    phases_seen = set()
    for seed in range(3):
        game = Game.new(edition, players=players, seed=seed, options=options)
        bots = mixed_bots(players, seed)
        while game.to_act is not None:
            seat = game.to_act
            legal = game.legal_moves()
            move = bots[seat].choose(game, seat)
            assert move in legal, f"{bots[seat].name} chose {move} among {legal}"
            assert game.legal_moves() == legal, "a bot changed the game it was shown"
            phases_seen.add(game.phase)
            game.play(move)
    assert "battle" in phases_seen


def test_bots_choose_only_legal_moves_in_the_phases_few_games_reach() -> None:
    # ffg's retain (the last seat with cards) and cede, asked of both bots on purpose.
    retain = Game.setup("ffg", players=3, hands=[["10", "heroine", "2"], [], []], first=0,
                        battle="Firenze", seed=2)
    cede = Game.new("ffg", players=3, seed=4, options=("cede",))
    for bot in (GreedyBot(seed=1), RandomBot(seed=1)):
        game = retain.copy()
        game.play("pass")   # seat 0 wins Firenze, then chooses the next battle
        game.play("battle Siena")
        assert game.phase == "retain"
        assert bot.choose(game, 0) in game.legal_moves()
        assert cede.to_act is not None
        assert bot.choose(cede, cede.to_act) in cede.legal_moves()


@pytest.mark.parametrize("name", QUICK_BOTS)
@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_a_bot_replays_the_same_game_for_the_same_seed(name: str, edition: str) -> None:
    players = EDITIONS[edition].min_players + 1 if edition != "zman-duel" else 2

    def game_with_bot_seed(bot_seed: int) -> list[object]:
        game = Game.new(edition, players=players, seed=5)
        bots = [make_bot(name, bot_seed + seat) for seat in range(players)]
        return list(play_out(game, bots).record()["events"])

    assert game_with_bot_seed(7) == game_with_bot_seed(7)
    if name == "random":
        assert game_with_bot_seed(7) != game_with_bot_seed(8)


@pytest.mark.parametrize(("edition", "players", "options"), TABLES)
def test_a_game_of_bots_ends_with_winners_or_a_duel_draw(
    edition: str, players: int, options: tuple[str, ...]
) -> None:
    for seed in range(4):
        game = play_out(
            Game.new(edition, players=players, seed=seed, options=options),
            mixed_bots(players, seed),
        )
        assert game.phase == "over" and game.to_act is None
        if game.winners:
            assert set(game.winners) <= set(range(players))
        else:
            assert edition == "zman-duel"
            assert game.battles_won[0] == game.battles_won[1]


def test_greedy_wins_more_four_player_zman_games_than_three_random_bots_together() -> None:
    games = 120
    greedy_wins = 0.0
    for seed in range(games):
        greedy_seat = seed % 4
        bots: list[Strategy] = [
            GreedyBot(seed) if seat == greedy_seat else RandomBot(seed * 4 + seat)
            for seat in range(4)
        ]
        game = play_out(Game.new("zman", players=4, seed=seed), bots)
        if greedy_seat in game.winners:
            greedy_wins += 1 / len(game.winners)
    assert greedy_wins > games / 2


def test_play_out_refuses_a_bot_count_that_does_not_match_the_seats() -> None:
    with pytest.raises(ValueError, match="3 bots for 4 seats"):
        play_out(Game.new("zman", players=4, seed=1), [RandomBot(seed) for seed in range(3)])


@pytest.mark.parametrize("name", sorted(BOTS))
def test_a_bot_asked_for_a_seat_that_is_not_to_act_refuses(name: str) -> None:
    game = Game.new("zman", players=3, seed=1)
    assert game.to_act is not None
    with pytest.raises(NotYourTurnError):
        make_bot(name, seed=0).choose(game, (game.to_act + 1) % 3)


def test_make_bot_names_the_known_bots_when_the_name_is_unknown() -> None:
    with pytest.raises(ValueError, match="known: greedy, ismcts, random"):
        make_bot("clever", seed=0)


# ---------------------------------------------------------------- greedy's rules of thumb


def firenze_battle(hands: list[list[str]], control: dict[str, int] | None = None) -> Game:
    """A zman battle in Firenze opened by seat 0, with these hands and this board."""
    return Game.setup("zman", players=len(hands), hands=hands, first=0, battle="Firenze",
                      control=control, seed=0)


def greedy_move(game: Game) -> str:
    assert game.to_act is not None
    return str(GreedyBot(seed=3).choose(game, game.to_act))


def test_greedy_plays_the_cheapest_card_that_takes_the_lead() -> None:
    game = firenze_battle([["2"], ["1", "3", "5", "10"]])
    game.play("play 2")
    assert greedy_move(game) == "play 3"


def test_greedy_plays_the_card_that_most_raises_its_margin_when_none_takes_the_lead() -> None:
    game = firenze_battle([["10", "heroine", "6"], ["1", "2", "3", "5", "6", "10", "10"]])
    game.play("play 10")
    game.play("play 6")
    game.play("play heroine")
    assert greedy_move(game) == "play 10"   # 6 vs 20: a 10 closes most of the gap


def test_greedy_passes_while_it_leads_and_a_rival_may_still_play() -> None:
    game = firenze_battle([["3", "10"], ["5", "6"], ["1", "2"]])
    for move in ("play 3", "play 5", "play 1", "pass"):
        game.play(move)
    assert greedy_move(game) == "pass"   # 5 against 3 and 1, seat 2 still in the battle


def test_greedy_ends_a_battle_it_leads_with_a_turncoat() -> None:
    game = firenze_battle([["3", "10"], ["5", "turncoat"], ["1", "2"]])
    assert greedy_move(game) == "play 3"
    for move in ("play 3", "play 5", "play 1", "pass"):
        game.play(move)
    assert greedy_move(game) == "play turncoat"


def test_greedy_catches_up_then_takes_the_region_once_every_rival_has_passed() -> None:
    game = firenze_battle([["4"], ["2", "3", "3", "turncoat"]])
    game.play("play 4")   # seat 0 has no card left: it is passed
    played = []
    while game.phase == "battle":
        played.append(greedy_move(game))
        game.play(played[-1])
    assert played == ["play 3", "play 2", "pass"]
    assert game.control.get("Firenze") == 1


def test_greedy_passes_a_battle_that_would_take_more_than_half_its_hand() -> None:
    poor = firenze_battle([["10", "1"], ["1", "2", "3"]])
    rich = firenze_battle([["10", "1"], ["10", "10", "3"]])
    for game in (poor, rich):
        game.play("play 10")
    assert greedy_move(poor) == "pass"   # 10 behind, 6 in hand
    assert greedy_move(rich) == "play 10"   # 10 behind, 23 in hand


def test_greedy_opens_the_battle_that_extends_its_connected_group() -> None:
    game = Game.setup("zman", players=3, hands=[["1"], ["2"], ["3"]], first=0,
                      control={"Siena": 0, "Napoli": 0, "Torino": 1}, seed=0)
    assert game.phase == "battle-choice"
    # Roma joins Siena and Napoli; every other free region borders one of them at most.
    assert greedy_move(game) == "battle Roma"


def test_greedy_places_the_favor_where_the_leader_would_grow() -> None:
    game = firenze_battle(
        [["10"], ["bishop", "1"], ["2"]],
        control={"Torino": 2, "Venezia": 2, "Ancona": 0},
    )
    game.play("play 10")
    game.play("play bishop")
    assert game.phase == "favor"
    # Seat 2 leads with Torino and Venezia; only Milano joins them into a group of three.
    assert greedy_move(game) == "favor Milano"


def test_greedy_discards_a_hand_without_mercenaries() -> None:
    game = firenze_battle([["10", "heroine"], ["1", "spy"], ["3", "spy"]])
    game.play("play 10")
    game.play("play 1")
    game.play("play 3")
    game.play("pass")
    game.play("pass")
    game.play("pass")
    assert game.phase == "discard"
    assert greedy_move(game) == "discard"


# ---------------------------------------------------------------- battle_ended


def count_battles(edition: str, seed: int) -> tuple[int, int, bool]:
    """(battles ended as battle_ended sees them, battles opened, whether a final battle came)."""
    players = 2 if edition == "zman-duel" else 4
    game = Game.new(edition, players=players, seed=seed)
    bots = mixed_bots(players, seed)
    ended = opened = 0
    final = False
    while game.to_act is not None:
        seat = game.to_act
        move = bots[seat].choose(game, seat)
        before = game.copy()
        game.play(move)
        ended += battle_ended(before, game)
        opened += move.verb == "battle"
        final = final or game.final_battle
    return ended, opened, final


@pytest.mark.parametrize("edition", ["zman", "zman-classic", "ffg", "eurogames"])
def test_battle_ended_sees_exactly_one_end_per_battle_opened(edition: str) -> None:
    for seed in range(6):
        ended, opened, final = count_battles(edition, seed)
        assert ended == opened + final


# Six seats holding every region but Siena, none of them near a victory.
EVERY_REGION_BUT_SIENA = {
    "Torino": 2, "Milano": 3, "Genova": 3, "Venezia": 0, "Mantova": 4, "Parma": 5,
    "Modena": 2, "Ferrara": 5, "Bologna": 1, "Lucca": 4, "Firenze": 2, "Urbino": 0,
    "Ancona": 1, "Spoleto": 1, "Roma": 0, "Napoli": 3,
}


def test_battle_ended_sees_a_tie_followed_at_once_by_a_battle_in_the_same_last_region() -> None:
    game = Game.setup("zman", players=6, hands=[["3"], ["3"], [], [], [], []], first=0,
                      control=EVERY_REGION_BUT_SIENA, battle="Siena", seed=1)
    game.play("play 3")
    before = game.copy()
    game.play("play 3")   # a tie; nobody holds a card: new hands, and Siena is all that is left
    assert (game.phase, game.battle_region) == ("battle", "Siena")
    assert battle_ended(before, game)


def test_battle_ended_sees_a_duel_battle_nobody_fought() -> None:
    game = Game.setup("zman-duel", players=2, hands=[["1", "2"], ["3"]], first=0, seed=0)
    first_pass = game.copy()
    first_pass.play("pass")
    second_pass = first_pass.copy()
    second_pass.play("pass")
    assert battle_ended(game, first_pass) is False
    assert battle_ended(first_pass, second_pass) is True
    assert second_pass.phase == "over" and second_pass.battles_won == (0, 0)  # RULES.md 18


def test_battle_ended_sees_a_duel_battle_won_with_a_turncoat() -> None:
    game = Game.setup("zman-duel", players=2, hands=[["5", "turncoat"], ["3"]], first=0, seed=0)
    game.play("play 5")
    before = game.copy()
    game.play("play 3")
    assert battle_ended(before, game) is False
    before = game.copy()
    game.play("play turncoat")
    assert battle_ended(before, game) is True
    assert game.battles_won == (1, 0)


def test_moves_for_gives_the_legal_moves_of_the_seat_to_act() -> None:
    game = Game.new("eurogames", players=3, seed=2)
    assert game.to_act is not None
    assert moves_for(game, game.to_act) == game.legal_moves()


# ---------------------------------------------------------------- README


def test_the_readme_examples_run_as_written() -> None:
    failures, attempted = doctest.testfile(str(README), module_relative=False)
    assert attempted > 0
    assert failures == 0


# ---------------------------------------------------------------- bots as network peers


def feed(view: Game, event: list[Any]) -> None:
    """Tell a seat's own engine one event of the table's record, as that seat learns it."""
    kind, who = event[0], event[1]
    if kind == "choice":
        view.resolve(event[3])
    elif kind == "deal":
        view.resolve(event[2] if who == view.observer else None)
    else:
        view.play(event[2], reveal=event[3] if len(event) > 3 else None)


@pytest.mark.parametrize("name", QUICK_BOTS)
@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_a_bot_chooses_the_same_move_from_its_own_seat_view_as_at_the_open_table(
    name: str, edition: str
) -> None:
    # A seat's view knows only its own hand: the same choice proves the bot never peeks.
    players = 2 if edition == "zman-duel" else 4
    for seed in range(2):
        table = Game.new(edition, players=players, seed=seed)
        views = [Game.observe(table.record(), seat) for seat in range(players)]
        open_bots = [make_bot(name, seed + seat) for seat in range(players)]
        seat_bots = [make_bot(name, seed + seat) for seat in range(players)]
        fed = 0
        while True:
            events = table.record()["events"]
            for view in views:
                for event in events[fed:]:
                    feed(view, event)
            fed = len(events)
            seat = table.to_act
            if seat is None:
                break
            move = open_bots[seat].choose(table, seat)
            assert seat_bots[seat].choose(views[seat], seat) == move
            table.play(move)


def test_importing_the_bots_leaves_the_search_unimported_until_it_is_asked_for() -> None:
    """The search and every game's search policies are imported only when asked for (a bot
    peer's start pays for them otherwise); ``IsmctsBot`` is still there by its old name."""
    script = (
        "import sys, condottiere.bots as bots\n"
        "before = 'condottiere.bots.ismcts' in sys.modules\n"
        "print(before, bots.IsmctsBot.__module__)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    assert result.stdout.split() == ["False", "condottiere.bots.ismcts"]
