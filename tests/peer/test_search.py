"""Searching the deck for a named card, as a fold with no socket (Captains' New Contract): the
card found leaves the pile face up into the searcher's hand on every peer, a card not in the
pile is not found, later deals skip the slot taken, a seat out is needed by no search (the
others stood in for its shares of the pile at once), and the game plays on to an audit that
checks every card."""

from __future__ import annotations

from pathlib import Path

import pytest

from condottiere.games.captains.cards import card_name
from condottiere.peer.driver import StepKind, Table
from condottiere.peer.entries import LogEntry
from condottiere.peer.record import export, load, omniscient_record, verify
from condottiere.peer.steps import rule_of
from condottiere.peer.steps.moves import MOVE
from condottiere.peer.steps.searches import SEARCH_BLINDING, SEARCH_OPENING
from tests.cli.client.scenes import model_of_table
from tests.peer.cheats import entries_of
from tests.peer.searches import SearchHarness, search_at_once, searched, searches_of


def assert_searched_alike(harness: SearchHarness, tables: list[Table]) -> None:
    """Every table resolved the searches the referee saw played, with the truth of the pile."""
    expected = harness.referee.named
    for table in tables:
        assert table.halt is None, table.halt
        assert not table.refusals, table.refusals
        assert searches_of(table) == expected[: len(searches_of(table))]
        assert searches_of(table), "no search was resolved"


def assert_played_out(harness: SearchHarness, tables: list[Table], audited: bool) -> None:
    """The game goes on to its end on every table alike, and its audit passes."""
    harness.run()
    hashes = {table.record_hash() for table in tables}
    assert len(hashes) == 1
    for table in tables:
        assert table.audited, table.halt
        assert (table.cards is not None) is audited


@pytest.mark.parametrize("found", [True, False])
def test_a_search_resolves_alike_on_every_peer_and_the_audit_checks_the_card_taken(
    found: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness = searched(monkeypatch, 3, found=found, seed=20 + 20 * found)
    assert_searched_alike(harness, harness.tables)
    seat, captain, in_pile = harness.referee.named[0]
    assert in_pile is found
    searcher = harness.tables[seat]
    assert searcher.game is not None and (captain in searcher.game.hand(seat)) is found
    told = []
    for table in harness.tables:
        dealer = table.dealer
        assert dealer is not None
        taken = [card for card in dealer.hands[seat] if dealer.face_up.get(card) == captain]
        assert len(taken) == int(found)
        # the game tells what the search found, in its own words, alike at every peer
        told.append([e.text for e in table.events if "in the draw pile" in e.text])
    searcher_name = harness.tables[0].who(harness.tables[0].seating[seat])
    expected = (
        f"{searcher_name} finds {card_name(captain)} in the draw pile and takes him"
        if found
        else f"{card_name(captain)} is not in the draw pile"
    )
    assert told[0] and told[0][0] == expected and told.count(told[0]) == len(told), told
    assert_played_out(harness, harness.tables, audited=True)
    for index, table in enumerate(harness.tables):
        assert table.cards is not None and table.dealer is not None
        for card, name in table.dealer.face_up.items():  # the slot taken held the captain
            assert table.cards[card] == name
        verdict = verify(load(export(entries_of(table), tmp_path / f"{index}.cdr")))
        assert verdict.fair, verdict.lines()
        assert table.game is not None  # the record replays offline to the same end
        assert table.rules.replay(omniscient_record(table)).outcome == table.game.outcome


@pytest.mark.parametrize("kind", [SEARCH_BLINDING, SEARCH_OPENING])
def test_a_seat_silent_at_a_search_is_put_out_and_the_others_search_again_without_it(
    kind: StepKind, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The others stand in for its shares of the pile at once (a ``rekey`` step), and the
    search begins again, blinded and opened by them alone."""
    harness = searched(monkeypatch, 3, found=True, seed=60, doomed=(2, kind), searchers={0, 1})
    live = harness.live()
    assert_searched_alike(harness, live)
    for table in live:
        assert 2 in table.out
        words = table.out[2].words(table.who(table.seating[2]))
        assert rule_of(kind).words in words, words
        mine = [e.kind for e in table.logs.log(table.me)]
        assert "rekey" in mine and mine.index("rekey") < len(mine) - mine[::-1].index(
            SEARCH_OPENING), "the pile re-keyed before the search that found the card"
        openings = [e for e in table.logs.log(table.me) if e.kind == SEARCH_OPENING]
        assert not openings[-1].body.stand_in
    assert_played_out(harness, live, audited=False)


def test_a_search_after_a_seat_left_is_opened_by_the_others_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    harness = searched(
        monkeypatch, 3, found=True, seed=80, doomed=(2, MOVE), searchers={0, 1}
    )
    live = harness.live()
    assert_searched_alike(harness, live)
    for table in live:
        assert 2 in table.out
        steps = [e for e in table.logs.log(table.me) if e.kind == SEARCH_OPENING]
        assert steps and not any(e.body.stand_in for e in steps)
        dealer = table.dealer  # no card of any deck needs seat 2: its shares of the pile were
        assert dealer is not None  # stood in for, or the pile's round was formed without it
        assert all(dealer.rekeys.owed(index) is None for index in range(len(dealer.decks)))
    assert_played_out(harness, live, audited=False)


class Interrupted(SearchHarness):
    """Seat 1's peer gets no opening of a search from the others while ``held``."""

    held = True

    def blocked(self, table: Table, entry: LogEntry) -> bool:
        if self.held and table is self.tables[1] and entry.kind == SEARCH_OPENING:
            return True
        return super().blocked(table, entry)


def test_a_peer_rebuilt_from_its_store_in_the_middle_of_a_search_takes_it_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    search_at_once(monkeypatch, 3)
    harness = Interrupted(3, found=True, seed=100)
    harness.run(until=lambda: at_opening(harness.tables[1]))
    kept = harness.keepers[1]
    harness.tables[1] = Table.restore(harness.identities[1], kept, list(kept.entries))
    assert at_opening(harness.tables[1])
    harness.held = False
    harness.run()
    assert_searched_alike(harness, harness.tables)
    assert len({table.record_hash() for table in harness.tables}) == 1
    assert all(table.cards is not None for table in harness.tables)


def test_a_search_under_way_shows_on_the_client_which_card_is_searched_and_who_is_awaited(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    search_at_once(monkeypatch, 3)
    harness = Interrupted(3, found=True, seed=300)
    harness.run(until=lambda: at_opening(harness.tables[1]))
    assert at_opening(harness.tables[1]), "no search"
    banner = model_of_table(harness, seat=1).banner()
    _, captain, _ = harness.referee.named[0]
    assert banner.headline == "Searching the draw pile"
    assert banner.detail.startswith(
        f"Seat 0 (seat0), seat 2 (seat2) to open the search of the draw pile for {captain}: "
    ), banner
    assert banner.progress == (1, 3)


def at_opening(table: Table) -> bool:
    return table.step is not None and table.step.kind == SEARCH_OPENING


def test_deals_after_a_search_skip_the_slot_taken_until_the_pile_is_formed_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    harness = searched(monkeypatch, 3, found=True, seed=200)
    assert first_round(harness.tables[0]), "the search came after the pile was formed again"
    dealers = [table.dealer for table in harness.tables]
    assert all(dealer is not None for dealer in dealers)
    seat, captain, _ = harness.referee.named[0]
    taken = next(c for c in dealers[0].hands[seat] if dealers[0].face_up.get(c) == captain)
    dealt_before = len(dealers[0].dealt)
    assert_played_out(harness, harness.tables, audited=True)
    for table, dealer in zip(harness.tables, dealers, strict=True):
        assert dealer is not None and table.cards is not None
        assert dealer.shuffles.round(0) > 0, "the pile was never formed again"
        later = [card for deal in dealer.dealt[dealt_before:] for card in deal]
        assert taken not in later and len(later) == len(set(later))
        assert table.cards[taken] == captain


def first_round(table: Table) -> bool:
    """Whether the table's draw pile is still the one first shuffled."""
    return table.dealer is not None and table.dealer.shuffles.round(0) == 0
