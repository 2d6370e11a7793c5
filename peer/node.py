"""A peer process's runtime: the table, its store, the gRPC server and the links to other peers,
in one asyncio event loop.

The :class:`~condottiere.peer.driver.Table` is a plain object with no I/O of its own; the node runs
it on one worker thread (so the event loop stays free while a shuffle proof is checked) and is the
only caller: entries received from other peers are batched and handed over, and after each
call the node takes what the table appended and serves it to its subscribers, learns new
peers' addresses, and publishes a new :class:`~condottiere.peer.controller.Snapshot`.

Every peer follows every other peer it knows of (:mod:`condottiere.peer.links`): a
``Subscribe`` stream sends it every entry that peer holds beyond what it has (once the table
is seated, each seat's log from that seat's own peer), then each new one, into the inbox the
node hands to the table.

The owner's programs drive the seat through the controller service, which the node serves
beside the ``Peer`` service (:mod:`condottiere.peer.controller_service`).

A table taken up from the store may be behind what this peer signed (a backup put back has
lost the entries signed since it was made; the other peers hold them). So it signs nothing
(:attr:`~condottiere.peer.driver.Table.catching_up`) until the peer of every other seat has
said, in its ``Hello`` reply, how many entries of this peer's log it holds, and this peer holds
as many: the others send a subscriber's own entries from the position it asks for, and the
owner sees no snapshot and runs nothing on the table until then. An entry this peer makes that
another entry of its key holds the place of is never published (:class:`SigningConflict`):
the node takes nothing more in, and :meth:`Node.unless_failed` raises it to the owner.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import os
import time
import traceback
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1._async import HealthServicer
from grpc_reflection.v1alpha import reflection

from condottiere.crypto import Identity
from condottiere.peer.admissions import ADMISSION, admission_of, apply_admission
from condottiere.peer.controller import Controller, Snapshot, fingerprint, snapshot_of
from condottiere.peer.controller_service import ControllerServer
from condottiere.peer.driver import MemoryKeeper, Table, TableEvent
from condottiere.peer.entries import Rejection, SigningConflict
from condottiere.peer.limits import (
    IDLE_CONNECTION_MS,
    MAX_REQUEST_BYTES,
    STREAMS_PER_CONNECTION,
    WireLog,
    host_of,
    raise_open_file_limit,
)
from condottiere.peer.links import (
    CHANNEL_OPTIONS,
    HELLO_SECONDS,
    MAX_MESSAGE_BYTES,
    RETRY_SECONDS,
    Links,
    describe_rpc_error,
)
from condottiere.peer.lobby import PROTOCOL, TableSpec
from condottiere.peer.logs import Suspicion
from condottiere.peer.pacing import PERSON, Pacer
from condottiere.peer.readers import refusal
from condottiere.peer.served import Served
from condottiere.peer.service import (
    NO_TABLE_YET,
    SERVICE_NAME,
    Guard,
    PeerService,
)
from condottiere.peer.store import Store
from condottiere.peer.timers import play_forced, step_began, watch_time
from condottiere.peer.trace import Trace
from condottiere.v1 import peer_pb2

__all__ = ["SERVER_OPTIONS", "JoinError", "Node"]

T = TypeVar("T")

SERVER_OPTIONS = [
    ("grpc.so_reuseport", 0),
    ("grpc.max_receive_message_length", MAX_REQUEST_BYTES),
    ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
    ("grpc.max_concurrent_streams", STREAMS_PER_CONNECTION),
    ("grpc.max_connection_idle_ms", IDLE_CONNECTION_MS),
]
SPARE_SECONDS = 0.05
"""The longest one call on the table's thread does spare-time work (it stops sooner, as soon
as an entry comes in or another call waits for the thread): each call costs a hop between
threads and a look at what changed, about as much as two cards' shares verified."""

JOIN_PATIENCE = 10.0
"""Seconds a joiner keeps asking a peer that does not answer yet."""


@dataclass
class _Changes:
    """What a call on the table's thread changed, for the event loop to publish."""

    appended: list[tuple[bytes, bytes]]
    """(author, signed entry) of every entry appended to the logs."""
    suspicions: list[Suspicion]
    snapshot: Snapshot | None
    events: list[TableEvent]
    addresses: list[str]
    forced: tuple[int, float] | None = None
    """This seat's forced move awaited: its turn, and since when (monotonic seconds)."""
    ask_again: bool = False
    """A seating named an author whose entries the table turned away before it was seated:
    follow every peer anew, from what the table holds."""
    seated: bool = False
    """The table was seated (or its addresses changed since): each seat's log now comes
    from its own peer (see :mod:`condottiere.peer.links`)."""


class JoinError(RuntimeError):
    """A table that cannot be joined, with the reason in a player's words."""


class Node:
    """One peer: its store, its table (once it hosts or joins one) and its network."""

    def __init__(
        self,
        store: Store,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        coin_timeout: float = 60.0,
        auto_ready: bool = True,
        open_seating: bool = True,
        trace: Path | None = None,
        pace: tuple[float, float] = PERSON,
    ) -> None:
        self.store = store
        self.identity: Identity = store.identity()
        self.host = host
        self.port = port
        self.coin_timeout = coin_timeout
        self.auto_ready = auto_ready
        self.plays_as_bot = False
        """A program plays this peer's seat: its join says so (its moves get the table's bot
        deadline)."""
        self.pacer = Pacer(pace)
        """When this seat's forced moves are published (:mod:`condottiere.peer.pacing`); ``pace``
        is its prior: a person's or a bot's."""
        self._forced_turns: set[int] = set()
        """The turns of this seat's forced moves, each paced once."""
        self.open_seating = open_seating
        """A table this peer creates seats the first joiners (else only those its owner
        admits: :meth:`admit`, :meth:`refuse`)."""
        self.address = ""
        self.table: Table | None = None
        self.snapshot: Snapshot | None = None
        self.events: list[TableEvent] = []
        self.listeners: set[asyncio.Queue[Snapshot]] = set()
        self.wire = WireLog()
        """What came from followed peers and was turned away (nobody at the table is
        blamed: an entry that is not even read, or an author with no seat)."""
        self.controller = Controller(self)
        self.controller_server = ControllerServer(self.controller, store)
        """The controller service, for the owner's programs
        (:mod:`condottiere.peer.controller_service`)."""
        self.trace = Trace(trace)
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="table")
        self._calls_made = 0
        """Calls handed to the table's thread (counted on the event loop's thread)."""
        self._calls_begun = 0
        """Calls the table's thread began (counted on that thread)."""
        self._server: grpc.aio.Server | None = None
        self.served = Served()
        """What this peer serves its subscribers (:mod:`condottiere.peer.served`)."""
        self.links = Links(self)
        """The peers this one follows (:mod:`condottiere.peer.links`)."""
        self._tasks: list[asyncio.Task[None]] = []
        self._since = (0, time.monotonic())
        self._events_taken = 0
        self._addresses: list[str] = []
        """The table's addresses as the last call on its thread saw them (followed since)."""
        self._seated = False
        """Whether the last call on the table's thread saw the table seated."""
        self._dealt_traced = False
        self._caught_up = asyncio.Event()
        self._caught_up.set()
        self.failure: SigningConflict | None = None
        """Why this node stopped taking entries in: it refused to sign an entry."""
        self._failed = asyncio.Event()
        self.challenge = os.urandom(16)
        """Signed by subscribers that prove their key (see :mod:`condottiere.peer.service`)."""
        self.service = PeerService(self)
        """The ``Peer`` service, with the stream slots and call rates of the whole port."""

    # ------------------------------------------------------------------ life

    async def start(self, *, resume: bool = True) -> None:
        """Serve, and (with ``resume``) take up the table this data directory was playing,
        unless it was closed (see :meth:`close_table`)."""
        raise_open_file_limit()
        server = grpc.aio.server(options=SERVER_OPTIONS, interceptors=[Guard(self.service)])
        self.service.add_to(server)
        health = HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(health, server)
        reflection.enable_server_reflection(
            (SERVICE_NAME, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
             reflection.SERVICE_NAME),
            server,
        )
        port = self._bind(server)
        await server.start()
        await health.set("", health_pb2.HealthCheckResponse.SERVING)
        await health.set(SERVICE_NAME, health_pb2.HealthCheckResponse.SERVING)
        self.trace.write("start")
        self._server = server
        self.port = port
        self.address = f"{self.host}:{port}"
        self.store.set_setting("port", str(port).encode())
        await self.controller_server.start()
        self._tasks = [
            asyncio.create_task(self._consume(), name="consume"),
            asyncio.create_task(watch_time(self), name="watch"),
            asyncio.create_task(self.links.watch(), name="probe"),
        ]
        current = self.store.setting("table")
        if resume and current is not None and current != self.store.setting("closed"):
            entries = await self._in_thread(lambda: self.store.entries(current))
            if entries:
                keeper = self.store.keeper(current)
                self._caught_up.clear()
                admission = self.store.setting(ADMISSION)

                def restore() -> Table:
                    table = Table.restore(self.identity, keeper, entries, catching_up=True)
                    if admission is not None and not table.lobby.closed:
                        apply_admission(table, admission)
                    return table

                await self._adopt(restore)
                await self._catch_up()

    def _bind(self, server: grpc.aio.Server) -> int:
        """Listen on the port asked for; with none asked, on the port this data directory
        used before (so the other peers find it again after a restart), else any."""
        wanted = [self.port]
        previous = self.store.setting("port")
        if self.port == 0 and previous is not None:
            wanted = [int(previous), 0]
        for port in wanted:
            try:
                bound = server.add_insecure_port(f"{self.host}:{port}")
            except RuntimeError:
                bound = 0
            if bound:
                return bound
        raise OSError(f"cannot listen on {self.host}:{self.port} (is the port taken?)")

    def close_table(self) -> None:
        """Mark the table done with: a later start of this data directory begins afresh."""
        if self.table is not None:
            self.store.set_setting("closed", self.table.table_id)

    async def stop(self) -> None:
        """Stop serving and following; the store keeps everything for a restart."""
        for task in self._tasks:
            task.cancel()
        await self.links.stop()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.controller_server.stop()
        if self._server is not None:
            await self._server.stop(grace=0.2)
        self._executor.shutdown(wait=True)
        self.trace.write("stop", cpu=time.process_time())
        self.trace.close()

    async def host_table(self, spec: TableSpec) -> None:
        """Create a table (this peer takes seat 0)."""
        spec = dataclasses.replace(spec, address=self.address).check()

        def create() -> Table:
            table = Table.create(self.identity, spec, MemoryKeeper(), auto_ready=self.auto_ready)
            table.lobby.open = self.open_seating
            self.store.set_setting(ADMISSION, admission_of(table))
            return self._keep_in_store(table)

        await self._adopt(create)

    async def admit(self, who: str | bytes) -> str | None:
        """Admit the joiner ``who`` (its key, or its name or key fingerprint as the lobby
        shows them) to a seat at the table this peer created; None when done, else why not.
        An owner's own bots may be admitted by key before they ask."""
        return await self._admission(who, admit=True)

    async def refuse(self, who: str | bytes) -> str | None:
        """Refuse ``who`` a seat (see :meth:`admit`): it is never seated, its join is
        forgotten and its entries turned away."""
        return await self._admission(who, admit=False)

    def pending_joiners(self) -> list[tuple[str, str]]:
        """The joiners waiting to be admitted or refused: (name, key fingerprint)."""
        table = self.table
        if table is None:
            return []
        lobby = table.lobby
        return [(lobby.names.get(a, "?"), fingerprint(a)) for a in lobby.pending]

    async def _admission(self, who: str | bytes, *, admit: bool) -> str | None:
        def decide(table: Table) -> str | None:
            if table.lobby.creator != self.identity.public.raw:
                return "only the table's creator seats players"
            if table.lobby.closed:
                return "the game has started"
            if isinstance(who, bytes):
                author: bytes | None = who
            else:
                wanted = who.strip().casefold()
                named = [a for a in table.lobby.joins
                         if wanted in (table.lobby.names.get(a, "").casefold(), fingerprint(a))]
                if len(named) > 1:
                    return f"{len(named)} joiners are called {who!r}: name one by its fingerprint"
                author = named[0] if named else None
            if author is None:
                return f"nobody called {who!r} asks for a seat"
            if author in table.seating:
                return f"{table.who(author)} has a seat already"
            if admit:
                table.admit(author)
            else:
                table.refuse(author)
            self.store.set_setting(ADMISSION, admission_of(table))
            return None

        reason = await self.call(decide)
        if reason is None and not admit:
            self.served.notify()  # the refused joiner's streams end (entries_from)
        return reason

    async def join_table(
        self,
        address: str,
        player: str,
        *,
        patience: float = JOIN_PATIENCE,
        table_id: bytes | None = None,
    ) -> None:
        """Ask the peer at ``address`` for its table and a seat at it; :class:`JoinError`.

        A peer that does not answer yet, or has no table yet, is asked again for up to
        ``patience`` seconds (a host just started may still be setting its table up). With
        ``table_id`` (a table found on the LAN), only that table is joined. A table this
        peer has already written at (a table served again) is not joined: a second first
        entry under one table id would be a proof that this peer forked its log."""
        reply = await self._hello(address, patience, table_id, "join")
        definition = reply.definition.SerializeToString()

        def create() -> Table:
            table = Table.from_definition(
                self.identity, definition, MemoryKeeper(), auto_ready=self.auto_ready
            )
            if table_id is not None and table.table_id != table_id:
                raise ValueError("it serves another table than the one asked for")
            if self.store.holds_log(table.table_id, self.identity.public.raw):
                raise ValueError(
                    f"this data directory asked for a seat at table {table.table_id.hex()[:8]}"
                    " before, and a peer signs no second first entry at a table: take that"
                    " game up again without --new"
                )
            self._keep_in_store(table)
            table.join(player, self.address, bot=self.plays_as_bot)
            return table

        try:
            await self._adopt(create)
        except ValueError as exc:
            raise JoinError(f"cannot join {address}: {exc}") from None
        except SigningConflict as conflict:
            raise JoinError(
                f"cannot join {address}: this data directory asked for a seat at this table "
                f"before ({conflict}); take that game up again without --new"
            ) from None
        for known in reply.peers:
            self.heard_of(known.address, claimed_by=known.author)
        self.heard_of(address)

    async def watch_table(
        self, address: str, *, patience: float = JOIN_PATIENCE, table_id: bytes | None = None
    ) -> None:
        """Follow the table of the peer at ``address`` without a seat (a spectator: it sees
        what every seat sees of the others, never a hand); :class:`JoinError` when the table
        admits no spectators, or as :meth:`join_table` says."""
        reply = await self._hello(address, patience, table_id, "watch")
        definition = reply.definition.SerializeToString()

        def create() -> Table:
            table = Table.from_definition(self.identity, definition, MemoryKeeper(),
                                          auto_ready=False)
            if table_id is not None and table.table_id != table_id:
                raise ValueError("it serves another table than the one asked for")
            if not table.spec.spectators:
                raise ValueError(
                    f"the table {table.spec.name!r} admits no spectators (its host allows them"
                    " with --spectators)"
                )
            return self._keep_in_store(table)

        try:
            await self._adopt(create)
        except ValueError as exc:
            raise JoinError(f"cannot watch {address}: {exc}") from None
        for known in reply.peers:
            self.heard_of(known.address, claimed_by=known.author)
        self.heard_of(address)

    async def _hello(
        self, address: str, patience: float, table_id: bytes | None, doing: str
    ) -> peer_pb2.HelloReply:
        """The ``Hello`` of the peer at ``address``, asked again for up to ``patience``
        seconds while it does not answer or has no table yet; :class:`JoinError` saying why
        this peer cannot ``doing`` (``join``) there."""
        request = peer_pb2.HelloRequest(
            protocol=PROTOCOL,
            table_id=table_id or b"",
            author=self.identity.public.raw,
            address=self.address,
        )
        deadline = time.monotonic() + patience
        pause = RETRY_SECONDS[0]
        async with grpc.aio.insecure_channel(address, options=CHANNEL_OPTIONS) as channel:
            hello = channel.unary_unary(
                f"/{SERVICE_NAME}/Hello",
                request_serializer=peer_pb2.HelloRequest.SerializeToString,
                response_deserializer=peer_pb2.HelloReply.FromString,
            )
            while True:
                try:
                    reply: peer_pb2.HelloReply = await hello(request, timeout=HELLO_SECONDS)
                    return reply
                except grpc.aio.AioRpcError as exc:
                    retry = exc.code() == grpc.StatusCode.UNAVAILABLE
                    if not retry or time.monotonic() + pause > deadline:
                        reason = describe_rpc_error(exc)
                        raise JoinError(f"cannot {doing} {address}: {reason}") from None
                await asyncio.sleep(pause)
                pause = min(pause * 2, RETRY_SECONDS[1])

    def _keep_in_store(self, table: Table) -> Table:
        """Point a new table's keeper at the store, keeping what it already kept."""
        pending = table.keeper
        assert isinstance(pending, MemoryKeeper)
        keeper = self.store.keeper(table.table_id)
        for entry in pending.entries:
            if entry.author == self.identity.public.raw:
                keeper.keep_own(entry)
            else:
                keeper.keep(entry)
        for name, value in pending.secrets.items():
            keeper.keep_secret(name, value)
        table.keeper = keeper
        self.store.set_setting("table", table.table_id)
        return table

    async def _adopt(self, make: Callable[[], Table]) -> None:
        def adopt() -> None:
            table = make()
            if self.trace.on:
                table.on_move = lambda turn: self.trace.write("applied", turn=turn)
                table.on_step = lambda step: self.trace.write(
                    "step", kind=step.kind, number=step.number
                )
                table.on_work = lambda work, deck, seat, cpu: self.trace.write(
                    "work", kind=str(work), deck=deck, seat=seat, me=table.seat, cpu=cpu
                )
                if table.step is not None:
                    table.on_step(table.step)
            table.defer_costly = True
            table.hold_forced = True
            self.table = table
            self._addresses = []
            self._seated = False

        await self._call(adopt)

    # ------------------------------------------------------------------ the table's thread

    async def call(self, action: Callable[[Table], T]) -> T:
        """Run ``action(table)`` on the table's thread, then publish what changed; the
        owner's actions wait until a table taken up has caught up with its own log."""
        await self._caught_up.wait()
        return await self._on_table(action)

    async def unless_failed(self, work: Awaitable[T]) -> T:
        """``work``'s result; but if this node refuses to sign an entry first, ``work`` is
        cancelled and the :class:`SigningConflict` raised."""
        working = asyncio.ensure_future(work)
        failing = asyncio.create_task(self._failed.wait())
        try:
            await asyncio.wait({working, failing}, return_when=asyncio.FIRST_COMPLETED)
            if working.done():
                return working.result()
            assert self.failure is not None
            raise self.failure
        finally:
            failing.cancel()
            working.cancel()  # nothing to cancel once it is done

    async def _on_table(self, action: Callable[[Table], T]) -> T:
        def run() -> T:
            if self.table is None:
                raise RuntimeError("this peer has no table yet")
            return action(self.table)

        return await self._call(run)

    async def _in_thread(self, action: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._executor, action)

    async def _call(self, action: Callable[[], T]) -> T:
        def run() -> tuple[T, _Changes]:
            self._calls_begun += 1
            result = action()
            return result, self._collect()

        self._calls_made += 1
        try:
            result, changes = await self._in_thread(run)
        except SigningConflict as conflict:
            self.failure = conflict
            self._failed.set()
            raise
        self._publish(changes)
        if changes.forced is not None and changes.forced[0] not in self._forced_turns:
            self._forced_turns.add(changes.forced[0])
            self._tasks.append(asyncio.create_task(play_forced(self, *changes.forced)))
        table = self.table
        if table is not None and table.deferred:
            await self._call(table.resume)
        return result

    def _collect(self) -> _Changes:
        """On the table's thread: what changed since the last call."""
        table = self.table
        if table is None:
            return _Changes([], [], None, [], [])
        appended, suspicions = table.drain()
        number = 0 if table.step is None else table.step.number
        for entry in appended:
            if (
                entry.author == table.me
                and entry.kind == "move"
                and entry.step == self._since[0]
                and entry.body.turn not in self._forced_turns
            ):  # a move this seat chose: how long it took is how long forced ones take
                self.pacer.record(time.monotonic() - self._since[1])
        if number != self._since[0]:
            self._since = (number, step_began(self.store, table.table_id, number))
        snapshot = None if table.catching_up else snapshot_of(table, self._since[1])
        if self.trace.on:
            self._trace_progress(table)
        events = table.events[self._events_taken :]
        self._events_taken = len(table.events)
        if table.lobby.closed and len(self.served.held()) > len(table.seating):
            named = {*table.seating, *table.lobby.freed, self.identity.public.raw}
            self.served.keep_only(named)  # an author with no seat: nothing of it is served
        addresses = list(table.lobby.addresses.values())
        seated = table.lobby.closed and not self._seated
        self._seated = table.lobby.closed
        if addresses == self._addresses:  # each is followed once: only a change is news
            addresses = []
        else:
            self._addresses = addresses
            seated = seated or table.lobby.closed
        appended_pairs = [(entry.author, entry.signed) for entry in appended]
        turn = table.forced_move()
        forced = None if turn is None else (turn, self._since[1])
        ask_again, table.ask_again = table.ask_again, False
        return _Changes(
            appended_pairs, suspicions, snapshot, events, addresses, forced, ask_again, seated
        )

    def _trace_progress(self, table: Table) -> None:
        game = table.game
        if game is None:
            return
        if not self._dealt_traced and table.step is not None and table.step.kind == "move":
            self.trace.write("dealt")
            self._dealt_traced = True
        if table.audited:
            self.trace.write("audited")

    def _publish(self, changes: _Changes) -> None:
        # Nothing here awaits: calls publish in the order the table's thread ran them (a
        # later call's snapshot never overtakes an earlier one's).
        for author, signed in changes.appended:
            self.served.append(author, signed)
        for suspicion in changes.suspicions:
            self.links.fetch_other_version(suspicion)
        if changes.ask_again:
            self.links.follow_anew()
        elif changes.seated:
            self.links.refresh()  # each seat's log comes from its own peer from now on
        for address in changes.addresses:
            self.heard_of(address)
        self.events.extend(changes.events)
        snapshot = changes.snapshot
        if snapshot is not None and (changes.events or snapshot != self.snapshot):
            # a call that changed nothing the owner sees (a copy of an entry held, a share
            # verified in spare time) wakes no listener: most calls are such
            self.snapshot = snapshot
            for queue in self.listeners:
                queue.put_nowait(snapshot)
        if changes.appended:
            self.trace.write("pub")
            self.served.notify(author for author, _ in changes.appended)

    # ------------------------------------------------------------------ serving

    @property
    def table_id(self) -> bytes | None:
        return None if self.table is None else self.table.table_id

    def hello_reply(self) -> peer_pb2.HelloReply:
        table = self.table
        assert table is not None
        definition = peer_pb2.HelloReply().definition
        definition.ParseFromString(table.lobby.definition.signed)
        peers = [
            peer_pb2.PeerInfo(
                author=author, address=address, entries=self.served.count(author)
            )
            for author, address in table.lobby.addresses.items()
            if address
        ]
        return peer_pb2.HelloReply(
            protocol=PROTOCOL,
            table_id=table.table_id,
            definition=definition,
            peers=peers,
            challenge=self.challenge,
        )

    def is_member(self, author: bytes) -> bool:
        table = self.table
        if table is None:
            return False
        if table.lobby.closed:
            return author in table.seating
        return (
            author == table.lobby.creator or author in table.lobby.joins
            or author in table.seating
        )

    def read_refusal(self, subscriber: bytes, proven: bool) -> str | None:
        table = self.table
        if table is None:
            return NO_TABLE_YET
        return refusal(
            subscriber, proven=proven, readers=table.seating if table.lobby.closed else None,
            open_to_all=table.spec.spectators, refused=table.lobby.refused,
        )

    def entries_from(self, cursors: dict[bytes, int], skip: bytes) -> AsyncIterator[bytes]:
        """Every entry held beyond ``cursors`` (author -> next sequence number), then each new
        one, until ``skip`` (the subscriber) may read the table no more: a key without a seat
        once the table is seated, at a table that admits no spectators (the stream was let in
        while the table filled); see ``Served.entries_from``."""
        return self.served.entries_from(
            cursors, skip, lambda: self.read_refusal(skip, proven=True) is None
        )

    # ------------------------------------------------------------------ following peers

    def heard_of(self, address: str, claimed_by: bytes | None = None) -> None:
        """Follow the peer at ``address`` from now on (see ``Links.heard_of``)."""
        self.links.heard_of(address, claimed_by)

    @property
    def connected(self) -> frozenset[str]:
        """The addresses of the peers this one currently follows successfully."""
        return self.links.connected

    @property
    def link_errors(self) -> dict[str, str]:
        """The last reason following each peer failed, by address."""
        return self.links.errors

    def held(self) -> dict[bytes, int]:
        """How many entries this peer holds of each author."""
        return self.served.held()

    async def _consume(self) -> None:
        spare_work = False
        while True:
            if spare_work and not self.links.inbox:
                spare_work = await self._on_table(self._spare_time)
                continue
            await self.links.inbox_ready.wait()
            self.links.inbox_ready.clear()
            batch = self._news(self.links.take())
            if batch and self.table is not None:
                self.trace.write("consume", n=len(batch))
                try:
                    outcomes, spare_work = await self._on_table(
                        functools.partial(self._receive_all, batch=batch)
                    )
                    await self._catch_up()
                except SigningConflict:
                    return  # nothing more is taken in: see unless_failed
                except Exception:  # a fault of this peer's own: say it, keep serving
                    traceback.print_exc()
                    continue
                for (address, _), (rejection, copy) in zip(batch, outcomes, strict=True):
                    self.wire.note(address, rejection, copy)
                    if rejection is not None:
                        self.links.turned_away(address)

    def _spare_time(self, table: Table) -> bool:
        """On the table's thread: spare-time work (:meth:`Table.spare_time`) until an entry
        comes in, another call waits for the thread, or :data:`SPARE_SECONDS` pass; whether
        more remains."""
        ends = time.monotonic() + SPARE_SECONDS
        while table.spare_time():
            if (
                self.links.inbox
                or self._calls_made != self._calls_begun
                or time.monotonic() >= ends
            ):
                return True
        return False

    def _news(self, batch: list[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
        """The entries of ``batch`` that are not copies of entries the table holds (a copy
        fetched from another peer, or relayed before the table was seated); the copies are
        noted here, without a call on the table's thread, which would find them held too."""
        news = []
        for address, signed in batch:
            if self.served.holds(signed):
                self.wire.note(address, None, True)
            else:
                news.append((address, signed))
        return news

    async def _catch_up(self) -> None:
        """End a restored table's catch-up once it has heard enough (see the module)."""
        if self._caught_up.is_set():
            return
        held = dict(self.links.own_log_held)
        if await self._on_table(lambda table: table.catch_up(held)):
            self._caught_up.set()

    def _receive_all(
        self, table: Table, batch: Iterable[tuple[str, bytes]]
    ) -> tuple[list[tuple[Rejection | None, bool]], bool]:
        """Take in every entry of ``batch``; for each, its rejection (if any) and whether it
        changed nothing (a copy of an entry held); and whether the table has spare-time work
        now (``spare_time(0)`` verifies nothing: it only says so)."""
        outcomes = []
        for address, signed in batch:
            held = len(table.logs)
            rejection = table.receive(signed, host_of(address))
            outcomes.append((rejection, rejection is None and len(table.logs) == held))
        return outcomes, table.spare_time(0)
