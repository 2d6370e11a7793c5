"""A peer's wire under attack, with real gRPC on loopback: a table between a victim node and
Mallory, whose seat turns hostile (:class:`HostilePeer` serves her address with whatever
messages it is given), and a fuzzer (:class:`Mutator`) that makes those messages from
random bytes and from structure-aware mutations of the table's real entries.

The short runs are tests (``test_wire.py``); the full run is ``scripts/fuzz_wire.py``.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
from google.protobuf.message import Message

from condottiere.crypto import Identity
from condottiere.peer.entries import MAX_ENTRY_BYTES, LogEntry, Rejection, read_entry
from condottiere.peer.lobby import PROTOCOL, TableSpec
from condottiere.peer.node import SERVER_OPTIONS, Node
from condottiere.peer.service import SERVICE_NAME
from condottiere.peer.store import Store
from condottiere.v1 import log_pb2, peer_pb2
from tests.peer.cheats import state_of
from tests.peer.mutations import mutate_bytes, mutate_message, random_bytes

SIGNATURE_DOMAIN = b"condottiere/v1/entry\x00"


async def until(condition: Callable[[], bool], seconds: float, what: str) -> None:
    """Wait (bounded) until ``condition()`` holds."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {seconds} s")
        await asyncio.sleep(0.02)


async def victim_and_mallory(root: Path, edition: str = "zman-duel") -> tuple[Node, Node]:
    """A victim node hosting a two-seat table and Mallory's node seated at it, each holding
    every entry of the other, the cards dealt, the table waiting for a move nobody makes."""
    victim = Node(Store(root / "victim"))
    await victim.start()
    spec = TableSpec(edition, 2, (), "fuzzed", "victim", "")
    await victim.host_table(spec)
    mallory = Node(Store(root / "mallory"))
    await mallory.start()
    await mallory.join_table(victim.address, "mallory")

    def settled() -> bool:
        tables = (victim.table, mallory.table)
        return all(
            t is not None and t.step is not None and t.step.kind == "move" for t in tables
        ) and len(victim.table.logs) == len(mallory.table.logs)  # type: ignore[union-attr]

    await until(settled, 120, "the deal between the victim and Mallory")
    return victim, mallory


def fingerprint(node: Node) -> Any:
    """What must not change while a node is attacked: its table's game state, its logs, its
    refusals and halt."""
    table = node.table
    assert table is not None
    heads = sorted(table.logs.heads().items())
    return state_of(table), heads, len(table.refusals), table.halt


class HostilePeer:
    """A server on Mallory's address that answers ``Hello`` as her peer did and streams to its
    subscriber (the victim) the messages :meth:`send` is given, each once, in order."""

    def __init__(self, address: str, hello: peer_pb2.HelloReply) -> None:
        self.address = address
        self._hello = hello
        self._queue: asyncio.Queue[bytes] = asyncio.Queue(maxsize=256)
        self._server: grpc.aio.Server | None = None
        self.subscribers = 0
        """How many streams are open."""
        self.streamed = 0
        """Messages handed to gRPC to stream."""

    async def start(self) -> None:
        server = grpc.aio.server(options=SERVER_OPTIONS)
        handlers = {
            "Hello": grpc.unary_unary_rpc_method_handler(
                self._hello_call, request_deserializer=bytes,
                response_serializer=peer_pb2.HelloReply.SerializeToString,
            ),
            "Subscribe": grpc.unary_stream_rpc_method_handler(
                self._subscribe, request_deserializer=bytes, response_serializer=bytes
            ),
        }
        server.add_generic_rpc_handlers(
            (grpc.method_handlers_generic_handler(SERVICE_NAME, handlers),)
        )
        if not server.add_insecure_port(self.address):
            raise OSError(f"cannot listen on {self.address}")
        await server.start()
        self._server = server

    async def stop(self) -> None:
        if self._server is not None:
            await self._server.stop(grace=0.1)

    async def send(self, message: bytes) -> None:
        """Queue one message (waiting while the subscriber is far behind)."""
        await self._queue.put(message)

    async def _hello_call(self, data: bytes, context: Any) -> peer_pb2.HelloReply:
        return self._hello

    async def _subscribe(self, data: bytes, context: Any) -> AsyncIterator[bytes]:
        self.subscribers += 1
        try:
            while True:
                message = await self._queue.get()
                yield message
                self.streamed += 1
        finally:
            self.subscribers -= 1


# ------------------------------------------------------------------------------- mutations

@dataclass
class Mutator:
    """Fuzzed entries for a table: random bytes, and mutations of its real entries at every
    level (bytes of the envelope, fields of the entry and of its body), some signed again by
    a stranger (who holds no seat), some for another table, a few just over the size limit."""

    entries: Sequence[LogEntry]
    rng: random.Random
    stranger: Identity = field(default_factory=Identity.generate)
    kinds: Counter[str] = field(default_factory=Counter)
    """How many messages of each kind were made."""

    def message(self) -> bytes:
        rng = self.rng
        roll = rng.random()
        if roll < 0.15:
            return self._made("random-bytes", random_bytes(rng))
        original = rng.choice(self.entries)
        if roll < 0.35:
            return self._made("mutated-bytes", mutate_bytes(rng, original.signed))
        if roll < 0.995:
            entry = log_pb2.Entry.FromString(original.raw)
            mutate_message(rng, entry)
            if roll < 0.60:
                return self._made("entry-fields", self._envelope(entry, original.signed))
            if roll < 0.85:
                return self._made("stranger-signed", self._signed(entry))
            entry.table_id = os.urandom(32)
            return self._made("other-table", self._signed(entry))
        padding = MAX_ENTRY_BYTES + 1 - len(original.signed) + rng.randrange(1000)
        return self._made("oversized", original.signed + bytes(padding))

    def _made(self, kind: str, message: bytes) -> bytes:
        self.kinds[kind] += 1
        return message

    def _envelope(self, entry: log_pb2.Entry, original: bytes) -> bytes:
        """The mutated entry with the original signature (sometimes damaged too)."""
        signature = log_pb2.SignedEntry.FromString(original).signature
        if self.rng.random() < 0.3:
            signature = mutate_bytes(self.rng, signature)
        raw = entry.SerializeToString()
        return log_pb2.SignedEntry(entry=raw, signature=signature).SerializeToString()

    def _signed(self, entry: log_pb2.Entry) -> bytes:
        entry.author = self.stranger.public.raw
        raw = entry.SerializeToString()
        signature = self.stranger.sign(SIGNATURE_DOMAIN + raw)
        return log_pb2.SignedEntry(entry=raw, signature=signature).SerializeToString()


def is_copy(message: bytes, held: dict[bytes, LogEntry], table_id: bytes) -> bool:
    """Whether ``message`` is, once read, an entry the victim holds already (a harmless
    copy); anything else must be refused."""
    try:
        entry = read_entry(message, table_id=table_id)
    except Rejection:
        return False
    kept = held.get(entry.hash)
    return kept is not None and kept.raw == entry.raw


def fuzzed_request(rng: random.Random, table_id: bytes) -> tuple[str, bytes]:
    """A fuzzed call of the victim's own service: (method, request bytes)."""
    method = rng.choice(["Hello", "Subscribe", "Hello", "Subscribe", "Goodbye"])
    request: Message
    if method == "Subscribe":
        request = peer_pb2.SubscribeRequest(
            table_id=table_id, start=[peer_pb2.Cursor(author=os.urandom(32), next=1)]
        )
    else:
        request = peer_pb2.HelloRequest(
            protocol=PROTOCOL, table_id=table_id, author=os.urandom(32), address="127.0.0.1:9"
        )
    roll = rng.random()
    if roll < 0.3:
        return method, random_bytes(rng)
    if roll < 0.6:
        return method, mutate_bytes(rng, request.SerializeToString())
    mutate_message(rng, request)
    return method, request.SerializeToString()


# ------------------------------------------------------------------------------- the run


def resident_kib() -> int:
    """This process's resident memory, in KiB."""
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") // 1024


@dataclass
class FuzzRun:
    """The figures of one fuzz run against a victim peer."""

    sent: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)
    copies: int = 0
    expected_copies: int = 0
    taken: int = 0
    """Messages the victim took in as new entries (must stay 0)."""
    calls: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    seconds: float = 0.0
    rss: list[int] = field(default_factory=list)
    """Resident memory (KiB) at each tenth of the run, and at its end."""
    max_inbox: int = 0
    unchanged: bool = False
    serving: bool = False
    """Whether the victim still answered a proper ``Hello`` at the end."""
    faults: list[str] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.sent / self.seconds if self.seconds else 0.0


async def run_fuzz(
    root: Path,
    messages: int,
    calls: int,
    seed: int = 0,
    progress: Callable[[FuzzRun], None] | None = None,
) -> FuzzRun:
    """Send ``messages`` fuzzed entries to a victim peer through the stream of the peer it
    follows (Mallory's seat, turned hostile), and ``calls`` fuzzed calls to its own service,
    on fresh connections; the figures."""
    run = FuzzRun()
    rng = random.Random(seed)
    victim, mallory = await victim_and_mallory(root)
    try:
        table = victim.table
        assert table is not None and mallory.table is not None
        held = {e.hash: e for a in table.logs.authors for e in table.logs.log(a)}
        before = fingerprint(victim)
        address, hello = mallory.address, mallory.hello_reply()
        await mallory.stop()
        mallory.store.close()
        hostile = HostilePeer(address, hello)
        await hostile.start()
        try:
            await until(lambda: hostile.subscribers > 0, 20, "the victim following Mallory again")
            base = victim.wire.received[address]
            mutator = Mutator(list(held.values()), rng)
            started = time.monotonic()
            sampler = asyncio.create_task(_sample(victim, run, messages, lambda: run.sent))
            caller = asyncio.create_task(_call(victim.address, table.table_id, calls, rng, run))
            for _ in range(messages):
                message = mutator.message()
                run.expected_copies += is_copy(message, held, table.table_id)
                await hostile.send(message)
                run.sent += 1
                if progress is not None and run.sent % 10_000 == 0:
                    progress(run)
            await until(
                lambda: victim.wire.received[address] - base >= run.sent,
                max(60.0, messages / 200),
                f"the victim taking in {run.sent} messages (it took "
                f"{victim.wire.received[address] - base})",
            )
            await caller
            run.seconds = time.monotonic() - started
            sampler.cancel()
            run.rss.append(resident_kib())
            run.kinds = mutator.kinds
            run.refused = Counter(victim.wire.refused)
            run.copies = victim.wire.copies
            run.taken = run.sent - sum(run.refused.values()) - run.copies
            run.unchanged = fingerprint(victim) == before
            run.serving = await _hello(victim.address, table.table_id)
        finally:
            await hostile.stop()
    finally:
        await victim.stop()
        victim.store.close()
    return run


async def _sample(victim: Node, run: FuzzRun, messages: int, sent: Callable[[], int]) -> None:
    """Every few milliseconds: the longest the victim's inbox got; at each tenth of the
    messages sent, the resident memory."""
    mark = 0
    while True:
        run.max_inbox = max(run.max_inbox, len(victim._inbox))
        if sent() >= mark * messages / 10:
            run.rss.append(resident_kib())
            mark += 1
        await asyncio.sleep(0.005)


async def _call(
    address: str, table_id: bytes, calls: int, rng: random.Random, run: FuzzRun
) -> None:
    """``calls`` fuzzed calls of the victim's service, a fresh connection for every 50 (each
    connection has its own rate); every status counted, ``answered`` for a reply."""
    options = [("grpc.use_local_subchannel_pool", 1)]
    made = 0
    while made < calls:
        async with grpc.aio.insecure_channel(address, options=options) as channel:
            for _ in range(min(50, calls - made)):
                method, data = fuzzed_request(rng, table_id)
                path = f"/{SERVICE_NAME}/{method}"
                try:
                    if method == "Subscribe":
                        stream = channel.unary_stream(path)(data, timeout=5)
                        async for _ in stream:
                            stream.cancel()
                            break
                    else:
                        await channel.unary_unary(path)(data, timeout=5)
                    run.statuses["answered"] += 1
                except grpc.aio.AioRpcError as error:
                    run.statuses[error.code().name] += 1
                    if error.code() in (grpc.StatusCode.UNKNOWN, grpc.StatusCode.INTERNAL):
                        run.faults.append(f"{method}: {error.details()}")
                made += 1
                run.calls = made


async def _hello(address: str, table_id: bytes) -> bool:
    request = peer_pb2.HelloRequest(protocol=PROTOCOL, table_id=table_id)
    async with grpc.aio.insecure_channel(address) as channel:
        reply = await channel.unary_unary(
            f"/{SERVICE_NAME}/Hello",
            request_serializer=peer_pb2.HelloRequest.SerializeToString,
            response_deserializer=peer_pb2.HelloReply.FromString,
        )(request, timeout=5)
    return bool(reply.table_id == table_id)
