"""The cards a move shows: what the game's ``card_flow`` does to the mover's hand, mapped
onto deck slots.

A move shows cards: a hidden slot is revealed (the owner's share with its proof), a slot
already face up is only named; the slots leave the hand, or stay (retained). A card taken back
from the table (a Scarecrow) enters the hand as a face-up slot; cards another seat hands over
(face up before) move from its hand to the mover's.
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from condottiere.crypto import Reveal, VerificationError
from condottiere.interface import CardFlow
from condottiere.peer import bodies
from condottiere.peer.dealing.book import Book, Card, blame
from condottiere.peer.entries import Reason
from condottiere.v1 import log_pb2

__all__ = ["Moves", "Showing"]

_RANDOM = secrets.SystemRandom()
"""Which copy of a card a move shows (the operating system's CSPRNG)."""


@dataclass
class Showing:
    """The cards one move shows, checked and ready to apply (see :meth:`Moves.check`)."""

    seat: int
    cards: list[tuple[Card, str]] = field(default_factory=list)
    reveals: list[tuple[int, Reveal]] = field(default_factory=list)
    received: list[tuple[int, Card]] = field(default_factory=list)
    """The face-up cards other seats hand to the mover: (giver, card)."""

    @property
    def names(self) -> list[str]:
        return [name for _, name in self.cards]


class Moves:
    """The cards of each move: shown by this seat, checked and applied for every seat."""

    def __init__(self, book: Book) -> None:
        self._book = book

    def show(self, flow: CardFlow) -> list[log_pb2.CardShown]:
        """The cards this seat's move shows (revealing hidden ones), for its entry. Of several
        hidden copies of a card, the one shown is drawn uniformly at random (never the lowest
        slot first), so that watchers learn nothing of the copies it leaves hidden."""
        book = self._book
        assert book.seat is not None
        hand = book.hands[book.seat]
        if flow.whole_hand:
            chosen = list(hand)
        else:
            chosen = []
            for name in _shown_by(book.seat, flow):
                candidates = [
                    card for card in hand if card not in chosen and book.name(card) == name
                ]
                # a card everyone has seen shows nothing new: play it first; among hidden
                # copies, any one, so that a reveal says nothing of the slots not shown
                seen = [card for card in candidates if card in book.face_up]
                chosen.append(_RANDOM.choice(sorted(seen or candidates)))
        shown = []
        for card in chosen:
            index, slot = card
            if card in book.face_up:
                shown.append(bodies.card_shown(index, slot=slot))
            else:
                reveal = book.decks[index].make_reveal(slot)
                shown.append(bodies.card_shown(index, reveal=reveal))
        return shown

    def check(self, seat: int, flow: CardFlow, shown: Sequence[log_pb2.CardShown]) -> Showing:
        """Check the cards ``seat``'s move shows against its hand and the move; nothing is
        recorded (see :meth:`apply`). :class:`Rejection` names the seat to blame."""
        book = self._book
        showing = Showing(seat)
        hand = set(book.hands[seat])
        for item in shown:
            if not 0 <= item.deck < len(book.decks):
                raise blame(seat, Reason.UNEXPECTED, f"there is no deck {item.deck}")
            kind = item.WhichOneof("shown")
            if kind == "known":
                card = (item.deck, bodies.slot_of(item.known))
                if card not in hand or card not in book.face_up:
                    raise blame(
                        seat, Reason.ILLEGAL, f"names {card[1]}, not a face-up card of its hand"
                    )
                name = book.face_up[card]
            elif kind == "reveal":
                reveal = bodies.read_reveal(seat, item)
                card = (item.deck, reveal.slot)
                if card not in hand or card in book.face_up:
                    raise blame(
                        seat,
                        Reason.ILLEGAL,
                        f"reveals {reveal.slot}, not a hidden card of its hand",
                    )
                try:
                    name = book.decks[item.deck].check_reveal(book.at(seat), reveal)
                except VerificationError as exc:
                    raise book.blame_deck(exc) from None
                showing.reveals.append((item.deck, reveal))
            else:
                raise blame(seat, Reason.UNEXPECTED, "a shown card names no slot")
            if any(card == other for other, _ in showing.cards):
                raise blame(seat, Reason.ILLEGAL, f"shows {card[1]} twice")
            showing.cards.append((card, name))
        if flow.whole_hand:
            if len(showing.cards) != len(hand):
                raise blame(
                    seat, Reason.ILLEGAL, f"shows {len(showing.cards)} of {len(hand)} cards"
                )
        elif Counter(showing.names) != Counter(_shown_by(seat, flow)):
            wanted = ", ".join(_shown_by(seat, flow)) or "nothing"
            raise blame(
                seat, Reason.ILLEGAL, f"shows {', '.join(showing.names) or 'nothing'}, not {wanted}"
            )
        showing.received = self._handed_to(seat, flow)
        return showing

    def _handed_to(self, seat: int, flow: CardFlow) -> list[tuple[int, Card]]:
        """The cards other seats hand to ``seat``'s move (an offer it accepts), each a card of
        the giver's hand shown face up before: (giver, card), the lowest slot of each name
        first (face-up copies are alike). :class:`Rejection` blames ``seat`` for a card that
        is not there."""
        book = self._book
        received: list[tuple[int, Card]] = []
        for handed in flow.handed:
            if handed.giver == seat:
                continue
            taken = {card for _, card in received}
            candidates = sorted(
                card
                for card in book.hands[handed.giver]
                if card not in taken and book.face_up.get(card) == handed.card
            )
            if not candidates:
                raise blame(
                    seat,
                    Reason.ILLEGAL,
                    f"takes {handed.card}, not a face-up card of seat {handed.giver}'s hand",
                )
            received.append((handed.giver, candidates[0]))
        return received

    def apply(self, showing: Showing, flow: CardFlow) -> None:
        """Record a checked move's cards: shown face up, out of the hand or kept."""
        book = self._book
        seat = showing.seat
        for index, reveal in showing.reveals:
            book.decks[index].accept_reveal(book.at(seat), reveal)
        for card, name in showing.cards:
            book.face_up[card] = name
        shown = {card for card, _ in showing.cards}
        if flow.rest_returned:
            book.hands[seat] = [card for card in book.hands[seat] if card in shown]
        elif flow.whole_hand:
            book.hands[seat] = [card for card in book.hands[seat] if card not in shown]
        else:  # the played and handed cards leave the hand, the others shown stay in it
            played = Counter(flow.played)
            given = [h for h in flow.handed if h.giver == seat]
            left = set()
            for card, name in showing.cards:
                if played[name]:
                    played[name] -= 1
                    left.add(card)
            for handed in given:
                card = next(
                    c for c, name in showing.cards if c not in left and name == handed.card
                )
                left.add(card)
                book.hands[handed.receiver].append(card)
            book.hands[seat] = [card for card in book.hands[seat] if card not in left]
        for giver, card in showing.received:
            book.hands[giver].remove(card)
            book.hands[seat].append(card)
        for name in flow.taken:
            book.hands[seat].append(self._from_table(seat, name))

    def _from_table(self, seat: int, name: str) -> Card:
        book = self._book
        in_hands = {card for hand in book.hands for card in hand}
        home = book.home.get(seat, 0)
        candidates = sorted(
            (index != home, index, slot)
            for index, out in enumerate(book.out)
            for slot in out
            if book.face_up.get((index, slot)) == name and (index, slot) not in in_hands
        )
        if not candidates:
            raise RuntimeError(f"no face-up {name} on the table to take back")
        _, index, slot = candidates[0]
        return (index, slot)


def _shown_by(seat: int, flow: CardFlow) -> tuple[str, ...]:
    """The cards of ``seat``'s hand its move must show: played, shown, and handed away."""
    return (*flow.played, *flow.shown, *(h.card for h in flow.handed if h.giver == seat))
