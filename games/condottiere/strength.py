"""Strength of a battle line, step by step, in the order the Z-Man rulebook gives:
Bishop, Winter, Drummer, Spring, then the flat Heroine/Spy/Courtesan.

Seed 003's Drum example: 21 points in three mercenaries are 42 with a Drum, 6 under Winter.

>>> breakdown(("10", "6", "5", "drummer"), None, 10)[-1].total
42
>>> [str(step) for step in breakdown(("10", "6", "5", "drummer"), "winter", 10)]
['mercenaries 10 + 6 + 5: 21', 'winter, each mercenary is 1: 3', 'drummer doubles: 6']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from condottiere.games.condottiere.cards import CARD_ORDER, FLAT_BONUS, MERCENARY_VALUE

__all__ = ["Step", "breakdown", "highest_mercenary", "strength", "strengths"]


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a strength computation: what happened, and the strength after it."""

    label: str
    total: int

    def __str__(self) -> str:
        return f"{self.label}: {self.total}"


def highest_mercenary(rows: Sequence[Sequence[str]]) -> int:
    """The highest printed mercenary value in any row, 0 if there is no mercenary.

    >>> highest_mercenary([("3", "heroine"), ("6",), ()])
    6
    """
    best = 0
    for row in rows:
        for card in row:
            value = MERCENARY_VALUE.get(card, 0)
            if value > best:
                best = value
    return best


def strength(row: Sequence[str], season: str | None, highest: int) -> int:
    """The strength of ``row`` under ``season``; ``highest`` as from :func:`highest_mercenary`.

    >>> strength(("10", "10", "heroine", "spy"), "spring", 10)
    37
    """
    mercenaries = 0
    top = 0
    flat = 0
    drummer = False
    total = 0
    for card in row:
        value = MERCENARY_VALUE.get(card)
        if value is not None:
            mercenaries += 1
            total += value
            if value == highest:
                top += 1
        elif card == "drummer":
            drummer = True
        else:
            flat += FLAT_BONUS.get(card, 0)
    if season == "winter":
        total = mercenaries
    if drummer:
        total *= 2
    if season == "spring":
        total += 3 * top
    return total + flat


def strengths(rows: Sequence[Sequence[str]], season: str | None) -> tuple[int, ...]:
    """Every row's :func:`strength` under ``season`` (the end of each battle scores every row;
    without a season, the common case, without a Python loop over the cards).

    >>> strengths([("10", "drummer"), ("10", "6", "heroine"), ()], "spring")
    (23, 29, 0)
    >>> strengths([("10", "drummer"), ("10", "6", "heroine"), ()], None)
    (20, 26, 0)
    """
    if season is None:
        # Without a season a row is the sum of its cards' points, its mercenaries twice over
        # with a Drummer.
        scores = []
        for row in rows:
            if not row:
                scores.append(0)
                continue
            points = sum(map(_POINTS.__getitem__, row))
            if "drummer" in row:
                points += sum(map(_MERCENARY_POINTS.__getitem__, row))
            scores.append(points)
        return tuple(scores)
    highest = highest_mercenary(rows)
    return tuple(strength(row, season, highest) for row in rows)


_MERCENARY_POINTS = {card: MERCENARY_VALUE.get(card, 0) for card in CARD_ORDER}
_POINTS = {card: MERCENARY_VALUE.get(card, 0) + FLAT_BONUS.get(card, 0) for card in CARD_ORDER}


def breakdown(
    row: Sequence[str],
    season: str | None,
    highest: int,
    removed_by_bishop: Sequence[str] = (),
) -> tuple[Step, ...]:
    """The steps of :func:`strength`, each with its running total; the last total is the strength.

    ``removed_by_bishop`` lists this row's mercenaries a Bishop discarded during the battle.
    """
    mercenaries = [card for card in (*row, *removed_by_bishop) if card in MERCENARY_VALUE]
    steps: list[Step] = []
    if mercenaries:
        total = sum(MERCENARY_VALUE[card] for card in mercenaries)
        steps.append(Step("mercenaries " + " + ".join(mercenaries), total))
    else:
        total = 0
        steps.append(Step("no mercenaries", 0))
    if removed_by_bishop:
        total -= sum(MERCENARY_VALUE[card] for card in removed_by_bishop)
        steps.append(Step("bishop discarded " + " + ".join(removed_by_bishop), total))
        mercenaries = [card for card in row if card in MERCENARY_VALUE]
    if season == "winter" and mercenaries:
        total = len(mercenaries)
        steps.append(Step("winter, each mercenary is 1", total))
    if "drummer" in row and mercenaries:
        total *= 2
        steps.append(Step("drummer doubles", total))
    top = sum(1 for card in mercenaries if MERCENARY_VALUE[card] == highest)
    if season == "spring" and top:
        total += 3 * top
        steps.append(Step(f"spring adds 3 to each {highest} ({top})", total))
    for card, bonus in FLAT_BONUS.items():
        count = row.count(card)
        if count:
            total += bonus * count
            steps.append(Step(f"{card} +{bonus} x {count}", total))
    return tuple(steps)
