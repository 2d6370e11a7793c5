"""A hidden hand proved to hold a card of a set, showing none: a disjunctive Chaum-Pedersen
proof over the seat's hidden cards and the set's cards (:mod:`crypto.holds
<condottiere.crypto.holds>`); a face-up card of the set in the hand needs no proof."""

from __future__ import annotations

from collections.abc import Collection

from condottiere.crypto import (
    Context,
    HiddenCard,
    Point,
    VerificationError,
    prove_holds,
    verify_holds,
)
from condottiere.peer import bodies
from condottiere.peer.dealing.book import Book, Card, blame
from condottiere.peer.entries import Reason
from condottiere.v1 import log_pb2

__all__ = ["HandProofs"]


class HandProofs:
    """This seat's proofs that its hand holds a card of a set, and every seat's checked,
    each bound to its number."""

    def __init__(self, book: Book) -> None:
        self._book = book
        self._proved = 0
        """Proofs accepted so far: the next one's number (it is bound to it)."""

    def statement(
        self, seat: int, names: Collection[str]
    ) -> tuple[list[Card], list[HiddenCard], list[Point]] | None:
        """``seat``'s hidden cards, each as every seat knows it, and the points of the cards
        named; None when a face-up card of its hand is named (nothing to prove)."""
        book = self._book
        hand = book.hands[seat]
        if any(book.face_up.get(card) in names for card in hand):
            return None
        hidden = [card for card in hand if card not in book.face_up]
        known = [book.decks[index].hidden_card(slot)[1] for index, slot in hidden]
        points = dict.fromkeys(point for deck in book.decks for point in deck.points_named(names))
        return hidden, known, list(points)

    def _context(self, seat: int) -> Context:
        return Context(self._book.table + b"/hand-holds", self._proved, seat)

    def prove(self, names: Collection[str]) -> log_pb2.HandProof:
        """This seat's proof that its hand holds a card named in ``names``, for its entry;
        ValueError when it holds none (an honest seat is never asked)."""
        book = self._book
        assert book.seat is not None
        statement = self.statement(book.seat, names)
        if statement is None:
            return bodies.hand_proof_body(None)
        hidden, known, points = statement
        for number, card in enumerate(hidden):
            if book.mine.get(card) in names:
                deck = book.decks[card[0]]
                held = (number, points.index(deck.own_point(card[1])))
                proof = prove_holds(deck.secret, known, points, held, self._context(book.seat))
                return bodies.hand_proof_body(proof)
        raise ValueError(f"this hand holds none of {', '.join(sorted(names))}")

    def check(self, seat: int, names: Collection[str], body: log_pb2.HandProof) -> None:
        """Check ``seat``'s proof that its hand holds a card named in ``names`` (every public
        share of its hidden cards verified first); :class:`Rejection` blames ``seat`` for a
        proof missing, malformed or that does not verify (or the seat of a bad share)."""
        try:
            statement = self.statement(seat, names)
        except VerificationError as exc:
            raise self._book.blame_deck(exc) from None
        if statement is None:
            if body.proof:
                raise blame(seat, Reason.UNEXPECTED, "a proof where a face-up card shows it")
        else:
            _, known, points = statement
            if not known or not points:
                raise blame(seat, Reason.ILLEGAL, "its hand holds no hidden card to prove")
            proof = bodies.read_hand_proof(seat, body, len(known) * len(points))
            try:
                verify_holds(proof, known, points, self._context(seat))
            except VerificationError as exc:
                raise blame(seat, Reason.BAD_PROOF, exc.reason) from None
        self._proved += 1
