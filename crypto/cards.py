"""Cards as group elements: one point per physical card, and the way back.

Each physical card is hashed to the group from a domain-separated label
``name#copy`` (``10#1`` … ``10#8`` for eight 10s), so a deck with identical
cards still has one distinct point per card and nobody knows any discrete
logarithm between them (never ``k·G``, which would let anyone test guesses by
arithmetic). Copies are numbered from 1 in the order the deck lists them.

>>> book = Codebook(["10", "heroine", "10"])
>>> [str(card) for card in book.cards]
['10#1', 'heroine#1', '10#2']
>>> book.name_of(book.points[2])
'10'
>>> len(set(book.points))
3
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from condottiere.crypto.codec import Reader, encode_text, encode_u32
from condottiere.crypto.errors import DecodeError
from condottiere.crypto.group import Point, hash_to_point

__all__ = ["Codebook", "PhysicalCard", "card_point"]

_CARD_DOMAIN = b"card"


@dataclass(frozen=True, slots=True, order=True)
class PhysicalCard:
    """One physical card: its name and which copy of that name it is (from 1)."""

    name: str
    copy: int

    def __str__(self) -> str:
        return f"{self.name}#{self.copy}"


def card_point(card: PhysicalCard) -> Point:
    """The group element that encodes ``card``.

    >>> card_point(PhysicalCard("10", 3)) == card_point(PhysicalCard("10", 3))
    True
    """
    return hash_to_point(_CARD_DOMAIN, str(card).encode("utf-8"))


class Codebook:
    """The cards of a deck, their points in deck order, and the lookup from point to card.

    ``names`` lists the deck card by card (``["10", "10", "heroine", ...]``);
    a name must be non-empty and may not contain ``#``.
    """

    __slots__ = ("_card_of", "cards", "names", "points")

    def __init__(self, names: Iterable[str]) -> None:
        self.names: tuple[str, ...] = tuple(names)
        seen: Counter[str] = Counter()
        cards: list[PhysicalCard] = []
        for name in self.names:
            if not name or "#" in name:
                raise ValueError(f"a card name must be non-empty and free of '#': {name!r}")
            seen[name] += 1
            cards.append(PhysicalCard(name, seen[name]))
        self.cards: tuple[PhysicalCard, ...] = tuple(cards)
        self.points: tuple[Point, ...] = tuple(card_point(card) for card in cards)
        self._card_of: dict[Point, PhysicalCard] = dict(zip(self.points, cards, strict=True))

    def __len__(self) -> int:
        return len(self.cards)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Codebook) and self.names == other.names

    def __hash__(self) -> int:
        return hash(self.names)

    def card_of(self, point: Point) -> PhysicalCard | None:
        """The physical card ``point`` encodes, or None when it encodes no card of this deck."""
        return self._card_of.get(point)

    def name_of(self, point: Point) -> str | None:
        """The name of the card ``point`` encodes, or None when it encodes no card of this deck."""
        card = self._card_of.get(point)
        return None if card is None else card.name

    def point_of(self, card: PhysicalCard) -> Point:
        """The point of a card of this deck (KeyError for a card not in it)."""
        point = card_point(card)
        if point not in self._card_of:
            raise KeyError(str(card))
        return point

    def multiset(self, points: Sequence[Point]) -> Counter[str]:
        """How many of each card name ``points`` hold (points of no card are counted as '?')."""
        return Counter(self.name_of(p) or "?" for p in points)

    def encode(self) -> bytes:
        """The number of cards, then each name as length-prefixed UTF-8."""
        return encode_u32(len(self.names)) + b"".join(encode_text(n) for n in self.names)

    @classmethod
    def decode(cls, data: bytes) -> Codebook:
        """The codebook ``data`` encodes; :class:`DecodeError` if malformed.

        >>> book = Codebook(["1", "2", "2"])
        >>> Codebook.decode(book.encode()) == book
        True
        """
        reader = Reader(data)
        count = reader.u32()
        if count > reader.remaining // 4:
            raise DecodeError(f"{count} card names cannot fit in {reader.remaining} bytes")
        names = [reader.text() for _ in range(count)]
        reader.finish()
        try:
            return cls(names)
        except ValueError as exc:
            raise DecodeError(str(exc)) from None
