"""The process tests' helper fails a test whose processes printed a traceback."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.peer.processes import peers_in


def test_a_process_that_prints_a_traceback_fails_the_test_that_started_it(
    tmp_path: Path,
) -> None:
    with pytest.raises(AssertionError, match="printed a traceback"), peers_in(tmp_path) as peers:
        crashing = peers.start_program([sys.executable, "-c", "1 / 0"], tmp_path)
        peers.wait_for_exit(crashing, timeout=30)


def test_a_bot_peers_log_with_a_traceback_fails_the_test_too(tmp_path: Path) -> None:
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "1.log").write_text(
        "game over\nTraceback (most recent call last):\nasyncio.exceptions.CancelledError\n"
    )
    with pytest.raises(AssertionError, match=r"bots/1\.log"), peers_in(tmp_path) as peers:
        quiet = peers.start_program([sys.executable, "-c", "print('done')"], tmp_path)
        peers.wait_for_exit(quiet, timeout=30)


def test_processes_that_end_cleanly_pass(tmp_path: Path) -> None:
    with peers_in(tmp_path) as peers:
        quiet = peers.start_program([sys.executable, "-c", "print('done')"], tmp_path)
        assert peers.wait_for_exit(quiet, timeout=30) == 0
