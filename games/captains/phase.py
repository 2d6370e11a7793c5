"""The phases a game of Captains goes through, and what the game waits for in each.

>>> Phase.RECRUIT, Phase.RECRUIT == "recruit"
(<Phase.RECRUIT: 'recruit'>, True)
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Phase"]


class Phase(StrEnum):
    """What the game waits for: chance, one of the seven phases' questions, or nothing."""

    CHANCE = "chance"
    """Chance must answer (a deal, a fair choice, a hand shown, a deck searched)."""
    CITY = "city"
    """A seat picks its city state."""
    MULLIGAN = "mulligan"
    """A seat keeps its starting hand or takes a mulligan."""
    RECRUIT = "recruit"
    UPKEEP = "upkeep"
    EVENTS = "events"
    BATTLE = "battle"
    """The active player declares an attack, or ends the battle phase."""
    BLOCK = "block"
    """The attacked seat blocks, or not (emergency defence first if it likes)."""
    CLASH = "clash"
    """A blocked attack: both sides play battle cards in turn, or pass."""
    LOSS = "loss"
    """The beaten captain's owner chooses which of its troops it discards."""
    DIPLOMACY = "diplomacy"
    ANSWER = "answer"
    """The seat offered a deal accepts or refuses it."""
    HAND_LIMIT = "hand-limit"
    """A seat over its hand limit discards."""
    OVER = "over"
