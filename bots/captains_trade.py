"""Trading by the victory rule, for the Condottieri Captains bots: which offers to make in the
diplomacy phase, and which to accept.

The game is won by the most provinces, ducats breaking ties (RULES.md 44), so a province is
worth far more than any sum of ducats while turns are left, and once none are, a deal is
worth exactly what it does to who wins. The bots therefore

- **never give a province** unless the deal makes them win the game (the last diplomacy
  phase, when the standings it leaves are final), **nor a captain in play** while turns are
  left unless the deal brings them a province: a captain is what keeps the provinces, and a
  seat that sold its captains for their worth in ducats was conquered (a scripted captain
  buyer won 63% of 4-seat games against three bots that sold);
- **accept** a deal when it leaves them better placed: in the last diplomacy phase, a larger
  share of the victory; before, more provinces, or the same provinces and at least as much
  worth in ducats and cards (:func:`deal_worth`);
- **offer** ducats they can spare for a province of the rival with the most provinces
  (:data:`PRICE_CAP` at most), and the cards the hand limit would make them discard, for the
  listed price, to the rival that stands lowest; in the last diplomacy phase, whatever price
  buys them the victory.

:func:`captain_purchases` lists offers of spare ducats for a rival's captain in play at the
price :func:`deal_worth` puts on him: what the scripted captain buyer
(:mod:`condottiere.bots.captains_buyer`) offers, and what these bots refuse while turns are
left (a captain bought is a blocker gained and one the seller no longer has).

Everything here reads public facts and the seat's own hand, so it plays the same from a seat's
own engine as at an open table, and it relies only on the moves the rules offer: an offer it
composes is made only when the engine would accept it (:func:`offers`).

>>> from condottiere.games.captains import Bundle, Game, Move, Verb
>>> game = Game.setup(2, cities=["milan", "pisa"], hands=[[], []], seed=0, deck=["duchy"],
...                   ducats=[30, 5])
>>> for move in ("done", "done"):
...     game.play(move)
>>> [str(move) for move in offers(game, 0, game.legal_moves())]
['offer 1 give 12d get 1p']
>>> game.play(Move(Verb.OFFER, seat=1, give=Bundle(ducats=16), get=Bundle(provinces=1)))
>>> accepts(game, 1)   # 16 ducats for a province, with turns left: no
False
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from condottiere.games.captains import (
    TURNS,
    Bundle,
    Game,
    IllegalMoveError,
    Move,
    Phase,
    Verb,
)
from condottiere.games.captains.turn import upkeep_cost

__all__ = [
    "PRICE_CAP",
    "PROVINCE_DUCATS",
    "accepts",
    "captain_purchases",
    "deal_worth",
    "final_share",
    "offers",
    "turns_left",
]

PROVINCE_DUCATS = 40
"""What a province is worth in ducats while turns are left: more than any seat holds, since
provinces decide the game and ducats only break ties."""
PRICE_CAP = 12
"""The most the bot pays for a province while turns are left."""
RESERVE = 3
"""Ducats kept beyond the next upkeep when buying."""
SALE_PRICE = 2
"""The listed price of a card (the rules' own offer of a card of the hand)."""


def turns_left(game: Game) -> int:
    """Turns still to begin before the game ends on time (0: the turn under way is the last)."""
    return sum(max(0, TURNS - game.turns[seat]) for seat in game.in_game)


def final_share(provinces: Sequence[int], ducats: Sequence[int], seats: Sequence[int],
                seat: int) -> float:
    """``seat``'s share of the victory if the game ended with these standings (1/k for one of
    k winners tied on provinces and ducats, 0 for a loser)."""
    best = max((provinces[s], ducats[s]) for s in seats)
    winners = [s for s in seats if (provinces[s], ducats[s]) == best]
    return 1 / len(winners) if seat in winners else 0.0


def _after(game: Game, giver: int, receiver: int, give: Bundle,
           get: Bundle) -> tuple[list[int], list[int]]:
    """Provinces and ducats of every seat once ``giver`` hands ``give`` to ``receiver`` for
    ``get``."""
    provinces, ducats = list(game.provinces), list(game.ducats)
    for bundle, source, target in ((give, giver, receiver), (get, receiver, giver)):
        provinces[source] -= bundle.provinces
        provinces[target] += bundle.provinces
        ducats[source] -= bundle.ducats
        ducats[target] += bundle.ducats
    return provinces, ducats


def _cards_worth(game: Game, bundle: Bundle) -> float:
    from condottiere.bots.captains_greedy import card_worth

    return sum(
        card_worth(card) + (game.tfr(card) if game.controller(card) is not None else 0)
        for card in bundle.cards
    )


def deal_worth(game: Game, received: Bundle, given: Bundle) -> float:
    """What a deal is worth, in ducats, to the seat that receives ``received`` for ``given``
    while turns are left: provinces at :data:`PROVINCE_DUCATS`, cards at their use."""
    return (
        PROVINCE_DUCATS * (received.provinces - given.provinces)
        + received.ducats
        - given.ducats
        + _cards_worth(game, received)
        - _cards_worth(game, given)
    )


def _wins_by(game: Game, seat: int, other: int, give: Bundle, get: Bundle) -> bool:
    """Whether ``seat`` giving ``give`` to ``other`` for ``get`` raises its share of a victory
    decided now."""
    seats = game.in_game
    before = final_share(game.provinces, game.ducats, seats, seat)
    provinces, ducats = _after(game, seat, other, give, get)
    return final_share(provinces, ducats, seats, seat) > before


def _good_for(game: Game, seat: int, other: int, give: Bundle, get: Bundle) -> bool:
    """Whether ``seat`` should give ``give`` to ``other`` for ``get``, by the victory rule."""
    if turns_left(game) == 0:
        return _wins_by(game, seat, other, give, get)
    if give.provinces > get.provinces:
        return False
    if get.provinces == give.provinces and any(game.controller(c) is not None for c in give.cards):
        return False  # a captain in play guards the provinces: not sold for ducats or cards
    return deal_worth(game, get, give) >= 0


def accepts(game: Game, seat: int) -> bool:
    """Whether ``seat``, asked to answer the offer under way, should accept it."""
    offer = game.offer
    offerer = game.active
    if offer is None or offerer is None or offer.give is None or offer.get is None:
        return False
    return _good_for(game, seat, offerer, offer.get, offer.give)


def offers(game: Game, seat: int, legal: Sequence[Move]) -> list[Move]:
    """The offers ``seat`` would make now, best first, each one the engine accepts: a province
    bought, then surplus cards sold. Empty outside its diplomacy phase."""
    if game.phase is not Phase.DIPLOMACY or not any(m.verb is Verb.OFFER for m in legal):
        return []
    wanted = _province_offers(game, seat) + _card_sales(game, seat, legal)
    listed = set(legal)
    return [move for move in dict.fromkeys(wanted) if move in listed or _allowed(game, move)]


def _allowed(game: Game, move: Move) -> bool:
    trial = game.copy()
    try:
        trial.play(move)
    except IllegalMoveError:
        return False
    return True


def _rivals(game: Game, seat: int) -> list[int]:
    """The other seats in the game, the best placed first."""
    others = [s for s in game.in_game if s != seat]
    return sorted(others, key=lambda s: (-game.provinces[s], -game.ducats[s], s))


def _province_offers(game: Game, seat: int) -> list[Move]:
    ducats = game.ducats[seat]
    sellers = [s for s in _rivals(game, seat) if game.provinces[s] > 1]
    if turns_left(game) == 0:
        found = []
        for other in sellers:
            for price in range(0, ducats + 1):
                give, get = Bundle(ducats=price), Bundle(provinces=1)
                if _wins_by(game, seat, other, give, get):
                    found.append(Move(Verb.OFFER, seat=other, give=give, get=get))
                    break
        return found
    spare = ducats - upkeep_cost(game, seat) - RESERVE
    price = min(spare, PRICE_CAP)
    if price < 1 or not sellers:
        return []
    return [
        Move(Verb.OFFER, seat=other, give=Bundle(ducats=price), get=Bundle(provinces=1))
        for other in sellers[:1]
    ]


def captain_purchases(game: Game, seat: int, legal: Sequence[Move]) -> list[Move]:
    """Offers of ducats for a rival's captain in play (the captain buyer's; the greedy strategy
    makes none): of each rival, the strongest captain ``seat`` can pay for while keeping its
    present upkeep and :data:`RESERVE`, at the captain's worth by :func:`deal_worth` (cards
    and TFR). A captain bought strengthens the buyer and leaves the seller weaker, or with
    no blocker at all, so a bot trading by the victory rule refuses while turns are left.
    Empty outside ``seat``'s diplomacy phase and in the last one.

    >>> game = Game.setup(3, cities=["genoa", "pisa", "milan"], hands=[[], [], []], seed=0,
    ...                   deck=["duchy"], ducats=[30, 5, 5], turns=[1, 1, 1],
    ...                   armies=[{}, {"gonzaga": ["pikemen"]}, {"bartolomeo-colleoni": []}])
    >>> for move in ("done", "done"):
    ...     game.play(move)
    >>> [str(move) for move in captain_purchases(game, 0, game.legal_moves())]
    ['offer 1 give 13d get gonzaga', 'offer 2 give 12d get bartolomeo-colleoni']
    >>> game.play("offer 1 give 13d get gonzaga")
    >>> accepts(game, 1)
    False
    """
    if game.phase is not Phase.DIPLOMACY or turns_left(game) == 0:
        return []
    if not any(m.verb is Verb.OFFER for m in legal):
        return []
    purse = game.ducats[seat] - upkeep_cost(game, seat) - RESERVE
    found = []
    for other in _rivals(game, seat):
        priced = [
            (math.ceil(_cards_worth(game, Bundle(cards=(captain,)))), captain)
            for captain in game.army(other)
        ]
        affordable = [(price, captain) for price, captain in priced if price <= purse]
        if not affordable:
            continue
        price, captain = max(affordable, key=lambda pair: (game.tfr(pair[1]), -pair[0]))
        found.append(
            Move(Verb.OFFER, seat=other, give=Bundle(ducats=price), get=Bundle(cards=(captain,)))
        )
    return [move for move in found if _allowed(game, move)]


def _card_sales(game: Game, seat: int, legal: Sequence[Move]) -> list[Move]:
    """Listed sales of the cards the hand limit would discard, to the rival placed lowest."""
    from condottiere.bots.captains_greedy import card_worth

    surplus = game.hand_size(seat) - game.hand_limit(seat)
    if surplus <= 0 or turns_left(game) == 0:
        return []
    sales = [
        m for m in legal
        if m.verb is Verb.OFFER and m.give is not None and m.get is not None
        and m.give.cards and not m.give.provinces and m.get == Bundle(ducats=SALE_PRICE)
    ]
    if not sales:
        return []
    buyer = _rivals(game, seat)[-1]
    listed = dict.fromkeys(str(m.give.cards[0]) for m in sales if m.give)  # notation order
    cheapest = sorted(listed, key=card_worth)
    chosen = cheapest[:surplus]
    return [m for card in chosen for m in sales if m.seat == buyer and m.give
            and m.give.cards == (card,)]
