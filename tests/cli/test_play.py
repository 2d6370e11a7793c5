"""The settings of ``condottiere play``: which tables go on the LAN, what joining accepts, and
bad input refused with the reason (exit status 2)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from condottiere.cli.bot_peers import BotPeers
from condottiere.cli.main import build_parser
from condottiere.cli.play import PlaySettings, play_settings


def settings(tmp_path: Path, *args: str) -> PlaySettings:
    parser = build_parser()
    parsed = parser.parse_args(["play", "--data", str(tmp_path), *args])
    command_parser: argparse.ArgumentParser = parsed.command_parser
    return play_settings(command_parser, parsed)


def refusal(capsys: pytest.CaptureFixture[str], tmp_path: Path, *args: str) -> str:
    with pytest.raises(SystemExit) as stopped:
        settings(tmp_path, *args)
    assert stopped.value.code == 2
    return capsys.readouterr().err.strip().splitlines()[-1]


def test_a_table_of_bots_stays_on_this_machine_and_off_the_lan(tmp_path: Path) -> None:
    chosen = settings(tmp_path)
    assert chosen.spec is not None and chosen.spec.seats == 4
    assert chosen.bots == ("greedy",) * 3
    assert (chosen.listen, chosen.placement, chosen.open_to_others) == ("127.0.0.1", None, False)


def test_a_table_open_to_others_is_advertised_where_the_interface_says(tmp_path: Path) -> None:
    chosen = settings(tmp_path, "--bots", "greedy", "--name", "Friday")  # two seats left open
    assert chosen.open_to_others
    assert chosen.placement is not None
    assert chosen.placement.interface.addresses == ("127.0.0.1",)  # $CONDOTTIERE_INTERFACE
    assert chosen.listen == chosen.placement.listen == "127.0.0.1"


def test_a_table_open_to_other_terminals_here_only_is_not_advertised(tmp_path: Path) -> None:
    chosen = settings(tmp_path, "--listen", "127.0.0.1", "--bots", "none")
    assert chosen.open_to_others and chosen.placement is None


def test_a_table_left_to_others_asks_its_player_to_admit_each_unless_open(tmp_path: Path) -> None:
    listening = settings(tmp_path, "--listen", "127.0.0.1")
    assert listening.open_to_others and not listening.open_seating
    assert not settings(tmp_path).open_seating  # bots only: admitted by key, nobody asks
    opened = settings(tmp_path, "--listen", "127.0.0.1", "--open")
    assert opened.open_to_others and opened.open_seating


@pytest.mark.parametrize("joining", ["--join", "--watch"])
def test_open_is_the_hosts_choice_not_a_joiners(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, joining: str
) -> None:
    assert "--open" in refusal(capsys, tmp_path, joining, "Friday", "--open")


def test_a_table_is_joined_by_name_through_the_lan_or_by_address_without_it(
    tmp_path: Path,
) -> None:
    by_name = settings(tmp_path, "--join", "Friday")
    assert (by_name.spec, by_name.join) == (None, "Friday")
    assert by_name.placement is not None
    by_address = settings(tmp_path, "--join", "127.0.0.1:4000")
    assert (by_address.join, by_address.placement) == ("127.0.0.1:4000", None)


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (["--join", "Friday", "--edition", "zman"], "--edition: the table's host chose these"),
        (["--join", "Friday", "--game", "condottiere"], "--game: the table's host chose these"),
        (["--join", " "], "--join wants a table's name, id or HOST:PORT"),
        (["--watch", "Friday", "--seats", "3"], "--seats: the table's host chose these; not"
         " with --watch"),
        (["--join", "Friday", "--watch", "Friday"], "--join takes a seat, --watch watches"),
        (["--seats", "2", "--bots", "greedy,greedy"], "2 bots for 1 other seat"),
        (["--bots", "nosuch"], "unknown bot 'nosuch'"),
        (["--player", ""], "--player must be 1 to 40 printable characters"),
        (["--interface", "nosuch0"], "--interface: no interface is called 'nosuch0'"),
    ],
)
def test_bad_input_is_refused_with_the_reason(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str], reason: str
) -> None:
    assert reason in refusal(capsys, tmp_path, *args)


def test_a_bot_that_stops_with_an_error_is_reported_once_with_its_log(tmp_path: Path) -> None:
    bots = BotPeers(tmp_path / "bots", listen="127.0.0.1", interface="203.0.113.9",
                    coin_timeout=60.0)
    plan = bots.plan(["greedy"], "ada", seed=1)
    bots.start(plan, "127.0.0.1:1", "00" * 16)
    try:
        bots.processes[0].wait(timeout=60)
    finally:
        bots.stop()
    (failure,) = bots.failures()
    assert failure.startswith(f"The bot {plan[0].name} stopped (exit status 2): ")
    assert "no interface has the address 203.0.113.9" in failure
    assert f"(log: {plan[0].data}.log)" in failure
    assert bots.failures() == []


def test_play_game_captains_makes_a_captains_table_of_bots(tmp_path: Path) -> None:
    chosen = settings(tmp_path, "--game", "captains")
    assert chosen.spec is not None
    assert (chosen.spec.game, chosen.spec.edition, chosen.spec.seats) == ("captains", "standard", 4)
    assert chosen.bots == ("greedy",) * 3
