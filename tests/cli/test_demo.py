"""The `condottiere` command: the demo end to end in-process, its help, and its errors."""

from __future__ import annotations

import time
from importlib.metadata import entry_points

import pytest

from condottiere.cli.main import demo_settings, main
from condottiere.games.condottiere import EDITIONS


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
    assert "Battle 1" in out
    assert "Strengths:" in out
    assert lines[-1].startswith(("Winner: seat", "Winners: seat", "A draw."))
    assert any(line.startswith("Game over after") for line in lines)


def test_demo_narrates_plays_strengths_with_reasons_winners_and_the_board(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = run(capsys, "demo", "--edition", "zman", "--players", "4", "--seed", "1")
    assert "(greedy) plays " in out and "(random) plays " in out
    assert "mercenaries " in out   # a breakdown step
    assert "wins and takes " in out
    assert "board: seat " in out
    assert "Cards dealt; in hand now:" in out   # a refill once every hand is empty


def test_the_same_seed_gives_the_same_game(capsys: pytest.CaptureFixture[str]) -> None:
    first = run(capsys, "demo", "--edition", "ffg", "--players", "5", "--seed", "8")
    again = run(capsys, "demo", "--edition", "ffg", "--players", "5", "--seed", "8")
    other = run(capsys, "demo", "--edition", "ffg", "--players", "5", "--seed", "9")
    assert first == again
    assert first != other


def test_max_battles_stops_the_game_early(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "demo", "--seed", "1", "--max-battles", "2")
    assert out.count("Strengths") + out.count("no winner") == 2
    assert out.splitlines()[-1] == "Stopped after 2 battles; nobody has won yet."


def test_the_bots_option_fills_the_seats_in_turn(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "demo", "--players", "3", "--bots", "random,greedy", "--seed", "4",
              "--max-battles", "1")
    assert "Seats: seat 0 (random), seat 1 (greedy), seat 2 (random)" in out


def test_delay_pauses_after_each_move(capsys: pytest.CaptureFixture[str]) -> None:
    start = time.perf_counter()
    out = run(capsys, "demo", "--seed", "1", "--max-battles", "1", "--delay", "0.01")
    elapsed = time.perf_counter() - start
    moves = sum(1 for line in out.splitlines() if " plays " in line or " passes" in line)
    assert elapsed >= 0.01 * moves


def test_defaults_are_zman_four_seats_greedy_and_random_and_no_delay_off_a_terminal() -> None:
    settings = demo_settings(["demo"])
    assert settings.edition == "zman"
    assert settings.bots == ("greedy", "random", "greedy", "random")
    assert settings.delay == 0.0   # pytest captures stdout: not a terminal
    assert settings.max_battles is None


def test_the_default_player_count_fits_the_duel() -> None:
    assert demo_settings(["demo", "--edition", "zman-duel"]).bots == ("greedy", "random")


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
        for option in ("--edition", "--players", "--seed", "--bots", "--delay", "--max-battles"):
            assert option in out
        for edition in EDITIONS:
            assert edition in out


def test_an_unknown_edition_exits_2_listing_the_editions(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, err = exit_status_and_error(capsys, "demo", "--edition", "zman-2030")
    assert status == 2
    assert "invalid choice: 'zman-2030'" in err
    for edition in EDITIONS:
        assert repr(edition) in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "7"], "edition zman is played by 2 to 6 players, not 7"),
        (["--edition", "zman-duel", "--players", "4"], "played by exactly 2 players, not 4"),
        (["--players", "2", "--bots", "greedy,random,greedy"], "3 bots given for 2 seats"),
        (["--bots", "greedy,clever"], "unknown bot 'clever' (choose from greedy, ismcts, random)"),
        (["--delay", "-1"], "must be 0 or more"),
        (["--max-battles", "0"], "must be 1 or more"),
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
