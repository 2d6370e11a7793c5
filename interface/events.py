"""The events of a game's record: what a game writes as it is played, and what the platform
(the table, ``verify``, ``replay``, the client, the tournament) reads by name.

Every change of a game is one event: a move (:class:`MovePlayed`), a move the open table
played by itself because the rules left no choice (:class:`ForcedMove`), and the chance the
game asked for and was told: cards dealt (:class:`Dealt`), a fair choice of a seat
(:class:`Chosen`), a hand shown to one seat (:class:`HandShown`), a named card searched for
in the draw pile (:class:`Searched`), a hidden hand proved to hold a card of a set
(:class:`HandProved`); and a seat leaving the table (:class:`SeatLeft`).

Each is an immutable value with two forms that round-trip: the list a record stores
(:meth:`to_json`, read back by :func:`event_from_json`; the same lists records have always
held, so older records replay and hash as before) and a line of text (``str``, read back by
:func:`parse_event`). Cards a table may not see are a count:

>>> deal = Dealt(1, ("10", "heroine"))
>>> deal.to_json(), str(deal), str(deal.public())
(['deal', 1, ['10', 'heroine']], 'deal 1: 10 heroine', 'deal 1: 2 unseen')
>>> event_from_json(["show", 0, 2, 3, True]) == HandShown(0, 2, 3, handed=True)
True
>>> parse_event("search 1 for gonzaga: found")
Searched(seat=1, card='gonzaga', found=True)

They are named tuples, not dataclasses, because an engine writes one for every move and
every deal of every game a bot imagines: one costs a tenth of a frozen dataclass to build.
An event equals only an event of its own type.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Sequence
from typing import Any, NamedTuple

__all__ = [
    "Chosen",
    "Dealt",
    "ForcedMove",
    "HandProved",
    "HandShown",
    "MovePlayed",
    "RecordEvent",
    "Searched",
    "SeatLeft",
    "event_from_json",
    "parse_event",
]

UNSEEN = "unseen"
"""How a text form says that cards are counted, not named (``deal 1: 10 unseen``)."""


def _cards_text(cards: tuple[str, ...] | int) -> str:
    return f"{cards} {UNSEEN}" if isinstance(cards, int) else " ".join(cards)


def _cards_of(text: str) -> tuple[str, ...] | int:
    words = text.split()
    if len(words) == 2 and words[1] == UNSEEN and words[0].isdigit():
        return int(words[0])
    return tuple(words)


def _cards_json(cards: tuple[str, ...] | int) -> list[str] | int:
    return cards if isinstance(cards, int) else list(cards)


class MovePlayed(NamedTuple):
    """``seat`` played ``move``; ``revealed``: the cards of a hand the move showed face up
    (a discarded hand, a mulligan), where the move alone does not name them."""

    seat: int
    move: Hashable
    """The game's move value or its text: ``str(move)`` is its notation."""
    revealed: tuple[str, ...] | None = None

    def __str__(self) -> str:
        shown = "" if self.revealed is None else f" | {_cards_text(self.revealed)}"
        return f"move {self.seat}: {self.move}{shown}"

    def to_json(self) -> list[Any]:
        if self.revealed is None:
            return ["move", self.seat, str(self.move)]
        return ["move", self.seat, str(self.move), list(self.revealed)]

    def public(self) -> MovePlayed:
        return self


class ForcedMove(NamedTuple):
    """The open table played ``move`` for ``seat`` by itself: the rules left it no choice
    (a seat's own engine is asked for it, and plays it as a move)."""

    seat: int
    move: str

    def __str__(self) -> str:
        return f"auto {self.seat}: {self.move}"

    def to_json(self) -> list[Any]:
        return ["auto", self.seat, self.move]

    def public(self) -> ForcedMove:
        return self


class Dealt(NamedTuple):
    """``cards`` dealt to ``seat`` from the draw pile; their count where the table that
    wrote it may not see them."""

    seat: int
    cards: tuple[str, ...] | int

    @property
    def size(self) -> int:
        """How many cards."""
        return self.cards if isinstance(self.cards, int) else len(self.cards)

    def __str__(self) -> str:
        return f"deal {self.seat}: {_cards_text(self.cards)}"

    def to_json(self) -> list[Any]:
        return ["deal", self.seat, _cards_json(self.cards)]

    def public(self) -> Dealt:
        """The deal as anyone may see it: a count."""
        return self if isinstance(self.cards, int) else Dealt(self.seat, len(self.cards))


class Chosen(NamedTuple):
    """A fair choice among ``seats`` chose ``seat``; ``purpose`` says what it decided."""

    purpose: str
    seats: tuple[int, ...]
    seat: int

    def __str__(self) -> str:
        return f"choice {self.seat} of {' '.join(map(str, self.seats))}: {self.purpose}"

    def to_json(self) -> list[Any]:
        return ["choice", self.purpose, list(self.seats), self.seat]

    def public(self) -> Chosen:
        return self


class HandShown(NamedTuple):
    """``seat``'s whole hand shown to ``viewer`` alone (with ``handed``, given to it):
    its ``cards``, or their count where the table that wrote it may not see them."""

    seat: int
    viewer: int
    cards: tuple[str, ...] | int
    handed: bool = False

    @property
    def size(self) -> int:
        """How many cards."""
        return self.cards if isinstance(self.cards, int) else len(self.cards)

    def __str__(self) -> str:
        verb = "hand" if self.handed else "show"
        return f"{verb} {self.seat} to {self.viewer}: {_cards_text(self.cards)}"

    def to_json(self) -> list[Any]:
        return ["show", self.seat, self.viewer, _cards_json(self.cards), self.handed]

    def public(self) -> HandShown:
        """The hand as anyone but its viewer may see it: a count."""
        return self if isinstance(self.cards, int) else self._replace(cards=len(self.cards))


class Searched(NamedTuple):
    """The draw pile was searched for ``card`` for ``seat``; ``found``: it was there and went
    face up into ``seat``'s hand."""

    seat: int
    card: str
    found: bool

    def __str__(self) -> str:
        return f"search {self.seat} for {self.card}: {'found' if self.found else 'not found'}"

    def to_json(self) -> list[Any]:
        return ["search", self.seat, self.card, self.found]

    def public(self) -> Searched:
        return self


class HandProved(NamedTuple):
    """``seat`` proved that its hidden hand holds a card of the set the game asked about,
    showing none (every table writes it alike)."""

    seat: int

    def __str__(self) -> str:
        return f"holds {self.seat}"

    def to_json(self) -> list[Any]:
        return ["holds", self.seat]

    def public(self) -> HandProved:
        return self


class SeatLeft(NamedTuple):
    """``seat`` left the table for good."""

    seat: int

    def __str__(self) -> str:
        return f"leave {self.seat}"

    def to_json(self) -> list[Any]:
        return ["leave", self.seat]

    def public(self) -> SeatLeft:
        return self


RecordEvent = (
    MovePlayed | ForcedMove | Dealt | Chosen | HandShown | Searched | HandProved | SeatLeft
)
"""Any event of a game's record."""


def _equal_to_its_own_type_only(kind: type[tuple[Any, ...]]) -> None:
    """An event of ``kind`` equals (and hashes as) an event of ``kind`` with the same fields,
    never a plain tuple or an event of another kind."""

    def equal(self: tuple[Any, ...], other: object) -> bool:
        return type(other) is kind and tuple.__eq__(self, other)

    def unequal(self: tuple[Any, ...], other: object) -> bool:
        return not equal(self, other)

    def hashed(self: tuple[Any, ...]) -> int:
        return hash((kind.__name__, *self))

    kind.__eq__ = equal  # type: ignore[method-assign]
    kind.__ne__ = unequal  # type: ignore[assignment,method-assign]
    kind.__hash__ = hashed  # type: ignore[method-assign]


for _kind in (MovePlayed, ForcedMove, Dealt, Chosen, HandShown, Searched, HandProved, SeatLeft):
    _equal_to_its_own_type_only(_kind)


def _cards_from_json(value: Any) -> tuple[str, ...] | int:
    if isinstance(value, bool) or not isinstance(value, int | list | tuple):
        raise ValueError(f"{value!r} is neither cards nor a count of cards")
    return value if isinstance(value, int) else tuple(str(card) for card in value)


def event_from_json(data: Sequence[Any]) -> RecordEvent:
    """The event a record's list stores (:meth:`MovePlayed.to_json` and the like); an event
    is returned as it is. ValueError for a list that is no event."""
    if isinstance(data, RecordEvent):
        return data
    try:
        kind, *rest = data
        if kind == "move" and len(rest) in (2, 3):
            revealed = None if len(rest) == 2 else tuple(map(str, rest[2]))
            return MovePlayed(int(rest[0]), str(rest[1]), revealed)
        if kind == "auto" and len(rest) == 2:
            return ForcedMove(int(rest[0]), str(rest[1]))
        if kind == "deal" and len(rest) == 2:
            return Dealt(int(rest[0]), _cards_from_json(rest[1]))
        if kind == "choice" and len(rest) == 3:
            return Chosen(str(rest[0]), tuple(map(int, rest[1])), int(rest[2]))
        if kind == "show" and len(rest) == 4:
            return HandShown(int(rest[0]), int(rest[1]), _cards_from_json(rest[2]), bool(rest[3]))
        if kind == "search" and len(rest) == 3:
            return Searched(int(rest[0]), str(rest[1]), bool(rest[2]))
        if kind == "leave" and len(rest) == 1:
            return SeatLeft(int(rest[0]))
        if kind == "holds" and len(rest) == 1:
            return HandProved(int(rest[0]))
    except (TypeError, ValueError):
        pass
    raise ValueError(f"unknown event {list(data)!r}")


_TEXT = re.compile(
    r"(?P<kind>move|auto|deal|choice|show|hand|search|holds|leave) (?P<seat>\d+)"
    r"(?: of (?P<seats>[\d ]+)| to (?P<viewer>\d+)| for (?P<card>\S+))?"
    r"(?:: (?P<rest>.*))?"
)


def parse_event(text: str) -> RecordEvent:
    """The event a line of text spells (``str`` of an event); ValueError if none.

    >>> parse_event("move 2: discard | 10 10 heroine")
    MovePlayed(seat=2, move='discard', revealed=('10', '10', 'heroine'))
    >>> parse_event("choice 1 of 0 1 2: first battle marker").seats
    (0, 1, 2)
    """
    found = _TEXT.fullmatch(text.strip())
    if found is None:
        raise ValueError(f"{text!r} is not an event")
    kind, seat, rest = found["kind"], int(found["seat"]), found["rest"]
    if kind == "leave" and rest is None and found["viewer"] is found["card"] is found["seats"]:
        return SeatLeft(seat)
    if kind == "holds" and rest is None and found["viewer"] is found["card"] is found["seats"]:
        return HandProved(seat)
    if rest is not None:
        if kind == "move" and found["viewer"] is found["card"] is found["seats"]:
            move, bar, shown = rest.partition(" | ")
            cards = _cards_of(shown) if bar else None
            if not isinstance(cards, int):
                return MovePlayed(seat, move, cards)
        elif kind == "auto" and found["viewer"] is found["card"] is found["seats"]:
            return ForcedMove(seat, rest)
        elif kind == "deal" and found["viewer"] is found["card"] is found["seats"]:
            return Dealt(seat, _cards_of(rest))
        elif kind == "choice" and found["seats"] is not None:
            return Chosen(rest, tuple(map(int, found["seats"].split())), seat)
        elif kind in ("show", "hand") and found["viewer"] is not None:
            return HandShown(seat, int(found["viewer"]), _cards_of(rest), kind == "hand")
        elif kind == "search" and found["card"] is not None and rest in ("found", "not found"):
            return Searched(seat, found["card"], rest == "found")
    raise ValueError(f"{text!r} is not an event")
