"""A stranger on the LAN for tests: a program with no seat (and no key, unless it makes one)
that calls a peer's port with raw gRPC clients, the way anyone on the network can.

Nothing here is shipped."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import grpc
from grpc_health.v1 import health_pb2

from condottiere.peer.lobby import PROTOCOL
from condottiere.peer.service import SERVICE_NAME
from condottiere.v1 import peer_pb2

FRESH = [("grpc.use_local_subchannel_pool", 1)]
"""A channel of its own (a connection of its own) for every channel opened."""
STINGY = [*FRESH, ("grpc.http2.lookahead_bytes", 16384), ("grpc.http2.bdp_probe", 0)]
"""A connection that lets the peer send only a little ahead of what it reads (so a stream that
is not read fills at once)."""
STREAMS_PER_CHANNEL = 4
"""Streams the stranger opens on one connection (under the server's cap per connection)."""


async def hello(address: str, table_id: bytes = b"") -> peer_pb2.HelloReply:
    """The peer's ``Hello`` reply to a caller with no key."""
    async with grpc.aio.insecure_channel(address, options=FRESH) as channel:
        reply: peer_pb2.HelloReply = await channel.unary_unary(
            f"/{SERVICE_NAME}/Hello",
            request_serializer=peer_pb2.HelloRequest.SerializeToString,
            response_deserializer=peer_pb2.HelloReply.FromString,
        )(peer_pb2.HelloRequest(protocol=PROTOCOL, table_id=table_id), timeout=10)
    return reply


def subscription(table_id: bytes, subscriber: bytes = b"") -> bytes:
    """A ``Subscribe`` request from the first entry of every log on."""
    return peer_pb2.SubscribeRequest(table_id=table_id, subscriber=subscriber).SerializeToString()


@dataclass
class Flood:
    """Streams a stranger opened and never reads: how each call ended (``open``: still open
    when looked at)."""

    statuses: Counter[str] = field(default_factory=Counter)
    details: Counter[str] = field(default_factory=Counter)
    calls: list[grpc.aio.UnaryStreamCall] = field(default_factory=list)


@contextlib.asynccontextmanager
async def flood(
    address: str, streams: int, method: str, request: bytes, settle: float = 3.0
) -> AsyncIterator[Flood]:
    """Open ``streams`` streams of ``method`` (a full method path) with ``request``, on
    connections of their own, and read none of them; ``settle`` seconds later, each is
    counted by how it ended or as ``open``. They are held open until the block ends."""
    result = Flood()
    channels = []
    try:
        for first in range(0, streams, STREAMS_PER_CHANNEL):
            channel = grpc.aio.insecure_channel(address, options=STINGY)
            channels.append(channel)
            call = channel.unary_stream(method)
            for _ in range(min(STREAMS_PER_CHANNEL, streams - first)):
                result.calls.append(call(request))
        await asyncio.sleep(settle)
        for stream in result.calls:
            if stream.done():
                code = await stream.code()
                result.statuses[code.name] += 1
                result.details[await stream.details() or ""] += 1
            else:
                result.statuses["open"] += 1
        yield result
    finally:
        for stream in result.calls:
            stream.cancel()
        for channel in channels:
            await channel.close()


async def status_of(address: str, method: str, request: bytes) -> tuple[str, str]:
    """How one stream of ``method`` ends when it is read (``open`` with what it sent, after a
    few seconds, if it goes on)."""
    async with grpc.aio.insecure_channel(address, options=FRESH) as channel:
        call = channel.unary_stream(method)(request)
        received = 0
        try:
            async with asyncio.timeout(3):
                async for _ in call:
                    received += 1
        except TimeoutError:
            return "open", f"{received} messages"
        except grpc.aio.AioRpcError as error:
            return error.code().name, error.details() or ""
        return "OK", f"{received} messages"


async def ends_of(streams: list[grpc.aio.UnaryStreamCall]) -> list[tuple[str, str]]:
    """Read each of ``streams`` to its end (a few seconds at most each): how each ended."""
    ends = []
    for stream in streams:
        try:
            async with asyncio.timeout(5):
                async for _ in stream:
                    pass
            ends.append(("OK", ""))
        except TimeoutError:
            ends.append(("open", ""))
        except grpc.aio.AioRpcError as error:
            ends.append((error.code().name, error.details() or ""))
    return ends


HEALTH_WATCH = "/grpc.health.v1.Health/Watch"
SUBSCRIBE = f"/{SERVICE_NAME}/Subscribe"
HEALTH_REQUEST = health_pb2.HealthCheckRequest(service="").SerializeToString()


def random_table_id() -> bytes:
    return os.urandom(32)


def resident_kib(pid: int) -> int:
    """The resident memory of process ``pid``, in KiB."""
    with open(f"/proc/{pid}/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") // 1024
