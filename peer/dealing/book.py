"""The book of the hidden cards: the decks, and where every physical card is.

One :class:`crypto.Deck` per physical deck of the game (``GameState.decks``); a card is a deck
slot ``(deck, Slot(round, position))``. The book follows which slots each seat holds, which
are face up for everyone, which this seat opened privately, and which are out of the pile; the
sub-protocols of :mod:`condottiere.peer.dealing` read and move them, the book decides nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from condottiere.crypto import Deck, Slot, VerificationError
from condottiere.interface import Draw
from condottiere.peer.entries import Reason, Rejection

__all__ = ["Book", "Card", "blame"]

Card = tuple[int, Slot]
"""A physical card by where it was dealt from: (deck index, slot)."""


class Book:
    """The decks of one game as seen by ``seat`` (None: a peer that only watches), and every
    card followed."""

    def __init__(
        self,
        table_id: bytes,
        seats: int,
        seat: int | None,
        decks: Sequence[Sequence[str]],
        secrets: Sequence[int] | None = None,
        members: Sequence[int] | None = None,
    ) -> None:
        self.seats = seats
        self.table = table_id
        self.members = tuple(range(seats)) if members is None else tuple(members)
        """The seats that take part in the decks, in order: every seat, but for the seats
        that left before the first deal (the decks are keyed among the others). The decks
        number them 0, 1, ...: seat ``members[i]`` is the decks' seat ``i``."""
        self.seat = seat if seat in self.members else None
        self.index = None if self.seat is None else self.members.index(self.seat)
        """This seat's number in the decks."""
        self.decks = [
            Deck.watch(_deck_context(table_id, index), len(self.members), cards)
            if self.index is None
            else Deck(
                _deck_context(table_id, index),
                len(self.members),
                self.index,
                cards,
                None if secrets is None else secrets[index],
            )
            for index, cards in enumerate(decks)
        ]
        self.hands: list[list[Card]] = [[] for _ in range(seats)]
        self.face_up: dict[Card, str] = {}
        """Every card shown to everyone, by slot."""
        self.mine: dict[Card, str] = {}
        """This seat's own cards, opened privately."""
        self.out: list[set[Slot]] = [set() for _ in decks]
        """Per deck, the slots out of the pile: dealt, or taken by a search."""
        self.drawn = [0] * len(decks)
        """Per deck, the positions of its current round's pile dealt so far."""
        self.epochs = [0] * len(decks)
        """Per deck, how many times its pile was formed again."""
        self.home: dict[int, int] = {}
        """A seat -> the deck its deals come from first (where a card taken back returns)."""
        self.dealt: list[tuple[Card, ...]] = []
        """The slots of every deal, in the order of the game's deal events."""

    def at(self, seat: int) -> int:
        """``seat``'s number in the decks (see :attr:`members`)."""
        return self.members.index(seat)

    @property
    def started(self) -> bool:
        """Whether the decks have started (every member's key is in)."""
        return all(deck.round >= 0 for deck in self.decks)

    def name(self, card: Card) -> str | None:
        """The card's name as this seat knows it: face up, or its own; None if hidden."""
        return self.face_up.get(card) or self.mine.get(card)

    def positions(self, draw: Draw) -> tuple[int, ...]:
        """The positions of the current round's deck a draw takes: a draw counts only the
        cards still in the pile, so the positions searches took out are skipped."""
        order = self.decks[draw.pile].pile_positions()
        return tuple(order[k] for k in draw.positions)

    def pile_positions(self, index: int) -> tuple[int, ...]:
        """The positions of the current round of deck ``index`` still in the pile, in pile
        order: neither dealt nor taken out by a search."""
        return self.decks[index].pile_positions()[self.drawn[index] :]

    def drop_seat(self, seat: int) -> None:
        """``seat`` left: it shuffles no more (see ``Deck.drop_seat``)."""
        for deck in self.decks:
            deck.drop_seat(self.at(seat))

    def drop_hand(self, seat: int) -> None:
        """``seat`` left: its hidden hand leaves the game unseen (no pile takes it back)."""
        for index, slot in self.hands[seat]:
            self.out[index].discard(slot)
        self.hands[seat] = []

    def check_hands(self, sizes: Sequence[int]) -> None:
        """The slots followed per seat agree with the engine's hand sizes (else a bug)."""
        tracked = [len(hand) for hand in self.hands]
        if tracked != list(sizes):
            raise RuntimeError(f"the dealer follows hands of {tracked}, the engine {list(sizes)}")

    def blame_deck(self, exc: VerificationError, detail: str = "") -> Rejection:
        """The blame a deck's verification error puts on its seat (named as the table does)."""
        return blame(self.members[exc.seat], Reason.BAD_PROOF, detail + exc.reason)


def blame(seat: int, reason: Reason, detail: str) -> Rejection:
    """The refusal of ``seat``'s entry."""
    return Rejection(reason, detail, seat=seat)


def _deck_context(table_id: bytes, index: int) -> bytes:
    return table_id + index.to_bytes(1, "little")
