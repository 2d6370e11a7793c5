"""A node's spare-time work (the shares of cards in play verified while the table waits) runs
in slices on the table's thread: a slice ends as soon as an entry comes in or another call
waits for the thread, else after ``SPARE_SECONDS``."""

from __future__ import annotations

from pathlib import Path

from condottiere.peer.driver import Table
from condottiere.peer.node import Node
from condottiere.peer.store import Store
from tests.peer.tables import Harness


def _dealt_table() -> Table:
    """A seat of a 3-seat table, dealt, with shares of cards in play left to verify."""
    harness = Harness("zman", 3, seed=1)
    while harness.deliver():
        pass
    table = harness.tables[0]
    assert table.step is not None and table.step.kind == "move"
    assert table.spare_time(0), "no spare-time work after the deal"
    return table


def _unverified(table: Table) -> int:
    assert table.dealer is not None
    return sum(len(deck.pending()) for deck in table.dealer.decks)


def test_a_slice_of_spare_time_ends_at_once_when_an_entry_has_come_in(tmp_path: Path) -> None:
    table = _dealt_table()
    node = Node(Store(tmp_path))
    before = _unverified(table)
    node.links.inbox.append(("127.0.0.1:5001", b"an entry"))
    assert node._spare_time(table)
    assert before - _unverified(table) == 2  # one step of the work: two cards' shares


def test_a_slice_of_spare_time_ends_at_once_when_another_call_waits(tmp_path: Path) -> None:
    table = _dealt_table()
    node = Node(Store(tmp_path))
    before = _unverified(table)
    node._calls_made += 1  # a call handed to the table's thread, not begun
    assert node._spare_time(table)
    assert before - _unverified(table) == 2


def test_a_slice_left_alone_verifies_every_share_left(tmp_path: Path) -> None:
    table = _dealt_table()
    node = Node(Store(tmp_path))
    while node._spare_time(table):  # each slice within SPARE_SECONDS
        pass
    assert _unverified(table) == 0
    assert not table.spare_time(0)
