"""The backups of the deck secrets at a deal (three seats or more) and the stand-in for a seat
that left, as a fold with no socket: a bad piece is caught and its dealer blamed, a false
complaint blames the complainer, a wrong stand-in part blames its author, and no coalition
smaller than all the remaining seats can open a card from what it holds."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from google.protobuf.message import Message

from condottiere import crypto
from condottiere.peer.dealing import Dealer
from condottiere.peer.driver import Table
from condottiere.peer.entries import LogEntry, Reason
from condottiere.peer.steps.deal import SHARES
from condottiere.v1 import log_pb2
from tests.peer.test_silence import Departing


class Forging(Table):
    """A peer that publishes ``forge(body)`` instead of its first body of one kind."""

    kind: type[Message] = Message
    forged = False

    def forge(self, body: Any) -> Message:
        raise NotImplementedError

    def _publish(self, body: Message, step: int = 0) -> LogEntry:
        if not self.forged and isinstance(body, self.kind):
            self.forged = True
            body = self.forge(body)
        return super()._publish(body, step)


class SwappedBoxes(Forging):
    """Its dealing of deck 0 seals seat 1's piece where seat 2's goes, and the reverse."""

    kind = log_pb2.Dealings

    def forge(self, body: Any) -> Message:
        dealing = crypto.Dealing.decode(body.dealings[0], self.spec.seats)
        boxes = list(dealing.boxes)
        boxes[0], boxes[1] = boxes[1], boxes[0]
        forged = crypto.Dealing(dealing.commitments, tuple(boxes)).encode()
        return log_pb2.Dealings(dealings=[forged, *body.dealings[1:]])


class FalseComplaint(Forging):
    """It complains about seat 0's piece of deck 0, which is good."""

    kind = log_pb2.PieceChecks

    def forge(self, body: Any) -> Message:
        return log_pb2.PieceChecks(complaints=[log_pb2.PieceComplaint(dealer=0, deck=0)])


class WrongPart(Forging):
    """Its first stand-in batch is made with another piece than its own."""

    kind = log_pb2.StandIn

    def forge(self, body: Any) -> Message:
        dealer = self.dealer
        assert dealer is not None and self.seat is not None
        item = body.batches[0]
        batch = crypto.StandInBatch.decode(item.batch)
        deck = dealer.decks[item.deck]
        cards = {position: deck.cards[position] for position in batch.positions}
        context = crypto.Context(deck.table, deck.round, self.seat)
        wrong = crypto.make_stand_in(12345, body.leaver, cards, context)
        forged = log_pb2.DeckStandIn(deck=item.deck, batch=wrong.encode())
        return log_pb2.StandIn(leaver=body.leaver, batches=[forged, *body.batches[1:]])


def test_a_bad_piece_is_caught_at_once_and_its_dealer_blamed_on_every_peer() -> None:
    harness = Departing("zman", 3, seed=11, kinds={0: SwappedBoxes})
    for table in harness.tables:
        halt = table.halt
        assert halt is not None and halt.reason is Reason.BAD_PROOF and halt.seat == 0, halt
        assert "is not what it sealed" in halt.detail or "sealed for another" in halt.detail
        assert len(halt.evidence) == 3  # the dealing, the complaint and the answer, signed


def test_a_false_complaint_blames_the_complainer() -> None:
    harness = Departing("zman", 4, seed=12, kinds={3: FalseComplaint})
    for table in harness.tables:
        halt = table.halt
        assert halt is not None and halt.reason is Reason.BAD_PROOF and halt.seat == 3, halt
        assert "complained about seat 0's piece, which opens and checks" in halt.detail


def test_a_wrong_stand_in_part_is_caught_and_its_author_blamed() -> None:
    harness = Departing(
        "zman", 4, seed=13, doomed=(3, SHARES), kinds={1: WrongPart}
    )
    harness.run(until=lambda: bool(harness.dead))
    harness.run(until=lambda: any(t.halt is not None for t in harness.live()))
    harness.deliver()
    for table in harness.live():
        halt = table.halt
        assert halt is not None and halt.reason is Reason.BAD_PROOF and halt.seat == 1, halt
        assert "stand-in part" in halt.detail


def rebuilt(dealers: list[Dealer], index: int, coalition: tuple[int, ...], owner: int) -> int:
    """``owner``'s secret of deck ``index`` as ``coalition`` rebuilds it: its own, or by
    Lagrange interpolation at 0 over the pieces of it the coalition's seats hold."""
    if owner in coalition:
        return dealers[owner].decks[index].secret
    pieces = [dealers[seat].backups.pieces[(owner, index)] for seat in coalition]
    weights = crypto.lagrange_at_zero([crypto.evaluation_point(seat) for seat in coalition])
    return sum(w * p for w, p in zip(weights, pieces, strict=True)) % crypto.L


def opened(dealers: list[Dealer], index: int, coalition: tuple[int, ...], seats: int) -> int:
    """How many cards of deck ``index`` the coalition opens with the secrets it rebuilds."""
    deck = dealers[0].decks[index]
    whole = sum(rebuilt(dealers, index, coalition, owner) for owner in range(seats)) % crypto.L
    return sum(
        deck.codebook.card_of(crypto.decrypt(ciphertext, whole)) is not None
        for ciphertext in deck.cards
    )


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_no_coalition_smaller_than_all_remaining_seats_can_open_a_card(seats: int) -> None:
    """The pieces each seat holds, used as a coalition would: every remaining seat together
    rebuilds the leaver's secret and opens every card of the deck; any smaller coalition,
    rebuilding each secret it lacks from the pieces it holds, opens none."""
    leaver = seats - 1
    harness = Departing("zman", seats, seed=seats, doomed=(leaver, SHARES))
    harness.run(until=lambda: bool(harness.dead))
    dealers = [table.dealer for table in harness.live()]
    assert all(dealer is not None for dealer in dealers)
    held = [dealer for dealer in dealers if dealer is not None]
    everyone = tuple(range(seats - 1))
    for index, deck in enumerate(held[0].decks):
        assert opened(held, index, everyone, seats) == len(deck.cards)
        for size in range(1, seats - 1):
            for coalition in itertools.combinations(everyone, size):
                assert opened(held, index, coalition, seats) == 0, coalition
