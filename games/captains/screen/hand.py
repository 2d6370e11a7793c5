"""This seat's hand: one entry per kind of card with its type and force (``Ambush B+5``), bold
when it may be used now, reversed when the choice under the cursor uses it, each after the
number key that chooses it. Names are shortened until the hand fits its lines.

>>> short("pavesarii-shield-bearers", 8), short("ambush", 8)
('Pavesar…', 'Ambush')
"""

from __future__ import annotations

from condottiere.games.captains.cards import card_name
from condottiere.games.captains.cities import CITIES
from condottiere.games.captains.moves import Move
from condottiere.games.captains.screen.choices import card_of, chosen_move, hand_kinds
from condottiere.games.captains.screen.scene import seat_view, tag
from condottiere.interface.screen import Line, Scene, fit, flow

__all__ = ["NAME_WIDTHS", "hand", "short"]

NAME_WIDTHS = (99, 16, 12, 9, 7, 5)
"""The longest a card's name may be, tried in turn until the hand fits."""


def short(card: str, width: int) -> str:
    """A card's name in at most ``width`` cells."""
    return fit(card_name(card), width)


def hand(scene: Scene, width: int, height: int) -> list[Line]:
    """The hand's title (cards held, and the hand limit) and its cards, broken into lines of
    ``width`` cells, the names shortened until they fit ``height`` lines."""
    view = seat_view(scene)
    usable = {card_of(move, view) for move in view.legal_moves} - {None}
    chosen = chosen_move(scene)
    chosen_card = None if chosen is None else card_of(chosen, view)
    keys = {
        card_of(Move.parse(text), view): number
        for number, text in enumerate(scene.choices.numbered, start=1)
        if text
    }
    city = view.cities[view.seat]
    limit = f"/{CITIES[city].hand_limit}" if city else ""
    title: Line = [("class:title", f" Hand ({len(view.hand)}{limit}) ")]
    if not view.hand:
        return [[*title, ("class:detail", "no cards")]]
    flowed: list[Line] = []
    for name_width in NAME_WIDTHS:
        line = list(title)
        for card, count in hand_kinds(view.hand):
            style = "class:card"
            if card in usable:
                style += " class:playable"
            if card == chosen_card:
                style += " class:chosen"
            key = keys.get(card)
            times = f"{count}x " if count > 1 else ""
            line.append(("class:key", f" {key}" if key else " "))
            line.append((style, f"[{times}{short(card, name_width)} {tag(card)}]"))
        flowed = flow(line, width)
        if len(flowed) <= height:
            break
    return flowed[:height]

