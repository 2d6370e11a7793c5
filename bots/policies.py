"""What the search (:mod:`condottiere.bots.ismcts`) needs of each game beyond the game
interface: how to play a playout move fast, how to score a position, and how long a playout
may run. One :class:`Policy` per game, found by the name of the game whose rules made the state
(:func:`~condottiere.interface.game_of`).

>>> from condottiere.games.captains import Game
>>> policy_for(Game.new(2, seed=1)).playout_moves
30
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, Self

from condottiere.bots import captains_intel, captains_policy, condottiere_policy
from condottiere.interface import game_of

__all__ = ["Policy", "Searchable", "policy_for"]


class Searchable(Protocol):
    """A game state the search can work on: the game interface's play and legal moves, plus
    a seat's own engine rebuilt from a record and a determinised sample of it."""

    observer: int | None

    @property
    def players(self) -> int: ...

    @property
    def to_act(self) -> int | None: ...

    def legal_moves(self) -> Sequence[Any]: ...

    def play(self, move: Any) -> None: ...

    def record(self) -> dict[str, Any]: ...

    @classmethod
    def observe(cls, record: Any, seat: int) -> Self: ...

    def follow(self, events: Any) -> None: ...

    def determinise(self, rng: random.Random) -> Self: ...

    def copy(self) -> Self: ...


@dataclass(frozen=True)
class Policy:
    """One game's playout move, rewards in [0, 1] per seat, playout length, the search's
    default number of iterations a move, and the moves worth searching among the legal ones
    (all of them unless the game says otherwise)."""

    playout_move: Callable[[Any, int, Sequence[Any], random.Random], Any]
    rewards: Callable[[Any], list[float]]
    playout_moves: int
    iterations: int
    """Iterations a move when the bot is given no budget (a seed then replays a game)."""
    candidates: Callable[[Any, Sequence[Any]], Sequence[Any]] = lambda game, legal: legal
    default_move: Callable[[Any, int, Sequence[Any]], Any] | None = None
    """The move the game's rules of thumb would play, which the search keeps unless another
    does clearly better; None: no default."""
    sampler: Callable[[Any], Callable[[random.Random], Any]] | None = None
    """How to sample open tables from a seat's engine (given that engine, the function that
    draws one sample from a random stream); None: the engine's own ``determinise``."""
    by_rule: Callable[[Any, int, Sequence[Any]], Any | None] | None = None
    """A move played by rule before any search, given the seat's own engine, the seat and the
    candidates (or None: search): what a search over determinised tables cannot value, such as
    looking at a hidden hand. None: always search."""
    compare_at_root: bool = False
    """Search by comparing the root's moves on common samples (flat Monte Carlo, every move
    played out on the same determinised table with the same random numbers) rather than by
    growing a tree: for a game whose budget buys too few playouts for a tree below the root."""


POLICIES: dict[str, Policy] = {
    "condottiere": Policy(
        condottiere_policy.playout_move,
        condottiere_policy.rewards,
        condottiere_policy.PLAYOUT_MOVES,
        condottiere_policy.ITERATIONS,
    ),
    "captains": Policy(
        captains_policy.playout_move,
        captains_policy.rewards,
        captains_policy.PLAYOUT_MOVES,
        captains_policy.ITERATIONS,
        captains_policy.candidates,
        captains_policy.default_move,
        captains_policy.sampler,
        captains_intel.by_rule,
        compare_at_root=True,
    ),
}
"""Each game's policy, by the game's name."""


def policy_for(game: object) -> Policy:
    """The policy of ``game``'s game; ValueError for a game the search does not know."""
    try:
        rules = game_of(game)
    except ValueError as exc:
        raise ValueError(f"the search has no policy for {type(game).__name__}: {exc}") from None
    policy = POLICIES.get(rules.name)
    if policy is None:
        raise ValueError(f"the search has no policy for {rules.title}")
    return policy
