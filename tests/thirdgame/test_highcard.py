"""A third game plugs in with no edit of a platform file: High Card (``highcard/``, a few
hundred lines that live here only) is declared the way an installed package declares a game,
by a ``*.dist-info`` folder whose ``entry_points.txt`` names it in the group
``condottiere.games``, and that folder and the game's are put on the ``PYTHONPATH`` of the
processes the tests start. Its hands are dealt by the mental-poker deck between two real peer
processes on loopback; the record verifies (``condottiere verify``) and replays
(``condottiere replay``); a spectator follows it in a real terminal (``condottiere watch``).
No file of the platform names it, nor any game's module or proto.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from tests.cli.client.terminal import Terminal
from tests.peer.processes import peers_in

REPO = Path(__file__).resolve().parents[2]
GAME_FOLDER = Path(__file__).resolve().parent
PLATFORM = ("peer", "crypto", "interface", "cli", "proto")
"""The platform's folders: none of them may name a game."""
NOT_THE_PROJECT = frozenset(
    {".git", ".venv", "node_modules", "build", "__pycache__", ".ruff_cache", ".mypy_cache",
     ".pytest_cache", ".hypothesis", "condottiere.egg-info"}
)
"""What a checkout holds that is not the project's own files (tools' caches, installs)."""
GAME_MODULES = re.compile(r"games\.captains|games\.condottiere|game_captains|game_condottiere")
GAME_SECONDS = 120
"""Bound of a whole game of High Card between processes (it takes a few seconds)."""
COMMAND_SECONDS = 60
SLOW = """\
import time

from condottiere.bots import RandomBot


class Slow(RandomBot):
    \"\"\"The random bot, slowed: a game of six moves lasts long enough to be watched.\"\"\"

    name = "slow"

    def choose(self, game, seat):
        time.sleep(1.5)
        return super().choose(game, seat)
"""


def project_files() -> list[Path]:
    """Every file of the checkout but what tools put there (:data:`NOT_THE_PROJECT`)."""
    found = []
    for folder, children, files in os.walk(REPO):
        children[:] = [c for c in children if c not in NOT_THE_PROJECT]
        found += [Path(folder) / name for name in files]
    return found


def platform_files() -> list[Path]:
    return [
        path
        for folder in PLATFORM
        for path in sorted((REPO / folder).rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    ]


def test_no_file_outside_the_tests_names_the_third_game() -> None:
    """Neither the platform, nor the games, the bots, the scripts or the docs."""
    named = [
        str(path.relative_to(REPO))
        for path in project_files()
        if path.relative_to(REPO).parts[0] != "tests"
        and re.search(rb"high ?card", path.read_bytes(), re.IGNORECASE)
    ]
    assert named == []


def test_no_platform_file_names_a_games_module_or_proto() -> None:
    named = [
        f"{path.relative_to(REPO)}: {match.group()}"
        for path in platform_files()
        for match in [GAME_MODULES.search(path.read_bytes().decode(errors="replace"))]
        if match
    ]
    assert named == []


@pytest.fixture
def declared(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The environment of a process that finds High Card: a distribution's metadata that
    declares it, and the game's folder, on its ``PYTHONPATH`` (set here for the processes
    the test starts, and given to them)."""
    site = tmp_path / "site"
    metadata = site / "highcard_plugin-0.1.dist-info"
    metadata.mkdir(parents=True)
    (metadata / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: highcard-plugin\nVersion: 0.1\n"
    )
    (metadata / "entry_points.txt").write_text(
        "[condottiere.games]\nhighcard = highcard.plugin:RULES\n"
    )
    path = os.pathsep.join([str(site), str(GAME_FOLDER)])
    monkeypatch.setenv("PYTHONPATH", path)
    return {**os.environ, "PYTHONPATH": path}


def condottiere(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "condottiere.cli.main", *args],
        env=env, capture_output=True, text=True, timeout=COMMAND_SECONDS, cwd=REPO,
    )


def test_the_command_line_offers_the_third_game_it_finds_by_its_entry_point(
    declared: dict[str, str],
) -> None:
    listed = condottiere(declared, "host", "--help")
    assert listed.returncode == 0, listed.stderr
    assert "highcard" in listed.stdout
    unknown = condottiere({**declared, "PYTHONPATH": ""}, "host", "--help")
    assert "highcard" not in unknown.stdout


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed: the watcher")
def test_a_third_game_with_hidden_hands_is_played_verified_replayed_and_watched(
    tmp_path: Path, declared: dict[str, str]
) -> None:
    name = f"highcard-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    (tmp_path / "watch").mkdir()
    slow = tmp_path / "slow.py"
    slow.write_text(SLOW)
    watcher = Terminal(f"{name}-watch", tmp_path / "watch")
    with peers_in(tmp_path) as peers:
        host = peers.start(
            ["host", "--game", "highcard", "--seats", "2", "--strategy", f"{slow}:Slow",
             "--name", name, "--spectators", "--interface", "127.0.0.1", "--seed", "1"],
            tmp_path / "seat0",
        )
        address = host.address()
        host.wait_for("hosting", 30)
        try:
            watcher.run(
                ["env", f"PYTHONPATH={declared['PYTHONPATH']}", sys.executable, "-m",
                 "condottiere.cli.main", "watch", address, "--interface", "127.0.0.1",
                 "--data", str(tmp_path / "watch" / "data")], REPO,
            )
            watcher.wait_for(
                lambda s: "High Card" in s or watcher.exit_status() is not None,
                "the watcher at the table", timeout=60,
            )
            assert watcher.exit_status() is None, watcher.text()
            bot = peers.start(
                ["bot", "--join", address, "--strategy", "random", "--seed", "2"],
                tmp_path / "seat1",
            )
            peers.wait_all([host, bot], GAME_SECONDS)
            end = watcher.wait_for(
                lambda s: "verdict: FAIR" in s or watcher.exit_status() is not None,
                "the watcher's verdict", timeout=GAME_SECONDS,
            )
            assert "verdict: FAIR" in end and "Hand (" not in end, end
            assert "tricks" in end
            watcher.keys("q")
            watcher.wait_for(lambda _: watcher.exit_status() is not None, "its exit", timeout=60)
            assert watcher.exit_status() == 0
        finally:
            watcher.close()
    results = [json.loads((tmp_path / seat / "last-game.json").read_text())
               for seat in ("seat0", "seat1")]
    assert all(result["audited"] and result["halt"] is None for result in results), results
    assert len({result["record_hash"] for result in results}) == 1
    record = results[0]["record"]

    verified = condottiere(declared, "verify", record)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "FAIR" in verified.stdout

    replayed = condottiere(declared, "replay", "--text", record)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    plays = re.findall(r"plays (\d+)", replayed.stdout)
    assert len(plays) == 6 and len(set(plays)) == 6, replayed.stdout
    assert replayed.stdout.count("wins the trick") == 3, replayed.stdout

    unknown = condottiere({**declared, "PYTHONPATH": ""}, "verify", record)
    assert unknown.returncode != 0
