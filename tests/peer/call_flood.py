"""A stranger that floods a peer's port with calls over many connections, as a program of
its own (``python -m tests.peer.call_flood ADDRESS CONNECTIONS CALLS``), for
``test_strangers.py``: it opens ``CONNECTIONS`` connections and makes ``CALLS`` ``Hello``
calls on each, all at once, and prints one JSON line counting how the calls ended (status
name and details).

Nothing here is shipped.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections import Counter

import grpc

from condottiere.peer.lobby import PROTOCOL
from condottiere.peer.service import SERVICE_NAME
from condottiere.v1 import peer_pb2
from tests.peer.strangers import FRESH


async def flood(address: str, connections: int, calls: int) -> Counter[str]:
    ends: Counter[str] = Counter()
    channels = [grpc.aio.insecure_channel(address, options=FRESH) for _ in range(connections)]
    try:
        for channel in channels:
            await asyncio.wait_for(channel.channel_ready(), 10)
        request = peer_pb2.HelloRequest(protocol=PROTOCOL)

        async def call(channel: grpc.aio.Channel) -> None:
            try:
                await channel.unary_unary(
                    f"/{SERVICE_NAME}/Hello",
                    request_serializer=peer_pb2.HelloRequest.SerializeToString,
                    response_deserializer=peer_pb2.HelloReply.FromString,
                )(request, timeout=10)
                ends["OK"] += 1
            except grpc.aio.AioRpcError as error:
                ends[f"{error.code().name}: {error.details()}"] += 1

        await asyncio.gather(*(call(channel) for channel in channels for _ in range(calls)))
    finally:
        for channel in channels:
            await channel.close()
    return ends


if __name__ == "__main__":
    counted = asyncio.run(flood(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
    print(json.dumps(dict(counted)), flush=True)
