"""The ``Peer`` gRPC service: a thin adapter between the wire and the peer's node (a
:class:`LogSource`).

``Hello`` says which protocol and table the peer serves and which peers it knows;
``Subscribe`` streams the entries of every log the peer holds from the caller's positions on,
then each new entry as the peer accepts it. Every refusal is a status with a sentence: a
request that is not one (``INVALID_ARGUMENT``), a caller of another protocol version or
asking for another table (``FAILED_PRECONDITION``), a connection calling too fast or too
many streams open (``RESOURCE_EXHAUSTED``, see :mod:`condottiere.peer.limits`), a subscriber
the table does not let read its logs (``PERMISSION_DENIED``, see
:mod:`condottiere.peer.readers`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, Protocol, TypeVar

import grpc
from google.protobuf.message import DecodeError, Message

from condottiere.peer.limits import CALL_BURST, CALLS_PER_SECOND, MAX_SUBSCRIBERS, CallLimiter
from condottiere.peer.lobby import PROTOCOL
from condottiere.v1 import peer_pb2

NO_TABLE_YET = "this peer has no table yet"

__all__ = ["NO_TABLE_YET", "SERVICE_NAME", "LogSource", "PeerService"]

_Context = grpc.aio.ServicerContext[Any, Any]

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

    def read_refusal(self, request: peer_pb2.SubscribeRequest) -> str | None:
        """Why the subscriber of ``request`` may not read the table's logs (see
        :mod:`condottiere.peer.readers`); None when it may."""
        ...


class PeerService:
    """Serves the peer's table to the other peers."""

    def __init__(self, source: LogSource) -> None:
        self._source = source
        self._calls = CallLimiter(CALLS_PER_SECOND, CALL_BURST)
        self._subscribers = 0

    async def Hello(self, data: bytes, context: _Context) -> peer_pb2.HelloReply:
        request = await self._request(peer_pb2.HelloRequest, data, context)
        await self._check(request.protocol, request.table_id, context)
        self._source.heard_of(request.address, claimed_by=request.author)
        return self._source.hello_reply()

    async def Subscribe(self, data: bytes, context: _Context) -> AsyncIterator[bytes]:
        request = await self._request(peer_pb2.SubscribeRequest, data, context)
        await self._check(PROTOCOL, request.table_id, context)
        if self._subscribers >= MAX_SUBSCRIBERS:
            await context.abort(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"this peer already serves {MAX_SUBSCRIBERS} streams",
            )
        refused = self._source.read_refusal(request)
        if refused is not None:
            await context.abort(grpc.StatusCode.PERMISSION_DENIED, refused)
        cursors = {cursor.author: cursor.next for cursor in request.start}
        self._subscribers += 1
        try:
            async for signed in self._source.entries_from(cursors, skip=request.subscriber):
                yield signed  # the SignedEntry's bytes as they were received: sent as they are
        finally:
            self._subscribers -= 1

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
        if not self._calls.allow(context.peer()):
            await context.abort(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"more than {CALLS_PER_SECOND:g} calls a second from this connection",
            )
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
