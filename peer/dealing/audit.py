"""The audit at the game's end: every member's deck secrets published and the whole game
checked from them; a seat that left checked alone, and the rounds keyed after it left checked
from the secrets of the seats that stayed."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from condottiere.crypto import DecodeError, VerificationError, decode_scalar
from condottiere.peer import bodies
from condottiere.peer.dealing.book import Book, Card, blame
from condottiere.peer.entries import Reason

__all__ = ["Audit"]


class Audit:
    """The checks of the game from the published secrets."""

    def __init__(self, book: Book) -> None:
        self._book = book

    @staticmethod
    def encode_secrets(secrets: Iterable[int]) -> list[bytes]:
        """Secrets as published for the audit."""
        return bodies.encode_secrets(secrets)

    def whole(self, secrets: Sequence[Sequence[bytes]]) -> dict[Card, str]:
        """Check the whole game from every member's secrets (member by member); every card of
        every deck by slot. :class:`Rejection` names the seat that cheated."""
        book = self._book
        decoded: list[list[int]] = []
        for seat, encoded in zip(book.members, secrets, strict=True):
            try:
                decoded.append([decode_scalar(data) for data in encoded])
            except DecodeError as exc:
                raise blame(seat, Reason.BAD_PROOF, f"audit secret: {exc}") from None
            if len(decoded[-1]) != len(book.decks):
                raise blame(seat, Reason.UNEXPECTED, f"{len(book.decks)} secrets expected")
        cards: dict[Card, str] = {}
        for index, deck in enumerate(book.decks):
            try:
                found = deck.audit([seat_secrets[index] for seat_secrets in decoded])
            except VerificationError as exc:
                raise book.blame_deck(exc, "audit: ") from None
            cards.update(((index, slot), name) for slot, name in found.items())
        return cards

    def seat(self, seat: int, secrets: Sequence[bytes]) -> None:
        """Check one seat's secrets (one per deck) against its keys and every share it gave
        (the audit of a table a seat left); :class:`Rejection` blames it otherwise."""
        book = self._book
        if len(secrets) != len(book.decks):
            raise blame(seat, Reason.UNEXPECTED, f"{len(book.decks)} secrets expected")
        for deck, encoded in zip(book.decks, secrets, strict=True):
            try:
                deck.audit_seat(book.at(seat), decode_scalar(encoded))
            except DecodeError as exc:
                raise blame(seat, Reason.BAD_PROOF, f"audit secret: {exc}") from None
            except VerificationError as exc:
                raise book.blame_deck(exc, "audit: ") from None

    def rekeyed(self, secrets: Mapping[int, Sequence[bytes]]) -> dict[Card, str]:
        """Check whole every round keyed after a seat left, from the secrets of the seats that
        stayed (seat -> one secret per deck, each already checked by :meth:`seat`); the cards
        of those rounds by slot. :class:`Rejection` names the seat that cheated."""
        book = self._book
        cards: dict[Card, str] = {}
        for index, deck in enumerate(book.decks):
            by_member = {
                book.at(seat): decode_scalar(encoded[index]) for seat, encoded in secrets.items()
            }
            try:
                found = deck.audit_rekeyed(by_member)
            except VerificationError as exc:
                raise book.blame_deck(exc, "audit: ") from None
            cards.update(((index, slot), name) for slot, name in found.items())
        return cards
