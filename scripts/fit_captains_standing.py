"""Fit the Captains search's estimate (``bots/captains_policy.py``) to who wins.

The search cuts its playouts after a round and scores each seat by its *standing*, a weighted
sum of facts about it (:data:`~condottiere.bots.captains_policy.STANDING_FEATURES`), turned
into win shares by a softmax. This script plays ``--games`` games of greedy bots
(``CaptainsGreedy`` at every seat, ``Game.new`` with seeds from ``--seed`` on: the greedy
playouts the search runs), keeps each position after the seats' cities and hands with
probability ``--keep`` (every seat's features, and the share of the victory each seat went on
to take), and fits each stage's weights (:data:`~condottiere.bots.captains_policy.STAGES`) by
a conditional logit (:mod:`condottiere.bots.fitting`) on the first games, keeping the last
``--held-out`` share of the games to compare, by mean log loss, equal shares, the weights the
checkout ships and the fitted ones. It prints the fitted weights as the source of
``STANDING_WEIGHTS``; the games run on ``--jobs`` processes.

Usage: ``nice -n 10 .venv/bin/python scripts/fit_captains_standing.py [--games 6000]
[--seats 3] [--seed 100000] [--keep 0.08] [--held-out 0.2] [--jobs 2]``
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Sequence
from multiprocessing import Pool

from condottiere.bots.captains_greedy import CaptainsGreedy
from condottiere.bots.captains_policy import (
    STAGES,
    STANDING_FEATURES,
    STANDING_WEIGHTS,
    stage,
    standing_features,
)
from condottiere.bots.fitting import Position, fit, mean_log_loss
from condottiere.games.captains import Game, Phase

Observed = tuple[int, Position]
"""A position kept, with the stage of the game it was in."""


def play(job: tuple[int, int, float]) -> list[Observed]:
    """The positions kept from one greedy game (``seats``, ``seed``), each with probability
    ``keep``."""
    seats, seed, keep = job
    game = Game.new(seats, seed=seed)
    bots = [CaptainsGreedy(seed * 10 + seat) for seat in range(seats)]
    choice = random.Random(seed)
    kept: list[tuple[int, tuple[int, ...], tuple[tuple[float, ...], ...]]] = []
    while (seat := game.to_act) is not None:
        if game.phase not in (Phase.CITY, Phase.MULLIGAN) and choice.random() < keep:
            in_game = game.in_game
            kept.append((stage(game), in_game,
                         tuple(tuple(map(float, standing_features(game, s))) for s in in_game)))
        game.play(bots[seat].choose(game, seat))
    winners = game.winners
    return [
        (when, Position(features, tuple(1 / len(winners) if s in winners else 0.0
                                        for s in in_game)))
        for when, in_game, features in kept
        if winners and any(s in winners for s in in_game)
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6000, help="greedy games to learn from")
    parser.add_argument("--seats", type=int, default=3, help="seats at each table")
    parser.add_argument("--seed", type=int, default=100_000, help="the first game's seed")
    parser.add_argument("--keep", type=float, default=0.08,
                        help="the probability a position is kept")
    parser.add_argument("--held-out", type=float, default=0.2,
                        help="the share of the games kept out of the fit, to compare on")
    parser.add_argument("--jobs", type=int, default=2, help="processes playing the games")
    args = parser.parse_args(argv)
    if args.games < 2 or not 0 < args.held_out < 1 or not 0 < args.keep <= 1:
        parser.error("--games must be at least 2, --held-out and --keep within (0, 1]")
    jobs = [(args.seats, args.seed + index, args.keep) for index in range(args.games)]
    games: list[list[Observed]] = []
    with Pool(args.jobs) as pool:
        for kept in pool.imap(play, jobs, chunksize=20):
            games.append(kept)
            if len(games) % 500 == 0 or len(games) == args.games:
                print(f"  {len(games)}/{args.games} games played", file=sys.stderr, flush=True)
    cut = args.games - max(1, round(args.games * args.held_out))
    print(f"{args.games} greedy {args.seats}-seat games from seed {args.seed}: fitted on "
          f"{cut}, compared on {args.games - cut}; mean log loss (lower is better)")
    fitted = []
    for index, last in enumerate(STAGES):
        train = [position for kept in games[:cut] for when, position in kept if when == index]
        test = [position for kept in games[cut:] for when, position in kept if when == index]
        if not train or not test:
            print(f"too few games: rounds up to {last} left no positions to "
                  f"{'fit' if not train else 'compare'} (raise --games or --keep)",
                  file=sys.stderr)
            return 2
        weights = fit(train, progress=lambda step, loss: print(
            f"    step {step}: {loss:.4f}", file=sys.stderr, flush=True))
        fitted.append(weights)
        equal = sum(math.log(len(p.won)) for p in test) / len(test)
        first = STAGES[index - 1] + 1 if index else 0
        shipped = mean_log_loss(test, STANDING_WEIGHTS[index])
        print(f"  rounds {first}-{last}: {len(train)} positions to fit, {len(test)} to compare:"
              f" equal shares {equal:.4f}, shipped {shipped:.4f},"
              f" fitted {mean_log_loss(test, weights):.4f}")
    print("STANDING_WEIGHTS: tuple[tuple[float, ...], ...] = (")
    for weights in fitted:
        print("    (" + ", ".join(f"{w:.4f}" for w in weights) + "),")
    print(")")
    print("# " + ", ".join(STANDING_FEATURES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
