"""Condottiere's part of the client's help page: its moves and keys, its part of the screen,
and the rules of the table in a few lines (the plugin's ``RULES.summary``).

>>> from condottiere.interface.game import TableRules
>>> page = help_page(TableRules("condottiere", "zman", 3), None)
>>> page[0], page[page.index("Rules") + 1]
('Condottiere', '  Z-Man 2018, the new version (zman), 3 players')
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from condottiere.games.condottiere.editions import EDITIONS
from condottiere.games.condottiere.game import Game
from condottiere.games.condottiere.plugin import RULES
from condottiere.interface.game import GameState, TableRules

__all__ = ["HELP", "help_page"]

HELP = (
    "Condottiere",
    "  Moves: play 10 · play scarecrow 5 · battle Firenze · pass · favor Roma · discard ·"
    " keep · retain 10 heroine.",
    "  Keys: 1-9 choose a card of your hand (in a battle), Space chooses pass; ←/→ move"
    " along the cards and pass, or the regions.",
    "  The board: each region shows its owner's letter, * the Favor, [ ] the battle. Beside"
    " it, every battle row with its strength; > marks whose turn it is. Below: your hand"
    " (bold: playable now).",
)
"""Everything but the rules."""


def help_page(table: TableRules, game: GameState[Any] | None) -> tuple[str, ...]:
    """The help's lines for ``table``, with the options ``game`` was dealt with (the table
    as the client knows it has none)."""
    if table.edition not in EDITIONS:
        return HELP
    options = tuple(sorted(game.options)) if isinstance(game, Game) else table.options
    try:
        rules = RULES.summary(replace(table, options=options))
    except ValueError:  # options this edition does not allow: the rules without them
        rules = RULES.summary(replace(table, options=()))
    return (*HELP, "", "Rules", *(f"  {rule}" for rule in rules))
