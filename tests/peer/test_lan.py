"""Tables found on the LAN, between real peer processes with zeroconf bound to 127.0.0.1 only
(``$CONDOTTIERE_INTERFACE``, set for every test): a host advertises, ``condottiere tables``
lists it, bots join it by name and by id prefix and play a whole game, the lobby shows every
seat's fingerprint, and the table leaves the list when its peers stop.

Other tables may be advertised on loopback meanwhile (other tests, other people's): each test
names its tables uniquely and looks only at those.
"""

from __future__ import annotations

import json
import os
import re
import signal
import time
from pathlib import Path
from typing import Any

from condottiere.peer.lobby import PROTOCOL
from tests.peer.processes import PeerProcess, Peers, peers_in
from tests.peer.test_network import GAME_SECONDS, assert_same_game

FINGERPRINT = r"your key's fingerprint: ([0-9a-f-]{24})"
SEEN_SECONDS = 40


def unique(name: str) -> str:
    return f"{name}-{os.urandom(3).hex()}"


def host(
    peers: Peers, root: Path, name: str, seats: int, seed: int = 0, *, console: bool = False
) -> PeerProcess:
    """A host played by the greedy bot, or with ``console`` at its console (open to the first
    joiners), whose moves the test types."""
    played = ["--open"] if console else ["--strategy", "greedy", "--seed", str(seed)]
    return peers.start(
        ["host", "--edition", "zman", "--seats", str(seats), "--name", name, *played,
         "--player", "ada"],
        root / f"host-{name}",
        console=console,
    )


def tables_once(peers: Peers, root: Path) -> dict[str, Any]:
    """What ``condottiere tables --once --json`` prints."""
    listing = peers.start(["tables", "--once", "--json", "--wait", "2"], root, store=False)
    peers.wait_all([listing], 30)
    return dict(json.loads("".join(listing.lines)))


def named(peers: Peers, root: Path, name: str, count: int) -> list[dict[str, Any]]:
    """The ``count`` tables called ``name`` in a ``tables --once`` listing, read again until it
    holds that many (one listing may miss an answer that comes late on a loaded machine)."""
    deadline = time.monotonic() + SEEN_SECONDS
    while True:
        found = [t for t in tables_once(peers, root)["tables"] if t["name"] == name]
        if len(found) == count:
            return found
        assert time.monotonic() < deadline, f"not {count} tables called {name!r}: {found}"


def wait_lines(peer: PeerProcess, pattern: str, count: int) -> None:
    """Wait until ``peer`` printed ``count`` lines matching ``pattern``."""
    deadline = time.monotonic() + SEEN_SECONDS
    while sum(1 for line in list(peer.lines) if re.search(pattern, line)) < count:
        assert time.monotonic() < deadline, f"not {count} lines {pattern!r}:\n{peer.output()}"
        time.sleep(0.05)


def test_a_table_is_listed_joined_by_name_played_and_gone_when_its_peers_stop(
    tmp_path: Path,
) -> None:
    name = unique("Friday")
    with peers_in(tmp_path) as peers:
        watcher = peers.start(["tables"], tmp_path, store=False)
        # played at its console, so that the game cannot end before the late joiner is done
        creator = host(peers, tmp_path, name, seats=3, console=True)
        address = creator.address()
        creator_key = creator.wait_for(FINGERPRINT, SEEN_SECONDS).group(1)
        watcher.wait_for(rf"^\+ {name}  zman  1/3 seats  lobby", SEEN_SECONDS)
        (table,) = named(peers, tmp_path, name, 1)
        assert table == {
            "table": table["table"], "protocol": PROTOCOL, "name": name, "game": "condottiere",
            "edition": "zman", "options": [], "seats": 3, "taken": 1, "free": 2,
            "stage": "lobby", "creator": creator_key, "addresses": [address],
            "joinable": True, "reason": "",
        }
        by_name = peers.start(
            ["bot", "--join", name.upper(), "--strategy", "greedy", "--seed", "4"],
            tmp_path / "by-name",
        )
        by_id = peers.start(
            ["bot", "--join", table["table"][:6], "--strategy", "greedy", "--seed", "5"],
            tmp_path / "by-id",
        )
        seated = [creator, by_name, by_id]
        for bot in (by_name, by_id):
            # the creator, or a bot seated before it: every seated peer advertises the table
            bot.wait_for(r"asked 127\.0\.0\.1:\d+ for a seat", SEEN_SECONDS)
        watcher.wait_for(rf"^~ {name}  zman  3/3 seats  .*not joinable", SEEN_SECONDS)
        late = peers.start(["join", name, "--wait", "30", "--player", "late"], tmp_path / "late")
        assert peers.wait_for_exit(late, 60) == 1  # it stops once it sees the table
        assert re.search(
            rf"cannot join '{name}': (no seat is free|the game has started|the game is over)",
            late.output(),
        ), late.output()
        creator.play_first_moves(GAME_SECONDS)
        peers.wait_all(seated, GAME_SECONDS)
        watcher.wait_for(rf"^- {name} is gone", SEEN_SECONDS)
    assert_same_game(seated)
    keys = {peer.wait_for(FINGERPRINT, 1).group(1) for peer in seated}
    seat_lines = re.compile(r"seat (\d) +\S+ +([0-9a-f-]{24})")
    screens = [set(seat_lines.findall("".join(peer.lines))) for peer in seated]
    assert {key for _, key in screens[0]} == keys  # every seat's fingerprint, on every screen
    assert screens[1] == screens[0] and screens[2] == screens[0]


def test_a_host_stopped_withdraws_its_table_and_two_tables_of_one_name_are_told_apart(
    tmp_path: Path,
) -> None:
    name = unique("Twins")
    with peers_in(tmp_path) as peers:
        watcher = peers.start(["tables"], tmp_path, store=False)
        first = host(peers, tmp_path / "first", name, seats=2)
        second = host(peers, tmp_path / "second", name, seats=2)
        wait_lines(watcher, rf"^\+ {name}  zman  1/2 seats  lobby", 2)
        ids = sorted(t["table"] for t in named(peers, tmp_path, name, 2))
        ambiguous = peers.start(["join", name, "--wait", "10"], tmp_path / "ambiguous")
        assert peers.wait_for_exit(ambiguous, 30) == 1
        assert f"2 tables are called '{name}'" in ambiguous.output()
        assert "name one by its id" in ambiguous.output()
        missing = peers.start(["join", unique("Nobody"), "--wait", "1"], tmp_path / "missing")
        assert peers.wait_for_exit(missing, 30) == 1
        assert "was seen on lo (127.0.0.1) in 1 s" in missing.output()
        first.process.send_signal(signal.SIGTERM)  # a peer this test started
        peers.wait_for_exit(first, 30)
        first.wait_for("stopped; start again with the same --data", 1)
        watcher.wait_for(rf"^- {name} is gone", SEEN_SECONDS)
        (remaining,) = named(peers, tmp_path, name, 1)
        assert remaining["table"] in ids
        second.process.send_signal(signal.SIGTERM)
        peers.wait_for_exit(second, 30)
