"""A game's record on the command line: ``verify`` says a finished game was fair, ``replay``
shows it move by move, ``export`` writes the table of a data directory to a record that
verifies the same; a file that is no record is refused with exit status 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from condottiere.cli.main import main
from tests.peer.processes import peers_in
from tests.peer.test_network import GAME_SECONDS, stopping_its_bots


def test_a_finished_games_record_is_verified_replayed_and_exported(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with peers_in(tmp_path) as peers:
        host = peers.start(
            ["host", "--edition", "zman-duel", "--strategy", "greedy", "--bots", "greedy"],
            tmp_path / "host",
        )
        with stopping_its_bots(peers, host):
            peers.wait_all([host], GAME_SECONDS)
    record = host.result()["record"]
    capsys.readouterr()
    assert main(["verify", record]) == 0
    verdict = capsys.readouterr().out.splitlines()
    assert verdict[-1] == "verdict: FAIR"
    assert main(["replay", record]) == 0
    replayed = capsys.readouterr().out.splitlines()
    assert replayed[-1] == "verdict: FAIR"
    assert any(line.startswith("cards dealt: 8 to seat 0") for line in replayed)
    exported = tmp_path / "exported.cdr"
    assert main(["export", "--data", str(tmp_path / "host"), "--output", str(exported)]) == 0
    assert capsys.readouterr().out.startswith("wrote ")
    assert main(["verify", str(exported)]) == 0
    assert capsys.readouterr().out.splitlines() == verdict


def test_a_file_that_is_no_record_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "notes.cdr").write_text("not a record")
    for command in ("verify", "replay"):
        assert main([command, str(tmp_path / "notes.cdr")]) == 2
        assert capsys.readouterr().err.startswith("condottiere: ")
