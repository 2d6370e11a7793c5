"""A search of a pile for a named card: a plaintext equivalence test over every slot still in
the pile (each member still at the table blinds, then opens, with proofs; the pile is
searched under their key alone, the shares the others stood in for of a seat out taken off
it). The slot found leaves the pile face up into the searcher's hand."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from condottiere.crypto import Slot, VerificationError
from condottiere.peer import bodies
from condottiere.peer.dealing.backups import Backups
from condottiere.peer.dealing.book import Book, blame
from condottiere.peer.entries import Reason
from condottiere.v1 import log_pb2

__all__ = ["Searches"]


@dataclass
class _Search:
    """Search number ``number`` of deck ``index``'s pile for ``card``, under way: the
    positions searched."""

    number: int
    index: int
    card: str
    positions: tuple[int, ...]


class Searches:
    """The search under way, each bound to its number."""

    def __init__(self, book: Book, backups: Backups) -> None:
        self._book = book
        self._backups = backups
        self._search: _Search | None = None
        self._started = 0
        """Searches started so far: the next one's number (its proofs are bound to it)."""

    def start(self, index: int, card: str) -> None:
        """Begin a search of deck ``index``'s pile for ``card``, under a new number: every
        position still in the pile is tested (a search begun before and not finished, cut
        short by a seat put out, is dropped)."""
        self._search = _Search(self._started, index, card, self._book.pile_positions(index))
        self._started += 1

    def _under_way(self) -> _Search:
        if self._search is None:
            raise ValueError("no search is under way")
        return self._search

    def make_blinding(self) -> log_pb2.SearchBlinding:
        """This seat's blinding of every card still in the pile, with its proofs."""
        search = self._under_way()
        deck = self._book.decks[search.index]
        blinding = deck.make_search_blinding(search.number, search.card, search.positions)
        return bodies.search_blinding_body(search.index, deck.round, search.card, blinding)

    def _check_searched(self, seat: int, body: Any) -> None:
        """:class:`Rejection` unless ``body`` (a blinding or an opening) is for the search
        under way: its deck, round and card."""
        search = self._under_way()
        round_ = self._book.decks[search.index].round
        if (body.deck, body.round, body.card) != (search.index, round_, search.card):
            raise blame(
                seat,
                Reason.UNEXPECTED,
                f"a search of deck {search.index}, round {round_}, for {search.card!r} is "
                f"awaited, not of deck {body.deck}, round {body.round}, for {body.card!r}",
            )

    def accept_blinding(self, seat: int, body: log_pb2.SearchBlinding) -> None:
        """Verify and record ``seat``'s blinding; :class:`Rejection` blames it when it is
        malformed, of another search, or a proof fails."""
        self._check_searched(seat, body)
        search = self._under_way()
        book = self._book
        deck = book.decks[search.index]
        blinding = bodies.read_search_blinding(seat, body)
        awaited = (search.number, deck.round, search.card, search.positions)
        if (blinding.search, blinding.round, blinding.card, blinding.positions) != awaited:
            raise blame(
                seat,
                Reason.UNEXPECTED,
                f"a blinding of search {search.number} for {search.card!r} of the "
                f"{len(search.positions)} cards still in the pile expected",
            )
        try:
            deck.accept_search_blinding(book.at(seat), blinding)
        except VerificationError as exc:
            raise book.blame_deck(exc) from None

    def make_opening(self) -> log_pb2.SearchOpening:
        """This seat's decryption shares of the combined blindings, with proofs."""
        search = self._under_way()
        deck = self._book.decks[search.index]
        opening = deck.make_search_opening(search.number)
        return bodies.search_opening_body(search.index, deck.round, search.card, opening)

    def accept_opening(self, seat: int, body: log_pb2.SearchOpening) -> None:
        """Verify and record ``seat``'s opening; :class:`Rejection` blames it when it is
        malformed or fails (or carries stand-in parts: since protocol 7 a search needs no seat
        that left, whose shares of the pile the others stood in for at once)."""
        self._check_searched(seat, body)
        search = self._under_way()
        book = self._book
        deck, member = book.decks[search.index], book.at(seat)
        if body.stand_in:
            raise blame(seat, Reason.UNEXPECTED, "stand-in parts where no search needs them")
        opening = bodies.read_search_opening(seat, body)
        if (opening.search, opening.round) != (search.number, deck.round):
            raise blame(
                seat, Reason.UNEXPECTED, f"an opening of search {search.number} expected"
            )
        try:
            deck.accept_search_opening(member, opening)
        except VerificationError as exc:
            raise book.blame_deck(exc) from None

    def finish(self, seat: int) -> tuple[str, ...]:
        """Once every opening is in: ``(card,)`` when the card was found (its slot leaves the
        pile face up into ``seat``'s hand), ``()`` when it is not in the pile."""
        search = self._under_way()
        self._search = None
        book = self._book
        deck = book.decks[search.index]
        found = deck.search_result(search.number)
        if not found:
            return ()
        position = found[0]
        name = deck.take_out(search.number, position)
        card = (search.index, Slot(deck.round, position))
        book.out[search.index].add(card[1])
        book.face_up[card] = name
        book.hands[seat].append(card)
        return (name,)
