"""A real terminal for end-to-end tests: a private tmux server (``tmux -L NAME``) with one
window of a fixed size running a command, driven with ``send-keys`` and read with
``capture-pane``.

Every process the window runs, and every process those start (the bot peers), is remembered
by PID and start time while the test runs; :meth:`Terminal.close` stops the tmux server and
then kills each remembered process still alive, and only those. Every wait is bounded.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from pathlib import Path

__all__ = ["Terminal", "describe"]


def _stat(pid: int) -> tuple[int, int] | None:
    """(parent PID, start time) of a process, or None when it is gone or has exited (a zombie
    only waits for its parent, or init, to read its exit status)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    if fields[0] in ("Z", "X"):
        return None
    return int(fields[1]), int(fields[19])


def describe(pid: int) -> str:
    """A process's PID and command line, for a failure message."""
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        command = "(gone)"
    return f"{pid}: {command.strip()}"


class Terminal:
    """One tmux window of ``width`` x ``height`` on a private server."""

    def __init__(self, name: str, root: Path, width: int = 80, height: int = 24) -> None:
        self.name = name
        self.width, self.height = width, height
        self.config = root / "tmux.conf"
        self.config.write_text("set -g status off\nset -g remain-on-exit on\n")
        self.status = root / "exit-status"
        self.processes: dict[int, int] = {}
        """PID -> start time of every process seen in the window (and its descendants)."""

    def _tmux(self, *args: str) -> str:
        result = subprocess.run(
            ["tmux", "-L", self.name, "-f", str(self.config), *args],
            capture_output=True, text=True, timeout=20, check=True,
        )
        return result.stdout

    def run(self, command: Sequence[str], cwd: Path) -> None:
        """Run ``command`` in the window (creating it the first time, else in its place); a
        shell around it writes its exit status to a file (tmux may be slow to reap it)."""
        self.status.unlink(missing_ok=True)
        line = (
            f"cd {shlex.quote(str(cwd))} && {shlex.join(command)};"
            f" echo $? > {shlex.quote(str(self.status))}"
        )
        if not self.processes:
            self._tmux("new-session", "-d", "-s", "main", "-x", str(self.width),
                       "-y", str(self.height), line)
        else:
            self._tmux("respawn-pane", "-k", "-t", "main", line)
        self.remember()

    def remember(self) -> None:
        """Note the window's process and all its descendants now."""
        try:
            pane = int(self._tmux("display-message", "-p", "-t", "main", "#{pane_pid}"))
        except (subprocess.CalledProcessError, ValueError):
            return
        parents: dict[int, list[int]] = {}
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                stat = _stat(int(entry))
                if stat is not None:
                    parents.setdefault(stat[0], []).append(int(entry))
        todo = [pane]
        while todo:
            pid = todo.pop()
            stat = _stat(pid)
            if stat is not None:
                self.processes.setdefault(pid, stat[1])
                todo.extend(parents.get(pid, []))

    def screen(self, styled: bool = False) -> str:
        """The window's text now (``styled``: with the escape sequences of its colours and
        attributes)."""
        self.remember()
        return self._tmux("capture-pane", "-p", *(["-e"] if styled else []), "-t", "main")

    def text(self) -> str:
        """Everything the window shows and has scrolled away, wrapped lines joined."""
        return self._tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "main")

    def resize(self, width: int, height: int) -> None:
        self._tmux("resize-window", "-t", "main", "-x", str(width), "-y", str(height))
        self.width, self.height = width, height

    def keys(self, *keys: str, literal: bool = False) -> None:
        self._tmux("send-keys", "-t", "main", *(["-l"] if literal else []), *keys)

    def wait_for(
        self, check: Callable[[str], bool], what: str, timeout: float = 60, steady: float = 0
    ) -> str:
        """The screen once ``check(screen)`` holds (and the screen has not changed for
        ``steady`` s: a screen tmux reflowed on a resize looks right before the program has
        redrawn it); AssertionError after ``timeout`` s."""
        deadline = time.monotonic() + timeout
        since: tuple[str, float] | None = None
        while True:
            screen = self.screen()
            if not check(screen):
                since = None
            elif since is None or since[0] != screen:
                since = (screen, time.monotonic())
            if since is not None and time.monotonic() - since[1] >= steady:
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"no {what} within {timeout} s; the screen:\n{screen}")
            time.sleep(0.1)

    def exit_status(self) -> int | None:
        """The exit status of the command last run, once it has ended, else None."""
        try:
            return int(self.status.read_text())
        except (OSError, ValueError):
            return None

    def alive(self) -> list[int]:
        """The remembered processes still running."""
        return [pid for pid, start in self.processes.items() if (_stat(pid) or (0, -1))[1] == start]

    def close(self) -> None:
        """Stop the tmux server, then kill every remembered process still running."""
        subprocess.run(["tmux", "-L", self.name, "kill-server"], capture_output=True, timeout=20)
        deadline = time.monotonic() + 5
        while self.alive() and time.monotonic() < deadline:
            time.sleep(0.1)
        for pid in self.alive():
            os.kill(pid, signal.SIGKILL)
