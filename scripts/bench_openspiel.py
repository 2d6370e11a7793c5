"""Our ``ismcts`` head to head against OpenSpiel's ISMCTS bot, at equal think time, in both games.

Two-seat games of each game as OpenSpiel games (``condottiere.openspiel``), seats alternating
from game to game: one seat is our :class:`~condottiere.bots.IsmctsBot` (its seat's own view,
rebuilt from the table's record), the other OpenSpiel's ``ISMCTSBot`` (the Python one of
``open_spiel.python.algorithms.ismcts``, random rollouts as its evaluator, resampling through
``State.resample_from_infostate``), each given the same wall-clock seconds a move. Chance is
sampled from the state's own chance outcomes with the game's seed. A move of ours that is not
an OpenSpiel action (a Captains offer of the bot's own composing) is replaced by done.

Printed per game: our win share with a 95% interval (Wilson's, sound at 100%), the games,
and the simulations or iterations each bot ran a move on average.

    .venv/bin/python scripts/bench_openspiel.py --games 20 --seconds 0.2

Needs the optional extra: ``pip install -e '.[openspiel]'``.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found,unused-ignore]
from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-not-found,unused-ignore]

import condottiere.openspiel  # noqa: F401  (registers the games)
from condottiere.bots import Budget, IsmctsBot

Z_95 = 1.959964
MAX_EXTRA_RUNS = 50
"""Simulations OpenSpiel's bot may run past its time to visit a move legal at the root."""
GAMES = {
    "condottiere": "condottiere(edition=zman,players=2)",
    "captains": "condottieri_captains(players=2)",
}


class TimedIsmcts(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTS bot, searching for ``seconds`` of wall clock instead of a fixed
    number of simulations."""

    def __init__(self, game: Any, seconds: float, seed: int) -> None:
        rng = np.random.RandomState(seed)
        super().__init__(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, max_simulations=1,
                         random_state=rng, allow_inconsistent_action_sets=True)
        self.seconds = seconds
        self.simulations = 0

    def run_search(self, state: Any) -> Any:
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        deadline = time.perf_counter() + self.seconds
        runs = 0
        while True:
            self.run_simulation(self.sample_root_state(state))
            runs += 1
            if time.perf_counter() < deadline:
                continue
            # At least one visit of a move legal here (a sample may have tried another).
            root = self.filter_illegals(self._root_node, legal)
            if root.total_visits > 0 or runs >= MAX_EXTRA_RUNS:
                break
        self.simulations += runs
        if root.total_visits == 0:
            return [(action, 1 / len(legal)) for action in legal]
        return self.get_final_policy(state, root)


def play(name: str, index: int, seconds: float) -> tuple[float, int, int, int, int]:
    """One game; our share, and each bot's moves and searches (ours: iterations)."""
    game = pyspiel.load_game(GAMES[name])
    ours_seat = index % 2
    ours = IsmctsBot(seed=index, budget=Budget(seconds=seconds))
    theirs = TimedIsmcts(game, seconds, seed=index)
    rng = random.Random(index)
    state = game.new_initial_state()
    our_moves = our_iterations = their_moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
            continue
        seat = state.current_player()
        if seat == ours_seat:
            move = ours.choose(state.engine, seat)
            our_moves += 1
            our_iterations += ours.last_iterations
            try:
                action = game.spec.action_of(str(move))
            except KeyError:
                action = game.spec.action_of("done")
        else:
            action = theirs.step(state)
            their_moves += 1
        state.apply_action(action)
    share = state.returns()[ours_seat]
    return share, our_moves, our_iterations, their_moves, theirs.simulations


def wilson(share: float, games: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a win share over ``games`` (sound at 0% and 100%)."""
    centre = (share + Z_95**2 / (2 * games)) / (1 + Z_95**2 / games)
    margin = Z_95 * math.sqrt(share * (1 - share) / games + Z_95**2 / (4 * games**2)) / (
        1 + Z_95**2 / games
    )
    return centre - margin, centre + margin


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=0.2)
    parser.add_argument("--game", choices=sorted(GAMES), action="append")
    args = parser.parse_args()
    for name in args.game or sorted(GAMES):
        shares = []
        totals = [0, 0, 0, 0]
        started = time.perf_counter()
        for index in range(args.games):
            share, *counts = play(name, index, args.seconds)
            shares.append(share)
            totals = [a + b for a, b in zip(totals, counts, strict=True)]
        games = len(shares)
        mean = sum(shares) / games
        low, high = wilson(mean, games)
        our_moves, our_iterations, their_moves, their_simulations = totals
        print(
            f"{name}: ismcts vs OpenSpiel ISMCTSBot, 2 seats, {games} games, "
            f"{args.seconds:g} s a move each: our win share {mean:.1%} "
            f"[{low:.1%}, {high:.1%}]; "
            f"iterations a move: ours {our_iterations / max(our_moves, 1):.1f}, "
            f"OpenSpiel's {their_simulations / max(their_moves, 1):.1f}; "
            f"{time.perf_counter() - started:.0f} s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
