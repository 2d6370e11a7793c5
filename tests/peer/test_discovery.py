"""Zeroconf on loopback, in one process (several responders, each bound to 127.0.0.1 only):
tables advertised, updated and withdrawn; hostile records, a service pointing to a closed
port, a name collision and a peer serving another table than it claims, each shown with the
reason while the browser goes on.

Other tests (and other people's) may advertise on loopback at the same time: every check
looks only at the tables this test made (random ids).
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import socket
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import grpc
import pytest
from zeroconf.asyncio import AsyncServiceInfo

from condottiere.crypto import Identity
from condottiere.peer.advert import SERVICE_TYPE, Advert, encode_txt
from condottiere.peer.discovery import (
    Advertiser,
    Browser,
    Lan,
    Listing,
    Sighting,
    check_peer,
    find,
    listings,
)
from condottiere.peer.interfaces import Interface
from condottiere.peer.lobby import PROTOCOL, TableSpec
from condottiere.peer.node import JoinError, Node
from condottiere.peer.service import SERVICE_NAME
from condottiere.peer.store import Store
from condottiere.v1 import peer_pb2

LOOPBACK = Interface("lo", ("127.0.0.1",))
SEEN_SECONDS = 40.0
"""Generous bound on any wait for zeroconf: registration probes for about 1.2 s, and reading a
record takes up to three tries of 3 s each on a loaded machine."""


def advert(name: str = "Friday", **changes: object) -> Advert:
    """A fresh table's advert (a random id), as its creator would publish it."""
    creator = Identity.generate().public.fingerprint()
    made = Advert(PROTOCOL, os.urandom(32).hex(), name, "condottiere", "zman", (), 4, 1,
                  "lobby", creator, creator)
    return dataclasses.replace(made, **changes)  # type: ignore[arg-type]


def closed_port() -> int:
    """A loopback port nobody listens on (bound, then closed)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(test(), 4 * SEEN_SECONDS))


def listed(browser: Browser, table_id: str) -> Listing | None:
    return next((t for t in browser.listings() if t.table_id == table_id), None)


def test_an_advertised_table_is_listed_updated_and_gone_at_its_goodbye_as_last_seen() -> None:
    async def test() -> None:
        host, guest = Lan(LOOPBACK), Lan(LOOPBACK)
        browser = Browser(guest)
        await browser.start()
        table = advert()
        advertiser = Advertiser(host, "127.0.0.1", 4000, table.peer)
        try:
            assert await advertiser.publish(table) is None
            assert await browser.wait_for(lambda: listed(browser, table.table_id) is not None,
                                          SEEN_SECONDS)
            listing = listed(browser, table.table_id)
            assert listing is not None
            assert listing.advert == table and listing.addresses == ("127.0.0.1:4000",)
            assert listing.why_not_joinable() is None
            full = dataclasses.replace(table, taken=4)
            await advertiser.publish(full)
            assert await browser.wait_for(
                lambda: getattr(listed(browser, table.table_id), "advert", None) == full,
                SEEN_SECONDS,
            )
            assert listed(browser, table.table_id).why_not_joinable() == "no seat is free"  # type: ignore[union-attr]
            started = time.monotonic()
            await advertiser.withdraw()
            assert await browser.wait_for(lambda: listed(browser, table.table_id) is None,
                                          SEEN_SECONDS)
            assert time.monotonic() - started < 3, "the goodbye packets are not heard"
            (withdrawn,) = [t for t in listings(browser.withdrawn.values())
                            if t.table_id == table.table_id]
            assert withdrawn.advert == full  # as last seen, not as first seen
            await advertiser.publish(full)
            assert await browser.wait_for(lambda: listed(browser, table.table_id) is not None,
                                          SEEN_SECONDS)
            assert not [s for s in browser.withdrawn.values()
                        if s.advert is not None and s.advert.table_id == table.table_id]
        finally:
            await browser.stop()
            await host.close()
            await guest.close()

    run(test)


def test_a_hostile_record_is_refused_with_the_reason_and_the_browser_goes_on() -> None:
    async def test() -> None:
        host, guest = Lan(LOOPBACK), Lan(LOOPBACK)
        browser = Browser(guest)
        await browser.start()
        good = advert("Good table")
        hostile_name = f"hostile {os.urandom(4).hex()}"
        hostile = AsyncServiceInfo(
            SERVICE_TYPE,
            f"{hostile_name}.{SERVICE_TYPE}",
            port=4001,
            properties=encode_txt({**advert().txt(), "name": "\x1b[2Jgotcha"}),
            server=f"{hostile_name.replace(' ', '-')}.local.",
            parsed_addresses=["127.0.0.1"],
        )
        try:
            await host.zeroconf.async_register_service(hostile)
            await Advertiser(host, "127.0.0.1", 4002, good.peer).publish(good)
            assert await browser.wait_for(
                lambda: hostile_name in browser.sightings
                and browser.sightings[hostile_name].refused.startswith("its record is refused")
                and listed(browser, good.table_id) is not None,
                SEEN_SECONDS,
            ), browser.sightings.get(hostile_name)
            refused = browser.sightings[hostile_name]
            assert refused.advert is None and refused.address == "127.0.0.1:4001"
            assert refused.refused == (
                "its record is refused: the value of 'name' holds characters that cannot be shown"
            )
        finally:
            await browser.stop()
            await host.close()
            await guest.close()

    run(test)


def test_a_service_pointing_to_a_closed_port_is_shown_as_not_answering() -> None:
    async def test() -> None:
        host, guest = Lan(LOOPBACK), Lan(LOOPBACK)
        browser = Browser(guest, check=True)
        await browser.start()
        table = advert("Nobody home")
        port = closed_port()
        try:
            await Advertiser(host, "127.0.0.1", port, table.peer).publish(table)
            assert await browser.wait_for(
                lambda: getattr(listed(browser, table.table_id), "why_not_joinable", lambda: None)()
                is not None,
                SEEN_SECONDS,
            )
            listing = listed(browser, table.table_id)
            assert listing is not None
            assert listing.why_not_joinable() == (
                f"no peer of the table answers: 127.0.0.1:{port}: nobody answers there"
            )
        finally:
            await browser.stop()
            await host.close()
            await guest.close()

    run(test)


def test_a_name_collision_renames_the_second_service_and_says_so() -> None:
    async def test() -> None:
        first, second, guest = Lan(LOOPBACK), Lan(LOOPBACK), Lan(LOOPBACK)
        browser = Browser(guest)
        await browser.start()
        one = advert("Twins")
        other = dataclasses.replace(advert("Twins"), peer=one.peer)
        try:
            assert await Advertiser(first, "127.0.0.1", 4003, one.peer).publish(one) is None
            renamed = Advertiser(second, "127.0.0.1", 4004, one.peer)
            notice = await renamed.publish(other)
            assert notice is not None and notice.startswith(
                f"another service on the LAN is called 'Twins [{one.peer[:9]}]': advertising as"
            )
            assert renamed.name != f"Twins [{one.peer[:9]}]"
            assert await browser.wait_for(
                lambda: all(listed(browser, a.table_id) for a in (one, other)), SEEN_SECONDS
            )
            with pytest.raises(LookupError, match="2 tables are called 'twins'"):
                find([t for t in browser.listings() if t.advert.name == "Twins"], "twins")
        finally:
            await browser.stop()
            for lan in (first, second, guest):
                await lan.close()

    run(test)


def test_a_peer_is_checked_against_the_table_its_advert_claims(tmp_path: Path) -> None:
    async def test() -> None:
        store = Store(tmp_path / "host")
        node = Node(store, host="127.0.0.1")
        await node.start()
        try:
            spec = TableSpec("zman", 3, (), "Checked", "ada", "")
            await node.host_table(spec)
            assert node.table is not None
            creator = node.identity.public.fingerprint()
            true = advert("Checked", table_id=node.table.table_id.hex(), creator=creator)
            assert await check_peer(node.address, true) == ""
            assert await check_peer(node.address, advert("Checked", creator=creator)) == (
                f"{node.address}: this peer serves another table"
            )
            impostor = dataclasses.replace(true, creator="0000-0000-0000-0000-0000")
            assert await check_peer(node.address, impostor) == (
                f"{node.address} serves a table created by {creator}, not by "
                "0000-0000-0000-0000-0000"
            )
        finally:
            await node.stop()
            store.close()

    run(test)


def sighting(service: str, made: Advert, address: str, answer: str | None) -> Sighting:
    return Sighting(service, address, made, answer=answer)


def test_a_table_is_what_its_answering_peers_say_not_what_a_stranger_claims() -> None:
    table = advert("Merged", taken=2)
    joiner = dataclasses.replace(table, peer="aaaa-bbbb-cccc-dddd-eeee", taken=3)
    liar = dataclasses.replace(table, peer="ffff-ffff-ffff-ffff-ffff", stage="over")
    (merged,) = listings([
        sighting("z joiner", joiner, "127.0.0.1:2", ""),
        sighting("a liar", liar, "127.0.0.1:3", "127.0.0.1:3: nobody answers there"),
        sighting("y creator", table, "127.0.0.1:1", ""),
    ])
    assert merged.advert == joiner
    assert [s.service for s in merged.sightings] == ["y creator", "a liar", "z joiner"]
    assert merged.addresses == ("127.0.0.1:1", "127.0.0.1:2", "127.0.0.1:3")
    assert merged.why_not_joinable() is None


def test_a_table_is_found_by_name_in_any_case_or_by_a_prefix_of_its_id() -> None:
    friday, other = advert("Friday"), advert("Saturday")
    tables = listings([sighting("a", friday, "127.0.0.1:1", None),
                       sighting("b", other, "127.0.0.1:2", None)])
    assert find(tables, "FRIDAY").advert == friday
    assert find(tables, other.table_id[:6]).advert == other
    with pytest.raises(LookupError, match="no table called 'Sunday'"):
        find(tables, "Sunday")
    with pytest.raises(LookupError, match="no table called"):
        find(tables, other.table_id[:3])  # too short to be an id


def test_a_table_found_on_the_lan_is_joined_only_if_its_peer_serves_that_table(
    tmp_path: Path,
) -> None:
    async def test() -> None:
        stores = [Store(tmp_path / name) for name in ("host", "guest")]
        host, guest = (Node(store, host="127.0.0.1") for store in stores)
        liar = grpc.aio.server()
        try:
            for node in (host, guest):
                await node.start()
            await host.host_table(TableSpec("zman", 3, (), "Real", "ada", ""))
            other_table = os.urandom(32)
            with pytest.raises(JoinError, match="this peer serves another table"):
                await guest.join_table(host.address, "bob", table_id=other_table)

            async def hello(request: peer_pb2.HelloRequest, context: object) -> object:
                return host.hello_reply()  # whatever table was asked for

            handler = grpc.unary_unary_rpc_method_handler(
                hello,
                request_deserializer=peer_pb2.HelloRequest.FromString,
                response_serializer=peer_pb2.HelloReply.SerializeToString,
            )
            service = grpc.method_handlers_generic_handler(SERVICE_NAME, {"Hello": handler})
            liar.add_generic_rpc_handlers((service,))
            port = liar.add_insecure_port("127.0.0.1:0")
            await liar.start()
            with pytest.raises(JoinError, match="serves another table than the one asked for"):
                await guest.join_table(f"127.0.0.1:{port}", "bob", table_id=other_table)
            assert guest.table is None
        finally:
            await liar.stop(0)
            for node in (host, guest):
                await node.stop()
            for store in stores:
                store.close()

    run(test)
