"""A peer's life on the LAN: it browses from the start (to find the table a player names),
advertises its table once it has one, updates the advertisement when a seat is taken or the
game moves on, follows the other peers of its table at the addresses they advertise, and
withdraws the advertisement (goodbye packets) when it stops.

Addresses also come from the signed ``Join`` entries and from ``Hello`` replies; those found
here help when they are stale (a peer restarted on another port) or a peer was told only one
address. An address advertised for this table is only a hint: the peer there must serve the
table's signed entries, so a false one costs a link that is retried, and at most
:data:`MAX_LEARNED` of them are followed.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from condottiere.peer.advert import Advert
from condottiere.peer.controller import Snapshot, fingerprint
from condottiere.peer.discovery import (
    MAX_SIGHTINGS,
    Advertiser,
    Browser,
    DiscoveryError,
    Lan,
    Listing,
    answering_first,
    find,
    listings,
    named,
)
from condottiere.peer.lobby import PROTOCOL
from condottiere.peer.node import Node

__all__ = ["MAX_LEARNED", "SETTLE_BROWSED", "SETTLE_LIMIT", "SETTLE_SECONDS", "Presence",
           "advert_of"]

MAX_LEARNED = 64
SETTLE_SECONDS = 0.5
"""Once a table of the name asked for is seen: how long nothing else may change on the LAN
before the name is taken as settled (a second table of that name may answer too)..."""
SETTLE_BROWSED = 1.5
"""... after at least this long browsing (the browser's second query round) ..."""
SETTLE_LIMIT = 3.0
"""... and at most this long."""
"""After a named table is first seen, how long to wait for others of the same name."""


async def _answers(table: Listing) -> bool:
    """Whether a peer advertising ``table`` serves it."""
    ordered, failed = await answering_first(table.addresses, table.advert)
    return len(failed) < len(ordered)


def advert_of(node: Node, snapshot: Snapshot) -> Advert:
    """What a node says of its table on the LAN, as the snapshot shows it."""
    table = node.table
    assert table is not None
    spec = table.spec
    return Advert(
        protocol=PROTOCOL,
        table_id=table.table_id.hex(),
        name=spec.name,
        game=spec.game,
        edition=spec.edition,
        options=spec.options,
        seats=spec.seats,
        taken=min(len(snapshot.players), spec.seats),
        stage=snapshot.stage,
        creator=fingerprint(table.lobby.creator),
        peer=node.identity.public.fingerprint(),
    )


class Presence:
    """A node on the LAN through one zeroconf responder."""

    def __init__(self, node: Node, lan: Lan, say: Callable[[str], None]) -> None:
        """``say`` tells the player what happened that they should know (a name taken, an
        advertisement that failed)."""
        self.node = node
        self.lan = lan
        self.browser = Browser(lan)
        self.advertiser = Advertiser(
            lan, node.host, node.port, node.identity.public.fingerprint()
        )
        self._say = say
        self._learned: set[str] = set()
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        """Browse the LAN (the node must be serving: its address is advertised later)."""
        await self.browser.start()
        self._tasks.append(asyncio.create_task(self._learn(), name="learn addresses"))

    async def find(self, query: str, timeout: float) -> Listing:
        """The table on the LAN that ``query`` names (its name, or a prefix of its id),
        waiting up to ``timeout`` seconds for it to be seen; LookupError saying why not."""

        def named_one() -> bool:
            return bool(named(self.browser.listings(), query))

        if await self.browser.wait_for(named_one, timeout):
            first_seen = named(self.browser.listings(), query)
            await self.browser.settle(SETTLE_SECONDS, SETTLE_LIMIT, browsed=SETTLE_BROWSED)
        else:
            interface = self.lan.interface
            seen = len(self.browser.listings())
            dropped = self.browser.ignored
            flood = (
                f"; {dropped} more adverts were not followed (at most {MAX_SIGHTINGS} are)"
                if dropped
                else ""
            )
            raise LookupError(
                f"no table called {query!r} (nor with an id starting so) was seen on "
                f"{interface} in {timeout:g} s ({seen} other table{'s' * (seen != 1)} seen"
                f"{flood})"
            )
        candidates = named(self.browser.listings(), query) or self._last_seen(first_seen)
        if len(candidates) > 1:  # tables of one name: the one whose peers answer, if one
            answering = [
                table for table in candidates if await _answers(table)
            ]
            if len(answering) == 1:
                return answering[0]
        return find(candidates, query)

    def _last_seen(self, first_seen: list[Listing]) -> list[Listing]:
        """The tables ``first_seen`` as last seen, once all their peers have withdrawn them
        (the game over, the peers stopped): not as first seen, which may be one peer's record
        from before it caught up (a lobby with a free seat while the game is played)."""
        wanted = {table.table_id for table in first_seen}
        withdrawn = listings(self.browser.withdrawn.values())
        return [table for table in withdrawn if table.table_id in wanted] or first_seen

    def attend(self) -> None:
        """Advertise the node's table from now on, as it changes (the node has a table)."""
        assert self.node.table is not None
        self._tasks.append(asyncio.create_task(self._advertise(), name="advertise"))
        self._follow_advertised()

    async def stop(self) -> None:
        """Withdraw the advertisement (goodbye packets) and stop browsing."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.advertiser.withdraw()
        await self.browser.stop()
        await self.lan.close()

    async def _advertise(self) -> None:
        published: Advert | None = None
        async for snapshot in self.node.controller.changes():
            advert = advert_of(self.node, snapshot)
            if advert == published:
                continue
            try:
                notice = await self.advertiser.publish(advert)
            except DiscoveryError as exc:
                self._say(f"{exc}; others can still join with 'condottiere join "
                          f"{self.node.address}'")
                return
            if notice is not None:
                self._say(notice)
            published = advert

    async def _learn(self) -> None:
        while True:
            await self.browser.changes()
            self._follow_advertised()

    def _follow_advertised(self) -> None:
        """Follow the peers advertising this node's table (at most :data:`MAX_LEARNED`)."""
        table = self.node.table
        if table is None:
            return
        for listing in self.browser.listings():
            if listing.table_id != table.table_id.hex():
                continue
            for address in listing.addresses:
                if address not in self._learned and len(self._learned) < MAX_LEARNED:
                    self._learned.add(address)
                    self.node.heard_of(address)
