"""The table ``host`` and ``play`` define from the same options (``--game``, ``--edition``,
``--seats``, ``--option``, ``--name``): every default from the game's registry, and an
edition or a seat count the game has not refused with the reason (exit status 2)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from condottiere.cli.main import build_parser
from condottiere.cli.peers import settings_from
from condottiere.cli.play import play_settings
from condottiere.cli.table_options import add_table_options, default_seats, table_spec
from condottiere.interface import DEFAULT_GAME, game_named
from condottiere.peer.lobby import Deadlines, TableSpec

COMMANDS = ("host", "play")


def hosted(command: str, tmp_path: Path, *args: str) -> TableSpec:
    """The table ``condottiere COMMAND ARGS`` would host."""
    parser = build_parser()
    parsed = parser.parse_args([command, "--data", str(tmp_path), *args])
    if command == "play":
        command_parser: argparse.ArgumentParser = parsed.command_parser
        spec = play_settings(command_parser, parsed).spec
    else:
        spec = settings_from(parser, parsed).spec
    assert spec is not None
    return spec


def refusal(capsys: pytest.CaptureFixture[str], command: str, tmp_path: Path, *args: str) -> str:
    with pytest.raises(SystemExit) as stopped:
        hosted(command, tmp_path, *args)
    assert stopped.value.code == 2
    return capsys.readouterr().err.strip().splitlines()[-1]


def test_the_default_seat_count_is_the_editions_own() -> None:
    rules = game_named(DEFAULT_GAME)
    for name, edition in rules.editions.items():
        assert default_seats(DEFAULT_GAME, name) == edition.default_seats
    assert default_seats("condottiere", "zman") == 4
    assert default_seats("condottiere", "zman-duel") == 2


@pytest.mark.parametrize("command", COMMANDS)
def test_with_no_table_options_the_default_game_is_hosted_in_its_default_edition(
    tmp_path: Path, command: str
) -> None:
    spec = hosted(command, tmp_path)
    rules = game_named(DEFAULT_GAME)
    assert (spec.game, spec.edition, spec.options, spec.name) == (
        DEFAULT_GAME, rules.default_edition, (), "condottiere"
    )
    assert spec.seats == default_seats(DEFAULT_GAME, rules.default_edition)


@pytest.mark.parametrize("command", COMMANDS)
def test_an_edition_without_seats_gets_its_usual_number_of_seats(
    tmp_path: Path, command: str
) -> None:
    spec = hosted(command, tmp_path, "--game", "condottiere", "--edition", "zman-duel")
    assert (spec.game, spec.edition, spec.seats) == ("condottiere", "zman-duel", 2)


@pytest.mark.parametrize("command", COMMANDS)
def test_house_rules_are_kept_once_each_in_order(tmp_path: Path, command: str) -> None:
    spec = hosted(command, tmp_path, "--edition", "ffg", "--option", "sieges",
                  "--option", "cede", "--option", "sieges")
    assert spec.options == ("cede", "sieges")


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (["--edition", "zman-2030"],
         "argument --edition: condottiere has no edition 'zman-2030' (choose from eurogames, "
         "ffg, zman, zman-classic, zman-duel)"),
        (["--game", "chess"], "argument --game: invalid choice: 'chess'"),
        (["--edition", "zman-duel", "--seats", "3"], "zman-duel is played by exactly 2 players"),
        (["--edition", "zman", "--option", "cede"], "zman has no option 'cede'"),
        (["--seats", "2", "--bots", "greedy,greedy"], "2 bots for 1 other seat"),
    ],
)
def test_a_table_the_game_cannot_be_played_at_is_refused_with_the_reason(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str, args: list[str], reason: str
) -> None:
    assert reason in refusal(capsys, command, tmp_path, *args)


def test_every_table_option_has_help_with_the_games_choices(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for command in COMMANDS:
        with pytest.raises(SystemExit):
            build_parser().parse_args([command, "--help"])
        text = " ".join(capsys.readouterr().out.split())
        packed = "".join(text.split())  # wherever argparse wrapped the lines
        assert "--game{captains,condottiere}" in packed
        assert "captains:standard(defaultstandard)" in packed
        assert "condottiere:eurogames,ffg,zman,zman-classic,zman-duel(defaultzman)" in packed
        assert "captains:4;condottiere:4,or2forzman-duel" in packed


def test_the_deadline_options_make_the_table_definitions_deadlines() -> None:
    parser = argparse.ArgumentParser()
    add_table_options(parser)
    args = parser.parse_args(["--move-deadline", "300", "--bot-move-deadline", "5"])
    spec = table_spec(parser, args, "ada")
    assert spec.deadlines == Deadlines(move=300, step=Deadlines().step, bot_move=5)
    assert TableSpec.from_body(spec.body()).deadlines == spec.deadlines


def test_a_deadline_of_no_seconds_is_refused_with_the_reason(
    capsys: pytest.CaptureFixture[str],
) -> None:
    parser = argparse.ArgumentParser()
    add_table_options(parser)
    with pytest.raises(SystemExit) as exited:
        table_spec(parser, parser.parse_args(["--step-deadline", "0"]), "ada")
    assert exited.value.code == 2
    assert "a protocol step's deadline must be 1 to 86400 seconds, not 0" in capsys.readouterr().err
