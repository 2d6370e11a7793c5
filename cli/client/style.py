"""The client's colours: one palette per taste, and nothing that colour alone says.

Every seat is drawn in its own colour, but always with its letter too, and every state the
screen shows in colour (a contest, a marker, a playable card, whose turn) also has a
bracket, a sign or a text attribute (bold, underline, reverse), so that ``--no-color`` and
any colour vision lose nothing. ``colorblind`` is the Okabe-Ito palette, chosen to stay
distinct under the common colour-vision deficiencies.

A game's screen draws with the class names :mod:`condottiere.interface.screen` lists; this module
gives each its look.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from prompt_toolkit.styles import Style

__all__ = ["PALETTES", "make_style"]

PALETTES: dict[str, tuple[str, ...]] = {
    "classic": ("#e0443e", "#4a7dff", "#3fae49", "#d9b400", "#b659d1", "#2bb5b5"),
    "colorblind": ("#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#cc79a7"),
}
"""Seat colours, seat 0 first."""

BASE = [
    ("banner.turn", "reverse bold"),
    ("banner.wait", "bold"),
    ("banner.alert", "reverse bold fg:#ff5f5f"),
    ("banner.over", "bold underline"),
    ("clock", "bold"),
    ("detail", "fg:#8a8a8a"),
    ("hint", "fg:#8a8a8a"),
    ("progress.done", "bold"),
    ("progress.todo", "fg:#6c6c6c"),
    ("title", "bold"),
    ("empty", "fg:#6c6c6c"),
    ("marker", "bold fg:#d787ff"),
    ("contest", "bold underline"),
    ("choosable", "underline"),
    ("chosen", "reverse"),
    ("frame", "bold"),
    ("card", ""),
    ("playable", "bold"),
    ("key", "fg:#8a8a8a"),
    ("turn", "bold"),
    ("you", "bold"),
    ("strength", "bold"),
    ("alert", "bold fg:#ff5f5f"),
    ("command", "bold"),
    ("rule", "fg:#6c6c6c"),
    ("prompt", "bold"),
    ("placeholder", "fg:#6c6c6c italic"),
    ("log.chat", "italic"),
    ("log.result", "bold"),
    ("log.refused", "fg:#ff5f5f"),
    ("log.halt", "bold fg:#ff5f5f"),
    ("log.over", "bold"),
    ("log.note", "italic fg:#8a8a8a"),
    ("completion-menu", "bg:#303030 fg:#e4e4e4"),
    ("completion-menu.completion.current", "reverse"),
    ("completion-menu.meta.completion", "bg:#262626 fg:#a8a8a8"),
    ("completion-menu.meta.completion.current", "reverse"),
]


def make_style(palette: str = "classic") -> Style:
    """The style of the whole screen with ``palette``'s seat colours; KeyError for an
    unknown palette."""
    from prompt_toolkit.styles import Style  # only the screen needs it, not every command

    colours = PALETTES[palette]
    seats = [(f"seat.{seat}", f"fg:{colour}") for seat, colour in enumerate(colours)]
    return Style([*BASE, *seats])
