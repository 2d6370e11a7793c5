"""The win-share targets of the ISMCTS bot, as tournaments against the greedy bot.

Plays, for each target, ``ismcts`` against ``greedy`` bots with the seats rotating (see
``condottiere tournament``), prints the table the tournament command prints, and says whether
the target is met:

=====================  ==========================  ==============
table                  bots                        target
=====================  ==========================  ==============
``zman``, 4 seats      ismcts, greedy x 3          win share 45%
``zman-duel``          ismcts, greedy              win share 70%
``ffg``, 4 seats       ismcts, greedy x 3          win share 40%
``eurogames``, 4 seats ismcts, greedy x 3          win share 40%
=====================  ==========================  ==============

The targets are stated at 0.5 s a move and 400 games; both can be lowered to save time (say
so when quoting the figures). On two cores 400 games at 0.5 s a move take about half an hour
per 4-seat table.

Usage: ``.venv/bin/python scripts/bench_bots.py [--games 400] [--seconds-per-move 0.5]
[--iterations N] [--jobs N] [--only EDITION]``
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import NamedTuple

from bots import Budget
from cli.tournament import TournamentSettings, render_report, run_tournament


class Target(NamedTuple):
    edition: str
    bots: tuple[str, ...]
    win_share: float


TARGETS = (
    Target("zman", ("ismcts", "greedy", "greedy", "greedy"), 0.45),
    Target("zman-duel", ("ismcts", "greedy"), 0.70),
    Target("ffg", ("ismcts", "greedy", "greedy", "greedy"), 0.40),
    Target("eurogames", ("ismcts", "greedy", "greedy", "greedy"), 0.40),
)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="ISMCTS against greedy bots: the win shares.")
    parser.add_argument("--games", type=int, default=400, help="games per table (default 400)")
    parser.add_argument(
        "--seconds-per-move", type=float, default=0.5, help="ismcts's time a move (default 0.5)"
    )
    parser.add_argument(
        "--iterations", type=int, help="ismcts's iterations a move instead of a time budget"
    )
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    parser.add_argument(
        "--only", choices=[target.edition for target in TARGETS], help="one table only"
    )
    args = parser.parse_args(argv)
    budget = (
        Budget(iterations=args.iterations)
        if args.iterations is not None
        else Budget(seconds=args.seconds_per_move)
    )
    for target in TARGETS:
        if args.only is not None and target.edition != args.only:
            continue
        settings = TournamentSettings(
            edition=target.edition,
            bots=target.bots,
            games=args.games,
            seed=args.seed,
            jobs=args.jobs,
            budget=budget,
        )
        report = run_tournament(settings, progress=sys.stderr if sys.stderr.isatty() else None)
        print(render_report(report))
        share = report.lines[0].win_share
        verdict = "met" if share >= target.win_share else "NOT met"
        print(f"target: ismcts win share >= {target.win_share:.0%}: {share:.1%}, {verdict}")
        print(flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
