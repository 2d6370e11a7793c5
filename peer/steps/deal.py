"""Shuffle and deal: each seat re-encrypts and permutes a deck in turn, with a proof; at a
deal, every seat but a card's owner publishes its decryption shares of the cards dealt.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from google.protobuf.message import Message

from condottiere.interface import Deal, Draw, GameState
from condottiere.peer.dealing import Dealer
from condottiere.peer.entries import LogEntry, Reason, Rejection
from condottiere.peer.logs import Logs
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
from condottiere.v1 import log_pb2

SHUFFLE = StepKind("shuffle")
"""The shuffle step: one seat re-encrypts and permutes a deck."""
SHARES = StepKind("shares")
"""The shares step: every seat but a deal's owner publishes the shares of its cards."""


class Context(RuleContext, Protocol):
    """What the rules of the shuffle and the deal see of the table."""

    dealer: Dealer | None
    game: GameState[Any] | None
    logs: Logs
    _verified: set[bytes]
    _removing: set[int]
    _consumed: set[bytes]

    def _remaining_authors(self) -> tuple[bytes, ...]: ...

    def _work_timed(
        self, work: Work, deck: int, seat: int | None
    ) -> AbstractContextManager[None]: ...

    def _refuse(
        self, rejection: Rejection, entry: LogEntry | None = None, author: bytes | None = None
    ) -> None: ...

    def _publish(self, body: Message, step: int = 0) -> LogEntry: ...


class ShuffleRule(StepRule):
    """One seat re-encrypts and permutes a deck, with a proof."""

    kind = SHUFFLE
    words = "a shuffle"
    doing = "Shuffling the deck"
    about = "re-encrypting and permuting every card, with a proof"
    stage = "dealing"
    costly = True

    answers = (Deal,)

    def start(self, t: leavers.Context, step: Step, waiting: Deal) -> Step | None:
        """A deal the game waits for: the re-key a pile formed again calls for, the
        shuffle chain, the shares, a stand-in for a seat out; then the cards (None: the game
        is asked again)."""
        game, dealer = t.game, t.dealer
        assert game is not None and dealer is not None
        draws = game.pending_draws()
        dealer.shuffles.sync(draws, [game.hand_size(seat) for seat in range(dealer.seats)])
        again = leavers.catch_up(t, step)  # a pile formed again with cards under its key
        if again is not None:
            return again
        for draw in draws:
            shuffler = dealer.shuffles.next_shuffler(draw.pile)
            if shuffler is not None:
                return step.then(SHUFFLE, t._seat_authors([shuffler]), deck=draw.pile)
        sharers = [seat for seat in dealer.shares.sharers(draws) if seat not in t.out]
        if sharers:
            return step.then(SHARES, t._seat_authors(sharers), draws=draws)
        stand_in = stand_in_step(t, step, draws)
        if stand_in is not None:
            return stand_in
        deal(t, draws)
        return None

    def waiting_text(self, t: Context, step: Step, names: str) -> str:
        return f"{names} to shuffle deck {step.deck + 1}"

    def progress(self, t: Context, step: Step) -> tuple[int, int] | None:
        dealer = t.dealer
        assert dealer is not None
        n = len(dealer.members)
        shuffled = dealer.shuffles.next_shuffler(step.deck) or 0
        return step.deck * n + shuffled, n * len(dealer.decks)

    def make(self, t: Context, step: Step) -> Message | None:
        dealer = t.dealer
        assert dealer is not None
        with t._work_timed(Work.MAKE_SHUFFLE, step.deck, t.seat):
            return dealer.shuffles.make(step.deck)

    def judge(self, t: Context, step: Step, author: bytes, entry: LogEntry) -> Verdict:
        seat = t.seat_of(author)
        dealer = t.dealer
        assert dealer is not None and seat is not None
        body = entry.body
        trusted = author == t.me or entry.hash in t._verified
        ahead = None
        if not trusted and t.seat == seat + 1 and not t._quiet:
            # this seat shuffles next: its step is made while this one is verified
            ahead = threading.Thread(
                target=lambda: dealer.shuffles.make_ahead(step.deck, body), name="shuffle"
            )
            ahead.start()
        # the CPU of the step made ahead is counted here, with the verification
        with t._work_timed(Work.VERIFY_SHUFFLE, step.deck, None if trusted else seat):
            try:
                dealer.shuffles.accept(step.deck, seat, body, verify=not trusted)
            finally:
                if ahead is not None:
                    ahead.join()
        if not trusted:
            t.keeper.mark_verified(entry)
        return ACCEPT


class SharesRule(StepRule):
    """Every seat but a deal's owner: decryption shares of its cards."""

    kind = SHARES
    words = "the shares"
    doing = "Dealing the cards"
    about = "only each card's owner can read it"
    stage = "dealing"

    def waiting_text(self, t: Context, step: Step, names: str) -> str:
        return f"decryption shares from {names}"

    def progress(self, t: Context, step: Step) -> tuple[int, int] | None:
        return len(step.answers), len(step.authors)

    def make(self, t: Context, step: Step) -> Message | None:
        dealer = t.dealer
        assert dealer is not None
        with t._work_timed(Work.MAKE_SHARES, 0, t.seat):
            return dealer.shares.make(step.draws)

    def judge(self, t: Context, step: Step, author: bytes, entry: LogEntry) -> Verdict:
        seat = t.seat_of(author)
        assert t.dealer is not None and seat is not None
        try:
            own = author == t.me
            with t._work_timed(Work.CHECK_SHARES, 0, None if own else seat):
                t.dealer.shares.accept(seat, entry.body, step.draws, trusted=own)
        except Rejection as rejection:
            if rejection.reason is Reason.BAD_PROOF and not t._quiet:
                t._refuse(rejection, entry)
                t._publish(bad_share(entry))
            raise
        return ACCEPT

    def finish(self, t: Context, step: Step) -> Next:
        return stand_in_step(t, step, step.draws) or finish_deal(t, step.draws)


register(ShuffleRule(), SharesRule())


def verify_some(t: Context, slots: int) -> bool:
    """Verify the unchecked shares of a few cards in play, in a moment of idleness (see
    ``Shares.verify_some``); True while more remain. A share that does not verify is refused,
    and this seat publishes the evidence of every shares entry of its seat it took."""
    dealer = t.dealer
    assert dealer is not None
    try:
        return dealer.shares.verify_some(slots)
    except Rejection as rejection:
        t._refuse(rejection)
        assert rejection.seat is not None
        for entry in t.logs.log(t.seating[rejection.seat]):
            if entry.kind == SHARES and entry.hash in t._consumed:
                t._publish(bad_share(entry))
        return False


def bad_share(entry: LogEntry) -> log_pb2.Evidence:
    """The evidence that a shares entry holds a share that does not verify."""
    shares = log_pb2.SignedEntry.FromString(entry.signed)
    return log_pb2.Evidence(bad_share=log_pb2.BadShare(shares=shares))


def stand_in_step(t: Context, step: Step, draws: Sequence[Draw]) -> Step | None:
    """A stand-in step when a seat out owes shares of these deals (the seats still at the
    table stand in for them); None when none does."""
    dealer = t.dealer
    assert dealer is not None
    for leaver in sorted(t.out):
        if dealer.stand_ins.owed(leaver, draws):
            return step.then(
                leavers.STAND_IN, t._remaining_authors(), draws=tuple(draws), leaver=leaver
            )
    return None


def finish_deal(t: Context, draws: Sequence[Draw]) -> After:
    """Deal, then take out of the game the seats put out while it was under way."""
    game, dealer = t.game, t.dealer
    assert game is not None and dealer is not None
    deal(t, draws)
    for seat in sorted(t._removing):
        dealer.drop_hand(game.remove_seat(seat).seat)
    t._removing.clear()
    return After.GAME


def deal(t: Context, draws: Sequence[Draw]) -> None:
    """Give the game the cards of ``draws`` (every share of them is in)."""
    game, dealer = t.game, t.dealer
    assert game is not None and dealer is not None
    counts = ", ".join(f"{d.deal.count} to seat {d.deal.seat}" for d in draws)
    t._say("deal", f"cards dealt: {counts}")
    for draw in draws:
        game.resolve(dealer.shares.deal(draw))


# the leavers' rules build on this module's context: it is imported once that is defined
from condottiere.peer.steps import leavers  # noqa: E402
