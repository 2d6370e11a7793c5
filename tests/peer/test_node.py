"""The node: it publishes what its table did in the order the table did it; and what it
serves through (the controller, its gRPC service, the ``Peer`` service) knows it only by a
protocol of its own, never by importing it, and knows no game but through the game
interface."""

from __future__ import annotations

import ast
import asyncio
import importlib.util
from pathlib import Path

import pytest

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


ADAPTERS = (
    "condottiere.peer.controller",
    "condottiere.peer.controller_service",
    "condottiere.peer.service",
)


def imported_by(module: str) -> set[str]:
    """Every module ``module``'s source imports from, wherever it does (``TYPE_CHECKING``
    blocks included)."""
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin is not None
    tree = ast.parse(Path(spec.origin).read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            names.add(node.module)
    return names


@pytest.mark.parametrize("module", ADAPTERS)
def test_what_the_node_serves_through_does_not_import_the_node_nor_a_game(module: str) -> None:
    imported = imported_by(module)
    assert "condottiere.peer.node" not in imported
    games = {name for name in imported if name.startswith("condottiere.interface")}
    assert games <= {"condottiere.interface"}, games
