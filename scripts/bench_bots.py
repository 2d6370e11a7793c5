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

``--cost`` instead measures what one simulation of the search costs against the engine's raw
move rate, on one core: random-playout moves, ``copy()``, ``legal_moves()``, ``determinise``,
and one whole ISMCTS iteration, in positions met in games of ismcts against greedy bots.

Usage: ``.venv/bin/python scripts/bench_bots.py [--games 400] [--seconds-per-move 0.5]
[--iterations N] [--jobs N] [--only EDITION] [--cost]``
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Sequence
from typing import NamedTuple

from condottiere.bots import Budget, GreedyBot, IsmctsBot
from condottiere.cli.tournament import TournamentSettings, render_report, run_tournament
from condottiere.games.condottiere import Game


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


def positions(edition: str, players: int, games: int) -> list[Game]:
    """Seat views met by the ismcts seat in greedy games, each where that seat must choose."""
    found = []
    for seed in range(games):
        game = Game.new(edition, players, seed=seed)
        bots = [GreedyBot(seed * 10 + seat) for seat in range(players)]
        while game.to_act is not None:
            seat = game.to_act
            if seat == seed % players and len(game.legal_moves()) > 1:
                found.append(game.seen_by(seat))
            game.play(bots[seat].choose(game, seat))
    return found


def per_call(action: object, items: Sequence[object], repeat: int = 3) -> float:
    """Best-of-``repeat`` microseconds per call of ``action`` on each of ``items``."""
    assert callable(action)
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        for item in items:
            action(item)
        best = min(best, time.process_time() - started)
    return best / len(items) * 1e6


def random_move_cost(edition: str, players: int, games: int) -> float:
    """Microseconds per move of whole random games (Game.new included), as bench_engine plays."""
    rng = random.Random(1)
    moves = 0
    started = time.process_time()
    for seed in range(games):
        game = Game.new(edition, players, seed=seed)
        while game.to_act is not None:
            game.play(rng.choice(game.legal_moves()))
            moves += 1
    return (time.process_time() - started) / moves * 1e6


def simulation_cost(edition: str, players: int) -> None:
    """Print what one ISMCTS simulation costs, in engine moves."""
    views = positions(edition, players, games=6)
    rng = random.Random(2)
    samples = [view.determinise(rng) for view in views]
    move = random_move_cost(edition, players, games=60)
    copy = per_call(lambda game: game.copy(), samples)
    legal = per_call(lambda game: (game.copy().legal_moves()), samples) - copy
    sample = per_call(lambda view: view.determinise(rng), views)
    bot = IsmctsBot(seed=3, budget=Budget(iterations=1))
    iterations = 0
    started = time.process_time()
    for view in views:
        root_seat = view.to_act
        assert root_seat is not None
        for _ in range(20):
            bot.choose(view, root_seat)
            iterations += bot.last_iterations
    iteration = (time.process_time() - started) / iterations * 1e6
    print(f"{edition}, {players} seats, {len(views)} positions of the ismcts seat:")
    rows = [
        ("random-playout move (bench_engine's loop)", move),
        ("copy()", copy),
        ("legal_moves()", legal),
        ("determinise()", sample),
        ("one ISMCTS iteration (sample, tree, playout to the game's end, backup)", iteration),
    ]
    for label, cost in rows:
        print(f"  {label:72} {cost:8.1f} us = {cost / move:6.1f} moves")


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
    parser.add_argument(
        "--cost", action="store_true", help="measure one simulation's cost instead of tournaments"
    )
    args = parser.parse_args(argv)
    if args.cost:
        for target in TARGETS:
            if args.only is None or target.edition == args.only:
                simulation_cost(target.edition, len(target.bots))
        return 0
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
