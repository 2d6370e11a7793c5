"""How a game starts: a new game (the draw piles formed, a fair choice of the first battle
marker, the first deal), or a scenario (:meth:`Game.setup`: given hands, deck, control
markers, Favor and battle, each checked against the edition).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from condottiere.games.condottiere import next_battle, round_end, victory
from condottiere.games.condottiere.board import region_named
from condottiere.games.condottiere.cards import card_name
from condottiere.games.condottiere.chance import Deal
from condottiere.games.condottiere.chance_asked import ask_choice, ask_deals
from condottiere.games.condottiere.knowledge import checked_cards
from condottiere.games.condottiere.piles import fill_pile, in_notation_order
from condottiere.games.condottiere.tables import kinds_of

if TYPE_CHECKING:
    from condottiere.games.condottiere.game import Game

__all__ = ["start_new", "start_setup"]


def start_new(game: Game) -> None:
    """Form each draw pile from its whole deck; chance chooses the first battle-marker
    holder, and the first round is dealt."""
    for pile in range(len(game._pile_start)):
        fill_pile(game, pile, game._deck_order)
    ask_choice(game, tuple(range(game.players)), "first battle marker", _first_marker)


def _first_marker(game: Game, seat: int) -> None:
    game._marker = seat
    round_end.deal_round(game, then=round_end.round_dealt)


def start_setup(game: Game, spec: Mapping[str, Any]) -> None:
    """Start the scenario ``spec`` (a record's ``setup``, see :meth:`Game.setup`): the hands
    and decks given, the rest dealt from the seed; ValueError for a scenario the edition
    cannot have."""
    edition = game.edition
    n = game.players
    hands = spec.get("hands") or [None] * n
    if len(hands) != n:
        raise ValueError(f"give {n} hands (None for a hand dealt from the seed)")
    decks = spec.get("deck")
    per_deck = [Counter(game._deck_total) for _ in game._pile_start]
    for seat, hand in enumerate(hands):
        if hand is None:
            continue
        cards = Counter(checked_cards(hand))
        if game.observer is None or game.observer == seat:
            game._hands[seat] = cards
            game._held[seat] = kinds_of(cards)
        else:
            game._unknown[seat] = cards.total()
        game._sizes[seat] = cards.total()
        _subtract(per_deck[seat if edition.per_seat_decks else 0], cards, f"seat {seat}'s hand")
    for pile, rest in enumerate(per_deck):
        if decks is None:
            fill_pile(game, pile, in_notation_order(rest))
            continue
        if len(decks) != len(per_deck):
            raise ValueError(
                "zman-duel takes one deck per seat" if edition.per_seat_decks else "give one deck"
            )
        deck = Counter(checked_cards(decks[pile]))
        _subtract(rest, deck, "the deck")
        fill_pile(game, pile, in_notation_order(deck))
        (game._out[pile] if edition.per_seat_decks else game._discard).extend(rest.elements())
    first = spec.get("first", 0)
    if not (isinstance(first, int) and 0 <= first < n):
        raise ValueError(f"first must be a seat from 0 to {n - 1}")
    game._marker = first
    for region, seat in (spec.get("control") or {}).items():
        name = _region(game, region)
        if not (isinstance(seat, int) and 0 <= seat < n):
            raise ValueError(f"{name} cannot be controlled by seat {seat}")
        victory.take_control(game, name, seat)
    if spec.get("favor") is not None:
        favor = game._favor = _region(game, spec["favor"])
        if edition.favor == "none":
            raise ValueError(f"{edition.name} has no Favor marker: its Bishop never places it")
        if favor in game._control:
            holder = game._control[favor]
            raise ValueError(f"the Favor cannot lie on {favor}: it is held by seat {holder}")
    if spec.get("battle") is not None:
        region = _region(game, spec["battle"])
        if region not in next_battle.battle_sites(game):
            raise ValueError(f"no battle may be fought in {region} now")
        game._next_region = region
    deals = [
        Deal(seat, edition.hand_size + edition.bonus_per_region * game.battles_won[seat])
        for seat, hand in enumerate(hands)
        if hand is None
    ]
    ask_deals(game, deals, _setup_dealt)


def _setup_dealt(game: Game) -> None:
    """The scenario's missing hands are dealt: its battle begins, or the first is chosen."""
    if game._next_region is not None:
        next_battle.begin_chosen_battle(game)
    else:
        round_end.round_dealt(game)


def _region(game: Game, name: str) -> str:
    """The region called ``name`` (any case); ValueError without a board or such region."""
    if not game.edition.board:
        raise ValueError(f"{game.edition.name} has no board")
    region = region_named(name)
    if region is None:
        raise ValueError(f"there is no region called {name!r}")
    return region


def _subtract(available: Counter[str], cards: Counter[str], what: str) -> None:
    """Take ``cards`` out of ``available``; ValueError when ``what`` holds more of a card
    than there are."""
    for card, count in cards.items():
        if available[card] < count:
            raise ValueError(f"{what} holds more {card_name(card)} cards than the deck has")
    available.subtract(cards)
