"""Re-keying a deck without a seat that left, right after its verdict: the seats still there
publish their parts of the leaver's shares of every card of the deck's current round that
still needs it (from their pieces of its backup, with proofs), and their combination is
recorded as its shares, so that no card needs the leaver again (at the next reshuffle its key
comes off the hidden cards that go back by those shares). A card that comes back at a
reshuffle with no share of the leaver recorded (one it held and handed on) is re-keyed the
same way before the new round is shuffled."""

from __future__ import annotations

from condottiere.crypto import (
    Ciphertext,
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
    """The parts to re-key a deck's current round without a seat that left."""

    def __init__(self, book: Book, backups: Backups) -> None:
        self._book = book
        self._backups = backups
        self._parts: dict[int, StandInBatch] = {}
        """A member's number in the decks -> its verified parts for the re-keying under way."""

    def owed(self, index: int) -> int | None:
        """The seat that left whose shares cards of deck ``index``'s current round still
        need (the cards a round formed again brought back under its key, or, once the round
        is shuffled, any card still in play without its share: ``Deck.unshared``); None when
        none does."""
        deck = self._book.decks[index]
        owed = deck.rekey_owed()
        if owed:
            return self._book.members[min(owed)]
        for gone in sorted(set(range(deck.seats)) - set(deck.staying)):
            if deck.unshared(gone):
                return self._book.members[gone]
        return None

    def _cards(self, index: int, gone: int) -> dict[int, Ciphertext]:
        """The cards of deck ``index``'s current round whose ``gone`` share is asked for."""
        deck = self._book.decks[index]
        return deck.rekey_owed().get(gone) or deck.unshared(gone)

    def make(self, index: int, leaver: int) -> log_pb2.Rekey:
        """This seat's parts of ``leaver``'s shares of the cards of deck ``index``'s current
        round that still need them, with proofs (an encoded ``StandInBatch``)."""
        book, backups = self._book, self._backups
        assert book.index is not None
        deck, gone = book.decks[index], book.at(leaver)
        holders, _ = backups.among(gone, index)
        context = Context(deck.table, deck.round, holders.index(book.index))
        piece = backups.pieces[(gone, index)]
        batch = make_stand_in(piece, holders.index(gone), self._cards(index, gone), context)
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
            verify_stand_in(batch, holders.index(gone), key, self._cards(index, gone), context)
        except VerificationError as exc:
            raise blame(seat, Reason.BAD_PROOF, f"re-key: {exc.reason}") from None
        self._parts[at] = batch

    def complete(self, index: int, leaver: int) -> None:
        """Combine every other seat's verified parts into ``leaver``'s shares of the cards
        of deck ``index`` that needed them: its key taken off the cards a new round brought
        back, or its shares recorded for every card of a shuffled round."""
        deck, gone = self._book.decks[index], self._book.at(leaver)
        shares = combine_stand_in(self._parts, len(self._backups.among(gone, index)[0]))
        if gone in deck.rekey_owed():
            deck.rekey(gone, shares)
        else:
            deck.record_stand_in(gone, shares, {})
        self._parts = {}
