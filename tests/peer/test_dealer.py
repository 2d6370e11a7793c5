"""The dealer alone: what one seat's dealer makes is the body every seat's dealer accepts."""

from __future__ import annotations

import pytest

from condottiere.peer.dealing import Dealer
from condottiere.peer.entries import Reason, Rejection
from condottiere.v1 import log_pb2

TABLE = b"\x01" * 32
DECKS = [["a", "b", "c", "d", "e"]]


def keyed(seats: int) -> list[Dealer]:
    """Every seat's dealer of a table of ``seats``, keys exchanged."""
    dealers = [Dealer(TABLE, seats, seat, DECKS) for seat in range(seats)]
    announcements = [dealer.keys.announcements() for dealer in dealers]
    for dealer in dealers:
        dealer.keys.accept(announcements)
    return dealers


def test_each_seats_shuffle_is_the_body_every_dealer_accepts_until_the_deck_is_ready() -> None:
    dealers = keyed(3)
    watcher = Dealer(TABLE, 3, None, DECKS)
    watcher.keys.accept([dealer.keys.announcements() for dealer in dealers])
    for seat in range(3):
        assert dealers[0].shuffles.next_shuffler(0) == seat
        body = dealers[seat].shuffles.make(0)
        assert isinstance(body, log_pb2.Shuffle) and (body.deck, body.round) == (0, 0)
        for dealer in (*dealers, watcher):
            dealer.shuffles.accept(0, seat, body, verify=dealer is not dealers[seat])
    assert all(dealer.shuffles.ready(0) for dealer in (*dealers, watcher))


def test_a_shuffle_of_another_round_is_refused_blaming_its_seat() -> None:
    dealers = keyed(2)
    body = dealers[0].shuffles.make(0)
    body.round = 1
    with pytest.raises(Rejection) as refused:
        dealers[1].shuffles.accept(0, 0, body, verify=True)
    assert (refused.value.reason, refused.value.seat) == (Reason.UNEXPECTED, 0)
