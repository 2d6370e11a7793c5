"""Real peer processes on loopback for integration tests.

Every process a test starts is tracked by its PID and stopped (and only those) when the
test ends, even when it fails; every wait is bounded.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

LISTENING = re.compile(r"listening on (\d+\.\d+\.\d+\.\d+:\d+)")
TRACEBACK = "Traceback (most recent call last)"


@dataclass
class PeerProcess:
    """One ``condottiere`` process and the lines it printed."""

    args: list[str]
    data: Path
    process: subprocess.Popen[str]
    lines: list[str] = field(default_factory=list)

    @property
    def pid(self) -> int:
        return self.process.pid

    def wait_for(self, pattern: str, timeout: float) -> re.Match[str]:
        """The first printed line matching ``pattern``, waiting up to ``timeout`` seconds."""
        regex = re.compile(pattern)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in list(self.lines):
                match = regex.search(line)
                if match:
                    return match
            if self.process.poll() is not None and not self._reading():
                break
            time.sleep(0.02)
        raise AssertionError(f"no line matching {pattern!r} from {self.args}:\n{self.output()}")

    def type(self, line: str) -> None:
        """Type ``line`` at the peer's console (one started with ``console=True``)."""
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def play_first_moves(self, timeout: float) -> None:
        """Play the seat of a peer at its console: at each turn, the first move it lists,
        until the game is over (bounded); then the console's input ends."""
        answered = 0
        deadline = time.monotonic() + timeout
        while self.process.poll() is None and time.monotonic() < deadline:
            lines = list(self.lines)
            turns = [line for line in lines if line.startswith("moves: ")]
            for line in turns[answered:]:
                with suppress(BrokenPipeError, OSError):
                    self.type(line.removeprefix("moves: ").split(" | ")[0].strip())
            answered = len(turns)
            if any(line.startswith("game over") for line in lines):
                break
            time.sleep(0.05)
        assert self.process.stdin is not None
        with suppress(BrokenPipeError, OSError):
            self.process.stdin.close()

    def address(self, timeout: float = 20) -> str:
        return self.wait_for(LISTENING.pattern, timeout).group(1)

    def output(self) -> str:
        return "".join(self.lines[-60:])

    def result(self) -> dict[str, Any]:
        """The summary the peer wrote at the end of its game."""
        return dict(json.loads((self.data / "last-game.json").read_text()))

    def _reading(self) -> bool:
        return any(t.name == f"read-{self.pid}" and t.is_alive() for t in threading.enumerate())


class Peers:
    """Starts ``condottiere`` peers; :meth:`stop` ends every one still running."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.started: list[PeerProcess] = []

    def start(
        self,
        args: Sequence[str],
        data: Path,
        *,
        wrapper: Sequence[str] = (),
        store: bool = True,
        console: bool = False,
    ) -> PeerProcess:
        """Start ``condottiere ARGS --data DATA`` (without ``--data`` unless ``store``), run
        by ``wrapper`` if given (e.g. ``ip netns exec NAME``, which keeps the PID); with
        ``console``, the test types at its console (:meth:`PeerProcess.type`)."""
        command = [*wrapper, sys.executable, "-m", "condottiere.cli.main", *args]
        if store:
            command += ["--data", str(data)]
        return self.start_program(command, data, args, console=console)

    def start_program(
        self,
        command: Sequence[str],
        data: Path,
        args: Sequence[str] | None = None,
        *,
        console: bool = False,
    ) -> PeerProcess:
        """Start any program beside the peers (a bot in another language), tracked the same
        way; ``args`` is what the test calls it (default: the command)."""
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        process = subprocess.Popen(
            list(command),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.PIPE if console else subprocess.DEVNULL,
            text=True,
            env=env,
        )
        peer = PeerProcess(list(command if args is None else args), data, process)
        self.started.append(peer)
        reader = threading.Thread(
            target=_read, args=(process, peer.lines), name=f"read-{process.pid}", daemon=True
        )
        reader.start()
        return peer

    def wait_all(self, peers: Sequence[PeerProcess], timeout: float) -> None:
        """Wait until every peer has exited with status 0 (bounded)."""
        deadline = time.monotonic() + timeout
        for peer in peers:
            try:
                status = peer.process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                raise AssertionError(
                    f"{peer.args} still running after {timeout} s\n{self.outputs(peers)}"
                ) from None
            assert status == 0, f"{peer.args} exited with {status}\n{self.outputs(peers)}"

    def wait_for_exit(self, peer: PeerProcess, timeout: float) -> int:
        """Wait (bounded) until ``peer`` exits, whatever its status; the status."""
        try:
            return peer.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"{peer.args} still running after {timeout} s") from None

    def outputs(self, peers: Sequence[PeerProcess]) -> str:
        return "\n".join(f"--- {peer.args}:\n{peer.output()}" for peer in peers)

    def kill(self, peer: PeerProcess) -> None:
        """``kill -9`` one peer (it is one this test started)."""
        if peer.process.poll() is None:
            peer.process.send_signal(signal.SIGKILL)
        peer.process.wait(timeout=10)

    def tracebacks(self) -> list[str]:
        """Where a process this test started printed a Python traceback: its own output, or
        the logs in its data directory (its bot peers', and a full-screen client's standard
        error)."""
        found = []
        for peer in self.started:
            for reader in threading.enumerate():
                if reader.name == f"read-{peer.pid}":
                    reader.join(timeout=10)
            if any(TRACEBACK in line for line in list(peer.lines)):
                found.append(f"{peer.args}:\n{peer.output()}")
            logs = [*peer.data.glob("bots/*.log"), peer.data / "client.log"]
            for log in logs:
                text = log.read_text(errors="replace") if log.is_file() else ""
                if TRACEBACK in text:
                    found.append(f"{log}:\n{text[-3000:]}")
        return found

    def stop(self) -> None:
        for peer in self.started:
            if peer.process.poll() is None:
                peer.process.send_signal(signal.SIGKILL)
        for peer in self.started:
            with suppress(subprocess.TimeoutExpired):
                peer.process.wait(timeout=10)


def _read(process: subprocess.Popen[str], lines: list[str]) -> None:
    assert process.stdout is not None
    for line in process.stdout:
        lines.append(line)


@contextmanager
def peers_in(root: Path) -> Iterator[Peers]:
    """Peers started under ``root``, stopped at the end; a test that passes fails all the same
    when one of them printed a traceback (an exception nobody handled, or gRPC's complaint
    of a task cancelled at exit)."""
    peers = Peers(root)
    try:
        yield peers
        peers.stop()
        tracebacks = peers.tracebacks()
        assert not tracebacks, "a process printed a traceback:\n" + "\n".join(tracebacks)
    finally:
        peers.stop()


def start_table(
    peers: Peers, root: Path, edition: str, seats: int, *extra: str, seed: int = 0
) -> list[PeerProcess]:
    """A host and ``seats - 1`` bot peers at its table, every seat played by ``greedy``."""
    host = peers.start(
        [
            "host",
            "--edition",
            edition,
            "--seats",
            str(seats),
            "--strategy",
            "greedy",
            "--name",
            f"{edition}-{seats}",
            "--seed",
            str(seed),
            *extra,
        ],
        root / "seat0",
    )
    address = host.address()
    host.wait_for("hosting|taking up", 20)
    table = [host]
    for seat in range(1, seats):
        table.append(
            peers.start(
                [
                    "bot",
                    "--join",
                    address,
                    "--strategy",
                    "greedy",
                    "--seed",
                    str(seed + seat),
                    *extra,
                ],
                root / f"seat{seat}",
            )
        )
    return table
