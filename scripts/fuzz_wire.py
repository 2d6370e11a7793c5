"""Fuzz a running peer through its real gRPC service, and print the figures.

A victim peer hosts a two-seat table; Mallory takes the other seat, plays the deal honestly,
then her seat turns hostile: a server on her address streams the victim fuzzed messages
(random bytes; byte-level and field-level mutations of the table's real entries, signed
again by a stranger or for another table, or not signed again; a few just over the size
limit), while fuzzed calls (random and mutated requests, unknown methods) go to the
victim's own service on fresh connections. It prints, for the messages, how many were sent
and of which kind, how each was refused (by typed reason), how many were harmless copies and
how many were taken in (must be 0), whether the victim's game state and logs changed (must
not), the victim's memory over the run and the rate; for the calls, every status returned.

Then, beyond the wire, a seated cheater: at random points of a finished two-seat game, the
table as one seat kept it is fed entries the other seat signs in its own log, answering the
step awaited, with mutated bodies (``--seated``). Each must be refused or halt the table with
nothing of it applied, or be a proper entry; nothing may crash. It prints how each ended.

It exits with status 1 when any of those promises is broken.

Usage, from the repository root: ``.venv/bin/python -m scripts.fuzz_wire [--messages 100000]
[--calls 20000] [--seated 10000] [--seed 0]``
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

from tests.peer.cheats import fuzz_seated
from tests.peer.tables import Harness
from tests.peer.wire import FuzzRun, run_fuzz


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=100_000, help="fuzzed entries to send")
    parser.add_argument("--calls", type=int, default=20_000, help="fuzzed calls to make")
    parser.add_argument(
        "--seated", type=int, default=10_000, help="entries a seated cheater signs"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the fuzzer")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="fuzz-wire-") as folder:
        run = asyncio.run(
            run_fuzz(Path(folder), args.messages, args.calls, args.seed, progress=_progress)
        )
    broken = _report(run)
    if args.seated:
        broken |= _seated(args.seated, args.seed)
    return broken


def _seated(messages: int, seed: int) -> int:
    harness = Harness("zman-duel", 2, seed=seed)
    harness.play()
    started = time.monotonic()
    run = fuzz_seated(harness, messages, random.Random(seed))
    seconds = time.monotonic() - started
    print(f"seated cheater: {run.sent} entries at {run.probes} points of a game "
          f"in {seconds:.1f} s")
    for outcome, count in sorted(run.outcomes.items()):
        print(f"  {outcome:32} {count}")
    for problem in run.problems[:10]:
        print(f"PROBLEM: {problem}")
    print("verdict: " + ("BROKEN" if run.problems else "nothing crashed, nothing half-applied"))
    return 1 if run.problems else 0


def _progress(run: FuzzRun) -> None:
    print(f"  {run.sent} messages sent, {run.calls} calls made", flush=True)


def _report(run: FuzzRun) -> int:
    refused = sum(run.refused.values())
    print(f"messages sent: {run.sent} in {run.seconds:.1f} s ({run.rate:.0f}/s)")
    for kind, count in run.kinds.most_common():
        print(f"  {kind:16} {count}")
    print(f"refused: {refused}")
    for reason, count in run.refused.most_common():
        print(f"  {reason:16} {count}")
    print(f"copies of entries held (harmless): {run.copies} (expected {run.expected_copies})")
    print(f"taken in as new entries: {run.taken}")
    print(f"victim's game state, logs, refusals: {'unchanged' if run.unchanged else 'CHANGED'}")
    print(f"victim still serving: {'yes' if run.serving else 'NO'}")
    print(f"victim's longest inbox: {run.max_inbox} messages")
    memory = ", ".join(f"{kib / 1024:.0f}" for kib in run.rss)
    print(f"resident memory (MiB) at each tenth of the run: {memory}")
    print(f"calls made: {run.calls}")
    for status, count in run.statuses.most_common():
        print(f"  {status:20} {count}")
    for fault in run.faults[:10]:
        print(f"FAULT: {fault}")
    broken = (
        run.taken != 0
        or run.copies != run.expected_copies
        or refused + run.copies != run.sent
        or not run.unchanged
        or not run.serving
        or bool(run.faults)
    )
    print("verdict: " + ("BROKEN" if broken else "every message refused, nothing changed"))
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
