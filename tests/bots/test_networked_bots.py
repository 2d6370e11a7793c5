"""Bots of the author's own, at real networked tables (every peer its own process on loopback):
a strategy loaded from a file outside the package plays a whole game, and strategies that
raise, sleep past their time limit or answer garbage neither stall nor crash the table."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from condottiere.cli.main import main
from tests.peer.processes import PeerProcess, peers_in
from tests.peer.test_network import assert_same_game

ROOT = Path(__file__).resolve().parents[2]
FRUGAL = ROOT / "examples" / "python-bot" / "frugal.py"
MISBEHAVING = Path(__file__).resolve().parent / "misbehaving.py"
GAME_SECONDS = 180
FALLBACK = re.compile(r"; playing .* instead")


def test_a_bot_from_a_file_outside_the_package_plays_a_whole_networked_game(
    tmp_path: Path,
) -> None:
    author = tmp_path / "my bots"
    author.mkdir()
    shutil.copy(FRUGAL, author / "frugal.py")
    with peers_in(tmp_path) as peers:
        host = peers.start(
            ["host", "--edition", "zman", "--seats", "2", "--player", "frugal",
             "--strategy", f"{author / 'frugal.py'}:Frugal"],
            tmp_path / "seat0",
        )
        address = host.address()
        host.wait_for("hosting", 20)
        table = [host, peers.start(["bot", "--join", address], tmp_path / "seat1")]
        peers.wait_all(table, GAME_SECONDS)
    assert_same_game(table)
    expect(host, r"^frugal plays this seat")
    assert not any(FALLBACK.search(line) for line in host.lines), host.output()


def test_bots_that_raise_sleep_past_their_time_limit_or_answer_garbage_do_not_stall_the_table(
    tmp_path: Path,
) -> None:
    limit = ["--time-limit", "0.5"]
    with peers_in(tmp_path) as peers:
        host = peers.start(
            ["host", "--edition", "zman", "--seats", "4", "--player", "raising",
             "--strategy", f"{MISBEHAVING}:Raising", *limit],
            tmp_path / "seat0",
        )
        address = host.address()
        host.wait_for("hosting", 20)
        table = [host] + [
            peers.start(["bot", "--join", address, "--player", name, "--seed", str(seat),
                         "--strategy", strategy, *limit], tmp_path / f"seat{seat}")
            for seat, (name, strategy) in enumerate(
                [("sleeping", f"{MISBEHAVING}:Sleeping"), ("garbage", f"{MISBEHAVING}:Garbage"),
                 ("greedy", "greedy")],
                start=1,
            )
        ]
        peers.wait_all(table, GAME_SECONDS)
    assert_same_game(table)
    raising, sleeping, garbage, greedy = table
    expect(raising, r"raising \(seat \d\) raised RuntimeError: this bot always fails "
                    r"\(misbehaving\.py, line \d+, in choose\); playing \S+.* instead")
    expect(sleeping, r"sleeping \(seat \d\) took longer than its time limit \(0\.5 s\) to choose")
    expect(sleeping, r"sleeping \(seat \d\) is still thinking about an earlier move; playing")
    expect(garbage, r"garbage \(seat \d\) answered 42, which is not a move; playing")
    expect(garbage, r"garbage \(seat \d\) answered 'fly to the moon', which is not a move: ")
    expect(garbage, r"garbage \(seat \d\) chose retain 10 heroine, which the rules refuse: ")
    assert not any(FALLBACK.search(line) for line in greedy.lines), greedy.output()


def expect(peer: PeerProcess, pattern: str) -> None:
    assert any(re.search(pattern, line) for line in peer.lines), f"{pattern}\n{peer.output()}"


@pytest.mark.parametrize(
    ("strategy", "message"),
    [
        ("clever", "no bot called 'clever': give one of greedy"),
        ("missing.py:Bot", "no such file: missing.py"),
        (f"{MISBEHAVING}:Nobody", "has no 'Nobody' (it has: Garbage, Raising, Sleeping)"),
        ("no_such_module:Bot", "no module 'no_such_module'"),
        (
            "condottiere.bots.strategy:moves_for",
            "making a bot of condottiere.bots.strategy:moves_for raised TypeError",
        ),
        ("condottiere.bots.strategy:NotYourTurnError", "has no choose(game, seat) method"),
    ],
)
def test_a_strategy_that_cannot_be_loaded_stops_the_command_before_it_takes_a_seat(
    strategy: str, message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["bot", "--join", "127.0.0.1:1", "--data", str(tmp_path), "--strategy", strategy])
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "peer.sqlite3").exists()


def test_a_file_with_a_syntax_error_is_reported_with_its_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("class Bot:\n    name = 'broken'\n    def choose(self, game, seat)\n")
    with pytest.raises(SystemExit):
        main(["host", "--data", str(tmp_path / "data"), "--strategy", f"{broken}:Bot"])
    error = capsys.readouterr().err
    assert "loading" in error and "SyntaxError" in error and "line 3" in error
