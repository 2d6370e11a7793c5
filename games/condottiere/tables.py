"""The engine's speed tables: values computed once (at import, or cached at first use) so
that the rules look up what they would otherwise build on every move. No rule is decided here.

- Kinds of card as bits: :data:`CARD_BIT` gives each card one bit, in notation order, and a
  hand's or a row's kinds of card are one integer (:func:`kinds_of`, :func:`mercenary_kinds`).
- Moves by bits: a hand's ``play`` moves are read from three tables by slices of its kinds
  (:data:`PLAYS_LOW`, :data:`PLAYS_MIDDLE`, :data:`PLAYS_HIGH`), a Scarecrow's from
  :data:`SCARECROW_TAKES` by the kinds of mercenary in a row, and the moves that are the same
  every time (``pass``, ``battle Firenze``...) are made once (:data:`PASS_MOVE`,
  :data:`BATTLE_IN`...).
  The legal moves are these very objects, so ``play`` finds a move by identity first.
- Regions as bits: :data:`REGION_BIT` gives each region one bit, in board order, so that the
  regions a seat holds are one integer (:func:`regions_but`, :func:`largest_group_of`).
- Seats in turn: :data:`CLOCKWISE` lists every seat once from each start seat.
- Copies: :func:`copied` copies a hand's counter without ``Counter.__init__`` (bots copy games
  by the thousand).

>>> kinds_of(["2", "10", "10"]) == CARD_BIT["2"] | CARD_BIT["10"]
True
>>> [str(move) for move in PLAYS_HIGH[kinds_of(["turncoat"]) >> HIGH_SHIFT]]
['play turncoat', 'pass']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from typing import TypeVar

from condottiere.games.condottiere.board import REGIONS, largest_group
from condottiere.games.condottiere.cards import CARD_ORDER, CARDS, MERCENARIES
from condottiere.games.condottiere.editions import EDITIONS
from condottiere.games.condottiere.moves import Move

__all__ = [
    "BATTLE_IN",
    "CARD_BIT",
    "CEDE_MOVE",
    "CLOCKWISE",
    "DISCARD_MOVE",
    "FAVOR_NONE_MOVE",
    "FAVOR_ON",
    "HIGH_SHIFT",
    "KEEP_MOVE",
    "LOW_MASK",
    "MERCENARY_BITS",
    "MIDDLE_MASK",
    "MIDDLE_SHIFT",
    "MOST_PLAYERS",
    "PASS_MOVE",
    "PLAYS_HIGH",
    "PLAYS_LOW",
    "PLAYS_MIDDLE",
    "REGION_BIT",
    "SCARECROW_ALONE",
    "SCARECROW_BIT",
    "SCARECROW_TAKES",
    "by_bits",
    "copied",
    "kinds_of",
    "largest_group_of",
    "mercenary_kinds",
    "play_move",
    "regions_but",
]

_T = TypeVar("_T")

MOST_PLAYERS = max(edition.max_players for edition in EDITIONS.values())
"""The largest table any edition allows."""

# ------------------------------------------------------------------ kinds of card as bits

CARD_BIT = {card: 1 << order for card, order in CARD_ORDER.items()}
"""Each card's bit, in notation order (the mercenaries are the lowest bits)."""
SCARECROW_BIT = CARD_BIT["scarecrow"]
MERCENARY_BITS = sum(map(CARD_BIT.__getitem__, MERCENARIES))


def kinds_of(cards: Iterable[str]) -> int:
    """The kinds of card among ``cards`` as a bit mask, one bit a kind in notation order.

    >>> kinds_of(["2", "10", "10"]) == CARD_BIT["2"] | CARD_BIT["10"]
    True
    """
    return sum(map(CARD_BIT.__getitem__, set(cards)))


def mercenary_kinds(row: Iterable[str]) -> int:
    """The kinds of mercenary in ``row`` as a bit mask (:func:`kinds_of`'s bits).

    >>> mercenary_kinds(["10", "heroine", "10"]) == CARD_BIT["10"]
    True
    """
    return kinds_of(row) & MERCENARY_BITS


def by_bits(items: Sequence[_T]) -> tuple[tuple[_T, ...], ...]:
    """For every subset of ``items``, indexed by its bit mask (bit i: ``items[i]``), the items
    in it, in order. Long masks are split and their tables' tuples added up: a table for all
    17 regions or kinds of card would hold 2**17 tuples.

    >>> by_bits("ab")
    ((), ('a',), ('b',), ('a', 'b'))
    """
    return tuple(
        tuple(item for i, item in enumerate(items) if subset >> i & 1)
        for subset in range(1 << len(items))
    )


# ------------------------------------------------------------------ moves made once


@cache
def play_move(card: str, target: str | None = None, target_seat: int | None = None) -> Move:
    """The one ``play`` move of ``card`` (taking ``target`` back from ``target_seat``'s row)."""
    return Move("play", card=card, target=target, target_seat=target_seat)


PASS_MOVE = Move("pass")
CEDE_MOVE = Move("cede")
DISCARD_MOVE = Move("discard")
KEEP_MOVE = Move("keep")
FAVOR_NONE_MOVE = Move("favor")
SCARECROW_ALONE = play_move("scarecrow")
BATTLE_IN = {region: Move("battle", region=region) for region in REGIONS}
FAVOR_ON = {region: Move("favor", region=region) for region in REGIONS}


def _plays_table(cards: Sequence[str], then: tuple[Move, ...] = ()) -> tuple[tuple[Move, ...], ...]:
    """:func:`by_bits` of the ``play`` moves of ``cards`` (a run of notation order), each
    followed by ``then``."""
    return tuple((*moves, *then) for moves in by_bits([play_move(card) for card in cards]))


# A hand's battle moves are read from three tables by slices of its held-kinds bits: the
# mercenaries, the cards from there to the Scarecrow, and the cards after it with `pass`. The
# Scarecrow's moves, which depend on the rows, go between the second and the third.
MIDDLE_SHIFT = len(MERCENARIES)
HIGH_SHIFT = CARD_ORDER["scarecrow"] + 1
LOW_MASK = (1 << MIDDLE_SHIFT) - 1
MIDDLE_MASK = (1 << (HIGH_SHIFT - 1 - MIDDLE_SHIFT)) - 1
PLAYS_LOW = _plays_table(CARDS[:MIDDLE_SHIFT])
PLAYS_MIDDLE = _plays_table(CARDS[MIDDLE_SHIFT : HIGH_SHIFT - 1])
PLAYS_HIGH = _plays_table(CARDS[HIGH_SHIFT:], then=(PASS_MOVE,))

SCARECROW_TAKES = {
    whose: by_bits([play_move("scarecrow", card, whose) for card in MERCENARIES])
    for whose in (None, *range(MOST_PLAYERS))
}
"""By the row's seat (None: one's own) and the kinds of mercenary in it as bits, a Scarecrow
taking back each of them (the mercenaries are the first cards of notation order)."""

# ------------------------------------------------------------------ regions as bits

REGION_BIT: dict[str | None, int] = {region: 1 << i for i, region in enumerate(REGIONS)}
"""Each region's bit, in board order (``REGION_BIT.get(None, 0)`` is no region)."""
_REGIONS_SPLIT = len(REGIONS) // 2
_REGIONS_LOW_MASK = (1 << _REGIONS_SPLIT) - 1
_REGIONS_HIGH_MASK = (1 << (len(REGIONS) - _REGIONS_SPLIT)) - 1
_REGIONS_LOW = by_bits(REGIONS[:_REGIONS_SPLIT])
_REGIONS_HIGH = by_bits(REGIONS[_REGIONS_SPLIT:])


def regions_but(barred: int) -> tuple[str, ...]:
    """The regions of the board, in board order, but those whose bits are set in ``barred``.

    >>> regions_but(sum(REGION_BIT[region] for region in REGIONS[1:])) == REGIONS[:1]
    True
    """
    free = ~barred
    return (
        _REGIONS_LOW[free & _REGIONS_LOW_MASK]
        + _REGIONS_HIGH[free >> _REGIONS_SPLIT & _REGIONS_HIGH_MASK]
    )


@lru_cache(maxsize=1 << 12)
def largest_group_of(regions: int) -> int:
    """The size of the largest connected group among the regions whose bits (board order) are
    set in ``regions``.

    >>> largest_group_of(REGION_BIT["Roma"] | REGION_BIT["Napoli"] | REGION_BIT["Torino"])
    2
    """
    return largest_group(region for i, region in enumerate(REGIONS) if regions >> i & 1)


# ------------------------------------------------------------------ seats in turn

CLOCKWISE = {
    players: tuple(
        tuple((start + i) % players for i in range(players)) for start in range(2 * players)
    )
    for players in range(1, MOST_PLAYERS + 1)
}
"""By table size, every seat once clockwise from each start seat (up to twice the table size,
so that ``seat + 1`` needs no modulo)."""

# ------------------------------------------------------------------ copies


def copied(counter: Counter[str]) -> Counter[str]:
    """A copy of ``counter``, without the cost of ``Counter.__init__`` (several times faster)."""
    copy: Counter[str] = Counter.__new__(Counter)
    dict.update(copy, counter)
    return copy
