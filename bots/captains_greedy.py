"""A greedy strategy for Condottieri Captains: rules of thumb, no look-ahead, public facts
and its own hand only (so it plays the same from its seat's engine as at an open table).

- **City**: the powers that count most toward provinces first (Naples, Genoa, Milan, ...).
- **Mulligan**: keeps a hand with a captain (the proof shows none).
- **Recruit**: the best captain into play for free; revenue cards on provinces; troops and
  traits on its strongest captain while the upkeep stays affordable.
- **Upkeep**: pays if it can, else drops its weakest troop, else its weakest captain.
- **Events**: losses and thefts on the richest opponent, assassination or purchase of the
  strongest enemy captain, New Contract for the best captain it can name; the rest kept.
- **Battle**: attacks a neighbour it can take a province from (no captain there) or whose
  best blocker it outmatches by a margin.
- **Block**: blocks with its strongest captain (a lost battle costs a troop, an unblocked
  attack a province), by emergency defence if it has none and can pay.
- **Battle cards**: the cheapest card that wins; passes when ahead; a negation when behind.
- **Diplomacy**: trades by the victory rule (:mod:`condottiere.bots.captains_trade`): offers
  spare ducats for a rival's province and sells the cards the hand limit would discard; never
  gives a province unless that wins it the game; accepts what leaves it better placed.
- **Hand limit**: discards its least useful card.

>>> from condottiere.games.captains import Game
>>> game = Game.setup(2, cities=["milan", "pisa"], hands=[["gonzaga", "faggiuola"], []],
...                   seed=0, deck=["pikemen"])
>>> str(CaptainsGreedy(seed=1).choose(game, 0))
'captain gonzaga'
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from condottiere.bots.captains_trade import accepts, offers
from condottiere.bots.strategy import NotYourTurnError
from condottiere.games.captains import CARDS, CITIES, Effect, Game, Kind, Move, Phase, Verb
from condottiere.games.captains.battle import fighting_strength
from condottiere.games.captains.turn import neighbours, upkeep_cost

__all__ = ["CaptainsGreedy", "card_worth", "greedy_move"]

CITY_PREFERENCE = (
    "naples",
    "genoa",
    "milan",
    "florence",
    "pisa",
    "venice",
    "papal-states",
    "savoy",
)
ATTACK_MARGIN = 2
"""How much stronger than the best blocker a captain must be for the bot to attack."""
RESERVE = 3
"""Ducats the bot keeps beyond the next upkeep when it strengthens a captain."""


def card_worth(card: str) -> float:
    """What keeping ``card`` is worth, roughly, in ducats."""
    info = CARDS[card]
    if info.kind is Kind.CAPTAIN:
        return 4 + info.force
    if info.kind is Kind.REVENUE:
        return 6
    if info.kind is Kind.BATTLE:
        return 4 if info.effect is Effect.NEGATE else info.force
    return 1 + info.force + (1 if info.kind is Kind.EVENT else 0)


class CaptainsGreedy:
    """The strategy described in the module docstring; deterministic for a seed."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)
        self._offered: tuple[tuple[int, ...], set[Move]] = ((), set())
        """The offers made in the diplomacy phase under way (known by the turns begun)."""

    def choose(self, game: Game, seat: int) -> Move:
        if game.to_act != seat:
            raise NotYourTurnError(f"seat {seat} is not to act (seat {game.to_act} is)")
        moves = game.legal_moves()
        if len(moves) == 1:
            return moves[0]
        if game.phase is Phase.DIPLOMACY:
            return self._offer(game, seat, moves)
        return greedy_move(game, seat, moves, self._rng)

    def _offer(self, game: Game, seat: int, moves: Sequence[Move]) -> Move:
        """The best offer not yet made in this diplomacy phase, else done."""
        when, made = self._offered
        if when != game.turns:
            made = set()
            self._offered = (game.turns, made)
        for offer in offers(game, seat, moves):
            if offer not in made:
                made.add(offer)
                return offer
        return greedy_move(game, seat, moves, self._rng)


def greedy_move(game: Game, seat: int, moves: Sequence[Move], rng: random.Random) -> Move:
    """The greedy move of ``seat`` among ``moves`` (the playout policy of the search, too)."""
    phase = game.phase
    chooser = _BY_PHASE.get(phase)
    move = None if chooser is None else chooser(game, seat, moves)
    return move if move is not None else _quiet(moves, rng)


def _quiet(moves: Sequence[Move], rng: random.Random) -> Move:
    for verb in (Verb.DONE, Verb.PASS, Verb.PAY, Verb.REFUSE):
        for move in moves:
            if move.verb is verb:
                return move
    return rng.choice(list(moves))


def _with(moves: Sequence[Move], verb: Verb) -> list[Move]:
    return [move for move in moves if move.verb is verb]


def _city(game: Game, seat: int, moves: Sequence[Move]) -> Move | None:
    ranked = sorted(_with(moves, Verb.CITY), key=lambda m: CITY_PREFERENCE.index(str(m.card)))
    return ranked[0] if ranked else None


def _mulligan(game: Game, seat: int, moves: Sequence[Move]) -> Move | None:
    keeps = _with(moves, Verb.KEEP)
    return keeps[0] if keeps else None


def _recruit(game: Game, seat: int, moves: Sequence[Move]) -> Move | None:
    revenue = _with(moves, Verb.REVENUE)
    if revenue:
        return revenue[0]
    captains = _with(moves, Verb.CAPTAIN)
    if captains:
        return max(captains, key=lambda m: CARDS[str(m.card)].force)
    army = game.army(seat)
    if not army:
        paid = [
            m
            for m in _with(moves, Verb.EMERGENCY)
            if game.ducats[seat] >= 2 * CARDS[str(m.card)].force
        ]
        if paid:
            return max(paid, key=lambda m: CARDS[str(m.card)].force)
    attach = _with(moves, Verb.ATTACH)
    if attach and game.ducats[seat] >= upkeep_cost(game, seat) + 1 + RESERVE:
        strongest = max(army, key=game.tfr)
        on_best = [m for m in attach if m.captain == strongest]
        return max(on_best or attach, key=lambda m: CARDS[str(m.card)].force)
    return None


def _upkeep(game: Game, seat: int, moves: Sequence[Move]) -> Move | None:
    if any(m.verb is Verb.PAY for m in moves):
        return None
    dismiss = _with(moves, Verb.DISMISS)
    if dismiss:
        return min(dismiss, key=lambda m: CARDS[str(m.card)].force)
    disband = _with(moves, Verb.DISBAND)
    return min(disband, key=lambda m: game.tfr(str(m.captain))) if disband else None


def _events(game: Game, seat: int, moves: Sequence[Move]) -> Move | None:
    best: Move | None = None
    best_score = 0.0
    for move in _with(moves, Verb.EVENT):
        effect = CARDS[str(move.card)].effect
        score = 0.0
        if effect in (Effect.LOSE_FIVE, Effect.STEAL_THREE) and move.seat is not None:
            score = min(game.ducats[move.seat], 5) + game.provinces[move.seat] / 10
        elif effect is Effect.ASSASSINATE and move.captain is not None:
            score = game.tfr(move.captain)
        elif effect is Effect.CONTROL and move.captain is not None:
            score = game.tfr(move.captain) - 2 if game.ducats[seat] >= 10 + RESERVE + 5 else 0
        elif effect is Effect.SEARCH and move.captain is not None:
            score = CARDS[move.captain].force - 1
        elif effect is Effect.NO_ATTACK and move.seat in neighbours(game, seat):
            score = 1 + sum(game.tfr(c) for c in game.army(move.seat)) / 10
        if score > best_score:
            best, best_score = move, score
    return best


def _battle(game: Game, seat: int, moves: Sequence[Move]) -> Move | None:
    city = game.cities[seat]
    bonus = CITIES[city].attack if city else 0
    best: Move | None = None
    best_margin = ATTACK_MARGIN - 1
    for move in _with(moves, Verb.ATTACK):
        assert move.seat is not None and move.captain is not None
        target_city = game.cities[move.seat]
        defence = CITIES[target_city].defence if target_city else 0
        blockers = [game.tfr(c) + defence for c in game.army(move.seat)]
        margin = game.tfr(move.captain) + bonus - max(blockers, default=-100)
        if margin > best_margin:
            best, best_margin = move, margin
    if best is None and len(_with(moves, Verb.DONE)) == 0:
        return _with(moves, Verb.ATTACK)[0]
    return best


def _block(game: Game, seat: int, moves: Sequence[Move]) -> Move | None:
    blocks = _with(moves, Verb.BLOCK)
    if blocks:
        return max(blocks, key=lambda m: game.tfr(str(m.captain)))
    emergency = _with(moves, Verb.EMERGENCY)
    return max(emergency, key=lambda m: CARDS[str(m.card)].force) if emergency else None


def _clash(game: Game, seat: int, moves: Sequence[Move]) -> Move | None:
    battle = game.battle
    assert battle is not None
    other = battle.defender if seat == battle.attacker else battle.attacker
    margin = fighting_strength(game, battle, seat) - fighting_strength(game, battle, other)
    if margin > 0:
        return None
    plays = _with(moves, Verb.PLAY)
    winning = [m for m in plays if CARDS[str(m.card)].force > -margin]
    if winning:
        return min(winning, key=lambda m: CARDS[str(m.card)].force)
    negate = [m for m in plays if CARDS[str(m.card)].effect is Effect.NEGATE]
    if negate and margin < 0:
        return negate[0]
    return None


def _answer(game: Game, seat: int, moves: Sequence[Move]) -> Move | None:
    accept = _with(moves, Verb.ACCEPT)
    return accept[0] if accept and accepts(game, seat) else None


def _hand_limit(game: Game, seat: int, moves: Sequence[Move]) -> Move | None:
    return min(moves, key=lambda m: card_worth(str(m.card)))


_BY_PHASE = {
    Phase.CITY: _city,
    Phase.MULLIGAN: _mulligan,
    Phase.RECRUIT: _recruit,
    Phase.UPKEEP: _upkeep,
    Phase.EVENTS: _events,
    Phase.BATTLE: _battle,
    Phase.BLOCK: _block,
    Phase.CLASH: _clash,
    Phase.ANSWER: _answer,
    Phase.HAND_LIMIT: _hand_limit,
}
