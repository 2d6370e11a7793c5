"""Command-line peers started as processes of their own, without importing the peer again for
each.

A peer's process spends about 0.2 s of CPU importing the command, the peer, gRPC, zeroconf and
a game before it does anything; a host with five bots paid that five times more. Where the
system can fork (Linux, macOS), :func:`start_peer` forks each peer from one server process
that imported all of that once (:mod:`multiprocessing`'s fork server, started by :func:`warm`
or on first use, holding no thread, no socket and no event loop of its own), so a bot costs a
fork; where it cannot (Windows), it runs ``python -m condottiere.cli.main`` as before. Either
way the peer is an ordinary ``condottiere`` command line (``argv``) in a process of its own,
with its output (standard output and error) appended to ``log``, the starting process's
working directory and environment, and no standard input.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import subprocess
import sys
from collections.abc import Sequence
from functools import cache
from multiprocessing import forkserver
from multiprocessing.context import ForkServerContext
from pathlib import Path
from typing import Protocol

__all__ = ["PRELOADED", "PeerProcess", "forks", "start_peer", "warm"]

PRELOADED = (
    "condottiere.cli.main",
    "condottiere.cli.peers",
    "condottiere.cli.peer_runner",
    "condottiere.cli.lan",
    "condottiere.peer.node",
    "condottiere.peer.discovery",
    "condottiere.peer.presence",
    "condottiere.bots.greedy",
    "condottiere.bots.random_bot",
    "grpc.aio",
    "zeroconf.asyncio",
)
"""What the fork server imports once, before it forks any peer: all that a bot peer imports
to play (a searching bot's search is imported by the bot that makes one)."""


class PeerProcess(Protocol):
    """A started peer, as :class:`subprocess.Popen` is one: its PID, its exit status."""

    @property
    def pid(self) -> int: ...

    def poll(self) -> int | None:
        """The exit status if the process has ended (minus the signal that ended it), else
        None."""

    def wait(self, timeout: float | None = None) -> int:
        """The exit status once it ends; :class:`subprocess.TimeoutExpired` after
        ``timeout`` seconds."""

    def send_signal(self, sig: int) -> None:
        """Send ``sig`` to the process, unless it has ended."""

    def kill(self) -> None:
        """SIGKILL, unless the process has ended."""


def forks() -> bool:
    """True where peers are forked from the fork server (the system has one)."""
    return _fork_server() is not None


def warm() -> None:
    """Start the fork server now, without waiting for it: it imports the peer while this
    process goes on, so that the first :func:`start_peer` need not wait for that (nothing where
    there is no fork server)."""
    if _fork_server() is not None:
        forkserver.ensure_running()


def start_peer(argv: Sequence[str], log: Path) -> PeerProcess:
    """``condottiere ARGV`` in a process of its own, forked from the fork server where there
    is one, its output appended to ``log``."""
    arguments = list(argv)
    context = _fork_server()
    if context is None:
        with log.open("ab") as output:
            return subprocess.Popen(
                [sys.executable, "-m", "condottiere.cli.main", *arguments],
                stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT,
            )
    process = context.Process(
        target=_run,
        args=(arguments, str(log), os.getcwd(), dict(os.environ)),
        name="condottiere peer",
    )
    process.start()
    return _Forked(process)


@cache
def _fork_server() -> ForkServerContext | None:
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return None
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(list(PRELOADED))
    return context


def _run(argv: list[str], log: str, cwd: str, environment: dict[str, str]) -> None:
    """In the forked process: the starting process's directory, environment and module path
    (``python -m`` puts the working directory first), the command line as ``sys.argv``, the
    output to ``log``, then the command line, whose status is the process's."""
    os.chdir(cwd)
    os.environ.clear()
    os.environ.update(environment)
    sys.path.insert(0, cwd)
    sys.argv = ["condottiere", *argv]
    output = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    os.dup2(output, 1)
    os.dup2(output, 2)
    os.close(output)
    from condottiere.cli.main import main  # imported by the fork server already

    sys.exit(main(argv))


class _Forked:
    """A forked peer behind :class:`PeerProcess`."""

    def __init__(self, process: multiprocessing.process.BaseProcess) -> None:
        self._process = process
        pid = process.pid
        assert pid is not None  # started
        self._pid = pid

    @property
    def pid(self) -> int:
        return self._pid

    def poll(self) -> int | None:
        return self._process.exitcode

    def wait(self, timeout: float | None = None) -> int:
        self._process.join(timeout)
        status = self._process.exitcode
        if status is None:
            raise subprocess.TimeoutExpired(f"condottiere peer {self._pid}", timeout or 0.0)
        return status

    def send_signal(self, sig: int) -> None:
        if self._process.exitcode is None:
            with contextlib.suppress(ProcessLookupError):  # it has just ended
                os.kill(self._pid, sig)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)
