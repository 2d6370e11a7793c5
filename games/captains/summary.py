"""The rules of a Captains table in a few sentences (the client's help, ``summary``).

>>> print(rules_summary(4, ("spoils",))[-1])
House rule spoils: a blocked attack won by the attacker also takes a province (RULES.md 39).
"""

from __future__ import annotations

from collections.abc import Sequence

from condottiere.games.captains.cities import CITIES, PROVINCES, PURSE
from condottiere.games.captains.game import OPTIONS, TURNS

__all__ = ["rules_summary"]


def rules_summary(players: int, options: Sequence[str]) -> tuple[str, ...]:
    powers = "; ".join(f"{city.name}: {city.power}" for city in CITIES.values())
    lines = [
        f"Condottieri Captains for {players} players: each is an Italian city state with "
        f"{PROVINCES} provinces and {PURSE} ducats; {TURNS} turns each, most provinces wins "
        "(then most ducats).",
        f"City states (picked in turn, the last player first): {powers}.",
        "A turn: draw a card; collect a ducat per province and revenue card; recruit (one "
        "captain free, troops and traits on captains, revenue cards on provinces); pay upkeep "
        "(half each captain's TFR, rounded up); play events; attack your neighbours; make offers.",
        "An unblocked attack takes a province; a blocked one is a battle of TFR plus battle "
        "cards, the loser losing a troop or its captain. Zero provinces: defeated.",
        "Emergency defence: put a captain into play for ducats equal to his TFR, in your "
        "recruit phase or when attacked.",
    ]
    lines += [f"House rule {option}: {OPTIONS[option]}." for option in options]
    return tuple(lines)
