"""The diplomacy phase (RULES.md items 40-42): offers and their answers, then the hand
limit and the turn's end.

>>> from condottiere.games.captains.game import Game
>>> g = Game.setup(2, cities=["milan", "pisa"], hands=[["pikemen"], []], seed=0, deck=["duchy"])
>>> for move in ("done", "done", "offer 1 give pikemen get 3d", "accept"):
...     g.play(move)
>>> g.ducats, g.known_cards(1)
((18, 7), ('pikemen',))
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from condottiere.games.captains.hands import discard_cards, give, show, take
from condottiere.games.captains.moves import Bundle, Move
from condottiere.games.captains.phase import Phase
from condottiere.games.captains.turn import end_turn, enter_diplomacy

if TYPE_CHECKING:
    from condottiere.games.captains.game import Game

__all__ = ["MAX_OFFERS", "answer", "discard_excess", "enter_hand_limit", "make_offer"]

MAX_OFFERS = 3
"""Offers the active player may make in one diplomacy phase (RULES.md 40)."""


def make_offer(game: Game, seat: int, move: Move) -> None:
    assert move.seat is not None and move.give is not None
    show(game, seat, (card for card in move.give.cards if card not in game._army[seat]))
    game._offers += 1
    game._offer = move
    game._phase = Phase.ANSWER
    game._to_act = move.seat


def answer(game: Game, seat: int, accepted: bool) -> None:
    offer = game._offer
    offerer = game._active
    assert offer is not None and offerer is not None
    assert offer.give is not None and offer.get is not None
    game._offer = None
    if accepted:  # the answer's own words tell it (narration)
        _hand_over(game, offerer, seat, offer.give)
        _hand_over(game, seat, offerer, offer.get)
    enter_diplomacy(game)


def _hand_over(game: Game, giver: int, receiver: int, bundle: Bundle) -> None:
    game._ducats[giver] -= bundle.ducats
    game._ducats[receiver] += bundle.ducats
    for _ in range(bundle.provinces):
        bare = game._provinces[giver] - len(game._revenues[giver])
        game._provinces[giver] -= 1
        game._provinces[receiver] += 1
        if bare <= 0:
            revenue = game._revenues[giver].pop()
            game._revenues[receiver].append(revenue)
    for card in bundle.cards:
        army = game._army[giver]
        if card in army:
            game._army[receiver][card] = army.pop(card)
        else:
            take(game, giver, card)
            give(game, receiver, card)


def enter_hand_limit(game: Game) -> None:
    """The player whose diplomacy phase ends discards down to its hand limit; the other
    seats keep their hands until their own (RULES.md 42)."""
    active = game._active
    assert active is not None
    over = game._sizes[active] > game.hand_limit(active)
    game._over_limit = (active,) if over else ()
    _next_over_limit(game)


def _next_over_limit(game: Game) -> None:
    while game._over_limit:
        seat = game._over_limit[0]
        if game._sizes[seat] > game.hand_limit(seat):
            game._phase = Phase.HAND_LIMIT
            game._to_act = seat
            game._legal = None
            return
        game._over_limit = game._over_limit[1:]
    end_turn(game)


def discard_excess(game: Game, seat: int, card: str) -> None:
    take(game, seat, card)
    discard_cards(game, (card,))
    _next_over_limit(game)
