"""Three hosts on a LAN of their own (network namespaces on a bridge, see
:mod:`tests.peer.namespaces`): one peer in each, zeroconf bound to its namespace's address,
and a whole game played after discovery alone (nobody is given an address).

Where the test cannot create namespaces (not root, no ``ip``), it is skipped with the reason.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.peer.namespaces import cannot_create_namespaces, namespaces
from tests.peer.processes import peers_in
from tests.peer.test_network import GAME_SECONDS, assert_same_game

SEEN_SECONDS = 20

pytestmark = pytest.mark.skipif(
    (reason := cannot_create_namespaces()) is not None, reason=str(reason)
)


def test_three_hosts_in_their_own_namespaces_find_the_table_and_play_a_whole_game(
    tmp_path: Path,
) -> None:
    name = f"Bridge-{os.urandom(3).hex()}"
    with namespaces(3) as hosts, peers_in(tmp_path) as peers:
        first, *others = hosts
        creator = peers.start(
            ["host", "--edition", "zman", "--seats", "3", "--strategy", "greedy", "--name",
             name, "--seed", "7", "--interface", first.address],
            tmp_path / "n1",
            wrapper=first.wrapper,
        )
        creator.wait_for(rf"listening on {re.escape(first.address)}:\d+", SEEN_SECONDS)
        creator.wait_for("hosting", SEEN_SECONDS)
        listing = peers.start(
            ["tables", "--once", "--json", "--wait", "3", "--interface", others[-1].address],
            tmp_path,
            wrapper=others[-1].wrapper,
            store=False,
        )
        peers.wait_all([listing], 30)
        (table,) = [t for t in json.loads("".join(listing.lines))["tables"] if t["name"] == name]
        assert table["joinable"] and table["addresses"][0].startswith(f"{first.address}:")
        bots = []
        for index, host in enumerate(others, start=2):
            args = ["bot", "--join", name, "--strategy", "greedy", "--seed", str(index),
                    "--interface", host.address]
            bots.append(peers.start(args, tmp_path / f"n{index}", wrapper=host.wrapper))
        for bot, host in zip(bots, others, strict=True):
            bot.wait_for(rf"listening on {re.escape(host.address)}:\d+", SEEN_SECONDS)
            # the creator's host, or a host whose bot was seated first (it advertises too)
            bot.wait_for(r"asked [0-9.]+:\d+ for a seat", SEEN_SECONDS)
        peers.wait_all([creator, *bots], GAME_SECONDS)
    assert_same_game([creator, *bots])
    left = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, check=True)
    assert not {host.namespace for host in hosts} & set(left.stdout.split()), left.stdout
