"""Chaos games between peer processes on loopback, and their figures.

Each game is a table of bot peers, each its own OS process; at a random moment a random peer
is killed with ``kill -9`` and started again on its data directory, and in every other game
the connections of a random peer are also cut for one to four seconds (its sockets destroyed
over and over with ``ss -K``, which needs root), then left to come back. The tables cycle
through ``zman-duel``, ``zman``, ``ffg`` and ``eurogames`` with two to four seats. For every
game it prints the table, who was killed and when, what was cut, the game's wall time and
whether every peer ended with the same state and record hash and the record verified; then
how many games finished that way. It exits with status 1 unless every game did.

Usage, from the repository root: ``.venv/bin/python -m scripts.chaos [--games 50] [--seed 0]``
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

from tests.peer.chaos import ChaosGame, can_cut, play_chaos_game


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="how many games (default 50)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the chaos (default 0)")
    args = parser.parse_args(argv)
    cutting = can_cut()
    if not cutting:
        print("(not root, or no ss: connections will not be cut, peers only killed)")
    games: list[ChaosGame] = []
    with tempfile.TemporaryDirectory(prefix="chaos-") as folder:
        for index in range(args.games):
            game = play_chaos_game(
                Path(folder) / f"game{index}", index, cut=cutting and index % 2 == 1,
                seed=args.seed,
            )
            games.append(game)
            print(_line(game), flush=True)
            if game.problem:
                print(game.outputs, flush=True)
    good = [g for g in games if g.same_end and g.fair and not g.problem]
    times = sorted(g.seconds for g in games)
    print(f"games: {len(games)}; finished the same on every peer and verified: {len(good)}")
    print(f"restarted mid-game: {sum(g.restarted for g in games)}; killed after the end: "
          f"{sum(not g.restarted for g in games)}; with connections cut: "
          f"{sum(g.cut is not None for g in games)} ({sum(g.sockets_cut for g in games)} "
          f"sockets destroyed)")
    if times:
        print(f"wall time per game: median {statistics.median(times):.1f} s, "
              f"longest {times[-1]:.1f} s, all {sum(times):.0f} s")
    return 0 if len(good) == len(games) else 1


def _line(game: ChaosGame) -> str:
    table = f"#{game.index:<3} {game.edition}-{game.seats}"
    kill = (f"seat {game.killed} killed ({game.kill_when}) at {game.kill_at:4.1f} s, "
            f"move {game.kill_turn}") + (", restarted" if game.restarted else ", after its end")
    cut = ""
    if game.cut is not None:
        cut = (f"; seat {game.cut} cut from move {game.cut_turn} for {game.cut_for:.1f} s "
               f"({game.sockets_cut} sockets)")
    end = "same end, verified" if game.same_end and game.fair else f"FAILED: {game.problem}"
    return f"{table:20} {kill}{cut}; {game.seconds:5.1f} s; {end}"


if __name__ == "__main__":
    sys.exit(main())
