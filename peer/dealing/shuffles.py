"""The shuffles: each pile formed (again) and shuffled by every member in turn, with proofs.

When a pile is formed again (a new epoch), every slot in no hand goes back into it: hidden
slots as their ciphertexts (they stay hidden), face-up ones as fresh encryptions of their known
cards, and the undealt rest of the round too; whole hands whose seats the engine emptied go
back with them. Nothing hidden is ever revealed by a reshuffle.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from condottiere.crypto import DecodeError, GroupError, Slot, VerificationError
from condottiere.interface import Draw
from condottiere.peer import bodies
from condottiere.peer.dealing.book import Book, blame
from condottiere.peer.entries import Reason
from condottiere.v1 import log_pb2

__all__ = ["Shuffles"]


class Shuffles:
    """The piles formed again at each epoch the game's deals ask for, and their shuffle
    chains."""

    def __init__(self, book: Book) -> None:
        self._book = book

    def sync(self, draws: Sequence[Draw], hand_sizes: Sequence[int]) -> None:
        """Form again every pile the pending deals take from at a new epoch (see the module)."""
        book = self._book
        for draw in draws:
            book.home.setdefault(draw.deal.seat, draw.pile)
            if draw.epoch != book.epochs[draw.pile]:
                if draw.epoch != book.epochs[draw.pile] + 1:
                    raise RuntimeError(f"deck {draw.pile} skipped an epoch")
                self._reform(draw.pile, hand_sizes, draw.kept_out)

    def _reform(self, index: int, hand_sizes: Sequence[int], kept_out: Sequence[str]) -> None:
        book = self._book
        deck = book.decks[index]
        kept: set[Slot] = set()
        for seat, hand in enumerate(book.hands):
            mine = [slot for deck_index, slot in hand if deck_index == index]
            if hand_sizes[seat] == 0:
                book.hands[seat] = [card for card in hand if card[0] != index]
            else:
                kept.update(mine)
        in_play = Counter(kept_out)
        for slot in sorted(book.out[index] - kept):
            name = book.face_up.get((index, slot))
            if name is not None and in_play[name]:  # face up on the table: it stays there
                in_play[name] -= 1
                kept.add(slot)
        returning = sorted(book.out[index] - kept)
        undealt = [Slot(deck.round, p) for p in book.pile_positions(index)]
        hidden = [*undealt, *(s for s in returning if (index, s) not in book.face_up)]
        face_up = [s for s in returning if (index, s) in book.face_up]
        deck.reshuffle(hidden, face_up)
        book.out[index] = kept
        book.drawn[index] = 0
        book.epochs[index] += 1

    def ready(self, index: int) -> bool:
        """Whether deck ``index``'s shuffle chain is complete."""
        return self._book.decks[index].ready

    def next_shuffler(self, index: int) -> int | None:
        """The seat whose step of deck ``index``'s shuffle chain is awaited; None when none."""
        book = self._book
        shuffler = book.decks[index].next_shuffler
        return None if shuffler is None else book.members[shuffler]

    def round(self, index: int) -> int:
        """Deck ``index``'s current round (its pile formed again that many times)."""
        return self._book.decks[index].round

    def make(self, index: int) -> log_pb2.Shuffle:
        """This seat's step of deck ``index``'s shuffle chain, with its proof."""
        deck = self._book.decks[index]
        return bodies.shuffle_body(index, deck.round, deck.make_shuffle())

    def make_ahead(self, index: int, body: log_pb2.Shuffle) -> None:
        """Make this seat's shuffle of the deck ``body`` (the step just before this seat's)
        makes, while that step is verified on another thread (see
        ``Deck.make_shuffle_ahead``); nothing for a step that does not even decode (its
        verification blames it)."""
        deck = self._book.decks[index]
        try:
            deck.make_shuffle_ahead(bodies.shuffle_step(body, len(deck.cards)))
        except (DecodeError, ValueError, GroupError):
            return

    def accept(self, index: int, seat: int, body: log_pb2.Shuffle, verify: bool) -> None:
        """Record ``seat``'s step of deck ``index``'s chain (its proof verified with
        ``verify``); :class:`Rejection` blames it."""
        book = self._book
        deck = book.decks[index]
        if (body.deck, body.round) != (index, deck.round):
            raise blame(seat, Reason.UNEXPECTED, f"a shuffle of deck {index}, round {deck.round}")
        # the verification checks every point (or the step was verified before)
        step = bodies.read_shuffle(seat, body, len(deck.cards))
        try:
            deck.accept_shuffle(book.at(seat), step, verify=verify)
        except VerificationError as exc:
            raise book.blame_deck(exc) from None
