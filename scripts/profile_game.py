"""Profile a whole game between peer processes: where the peers' CPU goes, by kind of work.

Issue 23 sets a 6-bot ``zman`` game at 6 s median on this 2-core machine; ``bench_net.py``
shows a game runs at about its shuffle chains' floor. This script shows what the peers do
with their time: it plays one game (``bench_net.launch_traced``: a host and greedy bot peers
on loopback), every peer run under the sampling profiler py-spy (all threads, the crypto
worker threads included, sampled while running, not while idle), then sorts every sample by
its innermost frame of the project or of a library into kinds of work:

- **curve arithmetic**: libsodium's scalar multiplications and point operations (the group's
  ristretto255 functions, ``crypto/sodium.py``; PyNaCl's for protocol 4 and earlier);
- **hashing** (Fiat-Shamir challenges, points hashed from card labels, signatures' digests);
- **signatures and sealing** (``cryptography``'s Ed25519, X25519 boxes);
- **proof bookkeeping**: the project's crypto code around the arithmetic (``crypto/``);
- **protobuf**, **gRPC**, **zeroconf**, **event loop** (asyncio), **imports** (start-up);
- **store**: the peer's SQLite log (``peer/store.py``);
- **platform** (``peer/``, ``cli/``), **rules and bots** (``games/``, ``bots/``);
- **other**; and **waiting**: a thread blocked in the kernel that the sampler caught (the
  event loop's ``select``, the worker threads' queue), not work.

It prints the game's wall time, every peer's samples, the share of each kind (of all samples,
and of the work: waiting left out), and the functions that took most samples (``--callers N``:
with their N commonest callers). The samples are of wall time while a thread was not idle: a
thread that waits for the GIL counts as running (waking the event loop from another thread,
``_write_to_self``, shows 3-5% that way), and six peers on two cores stretch every kind alike;
read the shares, and ``bench_net.py``'s CPU seconds for how much. py-spy must be installed
(``pip install py-spy``: it is not a dependency of the project); it needs to read the peers'
memory (root, or ptrace allowed).

The peers keep their compiled modules as an installed copy does (``bench_net.peer_environment``).
A peer that has not exited after ``--timeout`` seconds is stopped with everything it started
(the profiler and its Python), and the script says so.

``--cpu`` measures instead of sampling: every peer runs under ``peer_cpu.py``, which books the
CPU of each libsodium call on its thread's clock, and the script prints the peers' CPU split
into the libsodium calls (beside the same calls made raw on one thread: the counted arithmetic
of ``bench_net.py``), the main threads (event loop, gRPC's Python side, imports) and the rest.
Those are CPU seconds, whatever the load, where the samples' shares lean toward threads that
stay runnable for long (a crypto thread waiting for a core counts as running).

Usage: ``.venv/bin/python scripts/profile_game.py [--seats 6] [--seed 1] [--rate 200]
[--top 15] [--callers 0] [--timeout 600] [--cpu] [--python PYTHON]`` (``--python``: another
checkout's venv, to profile the code before a change)
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

from bench_net import GAME_SECONDS, launch_traced, read_traces, stop_all, warm_bytecode
from floors import floor_cpu_seconds

from condottiere.peer.steps.base import Work

WAITS = ("EpollSelector.select", "Condition.wait", "_worker (concurrent/futures/thread.py:81)",
         "Event.wait", "Thread.run", "_wait_for_tstate_lock")
"""Innermost frames of a thread that waits (py-spy ``--nonblocking`` may sample one as running
while it blocks in the kernel)."""

KINDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("imports", ("<frozen importlib", "_find_and_load", "_call_with_frames_removed")),
    ("curve arithmetic", ("crypto/sodium.py", "nacl/bindings/crypto_scalarmult",
                          "nacl/bindings/crypto_core")),
    ("hashing", ("hashlib", "_hashlib", "blake2")),
    ("signatures and sealing", ("cryptography/", "nacl/public", "nacl/bindings/crypto_box",
                                "nacl/bindings/crypto_sign")),
    ("protobuf", ("google/protobuf",)),
    ("gRPC", ("grpc/", "grpc\\")),
    ("zeroconf", ("zeroconf/",)),
    ("proof bookkeeping", ("(crypto/", "condottiere/crypto/")),
    ("store", ("peer/store.py", "sqlite3")),
    ("rules and bots", ("(games/", "(bots/", "condottiere/games/", "condottiere/bots/")),
    ("platform", ("(peer/", "(cli/", "(interface/", "condottiere/peer/", "condottiere/cli/",
                  "condottiere/interface/")),
    ("event loop", ("asyncio/",)),
)
"""Kinds of work, each by the marks of its files (the first kind a frame matches wins; an
import is counted as an import whatever it runs)."""


def kind_of(stack: Sequence[str]) -> str:
    """The kind of the sample whose frames, outermost first, are ``stack``."""
    if any(stack[-1].startswith(wait) for wait in WAITS):
        return "waiting"
    if any(mark in frame for frame in stack for mark in KINDS[0][1]):
        return KINDS[0][0]
    for frame in reversed(stack):
        for name, marks in KINDS[1:]:
            if any(mark in frame for mark in marks):
                return name
    return "other"


def read_raw(path: Path) -> Iterable[tuple[list[str], int]]:
    """py-spy's raw (collapsed) format: ``frame;frame;... count`` per line."""
    for line in path.read_text(errors="replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if stack and count.isdigit():
            yield stack.split(";"), int(count)


def wrapper(folder: Path, spy: str, rate: int, python: str) -> str:
    """A script that runs its arguments with ``python`` under py-spy, one output per peer."""
    script = folder / "profiled-python"
    script.write_text(
        "#!/bin/sh\n"
        f'exec {spy} record --nonblocking --format raw --rate {rate} '
        f'--output "{folder}/profile.$$.txt" -- {python} "$@"\n'
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return str(script)


def cpu_wrapper(folder: Path, python: str) -> str:
    """A script that runs its arguments with ``python`` under ``peer_cpu.py``, one output per
    peer."""
    script = folder / "booked-python"
    booking = Path(__file__).with_name("peer_cpu.py")
    script.write_text(
        f'#!/bin/sh\nexec {python} {booking} "{folder}/cpu.$$.json" "$@"\n'
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return str(script)


def cpu_split(folder: Path, seats: int, traces: Sequence[Path]) -> None:
    """Print where the peers' CPU went (see ``peer_cpu.py``), beside the floor of the calls."""
    outputs = [json.loads(path.read_text()) for path in sorted(folder.glob("cpu.*.json"))]
    if len(outputs) != seats:
        print(f"only {len(outputs)} of {seats} peers wrote their figures")
    calls: Counter[str] = Counter()
    for output in outputs:
        calls.update(output["calls"])
    process = sum(o["process"] for o in outputs)
    in_calls = sum(sum(o["call_cpu"].values()) for o in outputs)
    main_thread = sum(o["main_thread"] - o["main_call_cpu"] for o in outputs)
    shuffles = sum(
        1 for trace in read_traces(traces) for line in trace
        if line["what"] == "work" and line["kind"] == Work.MAKE_SHUFFLE
    )
    floor = floor_cpu_seconds(calls)
    print(f"{seats}-seat game, {shuffles // seats} shuffle chains: where the peers' CPU went"
          " (CPU seconds, every peer)")
    rows = (
        ("the peers' CPU", process),
        ("in libsodium's calls", in_calls),
        ("  the same calls made raw on one thread", floor),
        ("main threads: event loop, gRPC's Python, imports", main_thread),
        ("the rest: the table's and crypto threads' Python, bots, gRPC's threads",
         process - in_calls - main_thread),
    )
    for name, seconds in rows:
        print(f"  {name:<72} {seconds:7.2f} s {seconds / floor:5.2f}x")
    print(f"  calls: {', '.join(f'{name} {count}' for name, count in calls.most_common())}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seats", type=int, default=6, help="seats (default 6)")
    parser.add_argument("--edition", default="zman", help="edition (default zman)")
    parser.add_argument("--seed", type=int, default=1, help="the host's seed (default 1)")
    parser.add_argument("--rate", type=int, default=200, help="samples a second (default 200)")
    parser.add_argument("--top", type=int, default=15, help="functions listed (default 15)")
    parser.add_argument("--timeout", type=float, default=GAME_SECONDS,
                        help=f"seconds before the peers are stopped (default {GAME_SECONDS})")
    parser.add_argument("--callers", type=int, default=0,
                        help="for each function listed, its N commonest callers (default 0)")
    parser.add_argument("--python", default=sys.executable,
                        help="the Python that runs the peers (default this one)")
    parser.add_argument("--cpu", action="store_true",
                        help="instead of sampling, book every libsodium call's CPU in the"
                        " peers and print where their CPU went (see peer_cpu.py)")
    args = parser.parse_args(argv)
    spy = shutil.which("py-spy") or shutil.which("py-spy", path=os.path.dirname(sys.executable))
    if spy is None and not args.cpu:
        print("py-spy is not installed: pip install py-spy (then run this again)")
        return 2
    warm_bytecode(args.python)
    with tempfile.TemporaryDirectory(prefix="profile-game-") as name:
        folder = Path(name)
        if args.cpu:
            python = cpu_wrapper(folder, args.python)
        else:
            assert spy is not None
            python = wrapper(folder, spy, args.rate, args.python)
        started = time.monotonic()
        processes, traces = launch_traced(
            args.edition, args.seats, args.seed, folder,
            peer_options=["--coin-timeout", "60"], python=python,
        )
        deadline = started + args.timeout
        try:
            for process in processes:
                if process.wait(timeout=max(0.0, deadline - time.monotonic())) != 0:
                    print(f"a peer exited with {process.returncode}; see {folder}/host.log")
                    return 1
        except subprocess.TimeoutExpired:
            print(f"the game did not end within {args.timeout:.0f} s: every peer stopped")
            return 1
        finally:
            stop_all(processes)
        wall = time.monotonic() - started
        if args.cpu:
            cpu_split(folder, args.seats, traces)
            return 0
        time.sleep(1)  # py-spy writes its file once its process has exited
        kinds: Counter[str] = Counter()
        functions: Counter[str] = Counter()
        callers: dict[str, Counter[str]] = {}
        per_peer = []
        for path in sorted(folder.glob("profile.*.txt")):
            samples = 0
            for stack, count in read_raw(path):
                samples += count
                kind = kind_of(stack)
                kinds[kind] += count
                functions[f"{kind}: {stack[-1]}"] += count
                calling = callers.setdefault(f"{kind}: {stack[-1]}", Counter())
                calling[" < ".join(reversed(stack[-5:-1]))] += count
            per_peer.append(samples)
    total = sum(kinds.values())
    if not total:
        print("py-spy recorded nothing (is reading other processes' memory allowed?)")
        return 1
    print(f"{args.seats}-seat {args.edition} game (seed {args.seed}): {wall:.1f} s from launch to "
          f"every peer's exit, under the profiler")
    print(f"samples per peer at {args.rate}/s: {', '.join(str(n) for n in per_peer)} "
          f"({total / args.rate:.1f} s sampled in all, {os.cpu_count()} cores)")
    work = total - kinds["waiting"]
    print(f"{'kind of work':<24} {'share':>6} {'of work':>7} {'sampled s':>9}")
    for name, count in kinds.most_common():
        of_work = "" if name == "waiting" else f"{count / work:.1%}"
        print(f"{name:<24} {count / total:>6.1%} {of_work:>7} {count / args.rate:>9.2f}")
    print(f"\nthe {args.top} functions with most samples (innermost frame):")
    for function, count in functions.most_common(args.top):
        print(f"{count / total:>6.1%}  {function[:100]}")
        for caller, times in callers[function].most_common(args.callers):
            print(f"{'':>8}{times / total:>6.1%} < {caller[:160]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
