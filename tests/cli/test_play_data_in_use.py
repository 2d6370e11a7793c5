"""``condottiere play`` on a data directory in use: a second ``play --join`` on the machine that
hosts, without ``--data``, would take up the host's own table as a clone of it (one key signing
in two processes); it is refused, says which process holds the directory and what to do, and
leaves the host's table as it was. Both run in pseudo-terminals of their own (``play`` needs a
terminal); every process is tracked by its PID and killed, only those, at the end.
"""

from __future__ import annotations

import fcntl
import os
import pty
import sqlite3
import struct
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from condottiere.peer.store import Store


class InTerminal:
    """``condottiere ARGS`` in an 80x24 pseudo-terminal; what it writes is read by a thread."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "condottiere.cli.main", *args],
            stdin=slave, stdout=slave, stderr=slave, env=env,
        )
        os.close(slave)
        self.written = bytearray()
        threading.Thread(target=self._read, args=(master,), daemon=True).start()

    def _read(self, master: int) -> None:
        while True:
            try:
                data = os.read(master, 4096)
            except OSError:  # the terminal is gone with its last process
                break
            if not data:
                break
            self.written += data
        os.close(master)

    def text(self) -> str:
        return self.written.decode(errors="replace")


@contextmanager
def terminals(home: Path) -> Iterator[Callable[[list[str]], InTerminal]]:
    """Start ``condottiere`` commands whose default data directories are under ``home``;
    each one still running at the end is killed."""
    env = {**os.environ, "CONDOTTIERE_HOME": str(home), "TERM": "xterm", "PYTHONUNBUFFERED": "1"}
    started: list[InTerminal] = []

    def start(args: list[str]) -> InTerminal:
        started.append(InTerminal(args, env))
        return started[-1]

    try:
        yield start
    finally:
        for terminal in started:
            if terminal.process.poll() is None:
                terminal.process.kill()
            terminal.process.wait(timeout=10)


def table_of(data: Path) -> tuple[int, int] | None:
    """The port a data directory's peer serves on and how many entries its table holds; None
    before it has both (read without its lock)."""
    try:
        store = Store(data, read_only=True)
    except FileNotFoundError:
        return None
    try:
        port, table = store.setting("port"), store.setting("table")
        return None if port is None or table is None else (int(port), len(store.entries(table)))
    except sqlite3.OperationalError:  # its tables are not made yet
        return None
    finally:
        store.close()


def wait_for(read: Callable[[], tuple[int, int] | None], done: Callable[[tuple[int, int]], bool],
             seconds: float) -> tuple[int, int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = read()
        if value is not None and done(value):
            return value
        time.sleep(0.05)
    raise AssertionError(f"not within {seconds} s: {read()}")


def test_a_second_play_on_the_hosts_machine_without_data_is_refused_and_told_what_to_do(
    tmp_path: Path,
) -> None:
    hosting = tmp_path / "play"  # the default data directory of 'play', host or not
    with terminals(tmp_path) as start:
        host = start(["play", "--listen", "127.0.0.1", "--bots", "none", "--name", "Friday"])
        port, entries = wait_for(lambda: table_of(hosting), lambda _: True, 30)
        second = start(["play", "--join", f"127.0.0.1:{port}", "--player", "bob"])
        assert second.process.wait(timeout=30) == 2
        said = " ".join(second.text().split())
        holder = f"{hosting} is in use by process {host.process.pid} (condottiere play, since "
        assert holder in said
        assert "stop it, or give this command a data directory of its own: --data DIR" in said
        assert host.process.poll() is None and table_of(hosting) == (port, entries)
        guest = start(["play", "--join", f"127.0.0.1:{port}", "--player", "bob",
                       "--data", str(tmp_path / "bob")])
        wait_for(lambda: table_of(hosting), lambda held: held[1] == entries + 1, 30)  # its join
        assert guest.process.poll() is None
