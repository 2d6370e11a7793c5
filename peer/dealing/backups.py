"""The backups of the deck secrets (tables of :data:`MIN_BACKUP_SEATS` seats or more): each
member's box key, its dealing of every deck's secret among the others (a piece each, sealed in
a box), complaints about a piece and their answers, a new backup among the seats still there
right after a seat left, and whether they can act for one that leaves."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from condottiere.crypto import (
    MIN_BACKUP_SEATS,
    BoxKey,
    BoxSecret,
    Context,
    Dealing,
    Slot,
    VerificationError,
    answer_complaint,
    make_dealing,
    open_piece,
    settle_complaint,
)
from condottiere.peer import bodies
from condottiere.peer.dealing.book import Book, blame
from condottiere.peer.entries import Reason, Rejection
from condottiere.v1 import log_pb2

__all__ = ["Backups"]


class Backups:
    """Every member's backups of its deck secrets, and this seat's pieces of them."""

    def __init__(self, book: Book) -> None:
        self._book = book
        self.box_keys: list[BoxKey] = []
        """Every seat's box key."""
        self.dealings: dict[tuple[int, int], Dealing] = {}
        """(dealer, deck) -> its dealing of that deck's secret (the dealer by its number in
        the decks)."""
        self.pieces: dict[tuple[int, int], int] = {}
        """(dealer, deck) -> this seat's piece of the dealer's secret, opened and checked (the
        dealer by its number in the decks)."""
        self.dealt_among: dict[tuple[int, int], tuple[tuple[int, ...], int]] = {}
        """(dealer, deck) -> the members its dealing is among (by their numbers in the decks;
        the dealing numbers them 0, 1, ... in this order) and the round it was made for:
        every member and round 0 unless it was dealt again (:meth:`make_redealing`)."""

    @property
    def backed_up(self) -> bool:
        """Whether this table backs its deck secrets up (three members or more)."""
        return len(self._book.members) >= MIN_BACKUP_SEATS

    def among(self, dealer: int, index: int) -> tuple[tuple[int, ...], int]:
        """The members ``dealer``'s dealing of deck ``index`` is among, and its round (see
        :attr:`dealt_among`)."""
        return self.dealt_among.get((dealer, index), (tuple(range(len(self._book.members))), 0))

    def blame(self, exc: VerificationError, holders: Sequence[int]) -> Rejection:
        """The blame of a backup's verification error, whose seat is numbered in the dealing
        (see :attr:`dealt_among`)."""
        return blame(self._book.members[holders[exc.seat]], Reason.BAD_PROOF, exc.reason)

    def accept_box_keys(self, encoded: Sequence[bytes]) -> None:
        """Every member's box key (member by member); :class:`Rejection` names a malformed
        one."""
        self.box_keys = bodies.read_box_keys(self._book.members, encoded)

    def make_dealings(self) -> log_pb2.Dealings:
        """This seat's dealing of each deck's secret (deterministic: made again alike)."""
        book = self._book
        assert book.index is not None
        return bodies.dealings_body(
            make_dealing(deck.secret, self.box_keys, Context(deck.table, 0, book.index))
            for deck in book.decks
        )

    def accept_dealings(
        self, seat: int, body: log_pb2.Dealings, box: BoxSecret | None
    ) -> list[int]:
        """Record ``seat``'s dealings (:class:`Rejection` if malformed); with this seat's box
        secret, open and check its pieces: the decks whose piece fails (to complain of).
        (The dealings and pieces are kept by the dealers' numbers in the decks.)"""
        book = self._book
        dealer = book.at(seat)
        if len(body.dealings) != len(book.decks):
            raise blame(seat, Reason.UNEXPECTED, f"{len(book.decks)} dealings expected")
        dealings = bodies.read_dealings(seat, body, len(book.members))
        bad = []
        for index, (deck, dealing) in enumerate(zip(book.decks, dealings, strict=True)):
            self.dealings[(dealer, index)] = dealing
            if box is None or book.index is None or book.index == dealer:
                continue
            context = Context(deck.table, 0, dealer)
            try:
                self.pieces[(dealer, index)] = open_piece(
                    dealing, deck.keys[dealer], box, book.index, context
                )
            except VerificationError:
                bad.append(index)
        return bad

    def answer(self, recipient: int, index: int) -> bytes:
        """This seat's answer to ``recipient``'s complaint about its dealing of deck
        ``index``: the piece and the box's ephemeral secret."""
        book = self._book
        assert book.index is not None
        deck = book.decks[index]
        holders, round_ = self.among(book.index, index)
        keys = [self.box_keys[member] for member in holders]
        context = Context(deck.table, round_, holders.index(book.index))
        to = holders.index(book.at(recipient))
        return answer_complaint(deck.secret, keys, to, context).encode()

    def settle(self, dealer: int, complainer: int, index: int, answer: bytes | None) -> Rejection:
        """The blame a complaint ends with (see ``crypto.settle_complaint``)."""
        book = self._book
        deck, dealer, complainer = book.decks[index], book.at(dealer), book.at(complainer)
        holders, round_ = self.among(dealer, index)
        decoded = None if answer is None else bodies.complaint_answer(answer)
        try:
            settle_complaint(
                self.dealings[(dealer, index)],
                deck.keys[dealer],
                [self.box_keys[member] for member in holders],
                holders.index(complainer),
                decoded,
                Context(deck.table, round_, holders.index(dealer)),
            )
        except VerificationError as exc:
            return self.blame(exc, holders)

    def redealt(self, index: int) -> tuple[int, ...] | None:
        """The seats that back their secrets of deck ``index`` up again among themselves
        right after a seat left: the seats still there (three or more); None where the
        backups are among them already, or they are too few."""
        book = self._book
        staying = book.decks[index].staying
        if len(staying) < MIN_BACKUP_SEATS:
            return None
        if all(self.among(member, index)[0] == staying for member in staying):
            return None
        return tuple(book.members[member] for member in staying)

    def make_redealing(self, index: int) -> log_pb2.Redealing:
        """This seat's secret of deck ``index`` backed up again among the seats still there
        (deterministic, as the first dealing; bound to the deck's current round and to
        them, by their box keys)."""
        book = self._book
        assert book.index is not None
        deck = book.decks[index]
        members = deck.staying
        keys = [self.box_keys[member] for member in members]
        context = Context(deck.table, deck.round, members.index(book.index))
        dealing = make_dealing(deck.secret, keys, context)
        return bodies.redealing_body(index, deck.round, dealing)

    def accept_redealing(
        self, seat: int, body: log_pb2.Redealing, box: BoxSecret | None
    ) -> bool:
        """Record ``seat``'s new dealing of a deck among the seats still there
        (:class:`Rejection` if it is not one for the deck's current round); with this seat's
        box secret, open and check its piece: True when it fails (to complain of, as of a
        first dealing's)."""
        book = self._book
        index = body.deck
        if not 0 <= index < len(book.decks) or body.round != book.decks[index].round:
            raise blame(seat, Reason.UNEXPECTED, "a new backup of another deck or round")
        deck, dealer = book.decks[index], book.at(seat)
        members = deck.staying
        dealing = bodies.read_redealing(seat, body, len(members))
        self.dealings[(dealer, index)] = dealing
        self.dealt_among[(dealer, index)] = (members, deck.round)
        self.pieces.pop((dealer, index), None)
        if box is None or book.index is None or book.index == dealer or book.index not in members:
            return False  # (a seat that left is no member of the round its backup is for)
        context = Context(deck.table, deck.round, members.index(dealer))
        try:
            self.pieces[(dealer, index)] = open_piece(
                dealing, deck.keys[dealer], box, members.index(book.index), context
            )
        except VerificationError:
            return True
        return False

    def covered(self, seat: int, out: Collection[int]) -> bool:
        """Whether the seats still at the table can act for ``seat`` (just put out; ``out``
        holds every seat out, ``seat`` too): for every deck, ``seat``'s backup is among three
        members or more, every other of them still at the table, and no card still in play
        needs the share of a seat gone before (the others stood in for it right after its
        verdict: ``Deck.unshared``; a card that came back at a reshuffle without its share
        waits for the ``rekey`` step before the round is shuffled)."""
        book = self._book
        if seat not in book.members or not self.backed_up:
            return False
        gone = book.at(seat)
        earlier = [book.at(s) for s in out if s != seat and s in book.members]
        for index, deck in enumerate(book.decks):
            holders, _ = self.among(gone, index)
            if gone not in holders or any(
                book.members[m] in out for m in holders if m != gone
            ):
                return False
            hidden = {slot for hand in book.hands[:seat] + book.hands[seat + 1:]
                      for i, slot in hand if i == index} | book.out[index]
            hidden |= {Slot(deck.round, p) for p in book.pile_positions(index)}
            hidden = {slot for slot in hidden if (index, slot) not in book.face_up}
            if any(leaver in deck.rekey_owed() for leaver in earlier) or any(
                not deck.shared(slot, leaver) for slot in hidden for leaver in earlier
            ):
                return False
        return True
