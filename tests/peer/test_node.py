"""The node's publication of what its table did: in the order the table did it."""

from __future__ import annotations

import asyncio
from pathlib import Path

from condottiere.peer.lobby import TableSpec
from condottiere.peer.node import Node
from condottiere.peer.store import Store


def test_a_change_is_published_before_any_later_one_even_while_subscribers_hold_the_lock(
    tmp_path: Path,
) -> None:
    """A subscriber stream holding the node's lock must not let a later call's snapshot reach
    the controller before an earlier call's events and snapshot (a client would show an
    older table after a newer one)."""

    async def scenario() -> None:
        node = Node(Store(tmp_path))
        await node.start(resume=False)
        try:
            await node.host_table(TableSpec("zman", 3, (), "t", "ada", ""))
            queue: asyncio.Queue[object] = asyncio.Queue()
            node.listeners.add(queue)
            async with node._changed:  # what a subscriber's stream does between entries
                chat = asyncio.create_task(node.call(lambda table: table.chat("first")))
                await asyncio.sleep(0.05)
                await asyncio.wait_for(node.call(lambda table: None), 5)
                assert [event.text for event in node.events][-1:] == ["ada: first"]
                assert queue.qsize() == 2  # the chat's snapshot, then the later call's
            await chat
        finally:
            await node.stop()

    asyncio.run(scenario())
