"""A table of decks driven as peers drive them: every message through its encoding to every seat.

Shared by the tests of cards shown to one seat (``test_sealed.py``) and of searches of the
pile (``test_pet.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from condottiere.crypto.deck import Deck, Reveal, ShareBatch, ShuffleStep, Slot
from condottiere.crypto.keys import KeyAnnouncement
from condottiere.crypto.pet import SearchBlinding, SearchOpening
from condottiere.crypto.sealed import SealedShare

NAMES = ["1", "2", "3", "4", "5", "6", "10", "heroine", "spy", "drummer", "winter", "bishop"]


def unique_names(size: int) -> list[str]:
    """A deck of ``size`` cards, each name once (as Captains' captains are)."""
    return [f"card-{i}" for i in range(size)]


class Table:
    """Every seat's deck; each message is encoded, decoded and accepted by every seat."""

    def __init__(self, seats: int, names: Sequence[str], table: bytes = b"table-1") -> None:
        self.names = list(names)
        self.decks = [Deck(table, seats, seat, names) for seat in range(seats)]
        announcements = [KeyAnnouncement.decode(d.announcement.encode()) for d in self.decks]
        for deck in self.decks:
            deck.accept_keys(announcements)

    @classmethod
    def shuffled(cls, seats: int, names: Sequence[str], table: bytes = b"table-1") -> Table:
        made = cls(seats, names, table)
        made.shuffle_all()
        return made

    def shuffle_all(self) -> None:
        for deck in self.decks:
            if deck.next_shuffler is None:
                break
            seat = deck.next_shuffler
            step = self.decks[seat].make_shuffle().encode()
            for receiver in self.decks:
                receiver.accept_shuffle(seat, ShuffleStep.decode(step, len(receiver.cards)))

    def deal(self, owner: int, positions: Sequence[int], *, verify: bool = True) -> list[Slot]:
        """Every other seat's shares of ``positions`` for ``owner``, accepted by every deck
        (``verify=False``: recorded, checked when needed)."""
        for seat, maker in enumerate(self.decks):
            if seat != owner:
                wire = maker.make_shares(owner, positions).encode()
                for deck in self.decks:
                    deck.accept_shares(seat, ShareBatch.decode(wire), verify=verify)
        round_ = self.decks[0].round
        return [Slot(round_, p) for p in positions]

    def reveal(self, holder: int, slot: Slot) -> list[str]:
        wire = self.decks[holder].make_reveal(slot).encode()
        return [deck.accept_reveal(holder, Reveal.decode(wire)) for deck in self.decks]

    def seal(self, holder: int, slot: Slot, viewer: int, *, handed: bool) -> list[str | None]:
        """``holder`` shows (or hands) the card at ``slot`` to ``viewer``: what each deck says."""
        wire = self.decks[holder].make_sealed_share(slot, viewer).encode()
        return [
            deck.accept_sealed_share(holder, SealedShare.decode(wire), handed=handed)
            for deck in self.decks
        ]

    def blind(self, search: int, card: str, positions: Sequence[int], seats: Sequence[int]) -> None:
        for seat in seats:
            wire = self.decks[seat].make_search_blinding(search, card, positions).encode()
            for deck in self.decks:
                deck.accept_search_blinding(seat, SearchBlinding.decode(wire))

    def open_search(self, search: int, seats: Sequence[int]) -> None:
        for seat in seats:
            wire = self.decks[seat].make_search_opening(search).encode()
            for deck in self.decks:
                deck.accept_search_opening(seat, SearchOpening.decode(wire))

    def search(
        self, search: int, card: str, positions: Sequence[int] | None = None
    ) -> tuple[int, ...]:
        """Every seat searches the undealt pile (or ``positions``) for ``card``; the result,
        the same on every deck."""
        seats = range(len(self.decks))
        where = self.decks[0].undealt() if positions is None else positions
        self.blind(search, card, where, seats)
        self.open_search(search, seats)
        results = {deck.search_result(search) for deck in self.decks}
        assert len(results) == 1
        return results.pop()

    def secrets(self) -> list[int]:
        return [deck.secret for deck in self.decks]

    def truth(self) -> Mapping[Slot, str]:
        """Every card of the game, from the audit of the first deck."""
        return self.decks[0].audit(self.secrets())
