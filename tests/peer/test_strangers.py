"""A stranger on the LAN against real peer processes on loopback: it has no seat and calls
the peers' ports with raw gRPC clients (:mod:`tests.peer.strangers`). Whatever it does, it is
held to what a stranger may hold, and the table's game goes on and ends the same everywhere
with a record that verifies."""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
import threading
from pathlib import Path

import pytest

from condottiere.peer.discovery import MAX_SIGHTINGS
from condottiere.peer.limits import (
    SOURCE_CALL_BURST,
    SOURCE_CALLS_PER_SECOND,
    STREAMS_PER_SOURCE,
    UNREAD_SECONDS,
)
from condottiere.peer.steps.seating import UNSEATED_PER_SOURCE
from tests.peer.namespaces import Host, cannot_create_namespaces, namespaces
from tests.peer.processes import PeerProcess, peers_in
from tests.peer.strangers import (
    HEALTH_REQUEST,
    HEALTH_WATCH,
    SUBSCRIBE,
    ends_of,
    flood,
    hello,
    random_table_id,
    resident_kib,
    status_of,
    subscription,
)
from tests.peer.test_network import GAME_SECONDS, assert_same_game

FINGERPRINT = r"your key's fingerprint: ([0-9a-f-]{24})"
NOISE = MAX_SIGHTINGS + 60
"""Adverts of random tables the stranger sends: more than a browser follows."""
NOT_READ = f"this stream was not read for {UNREAD_SECONDS:g} s: ended"


def test_a_stranger_flooding_a_hosts_port_with_streams_stalls_nothing_and_holds_its_own_slots(
    tmp_path: Path,
) -> None:
    with peers_in(tmp_path) as peers:
        host = peers.start(
            # spectators admitted: a stranger may open streams at all (else each is refused
            # at once: tests/peer/test_readers.py), so that its flood meets the slots
            ["host", "--edition", "zman", "--seats", "3", "--name", "flooded", "--open",
             "--spectators"],
            tmp_path / "host",
            console=True,
        )
        address = host.address()
        host.wait_for("hosting", 20)

        async def attack() -> None:
            table_id = (await hello(address)).table_id
            assert await status_of(address, SUBSCRIBE, subscription(b"")) == (
                "INVALID_ARGUMENT", "a subscription names the table it follows"
            )
            assert await status_of(address, SUBSCRIBE, subscription(random_table_id())) == (
                "FAILED_PRECONDITION", "this peer serves another table"
            )
            before = resident_kib(host.pid)
            async with (
                flood(address, 300, SUBSCRIBE, subscription(table_id)) as streams,
                flood(address, 300, HEALTH_WATCH, HEALTH_REQUEST) as watches,
            ):
                grown = resident_kib(host.pid) - before
                opened = streams.statuses["open"] + watches.statuses["open"]
                assert opened == STREAMS_PER_SOURCE, (streams, watches)
                refused = streams.statuses["RESOURCE_EXHAUSTED"]
                refused += watches.statuses["RESOURCE_EXHAUSTED"]
                assert refused == 600 - STREAMS_PER_SOURCE, (streams, watches)
                assert f"{STREAMS_PER_SOURCE} streams are open from 127.0.0.1 already" in (
                    streams.details
                )
                assert grown < 20_000, f"the host grew by {grown} KiB for 600 streams"
                # The seats join while the stranger holds every stream its source may hold.
                bots = [
                    peers.start(
                        ["bot", "--join", address, "--strategy", "greedy", "--seed", str(seat)],
                        tmp_path / f"bot{seat}",
                    )
                    for seat in (1, 2)
                ]
                table = [host, *bots]
                # A stream that is not read is ended once the host has waited for room in it
                # for UNREAD_SECONDS (the deal's entries fill what a stream may buffer); the
                # table waits meanwhile at the host's first turn, at the latest.
                await asyncio.to_thread(host.wait_for, "cards dealt", GAME_SECONDS)
                await asyncio.sleep(UNREAD_SECONDS + 5)
                ended = await ends_of([s for s in streams.calls if not s.done()])
                assert len(ended) == STREAMS_PER_SOURCE - watches.statuses["open"]
                assert ended == [("RESOURCE_EXHAUSTED", NOT_READ)] * len(ended), ended
                await asyncio.to_thread(host.play_first_moves, GAME_SECONDS)
                await asyncio.to_thread(peers.wait_all, table, GAME_SECONDS)
            assert_same_game(table)

        asyncio.run(attack())


def test_a_seat_the_host_has_no_link_to_is_shown_as_a_link_that_waits_not_a_seat_that_does(
    tmp_path: Path,
) -> None:
    with peers_in(tmp_path) as peers:
        host = peers.start(
            ["host", "--edition", "zman-duel", "--seats", "2", "--name", "cut off", "--open",
             "--bot-move-deadline", "600", "--step-deadline", "600"],
            tmp_path / "host",
            console=True,
        )
        address = host.address()
        host.wait_for("hosting", 20)
        bot_args = ["bot", "--join", address, "--strategy", "greedy"]
        bot = peers.start(bot_args, tmp_path / "bot")
        host.wait_for("cards dealt", GAME_SECONDS)
        peers.kill(bot)
        playing = threading.Thread(target=host.play_first_moves, args=(GAME_SECONDS,))
        playing.start()
        host.wait_for(
            r"waiting on the link to seat 1 \([^)]+\), not on them: nobody answers there",
            GAME_SECONDS,
        )
        again = peers.start(bot_args, tmp_path / "bot")
        playing.join()
        peers.wait_all([host, again], GAME_SECONDS)
    assert_same_game([host, again])


@pytest.mark.skipif(
    (reason := cannot_create_namespaces()) is not None, reason=str(reason)
)  # a flood of adverts on a LAN of its own, so that other tests' tables are not drowned
def test_a_flood_of_adverts_is_counted_and_a_table_joined_by_name_is_asked_where_it_answers(
    tmp_path: Path,
) -> None:
    name = f"Flooded-{os.urandom(3).hex()}"
    with namespaces(3) as (lan_host, stranger, guest), peers_in(tmp_path) as peers:

        def tables(*options: str) -> str:
            listing = peers.start(
                ["tables", "--once", "--wait", "6", "--interface", guest.address, *options],
                tmp_path, wrapper=guest.wrapper, store=False,
            )
            peers.wait_all([listing], 60)
            return "".join(listing.lines)

        creator = peers.start(
            ["host", "--edition", "zman-duel", "--seats", "2", "--strategy", "greedy",
             "--name", name, "--interface", lan_host.address],
            tmp_path / "host", wrapper=lan_host.wrapper,
        )
        creator.wait_for("hosting", 20)
        (table,) = [t for t in json.loads(tables("--json"))["tables"] if t["name"] == name]
        flood = peers.start_program(
            [*stranger.wrapper, sys.executable, "-m", "tests.peer.advert_flood",
             "--interface", stranger.address, "--table", table["table"], name, table["creator"],
             "--noise", str(NOISE)],
            tmp_path, ["advert_flood"], console=True,
        )
        flood.wait_for("^flooding", GAME_SECONDS)
        listed = json.loads(tables("--json"))
        assert listed["dropped"] > 0 and listed["followed_at_most"] == MAX_SIGHTINGS, listed
        assert re.search(
            rf"! \d+ more services not followed \(at most {MAX_SIGHTINGS} are\)", tables()
        )
        flood.type("quiet")  # the noise goes; the copies of the table and its namesakes stay
        flood.wait_for("^quiet", 60)
        listed = json.loads(tables("--json"))
        named_so = [t for t in listed["tables"] if t["name"] == name]
        assert len(named_so) == 4 and listed["dropped"] == 0, named_so
        (real,) = [t for t in named_so if t["table"] == table["table"]]
        assert len(real["addresses"]) == 21 and real["joinable"], real
        joiner = peers.start(
            ["bot", "--join", name, "--strategy", "greedy", "--wait", "15",
             "--interface", guest.address],
            tmp_path / "guest", wrapper=guest.wrapper,
        )
        joiner.wait_for(rf"asked {re.escape(table['addresses'][0])} for a seat", 60)
        peers.wait_all([creator, joiner], GAME_SECONDS)
    assert_same_game([creator, joiner])


def test_the_creator_admits_and_refuses_each_joiner_and_strangers_take_no_seat(
    tmp_path: Path,
) -> None:
    with peers_in(tmp_path) as peers:
        host = peers.start(
            ["host", "--edition", "zman", "--seats", "3", "--name", "guarded", "--player", "ada"],
            tmp_path / "host",
            console=True,
        )
        address = host.address()
        host.wait_for("you admit or refuse each player", 20)

        def joiner(name: str, data: str) -> tuple[PeerProcess, str]:
            peer = peers.start(
                ["bot", "--join", address, "--strategy", "greedy", "--player", name],
                tmp_path / data,
            )
            return peer, peer.wait_for(FINGERPRINT, 20).group(1)

        # Two strangers come first, one under an honest player's name.
        strangers = [joiner("bob", "stranger1"), joiner("mallory", "stranger2")]
        for _, key in strangers:
            host.wait_for(rf"\({key}\) asks for a seat: admit or refuse them", 30)
        honest = [joiner("bob", "bob"), joiner("cleo", "cleo")]
        for _, key in honest:
            host.wait_for(rf"\({key}\) asks for a seat: admit or refuse them", 30)
        host.type("admit bob")  # two joiners are called bob: the host must name one by its key
        host.wait_for("cannot admit: 2 joiners are called 'bob'", 20)
        for _, key in strangers:
            host.type(f"refuse {key}")
            host.wait_for(f"refused: {key}", 20)
        for _, key in honest:
            host.type(f"admit {key}")
        host.wait_for("the table is full", 30)
        host.play_first_moves(GAME_SECONDS)
        table = [host, *(peer for peer, _ in honest)]
        peers.wait_all(table, GAME_SECONDS)
        seated = set(re.findall(r"seat \d +\S+ +([0-9a-f-]{24})", "".join(host.lines)))
        assert seated >= {key for _, key in honest}
        assert not seated & {key for _, key in strangers}
        for stranger, _ in strangers:
            assert stranger.process.poll() is None or "not seated" in stranger.output()
            stranger.wait_for("the table's creator refused you a seat", 20)
        for peer, _ in honest:
            assert "refused you a seat" not in peer.output()
    assert_same_game(table)


@pytest.mark.skipif(
    (reason := cannot_create_namespaces()) is not None, reason=str(reason)
)  # the stranger needs a source of its own: on loopback every process is one source
@pytest.mark.parametrize("open_table", [True, False], ids=["open", "admitting"])
def test_a_stranger_with_100_keys_does_not_keep_a_friend_from_the_free_seat(
    tmp_path: Path, open_table: bool
) -> None:
    """One stranger's process asks for the one free seat under 100 fresh keys before a
    friend asks, from a host of its own: at an open table (a bot host seats whoever asks) its
    keys may take the seat once, and the friend takes it at the next seating; at a table
    whose owner admits, the owner admits the friend by fingerprint while the keys wait. The
    game is played to its end either way."""
    with namespaces(3) as (table_host, stranger_host, friend_host), peers_in(tmp_path) as peers:
        args = ["host", "--edition", "zman-duel", "--seats", "2", "--name", "sybils",
                "--interface", table_host.address, "--ready-deadline", "10"]
        args += ["--strategy", "greedy"] if open_table else ["--player", "ada"]
        host = peers.start(
            args, tmp_path / "host", wrapper=table_host.wrapper, console=not open_table
        )
        address = host.address()
        host.wait_for("hosting" if open_table else "you admit or refuse each player", 20)
        sybil = peers.start_program(
            [*stranger_host.wrapper, sys.executable, "-m", "tests.peer.sybil", address,
             stranger_host.address, "100"],
            tmp_path / "sybil",
        )
        sybil.wait_for("sybil: 100 joins at", 30)
        # the host hears of the keys before the friend asks (a bot host seats one at once)
        host.wait_for(r"seat 1 +sybil\d+ " if open_table else r"sybil\d+ \(.*asks for a seat", 30)
        friend = peers.start(
            ["bot", "--join", address, "--strategy", "greedy", "--player", "bob",
             "--interface", friend_host.address],
            tmp_path / "friend",
            wrapper=friend_host.wrapper,
        )
        if not open_table:
            key = friend.wait_for(FINGERPRINT, 20).group(1)
            host.wait_for(rf"\({key}\) asks for a seat: admit or refuse them", 60)
            host.type(f"admit {key}")
        host.wait_for(r"seat 1 +bob " if open_table else r"the table is full: .*\(bob\)", 90)
        if not open_table:
            host.play_first_moves(GAME_SECONDS)
        peers.wait_all([host, friend], GAME_SECONDS)
        output = "".join(host.lines)
        if open_table:  # every listing of the lobby: the keys kept unseated, at most a few
            holders = []  # who holds seat 1 in each listing, from the first where bob waits
            for listing in output.split("at the table")[1:]:
                assert len(re.findall(r"waiting +sybil", listing)) <= UNSEATED_PER_SOURCE
                if holders or re.search(r"waiting +bob", listing):
                    holder = re.search(r"seat 1 +(\S+)", listing)
                    holders.append(holder.group(1) if holder else "")
            # the key that held the seat when bob asked is freed, and bob takes it next
            changes = [holder for holder in dict.fromkeys(holders) if holder]
            assert changes[-1:] == ["bob"] and len(changes) <= 2, holders
        else:
            heard = set(re.findall(r"(sybil\d+) \(\S+\) asks for a seat", output))
            assert 0 < len(heard) <= UNSEATED_PER_SOURCE, heard
        peers.kill(sybil)
    assert_same_game([host, friend])


@pytest.mark.skipif(
    (reason := cannot_create_namespaces()) is not None, reason=str(reason)
)  # the stranger needs a source of its own (the loopback is not held to a source's rate)
def test_a_strangers_many_connections_make_no_more_calls_than_its_source_and_a_friend_is_answered(
    tmp_path: Path,
) -> None:
    connections, calls = 60, 6  # within what each connection may (rate, 8 streams), past the source
    with namespaces(3) as (table_host, stranger_host, friend_host), peers_in(tmp_path) as peers:
        host = peers.start(
            ["host", "--edition", "zman-duel", "--seats", "2", "--name", "called",
             "--interface", table_host.address, "--strategy", "greedy"],
            tmp_path / "host", wrapper=table_host.wrapper,
        )
        address = host.address()
        host.wait_for("hosting", 20)

        def flood(host_of_caller: Host, connections: int, calls: int) -> dict[str, int]:
            caller = peers.start_program(
                [*host_of_caller.wrapper, sys.executable, "-m", "tests.peer.call_flood",
                 address, str(connections), str(calls)],
                tmp_path / "caller",
            )
            peers.wait_for_exit(caller, 60)
            return dict(json.loads(caller.lines[-1]))

        stranger = flood(stranger_host, connections, calls)
        refused = f"RESOURCE_EXHAUSTED: more than {SOURCE_CALLS_PER_SECOND:g} calls a second from"
        # answered up to the source's burst, the rest refused for the source's rate
        assert SOURCE_CALL_BURST <= stranger["OK"] < connections * calls, stranger
        assert stranger["OK"] + sum(
            n for end, n in stranger.items() if end.startswith(refused)
        ) == connections * calls, stranger
        assert flood(friend_host, 1, 1) == {"OK": 1}, "another source is answered"
