"""A peer's store: one SQLite file per data directory, readable by its owner only, used by
one process at a time.

It keeps the peer's identity, every entry of every log the peer has accepted, the peer's own
secrets (deck secrets, coin nonces) and a few settings (the table being played, the port).
A secret is committed before the entry that depends on it is published, and every entry is
committed as it is accepted, so a peer killed at any point and started again on the same
directory rebuilds its table exactly (:meth:`Table.restore`). The file uses SQLite's
write-ahead log; a commit survives the process being killed.

Opening a store takes its directory's lock (:mod:`condottiere.peer.data_lock`): a second
process (or a second store in this one) is refused with :class:`DataInUse`, which says who
holds it. An entry of the peer's own is kept only if no other entry of its key holds its
place (:meth:`TableKeeper.keep_own`), so a peer never publishes two entries with one
sequence number. A store opened ``read_only`` takes no lock and writes no data: it reads
what the owner has committed, while the owner plays. A file SQLite cannot read is refused
with :class:`DamagedStore`, which says which file and what to do.

>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as folder:
...     data = pathlib.Path(folder) / "data"
...     store = Store(data)
...     key = store.identity().public
...     try:
...         Store(data)
...     except DataInUse:
...         refused = True
...     store.close()
...     store = Store(data)
...     same = store.identity().public == key
...     mode = oct((data / DATABASE).stat().st_mode & 0o777)
...     store.close()
>>> refused, same, mode
(True, True, '0o600')
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from condottiere.crypto import Identity
from condottiere.peer.data_lock import DataInUse, DataLock
from condottiere.peer.entries import LogEntry, SigningConflict, read_entry

__all__ = ["DATABASE", "DamagedStore", "DataInUse", "Store", "TableKeeper"]

DATABASE = "peer.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS settings (name TEXT PRIMARY KEY, value BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS entries (
    table_id BLOB NOT NULL, author BLOB NOT NULL, seq INTEGER NOT NULL,
    hash BLOB NOT NULL, signed BLOB NOT NULL, verified INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, author, seq));
CREATE TABLE IF NOT EXISTS secrets (
    table_id BLOB NOT NULL, name TEXT NOT NULL, value BLOB NOT NULL,
    PRIMARY KEY (table_id, name));
"""


class DamagedStore(OSError):
    """A store SQLite cannot read (a damaged file, or not a store at all), with which file
    and what to do."""

    def __init__(self, path: Path, problem: str) -> None:
        directory = path.parent
        super().__init__(
            f"the peer's data in {path} is damaged ({problem}): move the data directory aside"
            f" (mv {directory} {directory}.damaged) and start again, which makes a new key and"
            " a new game, or put back a copy of it from a backup"
        )
        self.path = path


def _check(db: sqlite3.Connection, path: Path) -> None:
    """:class:`DamagedStore` unless SQLite finds ``db`` (the file ``path``) sound."""
    try:
        verdict = db.execute("PRAGMA quick_check").fetchone()
    except sqlite3.DatabaseError as error:
        raise DamagedStore(path, str(error)) from None
    if verdict is None or verdict[0] != "ok":
        raise DamagedStore(path, f"SQLite's check says: {verdict[0] if verdict else 'nothing'}")


class Store:
    """The SQLite store of one data directory (created, owner-only, if it does not exist),
    with the directory's lock held until :meth:`close`.

    ``command`` says what holds the directory (``condottiere play``), for the message of a
    second process that wants it; ``wait`` is how many seconds to wait for a directory
    another process holds before :class:`DataInUse`. With ``read_only``, nothing is locked
    and no data made or written (:class:`FileNotFoundError` when the directory holds no
    store).
    """

    def __init__(
        self,
        directory: Path,
        *,
        command: str = "a condottiere peer",
        wait: float = 0.0,
        read_only: bool = False,
    ) -> None:
        self.directory = Path(directory)
        path = self.directory / DATABASE
        self._lock: DataLock | None = None
        if read_only:
            if not path.is_file():
                raise FileNotFoundError(f"{self.directory} holds no peer's data")
            uri = f"{path.resolve().as_uri()}?mode=ro"
            self._db = sqlite3.connect(uri, uri=True, isolation_level=None,
                                       check_same_thread=False)
            try:
                _check(self._db, path)
            except BaseException:
                self._db.close()
                raise
            return
        self.directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        self._lock = DataLock(self.directory, command, wait=wait)
        try:
            self._db = self._open(path)
        except BaseException:
            self._lock.release()
            raise

    def _open(self, path: Path) -> sqlite3.Connection:
        os.chmod(self.directory, 0o700)
        if not path.exists():
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
        os.chmod(path, 0o600)
        old_umask = os.umask(0o077)  # the -wal and -shm files SQLite makes beside it
        try:
            db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            try:
                _check(db, path)
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")
                db.executescript(_SCHEMA)
            except sqlite3.DatabaseError as error:
                db.close()
                raise DamagedStore(path, str(error)) from None
            except BaseException:
                db.close()
                raise
        finally:
            os.umask(old_umask)
        return db

    def close(self) -> None:
        """Close the file and let another process take the directory."""
        self._db.close()
        if self._lock is not None:
            self._lock.release()

    # -- settings ------------------------------------------------------------------------------

    def setting(self, name: str) -> bytes | None:
        row = self._db.execute("SELECT value FROM settings WHERE name = ?", (name,)).fetchone()
        return None if row is None else bytes(row[0])

    def set_setting(self, name: str, value: bytes) -> None:
        self._db.execute(
            "INSERT INTO settings (name, value) VALUES (?, ?) "
            "ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            (name, value),
        )

    def identity(self) -> Identity:
        """This directory's long-term identity, made the first time."""
        secret = self.setting("identity")
        if secret is None:
            identity = Identity.generate()
            self.set_setting("identity", identity.secret_bytes())
            return identity
        return Identity(secret)

    # -- tables --------------------------------------------------------------------------------

    def table_ids(self) -> list[bytes]:
        """Every table with kept entries, the most recently started last."""
        rows = self._db.execute(
            "SELECT table_id FROM entries GROUP BY table_id ORDER BY MIN(rowid)"
        ).fetchall()
        return [bytes(row[0]) for row in rows]

    def entries(self, table_id: bytes) -> list[LogEntry]:
        """Every kept entry of a table, in the order they were kept."""
        rows = self._db.execute(
            "SELECT signed FROM entries WHERE table_id = ? ORDER BY rowid", (table_id,)
        ).fetchall()
        return [read_entry(bytes(row[0]), table_id=table_id) for row in rows]

    def holds_log(self, table_id: bytes, author: bytes) -> bool:
        """Whether any entry of ``author``'s log at the table ``table_id`` is kept here."""
        row = self._db.execute(
            "SELECT 1 FROM entries WHERE table_id = ? AND author = ? LIMIT 1", (table_id, author)
        ).fetchone()
        return row is not None

    def keeper(self, table_id: bytes) -> TableKeeper:
        return TableKeeper(self, table_id)

    def _execute(self, sql: str, parameters: tuple[object, ...]) -> sqlite3.Cursor:
        return self._db.execute(sql, parameters)


class TableKeeper:
    """What one table keeps in the store (the driver's ``Keeper``)."""

    def __init__(self, store: Store, table_id: bytes) -> None:
        self._store = store
        self.table_id = table_id

    def keep(self, entry: LogEntry) -> None:
        self._store._execute(
            "INSERT OR IGNORE INTO entries (table_id, author, seq, hash, signed) "
            "VALUES (?, ?, ?, ?, ?)",
            (self.table_id, entry.author, entry.seq, entry.hash, entry.signed),
        )

    def keep_own(self, entry: LogEntry) -> None:
        """Keep an entry this peer made, before it is published; :class:`SigningConflict` if
        the store holds another entry of its author with its sequence number (whoever kept
        that one first, in this process or another, wins: an entry's row never changes)."""
        self.keep(entry)
        row = self._store._execute(
            "SELECT hash, signed FROM entries WHERE table_id = ? AND author = ? AND seq = ?",
            (self.table_id, entry.author, entry.seq),
        ).fetchone()
        if bytes(row[0]) != entry.hash:
            raise SigningConflict(read_entry(bytes(row[1]), table_id=self.table_id), entry)

    def keep_secret(self, name: str, value: bytes) -> None:
        self._store._execute(
            "INSERT OR REPLACE INTO secrets (table_id, name, value) VALUES (?, ?, ?)",
            (self.table_id, name, value),
        )

    def secret(self, name: str) -> bytes | None:
        row = self._store._execute(
            "SELECT value FROM secrets WHERE table_id = ? AND name = ?", (self.table_id, name)
        ).fetchone()
        return None if row is None else bytes(row[0])

    def mark_verified(self, entry: LogEntry) -> None:
        self._store._execute(
            "UPDATE entries SET verified = 1 WHERE table_id = ? AND hash = ?",
            (self.table_id, entry.hash),
        )

    def verified(self) -> set[bytes]:
        rows = self._store._execute(
            "SELECT hash FROM entries WHERE table_id = ? AND verified = 1", (self.table_id,)
        ).fetchall()
        return {bytes(row[0]) for row in rows}
