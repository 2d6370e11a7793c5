"""A creator that tries to frame the honest players of its earlier table, as a program of its
own (``python -m tests.peer.framer DATA MODE``), for the tests of ``test_framing.py``.

It reads the last table of the data directory ``DATA`` (a table it played, whose record it
holds), and serves, like a peer hosting a table, a new table under that old table's id:

- ``forged``: a new definition ("rematch", zman for three) signed by it under the old id;
- ``again``: the old table's own definition, served again.

To whoever subscribes it streams that definition, then every old entry of the old table's
other players, then every entry it gets from the peers that say ``Hello`` to it (it follows
each): so a player who joins again finds its new first entry beside its old one, each signed
by itself, under one table id. It seats nobody; it prints ``listening on HOST:PORT`` once it
serves.

Nothing here is shipped: the command line has no way to cheat.
"""

from __future__ import annotations

import argparse
import asyncio
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc

from condottiere.peer.entries import LogEntry, make_entry
from condottiere.peer.links import CHANNEL_OPTIONS
from condottiere.peer.lobby import NONCE_BYTES, PROTOCOL
from condottiere.peer.node import SERVER_OPTIONS
from condottiere.peer.service import SERVICE_NAME
from condottiere.peer.store import Store
from condottiere.v1 import log_pb2, peer_pb2

MODES = ("forged", "again")


def forged_definition(store: Store, old: LogEntry) -> LogEntry:
    """A new table definition, signed by the old table's creator under the old table's id."""
    body = log_pb2.TableDefinition()
    body.CopyFrom(old.body)
    body.protocol, body.edition, body.seats, body.name = PROTOCOL, "zman", 3, "rematch"
    body.nonce = os.urandom(NONCE_BYTES)  # fresh, as an honest creator's
    return make_entry(store.identity(), old.entry.table_id, 0, b"", step=1, heads=(), body=body)


class Framer:
    """Serves ``definition`` and the replayed entries; relays what the peers it follows hold."""

    def __init__(self, definition: LogEntry, replayed: list[bytes]) -> None:
        self.definition = definition
        self.table_id = definition.entry.table_id
        self.held = [definition.signed, *replayed]
        self._known = set(self.held)
        self._more = asyncio.Condition()
        self._followed: dict[str, asyncio.Task[None]] = {}

    async def serve(self) -> grpc.aio.Server:
        server = grpc.aio.server(options=SERVER_OPTIONS)
        handlers = {
            "Hello": grpc.unary_unary_rpc_method_handler(
                self._hello,
                request_deserializer=peer_pb2.HelloRequest.FromString,
                response_serializer=peer_pb2.HelloReply.SerializeToString,
            ),
            "Subscribe": grpc.unary_stream_rpc_method_handler(
                self._subscribe, request_deserializer=bytes, response_serializer=bytes
            ),
        }
        server.add_generic_rpc_handlers(
            (grpc.method_handlers_generic_handler(SERVICE_NAME, handlers),)
        )
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        print(f"listening on 127.0.0.1:{port}", flush=True)
        return server

    async def _hello(self, request: peer_pb2.HelloRequest, context: Any) -> peer_pb2.HelloReply:
        if request.address and request.address not in self._followed:
            self._followed[request.address] = asyncio.create_task(self._follow(request.address))
        definition = log_pb2.SignedEntry.FromString(self.definition.signed)
        return peer_pb2.HelloReply(protocol=PROTOCOL, table_id=self.table_id, definition=definition)

    async def _subscribe(self, data: bytes, context: Any) -> AsyncIterator[bytes]:
        sent = 0
        while True:
            async with self._more:
                await self._more.wait_for(lambda: sent < len(self.held))  # noqa: B023
                batch = self.held[sent:]
            sent += len(batch)
            for signed in batch:
                yield signed

    async def _follow(self, address: str) -> None:
        """Take every entry the peer at ``address`` holds of the table, for ever (retrying)."""
        while True:
            try:
                async with grpc.aio.insecure_channel(address, options=CHANNEL_OPTIONS) as channel:
                    await channel.unary_unary(
                        f"/{SERVICE_NAME}/Hello",
                        request_serializer=peer_pb2.HelloRequest.SerializeToString,
                        response_deserializer=peer_pb2.HelloReply.FromString,
                    )(peer_pb2.HelloRequest(protocol=PROTOCOL, table_id=self.table_id), timeout=3)
                    stream = channel.unary_stream(
                        f"/{SERVICE_NAME}/Subscribe",
                        request_serializer=peer_pb2.SubscribeRequest.SerializeToString,
                        response_deserializer=bytes,
                    )(peer_pb2.SubscribeRequest(table_id=self.table_id))
                    async for signed in stream:
                        await self._add(signed)
            except grpc.aio.AioRpcError:
                await asyncio.sleep(0.2)

    async def _add(self, signed: bytes) -> None:
        if signed in self._known:
            return
        self._known.add(signed)
        async with self._more:
            self.held.append(signed)
            self._more.notify_all()


async def run(data: Path, mode: str) -> None:
    store = Store(data)
    table_id = store.setting("table")
    assert table_id is not None, f"{data} has played no table"
    old = store.entries(table_id)
    me = store.identity().public.raw
    creation = next(e for e in old if e.kind == "table" and e.seq == 0)
    definition = forged_definition(store, creation) if mode == "forged" else creation
    framer = Framer(definition, [e.signed for e in old if e.author != me])
    server = await framer.serve()
    await server.wait_for_termination()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path)
    parser.add_argument("mode", choices=MODES)
    arguments = parser.parse_args()
    asyncio.run(run(arguments.data, arguments.mode))


if __name__ == "__main__":
    main()
