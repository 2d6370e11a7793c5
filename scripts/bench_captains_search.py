"""What a Captains search move costs: playouts a second, and playouts a move at a CPU budget.

The Captains ``ismcts`` bot compares its candidate moves by playouts (``bots/ismcts.py``,
``bots/captains_policy.py``); the more playouts fit in its budget, the less noise in the
comparison. This script collects the positions the ismcts seat meets in 3-seat games of greedy
bots (seat ``seed mod 3`` of game ``seed``, wherever it has more than one candidate), then on
one core:

- plays one playout from a determinised sample of each position by the search's own path
  (:func:`condottiere.bots.ismcts.playout`) and by the plain path (the rules' full
  ``legal_moves()`` before every move, the policy's ``playout_move`` on it), the same samples
  and random numbers for both, and checks that both play the same moves; prints each path's
  microseconds a playout and their ratio (the reference measured in the same run);
- runs the search at ``--cpu-seconds`` of CPU a move on every position and prints the
  playouts a move it fitted (mean and median).

A fingerprint of the playouts' moves is printed too: the same for a checkout before and after
a change that must not alter them (run each checkout's script with its own ``.venv``, and
``PYTHONHASHSEED=0`` for a checkout older than the greedy bots' fixed order of sales, whose
games changed with the hash seed).

Usage: ``nice -n 10 .venv/bin/python scripts/bench_captains_search.py [--games 4]
[--cpu-seconds 0.1] [--repeat 3]``
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence

from condottiere.bots import Budget, IsmctsBot
from condottiere.bots.captains_greedy import CaptainsGreedy
from condottiere.bots.captains_policy import PLAYOUT_MOVES, candidates, playout_move
from condottiere.bots.ismcts import playout
from condottiere.games.captains import Game, Move

SEATS = 3


def positions(games: int) -> list[Game]:
    """Seat views the ismcts seat meets in greedy games, each where it has a choice."""
    found = []
    for seed in range(games):
        game = Game.new(SEATS, seed=seed)
        bots = [CaptainsGreedy(seed * 10 + seat) for seat in range(SEATS)]
        while (seat := game.to_act) is not None:
            if seat == seed % SEATS and len(candidates(game, game.legal_moves())) > 1:
                found.append(game.seen_by(seat))
            game.play(bots[seat].choose(game, seat))
    return found


def plain_play_out(game: Game, rng: random.Random, moves: list[Move]) -> None:
    """The reference: the rules' full list of legal moves before every move."""
    for _ in range(PLAYOUT_MOVES):
        seat = game.to_act
        if seat is None:
            break
        move = playout_move(game, seat, game.legal_moves(), rng)
        moves.append(move)
        game.play(move)


def searched_play_out(game: Game, rng: random.Random, moves: list[Move]) -> None:
    """The search's own playout, its moves recorded."""
    playout(game, rng, moves)


def timed(
    path: Callable[[Game, random.Random, list[Move]], None],
    views: Sequence[Game],
    repeat: int,
) -> tuple[float, list[Move]]:
    """Best-of-``repeat`` CPU microseconds a playout of ``path``, and the moves it played."""
    best = float("inf")
    played: list[Move] = []
    for _ in range(repeat):
        played = []
        samples = [view.determinise(random.Random(index)) for index, view in enumerate(views)]
        started = time.process_time()
        for index, sample in enumerate(samples):
            path(sample, random.Random(10_000 + index), played)
        best = min(best, time.process_time() - started)
    return best / len(views) * 1e6, played


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="greedy games to take positions from")
    parser.add_argument("--cpu-seconds", type=float, default=0.1, help="the search's budget")
    parser.add_argument("--repeat", type=int, default=3, help="timings of each path (best kept)")
    args = parser.parse_args(argv)
    views = positions(args.games)
    plain, plain_moves = timed(plain_play_out, views, args.repeat)
    searched, searched_moves = timed(searched_play_out, views, args.repeat)
    same = [str(move) for move in plain_moves] == [str(move) for move in searched_moves]
    digest = hashlib.sha256("\n".join(map(str, searched_moves)).encode()).hexdigest()[:16]
    print(f"{len(views)} positions of the ismcts seat in {args.games} greedy 3-seat games")
    print(f"  plain playout (full legal_moves() a move)  {plain:8.0f} us")
    print(f"  the search's playout                       {searched:8.0f} us"
          f"   {plain / searched:.2f}x the plain one")
    print(f"  same {len(searched_moves)} moves: {same}; fingerprint {digest}")
    bot = IsmctsBot(seed=1, budget=Budget(cpu_seconds=args.cpu_seconds))
    counts = []
    for view in views:
        seat = view.to_act
        assert seat is not None
        bot.choose(view, seat)
        counts.append(bot.last_iterations)
    print(f"  search at {args.cpu_seconds:g} s of CPU a move: playouts a move mean "
          f"{statistics.mean(counts):.0f}, median {statistics.median(counts):.0f}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
