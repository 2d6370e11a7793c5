"""The links to the other peers: every peer this one knows of is followed by a ``Subscribe``
stream that sends every entry it holds beyond what this peer has, then each new one, into one
inbox the node takes entries from.

A peer that goes away is retried with a short backoff; on its return the stream resumes from
where this peer stopped. Addresses that callers or replies claim for an author are followed
within the bounds of :class:`~condottiere.peer.limits.Claims`; the inbox is read no faster
than the node takes entries in, and a peer that sends junk is read slower.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Protocol

import grpc

from condottiere.crypto import Identity
from condottiere.peer.driver import Table
from condottiere.peer.entries import MAX_ENTRY_BYTES
from condottiere.peer.limits import (
    INBOX,
    INBOX_BYTES,
    JUNK_BURST,
    JUNK_PER_SECOND,
    Claims,
    TokenBucket,
    valid_address,
)
from condottiere.peer.lobby import PROTOCOL
from condottiere.peer.logs import Suspicion
from condottiere.peer.service import NO_TABLE_YET, SERVICE_NAME, subscription_proof
from condottiere.peer.trace import Trace
from condottiere.v1 import peer_pb2

__all__ = [
    "CHANNEL_OPTIONS",
    "HELLO_SECONDS",
    "MAX_MESSAGE_BYTES",
    "RETRY_SECONDS",
    "LinkHost",
    "Links",
    "describe_rpc_error",
]

MAX_MESSAGE_BYTES = MAX_ENTRY_BYTES + 4096
CHANNEL_OPTIONS = [
    ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
    ("grpc.initial_reconnect_backoff_ms", 100),
    ("grpc.min_reconnect_backoff_ms", 100),
    ("grpc.max_reconnect_backoff_ms", 1000),
    ("grpc.enable_retries", 0),
]
HELLO_SECONDS = 3.0
RETRY_SECONDS = (0.05, 1.0)
"""The first and the longest pause before following a peer again."""
NEVER_ANSWERED_SECONDS = 30.0
"""The longest pause before calling again an address where no peer ever answered."""


class LinkHost(Protocol):
    """What the links see of their node."""

    identity: Identity
    address: str
    trace: Trace
    table: Table | None

    @property
    def table_id(self) -> bytes | None: ...

    def held(self) -> dict[bytes, int]:
        """How many entries this peer holds of each author."""
        ...

    async def _catch_up(self) -> None: ...


class Links:
    """The peers this one follows, and the inbox their streams fill."""

    def __init__(self, host: LinkHost) -> None:
        self._host = host
        self.errors: dict[str, str] = {}
        """The last reason following each peer failed, by address."""
        self.own_log_held: dict[str, int] = {}
        """How many entries of this peer's log the peer at each address said it holds."""
        self.inbox: list[tuple[str, bytes]] = []
        """(address, signed entry) of every entry come in and not taken yet."""
        self.inbox_ready = asyncio.Event()
        self._inbox_room = asyncio.Event()
        self._inbox_bytes = 0
        self._followed: dict[str, asyncio.Task[None]] = {}
        self._connected: set[str] = set()
        self._junk: dict[str, TokenBucket] = {}
        self._claims = Claims()

    def heard_of(self, address: str, claimed_by: bytes | None = None) -> None:
        """Follow the peer at ``address`` from now on (once). ``claimed_by``: the author a
        caller or a reply says serves there (None: a signed entry or the owner says so);
        such claims are followed within the bounds of :class:`~condottiere.peer.limits.Claims`."""
        table = self._host.table
        if table is None or not valid_address(address) or address == self._host.address:
            return
        if claimed_by is None:
            self._claims.forget(address)
        elif address not in self._followed:
            if table.lobby.closed and claimed_by not in table.seating:
                return
            admitted, dropped = self._claims.admit(address, claimed_by, self._connected)
            for old in dropped:
                self._followed.pop(old).cancel()
            if not admitted:
                return
        if address not in self._followed:
            self._followed[address] = asyncio.create_task(self._follow(address), name=address)

    @property
    def connected(self) -> frozenset[str]:
        """The addresses of the peers this one currently follows successfully."""
        return frozenset(self._connected)

    def follow_anew(self) -> None:
        """Follow every peer again from what this peer holds (a seating named an author whose
        entries the table turned away before it was seated)."""
        for address, task in list(self._followed.items()):
            task.cancel()  # each stream starts again from what this peer holds
            self._followed[address] = asyncio.create_task(self._follow(address), name=address)

    def take(self) -> list[tuple[str, bytes]]:
        """Every entry come in since the last call (the streams may read on)."""
        batch, self.inbox, self._inbox_bytes = self.inbox, [], 0
        self._inbox_room.set()
        return batch

    def turned_away(self, address: str) -> None:
        """An entry from ``address`` was turned away: that peer is read slower."""
        self._junk.setdefault(address, TokenBucket(JUNK_PER_SECOND, JUNK_BURST)).charge(1)

    async def stop(self) -> None:
        """Follow nobody any more."""
        tasks = list(self._followed.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _follow(self, address: str, only: tuple[bytes, int] | None = None) -> None:
        """Follow the peer at ``address``, again after each failure: a pause that doubles up
        to a second while the peer ever answered, up to :data:`NEVER_ANSWERED_SECONDS` while
        it never did (an address in a join may point anywhere)."""
        pause = RETRY_SECONDS[0]
        answered = False
        while True:
            try:
                async with grpc.aio.insecure_channel(address, options=CHANNEL_OPTIONS) as channel:
                    await self._subscribe(address, channel, only)
                    if only is not None:
                        return
            except grpc.aio.AioRpcError as error:
                self.errors[address] = describe_rpc_error(error)
            except Exception as error:
                self.errors[address] = f"{type(error).__name__}: {error}"
            finally:
                answered = answered or address in self._connected
                self._connected.discard(address)
            await asyncio.sleep(pause)
            pause = min(pause * 2, RETRY_SECONDS[1] if answered else NEVER_ANSWERED_SECONDS)

    async def _subscribe(
        self, address: str, channel: grpc.aio.Channel, only: tuple[bytes, int] | None
    ) -> None:
        host = self._host
        table_id = host.table_id
        assert table_id is not None
        hello = channel.unary_unary(
            f"/{SERVICE_NAME}/Hello",
            request_serializer=peer_pb2.HelloRequest.SerializeToString,
            response_deserializer=peer_pb2.HelloReply.FromString,
        )
        reply = await hello(
            peer_pb2.HelloRequest(
                protocol=PROTOCOL,
                table_id=table_id,
                author=host.identity.public.raw,
                address=host.address,
            ),
            timeout=HELLO_SECONDS,
        )
        for known in reply.peers:
            self.heard_of(known.address, claimed_by=known.author)
        me = host.identity.public.raw
        self.own_log_held[address] = next(
            (known.entries for known in reply.peers if known.author == me), 0
        )
        await host._catch_up()
        cursors = host.held()
        if only is not None:
            cursors[only[0]] = only[1]
        subscribe = channel.unary_stream(
            f"/{SERVICE_NAME}/Subscribe",
            request_serializer=peer_pb2.SubscribeRequest.SerializeToString,
            response_deserializer=bytes,
        )
        stream = subscribe(
            peer_pb2.SubscribeRequest(
                table_id=table_id,
                start=[peer_pb2.Cursor(author=a, next=n) for a, n in cursors.items()],
                subscriber=host.identity.public.raw,
                proof=subscription_proof(host.identity, table_id, reply.challenge),
            )
        )
        self._connected.add(address)
        async for signed in stream:
            host.trace.write("recv")
            self.inbox.append((address, signed))
            self.inbox_ready.set()
            if only is not None:
                stream.cancel()
                return
            self._inbox_bytes += len(signed)
            while len(self.inbox) >= INBOX or self._inbox_bytes >= INBOX_BYTES:
                self._inbox_room.clear()  # read no faster than entries are taken in
                await self._inbox_room.wait()
            junk = self._junk.get(address)
            if junk is not None and junk.wait():  # a peer that sends junk is read slower
                await asyncio.sleep(junk.wait())

    def fetch_other_version(self, suspicion: Suspicion) -> None:
        """Ask the witness of a disagreeing head for its version of the entry (to prove an
        equivocation)."""
        table = self._host.table
        if table is None:
            return
        address = table.lobby.addresses.get(suspicion.witness, "")
        if address and address != self._host.address:
            task = asyncio.create_task(
                asyncio.wait_for(self._follow(address, (suspicion.author, suspicion.seq)), 10)
            )
            task.add_done_callback(lambda done: done.cancelled() or done.exception())


def describe_rpc_error(error: grpc.aio.AioRpcError) -> str:
    """What went wrong with a call, in a player's words."""
    if error.code() == grpc.StatusCode.UNAVAILABLE and error.details() != NO_TABLE_YET:
        return "nobody answers there"
    if error.code() == grpc.StatusCode.DEADLINE_EXCEEDED:
        return "no answer in time"
    if error.code() == grpc.StatusCode.UNIMPLEMENTED:
        return (
            "something answers there, but not a table's peer: a peer's controller port, or"
            " another program? Join the address a peer prints as 'listening on'"
        )
    return error.details() or error.code().name
