"""A joiner whose owner never says ready, for tests: a real peer (its own key, store and
port on loopback) that asks for a seat, takes every entry in and states silent whom it waits
for, as any peer does, but never publishes its ``Ready``. It prints every table event, then
why its table stopped, and exits.

Run as ``python -m tests.peer.unready_joiner ADDRESS DATA``. Nothing here is shipped."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from condottiere.cli.settle import settle
from condottiere.peer.controller import Snapshot
from condottiere.peer.node import Node
from condottiere.peer.store import Store


async def main(address: str, data: Path) -> None:
    node = Node(Store(data, command="an unready joiner"), auto_ready=False)
    await node.start(resume=False)
    print(f"listening on {node.address}", flush=True)
    changes: asyncio.Queue[Snapshot] = asyncio.Queue()
    node.listeners.add(changes)
    try:
        await node.join_table(address, "idle")
        print(f"your key's fingerprint: {node.identity.public.fingerprint()}", flush=True)
        told = 0
        while True:
            snapshot = await changes.get()
            for event in node.events[told:]:
                print(event.text, flush=True)
            told = len(node.events)
            if snapshot.halt is not None:
                print(f"stopped: {snapshot.halt.detail}", flush=True)
                return
    finally:
        await node.stop()
        await settle()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], Path(sys.argv[2])))
