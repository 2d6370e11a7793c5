"""Re-keying a pile formed again after a seat left: the seats still there publish their parts
of the leaver's shares of the hidden cards that came back (from their pieces of its backup,
with proofs), and their combination takes the leaver's key off those cards, so that the new
round is keyed by the seats still there alone."""

from __future__ import annotations

from condottiere.crypto import (
    Context,
    StandInBatch,
    VerificationError,
    combine_stand_in,
    make_stand_in,
    verification_key,
    verify_stand_in,
)
from condottiere.peer import bodies
from condottiere.peer.dealing.backups import Backups
from condottiere.peer.dealing.book import Book, blame
from condottiere.peer.entries import Reason
from condottiere.v1 import log_pb2

__all__ = ["Rekeys"]


class Rekeys:
    """The parts to re-key a deck's new round without a seat that left."""

    def __init__(self, book: Book, backups: Backups) -> None:
        self._book = book
        self._backups = backups
        self._parts: dict[int, StandInBatch] = {}
        """A member's number in the decks -> its verified parts for the re-keying under way."""

    def owed(self, index: int) -> int | None:
        """The seat that left whose key deck ``index``'s new round still waits to have taken
        off the hidden cards that came back (see ``Deck.rekey_owed``); None once the round is
        keyed by the seats still there alone."""
        owed = self._book.decks[index].rekey_owed()
        return self._book.members[min(owed)] if owed else None

    def make(self, index: int, leaver: int) -> log_pb2.Rekey:
        """This seat's parts of ``leaver``'s shares of the cards deck ``index``'s new round owes
        it, with proofs (an encoded ``StandInBatch``)."""
        book, backups = self._book, self._backups
        assert book.index is not None
        deck, gone = book.decks[index], book.at(leaver)
        holders, _ = backups.among(gone, index)
        context = Context(deck.table, deck.round, holders.index(book.index))
        cards = deck.rekey_owed()[gone]
        piece = backups.pieces[(gone, index)]
        batch = make_stand_in(piece, holders.index(gone), cards, context)
        return bodies.rekey_body(index, deck.round, leaver, batch)

    def accept(self, seat: int, leaver: int, index: int, body: log_pb2.Rekey) -> None:
        """Verify ``seat``'s parts for re-keying deck ``index`` without ``leaver``, against its
        verification key in ``leaver``'s dealing; :class:`Rejection` blames ``seat``."""
        book, backups = self._book, self._backups
        deck = book.decks[index]
        if (body.deck, body.round, body.leaver) != (index, deck.round, leaver):
            raise blame(
                seat, Reason.UNEXPECTED, f"parts to re-key deck {index}, round {deck.round}, "
                f"without seat {leaver} expected"
            )
        gone, member = book.at(leaver), book.at(seat)
        holders, _ = backups.among(gone, index)
        at = holders.index(member)
        batch = bodies.read_rekey(seat, body)
        try:
            key = verification_key(backups.dealings[(gone, index)], deck.keys[gone], at)
            context = Context(deck.table, deck.round, at)
            verify_stand_in(batch, holders.index(gone), key, deck.rekey_owed()[gone], context)
        except VerificationError as exc:
            raise blame(seat, Reason.BAD_PROOF, f"re-key: {exc.reason}") from None
        self._parts[at] = batch

    def complete(self, index: int, leaver: int) -> None:
        """Combine every other seat's verified parts into ``leaver``'s shares of the cards
        that came back into deck ``index``, and take its key off them."""
        gone = self._book.at(leaver)
        shares = combine_stand_in(self._parts, len(self._backups.among(gone, index)[0]))
        self._book.decks[index].rekey(gone, shares)
        self._parts = {}
