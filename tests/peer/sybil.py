"""A stranger that asks for seats under many throw-away keys, as a program of its own
(``python -m tests.peer.sybil TABLE_ADDRESS INTERFACE KEYS``), for ``test_strangers.py``.

It asks the peer at ``TABLE_ADDRESS`` for its table, signs a join of that table under each of
``KEYS`` fresh keys (each naming this program's own address, the best a stranger can do: a
join is taken only from the host it names), serves them on ``INTERFACE`` with the peer
service itself (:class:`~condottiere.peer.service.PeerService`, one log per key), and tells
the table's peer where (a ``Hello`` naming one of its keys), so that it follows this program
and reads every join. It prints ``sybil: N joins at HOST:PORT`` and serves until it is
killed. It never says ready: a seat it is given is freed at the ready deadline.

Nothing here is shipped.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator

import grpc

from condottiere.crypto import Identity
from condottiere.peer.entries import make_entry, read_entry
from condottiere.peer.lobby import PROTOCOL
from condottiere.peer.node import SERVER_OPTIONS
from condottiere.peer.service import SERVICE_NAME, PeerService
from condottiere.v1 import log_pb2, peer_pb2
from tests.peer.strangers import hello

HELLO_SECONDS = 10


class Joins:
    """The logs this stranger serves: one join under each of its keys (a
    :class:`~condottiere.peer.service.LogSource`)."""

    def __init__(self, reply: peer_pb2.HelloReply, keys: int, address: str) -> None:
        self.reply = reply
        self.challenge = os.urandom(32)
        definition_hash = read_entry(reply.definition.SerializeToString()).hash
        self.joins = {
            identity.public.raw: make_entry(
                identity, reply.table_id, 0, b"", step=0, heads=(),
                body=log_pb2.Join(definition=definition_hash, player=f"sybil{number}",
                                  address=address),
            ).signed
            for number, identity in enumerate(Identity.generate() for _ in range(keys))
        }

    @property
    def table_id(self) -> bytes:
        return self.reply.table_id

    def hello_reply(self) -> peer_pb2.HelloReply:
        return peer_pb2.HelloReply(
            protocol=PROTOCOL, table_id=self.reply.table_id, definition=self.reply.definition,
            challenge=self.challenge,
        )

    async def entries_from(self, cursors: dict[bytes, int], skip: bytes) -> AsyncIterator[bytes]:
        for author, join in self.joins.items():
            if cursors.get(author, 0) == 0:
                yield join
        await asyncio.Event().wait()  # then nothing more, for ever

    def heard_of(self, address: str, claimed_by: bytes | None = None) -> None:
        """Follows nobody."""

    def is_member(self, author: bytes) -> bool:
        return False

    def read_refusal(self, subscriber: bytes, proven: bool) -> str | None:
        return None


async def run(table: str, interface: str, keys: int) -> None:
    reply = await hello(table)
    server = grpc.aio.server(options=SERVER_OPTIONS)
    port = server.add_insecure_port(f"{interface}:0")
    address = f"{interface}:{port}"
    joins = Joins(reply, keys, address)
    PeerService(joins).add_to(server)
    await server.start()
    async with grpc.aio.insecure_channel(table) as channel:
        await channel.unary_unary(
            f"/{SERVICE_NAME}/Hello",
            request_serializer=peer_pb2.HelloRequest.SerializeToString,
            response_deserializer=peer_pb2.HelloReply.FromString,
        )(
            peer_pb2.HelloRequest(
                protocol=PROTOCOL, table_id=reply.table_id, author=next(iter(joins.joins)),
                address=address,
            ),
            timeout=HELLO_SECONDS,
        )
    print(f"sybil: {keys} joins at {address}", flush=True)
    await server.wait_for_termination()


if __name__ == "__main__":
    asyncio.run(run(sys.argv[1], sys.argv[2], int(sys.argv[3])))
