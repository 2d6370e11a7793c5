"""How long ``condottiere play`` takes to its first playable screen, in a real terminal.

Issue 32 asks for the first playable screen within 2 s on a quiet machine. This script runs
``condottiere play --edition zman --seats 2 --bots greedy`` (a player and one greedy bot peer,
on loopback, a new data folder each time) in a private tmux server, as
``tests/cli/client/test_terminal.py`` does, reads the window every 20 ms, and prints for each
run: the seconds from the launch to the client's first screen (its headline drawn), to the
first playable screen (the board and the player's hand drawn: the deal is over), and the CPU
seconds every process of the window had used by then (the client and the bot peer it started,
read from ``/proc``). The processes keep their compiled modules, as an installed copy does
(``bench_net.peer_environment``). It prints the machine's load before each run: on a loaded
machine the wall time is the load's, the CPU seconds much less so.

``--compare PYTHON`` times another checkout's venv (the code before a change) as well, run
by run, alternating which goes first, and prints the median of the runs' own ratios.

Usage: ``.venv/bin/python scripts/time_play.py [--runs 5] [--compare PYTHON]`` (tmux needed)
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench_net import BYTECODE, warm_bytecode  # noqa: E402

from tests.cli.client.terminal import Terminal  # noqa: E402

TIMEOUT = 120
"""Seconds a run may take to its first playable screen before it counts as failed."""


class Timing(NamedTuple):
    screen: float
    """Seconds from the launch to the client's first headline."""
    playable: float
    """Seconds from the launch to the board and the hand drawn."""
    cpu: float
    """CPU seconds of every process of the window by then."""


def _cpu(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def time_once(python: str, seed: int) -> Timing:
    """One run of ``condottiere play`` by ``python`` to its first playable screen."""
    with tempfile.TemporaryDirectory(prefix="time-play-") as name:
        folder = Path(name)
        terminal = Terminal(f"time-play-{os.getpid()}-{uuid.uuid4().hex[:8]}", folder)
        command = [
            "env", "-u", "CONDOTTIERE_INTERFACE", "-u", "PYTHONDONTWRITEBYTECODE",
            f"PYTHONPYCACHEPREFIX={BYTECODE}", python, "-m", "condottiere.cli.main", "play",
            "--edition", "zman", "--seats", "2", "--bots", "greedy", "--player", "ada",
            "--seed", str(seed), "--data", str(folder / "ada"),
        ]
        try:
            started = time.monotonic()
            terminal.run(command, REPO)
            screen_at: float | None = None
            while time.monotonic() - started < TIMEOUT:
                screen = terminal.screen()
                now = time.monotonic() - started
                if screen_at is None and screen.strip():
                    screen_at = now
                if any(line.startswith(" Hand (") for line in screen.splitlines()):
                    cpu = sum(_cpu(pid) for pid in terminal.alive())
                    return Timing(screen_at or now, now, cpu)
                time.sleep(0.02)
            raise RuntimeError(f"no playable screen within {TIMEOUT} s:\n{terminal.screen()}")
        finally:
            terminal.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs (default 5)")
    parser.add_argument("--compare", metavar="PYTHON",
                        help="time the peers of PYTHON (another checkout's venv) as well")
    args = parser.parse_args(argv)
    if shutil.which("tmux") is None:
        print("tmux is not installed: no terminal to time `condottiere play` in")
        return 2
    sides = [("after", sys.executable)]
    if args.compare:
        sides.insert(0, ("before", args.compare))
    for _, python in sides:
        warm_bytecode(python)
    timings: dict[str, list[Timing]] = {label: [] for label, _ in sides}
    print(f"{os.cpu_count()} cores; condottiere play, 2 seats (a greedy bot peer), zman")
    print(f"{'run':>3} {'side':>6} {'load':>5} {'screen s':>9} {'playable s':>10} {'cpu s':>6}")
    for run in range(args.runs):
        for label, python in sides if run % 2 == 0 else sides[::-1]:
            load = os.getloadavg()[0]
            timing = time_once(python, seed=run + 1)
            timings[label].append(timing)
            print(f"{run + 1:>3} {label:>6} {load:>5.2f} {timing.screen:>9.2f}"
                  f" {timing.playable:>10.2f} {timing.cpu:>6.2f}", flush=True)
    for label, runs in timings.items():
        print(f"median {label:>6}: first screen {statistics.median(t.screen for t in runs):.2f} s,"
              f" playable {statistics.median(t.playable for t in runs):.2f} s,"
              f" CPU {statistics.median(t.cpu for t in runs):.2f} s")
    if args.compare:
        before, after = timings["before"], timings["after"]
        for what in ("playable", "cpu"):
            ratio = statistics.median(
                getattr(a, what) / getattr(b, what) for a, b in zip(after, before, strict=True)
            )
            print(f"after / before, {what}: {ratio:.2f} (median of the runs' ratios)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
