"""The ``Peer`` gRPC service: a thin adapter between the wire and the peer's node (a
:class:`LogSource`).

``Hello`` says which protocol and table the peer serves and which peers it knows;
``Subscribe`` streams the entries of every log the peer holds from the caller's positions on,
then each new entry as the peer accepts it. Every refusal is a status with a sentence: a
request that is not one, or a subscription that names no table (``INVALID_ARGUMENT``), a
caller of another protocol version or asking for another table (``FAILED_PRECONDITION``), a
connection calling too fast, too many streams open from its source, or a stream not read
(``RESOURCE_EXHAUSTED``, see :mod:`condottiere.peer.limits`).

A subscriber that signs the peer's challenge (:func:`subscription_proof`) and is a member of
the table streams in slots kept for it: a stranger on the LAN can fill what its own source
may hold, never the members' slots. The other services on the port (health, reflection) are
held to the same call rate and stream slots by :class:`Guard`.
A subscriber the table does not let read its logs gets ``PERMISSION_DENIED`` (see
:mod:`condottiere.peer.readers`).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Protocol, TypeAlias, TypeVar

import grpc
from google.protobuf.message import DecodeError, Message

from condottiere.crypto import DecodeError as KeyDecodeError
from condottiere.crypto import Identity, PublicIdentity
from condottiere.peer.limits import (
    CALL_BURST,
    CALLS_PER_SECOND,
    SOURCE_CALL_BURST,
    SOURCE_CALLS_PER_SECOND,
    UNREAD_SECONDS,
    CallLimiter,
    NoSlot,
    StreamSlots,
    is_loopback,
    source_of,
)
from condottiere.peer.lobby import PROTOCOL
from condottiere.v1 import peer_pb2

NO_TABLE_YET = "this peer has no table yet"
PROOF_DOMAIN = b"condottiere/v1 subscribe\0"

__all__ = [
    "NO_TABLE_YET",
    "SERVICE_NAME",
    "Guard",
    "LogSource",
    "PeerService",
    "subscription_proof",
]

_Context = grpc.aio.ServicerContext[Any, Any]
_Handler: TypeAlias = "grpc.RpcMethodHandler[Any, Any]"

SERVICE_NAME = peer_pb2.DESCRIPTOR.services_by_name["Peer"].full_name

M = TypeVar("M", bound=Message)


class LogSource(Protocol):
    """What the ``Peer`` service needs of the peer's node: the table it serves, its ``Hello``
    reply, every entry it holds, and the peers to follow."""

    @property
    def table_id(self) -> bytes | None:
        """The table served; None before there is one."""
        ...

    def hello_reply(self) -> peer_pb2.HelloReply:
        """The table's definition and the peers known (once there is a table)."""
        ...

    def entries_from(self, cursors: dict[bytes, int], skip: bytes) -> AsyncIterator[bytes]:
        """Every entry held beyond ``cursors`` (author -> next sequence number), then each new
        one, forever; ``skip``'s own entries only as far as they are held now."""
        ...

    def heard_of(self, address: str, claimed_by: bytes | None = None) -> None:
        """Follow the peer at ``address`` (``claimed_by``: the author a caller says serves
        there)."""
        ...

    @property
    def challenge(self) -> bytes:
        """What a subscriber signs to prove its key (sent in the ``Hello`` reply)."""
        ...

    def is_member(self, author: bytes) -> bool:
        """Whether ``author`` has a place at the table: a seat, or before the seating a
        place in the lobby."""
        ...

    def read_refusal(self, subscriber: bytes, proven: bool) -> str | None:
        """Why ``subscriber`` (``proven``: it signed this peer's challenge) may not read the
        table's logs (see :mod:`condottiere.peer.readers`); None when it may."""
        ...


def subscription_proof(identity: Identity, table_id: bytes, challenge: bytes) -> bytes:
    """``identity``'s proof, for a peer that sent ``challenge``, that it subscribes to the
    table ``table_id`` with its key."""
    return identity.sign(PROOF_DOMAIN + table_id + challenge)


def _proves(author: bytes, proof: bytes, table_id: bytes, challenge: bytes) -> bool:
    try:
        key = PublicIdentity(author)
    except KeyDecodeError:
        return False
    return key.verifies(PROOF_DOMAIN + table_id + challenge, proof)


class PeerService:
    """Serves the peer's table to the other peers, within ``slots`` and ``calls`` (shared
    with the other services of the port, see :class:`Guard`)."""

    def __init__(
        self,
        source: LogSource,
        slots: StreamSlots | None = None,
        calls: CallLimiter | None = None,
        unread_seconds: float = UNREAD_SECONDS,
    ) -> None:
        self._source = source
        self.slots = slots or StreamSlots()
        self.calls = calls or CallLimiter(CALLS_PER_SECOND, CALL_BURST)
        self.source_calls = CallLimiter(SOURCE_CALLS_PER_SECOND, SOURCE_CALL_BURST)
        """The calls of all connections of each source together (the loopback excepted)."""
        self.unread_seconds = unread_seconds

    async def Hello(self, data: bytes, context: _Context) -> peer_pb2.HelloReply:
        request = await self._request(peer_pb2.HelloRequest, data, context)
        await self._check(request.protocol, request.table_id, context)
        self._source.heard_of(request.address, claimed_by=request.author)
        return self._source.hello_reply()

    async def Subscribe(self, data: bytes, context: _Context) -> None:
        request = await self._request(peer_pb2.SubscribeRequest, data, context)
        if not request.table_id:
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT, "a subscription names the table it follows"
            )
        await self._check(PROTOCOL, request.table_id, context)
        proven = _proves(
            request.subscriber, request.proof, request.table_id, self._source.challenge
        )
        refused = self._source.read_refusal(request.subscriber, proven)
        if refused is not None:
            await context.abort(grpc.StatusCode.PERMISSION_DENIED, refused)
        member = (
            request.subscriber if proven and self._source.is_member(request.subscriber) else None
        )
        cursors = {cursor.author: cursor.next for cursor in request.start}
        entries = self._source.entries_from(cursors, skip=request.subscriber)
        async with _slot(self.slots, context, member):
            # the SignedEntry's bytes as they were received: sent as they are
            await _send_all(entries, context, self.unread_seconds)
        refused = self._source.read_refusal(request.subscriber, proven)
        if refused is not None:  # refused while it read: told why its stream ended
            await context.abort(grpc.StatusCode.PERMISSION_DENIED, refused)

    def add_to(self, server: grpc.aio.Server) -> None:
        """Serve on ``server``; requests are read by the handlers (so a malformed one gets a
        status that says so), and ``Subscribe`` sends each entry's bytes as they are."""
        handlers: dict[str, grpc.RpcMethodHandler[Any, Any]] = {
            "Hello": grpc.unary_unary_rpc_method_handler(
                self.Hello,
                request_deserializer=bytes,
                response_serializer=peer_pb2.HelloReply.SerializeToString,
            ),
            "Subscribe": grpc.unary_stream_rpc_method_handler(
                self.Subscribe,
                request_deserializer=bytes,
                response_serializer=bytes,
            ),
        }
        server.add_generic_rpc_handlers(
            (grpc.method_handlers_generic_handler(SERVICE_NAME, handlers),)
        )

    async def _request(self, kind: type[M], data: bytes, context: _Context) -> M:
        """The request ``data`` holds, once the caller's connection is within its rate."""
        await _within_rate(self, context)
        try:
            return kind.FromString(data)
        except DecodeError as exc:
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT, f"not a {kind.DESCRIPTOR.name}: {exc}"
            )

    async def _check(self, protocol: int, table_id: bytes, context: _Context) -> None:
        if protocol != PROTOCOL:
            await context.abort(
                grpc.StatusCode.FAILED_PRECONDITION,
                f"this peer speaks protocol version {PROTOCOL}, not {protocol}",
            )
        served = self._source.table_id
        if served is None:
            await context.abort(grpc.StatusCode.UNAVAILABLE, NO_TABLE_YET)
        if table_id and table_id != served:
            await context.abort(
                grpc.StatusCode.FAILED_PRECONDITION, "this peer serves another table"
            )


async def _within_rate(service: PeerService, context: _Context) -> None:
    """Refuse the call (``RESOURCE_EXHAUSTED``) past its connection's rate, or past its
    source's (every connection of one machine together: the loopback excepted)."""
    peer = context.peer()
    if not service.calls.allow(peer):
        await context.abort(
            grpc.StatusCode.RESOURCE_EXHAUSTED,
            f"more than {CALLS_PER_SECOND:g} calls a second from this connection",
        )
    source = source_of(peer)
    if not is_loopback(source) and not service.source_calls.allow(source):
        await context.abort(
            grpc.StatusCode.RESOURCE_EXHAUSTED,
            f"more than {SOURCE_CALLS_PER_SECOND:g} calls a second from {source}",
        )


@contextlib.asynccontextmanager
async def _slot(
    slots: StreamSlots, context: _Context, member: bytes | None = None
) -> AsyncIterator[None]:
    """Hold a stream slot for the call of ``context`` while the block runs; the call is
    refused (``RESOURCE_EXHAUSTED``) when there is none."""
    try:
        slot = slots.take(source_of(context.peer()), member)
    except NoSlot as full:
        await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, str(full))
    try:
        yield
    finally:
        slots.give_back(slot)


async def _send_all(messages: AsyncIterator[Any], context: _Context, unread: float) -> None:
    """Write every message of ``messages``; end the call when one waits ``unread`` seconds
    for the reader to make room (a stream that is not read is not buffered for)."""
    async for message in messages:
        try:
            async with asyncio.timeout(unread):  # no task a message, as wait_for makes
                await context.write(message)
        except TimeoutError:
            await context.abort(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"this stream was not read for {unread:g} s: ended",
            )


class Guard(grpc.aio.ServerInterceptor):
    """Holds every other service of the port (health, reflection) to the ``Peer`` service's
    limits: each call within the caller's rate, each stream in a slot of its source, and
    ended when it is not read."""

    def __init__(self, service: PeerService) -> None:
        self._service = service

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[_Handler | None]],
        details: grpc.HandlerCallDetails,
    ) -> _Handler | None:
        handler = await continuation(details)
        method: str = details.method
        if handler is None or method.startswith(f"/{SERVICE_NAME}/"):
            return handler
        return self._guarded(handler)

    def _guarded(self, handler: _Handler) -> _Handler:
        service = self._service
        serialize, deserialize = handler.response_serializer, handler.request_deserializer
        behaviours: dict[str, Any] = {
            "unary_stream": handler.unary_stream,
            "stream_stream": handler.stream_stream,
            "stream_unary": handler.stream_unary,
        }
        inner: Any = handler.unary_unary

        async def unary(request: Any, context: _Context) -> Any:
            await _within_rate(service, context)
            return await inner(request, context)

        def streaming(behaviour: Any) -> Any:
            async def stream(request: Any, context: _Context) -> None:
                await _within_rate(service, context)
                async with _slot(service.slots, context):
                    result = behaviour(request, context)
                    if inspect.isasyncgen(result):
                        await _send_all(result, context, service.unread_seconds)
                    else:
                        await result

            return stream

        if inner is not None:
            return grpc.unary_unary_rpc_method_handler(unary, deserialize, serialize)
        makers: dict[str, Any] = {
            "unary_stream": grpc.unary_stream_rpc_method_handler,
            "stream_stream": grpc.stream_stream_rpc_method_handler,
            "stream_unary": grpc.stream_unary_rpc_method_handler,
        }
        kind = next(kind for kind, behaviour in behaviours.items() if behaviour is not None)
        guarded: _Handler = makers[kind](streaming(behaviours[kind]), deserialize, serialize)
        return guarded
