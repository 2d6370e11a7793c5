"""The cards, by the words of the move notation.

>>> CARDS[:7]
('1', '2', '3', '4', '5', '6', '10')
>>> MERCENARY_VALUE["10"], is_mercenary("heroine")
(10, False)
>>> card_name("scarecrow"), card_name("4")
('Scarecrow', '4')
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = [
    "CARDS",
    "CARD_ORDER",
    "FLAT_BONUS",
    "MERCENARIES",
    "MERCENARY_VALUE",
    "SEASONS",
    "card_name",
    "is_mercenary",
    "sort_cards",
]

MERCENARIES: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "10")
CARDS: tuple[str, ...] = (
    *MERCENARIES,
    "heroine",
    "spy",
    "courtesan",
    "drummer",
    "winter",
    "spring",
    "bishop",
    "scarecrow",
    "turncoat",
    "surrender",
)
MERCENARY_VALUE: dict[str, int] = {card: int(card) for card in MERCENARIES}
FLAT_BONUS: dict[str, int] = {"heroine": 10, "spy": 1, "courtesan": 1}
"""Cards that add a flat amount, untouched by Bishop, Winter, Drummer and Spring."""
SEASONS: frozenset[str] = frozenset({"winter", "spring"})
CARD_ORDER: dict[str, int] = {card: i for i, card in enumerate(CARDS)}


def is_mercenary(card: str) -> bool:
    """True for the mercenary cards (1 to 10)."""
    return card in MERCENARY_VALUE


def card_name(card: str) -> str:
    """The card as a player reads it: ``"Drummer"``, ``"10"``."""
    return card if card in MERCENARY_VALUE else card.capitalize()


def sort_cards(cards: Iterable[str]) -> tuple[str, ...]:
    """Cards in notation order (mercenaries by value, then the specials)."""
    return tuple(sorted(cards, key=CARD_ORDER.__getitem__))
