"""Condottieri Captains on the command line: the record of a real game between peer
processes is verified (every card and every hand shown to one seat checked, the game replayed
with every hand known); the record of a game whose deck was stacked so that a hand is shown
to one seat (in-process tables, real shuffles with chosen permutations) is replayed as text
with that hand told without its cards; and a Captains table waiting for players is listed by
``tables`` with its game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from condottiere.cli.main import main
from condottiere.peer.record import export, load, verify
from tests.peer.captains import LOOK, CaptainsHarness, stack_captains
from tests.peer.cheats import entries_of
from tests.peer.processes import peers_in
from tests.peer.test_captains_network import GAME_SECONDS
from tests.peer.test_network import stopping_its_bots


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The record of a three-seat Captains game a host played against two bot peers."""
    root = tmp_path_factory.mktemp("captains")
    with peers_in(root) as peers:
        host = peers.start(
            ["host", "--game", "captains", "--seats", "3", "--strategy", "greedy",
             "--bots", "greedy,greedy", "--seed", "3"],
            root / "host",
        )
        with stopping_its_bots(peers, host):
            peers.wait_all([host], GAME_SECONDS)
    return Path(host.result()["record"])


@pytest.fixture(scope="module")
def shown_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The record a seat exports of a three-seat Captains game at in-process tables whose
    deck was stacked so that the first opening hand dealt holds Spies, which its seat plays
    on its first turn: an opponent's hand is shown to that seat alone. The coins are real
    (the first player is any seat), so ``condottiere verify`` finds the record fair."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        stack_captains(monkeypatch, 3, {0: LOOK}, coins=False)
        harness = CaptainsHarness(3, seed=40, searches=False)
        harness.play()
    table = harness.tables[0]
    assert table.over and table.halt is None, (table.halt, table.waiting())
    return export(entries_of(table), tmp_path_factory.mktemp("captains") / "shown.cdr")


def test_a_captains_record_verifies_fair_and_replays_with_every_hand_known(
    capsys: pytest.CaptureFixture[str], record: Path
) -> None:
    assert main(["verify", str(record)]) == 0
    said = capsys.readouterr().out.splitlines()
    assert said[-1] == "verdict: FAIR"
    assert said[0].startswith("table 'captains': Condottieri Captains, standard, 3 seats, "), said
    assert any("the game replays with every hand known" in line for line in said), said
    verdict = verify(load(record))
    assert verdict.table.spec.game == "captains" and verdict.replayed is not None


def test_a_captains_record_replays_as_text_telling_hands_shown_without_their_cards(
    capsys: pytest.CaptureFixture[str], shown_record: Path
) -> None:
    assert main(["verify", str(shown_record)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "verdict: FAIR"
    assert main(["replay", "--text", str(shown_record)]) == 0
    told = capsys.readouterr().out.splitlines()
    assert told[-1] == "verdict: FAIR"
    shown = [line for line in told if " of its hand to " in line]
    assert shown, "the game showed no hand"
    assert all(line.endswith("alone)") for line in shown), shown
    assert main(["replay", str(shown_record)]) == 0  # not a terminal: the same, as text
    assert capsys.readouterr().out.splitlines()[-1] == "verdict: FAIR"


def test_tables_lists_a_captains_table_with_its_game_and_says_it_can_be_joined(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with peers_in(tmp_path) as peers:
        host = peers.start(
            ["host", "--game", "captains", "--seats", "2", "--strategy", "greedy",
             "--name", "Lucca"],
            tmp_path / "host",
        )
        host.wait_for("hosting", 30)
        capsys.readouterr()
        assert main(["tables", "--once", "--json", "--wait", "6", "--interface", "127.0.0.1"]) == 0
        listed = json.loads(capsys.readouterr().out)["tables"]
        for _ in range(3):  # a listing may miss an answer that comes late: look again
            assert main(["tables", "--once", "--wait", "6", "--interface", "127.0.0.1"]) == 0
            lines = capsys.readouterr().out.splitlines()
            if any(line.strip().startswith("Lucca  ") for line in lines):
                break
    (lucca,) = [table for table in listed if table["name"] == "Lucca"]
    assert (lucca["game"], lucca["edition"], lucca["seats"]) == ("captains", "standard", 2)
    assert lucca["joinable"], lucca["reason"]
    (line,) = [line for line in lines if line.strip().startswith("Lucca  ")]
    assert "Lucca  captains standard  1/2 seats  lobby" in line
    assert "join with: condottiere join Lucca" in line
