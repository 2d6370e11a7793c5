"""Condottiere's words for the banner while the table waits for a move: what the seat to act
must decide, and the state of the table in one line (the battle marker, the Favor, the
cards left)."""

from __future__ import annotations

from condottiere.games.condottiere.editions import EDITIONS
from condottiere.games.condottiere.screen.rows import battle_name
from condottiere.games.condottiere.screen.scene import seat_view
from condottiere.interface.screen import Scene

__all__ = ["WAITING_WORDS", "headline", "status"]

WAITING_WORDS = {
    "battle-choice": ("choose where the next battle is fought", "is choosing where to fight"),
    "battle": ("play a card or pass", "is playing"),
    "favor": ("place the Favor (after your Bishop)", "is placing the Favor"),
    "discard": (
        "discard your hand (it holds no mercenary) or keep it",
        "is deciding whether to discard their hand",
    ),
    "retain": ("keep up to two cards for the next round", "is choosing cards to keep"),
}
"""Per phase of the engine: what this seat must decide, and what another seat is doing."""


def headline(scene: Scene, actor: int | None) -> str:
    """``Your turn in the battle for Firenze: play a card or pass``, or ``Bob is playing in
    the battle for Firenze``."""
    view = seat_view(scene)
    mine, theirs = WAITING_WORDS.get(view.phase, ("decide", "is deciding"))
    where = battle_name(scene) if view.phase == "battle" else ""
    if scene.my_turn:
        return f"Your turn in {where}: {mine}" if where else f"Your turn: {mine}"
    shown = scene.seats.get(actor)
    if shown is not None and shown.you:  # the peer plays a seat's only legal move itself
        return "Your only legal move is played for you"
    who = scene.seats.who(actor)
    text = f"{who[:1].upper()}{who[1:]} {theirs}"
    return f"{text} in {where}" if where else text


def status(scene: Scene) -> str:
    """The battle marker, the Favor (on a board) and the cards left, in one line."""
    view = seat_view(scene)
    marker = scene.seats.get(view.battle_marker)
    holder = (
        f"seat {view.battle_marker}" if marker is None
        else "you" if marker.you else f"{marker.mark} {marker.name}"
    )
    parts = [f"Battle marker: {holder}"]
    edition = EDITIONS[view.edition]
    if edition.board:
        parts.append(f"Favor: {view.favor or 'off the board'}")
    piles = view.draw_pile_sizes
    if edition.per_seat_decks:
        parts.append(f"your deck: {piles[view.seat]}")
        parts.append(f"out of the game: {view.out_of_game}")
    else:
        parts.append(f"draw pile: {sum(piles)}")
        parts.append(f"discards: {len(view.discard_pile)}")
    return " · ".join(parts)
