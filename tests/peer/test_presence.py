"""A node's life on the LAN, in one process with zeroconf on 127.0.0.1: its table advertised as
seats are taken, the addresses advertised for its table followed, and its advertisement
withdrawn when it stops."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import socket
from pathlib import Path

import pytest

import condottiere.peer.presence as presence_module
from condottiere.peer.advert import Advert
from condottiere.peer.discovery import Advertiser, Browser, Lan, Listing
from condottiere.peer.interfaces import Interface
from condottiere.peer.lobby import PROTOCOL, TableSpec
from condottiere.peer.node import Node
from condottiere.peer.presence import Presence
from condottiere.peer.store import Store

LOOPBACK = Interface("lo", ("127.0.0.1",))
SEEN_SECONDS = 10.0


def listed(browser: Browser, node: Node) -> Listing | None:
    assert node.table is not None
    table_id = node.table.table_id.hex()
    return next((t for t in browser.listings() if t.table_id == table_id), None)


def test_a_node_advertises_its_table_as_seats_are_taken_and_withdraws_it_when_it_stops(
    tmp_path: Path,
) -> None:
    async def test() -> None:
        watcher = Lan(LOOPBACK)
        browser = Browser(watcher)
        await browser.start()
        stores = [Store(tmp_path / name) for name in ("host", "guest")]
        host, guest = (Node(store, host="127.0.0.1") for store in stores)
        presences: list[Presence] = []
        try:
            for node in (host, guest):
                await node.start()
                presences.append(Presence(node, Lan(LOOPBACK), say=print))
                await presences[-1].start()
            name = f"Presence-{os.urandom(3).hex()}"
            await host.host_table(TableSpec("zman", 3, (), name, "ada", ""))
            presences[0].attend()

            def shows(taken: int, addresses: int) -> bool:
                listing = listed(browser, host)
                return (listing is not None and listing.advert.taken == taken
                        and len(listing.addresses) == addresses)

            assert await browser.wait_for(lambda: shows(1, 1), SEEN_SECONDS)
            found = await presences[1].find(name.lower(), SEEN_SECONDS)
            await guest.join_table(
                found.addresses[0], "bob", table_id=bytes.fromhex(found.table_id)
            )
            presences[1].attend()
            assert await browser.wait_for(lambda: shows(2, 2), SEEN_SECONDS)
            listing = listed(browser, host)
            assert listing is not None
            assert listing.addresses == (host.address, guest.address)
            assert listing.advert.creator == host.identity.public.fingerprint()
            await presences.pop(0).stop()
            assert await browser.wait_for(lambda: shows(2, 1), SEEN_SECONDS)
        finally:
            for presence in presences:
                await presence.stop()
            for node in (host, guest):
                await node.stop()
            for store in stores:
                store.close()
            await browser.stop()
            await watcher.close()

    asyncio.run(asyncio.wait_for(test(), 60))


def test_a_node_follows_the_addresses_advertised_for_its_table_only(tmp_path: Path) -> None:
    async def test() -> None:
        store = Store(tmp_path / "host")
        node = Node(store, host="127.0.0.1")
        other = Lan(LOOPBACK)
        presence: Presence | None = None
        try:
            await node.start()
            await node.host_table(TableSpec("zman", 3, (), "Hints", "ada", ""))
            assert node.table is not None
            presence = Presence(node, Lan(LOOPBACK), say=print)
            await presence.start()
            presence.attend()
            mine, stranger = closed_port(), closed_port()
            strange_table = os.urandom(32).hex()
            for port, table_id in ((mine, node.table.table_id.hex()), (stranger, strange_table)):
                peer = os.urandom(10).hex("-", 2)
                made = Advert(PROTOCOL, table_id, "Hints", "condottiere", "zman", (), 3, 2,
                              "lobby", node.identity.public.fingerprint(), peer)
                await Advertiser(other, "127.0.0.1", port, peer).publish(made)
            hinted = f"127.0.0.1:{mine}"
            for _ in range(int(SEEN_SECONDS / 0.05)):
                if hinted in node.link_errors:
                    break
                await asyncio.sleep(0.05)
            assert node.link_errors.get(hinted) == "nobody answers there"
            assert await presence.browser.wait_for(
                lambda: any(t.table_id == strange_table for t in presence.browser.listings()),
                SEEN_SECONDS,
            )
            await asyncio.sleep(0.5)
            assert f"127.0.0.1:{stranger}" not in node.link_errors
        finally:
            if presence is not None:
                await presence.stop()
            await other.close()
            await node.stop()
            store.close()

    asyncio.run(asyncio.wait_for(test(), 60))


def test_a_table_withdrawn_while_it_is_looked_for_is_found_as_last_seen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A joiner may first see one peer's record from before that peer caught up (a lobby
    with a free seat, while the game is played); if every peer then withdraws the table (the
    game over, the peers stopped), the joiner is told what it last saw, not asked to join."""
    monkeypatch.setattr(presence_module, "SETTLE_BROWSED", 8.0)  # the test's steps fit in
    monkeypatch.setattr(presence_module, "SETTLE_LIMIT", 16.0)

    async def test() -> None:
        store = Store(tmp_path / "joiner")
        joiner = Node(store, host="127.0.0.1")
        other = Lan(LOOPBACK)
        presence: Presence | None = None
        try:
            await joiner.start()
            presence = Presence(joiner, Lan(LOOPBACK), say=print)
            await presence.start()
            name = f"Gone-{os.urandom(3).hex()}"
            peer = os.urandom(10).hex("-", 2)
            stale = Advert(PROTOCOL, os.urandom(32).hex(), name, "condottiere", "zman", (), 3,
                           2, "lobby", peer, peer)
            advertiser = Advertiser(other, "127.0.0.1", closed_port(), peer)
            await advertiser.publish(stale)
            looking = asyncio.create_task(presence.find(name, SEEN_SECONDS))
            browser = presence.browser

            def seen(stage: str) -> bool:
                shown = [t.advert.stage for t in browser.listings() if t.advert.name == name]
                return shown == [stage]

            assert await browser.wait_for(lambda: seen("lobby"), SEEN_SECONDS)
            await advertiser.publish(dataclasses.replace(stale, taken=3, stage="over"))
            assert await browser.wait_for(lambda: seen("over"), SEEN_SECONDS)
            await advertiser.withdraw()
            assert await browser.wait_for(lambda: not seen("over"), SEEN_SECONDS)
            assert not looking.done()
            found = await looking
            assert found.table_id == stale.table_id
            assert found.why_not_joinable() == "the game is over"
        finally:
            if presence is not None:
                await presence.stop()
            await other.close()
            await joiner.stop()
            store.close()

    asyncio.run(asyncio.wait_for(test(), 60))


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
