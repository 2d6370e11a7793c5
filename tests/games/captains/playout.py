"""Helpers the Captains tests share: where every card is, random play with checks, and an
independent account of what a move may do to the ducats."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

from condottiere.games.captains import CARDS, DECK, Game, Move, Verb
from condottiere.games.captains.cards import Effect
from condottiere.games.captains.cities import CITIES
from condottiere.games.captains.events import CONTROL_PRICE, LOSS

WHOLE_DECK = Counter(DECK)


def cards_everywhere(game: Game) -> Counter[str]:
    """Every card of an open table: draw pile, discard pile, hands, in play, out of the game."""
    counts = Counter(game.draw_pile) + Counter(game.discard_pile)
    for seat in range(game.players):
        counts.update(game.hand(seat))
        counts.update(game.revenues(seat))
        for captain, attached in game.army(seat).items():
            counts[captain] += 1
            counts.update(attached)
    counts.update(game._out)
    return counts


def income(game: Game, seat: int) -> int:
    """The seed's revenue: a ducat a province and a revenue card, Florence 2 more."""
    city = game.cities[seat]
    florence = 2 if city == "florence" else 0
    return game.provinces[seat] + len(game.revenues(seat)) + florence


def upkeep(game: Game, seat: int) -> int:
    """Half of each captain's TFR rounded up, Savoy 1 less a captain (never below 0)."""
    relief = 1 if game.cities[seat] == "savoy" else 0
    return sum(max(0, -(-game.tfr(c) // 2) - relief) for c in game.army(seat))


def ducats_spent(before: Game, move: Move) -> int:
    """What ``move`` takes out of the game's ducats, by the seed's figures."""
    seat = before.to_act
    assert seat is not None
    if move.verb is Verb.PAY:
        return upkeep(before, seat)
    if move.verb is Verb.EMERGENCY:
        assert move.card is not None
        return CARDS[move.card].force
    if move.verb is Verb.EVENT:
        assert move.card is not None
        effect = CARDS[move.card].effect
        if effect is Effect.CONTROL:
            return CONTROL_PRICE
        if effect is Effect.LOSE_FIVE:
            assert move.seat is not None
            return min(LOSS, before.ducats[move.seat])
    return 0


def check_move(before: Game, after: Game, move: Move) -> None:
    """What one move may change: cards conserved, provinces conserved, ducats changed only
    by revenue and the seed's costs, never below zero."""
    assert cards_everywhere(after) == WHOLE_DECK
    assert all(ducats >= 0 for ducats in after.ducats)
    if before.active is not None:
        assert sum(after.provinces) == sum(before.provinces)
    for seat in range(after.players):
        assert len(after.revenues(seat)) <= after.provinces[seat]
        assert len(after.hand(seat)) == after.hand_size(seat)
    expected = sum(before.ducats) - ducats_spent(before, move)
    if move.verb is Verb.CITY:
        assert move.card is not None
        expected += CITIES[move.card].ducats
    if after.active is not None and after.turns != before.turns:
        expected += income(after, after.active)
    assert sum(after.ducats) == expected, (move, before.ducats, after.ducats)


def play_randomly(
    game: Game, rng: random.Random, check: Callable[[Game, Game, Move], None] | None = None
) -> Game:
    """Play uniformly random legal moves to the end (``check`` after each move)."""
    for _ in range(100_000):
        if game.to_act is None:
            return game
        move = rng.choice(game.legal_moves())
        before = game.copy() if check else game
        game.play(move)
        if check:
            check(before, game, move)
    raise AssertionError("the game did not end")


def all_cities() -> list[str]:
    return list(CITIES)
