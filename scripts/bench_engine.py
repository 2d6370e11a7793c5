"""Benchmark the rules engines through their public API on one core.

Plays complete random games (``Game.new``, then ``play`` a uniformly random member of
``legal_moves()`` until the game is over) for every Condottiere edition at its smallest, usual
(4) and largest player counts, and Condottieri Captains at 2, 4 and 8 players, and prints moves
per second and games per second. To make the figures
comparable across machines, the same run also times a reference loop that does everything the
benchmark loop does except the engine work (a no-op call standing in for ``legal_moves()`` and
``play()``, plus the same random choice), and prints the engine's cost as a multiple of it.
Times are the process's CPU time, so that other work on the machine disturbs them less.

``--vs PYTHON`` instead compares two engines in one run: this checkout's and the one imported
by ``PYTHON`` (another checkout's venv: the code before a change). The two play the same
4-player zman and 4-player Captains games in turn, round by round (which goes first alternates),
each in a fresh process that runs this script; it prints each round's CPU seconds per move and
the ratio after/before, and the median of the rounds' ratios (above 1: this checkout is slower).

Usage: ``.venv/bin/python scripts/bench_engine.py [--games N] [--game NAME] [--edition ID]
[--seed N] [--vs PYTHON [--rounds N]]``
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from condottiere.games import captains
from condottiere.games.condottiere import EDITIONS, Game

TARGET_MOVES_PER_SECOND = 50_000
TARGET_REFERENCE_LOOPS_PER_MOVE = 18
TARGET_ZMAN_4P_GAMES_PER_SECOND = 300
USUAL_PLAYERS = 4
CAPTAINS_PLAYERS = (2, 4, 8)
"""Condottieri Captains' smallest, usual and largest tables."""


@dataclass(frozen=True)
class Measurement:
    """Totals of one benchmarked configuration."""

    edition: str
    players: int
    games: int
    moves: int
    seconds: float

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.seconds

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds


def player_counts(edition: str) -> list[int]:
    """The smallest, the usual and the largest player count the edition allows."""
    spec = EDITIONS[edition]
    usual = min(max(USUAL_PLAYERS, spec.min_players), spec.max_players)
    return sorted({spec.min_players, usual, spec.max_players})


def bench_games(edition: str, players: int, games: int, seed: int) -> Measurement:
    """Play ``games`` random games and time them, setup included."""
    rng = random.Random(seed)
    moves = 0
    start = time.process_time()
    for game_seed in range(seed, seed + games):
        game = Game.new(edition, players=players, seed=game_seed)
        while game.to_act is not None:
            game.play(rng.choice(game.legal_moves()))
            moves += 1
    return Measurement(edition, players, games, moves, time.process_time() - start)


def bench_captains(players: int, games: int, seed: int) -> Measurement:
    """Play ``games`` random games of Condottieri Captains and time them, setup included."""
    rng = random.Random(seed)
    moves = 0
    start = time.process_time()
    for game_seed in range(seed, seed + games):
        game = captains.Game.new(players, seed=game_seed)
        while game.to_act is not None:
            game.play(rng.choice(game.legal_moves()))
            moves += 1
    return Measurement(captains.GAME_NAME, players, games, moves, time.process_time() - start)


def _no_engine(choices: list[int]) -> list[int]:
    return choices


def bench_reference(moves: int, branching: int, seed: int) -> float:
    """Seconds the benchmark loop takes for ``moves`` moves with the engine calls made no-ops."""
    rng = random.Random(seed)
    choices = list(range(branching))
    start = time.process_time()
    for _ in range(moves):
        _no_engine([rng.choice(_no_engine(choices))])
    return time.process_time() - start


PAIRED_CONFIGS = ("zman-4", "captains-4")
"""What ``--vs`` compares: 4-player zman and 4-player Condottieri Captains."""


def bench_config(config: str, games: int, seed: int) -> dict[str, Any]:
    """One of :data:`PAIRED_CONFIGS` played ``games`` times, with its reference loop, as JSON
    data (and the file the engine was imported from, so a comparison can show which it ran)."""
    if config == "zman-4":
        result = bench_games("zman", USUAL_PLAYERS, games, seed)
        engine_file = sys.modules[Game.__module__].__file__
    else:  # a Captains game is three times as long: a third as many games
        result = bench_captains(USUAL_PLAYERS, max(1, games // 3), seed)
        engine_file = sys.modules[captains.Game.__module__].__file__
    reference = bench_reference(result.moves, branching=10, seed=seed)
    return {"engine": engine_file, "moves": result.moves, "seconds": result.seconds,
            "reference": reference}


def paired(other: str, rounds: int, games: int, seed: int) -> None:
    """This checkout's engine against ``other``'s (a Python that imports the other one), in
    alternating rounds of fresh processes (see the module's docstring)."""
    sides = {"before": other, "after": sys.executable}
    ratios: dict[str, list[float]] = {config: [] for config in PAIRED_CONFIGS}
    loops: dict[tuple[str, str], list[float]] = {}
    for number in range(rounds):
        order = ["before", "after"] if number % 2 == 0 else ["after", "before"]
        for config in PAIRED_CONFIGS:
            per_move = {}
            for side in order:
                out = subprocess.run(
                    [sides[side], __file__, "--child", config, "--games", str(games),
                     "--seed", str(seed)],
                    check=True, capture_output=True, text=True,
                ).stdout
                data = json.loads(out)
                if number == 0:
                    print(f"{side}: {config} engine imported from {data['engine']}")
                per_move[side] = data["seconds"] / data["moves"]
                loops.setdefault((config, side), []).append(
                    data["seconds"] / data["reference"])
            ratio = per_move["after"] / per_move["before"]
            ratios[config].append(ratio)
            print(f"round {number + 1} {config}: before {per_move['before'] * 1e6:.1f} µs/move, "
                  f"after {per_move['after'] * 1e6:.1f} µs/move, after/before {ratio:.3f}",
                  flush=True)
    print()
    for config in PAIRED_CONFIGS:
        median = statistics.median(ratios[config])
        print(f"{config}: {rounds} rounds, median after/before {median:.3f} "
              f"(min {min(ratios[config]):.3f}, max {max(ratios[config]):.3f}); reference loops "
              f"per move, median: before {statistics.median(loops[config, 'before']):.1f}, "
              f"after {statistics.median(loops[config, 'after']):.1f}")


def render_table(rows: Sequence[Sequence[str]]) -> str:
    """Left-aligned first column, right-aligned others, columns separated by two spaces.

    >>> print(render_table([["a", "bb"], ["ccc", "d"]]))
    a    bb
    ccc   d
    """
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [row[0].ljust(widths[0])]
        cells += [cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Random games through the engine's public API, on one core."
    )
    parser.add_argument(
        "--games", type=int, default=200, help="games per edition and player count (default 200)"
    )
    parser.add_argument(
        "--game",
        choices=["condottiere", captains.GAME_NAME],
        help="benchmark only this game (default: both)",
    )
    parser.add_argument(
        "--edition",
        choices=sorted(EDITIONS),
        help="benchmark only this Condottiere edition (default: every edition)",
    )
    parser.add_argument("--seed", type=int, default=1, help="first game seed (default 1)")
    parser.add_argument(
        "--vs",
        metavar="PYTHON",
        help="instead, compare this checkout's engine with the one PYTHON imports (another "
        "checkout's venv), in alternating rounds of 4-player zman and Captains games",
    )
    parser.add_argument(
        "--rounds", type=int, default=9, help="rounds of --vs (default 9)"
    )
    parser.add_argument("--child", choices=PAIRED_CONFIGS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.child:
        print(json.dumps(bench_config(args.child, args.games, args.seed)))
        return 0
    if args.vs:
        paired(args.vs, args.rounds, args.games, args.seed)
        return 0

    if args.game != captains.GAME_NAME:
        _condottiere(args)
    if args.game != "condottiere" and args.edition is None:
        if args.game is None:
            print()
        _captains(args)
    return 0


def _captains(args: argparse.Namespace) -> None:
    results = []
    reference_seconds = 0.0
    for players in CAPTAINS_PLAYERS:
        results.append(bench_captains(players, args.games, args.seed))
        reference_seconds += bench_reference(results[-1].moves, branching=10, seed=args.seed)
    total_moves = sum(result.moves for result in results)
    engine_rate = total_moves / sum(result.seconds for result in results)
    reference_rate = total_moves / reference_seconds
    rows = [["game", "players", "games", "moves", "moves/game", "moves/s", "games/s"]]
    rows += [
        [r.edition, str(r.players), str(r.games), str(r.moves), f"{r.moves / r.games:.0f}",
         f"{r.moves_per_second:,.0f}", f"{r.games_per_second:,.1f}"]
        for r in results
    ]
    print(render_table(rows))
    print()
    print(f"captains: one engine move costs {reference_rate / engine_rate:,.1f} reference loops "
          f"({engine_rate:,.0f} moves/s against {reference_rate:,.0f} loops/s)")


def _condottiere(args: argparse.Namespace) -> None:
    editions = [args.edition] if args.edition else sorted(EDITIONS)
    results = []
    reference_seconds = 0.0
    for edition in editions:
        for players in player_counts(edition):
            results.append(bench_games(edition, players, args.games, args.seed))
            # the reference runs right after each configuration, as many loops as it had moves:
            # a machine that slows down for a while slows both sides of the ratio alike
            reference_seconds += bench_reference(results[-1].moves, branching=10, seed=args.seed)
    total_moves = sum(result.moves for result in results)
    total_seconds = sum(result.seconds for result in results)
    engine_rate = total_moves / total_seconds
    reference_rate = total_moves / reference_seconds

    rows = [["edition", "players", "games", "moves", "moves/game", "moves/s", "games/s"]]
    rows += [
        [
            r.edition,
            str(r.players),
            str(r.games),
            str(r.moves),
            f"{r.moves / r.games:.0f}",
            f"{r.moves_per_second:,.0f}",
            f"{r.games_per_second:,.1f}",
        ]
        for r in results
    ]
    rows.append(["all", "", str(sum(r.games for r in results)), str(total_moves), "",
                 f"{engine_rate:,.0f}", ""])
    print(render_table(rows))
    print()
    print(f"reference (random choice + no-op calls per move): {reference_rate:,.0f} loops/s")
    print(f"engine moves/s as a fraction of the reference: {engine_rate / reference_rate:.4f} "
          f"(one engine move costs {reference_rate / engine_rate:,.0f} reference loops)")
    loops_per_move = reference_rate / engine_rate
    print(f"target one engine move <= {TARGET_REFERENCE_LOOPS_PER_MOVE} reference loops: "
          f"{loops_per_move:.1f}, "
          f"{'met' if loops_per_move <= TARGET_REFERENCE_LOOPS_PER_MOVE else 'NOT met'}")
    print(f"target moves/s >= {TARGET_MOVES_PER_SECOND:,}: "
          f"{'met' if engine_rate >= TARGET_MOVES_PER_SECOND else 'NOT met'}")
    zman_4p = [r for r in results if (r.edition, r.players) == ("zman", USUAL_PLAYERS)]
    if zman_4p:
        games_rate = zman_4p[0].games_per_second
        print(f"target 4-player zman games/s >= {TARGET_ZMAN_4P_GAMES_PER_SECOND}: "
              f"{games_rate:,.1f}, "
              f"{'met' if games_rate >= TARGET_ZMAN_4P_GAMES_PER_SECOND else 'NOT met'}")


if __name__ == "__main__":
    sys.exit(main())
