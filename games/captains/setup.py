"""The beginning of a game: the first player, the city states, the deal and the mulligan
(RULES.md items 2-8), or a scenario's given position.

>>> from condottiere.games.captains.game import Game
>>> g = Game.new(players=3, seed=1)
>>> g.phase, g.to_act == turn_order(g, g._first)[-1]   # the last in turn order picks first
(<Phase.CITY: 'city'>, True)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from functools import cache
from typing import TYPE_CHECKING, Any

from condottiere.games.captains.cards import CAPTAINS, DECK_COUNTS, card_name
from condottiere.games.captains.cities import CITIES
from condottiere.games.captains.hands import ask, ask_choice, ask_deal, discard_cards, give
from condottiere.games.captains.phase import Phase
from condottiere.interface.game import HandHolds, Sentence, ToldKind

if TYPE_CHECKING:
    from condottiere.games.captains.game import Game

__all__ = [
    "MAX_MULLIGANS",
    "keep",
    "mulligan",
    "note",
    "pick_city",
    "start",
    "start_scenario",
    "turn_order",
]

MAX_MULLIGANS = 3
"""RULES.md item 7: after three mulligans the fourth hand is kept."""


def note(game: Game, kind: ToldKind, text: str, *seats: int, about: int | None = None) -> None:
    """Tell a sentence in the game's narration, where it is narrated: ``{0}``, ``{1}``... in
    ``text`` stand for ``seats``; the sentence is about ``about`` (a result's winner), else
    about the first of ``seats``."""
    if game._narrated:
        seat = about if kind is ToldKind.RESULT else (seats[0] if seats else None)
        game.tell(Sentence(kind, text.format(*(f"{{{other}}}" for other in seats)), seat))


def start(game: Game) -> None:
    """A fair draw decides the first player (RULES.md 2)."""
    ask_choice(game, game.in_game, "first player", _first_chosen)


def _first_chosen(game: Game, first: int) -> None:
    game._first = first
    note(game, ToldKind.CHANGE, "{0} goes first", first)
    order = turn_order(game, first)
    game._to_pick = tuple(reversed(order))
    _next_pick(game)


def turn_order(game: Game, first: int) -> tuple[int, ...]:
    """The seats in the game, in turn order from ``first``."""
    return _turn_order(game.in_game, game.players, first)


@cache
def _turn_order(seated: tuple[int, ...], players: int, first: int) -> tuple[int, ...]:
    return tuple(sorted(seated, key=lambda seat: (seat - first) % players))


def _next_pick(game: Game) -> None:
    if game._to_pick:
        game._phase = Phase.CITY
        game._to_act = game._to_pick[0]
        return
    assert game._first is not None
    game._to_deal = turn_order(game, game._first)
    _deal_next(game)


def pick_city(game: Game, seat: int, city: str) -> None:
    """``seat`` takes ``city`` with its starting purse and provinces."""
    info = CITIES[city]
    game._city[seat] = city
    game._ducats[seat] = info.ducats
    game._provinces[seat] = info.provinces
    note(
        game,
        ToldKind.CHANGE,
        f"{{0}} is {info.name} ({info.power}): {info.provinces} provinces, {info.ducats} ducats",
        seat,
    )
    game._to_pick = game._to_pick[1:]
    _next_pick(game)


def _deal_next(game: Game) -> None:
    if not game._to_deal:
        from condottiere.games.captains.turn import begin_turn

        assert game._first is not None
        begin_turn(game, turn_order(game, game._first)[0])
        return
    seat = game._to_deal[0]
    city = game._city[seat]
    assert city is not None
    ask_deal(game, seat, CITIES[city].hand, _ask_keep)


def _ask_keep(game: Game) -> None:
    seat = game._to_deal[0]
    if game._mulligans >= MAX_MULLIGANS:
        note(game, ToldKind.CHANGE, f"{{0}} keeps the hand after {MAX_MULLIGANS} mulligans", seat)
        _kept(game)
        return
    game._phase = Phase.MULLIGAN
    game._to_act = seat
    game._legal = None


def keep(game: Game, seat: int) -> None:
    """``seat`` keeps its hand: it proves that the hand holds a captain, showing none
    (RULES.md 7)."""
    ask(game, HandHolds(seat, CAPTAINS), _kept)


def _kept(game: Game) -> None:
    game._to_deal = game._to_deal[1:]
    game._mulligans = 0
    _deal_next(game)


def mulligan(game: Game, seat: int, cards: tuple[str, ...]) -> None:
    """``seat`` shows its hand, which holds no captain, discards it and is dealt again."""
    game._hands[seat].clear()
    game._unknown[seat] = game._sizes[seat] = 0
    discard_cards(game, cards)
    game._mulligans += 1
    city = game._city[seat]
    assert city is not None
    ask_deal(game, seat, CITIES[city].hand, _ask_keep)


def start_scenario(game: Game, spec: Mapping[str, Any]) -> None:
    """A scenario's given position, then ``first``'s turn (see :meth:`Game.setup`)."""
    from condottiere.games.captains.turn import begin_turn

    players = game.players
    cities, hands = spec["cities"], spec["hands"]
    if len(cities) != players or len(hands) != players or len(set(cities)) != players:
        raise ValueError(f"give {players} different city states and {players} hands")
    first = int(spec["first"])
    game._first = first
    for seat, city in enumerate(cities):
        if city not in CITIES:
            raise ValueError(f"{city!r} is not a city state")
        game._city[seat] = city
        game._ducats[seat] = CITIES[city].ducats
        game._provinces[seat] = CITIES[city].provinces
    for field, values in (("ducats", game._ducats), ("provinces", game._provinces)):
        given = spec.get(field)
        if given is not None:
            values[:] = [int(v) for v in given]
    used: list[str] = []
    for seat, hand in enumerate(hands):
        if game.knows_hand(seat):
            for card in hand:
                give(game, seat, card)
            used += hand
        else:
            game._unknown[seat] += len(hand)
            game._sizes[seat] += len(hand)
            game._pile_size -= len(hand)
    if spec.get("armies") is not None:
        for seat, army in enumerate(spec["armies"]):
            game._army[seat] = {captain: list(cards) for captain, cards in army.items()}
            for captain, cards in army.items():
                if captain not in CAPTAINS:
                    raise ValueError(f"{captain!r} is not a captain")
                used += [captain, *cards]
    if spec.get("revenues") is not None:
        for seat, revenues in enumerate(spec["revenues"]):
            game._revenues[seat] = list(revenues)
            used += revenues
    if spec.get("turns") is not None:
        game._turns = [int(t) for t in spec["turns"]]
    for card in used:
        if card not in DECK_COUNTS:
            raise ValueError(f"{card!r} is not a card")
        game._pile_size -= 1
        if game._pile is not None:
            if not game._pile[card]:
                raise ValueError(f"the deck holds no more {card_name(card)}")
            game._pile[card] -= 1
    top = tuple(spec.get("deck", ()))
    if game._pile is not None:
        game._pile += type(game._pile)()
        if any(game._pile[card] < k for card, k in Counter(top).items()):
            raise ValueError("the deck's top cards are not left in the deck")
    game._top = top
    begin_turn(game, first)
