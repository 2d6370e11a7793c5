"""The links to the other peers: every peer this one knows of is followed by a ``Subscribe``
stream that sends every entry it holds beyond what this peer has, then each new one, into one
inbox the node takes entries from.

Once the table is seated, each seat's log comes from that seat's own peer, while this peer
follows it there: the stream from every other peer is asked for it past its end (a cursor
of :data:`SKIPPED`), so that an entry comes in once, not once per peer. Copies still come
through the others when they can tell something the author's own stream did not: every
stream skipping a seat's log starts again without skipping it once following that seat's peer
fails; an entry whose heads name one of a log this peer lacks is fetched from the entry's
author; and while the table waits for a step for longer than :data:`PROBE_SECONDS`, every peer
followed is asked (``Hello``) how much of each log it holds, and what it holds beyond this
peer is fetched from it (a seat that sends its entries to some peers and not to others is
caught up with in about a second).

A peer that goes away is retried with a short backoff; on its return the stream resumes from
where this peer stopped. Addresses that callers or replies claim for an author are followed
within the bounds of :class:`~condottiere.peer.limits.Claims`; the inbox is read no faster
than the node takes entries in, and a peer that sends junk is read slower.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Protocol

import grpc
from google.protobuf.message import Message

from condottiere.crypto import Identity
from condottiere.peer.controller import Snapshot
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
    "PROBE_SECONDS",
    "RETRY_SECONDS",
    "SKIPPED",
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
SKIPPED = 2**64 - 1
"""A cursor past the end of any log: that author's entries are not sent on the stream."""
PROBE_SECONDS = 1.0
"""How long the table waits for a step before the peers followed are asked what they hold
(and how often, while it keeps waiting)."""
FETCH_SECONDS = 10.0
"""The longest a fetch of entries from one peer may take."""


class LinkHost(Protocol):
    """What the links see of their node."""

    identity: Identity
    address: str
    trace: Trace
    table: Table | None
    snapshot: Snapshot | None

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
        self._direct: set[str] = set()
        """The addresses whose stream came up and has not failed since."""
        self._skipping: dict[str, frozenset[bytes]] = {}
        """The authors each stream was asked for past their end."""
        self._fetching: set[tuple[bytes, str]] = set()
        """(author, address) of every fetch under way."""
        self._fetches: set[asyncio.Task[None]] = set()
        self._channels: dict[str, grpc.aio.Channel] = {}
        """The channel of each stream that is up (a probe asks there)."""
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
                self._skipping.pop(old, None)
                self._not_direct(old)
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
        for address in list(self._followed):
            self._restart(address)

    def refresh(self) -> None:
        """Start again each stream that skips other authors than it would now (the table was
        seated, or following a seat's own peer came up or failed)."""
        for address, skipped in list(self._skipping.items()):
            if address in self._followed and skipped != self._skipped_at(address):
                self._restart(address)

    def _not_direct(self, address: str) -> None:
        """Following ``address`` failed or stopped: the others send its authors again."""
        if address in self._direct:
            self._direct.discard(address)
            self.refresh()

    def _restart(self, address: str) -> None:
        self._followed[address].cancel()  # the stream starts again from what this peer holds
        self._skipping.pop(address, None)
        self._followed[address] = asyncio.create_task(self._follow(address), name=address)

    def _skipped_at(self, address: str) -> frozenset[bytes]:
        """The seated authors whose log the stream from ``address`` need not send: each is
        followed at its own peer, whose stream came up and has not failed since."""
        table = self._host.table
        if table is None or not table.lobby.closed:
            return frozenset()
        return frozenset(
            author
            for author in table.seating
            if (at := table.lobby.addresses.get(author)) and at != address and at in self._direct
        )

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
        tasks = [*self._followed.values(), *self._fetches]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _follow(self, address: str) -> None:
        """Follow the peer at ``address``, again after each failure: a pause that doubles up
        to a second while the peer ever answered, up to :data:`NEVER_ANSWERED_SECONDS` while
        it never did (an address in a join may point anywhere)."""
        pause = RETRY_SECONDS[0]
        answered = False
        while True:
            try:
                async with grpc.aio.insecure_channel(address, options=CHANNEL_OPTIONS) as channel:
                    await self._subscribe(address, channel)
            except grpc.aio.AioRpcError as error:
                self.errors[address] = describe_rpc_error(error)
            except Exception as error:
                self.errors[address] = f"{type(error).__name__}: {error}"
            finally:
                answered = answered or address in self._connected
                self._connected.discard(address)
                self._channels.pop(address, None)
            self._not_direct(address)
            await asyncio.sleep(pause)
            pause = min(pause * 2, RETRY_SECONDS[1] if answered else NEVER_ANSWERED_SECONDS)

    async def _hello(self, channel: grpc.aio.Channel) -> peer_pb2.HelloReply:
        host = self._host
        table_id = host.table_id
        assert table_id is not None
        hello = channel.unary_unary(
            f"/{SERVICE_NAME}/Hello",
            request_serializer=peer_pb2.HelloRequest.SerializeToString,
            response_deserializer=peer_pb2.HelloReply.FromString,
        )
        reply: peer_pb2.HelloReply = await hello(
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
        return reply

    def _stream(
        self, channel: grpc.aio.Channel, reply: peer_pb2.HelloReply, cursors: Mapping[bytes, int]
    ) -> grpc.aio.UnaryStreamCall[Message, bytes]:
        host = self._host
        table_id = host.table_id
        assert table_id is not None
        subscribe = channel.unary_stream(
            f"/{SERVICE_NAME}/Subscribe",
            request_serializer=peer_pb2.SubscribeRequest.SerializeToString,
            response_deserializer=bytes,
        )
        return subscribe(
            peer_pb2.SubscribeRequest(
                table_id=table_id,
                start=[peer_pb2.Cursor(author=a, next=n) for a, n in cursors.items()],
                subscriber=host.identity.public.raw,
                proof=subscription_proof(host.identity, table_id, reply.challenge),
            )
        )

    async def _subscribe(self, address: str, channel: grpc.aio.Channel) -> None:
        host = self._host
        reply = await self._hello(channel)
        me = host.identity.public.raw
        self.own_log_held[address] = next(
            (known.entries for known in reply.peers if known.author == me), 0
        )
        await host._catch_up()
        cursors = host.held()
        skipped = self._skipped_at(address)
        self._skipping[address] = skipped
        cursors.update(dict.fromkeys(skipped, SKIPPED))
        stream = self._stream(channel, reply, cursors)
        self._connected.add(address)
        self._channels[address] = channel
        if address not in self._direct:
            self._direct.add(address)
            self.refresh()  # the others need not send this peer's authors any more
        async for signed in stream:
            host.trace.write("recv")
            self._take_in(address, signed)
            while len(self.inbox) >= INBOX or self._inbox_bytes >= INBOX_BYTES:
                self._inbox_room.clear()  # read no faster than entries are taken in
                await self._inbox_room.wait()
            junk = self._junk.get(address)
            if junk is not None and junk.wait():  # a peer that sends junk is read slower
                await asyncio.sleep(junk.wait())

    def _take_in(self, address: str, signed: bytes) -> None:
        self.inbox.append((address, signed))
        self._inbox_bytes += len(signed)
        self.inbox_ready.set()

    async def watch(self) -> None:
        """While the table waits for a step longer than :data:`PROBE_SECONDS`, ask every peer
        followed what it holds, once every :data:`PROBE_SECONDS` (see the module)."""
        while True:
            await asyncio.sleep(PROBE_SECONDS)
            snapshot = self._host.snapshot
            waiting = None if snapshot is None else snapshot.waiting
            if (
                waiting is not None
                and time.monotonic() - waiting.since > PROBE_SECONDS
                and any(self._skipping.values())
            ):
                for address in list(self._direct):
                    self._spawn(functools.partial(self._probe, address))

    def _spawn(self, work: Callable[[], Awaitable[None]]) -> asyncio.Task[None]:
        """Run ``work`` until it succeeds, again after each failure, for at most
        :data:`FETCH_SECONDS`."""

        async def attempts() -> None:
            pause = RETRY_SECONDS[0]
            while True:
                try:
                    return await work()
                except grpc.aio.AioRpcError:
                    await asyncio.sleep(pause)
                    pause = min(pause * 2, RETRY_SECONDS[1])

        task = asyncio.create_task(asyncio.wait_for(attempts(), FETCH_SECONDS))
        task.add_done_callback(lambda done: done.cancelled() or done.exception())
        self._fetches.add(task)
        task.add_done_callback(self._fetches.discard)
        return task

    async def _probe(self, address: str) -> None:
        """Fetch from the peer at ``address`` every log it holds more of than this peer."""
        channel = self._channels.get(address)
        if channel is None:
            return
        reply = await self._hello(channel)
        held = self._host.held()
        for known in reply.peers:
            if known.entries > held.get(known.author, 0) and known.address != address:
                # an author's own peer already streams this peer all it will send
                self.fetch(address, known.author, known.entries)

    def fetch(self, address: str, author: bytes, upto: int) -> None:
        """Fetch ``author``'s entries up to ``upto`` (exclusive) from the peer at ``address``
        (once at a time for each author and peer: a peer that does not send keeps no other
        from being asked)."""
        fetching = (author, address)
        if fetching in self._fetching or address == self._host.address:
            return
        self._fetching.add(fetching)
        task = self._spawn(
            lambda: self._read_only(address, author, self._host.held().get(author, 0), upto)
        )
        task.add_done_callback(lambda _: self._fetching.discard(fetching))

    async def _read_only(self, address: str, author: bytes, start: int, stop: int) -> None:
        """Read the entries ``start`` to ``stop`` (exclusive) of ``author``'s log from the
        peer at ``address``, and nothing else."""
        if stop <= start:
            return
        async with grpc.aio.insecure_channel(address, options=CHANNEL_OPTIONS) as channel:
            reply = await self._hello(channel)
            others = {*self._host.held(), *(known.author for known in reply.peers)}
            cursors = dict.fromkeys(others, SKIPPED)
            cursors[author] = start
            stream = self._stream(channel, reply, cursors)
            count = 0
            async for signed in stream:
                self._take_in(address, signed)
                count += 1
                if count >= stop - start:
                    stream.cancel()
                    return

    def fetch_other_version(self, suspicion: Suspicion) -> None:
        """Ask the witness of a disagreeing head for its version of the entry (to prove an
        equivocation)."""
        address = self._witness_address(suspicion.witness)
        if address:
            author, seq = suspicion.author, suspicion.seq
            self._spawn(lambda: self._read_only(address, author, seq, seq + 1))

    def _witness_address(self, witness: bytes) -> str:
        table = self._host.table
        if table is None:
            return ""
        address = table.lobby.addresses.get(witness, "")
        return "" if address == self._host.address else address


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
