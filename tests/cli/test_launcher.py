"""Command-line peers started as processes of their own (``condottiere.cli.launcher``), and a
bot's watch on the process that started it (``bot_peers.stop_with``): real processes, each one
this test started and stops."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from condottiere.cli import launcher
from condottiere.cli.bot_peers import Starter, stop_with
from condottiere.cli.launcher import forks, start_peer
from tests.peer.test_one_process import process_state

SECONDS = 60


@pytest.fixture(params=["forked", "a fresh interpreter"])
def way(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test of a started peer twice: forked from the fork server, and as a system with
    none (Windows) starts it."""
    if request.param != "forked":
        monkeypatch.setattr(launcher, "_fork_server", lambda: None)
    return str(request.param)


def parent_of(pid: int) -> int:
    state = process_state(pid)
    assert state is not None, f"process {pid} is gone"
    return state[0]


def test_a_peer_runs_its_command_line_in_the_starters_directory_and_environment(
    way: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CONDOTTIERE_HOME", str(tmp_path / "home"))
    (tmp_path / "game.cdr").write_bytes(b"not a record")
    log = tmp_path / "peer.log"
    log.write_text("kept\n")
    assert start_peer(["verify", "game.cdr"], log).wait(SECONDS) == 2
    assert start_peer(["export"], log).wait(SECONDS) == 1
    lines = log.read_text().splitlines()
    assert lines[0] == "kept"
    assert lines[1] == "condottiere: game.cdr is not a condottiere game record"
    assert f"{tmp_path / 'home' / 'play'}" in lines[2]


def test_a_running_peer_is_waited_for_within_a_bound_and_killed(way: str, tmp_path: Path) -> None:
    peer = start_peer(["tables", "--interface", "127.0.0.1"], tmp_path / "peer.log")
    try:
        with pytest.raises(subprocess.TimeoutExpired):
            peer.wait(0.1)
        assert peer.poll() is None
    finally:
        peer.kill()
    assert peer.wait(SECONDS) == -signal.SIGKILL
    assert peer.poll() == -signal.SIGKILL
    peer.kill()  # ended: nothing is sent


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_peers_are_forked_from_one_server_that_imported_the_peer_once(tmp_path: Path) -> None:
    assert forks()
    peers = [start_peer(["tables", "--interface", "127.0.0.1"], tmp_path / f"{n}.log")
             for n in range(2)]
    try:
        parents = {parent_of(peer.pid) for peer in peers}
    finally:
        for peer in peers:
            peer.kill()
            peer.wait(SECONDS)
    assert len(parents) == 1
    server = parents.pop()
    assert server != os.getpid()
    assert parent_of(server) == os.getpid()


def test_a_bot_watches_the_process_that_started_it_though_not_its_parent() -> None:
    starter = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        watched = Starter(starter.pid)
        assert watched.alive()
    finally:
        starter.kill()
        starter.wait()
    assert not watched.alive()
    watched.close()
    assert not Starter(starter.pid).alive()  # reaped: no such process


def test_a_bot_stops_at_once_when_the_process_that_started_it_is_gone() -> None:
    starter = subprocess.Popen([sys.executable, "-c", "pass"])
    starter.wait()
    stopped: list[bool] = []
    asyncio.run(asyncio.wait_for(stop_with(starter.pid, lambda: stopped.append(True)), SECONDS))
    assert stopped == [True]
