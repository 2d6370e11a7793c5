"""Run simulated tables (tests/simulation) over many seeds, on every core, and check the
table's promises (docs/promises.md).

Each seed draws its game (Condottiere or Captains), its seats (2 to 6), the faults and the
behaviours of dishonest seats and strangers that are on (swarm testing). A progress bar
counts the games; at the end it prints, per promise, how many games broke it and the first
seed that did, the games per CPU-minute, and for every promise broken the shortest
configuration it could shrink the first failure to, with the schedule of that run and the
one command that replays it.

Usage, from the repository root::

    .venv/bin/python -m scripts.simulate --seeds 200 [--start 0] [--jobs N] [--max-seats 3]
    .venv/bin/python -m scripts.simulate --replay 'seed=4 game=captains ...'

It exits with status 1 when a promise was broken.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import time
from collections import Counter
from collections.abc import Iterator

from tests.simulation.config import BEHAVIOURS, FAULTS, STRANGERS, Config
from tests.simulation.shrink import hole_of, shrink
from tests.simulation.world import Run, run


def _one(config: Config) -> tuple[Run, float]:
    started = time.process_time()
    result = run(config)
    result.schedule = result.schedule[-200:]
    return result, time.process_time() - started


def _bar(done: int, total: int, broken: int, width: int = 40) -> str:
    filled = width * done // max(1, total)
    return f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games, {broken} broken"


def _configs(args: argparse.Namespace) -> Iterator[Config]:
    for seed in range(args.start, args.start + args.seeds):
        yield Config.draw(
            seed, games=tuple(args.games.split(",")), max_seats=args.max_seats,
            min_seats=args.min_seats,
            behaviours=tuple(args.behaviours.split(",")) if args.behaviours else (),
            strangers=tuple(args.strangers.split(",")) if args.strangers else (),
            faults=tuple(args.faults.split(",")) if args.faults else (),
        )


def _show(result: Run, out: object = sys.stdout) -> None:
    print(f"  configuration: {result.config}", file=out)  # type: ignore[call-overload]
    print(f"  end: {result.end} after {result.virtual_seconds:.0f} virtual s", file=out)  # type: ignore[call-overload]
    for broken in result.broken:
        print(f"  BROKEN {broken}", file=out)  # type: ignore[call-overload]
    print("  schedule:", file=out)  # type: ignore[call-overload]
    for line in result.schedule[-40:]:
        print(f"    {line}", file=out)  # type: ignore[call-overload]
    print(f"  replay: .venv/bin/python -m scripts.simulate --replay '{result.config}'", file=out)  # type: ignore[call-overload]


def main(argv: list[str] | None = None) -> int:
    if os.environ.get("PYTHONHASHSEED") != "0":  # sets iterate in one order in every run
        os.environ["PYTHONHASHSEED"] = "0"
        arguments = [sys.executable, "-m", "scripts.simulate", *(argv or sys.argv[1:])]
        os.execv(sys.executable, arguments)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=100, help="games to run (default 100)")
    parser.add_argument("--start", type=int, default=0, help="the first seed (default 0)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes")
    parser.add_argument("--max-seats", type=int, default=6, help="most seats (default 6)")
    parser.add_argument("--min-seats", type=int, default=2, help="fewest seats (default 2)")
    parser.add_argument("--games", default="condottiere,captains")
    parser.add_argument("--behaviours", default=",".join(BEHAVIOURS),
                        help="the behaviours seeds draw from (comma-separated; '' for none)")
    parser.add_argument("--strangers", default=",".join(STRANGERS))
    parser.add_argument("--faults", default=",".join(FAULTS))
    parser.add_argument("--no-shrink", action="store_true")
    parser.add_argument("--log", help="append one line per game to this file (its seed, "
                        "configuration, end, broken promises, CPU seconds)")
    parser.add_argument("--replay", help="run one configuration (its text) and show it")
    args = parser.parse_args(argv)
    if args.replay:
        result, cpu = _one(Config.parse(args.replay))
        print(f"{cpu:.1f} CPU s")
        _show(result)
        return 1 if result.broken else 0
    configs = list(_configs(args))
    firsts: dict[str, Run] = {}
    counts: Counter[str] = Counter()
    cpu_total = 0.0
    done = broken_games = 0
    by_seats: Counter[tuple[str, int]] = Counter()
    with multiprocessing.Pool(args.jobs) as pool:
        for result, cpu in pool.imap_unordered(_one, configs):
            done += 1
            cpu_total += cpu
            by_seats[(result.config.game, result.config.seats)] += 1
            promises = {broken.promise for broken in result.broken}
            if args.log:
                with open(args.log, "a") as log:
                    print(json.dumps({
                        "n": done, "config": str(result.config), "end": result.end,
                        "broken": [str(b) for b in result.broken], "cpu": round(cpu, 2),
                        "hole": hole_of(result),
                    }), file=log)
            broken_games += bool(promises)
            for promise in promises:
                counts[promise] += 1
                if promise not in firsts or result.config.seed < firsts[promise].config.seed:
                    firsts[promise] = result
            print(_bar(done, len(configs), broken_games), end="",
                  file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(f"{done} games in {cpu_total / 60:.1f} CPU-minutes: "
          f"{done / max(cpu_total / 60, 1e-9):.1f} games per CPU-minute")
    print("covered: " + ", ".join(f"{g} {s} seats x{n}" for (g, s), n in sorted(by_seats.items())))
    for promise, count in sorted(counts.items()):
        first = firsts[promise]
        print(f"\n{promise}: broken in {count} games; first at seed {first.config.seed}")
        print(f"  {first.broken[0]}")
        shown = first if args.no_shrink else shrink(first)
        print("  shrunk to:" if shown is not first else "  (not shrunk)")
        _show(shown)
    return 1 if counts else 0


if __name__ == "__main__":
    sys.exit(main())
