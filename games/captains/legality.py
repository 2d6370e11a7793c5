"""The legal moves of the seat to act, and why a move is not legal.

An engine lists the moves as far as it can know them: from its own hand (or any hand it
sees) exactly; for a hand it cannot see, every card that hand may hold. An offer is legal
whenever it can be met, whether or not it is among the offers listed (:func:`offer_ok`).

>>> from condottiere.games.captains.game import Game
>>> g = Game.setup(2, cities=["milan", "pisa"], hands=[["gonzaga", "pikemen"], []], seed=0,
...                deck=["duchy"])
>>> [str(m) for m in g.legal_moves()]
['captain gonzaga', 'emergency gonzaga', 'revenue duchy', 'done']
>>> why_illegal(g, Move.parse("attach pikemen gonzaga"), 0)
'Gonzaga is not in play for seat 0'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING

from condottiere.games.captains.battle import losable_troops
from condottiere.games.captains.cards import (
    CAPTAINS,
    CARDS,
    DECK_COUNTS,
    FORCE,
    KIND,
    ORDER,
    Effect,
    Kind,
    Side,
    card_name,
    ducats,
    sort_cards,
)
from condottiere.games.captains.cities import CITIES
from condottiere.games.captains.events import CONTROL_PRICE
from condottiere.games.captains.hands import could_lack_captain, possible_cards, seen
from condottiere.games.captains.moves import Bundle, IllegalMoveError, Move, Verb
from condottiere.games.captains.phase import Phase
from condottiere.games.captains.turn import neighbours, upkeep_cost

if TYPE_CHECKING:
    from condottiere.games.captains.game import Game

__all__ = ["check_revealed", "legal_moves", "offer_ok", "why_illegal"]

DONE = Move(Verb.DONE)
PASS = Move(Verb.PASS)
PAY = Move(Verb.PAY)
NO_BLOCK = Move(Verb.NO_BLOCK)
ACCEPT, REFUSE = Move(Verb.ACCEPT), Move(Verb.REFUSE)
MULLIGAN, KEEP = Move(Verb.MULLIGAN), Move(Verb.KEEP)
_move = cache(Move)
"""A move of the lists, made once (a move is a value: the lists share it)."""
SALE_PRICE = 2
"""The listed offers sell a card of the hand for this many ducats..."""
PROVINCE_PRICE = 6
"""... and buy or sell a province for this many."""


def legal_moves(game: Game) -> list[Move]:
    seat = game._to_act
    if seat is None:
        return []
    return _BY_PHASE[game._phase](game, seat)


def _city(game: Game, seat: int) -> list[Move]:
    taken = set(game._city)
    return [_move(Verb.CITY, city) for city in CITIES if city not in taken]


def _mulligan(game: Game, seat: int) -> list[Move]:
    cards = possible_cards(game, seat)
    moves = [KEEP] if any(captain in cards for captain in CAPTAINS) else []
    if could_lack_captain(game, seat):
        moves.append(MULLIGAN)
    return moves


def _in_hand(game: Game, seat: int, wanted: frozenset[str]) -> list[str]:
    """The cards of ``wanted`` (a set of :func:`_of_kinds`) ``seat`` may hold, each once, in
    notation order."""
    cards = [card for card in possible_cards(game, seat) if card in wanted]
    cards.sort(key=ORDER.__getitem__)
    return cards


def _of_kinds(*kinds: Kind) -> frozenset[str]:
    """Every card of ``kinds`` (a set of ids: a card's kind is looked up by hashing its id)."""
    return frozenset(card for card, kind in KIND.items() if kind in kinds)


_CAPTAIN = _of_kinds(Kind.CAPTAIN)
_ATTACHABLE = _of_kinds(Kind.TROOP, Kind.TRAIT)
_REVENUE = _of_kinds(Kind.REVENUE)
_EVENT = _of_kinds(Kind.EVENT)
_BATTLE = _of_kinds(Kind.BATTLE)


def _recruit(game: Game, seat: int) -> list[Move]:
    moves = []
    army = game._army[seat]
    ducats = game._ducats[seat]
    for captain in _in_hand(game, seat, _CAPTAIN):
        if not game._recruited:
            moves.append(_move(Verb.CAPTAIN, captain))
        if ducats >= FORCE[captain]:
            moves.append(_move(Verb.EMERGENCY, captain))
    for card in _in_hand(game, seat, _ATTACHABLE):
        moves += [_move(Verb.ATTACH, card, captain) for captain in army]
    if game._provinces[seat] > len(game._revenues[seat]):
        moves += [_move(Verb.REVENUE, card) for card in _in_hand(game, seat, _REVENUE)]
    moves.append(DONE)
    return moves


def _upkeep(game: Game, seat: int) -> list[Move]:
    moves = [PAY] if game._ducats[seat] >= upkeep_cost(game, seat) else []
    for captain, cards in game._army[seat].items():
        for troop in sort_cards(set(cards)):
            if KIND[troop] is Kind.TROOP:
                moves.append(_move(Verb.DISMISS, troop, captain))
    moves += [_move(Verb.DISBAND, captain=captain) for captain in game._army[seat]]
    return moves


def _enemy_captains(game: Game, seat: int) -> list[str]:
    return [c for other, army in enumerate(game._army) if other != seat for c in army]


def searchable(game: Game, seat: int) -> list[str]:
    """The captains New Contract may name: in sight nowhere (RULES.md 25)."""
    counts = seen(game)
    return [
        c
        for c in CAPTAINS
        if counts[c]
        - (game._pile[c] if game._pile is not None else 0)
        - _hidden_known(game, c, seat)
        == 0
    ]


def _hidden_known(game: Game, card: str, seat: int) -> int:
    """Copies of ``card`` known in the hands of seats other than ``seat`` (they are in sight
    of this engine, not of the table, so they do not stop a search)."""
    return sum(hand[card] for other, hand in enumerate(game._hands) if other != seat)


def _events(game: Game, seat: int) -> list[Move]:
    others = [other for other in game.in_game if other != seat]
    enemies = _enemy_captains(game, seat)
    moves = []
    for card in _in_hand(game, seat, _EVENT):
        effect = CARDS[card].effect
        if effect in (Effect.LOSE_FIVE, Effect.STEAL_THREE, Effect.NO_ATTACK, Effect.LOOK):
            moves += [_move(Verb.EVENT, card, seat=other) for other in others]
        elif effect is Effect.SEARCH:
            moves += [_move(Verb.EVENT, card, captain) for captain in searchable(game, seat)]
        elif effect is not Effect.CONTROL or game._ducats[seat] >= CONTROL_PRICE:
            moves += [_move(Verb.EVENT, card, captain) for captain in enemies]
    moves.append(DONE)
    return moves


def _battle(game: Game, seat: int) -> list[Move]:
    targets = neighbours(game, seat)
    moves = [
        _move(Verb.ATTACK, captain=captain, seat=target)
        for captain in game._army[seat]
        if captain not in game._attacked
        for target in targets
    ]
    if not _must_still_attack(game, seat):
        moves.append(DONE)
    return moves


def _must_still_attack(game: Game, seat: int) -> list[str]:
    return [c for c in game._army[seat] if c in game._must_attack and c not in game._attacked]


def _block(game: Game, seat: int) -> list[Move]:
    army = game._army[seat]
    forced = [c for c in army if c in game._must_block]
    moves = [_move(Verb.BLOCK, captain=c) for c in (forced[:1] or army)]
    if not forced:
        moves.append(NO_BLOCK)
    ducats = game._ducats[seat]
    moves += [
        _move(Verb.EMERGENCY, captain)
        for captain in _in_hand(game, seat, _CAPTAIN)
        if ducats >= FORCE[captain]
    ]
    return moves


def _clash(game: Game, seat: int) -> list[Move]:
    battle = game._battle
    assert battle is not None
    banned = Side.DEFENDER if seat == battle.attacker else Side.ATTACKER
    cards = _in_hand(game, seat, _BATTLE)
    return [_move(Verb.PLAY, card) for card in cards if CARDS[card].side is not banned] + [PASS]


def _diplomacy(game: Game, seat: int) -> list[Move]:
    moves = []
    cards = _in_hand(game, seat, _ANY)
    for other in game.in_game:
        if other == seat:
            continue
        if game._ducats[other] >= SALE_PRICE:
            moves += [_sale(other, card) for card in cards]
        if game._ducats[seat] >= PROVINCE_PRICE and game._provinces[other] > 1:
            moves.append(_province_offer(other, buying=True))
        if game._ducats[other] >= PROVINCE_PRICE and game._provinces[seat] > 1:
            moves.append(_province_offer(other, buying=False))
    moves.append(DONE)
    return moves


_ANY = _of_kinds(*Kind)
_PRICE = Bundle(ducats=SALE_PRICE)
_PROVINCE = Bundle(provinces=1)
_GOLD = Bundle(ducats=PROVINCE_PRICE)


@cache
def _sale(other: int, card: str) -> Move:
    """The listed offer to ``other`` of ``card`` for :data:`SALE_PRICE` ducats."""
    return Move(Verb.OFFER, seat=other, give=Bundle(cards=(card,)), get=_PRICE)


@cache
def _province_offer(other: int, *, buying: bool) -> Move:
    give, get = (_GOLD, _PROVINCE) if buying else (_PROVINCE, _GOLD)
    return Move(Verb.OFFER, seat=other, give=give, get=get)


def _answer(game: Game, seat: int) -> list[Move]:
    offer = game._offer
    assert offer is not None and offer.get is not None
    return [ACCEPT, REFUSE] if _can_meet(game, seat, offer.get, strict=True) else [REFUSE]


def _hand_limit(game: Game, seat: int) -> list[Move]:
    return [_move(Verb.DISCARD, card) for card in _in_hand(game, seat, _ANY)]


def _loss(game: Game, seat: int) -> list[Move]:
    battle = game._battle
    assert battle is not None and battle.beaten is not None
    beaten = battle.beaten
    return [_move(Verb.DISMISS, troop, beaten) for troop in losable_troops(game, seat, beaten)]


_BY_PHASE = {
    Phase.CITY: _city,
    Phase.MULLIGAN: _mulligan,
    Phase.RECRUIT: _recruit,
    Phase.UPKEEP: _upkeep,
    Phase.EVENTS: _events,
    Phase.BATTLE: _battle,
    Phase.BLOCK: _block,
    Phase.CLASH: _clash,
    Phase.DIPLOMACY: _diplomacy,
    Phase.ANSWER: _answer,
    Phase.HAND_LIMIT: _hand_limit,
    Phase.LOSS: _loss,
}


def _can_meet(game: Game, seat: int, bundle: Bundle, *, strict: bool) -> bool:
    """Whether ``seat`` can give ``bundle``: ``strict`` reads its hand as this engine knows it;
    otherwise a card of the hand need only be out of public sight."""
    if game._ducats[seat] < bundle.ducats or game._provinces[seat] <= bundle.provinces:
        return False
    wanted = Counter(card for card in bundle.cards if card not in game._army[seat])
    if not wanted:
        return True
    if strict:
        hand = game._hands[seat]
        hidden = game._unknown[seat]
        missing = sum(max(0, k - hand[card]) for card, k in wanted.items())
        if missing > hidden:
            return False
        if not hidden:
            return True
        counts = seen(game)
        return all(
            DECK_COUNTS[card] - counts[card] >= k - hand[card]
            for card, k in wanted.items()
            if k > hand[card]
        )
    public = _public_counts(game)
    return all(DECK_COUNTS[card] - public[card] >= k for card, k in wanted.items())


def _public_counts(game: Game) -> Counter[str]:
    counts: Counter[str] = Counter(game._discard)
    for army in game._army:
        for captain, attached in army.items():
            counts[captain] += 1
            counts.update(attached)
    for revenues in game._revenues:
        counts.update(revenues)
    counts.update(game._out)
    return counts


def offer_ok(game: Game, seat: int, move: Move) -> bool:
    """Whether ``seat`` may make the offer ``move`` now (RULES.md 40-41)."""
    if game._phase is not Phase.DIPLOMACY or move.verb is not Verb.OFFER:
        return False
    give, get, other = move.give, move.get, move.seat
    assert give is not None and get is not None and other is not None
    if other == seat or other not in game.in_game or (give.empty and get.empty):
        return False
    if any(KIND[c] is Kind.CAPTAIN and c in game._army[other] for c in give.cards):
        return False
    return _can_meet(game, seat, give, strict=True) and _can_meet(game, other, get, strict=False)


def check_revealed(game: Game, seat: int, reveal: Sequence[str] | None) -> tuple[str, ...]:
    """The hand a mulligan shows, checked against what this engine knows of it."""
    if reveal is None or len(reveal) != game._sizes[seat]:
        raise IllegalMoveError(f"a mulligan shows the {game._sizes[seat]} cards of the hand")
    cards = sort_cards(reveal)
    if any(card not in CARDS or KIND[card] is Kind.CAPTAIN for card in cards):
        raise IllegalMoveError("a hand with a captain may not be discarded")
    rest = Counter(cards)
    rest.subtract(game._hands[seat])
    counts = seen(game)
    if any(k < 0 for k in rest.values()) or any(
        DECK_COUNTS[card] - counts[card] < k for card, k in rest.items() if k > 0
    ):
        raise IllegalMoveError(f"seat {seat} cannot hold those cards")
    return cards


# ---------------------------------------------------------------------------- reasons

_VERBS_OF = {
    Phase.CITY: "city",
    Phase.MULLIGAN: "keep or mulligan",
    Phase.RECRUIT: "captain, emergency, attach, revenue or done",
    Phase.UPKEEP: "pay, dismiss or disband",
    Phase.EVENTS: "event or done",
    Phase.BATTLE: "attack or done",
    Phase.BLOCK: "block, no-block or emergency",
    Phase.CLASH: "play or pass",
    Phase.DIPLOMACY: "offer or done",
    Phase.ANSWER: "accept or refuse",
    Phase.HAND_LIMIT: "discard",
    Phase.LOSS: "dismiss (a troop of the beaten captain)",
}


_PHASE_VERBS = {
    Phase.CITY: {Verb.CITY},
    Phase.MULLIGAN: {Verb.KEEP, Verb.MULLIGAN},
    Phase.RECRUIT: {Verb.CAPTAIN, Verb.EMERGENCY, Verb.ATTACH, Verb.REVENUE, Verb.DONE},
    Phase.UPKEEP: {Verb.PAY, Verb.DISMISS, Verb.DISBAND},
    Phase.EVENTS: {Verb.EVENT, Verb.DONE},
    Phase.BATTLE: {Verb.ATTACK, Verb.DONE},
    Phase.BLOCK: {Verb.BLOCK, Verb.NO_BLOCK, Verb.EMERGENCY},
    Phase.CLASH: {Verb.PLAY, Verb.PASS},
    Phase.DIPLOMACY: {Verb.OFFER, Verb.DONE},
    Phase.ANSWER: {Verb.ACCEPT, Verb.REFUSE},
    Phase.HAND_LIMIT: {Verb.DISCARD},
    Phase.LOSS: {Verb.DISMISS},
}


def why_illegal(game: Game, move: Move, seat: int) -> str:
    """The reason ``move`` is not legal for ``seat`` now, in a player's words."""
    phase = game._phase
    if move.verb not in _PHASE_VERBS.get(phase, ()):
        return f"in the {phase} phase seat {seat} may play {_VERBS_OF.get(phase, 'nothing')}"
    card = move.card
    if (
        card is not None
        and move.verb not in (Verb.CITY, Verb.DISMISS)
        and card not in possible_cards(game, seat)
    ):
        return f"{card_name(card)} is not in seat {seat}'s hand"
    captain = move.captain
    in_play = (Verb.ATTACH, Verb.DISMISS, Verb.DISBAND, Verb.ATTACK, Verb.BLOCK)
    if captain is not None and move.verb in in_play and captain not in game._army[seat]:
        return f"{card_name(captain)} is not in play for seat {seat}"
    return _specific(game, move, seat)


def _specific(game: Game, move: Move, seat: int) -> str:
    verb = move.verb
    if verb is Verb.CAPTAIN and game._recruited:
        return "one captain a turn comes into play for free; use emergency to pay for another"
    if verb is Verb.KEEP:
        return "a hand with no captain is not kept: mulligan"
    if verb is Verb.MULLIGAN:
        return "a hand with a captain may not be discarded"
    if verb is Verb.EMERGENCY and move.card is not None:
        return f"{card_name(move.card)} costs {ducats(FORCE[move.card])}"
    if verb is Verb.ATTACH and move.card is not None and move.card not in _ATTACHABLE:
        return "only troops and traits attach to a captain"
    if verb is Verb.REVENUE:
        return "a revenue card goes on a province without one"
    if verb is Verb.PAY:
        return f"the upkeep is {ducats(upkeep_cost(game, seat))}: dismiss troops or disband"
    if verb is Verb.ATTACK:
        if move.captain in game._attacked:
            return "a captain attacks once a turn"
        return f"seat {seat} may attack only its neighbours {list(neighbours(game, seat))}"
    if verb is Verb.DONE and game._phase is Phase.BATTLE:
        names = ", ".join(card_name(c) for c in _must_still_attack(game, seat))
        return f"{names} must attack first"
    if verb is Verb.BLOCK or verb is Verb.NO_BLOCK:
        return "a captain under siege must block"
    if verb is Verb.PLAY and move.card is not None:
        return f"{card_name(move.card)} is a card for the {CARDS[move.card].side.value} only"
    if verb is Verb.OFFER:
        return (
            "an offer is made in one's diplomacy phase, to a seat in the game, "
            "of what both can give"
        )
    if verb is Verb.ACCEPT:
        return f"seat {seat} cannot give what the offer asks"
    if verb is Verb.EVENT:
        return "that event cannot take that target now"
    return f"{move} is not legal now"
