"""Real peer processes on loopback: a seat whose player is never ready is freed once the
table's ready deadline passes, the next player who asks takes it, and the game is played to
its end; a stranger with no seat cannot make a peer keep more than the lobby's bound.
Deadlines are short (a few seconds) so that each test runs in well under a minute."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from condottiere.peer.driver import UNSEATED_BYTES, UNSEATED_ENTRIES, Table
from condottiere.peer.entries import make_entry
from condottiere.peer.node import Node
from condottiere.peer.record import load, verify
from condottiere.peer.store import Store
from condottiere.v1 import log_pb2
from tests.peer.processes import peers_in
from tests.peer.test_network import assert_same_game

GAME_SECONDS = 150
FINGERPRINT = r"your key's fingerprint: ([0-9a-f-]{24})"


def test_a_joiner_never_ready_is_freed_and_the_next_joiner_takes_the_seat_and_finishes(
    tmp_path: Path,
) -> None:
    with peers_in(tmp_path) as peers:
        host = peers.start(
            ["host", "--edition", "zman-duel", "--seats", "2", "--strategy", "greedy",
             "--name", "unready", "--seed", "1", "--ready-deadline", "3"],
            tmp_path / "host",
        )
        address = host.address()
        host.wait_for("hosting", 20)
        idle = peers.start_program(
            [sys.executable, "-m", "tests.peer.unready_joiner", address, str(tmp_path / "idle")],
            tmp_path / "idle",
        )
        idle.wait_for(FINGERPRINT, 30)
        host.wait_for(r"seat 1 +idle ", 30)  # seated: the table waits for it to be ready
        bob = peers.start(
            ["bot", "--join", address, "--strategy", "greedy", "--player", "bob", "--seed", "2"],
            tmp_path / "bob",
        )
        freed = host.wait_for(
            r"freed: seat 1 \(idle\) silent at the start for (\d+) s; signed by seat 0"
            r" \(not ready in time\)",
            60,
        )
        assert int(freed.group(1)) >= 3
        host.wait_for(r"seat 1 +bob ", 30)
        idle.wait_for(r"stopped: this seat was freed for another player: seat 1 \(idle\)", 60)
        assert peers.wait_for_exit(idle, 30) == 0
        peers.wait_all([host, bob], GAME_SECONDS)
    assert_same_game([host, bob])
    verdict = verify(load(Path(host.result()["record"])))
    assert any(line.startswith("freed: seat 1 (idle) silent at the start") for line in
               verdict.lines()), verdict.lines()


async def _flood_lobby(address: str, data: Path) -> tuple[int, int]:
    """A stranger's peer: asks for a seat, then signs chat lines far past what a player
    without a seat may (around its own table's check, as a cheat would) and serves them to
    the host, which follows it; how many entries and bytes it offered."""
    node = Node(Store(data, command="a stranger"), auto_ready=False)
    await node.start(resume=False)
    try:
        await node.join_table(address, "mallory")

        def pump(table: Table) -> tuple[int, int]:
            offered, size = 1, 0
            for _ in range(UNSEATED_ENTRIES * 4):
                log = table.logs.log(table.me)
                entry = make_entry(
                    table.identity, table.table_id, len(log), log[-1].hash, step=0, heads=(),
                    body=log_pb2.Chat(text="z" * 2000),
                )
                table.logs.add(entry)
                table.appended.append(entry)
                offered, size = offered + 1, size + len(entry.signed)
            return offered, size

        offered = await node.call(pump)
        await asyncio.sleep(5)  # the host follows it and takes in what it keeps
        return offered
    finally:
        await node.stop()


def kept_of_others(data: Path) -> tuple[int, int]:
    """How many entries (and bytes) of authors other than the creator a peer's store kept
    of its table."""
    store = Store(data, read_only=True)
    try:
        current = store.setting("table")
        assert current is not None
        entries = store.entries(current)
        creator = next(e.author for e in entries if e.kind == "table")
        others = [e for e in entries if e.author != creator]
        return len(others), sum(len(e.signed) for e in others)
    finally:
        store.close()


def test_a_stranger_in_the_lobby_makes_the_host_keep_no_more_than_the_bound(
    tmp_path: Path,
) -> None:
    with peers_in(tmp_path) as peers:
        host = peers.start(
            ["host", "--edition", "zman", "--seats", "3", "--name", "guarded", "--player",
             "ada"],
            tmp_path / "host",
        )
        address = host.address()
        host.wait_for("you admit or refuse each player", 20)
        offered, size = asyncio.run(_flood_lobby(address, tmp_path / "mallory"))
        assert offered > UNSEATED_ENTRIES * 3 and size > UNSEATED_BYTES
        host.wait_for(r"mallory \([0-9a-f-]{24}\) asks for a seat", 20)
        kept, kept_bytes = kept_of_others(tmp_path / "host")
        assert 1 <= kept <= UNSEATED_ENTRIES and kept_bytes <= UNSEATED_BYTES, (kept, kept_bytes)
        assert host.process.poll() is None, host.output()
