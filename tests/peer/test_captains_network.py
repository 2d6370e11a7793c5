"""Whole games of Condottieri Captains between real peer processes on loopback (each peer its
own OS process): every peer ends the same game, the record verifies and replays offline, and
no seat but the viewer (and the cards' own holders) can open a card shown to one seat."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from condottiere.crypto import SealedShare
from condottiere.interface import game_named
from condottiere.peer.driver import Table
from condottiere.peer.record import load, verify
from condottiere.peer.store import Store
from tests.peer.captains import dealt_to
from tests.peer.processes import PeerProcess, Peers, peers_in

GAME_SECONDS = 420


def start_captains(peers: Peers, root: Path, seats: int, seed: int) -> list[PeerProcess]:
    """A host and ``seats - 1`` bot peers at its Captains table, every seat played by
    ``greedy``."""
    host = peers.start(
        ["host", "--game", "captains", "--seats", str(seats), "--strategy", "greedy",
         "--name", f"captains-{seats}", "--seed", str(seed)],
        root / "seat0",
    )
    address = host.address()
    host.wait_for("hosting|taking up", 20)
    table = [host]
    for seat in range(1, seats):
        table.append(
            peers.start(
                ["bot", "--join", address, "--strategy", "greedy", "--seed", str(seed + seat)],
                root / f"seat{seat}",
            )
        )
    return table


def assert_same_captains_game(results: list[dict[str, Any]]) -> None:
    """Every peer ended the same game (state, winners, record hash); the record verifies
    (every signature, proof and card) and the game replays offline to the same winners."""
    for result in results:
        assert result["halt"] is None and result["audited"], result
        assert result["game"] == "captains"
    shared = {(str(r["state"]), tuple(r["winners"]), r["record_hash"]) for r in results}
    assert len(shared) == 1, shared
    verdict = verify(load(Path(results[0]["record"])))
    assert verdict.fair, verdict.lines()
    assert verdict.table.record_hash() == results[0]["record_hash"]
    assert verdict.replayed is not None
    replayed = game_named("captains").replay(verdict.replayed)
    assert replayed.outcome is not None
    assert replayed.outcome.winners == tuple(results[0]["winners"])


def restored(data: Path) -> Table:
    """The table a peer's store holds, rebuilt from its entries and its own secrets."""
    store = Store(data, read_only=True)
    try:
        (table_id,) = store.table_ids()
        return Table.restore(store.identity(), store.keeper(table_id), store.entries(table_id))
    finally:
        store.close()


def sealed_to_one_seat(table: Table) -> list[tuple[int, SealedShare, set[int]]]:
    """Every card shown to one seat at ``table``: (deck, its sealed share, the seats that may
    know it: the seat it was dealt to, and every giver and viewer of it)."""
    assert table.dealer is not None
    shown = []
    for author in table.seating:
        for entry in table.logs.log(author):
            if entry.kind != "hand_shown":
                continue
            giver = table.seat_of(author)
            assert giver is not None
            for sealed in entry.body.sealed:
                share = SealedShare.decode(sealed.share)
                shown.append((sealed.deck, share, giver, entry.body.viewer))
    dealt = dealt_to(table)
    knowers: dict[tuple[int, Any], set[int]] = {}
    for deck, share, giver, viewer in shown:
        knowers.setdefault((deck, share.slot), {dealt[(deck, share.slot)]}).update({giver, viewer})
    return [(deck, share, knowers[(deck, share.slot)]) for deck, share, _, _ in shown]


def assert_secret_from_the_others(tables: list[Table]) -> int:
    """The viewer of a card shown to one seat knows it; no seat but its holders and viewers
    does (its deck cannot open it), unless it was later shown face up to everyone; the number
    of (card, seat) pairs checked. (``tables`` in seat order; the seats of the decks are the
    table's, every seat having taken part in the keys.)"""
    assert [table.seat for table in tables] == list(range(len(tables)))
    checked = 0
    for deck, share, knowers in sealed_to_one_seat(tables[0]):
        viewer = tables[share.viewer].dealer
        assert viewer is not None and viewer.decks[deck].known_card(share.slot) is not None
        for table in tables:
            assert table.dealer is not None and table.seat is not None
            known = table.dealer.decks[deck].known_card(share.slot)
            if table.seat in knowers or (deck, share.slot) in table.dealer.face_up:
                continue
            assert known is None, (table.seat, share.slot, known, knowers)
            checked += 1
    return checked


def assert_hands_kept_unseen(table: Table) -> None:
    """Every starting hand kept was kept with a proof that it holds a captain and showed no
    card: each ``keep`` move shows nothing and is followed by its seat's ``hand_proof``."""
    keeps, proofs = [], []
    for author in table.seating:
        for entry in table.logs.log(author):
            if entry.kind == "move" and entry.body.move == "keep":
                assert not entry.body.cards, "a hand kept showed a card"
                keeps.append((table.seat_of(author), entry.step))
            elif entry.kind == "hand_proof":
                proofs.append((table.seat_of(author), entry.step - 1))
    assert keeps and sorted(keeps) == sorted(proofs)
    assert table.game is not None
    events = table.game.record()["events"]
    assert sum(event[0] == "holds" for event in events) == len(keeps)


@pytest.mark.parametrize("seats", [2, 3, 5])
def test_a_whole_captains_game_between_peer_processes_ends_the_same_and_keeps_shown_hands_secret(
    tmp_path: Path, seats: int
) -> None:
    with peers_in(tmp_path) as peers:
        table = start_captains(peers, tmp_path, seats, seed=seats)
        peers.wait_all(table, GAME_SECONDS)
    assert_same_captains_game([peer.result() for peer in table])
    tables = sorted((restored(peer.data) for peer in table), key=lambda t: t.seat or 0)
    assert all(t.record_hash() == table[0].result()["record_hash"] for t in tables)
    assert_hands_kept_unseen(tables[0])
    # Every card this game showed to one seat, checked on every other peer's decks. Whether a
    # game shows a hidden card and keeps it hidden to the end depends on the deal, so it is not
    # required here; test_captains_table.py's look is checked right after it is shown.
    assert_secret_from_the_others(tables)
