"""A peer that withholds its coin reveals, with real peer processes on loopback: every choice
is still the one the committed values fix (its value is opened from its escrow by the two
honest peers), the game goes on to its end the same on every peer, and every honest record
names the withholder (``tests/peer/coin_withholder.py`` is the cheating peer, a real
``condottiere bot`` whose table keeps its reveals back)."""

from __future__ import annotations

import sys
from pathlib import Path

from condottiere.peer.record import load, verify
from condottiere.peer.steps import coins
from condottiere.peer.store import Store
from tests.peer.processes import peers_in
from tests.peer.test_network import GAME_SECONDS

COIN_TIMEOUT = "2"


def values_of(data: Path, table_id: bytes, choice: int) -> int:
    """The value a data directory's peer committed to for a choice (from its store)."""
    store = Store(data)
    try:
        kept = store.keeper(table_id).secret(f"coin/{choice}/0")
        assert kept is not None, f"{data} kept no value for choice {choice}"
        return int.from_bytes(kept, "little")
    finally:
        store.close()


def key_of(data: Path) -> bytes:
    store = Store(data)
    try:
        return store.identity().public.raw
    finally:
        store.close()


def test_a_peer_that_withholds_every_coin_reveal_changes_no_choice_and_is_named(
    tmp_path: Path,
) -> None:
    timeout = ["--coin-timeout", COIN_TIMEOUT]
    datas = [tmp_path / f"peer{i}" for i in range(3)]
    with peers_in(tmp_path) as peers:
        host = peers.start(
            ["host", "--edition", "zman", "--seats", "3", "--strategy", "greedy",
             "--name", "coins", "--seed", "7", *timeout],
            datas[0],
        )
        address = host.address()
        host.wait_for("hosting|taking up", 20)
        honest = peers.start(
            ["bot", "--join", address, "--strategy", "greedy", "--seed", "8", *timeout], datas[1]
        )
        withholder = peers.start_program(
            [sys.executable, "-m", "tests.peer.coin_withholder", "bot", "--join", address,
             "--strategy", "greedy", "--seed", "9", *timeout, "--data", str(datas[2])],
            datas[2], ["coin_withholder"],
        )
        table = [host, honest, withholder]
        peers.wait_all(table, GAME_SECONDS)
    results = [peer.result() for peer in table]
    for result in results:
        assert result["halt"] is None and result["audited"], result
    assert len({r["record_hash"] for r in results}) == 1

    verdict = verify(load(Path(results[0]["record"])))
    watched = verdict.table
    cheat = watched.seat_of(key_of(datas[2]))
    assert cheat is not None
    seats = {watched.seat_of(key_of(data)): data for data in datas}
    assert watched.flips, "the game made no fair choice"
    for flip, chosen in watched.flips:
        values = {seat: values_of(data, watched.table_id, flip.choice)
                  for seat, data in seats.items() if seat is not None}
        assert chosen == flip.outcome(watched.table_id, values)  # the committed values' choice
    blamed = [r for r in verdict.refusals if r.seat == cheat]
    assert len(blamed) == len(watched.flips)
    assert all("withheld its coin reveal" in r.detail for r in blamed)
    assert {r.seat for r in verdict.refusals} == {cheat}  # nobody honest is blamed
    assert f"CHEAT by seat {cheat} " in "\n".join(verdict.lines())


def test_closes_split_by_a_reveal_timed_between_the_timeouts_end_the_same_on_every_peer(
    tmp_path: Path,
) -> None:
    """Four peers, two with a short coin timeout and one with a long one; the withholder
    reveals just after the two short ones closed naming it, so the long one gets the reveal in
    time: two closes name it, two name nobody (it used to stall the table for ever). Every
    choice is still the values', every peer ends the same game, and all name the withholder."""
    short, long = ["--coin-timeout", COIN_TIMEOUT], ["--coin-timeout", "600"]
    datas = [tmp_path / f"peer{i}" for i in range(4)]
    with peers_in(tmp_path) as peers:
        host = peers.start(
            ["host", "--edition", "zman", "--seats", "4", "--strategy", "greedy",
             "--name", "split", "--seed", "17", *short],
            datas[0],
        )
        address = host.address()
        host.wait_for("hosting|taking up", 20)
        join = ["bot", "--join", address, "--strategy", "greedy"]
        table = [
            host,
            peers.start([*join, "--seed", "18", *short], datas[1]),
            peers.start([*join, "--seed", "19", *long], datas[2]),
            peers.start_program(
                [sys.executable, "-m", "tests.peer.coin_withholder", *join, "--seed", "20",
                 *short, "--late", "--data", str(datas[3])],
                datas[3], ["coin_withholder --late"],
            ),
        ]
        peers.wait_all(table, GAME_SECONDS)
    results = [peer.result() for peer in table]
    for result in results:
        assert result["halt"] is None and result["audited"], result
    assert len({r["record_hash"] for r in results}) == 1

    verdict = verify(load(Path(results[2]["record"])))  # the long-timeout peer's record
    watched = verdict.table
    cheat = watched.seat_of(key_of(datas[3]))
    seats = {watched.seat_of(key_of(data)): data for data in datas}
    assert watched.flips
    for flip, chosen in watched.flips:
        closes = coins.closes_of(watched, flip)
        named = sorted(closer for closer, missing in closes.items() if cheat in missing)
        assert len(named) == 2 and len(closes) == 4, closes  # the split: two name it
        values = {seat: values_of(data, watched.table_id, flip.choice)
                  for seat, data in seats.items() if seat is not None}
        assert chosen == flip.outcome(watched.table_id, values)
    assert {r.seat for r in verdict.refusals} == {cheat}
    assert len(verdict.refusals) == len(watched.flips)
