"""Framing an honest player, with real peer processes on loopback: Mallory and Bob play a
table to its end; then Mallory (``tests/peer/framer.py``) serves, under that old table's id,
a new definition or the old one again, and replays Bob's old signed entries into it, so that
Bob's new first entry would sit beside his old one under one id: "two different entries with
sequence number 0", which used to halt every peer blaming Bob. It frames nobody: a
definition that is not the one its id is the hash of is refused by every joiner, and a peer
never signs a second first entry under a table id it holds entries of."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from condottiere.cli.main import main
from condottiere.peer.entries import LogEntry
from condottiere.peer.record import export
from condottiere.peer.store import Store
from tests.peer.framer import forged_definition
from tests.peer.processes import PeerProcess, Peers, peers_in
from tests.peer.test_network import GAME_SECONDS

JOIN_SECONDS = 60


def play_a_table(peers: Peers, root: Path) -> None:
    """Mallory hosts a two-seat table (``root/mallory``), Bob joins it (``root/bob``), and
    they play it to its end."""
    host = peers.start(
        ["host", "--edition", "zman-duel", "--strategy", "greedy", "--player", "mallory"],
        root / "mallory",
    )
    bob = peers.start(
        ["bot", "--join", host.address(), "--strategy", "greedy", "--player", "bob"],
        root / "bob",
    )
    peers.wait_all([host, bob], GAME_SECONDS)


def last_table(data: Path) -> tuple[bytes, list[LogEntry]]:
    """The id of the last table a data directory played, and every entry it holds of it."""
    store = Store(data)
    try:
        table_id = store.setting("table")
        assert table_id is not None
        return table_id, store.entries(table_id)
    finally:
        store.close()


def key_of(data: Path) -> bytes:
    """The public key of a data directory's identity."""
    store = Store(data)
    try:
        return store.identity().public.raw
    finally:
        store.close()


def start_framer(peers: Peers, root: Path, mode: str) -> str:
    """Mallory's framer on her data directory, in ``mode``; the address it serves."""
    framer = peers.start_program(
        [sys.executable, "-m", "tests.peer.framer", str(root / "mallory"), mode],
        root / "mallory",
        ["framer", mode],
    )
    return framer.address()


def join(
    peers: Peers, root: Path, data: str, address: str, *, player: str | None = None
) -> PeerProcess:
    """A bot peer on the data directory ``root/data`` that asks ``address`` for a seat (as
    ``player``, by default the directory's name)."""
    name = player or data
    return peers.start(
        ["bot", "--join", address, "--strategy", "greedy", "--player", name, "--wait", "1"],
        root / data,
    )


def assert_refused(peers: Peers, joiner: PeerProcess, why: str) -> None:
    """The joiner exits with status 1, saying why it does not take a seat."""
    status = peers.wait_for_exit(joiner, JOIN_SECONDS)
    assert status == 1, peers.outputs([joiner])
    joiner.wait_for(why, 1)


def test_a_new_definition_under_an_old_tables_id_is_refused_by_every_joiner(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with peers_in(tmp_path) as peers:
        play_a_table(peers, tmp_path)
        old_id, bobs_entries = last_table(tmp_path / "bob")
        address = start_framer(peers, tmp_path, "forged")
        bob = join(peers, tmp_path, "bob", address)
        carol = join(peers, tmp_path, "carol", address)
        for joiner in (bob, carol):
            assert_refused(peers, joiner, "cannot join .*: wrong-table: .* not the hash")
    assert last_table(tmp_path / "bob") == (old_id, bobs_entries)
    assert len(list((tmp_path / "bob" / "records").iterdir())) == 1  # the old game's only
    carols = Store(tmp_path / "carol")
    assert carols.table_ids() == []
    carols.close()
    # The record Mallory would show: her new definition and Bob's old entries.
    bob = key_of(tmp_path / "bob")
    mallorys = Store(tmp_path / "mallory")
    old = mallorys.entries(old_id)
    definition = forged_definition(mallorys, next(e for e in old if e.kind == "table"))
    mallorys.close()
    framing = export([definition, *(e for e in old if e.author == bob)], tmp_path / "f.cdr")
    capsys.readouterr()
    assert main(["verify", str(framing)]) == 2
    assert "not the hash of its definition" in capsys.readouterr().err


def test_a_player_never_signs_a_second_first_entry_at_an_old_table_served_again(
    tmp_path: Path,
) -> None:
    with peers_in(tmp_path) as peers:
        play_a_table(peers, tmp_path)
        old_id, bobs_entries = last_table(tmp_path / "bob")
        address = start_framer(peers, tmp_path, "again")
        bob = join(peers, tmp_path, "bob", address, player="robert")  # another first entry
        assert_refused(peers, bob, "cannot join .*: this data directory asked for a seat at table")
    assert last_table(tmp_path / "bob") == (old_id, bobs_entries)
