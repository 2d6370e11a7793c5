"""Standing in for a seat that left during a deal: the seats still there publish their parts
of its shares of the cards dealt (each from its piece of the leaver's backup, with proofs),
and their combination stands for the leaver's shares."""

from __future__ import annotations

from collections.abc import Sequence

from condottiere.crypto import (
    Context,
    Point,
    Slot,
    StandInBatch,
    VerificationError,
    combine_stand_in,
    make_stand_in,
    verification_key,
    verify_stand_in,
)
from condottiere.interface import Draw
from condottiere.peer import bodies
from condottiere.peer.dealing.backups import Backups
from condottiere.peer.dealing.book import Book, blame
from condottiere.peer.dealing.shares import Shares
from condottiere.peer.entries import Reason
from condottiere.v1 import log_pb2

__all__ = ["StandIns"]


class StandIns:
    """The stand-in parts for a leaver's shares of the deals under way."""

    def __init__(self, book: Book, backups: Backups, shares: Shares) -> None:
        self._book = book
        self._backups = backups
        self._shares = shares
        self._parts: dict[int, list[tuple[int, StandInBatch]]] = {}
        """A member's number in the decks -> its verified stand-in batches (deck, batch) for
        the deal under way."""

    def owed(self, leaver: int, draws: Sequence[Draw]) -> list[tuple[int, dict[int, int]]]:
        """The cards of these deals that need ``leaver``'s share: (deck, position -> owner,
        by its number in the decks); none for a seat that left before the first deal, nor
        for cards the others already stood in for (``Deck.unshared``)."""
        owed: dict[int, dict[int, int]] = {}
        for index, round_, owner, positions in self._shares.expected(leaver, draws):
            deck, gone = self._book.decks[index], self._book.at(leaver)
            needed = [p for p in positions if not deck.shared(Slot(round_, p), gone)]
            if needed:
                owed.setdefault(index, {}).update(dict.fromkeys(needed, owner))
        return sorted(owed.items())

    def make(self, leaver: int, draws: Sequence[Draw]) -> log_pb2.StandIn:
        """This seat's parts of ``leaver``'s shares of these deals' cards, with proofs."""
        book, backups = self._book, self._backups
        assert book.index is not None
        batches = []
        gone = book.at(leaver)
        for index, owners in self.owed(leaver, draws):
            deck = book.decks[index]
            holders, _ = backups.among(gone, index)
            cards = {position: deck.cards[position] for position in owners}
            context = Context(deck.table, deck.round, holders.index(book.index))
            piece = backups.pieces[(gone, index)]
            batches.append((index, make_stand_in(piece, holders.index(gone), cards, context)))
        return bodies.stand_in_body(leaver, batches)

    def accept(
        self, seat: int, leaver: int, body: log_pb2.StandIn, draws: Sequence[Draw]
    ) -> None:
        """Verify ``seat``'s parts of ``leaver``'s shares of these deals' cards, against its
        verification key in ``leaver``'s dealing; :class:`Rejection` blames ``seat``."""
        book, backups = self._book, self._backups
        owed = self.owed(leaver, draws)
        if body.leaver != leaver or [item.deck for item in body.batches] != [i for i, _ in owed]:
            raise blame(seat, Reason.UNEXPECTED, f"stand-in parts for seat {leaver} expected")
        checked = []
        gone, member = book.at(leaver), book.at(seat)
        for item, (index, owners) in zip(body.batches, owed, strict=True):
            deck = book.decks[index]
            holders, _ = backups.among(gone, index)
            batch = bodies.read_stand_in_batch(seat, item)
            try:
                key = verification_key(
                    backups.dealings[(gone, index)], deck.keys[gone], holders.index(member)
                )
                cards = {position: deck.cards[position] for position in owners}
                context = Context(deck.table, deck.round, holders.index(member))
                verify_stand_in(batch, holders.index(gone), key, cards, context)
            except VerificationError as exc:
                raise backups.blame(exc, holders) from None
            checked.append((index, batch))
        self._parts[member] = checked

    def complete(self, leaver: int, draws: Sequence[Draw]) -> None:
        """Combine every other seat's verified parts into ``leaver``'s shares of these deals'
        cards, and record them as its shares."""
        book = self._book
        gone = book.at(leaver)
        for index, owners in self.owed(leaver, draws):
            holders, _ = self._backups.among(gone, index)
            batches = {
                holders.index(member): batch
                for member, checked in self._parts.items()
                for deck_index, batch in checked
                if deck_index == index
            }
            shares: dict[int, Point] = combine_stand_in(batches, len(holders))
            book.decks[index].record_stand_in(gone, shares, owners)
        self._parts = {}
