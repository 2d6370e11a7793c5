"""A seat's peer that serves its entries to some peers and not to others: once the table is
seated each seat's log comes from its own peer, so the peer left out must fetch them from the
others that hold them (``Links``' probe), in time for every deadline."""

from __future__ import annotations

import sys
from pathlib import Path

from condottiere.peer.record import load, verify
from tests.peer.processes import peers_in

GAME_SECONDS = 240


def test_deal_entries_kept_from_one_peer_reach_it_through_the_others_and_nobody_is_put_out(
    tmp_path: Path,
) -> None:
    datas = [tmp_path / f"peer{i}" for i in range(3)]
    with peers_in(tmp_path) as peers:
        host = peers.start(
            ["host", "--edition", "zman", "--seats", "3", "--strategy", "greedy",
             "--name", "picky", "--seed", "5"],
            datas[0],
        )
        address = host.address()
        host.wait_for("hosting|taking up", 20)
        honest = peers.start(
            ["bot", "--join", address, "--strategy", "greedy", "--seed", "6"], datas[1]
        )
        picky = peers.start_program(
            [sys.executable, "-m", "tests.peer.picky_server", "bot", "--join", address,
             "--strategy", "greedy", "--seed", "7", "--data", str(datas[2])],
            datas[2], ["picky_server"],
        )
        table = [host, honest, picky]
        peers.wait_all(table, GAME_SECONDS)
    results = [peer.result() for peer in table]
    for result in results:
        assert result["halt"] is None and result["audited"], result
    assert len({(r["record_hash"], tuple(r["winners"])) for r in results}) == 1
    verdict = verify(load(Path(results[0]["record"])))
    assert verdict.fair, verdict.lines()
    assert verdict.departures == (), verdict.lines()  # nobody was stated silent and put out
