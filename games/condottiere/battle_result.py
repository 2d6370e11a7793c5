"""How a battle ended, as it is kept once its cards have left the table: what ended it
(:class:`EndedBy`) and the rows, strengths and winner (:class:`BattleResult`, read as
:attr:`Game.last_battle` by narrations, bots and screens).

>>> result = BattleResult(None, (("10",), ("2", "drummer")), None, ((), ()), (10, 4), 0,
...                       EndedBy.PASSES, True)
>>> result.ended_by == "passes", [str(step) for step in result.breakdown(1)]
(True, ['mercenaries 2: 2', 'drummer doubles: 4'])
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from condottiere.games.condottiere.strength import Step, breakdown, highest_mercenary

__all__ = ["BattleEnd", "BattleResult", "EndedBy"]


class EndedBy(StrEnum):
    """What ended a battle (a string enum: it equals and prints as its text)."""

    PASSES = "passes"
    """Every seat passed (or could not play)."""
    BISHOP = "bishop"
    """A classic Bishop: the battle ends with no winner."""
    TURNCOAT = "turncoat"
    SURRENDER = "surrender"

    def __repr__(self) -> str:
        """As its text (``'passes'``), as it read before it was an enum."""
        return repr(self.value)


BattleEnd = tuple[
    str | None,
    tuple[list[str], ...],
    str | None,
    tuple[list[str], ...],
    tuple[int, ...],
    int | None,
    EndedBy,
    bool,
]
"""A :class:`BattleResult`'s fields as the end of a battle leaves them, with the rows' lists
themselves (never changed again: the next battle starts with new lists). Most battles' results
are never read (random playouts): the result is built from these the first time it is."""


class BattleResult(NamedTuple):
    """How a battle ended, kept after its cards have left the table (a named tuple: one is
    made at the end of every battle, and a frozen dataclass cost several times as much)."""

    region: str | None
    rows: tuple[tuple[str, ...], ...]
    season: str | None
    bishop_removed: tuple[tuple[str, ...], ...]
    strengths: tuple[int, ...]
    winner: int | None
    ended_by: EndedBy
    """``"passes"``, ``"bishop"`` (a classic Bishop), or the card that ended it
    (``"turncoat"``, ``"surrender"``)."""
    cards_played: bool
    """False when nobody played a card in the battle."""

    def breakdown(self, seat: int) -> tuple[Step, ...]:
        """``seat``'s strength step by step, as it stood when the battle ended."""
        return breakdown(
            self.rows[seat], self.season, highest_mercenary(self.rows), self.bishop_removed[seat]
        )

    @classmethod
    def of(cls, ended: BattleEnd) -> BattleResult:
        """The result of a battle from the fields its end left (:data:`BattleEnd`)."""
        region, rows, season, removed, scores, winner, ended_by, cards_played = ended
        return cls(
            region,
            tuple(map(tuple, rows)),
            season,
            tuple(map(tuple, removed)),
            scores,
            winner,
            ended_by,
            cards_played,
        )
