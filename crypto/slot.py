"""Where a card was dealt from: a position in the deck of a round.

>>> Slot(1, 7)
Slot(round=1, position=7)
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["Slot"]


class Slot(NamedTuple):
    """Where a card was dealt from: a position in the deck of a round."""

    round: int
    position: int
