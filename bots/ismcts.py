"""A strong bot that does not peek: information-set Monte Carlo tree search (ISMCTS), for any
game the platform hosts.

The bot sees what its seat sees and nothing more. Offline it rebuilds its seat's engine from the
table's record (the game's ``observe`` and ``follow``, which turn other seats' dealt cards into
counts); on the network it is handed that engine. Each iteration of the search then

1. **determinises**: samples an open table consistent with the seat's knowledge (the game's
   ``determinise``: hidden hands and draw pile dealt from the unseen cards; or the game
   policy's sampler, which may keep more of what the record shows: Captains keeps a captain
   in every hand proven to hold one);
2. **selects** down one tree shared by every sample (single-observer ISMCTS): at each decision,
   of whichever seat, the moves legal in this sample compete by UCB1 on that seat's own
   rewards, counting a child's chances by how often it was *available*, not by the parent's
   visits; one untried legal move, chosen at random, is added to the tree;
3. **plays out** with the game's fast playout move (:mod:`condottiere.bots.policies`: for
   Condottiere :mod:`condottiere.bots.condottiere_policy`, for Captains
   :mod:`condottiere.bots.captains_policy`), at most the game's number of playout moves;
4. **evaluates** at the end of the game (win shares), or, when a playout is cut, by the game's
   estimate of each seat's chances;
5. **backs up** each seat's reward through the nodes where that seat chose.

Where the game's policy plays a move by rule (Captains: a look at a rival's hand, which an
open sample cannot value, and offers for what a look showed;
:mod:`condottiere.bots.captains_intel`), the bot plays it without searching.

Where the game's policy names a default move (Captains: its greedy move), the root tries it
first and the search departs from it only for a move whose mean reward is clearly higher
(:data:`PRIOR_MARGIN`).

Where the game's policy asks for it (Captains, whose playouts are dear: a few dozen fit in a
tenth of a second), the search grows no tree: it **compares the root's moves on common
samples**, round after round one determinised table and one stream of random numbers for
every candidate, each played out and evaluated as above; the move played is the one that
beats the default most surely, the default kept unless a move's gain over it is clear of
the noise (:data:`PAIRED_CONFIDENCE`, :func:`paired_choice`).
A tree of a few dozen iterations is mostly random moves expanded below the root, which says
more of chance than of the move; paired playouts measure each move's difference on the same
cards.

Nothing in the search knows a game's rules: legal moves, moves played, samples and the seat's
view come from the game's state; the playout move and the rewards from its policy.

The move played is the root's most visited. The budget is a number of iterations (the
default, so a seed replays a game exactly: each game's policy names how many), seconds per
move of wall clock, or of CPU time (:class:`Budget`).

>>> from condottiere.games.condottiere import Game
>>> game = Game.setup("zman", players=2, hands=[["10", "3", "turncoat"], ["5", "6"]], first=1,
...                   battle="Firenze", seed=0)
>>> game.play("play 5")
>>> move = IsmctsBot(seed=1, budget=Budget(iterations=200)).choose(game, 0)
>>> move in game.legal_moves(), str(move) != "pass"  # a pass would give Firenze away
(True, True)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from condottiere.bots.budget import Budget
from condottiere.bots.policies import Searchable, policy_for
from condottiere.bots.strategy import NotYourTurnError

__all__ = ["Budget", "IsmctsBot", "paired_choice", "playout"]

EXPLORATION = 0.7
"""UCB1's exploration constant; rewards lie in [0, 1]."""
Sampler = Callable[[random.Random], Searchable]
"""Draws one open table consistent with the seat's view (its engine's ``determinise``, or the
game policy's sampler)."""

PRIOR_MARGIN = 0.1
"""Where a game's policy names a default move, the search plays another only when that one's
mean reward beats the default's by more than this."""
PAIRED_CONFIDENCE = 1.0
"""For a game searched by comparing its root moves on common samples: the search plays
another move than the default only when its mean gain over the default, sample by sample,
is more than this many standard errors above zero (a few dozen playouts a move leave most
differences within noise, and a move chosen for noise is a worse move than the default)."""


class _Node:
    """One decision in the shared tree: reached by ``move`` of ``seat``."""

    __slots__ = ("availability", "children", "move", "parent", "reward", "seat", "visits")

    def __init__(self, move: Hashable | None, seat: int, parent: _Node | None) -> None:
        self.move = move
        self.seat = seat
        self.parent = parent
        self.children: dict[Hashable, _Node] = {}
        self.visits = 0
        self.availability = 1
        self.reward = 0.0

    def select(self, legal: Sequence[Hashable]) -> _Node:
        """The legal child with the best UCB1 score, each legal child's availability counted."""
        best: _Node | None = None
        best_score = -math.inf
        for move in legal:
            child = self.children[move]
            child.availability += 1
            score = child.reward / child.visits + EXPLORATION * math.sqrt(
                math.log(child.availability) / child.visits
            )
            if score > best_score:
                best, best_score = child, score
        assert best is not None
        return best


class IsmctsBot:
    """Information-set MCTS from its own seat's view; see the module docstring."""

    name = "ismcts"

    def __init__(self, seed: int = 0, budget: Budget | None = None) -> None:
        self.budget = budget
        """None: the game's own number of iterations a move (its policy's ``iterations``)."""
        self._rng = random.Random(seed)
        self._view: Searchable | None = None
        self._header: dict[str, object] = {}
        self._followed = 0
        self._last_event: list[object] = []
        self.last_iterations = 0
        """How many iterations the last search ran (0 when the move was forced)."""
        self._default: Hashable | None = None
        """The policy's default move at the root of the search under way, if it names one."""

    def choose(self, game: Any, seat: int) -> Any:
        """The move the search prefers for ``seat``, from what ``seat`` can see."""
        if game.to_act != seat:
            raise NotYourTurnError(f"seat {seat} is not to act (seat {game.to_act} is)")
        policy = policy_for(game)
        moves = policy.candidates(game, game.legal_moves())
        self.last_iterations = 0
        if len(moves) == 1:
            return moves[0]
        view = self._seat_view(game, seat)
        ruled = None if policy.by_rule is None else policy.by_rule(view, seat, moves)
        if ruled is not None:
            return ruled
        prior = policy.default_move
        self._default = None if prior is None else prior(view, seat, moves)
        budget = self.budget or Budget(iterations=policy.iterations)
        sample = view.determinise if policy.sampler is None else policy.sampler(view)
        if policy.compare_at_root:
            return self._compare(sample, seat, moves, budget)
        root = _Node(None, seat, None)
        clock = _Clock(budget)
        iterations = 0
        while True:
            self._iterate(sample, root)
            iterations += 1
            left = clock.iterations_left(iterations)
            if left <= 0 or _decided(root, left):
                break
        self.last_iterations = iterations
        best = max(root.children.values(), key=lambda child: (child.visits, child.reward))
        kept = None if self._default is None else root.children.get(self._default)
        if (
            kept is not None
            and kept is not best
            and kept.visits
            and best.reward / best.visits < kept.reward / kept.visits + PRIOR_MARGIN
        ):
            best = kept
        assert best.move is not None
        return best.move

    def _compare(
        self, sample_of: Sampler, seat: int, moves: Sequence[Any], budget: Budget
    ) -> Any:
        """Flat Monte Carlo on common samples: every candidate is played on the same
        determinised table and played out with the same random numbers, round after round,
        until the budget is spent; the default move stays unless another beats it with
        confidence (:func:`paired_choice`, rounds completed for every candidate only)."""
        default = self._default
        order = [default, *(m for m in moves if m != default)] if default in moves else [*moves]
        rounds: list[list[float]] = []
        clock = _Clock(budget)
        playouts = 0
        spent = False
        while not spent:
            sample = sample_of(self._rng)
            seed = self._rng.getrandbits(64)
            values: list[float] = []
            for move in order:
                trial = sample.copy()
                trial.play(move)
                values.append(playout(trial, random.Random(seed))[seat])
                playouts += 1
                if clock.iterations_left(playouts) <= 0:
                    spent = True
                    break
            if len(values) == len(order):
                rounds.append(values)
        self.last_iterations = playouts
        confidence = PAIRED_CONFIDENCE if default in moves else None
        return order[paired_choice(rounds, confidence)]

    def _seat_view(self, game: Searchable, seat: int) -> Searchable:
        """``seat``'s own engine: ``game`` itself on the network, else rebuilt from its record."""
        if game.observer == seat:
            return game
        if game.observer is not None:
            raise ValueError(f"seat {seat} cannot play from {game.observer}'s engine")
        record = game.record()
        events = record.pop("events")
        view = self._view
        if (
            view is None
            or view.observer != seat
            or record != self._header
            or len(events) < self._followed
            or (self._followed and events[self._followed - 1] != self._last_event)
        ):
            view = type(game).observe(record, seat)
            self._followed = 0
        view.follow(events[self._followed :])
        self._view, self._header, self._followed = view, record, len(events)
        self._last_event = events[-1] if events else []
        return view

    def _iterate(self, sample_of: Sampler, root: _Node) -> None:
        sample = sample_of(self._rng)
        candidates = policy_for(sample).candidates
        node = root
        while sample.to_act is not None:
            seat = sample.to_act
            legal = candidates(sample, sample.legal_moves())
            untried = [move for move in legal if move not in node.children]
            if untried:
                if node is root and self._default in untried:
                    move = self._default
                else:
                    move = untried[0] if len(untried) == 1 else self._rng.choice(untried)
                child = _Node(move, seat, node)
                node.children[move] = child
                sample.play(move)
                node = child
                break
            node = node.select(legal)
            assert node.move is not None
            sample.play(node.move)
        values = playout(sample, self._rng)
        while node.parent is not None:
            node.visits += 1
            node.reward += values[node.seat]
            node = node.parent


def _decided(root: _Node, iterations_left: float) -> bool:
    """True when no other root move could overtake the most visited with the iterations left."""
    if len(root.children) < 2:
        return False
    first, second = sorted((child.visits for child in root.children.values()), reverse=True)[:2]
    return first - second > iterations_left


class _Clock:
    """What is left of a move's budget, counted in iterations at the pace so far."""

    def __init__(self, budget: Budget) -> None:
        self.limit = budget.iterations
        self.clocks = [
            (clock, limit, clock())
            for clock, limit in ((time.perf_counter, budget.seconds),
                                 (time.process_time, budget.cpu_seconds))
            if limit is not None
        ]

    def iterations_left(self, done: int) -> float:
        """Iterations still to run after ``done`` (0 or less: stop now)."""
        left = math.inf if self.limit is None else self.limit - done
        for clock, seconds, started in self.clocks:
            spent = clock() - started
            if spent >= seconds:
                return 0
            left = min(left, done * (seconds - spent) / max(spent, 1e-9))
        return left


def paired_choice(rounds: Sequence[Sequence[float]], confidence: float | None) -> int:
    """The index of the move to play from ``rounds`` of paired rewards (one value per move
    a round, all on the same sample): with a ``confidence``, the move whose mean gain over
    the move at index 0 (the default) has the highest lower bound, its mean less
    ``confidence`` standard errors, and the default unless that bound is above zero (two
    rounds at least); without, the best mean. No round at all: index 0.

    >>> paired_choice([[0.5, 0.6], [0.4, 0.5], [0.6, 0.7]], 1.0)  # always 0.1 better
    1
    >>> paired_choice([[0.5, 0.9], [0.5, 0.2], [0.5, 0.6]], 1.0)  # better on average: noise
    0
    >>> paired_choice([[0.5, 0.9], [0.5, 0.2], [0.5, 0.6]], None), paired_choice([], None)
    (1, 0)
    """
    if not rounds:
        return 0
    count = len(rounds)
    if confidence is None:
        totals = [sum(column) for column in zip(*rounds, strict=True)]
        return max(range(len(totals)), key=totals.__getitem__)
    if count < 2:
        return 0
    best, best_bound = 0, 0.0
    for index in range(1, len(rounds[0])):
        gains = [values[index] - values[0] for values in rounds]
        mean = sum(gains) / count
        variance = sum((gain - mean) ** 2 for gain in gains) / (count - 1)
        bound = mean - confidence * math.sqrt(variance / count)
        if bound > best_bound:
            best, best_bound = index, bound
    return best


def playout(game: Searchable, rng: random.Random, played: list[Any] | None = None) -> list[float]:
    """Play ``game`` on with its policy's playout move until it ends (at most the policy's
    number of moves), then evaluate it for every seat; each move played is appended to
    ``played`` when given."""
    policy = policy_for(game)
    move_of = policy.playout_move
    for _ in range(policy.playout_moves):
        seat = game.to_act
        if seat is None:
            break
        move = move_of(game, seat, game.legal_moves(), rng)
        if played is not None:
            played.append(move)
        game.play(move)
    return policy.rewards(game)
