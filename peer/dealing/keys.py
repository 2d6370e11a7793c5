"""The decks' keys: each member's key of every deck, announced with its proof."""

from __future__ import annotations

from collections.abc import Sequence

from condottiere.crypto import KeyAnnouncement, VerificationError
from condottiere.peer import bodies
from condottiere.peer.dealing.book import Book, blame
from condottiere.peer.entries import Reason

__all__ = ["Keys"]


class Keys:
    """This seat's keys of the decks, and every member's checked."""

    def __init__(self, book: Book) -> None:
        self._book = book

    def secrets(self) -> list[int]:
        """This seat's secret of every deck (to store, and to publish for the audit)."""
        return [deck.secret for deck in self._book.decks]

    def announcements(self) -> list[bytes]:
        """This seat's key of every deck with its proof, for its entry."""
        return bodies.encode_announcements(deck.announcement for deck in self._book.decks)

    def accept(self, announcements: Sequence[Sequence[bytes]]) -> None:
        """Every member's announcements (member by member, one per deck); :class:`Rejection`
        if one is malformed or its proof does not verify."""
        book = self._book
        decoded: list[list[KeyAnnouncement]] = []
        for seat, encoded in zip(book.members, announcements, strict=True):
            if len(encoded) != len(book.decks):
                raise blame(seat, Reason.UNEXPECTED, f"{len(book.decks)} keys expected")
            decoded.append(bodies.read_announcements(seat, encoded))
        try:
            if len(book.decks) > 1:  # every deck checked before any starts: none half-started
                for index, deck in enumerate(book.decks):
                    deck.check_keys([keys[index] for keys in decoded])
            for index, deck in enumerate(book.decks):
                deck.accept_keys([keys[index] for keys in decoded])
        except VerificationError as exc:
            raise book.blame_deck(exc) from None
