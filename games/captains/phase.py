"""The phases a game of Captains goes through, and what the game waits for in each; the
attack under way in the battle phase (:class:`Battle`).

>>> Phase.RECRUIT, Phase.RECRUIT == "recruit"
(<Phase.RECRUIT: 'recruit'>, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = ["Battle", "Phase"]


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


@dataclass(slots=True)
class Battle:
    """An attack under way: who attacks whom with which captain, the blocker, the battle
    cards each side played, and whose turn it is to play one."""

    attacker: int
    defender: int
    captain: str
    blocker: str | None = None
    attack_cards: tuple[str, ...] = ()
    defence_cards: tuple[str, ...] = ()
    to_play: int = 0
    passes: int = 0
    """Passes in a row: two decide the battle."""
    beaten: str | None = None
    """The beaten captain, once the battle is decided, while its owner chooses a troop."""
