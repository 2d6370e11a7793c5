"""One key, one process, with real peer processes on loopback: a data directory is used by one
process at a time (a second is told who holds it and exits with status 2, touching nothing);
the bot peers of a host killed with ``kill -9`` stop by themselves, and the host started again
takes the game up with them; a peer never signs an entry where its key signed another (another
process's entry, or its own first entry at a table it asks a seat at again), even when its
store was put back from a backup that has lost the end of its log.

Every process a test starts is tracked by its PID (the bots a host starts, by the PID each
wrote in its data directory's lock, checked to be that host's child) and stopped, only those,
however the test ends; every wait is bounded.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from condottiere.crypto import Identity
from condottiere.peer.data_lock import LOCK_FILE
from condottiere.peer.entries import make_entry
from condottiere.peer.store import DATABASE, Store
from condottiere.v1 import log_pb2
from tests.peer.processes import PeerProcess, peers_in, start_table
from tests.peer.test_network import (
    GAME_SECONDS,
    HOST_WITH_BOTS,
    assert_same_game,
    assert_same_summaries,
    bot_summaries,
    stopping_its_bots,
)

DUEL = ["--edition", "zman-duel", "--strategy", "greedy", "--name", "duel", "--seed", "3"]


def own_log(data: Path, author: bytes | None = None) -> list[bytes]:
    """The hashes of the entries of a data directory's own log at its table, in order, or of
    the log of ``author`` as far as that directory holds it (read without its lock, while its
    peer plays)."""
    try:
        store = Store(data, read_only=True)
    except FileNotFoundError:  # its peer has not made its store yet
        return []
    try:
        table = store.setting("table")
        whose = store.identity().public.raw if author is None else author
        if table is None:
            return []
        mine = sorted((e for e in store.entries(table) if e.author == whose), key=lambda e: e.seq)
        return [entry.hash for entry in mine]
    except sqlite3.OperationalError:  # nor its tables or its identity
        return []
    finally:
        store.close()


def wait_until(done: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {seconds} s: {what}")
        time.sleep(0.05)


def test_a_second_process_on_a_data_directory_is_told_who_holds_it_and_touches_nothing(
    tmp_path: Path,
) -> None:
    with peers_in(tmp_path) as peers:
        host = peers.start(["host", *DUEL], tmp_path / "host")
        address = host.address()
        host.wait_for("hosting", 20)
        before = own_log(tmp_path / "host")
        second = peers.start(["join", address, "--player", "eve"], tmp_path / "host")
        assert peers.wait_for_exit(second, 30) == 2
        said = second.output()
        holder = f"{tmp_path / 'host'} is in use by process {host.pid} (condottiere host, since "
        assert holder in said
        assert "stop it, or give this command a data directory of its own: --data DIR" in said
        assert "asked" not in said and "listening" not in said  # it never went further
        assert host.process.poll() is None and own_log(tmp_path / "host") == before
        exported = tmp_path / "under-way.cdr"
        export = peers.start(["export", "--output", str(exported)], tmp_path / "host")
        assert peers.wait_for_exit(export, 30) == 0, export.output()  # reading is not refused
        assert exported.stat().st_size > 0
        guest = peers.start(["bot", "--join", address, "--seed", "4"], tmp_path / "guest")
        peers.wait_all([host, guest], GAME_SECONDS)
    assert_same_game([host, guest])


def test_a_data_directory_held_by_a_process_killed_with_kill_9_is_free_at_once(
    tmp_path: Path,
) -> None:
    with peers_in(tmp_path) as peers:
        host = peers.start(["host", *DUEL], tmp_path / "host")
        host.wait_for("hosting", 20)
        peers.kill(host)
        again = peers.start(["host", *DUEL], tmp_path / "host")
        again.wait_for("taking up table 'duel' where it stopped", 20)


# ------------------------------------------------------------------ bots die with their host


def process_state(pid: int) -> tuple[int, int] | None:
    """(parent PID, start time) of a live process; None when it is gone or a zombie."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    if fields[0] in ("Z", "X"):
        return None
    return int(fields[1]), int(fields[19])


def started_by(parent: int, host: int) -> bool:
    """Whether a process whose parent is ``parent`` was started by ``host``: ``host`` is its
    parent, or its fork server is (the process :mod:`condottiere.cli.launcher` forks peers
    from, itself the host's child)."""
    server = process_state(parent)
    return parent == host or (server is not None and server[0] == host)


@contextmanager
def bots_of(host: PeerProcess, count: int) -> Iterator[dict[int, int]]:
    """The bot processes ``host`` started (PID -> start time), from the PID each wrote in its
    data directory's lock and checked to be the host's child or its fork server's; any still
    alive at the end are killed, and only those."""
    bots: dict[int, int] = {}

    def found() -> bool:
        for index in range(1, count + 1):
            try:
                pid = json.loads((host.data / "bots" / str(index) / LOCK_FILE).read_text())["pid"]
            except (OSError, ValueError, KeyError):
                return False
            state = process_state(pid)
            if state is None or not started_by(state[0], host.pid):
                return False
            bots[pid] = state[1]
        return True

    wait_until(found, 30, f"the {count} bots of {host.args}")
    try:
        yield bots
    finally:
        for pid, started in bots.items():
            state = process_state(pid)
            if state is not None and state[1] == started:
                os.kill(pid, signal.SIGKILL)


def test_the_bots_of_a_host_killed_with_kill_9_stop_and_the_host_started_again_plays_on_with_them(
    tmp_path: Path,
) -> None:
    with peers_in(tmp_path) as peers:
        host = peers.start(HOST_WITH_BOTS, tmp_path / "host")
        with stopping_its_bots(peers, host), bots_of(host, 2) as bots:
            host.wait_for(r"\(3 of 3 seats taken\)", 60)
            time.sleep(0.5)  # the deal has begun; the game is far from over
            peers.kill(host)
            wait_until(lambda: all(process_state(pid) is None for pid in bots), 10,
                       f"the bots {sorted(bots)} stop with their host")
        again = peers.start(HOST_WITH_BOTS, tmp_path / "host")
        with stopping_its_bots(peers, again), bots_of(again, 2):
            again.wait_for("taking up table", 30)
            peers.wait_all([again], GAME_SECONDS)
    assert_same_summaries([again.result(), *bot_summaries(tmp_path / "host")])
    logs = [(tmp_path / "host" / "bots" / f"{index}.log").read_text() for index in (1, 2)]
    assert all(f"the process that started this bot ({host.pid}) is gone" in log for log in logs)
    assert all("taking up table" in log and "equivocation" not in log for log in logs), logs


# ------------------------------------------------------------------ never two entries at one place


def back_up(data: Path, backup: Path) -> None:
    """A consistent copy of a data directory's store, made while its peer plays (SQLite's
    online backup, reading only)."""
    backup.mkdir(mode=0o700)
    source = sqlite3.connect(f"{(data / DATABASE).resolve().as_uri()}?mode=ro", uri=True)
    target = sqlite3.connect(backup / DATABASE)
    try:
        source.backup(target)
    finally:
        source.close()
        target.close()


def test_a_peer_put_back_from_a_backup_behind_its_log_takes_its_log_back_and_never_equivocates(
    tmp_path: Path,
) -> None:
    with peers_in(tmp_path) as peers:
        table = start_table(peers, tmp_path, "zman", 3, seed=5)
        victim = table[1]
        wait_until(lambda: len(own_log(victim.data)) >= 8, 60, "seat 1 past the first deal")
        back_up(victim.data, tmp_path / "backup")
        behind = own_log(tmp_path / "backup")
        wait_until(lambda: len(own_log(victim.data)) >= len(behind) + 4, 60,
                   "seat 1 signs on past its backup")
        peers.kill(victim)
        key = Store(victim.data, read_only=True)
        try:
            victim_key = key.identity().public.raw
        finally:
            key.close()
        # What the others hold of its log: an entry it signed and stored but was killed before
        # sending is known to nobody, and the peer put back may sign another in its place.
        signed = max((own_log(other.data, victim_key) for other in table if other is not victim),
                     key=len)
        victim.data.rename(tmp_path / "seat1-lost")
        (tmp_path / "backup").rename(victim.data)  # the disk died; the backup is put back
        table[1] = peers.start(victim.args, victim.data)
        peers.wait_all(table, GAME_SECONDS)
    assert len(behind) < len(signed) - 3
    assert own_log(victim.data)[: len(signed)] == signed  # what it had signed, not new versions
    assert_same_game(table)
    assert "equivocation" not in peers.outputs(table)


def forge_own_chat(data: Path) -> None:
    """Sign, with the key of the data directory, a chat as the next entry of its own log and
    write it into its store as a process that ignores the directory's lock would (the entry
    of another process with the same key)."""
    database = sqlite3.connect(data / DATABASE)
    try:
        setting = "SELECT value FROM settings WHERE name = ?"
        (secret,) = database.execute(setting, ("identity",)).fetchone()
        (table,) = database.execute(setting, ("table",)).fetchone()
        identity = Identity(bytes(secret))
        rows = database.execute(
            "SELECT seq, hash FROM entries WHERE table_id = ? AND author = ? ORDER BY seq",
            (table, identity.public.raw),
        ).fetchall()
        seq, previous = len(rows), bytes(rows[-1][1])
        chat = log_pb2.Chat(text="signed elsewhere")
        entry = make_entry(identity, bytes(table), seq, previous, step=0, heads=(), body=chat)
        database.execute(
            "INSERT INTO entries (table_id, author, seq, hash, signed) VALUES (?, ?, ?, ?, ?)",
            (table, entry.author, entry.seq, entry.hash, entry.signed),
        )
        database.commit()
    finally:
        database.close()


def test_a_peer_refuses_to_sign_where_another_process_signed_with_its_key_and_nobody_sees_two(
    tmp_path: Path,
) -> None:
    with peers_in(tmp_path) as peers:
        host = peers.start(["host", *DUEL], tmp_path / "host")
        address = host.address()
        host.wait_for("hosting", 20)
        forge_own_chat(tmp_path / "host")
        guest = peers.start(["bot", "--join", address, "--seed", "4"], tmp_path / "guest")
        assert peers.wait_for_exit(host, 30) == 1  # its seating would take the chat's place
        said = host.output()
        assert "refused to sign entry 1 (seating)" in said
        assert "this key already signed another entry 1 there (chat)" in said
        again = peers.start(["host", *DUEL], tmp_path / "host")  # the chat is its entry 1 now
        peers.wait_all([again, guest], GAME_SECONDS)
    assert_same_game([again, guest])
    assert "cheated" not in peers.outputs([host, again, guest])



def test_a_second_join_from_a_directory_that_asked_for_a_seat_is_refused_and_the_first_plays_on(
    tmp_path: Path,
) -> None:
    with peers_in(tmp_path) as peers:
        host = peers.start(["host", *DUEL], tmp_path / "host")
        address = host.address()
        host.wait_for("hosting", 20)
        joining = ["bot", "--join", address, "--seed", "4"]
        guest = peers.start([*joining, "--player", "Bob"], tmp_path / "guest")
        guest.wait_for("asked .* for a seat", 20)
        peers.kill(guest)
        again = peers.start([*joining, "--player", "Eve", "--new"], tmp_path / "guest")
        assert peers.wait_for_exit(again, 30) == 1
        said = again.output()
        assert "this data directory asked for a seat at table" in said
        assert "without --new" in said
        resumed = peers.start([*joining, "--player", "Bob"], tmp_path / "guest")
        peers.wait_all([host, resumed], GAME_SECONDS)
    assert_same_game([host, resumed])
    assert "cheated" not in peers.outputs([host, guest, again, resumed])
