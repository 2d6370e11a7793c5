"""This seat's hand: one entry per kind of card, bold when it may be played now, reversed
when the choice under the cursor plays it, each after the number key that chooses it."""

from __future__ import annotations

from condottiere.games.condottiere.cards import card_name
from condottiere.games.condottiere.moves import Move
from condottiere.games.condottiere.screen.choices import chosen_move, hand_kinds
from condottiere.games.condottiere.screen.scene import seat_view
from condottiere.interface.screen import Line, Scene, cells

__all__ = ["hand"]


def hand(scene: Scene, width: int, height: int) -> list[Line]:
    """The hand's title and its cards, broken into lines of ``width`` cells."""
    view = seat_view(scene)
    playable = {move.card for move in view.legal_moves if move.verb == "play"}
    chosen = chosen_move(scene)
    chosen_card = chosen.card if chosen is not None and chosen.verb == "play" else None
    numbered = scene.choices.numbered
    keys = {Move.parse(text).card: number for number, text in enumerate(numbered, start=1)}
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
    return _flow(line, width)[:height]


def _flow(line: Line, width: int) -> list[Line]:
    """``line`` broken into lines of ``width`` cells, between its fragments (a key and the
    card after it stay together)."""
    lines: list[Line] = [[]]
    used = 0
    pairs = [line[:1], *(line[index : index + 2] for index in range(1, len(line), 2))]
    for pair in pairs:
        size = sum(cells(text) for _, text in pair)
        if used + size > width and lines[-1]:
            lines.append([("", " ")])
            used = 1
        lines[-1].extend(pair)
        used += size
    return lines
