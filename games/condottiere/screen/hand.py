"""This seat's hand: one entry per kind of card, bold when it may be played now, reversed
when the choice under the cursor plays it, each after the number key that chooses it."""

from __future__ import annotations

from condottiere.games.condottiere.cards import card_name
from condottiere.games.condottiere.moves import Move
from condottiere.games.condottiere.screen.choices import chosen_move, hand_kinds
from condottiere.games.condottiere.screen.scene import seat_view
from condottiere.interface.screen import Line, Scene, flow

__all__ = ["hand"]


def hand(scene: Scene, width: int, height: int) -> list[Line]:
    """The hand's title and its cards, broken into lines of ``width`` cells."""
    view = seat_view(scene)
    playable = {move.card for move in view.legal_moves if move.verb == "play"}
    chosen = chosen_move(scene)
    chosen_card = chosen.card if chosen is not None and chosen.verb == "play" else None
    numbered = scene.choices.numbered
    keys = {Move.parse(text).card: number
            for number, text in enumerate(numbered, start=1) if text}
    line: Line = [("class:title", f" Hand ({len(view.hand)}) ")]
    if not view.hand:
        line.append(("class:detail", "no cards"))
    for card, count in hand_kinds(view.hand):
        style = "class:card"
        if card in playable:
            style += " class:playable"
        if card == chosen_card:
            style += " class:chosen"
        key = keys.get(card)
        line.append(("class:key", f" {key}" if key else " "))
        line.append((style, f"[{' '.join([card_name(card)] * count)}]"))
    return flow(line, width)[:height]

