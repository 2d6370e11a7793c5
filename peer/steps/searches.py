"""Searches: when the game searches a draw pile for a named card, every seat still at the
table blinds every card still in the pile, with proofs; then each opens the combined
blindings, and the card found, if any, leaves the pile face up into the searcher's hand. A
seat out is needed by no search: the others stood in for its shares of the pile right after
its verdict (:func:`~condottiere.peer.steps.leavers.catch_up`), and the pile is searched under
their key alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from google.protobuf.message import Message

from condottiere.interface import GameState, SearchDeck
from condottiere.peer.dealing import Dealer
from condottiere.peer.entries import LogEntry
from condottiere.peer.steps import deal
from condottiere.peer.steps.base import (
    ACCEPT,
    After,
    Next,
    RuleContext,
    Step,
    StepKind,
    StepRule,
    Verdict,
    Work,
    register,
)

SEARCH_BLINDING = StepKind("search_blinding")
"""The search_blinding step: every seat blinds the pile searched."""
SEARCH_OPENING = StepKind("search_opening")
"""The search_opening step: every seat opens the blinded pile."""


class Context(RuleContext, Protocol):
    """What the rules of a search see of the table."""

    dealer: Dealer | None
    game: GameState[Any] | None

    def _seat_authors(self, seats: Sequence[int]) -> tuple[bytes, ...]: ...

    def _work_timed(
        self, work: Work, deck: int, seat: int | None
    ) -> AbstractContextManager[None]: ...


def start_search(t: Context, step: Step, search: SearchDeck) -> Step | None:
    """The step that starts the search of a draw pile the game waits for: the pile's shuffle
    chain first, where its round is not shuffled yet (as a deal would), then the blinding
    step of every seat still at the table. None when the pile holds no card (the search is
    settled at once: not found)."""
    dealer = t.dealer
    assert dealer is not None
    shuffler = dealer.shuffles.next_shuffler(search.pile)
    if shuffler is not None:
        return step.then(deal.SHUFFLE, t._seat_authors([shuffler]), deck=search.pile)
    if not dealer.pile_positions(search.pile):
        resolve_search(t, search, ())
        return None
    dealer.searches.start(search.pile, search.card)
    searchers = [seat for seat in dealer.members if seat not in t.out]
    return step.then(SEARCH_BLINDING, t._seat_authors(searchers), search=search)


def resolve_search(t: Context, search: SearchDeck, found: tuple[str, ...]) -> None:
    """Give the game what the search found, and say it."""
    game = t.game
    assert game is not None
    game.resolve(found)
    t._tell_game()


def _card(step: Step) -> str:
    """The card a search step searches for."""
    return "a card" if step.search is None else step.search.card


class SearchBlindingRule(StepRule):
    """Every seat still at the table: its blinding of every card still in the pile."""

    kind = SEARCH_BLINDING
    words = "the blinding of a search of the deck"
    doing = "Searching the draw pile"
    about = "only whether each card is the one named is learned"

    answers = (SearchDeck,)

    def start(self, t: Context, step: Step, waiting: SearchDeck) -> Step | None:
        """A search of a draw pile the game waits for (see :func:`start_search`)."""
        return start_search(t, step, waiting)

    def waiting_text(self, t: Context, step: Step, names: str) -> str:
        return f"{names} to blind the draw pile for a search for {_card(step)}"

    def progress(self, t: Context, step: Step) -> tuple[int, int] | None:
        return len(step.answers), len(step.authors)

    def make(self, t: Context, step: Step) -> Message | None:
        dealer, search = t.dealer, step.search
        assert dealer is not None and search is not None
        with t._work_timed(Work.MAKE_BLINDING, search.pile, t.seat):
            return dealer.searches.make_blinding()

    def judge(self, t: Context, step: Step, author: bytes, entry: LogEntry) -> Verdict:
        """Check ``author``'s blinding (its proofs verified, but for this seat's own)."""
        seat = t.seat_of(author)
        assert t.dealer is not None and step.search is not None and seat is not None
        own = author == t.me
        with t._work_timed(Work.CHECK_BLINDING, step.search.pile, None if own else seat):
            t.dealer.searches.accept_blinding(seat, entry.body)
        return ACCEPT

    def finish(self, t: Context, step: Step) -> Next:
        return step.then(SEARCH_OPENING, step.authors, search=step.search)


class SearchOpeningRule(StepRule):
    """Every seat still at the table: its decryption shares of the combined blindings, with
    proofs (and its parts of a seat out's shares)."""

    kind = SEARCH_OPENING
    words = "the opening of a search of the deck"
    doing = "Searching the draw pile"
    about = "only whether each card is the one named is learned"

    def waiting_text(self, t: Context, step: Step, names: str) -> str:
        return f"{names} to open the search of the draw pile for {_card(step)}"

    def progress(self, t: Context, step: Step) -> tuple[int, int] | None:
        return len(step.answers), len(step.authors)

    def make(self, t: Context, step: Step) -> Message | None:
        dealer, search = t.dealer, step.search
        assert dealer is not None and search is not None
        with t._work_timed(Work.MAKE_OPENING, search.pile, t.seat):
            return dealer.searches.make_opening()

    def judge(self, t: Context, step: Step, author: bytes, entry: LogEntry) -> Verdict:
        """Check ``author``'s opening (its proofs verified, but for this seat's own)."""
        seat = t.seat_of(author)
        assert t.dealer is not None and step.search is not None and seat is not None
        own = author == t.me
        with t._work_timed(Work.CHECK_OPENING, step.search.pile, None if own else seat):
            t.dealer.searches.accept_opening(seat, entry.body)
        return ACCEPT

    def finish(self, t: Context, step: Step) -> Next:
        """Every opening is in: the card found (if any) leaves the pile face up into the
        searcher's hand, and the game goes on."""
        dealer, search = t.dealer, step.search
        assert dealer is not None and search is not None
        found = dealer.searches.finish(search.seat)
        resolve_search(t, search, found)
        return After.GAME


register(SearchBlindingRule(), SearchOpeningRule())
