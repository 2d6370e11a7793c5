"""The `condottiere` command: the demo end to end in-process, its help, and its errors."""

from __future__ import annotations

import io
import re
import time
from importlib.metadata import entry_points

import pytest

from condottiere.cli.demo import DemoSettings, run_demo
from condottiere.cli.main import demo_settings, main
from condottiere.interface import DEFAULT_GAME, game_named

EDITIONS = game_named(DEFAULT_GAME).editions
RESULT = re.compile(r"  (\S.* wins the battle|nobody wins|nobody played a card|the Bishop ends)")
"""A battle's result, as the narration tells it, indented under the move that decided it."""


def run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """Run the command in-process; return what it printed (it must exit 0)."""
    assert main(list(args)) == 0
    return capsys.readouterr().out


def exit_status_and_error(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[object, str]:
    with pytest.raises(SystemExit) as stopped:
        main(list(args))
    return stopped.value.code, capsys.readouterr().err


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_demo_plays_a_whole_game_of_every_edition(
    capsys: pytest.CaptureFixture[str], edition: str
) -> None:
    out = run(capsys, "demo", "--edition", edition, "--seed", "2")
    lines = out.splitlines()
    assert lines[0].startswith("Condottiere demo: ") and f"[{edition}]" in lines[0]
    assert any(RESULT.match(line) for line in lines)
    assert any(line.startswith("    seat 0 (greedy): ") for line in lines)   # its strength
    assert lines[-1].startswith(("Winner: seat", "Winners: seat", "A draw: "))
    assert lines[-2].startswith("Game over after")


def test_demo_narrates_plays_strengths_with_reasons_winners_and_the_board(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = run(capsys, "demo", "--edition", "zman", "--players", "4", "--seed", "1")
    assert "\nseat 0 (greedy) plays " in out and "\nseat 1 (random) plays " in out
    assert re.search(r"\n    seat \d \(\w+\): \d+ \(mercenaries ", out)   # a breakdown
    assert re.search(r"\n  seat \d \(\w+\) wins the battle for \w+ with \d+ \(against ", out)
    assert re.search(r"\n  seat \d \(\w+\) takes \w+\n", out)
    assert "; board: seat " in out
    assert "\n  cards in hand now: seat 0 (greedy) " in out   # a refill once hands are empty


def test_hand_sizes_are_shown_after_a_deal_not_after_a_card_taken_back_into_a_hand(
    capsys: pytest.CaptureFixture[str],
) -> None:
    lines = run(capsys, "demo", "--edition", "zman", "--seed", "1").splitlines()
    taken_back = [i for i, line in enumerate(lines) if ", taking back a " in line]
    dealt = [i for i, line in enumerate(lines) if line.startswith("  cards in hand now: ")]
    assert taken_back and dealt
    assert not set(dealt) & {i + 1 for i in taken_back}


def test_each_battle_ends_with_its_result_the_figures_and_the_table_then_a_blank_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = run(capsys, "demo", "--edition", "zman", "--seed", "1", "--max-contests", "1")
    battle = out.split("\n\n")[1].splitlines()
    assert battle[0] == "seat 0 (greedy) opens a battle in Napoli"
    wins = next(n for n, line in enumerate(battle) if " wins the battle" in line)
    assert battle[wins].startswith("  seat 2 (greedy) wins the battle for Napoli with 14 ")
    assert battle[wins + 1] == "  seat 2 (greedy) takes Napoli"
    assert [line[:10] for line in battle[wins + 2 : wins + 6]] == [
        "    seat 0",
        "    seat 1",
        "    seat 2",
        "    seat 3",
    ]
    # then the hands the discard step keeps (no mercenary to discard), told as each seat's
    # own engine at a table tells the keep it plays
    kept = battle[wins + 6 : -1]
    assert kept and all(" keeps their hand of " in line for line in kept)
    assert battle[-1] == (
        "  seat 1 (random) holds the battle marker; board: seat 2 (greedy) Napoli; Favor on Roma"
    )


def test_the_last_lines_say_who_won_and_how() -> None:
    out = io.StringIO()
    game = run_demo(DemoSettings("zman", bots=("greedy", "random") * 2, seed=1), out)
    outcome = game.outcome
    assert outcome is not None and outcome.winners == (0,)
    assert out.getvalue().splitlines()[-1] == f"Winner: seat 0 (greedy) — {outcome.how}"


def test_the_same_seed_gives_the_same_game(capsys: pytest.CaptureFixture[str]) -> None:
    first = run(capsys, "demo", "--edition", "ffg", "--players", "5", "--seed", "8")
    again = run(capsys, "demo", "--edition", "ffg", "--players", "5", "--seed", "8")
    other = run(capsys, "demo", "--edition", "ffg", "--players", "5", "--seed", "9")
    assert first == again
    assert first != other


def test_max_contests_stops_the_game_early(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "demo", "--seed", "1", "--max-contests", "2")
    assert sum(1 for line in out.splitlines() if RESULT.match(line)) == 2
    assert out.splitlines()[-1] == "Stopped after 2 contests; nobody has won yet."


def test_the_bots_option_fills_the_seats_in_turn(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "demo", "--players", "3", "--bots", "random,greedy", "--seed", "4",
              "--max-contests", "1")
    assert "Seats: seat 0 (random), seat 1 (greedy), seat 2 (random)" in out


def test_delay_pauses_after_each_move(capsys: pytest.CaptureFixture[str]) -> None:
    start = time.perf_counter()
    out = run(capsys, "demo", "--seed", "1", "--max-contests", "1", "--delay", "0.01")
    elapsed = time.perf_counter() - start
    moves = sum(1 for line in out.splitlines() if " plays " in line or " passes" in line)
    assert elapsed >= 0.01 * moves


def test_defaults_are_zman_four_seats_greedy_and_random_and_no_delay_off_a_terminal() -> None:
    settings = demo_settings(["demo"])
    assert (settings.game, settings.edition) == ("condottiere", "zman")
    assert settings.bots == ("greedy", "random", "greedy", "random")
    assert settings.delay == 0.0   # pytest captures stdout: not a terminal
    assert settings.max_contests is None


def test_the_default_player_count_is_the_editions() -> None:
    assert demo_settings(["demo", "--edition", "zman-duel"]).bots == ("greedy", "random")
    for name, edition in EDITIONS.items():
        assert len(demo_settings(["demo", "--edition", name]).bots) == edition.default_seats


@pytest.mark.parametrize("args", [["--help"], ["demo", "--help"]])
def test_help_exits_0_and_describes_the_options(
    capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(args)
    assert stopped.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: condottiere")
    if args == ["--help"]:
        assert "demo" in out
    else:
        for option in ("--game", "--edition", "--players", "--seed", "--bots", "--delay",
                       "--max-contests"):
            assert option in out
        assert " *zman " in out   # the default edition
        for edition in EDITIONS:
            assert edition in out


def test_an_unknown_edition_exits_2_listing_the_editions(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, err = exit_status_and_error(capsys, "demo", "--edition", "zman-2030")
    assert status == 2
    assert "condottiere has no edition 'zman-2030' (choose from " in err
    for edition in EDITIONS:
        assert edition in err


def test_an_unknown_game_exits_2_listing_the_games(capsys: pytest.CaptureFixture[str]) -> None:
    status, err = exit_status_and_error(capsys, "demo", "--game", "chess")
    assert status == 2
    assert "invalid choice: 'chess'" in err and "condottiere" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "7"], "edition zman is played by 2 to 6 players, not 7"),
        (["--edition", "zman-duel", "--players", "4"], "played by exactly 2 players, not 4"),
        (["--players", "2", "--bots", "greedy,random,greedy"], "3 bots given for 2 seats"),
        (["--bots", "greedy,clever"], "unknown bot 'clever' (choose from greedy, ismcts, random)"),
        (["--delay", "-1"], "must be 0 or more"),
        (["--max-contests", "0"], "must be 1 or more"),
        (["--seed", "seven"], "invalid int value: 'seven'"),
    ],
)
def test_bad_input_exits_2_saying_what_is_wrong(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    status, err = exit_status_and_error(capsys, "demo", *args)
    assert status == 2
    assert message in err


def test_a_missing_command_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    status, err = exit_status_and_error(capsys)
    assert status == 2
    assert "COMMAND" in err


def test_the_condottiere_script_runs_cli_main() -> None:
    scripts = entry_points(group="console_scripts", name="condottiere")
    assert [script.value for script in scripts] == ["condottiere.cli.main:main"]


def test_demo_narrates_a_game_of_captains_and_replays_it_for_a_seed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = run(capsys, "demo", "--game", "captains", "--seed", "3", "--bots", "greedy,random")
    lines = out.splitlines()
    assert lines[0].startswith("Condottieri Captains demo: ")
    assert any(" picks " in line for line in lines)
    assert any("wins the battle" in line or "takes a province" in line for line in lines)
    assert any(re.search(r"\w+ TFR \d+ .*= \d+", line) for line in lines)  # a battle's figures
    assert lines[-1].startswith(("Winner", "Winners"))
    again = run(capsys, "demo", "--game", "captains", "--seed", "3", "--bots", "greedy,random")
    assert again == out
