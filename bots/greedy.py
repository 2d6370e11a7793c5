"""A simple greedy bot: one move of look-ahead, a few rules of thumb, no memory.

- **Opening a battle**: the region that joins the most of its own regions into one connected
  group, preferring to take a region from a rival where that is allowed (ties: the region
  fewest rivals border, then its seeded generator). It never cedes the battle marker.
- **In a battle**: it tries each legal move on a copy of the game and reads the strengths.
  A move that ends the battle with its win is played at once (the cheapest such). Otherwise it
  passes when it leads, and also when the battle looks lost (no move raises its margin over the
  best opponent, or closing the gap would take more than half of what its hand could add).
  When behind, it plays the cheapest card that takes the lead, or failing that the one that
  most raises its margin.
- **Favor**: on the free region that would grow the leader's connected group the most (and its
  own the least); the leader is the rival with the most regions.
- **Discard**: always discards a hand without mercenaries. **Retain** (ffg): its two best cards.

It reads only public facts and its own hand, so it plays the same from its seat's own engine
(``Game.observe``) as at an open table. It plays Condottiere only: Condottieri Captains names
:class:`condottiere.bots.captains_greedy.CaptainsGreedy` its ``greedy``
(:mod:`condottiere.bots.named`).

>>> from condottiere.games.condottiere import Game
>>> game = Game.setup("zman", players=2, hands=[["10", "3"], ["5", "6"]], first=0,
...                   battle="Firenze", seed=0)
>>> str(GreedyBot(seed=1).choose(game, 0))   # behind (0 vs 0): the cheapest card that leads
'play 3'
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import NamedTuple

from condottiere.bots.strategy import battle_ended, moves_for
from condottiere.games.condottiere import ADJACENT, Game, Move
from condottiere.games.condottiere.board import connected_groups
from condottiere.games.condottiere.cards import FLAT_BONUS, MERCENARY_VALUE

__all__ = ["GreedyBot"]

CARD_WORTH: dict[str, int] = {
    "1": 1,
    "2": 2,
    "3": 3,
    "4": 4,
    "5": 5,
    "6": 6,
    "10": 10,
    "heroine": 10,
    "spy": 2,
    "courtesan": 2,
    "drummer": 7,
    "winter": 5,
    "spring": 5,
    "bishop": 6,
    "scarecrow": 1,
    "turncoat": 8,
    "surrender": 8,
}
"""What keeping a card is worth, roughly: to spend the cheapest card that does the job, and to
choose what to retain."""
CHASE_SHARE = 0.5
"""The share of its hand's potential strength the bot will spend to catch up in one battle."""
GAP_CLOSERS = frozenset({"winter", "bishop"})
"""Cards that cut the opponents' strength, so that no gap is hopeless while one is in hand."""

OPEN, WON, NO_WINNER, LOST = "open", "won", "no winner", "lost"


class GreedyBot:
    """The greedy strategy described in the module docstring; deterministic for a seed."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, game: Game, seat: int) -> Move:
        """The greedy move of ``seat`` in the current phase."""
        moves = moves_for(game, seat)
        if len(moves) == 1:
            return moves[0]
        if game.phase == "battle":
            return self._battle_move(game, seat, moves)
        if game.phase == "battle-choice":
            return self._best(moves, lambda move: _opening_score(game, seat, move))
        if game.phase == "favor":
            return self._best(moves, lambda move: _favor_score(game, seat, move))
        if game.phase == "discard":
            return next(move for move in moves if move.verb == "discard")
        if game.phase == "retain":
            return self._best(moves, lambda move: sum(CARD_WORTH[card] for card in move.cards))
        return self._rng.choice(moves)

    def _best(self, moves: list[Move], score: Callable[[Move], float]) -> Move:
        """The highest-scoring move; equal scores are broken by the seeded generator."""
        scored = [(score(move), move) for move in moves]
        top = max(value for value, _ in scored)
        return self._rng.choice([move for value, move in scored if value == top])

    def _battle_move(self, game: Game, seat: int, moves: list[Move]) -> Move:
        margin_now = _margin(game, seat)
        outcomes = {move: _outcome_after(game, seat, move) for move in moves}

        def cheapest(result: str, least_margin: float = float("-inf")) -> Move | None:
            fitting = [
                move
                for move in moves
                if outcomes[move].result == result and outcomes[move].margin > least_margin
            ]
            return self._best(fitting, lambda move: -_cost(move)) if fitting else None

        passing = next(move for move in moves if move.verb == "pass")
        win_now = cheapest(WON)
        if win_now is not None:
            return win_now
        if margin_now > 0 or -margin_now > CHASE_SHARE * _hand_potential(game, seat):
            return passing
        take_lead = cheapest(OPEN, least_margin=0)
        if take_lead is not None:
            return take_lead
        improving = [
            move
            for move in moves
            if outcomes[move].result == OPEN and outcomes[move].margin > margin_now
        ]
        if improving:
            return self._best(improving, lambda move: outcomes[move].margin * 100 - _cost(move))
        return cheapest(NO_WINNER) or passing


def _cost(move: Move) -> int:
    """What a move spends from the hand (0 for a pass)."""
    return CARD_WORTH[move.card] if move.card is not None else 0


def _seats(game: Game) -> range:
    return range(game.players)


def _margin(game: Game, seat: int) -> int:
    """Own strength minus the best opponent's."""
    best_rival = max(game.strength(other) for other in _seats(game) if other != seat)
    return game.strength(seat) - best_rival


class Outcome(NamedTuple):
    """What a move leads to: the battle still ``OPEN`` (with the new margin) or ended."""

    result: str
    margin: int = 0


def _outcome_after(game: Game, seat: int, move: Move) -> Outcome:
    """Play ``move`` on a copy of ``game`` and tell whether the battle ended, and how."""
    after = game.copy()
    after.play(move)
    if after.phase == "over":
        return Outcome(WON if seat in after.winners else LOST)
    if not battle_ended(game, after):
        return Outcome(OPEN, _margin(after, seat))
    result = after.last_battle
    assert result is not None
    if result.winner == seat or (
        result.region is not None and after.control.get(result.region) == seat
    ):  # an owner who keeps his city in a tie has won it too
        return Outcome(WON)
    return Outcome(NO_WINNER if result.winner is None else LOST)


def _hand_potential(game: Game, seat: int) -> float:
    """A generous bound on the strength the hand can still add; unbounded with a gap closer."""
    hand = game.hand(seat)
    if GAP_CLOSERS.intersection(hand):
        return float("inf")
    doubling = 2 if "drummer" in hand or "drummer" in game.row(seat) else 1
    mercenaries = sum(MERCENARY_VALUE.get(card, 0) for card in hand)
    return doubling * mercenaries + sum(FLAT_BONUS.get(card, 0) for card in hand)


def _group_with(game: Game, seat: int, region: str) -> int:
    """Size of the connected group ``seat`` would have around ``region`` if it took it."""
    owned = {place for place, owner in game.control.items() if owner == seat}
    return next(len(group) for group in connected_groups(owned | {region}) if region in group)


def _opening_score(game: Game, seat: int, move: Move) -> float:
    region = move.region
    if move.verb != "battle" or region is None:
        return float("-inf")
    owner = game.control.get(region)
    if owner == seat:
        return float("-inf")
    rivals = sum(1 for place in ADJACENT[region] if game.control.get(place) not in (None, seat))
    taken_from_rival = 1 if owner is not None else 0
    return _group_with(game, seat, region) + taken_from_rival - rivals / 10


def _leader(game: Game, seat: int) -> int:
    """The opponent controlling the most regions (ties: the one with the largest group)."""

    def standing(other: int) -> tuple[int, int]:
        owned = [place for place, owner in game.control.items() if owner == other]
        return len(owned), max((len(group) for group in connected_groups(owned)), default=0)

    return max((other for other in _seats(game) if other != seat), key=standing)


def _favor_score(game: Game, seat: int, move: Move) -> float:
    region = move.region
    if region is None:
        return 0.0
    return _group_with(game, _leader(game, seat), region) - _group_with(game, seat, region) / 2
