"""A hand shown to one seat alone: each hidden card's part sealed to the viewer with its
proof, each face-up card by its slot; handed over, the cards go to the viewer's hand (still
hidden from everyone else)."""

from __future__ import annotations

from dataclasses import dataclass, field

from condottiere.crypto import SealedShare, VerificationError
from condottiere.peer import bodies
from condottiere.peer.dealing.book import Book, Card, blame
from condottiere.peer.entries import Reason
from condottiere.v1 import log_pb2

__all__ = ["HandShowing", "ShownHands"]


@dataclass
class HandShowing:
    """A hand shown to one seat, checked and ready to apply (see :meth:`ShownHands.check`):
    each hidden card with its part sealed to the viewer, and the face-up cards."""

    seat: int
    viewer: int
    sealed: list[tuple[Card, SealedShare]] = field(default_factory=list)
    face_up: list[Card] = field(default_factory=list)


class ShownHands:
    """Hands shown to one seat: made by this seat, checked and applied for every seat."""

    def __init__(self, book: Book) -> None:
        self._book = book

    def show(self, viewer: int) -> log_pb2.HandShown:
        """This seat's whole hand shown to ``viewer`` alone, for its entry: each hidden card's
        part sealed to the viewer with its proof, each face-up card by its slot."""
        book = self._book
        assert book.seat is not None
        hand = book.hands[book.seat]
        face_up = [card for card in hand if card in book.face_up]
        sealed = [
            (index, book.decks[index].make_sealed_share(slot, book.at(viewer)))
            for index, slot in hand
            if (index, slot) not in book.face_up
        ]
        return bodies.hand_shown_body(viewer, face_up, sealed)

    def check(self, seat: int, viewer: int, body: log_pb2.HandShown) -> HandShowing:
        """Check ``seat``'s hand shown to ``viewer``: every card of its hand once, each hidden
        one sealed to the viewer with a proof that verifies (the viewer's own dealer opens it
        here); nothing is recorded (see :meth:`apply`). :class:`Rejection` blames ``seat``."""
        book = self._book
        if body.viewer != viewer:
            raise blame(seat, Reason.UNEXPECTED, f"shows its hand to seat {body.viewer}, "
                        f"not to seat {viewer}")
        showing = HandShowing(seat, viewer)
        hand = set(book.hands[seat])
        named: set[Card] = set()
        for item in body.face_up:
            card = (item.deck, bodies.slot_of(item.slot))
            if card not in hand or card not in book.face_up or card in named:
                raise blame(seat, Reason.ILLEGAL, f"names {card[1]}, not a face-up card of "
                            "its hand (or twice)")
            named.add(card)
            showing.face_up.append(card)
        for sealed in body.sealed:
            if not 0 <= sealed.deck < len(book.decks):
                raise blame(seat, Reason.UNEXPECTED, f"there is no deck {sealed.deck}")
            share = bodies.read_sealed_share(seat, sealed)
            card = (sealed.deck, share.slot)
            if card not in hand or card in book.face_up or card in named:
                raise blame(seat, Reason.ILLEGAL, f"seals {share.slot}, not a hidden card of "
                            "its hand (or twice)")
            if share.viewer != book.at(viewer):
                raise blame(seat, Reason.ILLEGAL, f"seals {share.slot} to another seat than "
                            f"seat {viewer}")
            try:
                book.decks[sealed.deck].check_sealed_share(book.at(seat), share)
            except VerificationError as exc:
                raise book.blame_deck(exc) from None
            named.add(card)
            showing.sealed.append((card, share))
        if len(named) != len(hand):
            raise blame(seat, Reason.ILLEGAL, f"shows {len(named)} of the {len(hand)} cards "
                        "of its hand")
        return showing

    def apply(self, showing: HandShowing, *, handed: bool) -> tuple[str, ...] | None:
        """Record a checked hand shown: the viewer knows its cards; with ``handed`` they go
        to the viewer's hand (hidden cards stay hidden to everyone else). The cards' names
        on the viewer's dealer, None on every other."""
        book = self._book
        seat, viewer = showing.seat, showing.viewer
        names = [book.face_up[card] for card in showing.face_up]
        for (index, _), share in showing.sealed:
            name = book.decks[index].accept_sealed_share(book.at(seat), share, handed=handed)
            if name is not None:
                names.append(name)
                if handed:
                    book.mine[(index, share.slot)] = name
        if handed:
            book.hands[viewer].extend(book.hands[seat])
            book.hands[seat] = []
        return tuple(names) if book.seat == viewer else None
