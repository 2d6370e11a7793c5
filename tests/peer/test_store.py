"""A peer's store (peer/store.py): identity, entries, secrets, settings, owner-only files,
and what survives the process being killed."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from condottiere.crypto import Identity
from condottiere.peer.entries import LogEntry, SigningConflict, make_entry
from condottiere.peer.store import DATABASE, DataInUse, Store
from condottiere.v1 import log_pb2

TABLE = b"T" * 32
OTHER_TABLE = b"U" * 32
ALICE, BOB = Identity.generate(), Identity.generate()


def log_of(identity: Identity, n: int, table: bytes = TABLE) -> list[LogEntry]:
    entries: list[LogEntry] = []
    for seq in range(n):
        previous = entries[-1].hash if entries else b""
        chat = log_pb2.Chat(text=f"line {seq}")
        entries.append(make_entry(identity, table, seq, previous, step=0, heads=(), body=chat))
    return entries


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def store(folder: Path) -> Iterator[Store]:
    opened = Store(folder)
    yield opened
    opened.close()


def reopened(folder: Path) -> Store:
    return Store(folder)


# ------------------------------------------------------------------ identity and settings


def test_identity_is_made_once_and_kept_across_reopening(store: Store, folder: Path) -> None:
    first = store.identity()
    assert store.identity().public == first.public
    store.close()
    again = reopened(folder)
    try:
        assert again.identity().public == first.public
        assert again.identity().secret_bytes() == first.secret_bytes()
    finally:
        again.close()


def test_two_directories_have_two_identities(tmp_path: Path) -> None:
    one, two = Store(tmp_path / "one"), Store(tmp_path / "two")
    try:
        assert one.identity().public != two.identity().public
    finally:
        one.close()
        two.close()


def test_settings_are_absent_until_set_then_overwritten_and_kept(
    store: Store, folder: Path
) -> None:
    assert store.setting("port") is None
    store.set_setting("port", b"5000")
    store.set_setting("table", TABLE)
    store.set_setting("port", b"5001")
    assert store.setting("port") == b"5001" and store.setting("table") == TABLE
    store.close()
    again = reopened(folder)
    try:
        assert again.setting("port") == b"5001" and again.setting("table") == TABLE
        assert again.setting("other") is None
    finally:
        again.close()


# ------------------------------------------------------------------ owner-only files


def test_new_store_directory_and_file_are_owner_only(store: Store, folder: Path) -> None:
    assert mode(folder) == 0o700
    assert mode(folder / DATABASE) == 0o600


def test_every_sqlite_file_is_owner_only_after_writes(store: Store, folder: Path) -> None:
    store.keeper(TABLE).keep(log_of(ALICE, 1)[0])
    store.identity()
    files = sorted(p.name for p in folder.iterdir())
    assert DATABASE in files
    for name in files:
        assert mode(folder / name) == 0o600, name


def test_reopening_makes_loosened_files_owner_only_again(store: Store, folder: Path) -> None:
    store.identity()
    store.close()
    os.chmod(folder, 0o755)
    os.chmod(folder / DATABASE, 0o644)
    again = reopened(folder)
    try:
        again.set_setting("port", b"1")
        assert mode(folder) == 0o700
        for path in folder.iterdir():
            assert mode(path) == 0o600, path.name
    finally:
        again.close()


def test_existing_directory_is_made_owner_only(tmp_path: Path) -> None:
    folder = tmp_path / "existing"
    folder.mkdir(mode=0o755)
    os.chmod(folder, 0o755)
    opened = Store(folder)
    try:
        assert mode(folder) == 0o700 and mode(folder / DATABASE) == 0o600
    finally:
        opened.close()


def test_missing_parent_directories_are_made(tmp_path: Path) -> None:
    opened = Store(tmp_path / "a" / "b" / "data")
    try:
        assert mode(tmp_path / "a" / "b" / "data") == 0o700
    finally:
        opened.close()


def test_the_process_umask_is_left_as_it_was(folder: Path) -> None:
    before = os.umask(0o022)
    try:
        Store(folder).close()
        assert os.umask(0o022) == 0o022
    finally:
        os.umask(before)


# ------------------------------------------------------------------ one process, one store


def test_a_second_store_on_a_directory_in_use_is_refused_naming_the_process_holding_it(
    store: Store, folder: Path
) -> None:
    with pytest.raises(DataInUse) as refused:
        Store(folder, command="condottiere join")
    holder = refused.value.holder
    assert holder is not None
    assert (holder.pid, holder.command) == (os.getpid(), "a condottiere peer")
    said = f"{folder} is in use by process {os.getpid()} (a condottiere peer, since "
    assert str(refused.value).startswith(said)
    store.set_setting("port", b"1")  # the holder goes on as it was
    assert store.setting("port") == b"1"


def test_a_store_waits_for_a_directory_until_its_holder_lets_it_go(
    store: Store, folder: Path
) -> None:
    threading.Timer(0.3, store.close).start()
    started = time.monotonic()
    again = Store(folder, wait=10)
    again.close()
    assert 0.2 < time.monotonic() - started < 5


def test_a_read_only_store_reads_what_the_holder_committed_and_writes_nothing(
    store: Store, folder: Path
) -> None:
    entry = log_of(ALICE, 1)[0]
    store.keeper(TABLE).keep(entry)
    reader = Store(folder, read_only=True)
    try:
        assert reader.entries(TABLE) == [entry]
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            reader.set_setting("port", b"1")
    finally:
        reader.close()
    assert store.setting("port") is None


def test_a_read_only_store_is_never_made_where_there_is_none(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="holds no peer's data"):
        Store(tmp_path / "none", read_only=True)
    assert not (tmp_path / "none").exists()


def test_an_own_entry_is_kept_only_where_no_other_entry_of_its_key_is(store: Store) -> None:
    keeper = store.keeper(TABLE)
    signed = log_of(ALICE, 2)
    for entry in [*signed, signed[1]]:  # the same entry again is no conflict
        keeper.keep_own(entry)
    chat = log_pb2.Chat(text="another")
    other = make_entry(ALICE, TABLE, 1, signed[0].hash, step=0, heads=(), body=chat)
    with pytest.raises(SigningConflict) as refused:
        keeper.keep_own(other)
    assert (refused.value.kept, refused.value.made) == (signed[1], other)
    assert store.entries(TABLE) == signed


# ------------------------------------------------------------------ entries


def test_entries_come_back_in_the_order_they_were_kept(store: Store) -> None:
    alice, bob = log_of(ALICE, 3), log_of(BOB, 3)
    order = [bob[0], alice[0], alice[1], bob[1], bob[2], alice[2]]
    keeper = store.keeper(TABLE)
    for entry in order:
        keeper.keep(entry)
    back = store.entries(TABLE)
    assert back == order
    assert [(e.author, e.seq, e.hash, e.raw) for e in back] == [
        (e.author, e.seq, e.hash, e.raw) for e in order
    ]


def test_entries_survive_reopening(store: Store, folder: Path) -> None:
    entries = log_of(ALICE, 4)
    for entry in reversed(entries):
        store.keeper(TABLE).keep(entry)
    store.close()
    again = reopened(folder)
    try:
        assert again.entries(TABLE) == list(reversed(entries))
    finally:
        again.close()


def test_keep_is_idempotent_and_a_copy_keeps_its_first_place(store: Store) -> None:
    entries = log_of(ALICE, 3)
    keeper = store.keeper(TABLE)
    for entry in entries:
        keeper.keep(entry)
    keeper.keep(entries[0])
    keeper.keep(entries[2])
    keeper.keep(entries[0])
    assert store.entries(TABLE) == entries


def test_a_table_without_entries_has_none(store: Store) -> None:
    assert store.entries(TABLE) == [] and store.table_ids() == []


def test_two_tables_are_kept_apart(store: Store) -> None:
    here, there = log_of(ALICE, 2, TABLE), log_of(ALICE, 3, OTHER_TABLE)
    store.keeper(OTHER_TABLE).keep(there[0])
    store.keeper(TABLE).keep(here[0])
    store.keeper(OTHER_TABLE).keep(there[1])
    store.keeper(TABLE).keep(here[1])
    store.keeper(OTHER_TABLE).keep(there[2])
    assert store.entries(TABLE) == here
    assert store.entries(OTHER_TABLE) == there
    assert store.table_ids() == [OTHER_TABLE, TABLE]  # the most recently started last


def test_holds_log_says_whether_an_author_wrote_at_a_table(store: Store) -> None:
    keeper = store.keeper(TABLE)
    assert not store.holds_log(TABLE, ALICE.public.raw)
    keeper.keep(log_of(ALICE, 1)[0])
    assert store.holds_log(TABLE, ALICE.public.raw)
    assert not store.holds_log(TABLE, BOB.public.raw)
    assert not store.holds_log(OTHER_TABLE, ALICE.public.raw)


# ------------------------------------------------------------------ secrets and verification


def test_secrets_are_per_table_and_replaced_by_name(store: Store, folder: Path) -> None:
    here, there = store.keeper(TABLE), store.keeper(OTHER_TABLE)
    assert here.secret("coin/0/0") is None
    here.keep_secret("coin/0/0", b"nonce-1")
    there.keep_secret("coin/0/0", b"nonce-2")
    here.keep_secret("deck/0", b"scalar")
    here.keep_secret("coin/0/0", b"nonce-3")
    assert here.secret("coin/0/0") == b"nonce-3" and here.secret("deck/0") == b"scalar"
    assert there.secret("coin/0/0") == b"nonce-2" and there.secret("deck/0") is None
    store.close()
    again = reopened(folder)
    try:
        assert again.keeper(TABLE).secret("coin/0/0") == b"nonce-3"
        assert again.keeper(OTHER_TABLE).secret("coin/0/0") == b"nonce-2"
    finally:
        again.close()


def test_secrets_alone_do_not_make_a_table(store: Store) -> None:
    store.keeper(TABLE).keep_secret("deck/0", b"scalar")
    assert store.table_ids() == []


def test_mark_verified_marks_only_that_kept_entry_of_that_table(store: Store, folder: Path) -> None:
    entries = log_of(ALICE, 3)
    keeper = store.keeper(TABLE)
    for entry in entries:
        keeper.keep(entry)
    assert keeper.verified() == set()
    keeper.mark_verified(entries[1])
    keeper.mark_verified(entries[1])
    assert keeper.verified() == {entries[1].hash}
    assert store.keeper(OTHER_TABLE).verified() == set()
    keeper.mark_verified(log_of(BOB, 1)[0])  # never kept: nothing to mark
    assert keeper.verified() == {entries[1].hash}
    store.close()
    again = reopened(folder)
    try:
        assert again.keeper(TABLE).verified() == {entries[1].hash}
    finally:
        again.close()


def test_verified_marks_do_not_leak_across_tables(store: Store) -> None:
    # the same signed entry cannot be in two tables, but a hash match must not be enough
    entry = log_of(ALICE, 1)[0]
    store.keeper(TABLE).keep(entry)
    store.keeper(OTHER_TABLE).mark_verified(entry)
    assert store.keeper(TABLE).verified() == set()


# ------------------------------------------------------------------ a killed process

KILLED_WRITER = textwrap.dedent(
    """
    import json, os, sys
    from pathlib import Path
    from condottiere.peer.entries import read_entry
    from condottiere.peer.store import Store

    job = json.loads(sys.stdin.read())
    store = Store(Path(job["folder"]))
    print(store.identity().public.raw.hex(), flush=True)
    keeper = store.keeper(bytes.fromhex(job["table"]))
    for signed in job["entries"]:
        keeper.keep(read_entry(bytes.fromhex(signed)))
    keeper.keep_secret("coin/0/0", b"nonce")
    keeper.mark_verified(read_entry(bytes.fromhex(job["entries"][0])))
    store.set_setting("table", bytes.fromhex(job["table"]))
    print("kept", flush=True)
    os.kill(os.getpid(), 9)
    """
)


def test_every_committed_write_survives_a_kill_9(folder: Path) -> None:
    entries = log_of(ALICE, 20) + log_of(BOB, 20)
    job = {
        "folder": str(folder),
        "table": TABLE.hex(),
        "entries": [entry.signed.hex() for entry in entries],
    }
    done = subprocess.run(
        [sys.executable, "-c", KILLED_WRITER],
        input=json.dumps(job),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == -9, done.stderr
    identity, kept = done.stdout.split()
    assert kept == "kept"
    assert (folder / f"{DATABASE}-wal").exists()  # what was kept is in the log, not yet merged
    again = reopened(folder)
    try:
        assert again.identity().public.raw.hex() == identity
        assert again.entries(TABLE) == entries
        keeper = again.keeper(TABLE)
        assert keeper.secret("coin/0/0") == b"nonce"
        assert keeper.verified() == {entries[0].hash}
        assert again.setting("table") == TABLE
        assert mode(folder) == 0o700
        for path in folder.iterdir():
            assert mode(path) == 0o600, path.name
    finally:
        again.close()
