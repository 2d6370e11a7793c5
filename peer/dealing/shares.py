"""The deals: each member's decryption shares of the cards a deal gives the other seats, and
the dealt slots given to their owner (who opens its own).

A deal gives the owner the slots at the deal's positions of the pile's current round; the
positions of later deals of the same round count only the slots still in the pile.
"""

from __future__ import annotations

from collections.abc import Sequence

from condottiere.crypto import ShareBatch, Slot, VerificationError
from condottiere.interface import Draw
from condottiere.peer import bodies
from condottiere.peer.dealing.book import Book, blame
from condottiere.peer.entries import Reason
from condottiere.v1 import log_pb2

__all__ = ["Batch", "Shares"]

Batch = tuple[int, int, int, tuple[int, ...]]
"""The shares one seat owes for one deck: (deck, round, owner, positions), the owner by its
number in the decks."""


class Shares:
    """The shares of the cards dealt, made, checked and recorded; and the deals themselves."""

    def __init__(self, book: Book) -> None:
        self._book = book

    def sharers(self, draws: Sequence[Draw]) -> list[int]:
        """The seats that must publish shares for these deals: all but a sole owner."""
        owners = {draw.deal.seat for draw in draws}
        return [seat for seat in self._book.members if owners - {seat}]

    def expected(self, seat: int, draws: Sequence[Draw]) -> list[Batch]:
        """The share batches ``seat`` owes for these deals."""
        book = self._book
        if seat not in book.members:
            return []
        wanted: dict[tuple[int, int], list[int]] = {}
        for draw in draws:
            deck = book.decks[draw.pile]
            if book.at(seat) not in deck.members_of(deck.round):
                continue  # a round keyed without it (see the re-keys)
            if draw.deal.seat != seat:
                owner = book.at(draw.deal.seat)
                wanted.setdefault((draw.pile, owner), []).extend(book.positions(draw))
        return [
            (index, book.decks[index].round, owner, tuple(positions))
            for (index, owner), positions in sorted(wanted.items())
        ]

    def make(self, draws: Sequence[Draw]) -> log_pb2.Shares:
        """This seat's shares of the cards these deals give the other seats."""
        book = self._book
        assert book.seat is not None
        return bodies.shares_body(
            (index, book.decks[index].make_shares(owner, positions))
            for index, _, owner, positions in self.expected(book.seat, draws)
        )

    def accept(
        self, seat: int, body: log_pb2.Shares, draws: Sequence[Draw], trusted: bool
    ) -> None:
        """Record ``seat``'s shares for these deals. Shares of this seat's own cards are
        verified now (unless ``trusted``: its own entries, or ones it checked before); those
        of other seats' cards when their card is shown (see ``Deck.accept_shares``)."""
        book = self._book
        expected = self.expected(seat, draws)
        if len(body.batches) != len(expected):
            raise blame(seat, Reason.UNEXPECTED, f"{len(expected)} share batches expected")
        batches = []
        for item, (index, round_, owner, positions) in zip(body.batches, expected, strict=True):
            batch = bodies.read_share_batch(seat, item)
            if (item.deck, batch.round, batch.owner, batch.positions) != (
                index,
                round_,
                owner,
                positions,
            ):
                raise blame(
                    seat,
                    Reason.UNEXPECTED,
                    f"shares of deck {index}, round {round_}, positions {positions[0]}-"
                    f"{positions[-1]} for seat {book.members[owner]} expected",
                )
            batches.append((index, batch))
        checked = []
        for index, batch in batches:  # every batch checked before any is recorded
            verify = not trusted and batch.owner == book.index
            try:
                checks = book.decks[index].check_shares(book.at(seat), batch, verify=verify)
            except VerificationError as exc:
                raise book.blame_deck(exc) from None
            checked.append((index, batch, checks, verify))
        for index, batch, checks, verified in checked:
            book.decks[index].record_shares(book.at(seat), batch, checks, verified)

    def check(self, body: log_pb2.Shares) -> None:
        """Verify every still-unchecked share of an entry this dealer accepted (evidence that
        one is bad); :class:`Rejection` names the seat whose share does not verify."""
        book = self._book
        for item in body.batches:
            if not 0 <= item.deck < len(book.decks):
                continue
            batch = ShareBatch.decode(item.batch)
            slots = [Slot(batch.round, position) for position in batch.positions]
            try:
                book.decks[item.deck].verify_pending(slots)
            except VerificationError as exc:
                raise book.blame_deck(exc) from None

    def verify_some(self, slots: int) -> bool:
        """Verify the unchecked shares of up to ``slots`` cards (work a peer does while it
        waits, so that showing a card later costs only its reveal); True if more remain.
        :class:`Rejection` names the seat whose share does not verify."""
        book = self._book
        for index, deck in enumerate(book.decks):
            pending = deck.pending()
            if pending:
                try:
                    deck.verify_pending(pending[:slots])
                except VerificationError as exc:
                    raise book.blame_deck(exc) from None
                return len(pending) > slots or any(d.pending() for d in book.decks[index + 1 :])
        return False

    def deal(self, draw: Draw) -> tuple[str, ...] | None:
        """Give the draw's slots to its seat; the card names when the seat is this one."""
        book = self._book
        index, seat = draw.pile, draw.deal.seat
        deck = book.decks[index]
        slots = [Slot(deck.round, position) for position in book.positions(draw)]
        book.drawn[index] = max(book.drawn[index], draw.start + draw.deal.count)
        book.out[index].update(slots)
        book.hands[seat].extend((index, slot) for slot in slots)
        book.dealt.append(tuple((index, slot) for slot in slots))
        if seat != book.seat:
            return None
        names = []
        for slot in slots:
            try:
                name = deck.open(slot)
            except VerificationError as exc:
                raise book.blame_deck(exc) from None
            book.mine[(index, slot)] = name
            names.append(name)
        return tuple(names)
