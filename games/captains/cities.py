"""The eight city states and their powers (seed: "THE CITY STATES"), and what every seat
starts with (RULES.md items 4-6).

>>> CITIES["genoa"].ducats, CITIES["naples"].provinces, CITIES["venice"].hand
(30, 6, 9)
>>> CITIES["papal-states"].hand_limit, CITIES["savoy"].upkeep_relief, CITIES["milan"].attack
(7, 1, 2)
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["CITIES", "HAND", "HAND_LIMIT", "PROVINCES", "PURSE", "City"]

PURSE = 10
"""Ducats every seat starts with (RULES.md item 4)."""
PROVINCES = 5
"""Seed: "Each player starts with 5 Provinces"."""
HAND = 7
"""Seed: "Each player is dealt a hand of 7 cards"."""
HAND_LIMIT = 5
"""Seed: "Max hand size is 5 cards"."""


@dataclass(frozen=True, slots=True)
class City:
    """A city state: its name, its power in words, and the figures it changes."""

    id: str
    name: str
    power: str
    attack: int = 0
    defence: int = 0
    extra_cards: int = 0
    extra_revenue: int = 0
    extra_ducats: int = 0
    extra_provinces: int = 0
    extra_hand_limit: int = 0
    upkeep_relief: int = 0

    @property
    def ducats(self) -> int:
        return PURSE + self.extra_ducats

    @property
    def provinces(self) -> int:
        return PROVINCES + self.extra_provinces

    @property
    def hand(self) -> int:
        return HAND + self.extra_cards

    @property
    def hand_limit(self) -> int:
        return HAND_LIMIT + self.extra_hand_limit


CITIES: dict[str, City] = {
    city.id: city
    for city in (
        City("milan", "Milan", "+2 when attacking", attack=2),
        City("venice", "Venice", "starts with 2 extra cards", extra_cards=2),
        City("florence", "Florence", "makes an extra 2 ducats per turn", extra_revenue=2),
        City("genoa", "Genoa", "starts with 20 extra ducats", extra_ducats=20),
        City("naples", "Naples", "starts with 1 extra province", extra_provinces=1),
        City("pisa", "Pisa", "+2 when defending", defence=2),
        City("papal-states", "Papal States", "max hand size +2", extra_hand_limit=2),
        City("savoy", "Savoy", "upkeep costs 1 ducat less per captain", upkeep_relief=1),
    )
}
"""The city states, by id, in the seed's order."""
