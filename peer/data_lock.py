"""One process per data directory: an OS lock on ``DATA/lock``, held while the process uses
the directory.

Two processes on one data directory would sign with one key, each unaware of what the other
signed: an honest player branded a cheater ("equivocation") a few moves later. So a data
directory is locked by the process that opens its store, with ``flock`` (Linux, macOS; on
Windows ``msvcrt.locking``), and the operating system releases the lock when that process
ends, however it ends (``kill -9`` included): a lock is never left behind. The holder writes
its PID, what it is (``condottiere play``) and since when into the file, so that a second
process can say who holds the directory:

>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as folder:
...     held = DataLock(pathlib.Path(folder), "condottiere play")
...     try:
...         DataLock(pathlib.Path(folder), "condottiere join")
...     except DataInUse as refused:
...         print(refused.holder.command, refused.holder.pid == os.getpid())
...     held.release()
condottiere play True
"""

from __future__ import annotations

import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

__all__ = ["LOCK_FILE", "DataInUse", "DataLock", "Holder"]

LOCK_FILE = "lock"
POLL_SECONDS = 0.1
"""How often a process that waits for a data directory tries its lock again."""
MAX_DESCRIPTION = 4096
"""The most of a lock file read as its holder's description."""

if sys.platform == "win32":
    import msvcrt

    _WINDOWS_LOCKED_BYTE = 1 << 20
    """Windows locks are mandatory: the byte locked is far past what is written, so that the
    holder's description stays readable."""

    def _try_lock(fd: int) -> bool:
        os.lseek(fd, _WINDOWS_LOCKED_BYTE, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True


@dataclass(frozen=True)
class Holder:
    """The process that holds a data directory, as it wrote itself into the lock file."""

    pid: int
    command: str
    """What it is: ``condottiere play``, ``condottiere bot``..."""
    since: float
    """When it took the directory (``time.time()``)."""

    def describe(self) -> str:
        """``process 1234 (condottiere play, since 10:02)``; the date too if not today."""
        started = time.localtime(self.since)
        today = time.localtime()[:3] == started[:3]
        clock = time.strftime("%H:%M" if today else "%Y-%m-%d %H:%M", started)
        return f"process {self.pid} ({self.command}, since {clock})"


class DataInUse(RuntimeError):
    """The data directory is locked by another process (or by another lock of this one)."""

    def __init__(self, directory: Path, holder: Holder | None) -> None:
        self.directory = directory
        self.holder = holder
        who = "another process" if holder is None else holder.describe()
        super().__init__(f"{directory} is in use by {who}")


class DataLock:
    """The lock of one data directory, held from construction until :meth:`release` (or the
    end of the process); :class:`DataInUse` when another process holds it.

    ``wait``: how many seconds to wait for the directory when it is held (a bot whose previous
    process is still stopping); 0 refuses at once.
    """

    def __init__(self, directory: Path, command: str, *, wait: float = 0.0) -> None:
        path = Path(directory) / LOCK_FILE
        self._fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        deadline = time.monotonic() + wait
        while not _try_lock(self._fd):
            if time.monotonic() >= deadline:
                holder = _read_holder(path)
                os.close(self._fd)
                raise DataInUse(Path(directory), holder)
            time.sleep(POLL_SECONDS)
        description = {"pid": os.getpid(), "command": command, "since": time.time()}
        os.ftruncate(self._fd, 0)
        os.lseek(self._fd, 0, os.SEEK_SET)
        os.write(self._fd, json.dumps(description).encode())

    def release(self) -> None:
        """Let another process take the directory (closing the file releases the lock)."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


def _read_holder(path: Path) -> Holder | None:
    """The holder described in a lock file; None when it cannot be read (a holder that has
    not written itself in yet)."""
    try:
        described = json.loads(path.read_bytes()[:MAX_DESCRIPTION])
        return Holder(int(described["pid"]), str(described["command"]), float(described["since"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None
