"""The ``Peer`` gRPC service: a thin adapter between the wire and a :class:`peer.node.Node`.

``Hello`` says which protocol and table the peer serves and which peers it knows;
``Subscribe`` streams the entries of every log the peer holds from the caller's positions on,
then each new entry as the peer accepts it. A caller of another protocol version, or asking
for another table, is refused with ``FAILED_PRECONDITION`` and a sentence saying why.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

import grpc

from condottiere.v1 import peer_pb2
from peer.lobby import PROTOCOL

NO_TABLE_YET = "this peer has no table yet"

if TYPE_CHECKING:
    from peer.node import Node

__all__ = ["SERVICE_NAME", "PeerService"]

_Context = grpc.aio.ServicerContext[Any, Any]

SERVICE_NAME = peer_pb2.DESCRIPTOR.services_by_name["Peer"].full_name


class PeerService:
    """Serves one node's table to the other peers."""

    def __init__(self, node: Node) -> None:
        self._node = node

    async def Hello(self, request: peer_pb2.HelloRequest, context: _Context) -> peer_pb2.HelloReply:
        await self._check(request.protocol, request.table_id, context)
        self._node.heard_of(request.address)
        return self._node.hello_reply()

    async def Subscribe(
        self, request: peer_pb2.SubscribeRequest, context: _Context
    ) -> AsyncIterator[bytes]:
        await self._check(PROTOCOL, request.table_id, context)
        cursors = {cursor.author: cursor.next for cursor in request.start}
        async for signed in self._node.entries_from(cursors, skip=request.subscriber):
            yield signed  # the SignedEntry's bytes as they were received: sent as they are

    def add_to(self, server: grpc.aio.Server) -> None:
        """Serve on ``server``; ``Subscribe`` sends each entry's bytes without re-encoding."""
        handlers: dict[str, grpc.RpcMethodHandler[Any, Any]] = {
            "Hello": grpc.unary_unary_rpc_method_handler(
                self.Hello,
                request_deserializer=peer_pb2.HelloRequest.FromString,
                response_serializer=peer_pb2.HelloReply.SerializeToString,
            ),
            "Subscribe": grpc.unary_stream_rpc_method_handler(
                self.Subscribe,
                request_deserializer=peer_pb2.SubscribeRequest.FromString,
                response_serializer=bytes,
            ),
        }
        server.add_generic_rpc_handlers(
            (grpc.method_handlers_generic_handler(SERVICE_NAME, handlers),)
        )

    async def _check(self, protocol: int, table_id: bytes, context: _Context) -> None:
        if protocol != PROTOCOL:
            await context.abort(
                grpc.StatusCode.FAILED_PRECONDITION,
                f"this peer speaks protocol version {PROTOCOL}, not {protocol}",
            )
        served = self._node.table_id
        if served is None:
            await context.abort(grpc.StatusCode.UNAVAILABLE, NO_TABLE_YET)
        if table_id and table_id != served:
            await context.abort(
                grpc.StatusCode.FAILED_PRECONDITION, "this peer serves another table"
            )
