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


def test_a_change_is_published_before_any_later_one_even_while_a_subscriber_waits(
    tmp_path: Path,
) -> None:
    """A subscriber's stream waiting between entries must not keep an earlier call's events
    and snapshot from the controller while later calls go on (a client would show an older
    table after a newer one)."""

    async def scenario() -> None:
        node = Node(Store(tmp_path))
        await node.start(resume=False)
        try:
            await node.host_table(TableSpec("zman", 3, (), "t", "ada", ""))
            queue: asyncio.Queue[object] = asyncio.Queue()
            node.listeners.add(queue)
            stream = node.served.entries_from({}, b"", lambda: True)
            await asyncio.wait_for(anext(stream), 5)  # the creator's first entry
            waiting = asyncio.create_task(anext(stream))
            chat = asyncio.create_task(node.call(lambda table: table.chat("first")))
            await asyncio.wait_for(node.call(lambda table: None), 5)
            await chat
            assert [event.text for event in node.events][-1:] == ["ada: first"]
            # the chat's snapshot, put before its entry is announced (the later call
            # changed nothing the owner sees: it wakes no listener)
            assert queue.qsize() == 1
            assert queue.get_nowait() is node.snapshot
            chat_entry = await asyncio.wait_for(waiting, 5)
            assert node.served.holds(chat_entry)
            await stream.aclose()
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


def test_a_stream_opened_in_the_lobby_by_a_key_without_a_seat_ends_at_the_seating(
    tmp_path: Path,
) -> None:
    """A stranger's stream let in while the table filled (any key that proves itself may
    read then) ends once the table is seated and the game starts, at a table that admits no
    spectators; a seated player's stream goes on."""
    from condottiere.crypto import Identity
    from condottiere.peer.driver import MemoryKeeper, Table

    async def drain(stream: object, until: asyncio.Event) -> int:
        count = 0
        async for _ in stream:  # type: ignore[attr-defined]
            count += 1
        until.set()
        return count

    async def scenario() -> None:
        node = Node(Store(tmp_path))
        await node.start(resume=False)
        try:
            await node.host_table(TableSpec("zman-duel", 2, (), "t", "ada", ""))
            table = node.table
            assert table is not None
            stranger, friend = Identity.generate(), Identity.generate()
            ended, going = asyncio.Event(), asyncio.Event()
            strangers = asyncio.create_task(
                drain(node.entries_from({}, skip=stranger.public.raw), ended))
            friends = asyncio.create_task(
                drain(node.entries_from({}, skip=friend.public.raw), going))
            await asyncio.sleep(0.1)
            assert not ended.is_set()
            definition = table.logs.log(table.me)[0].signed
            joiner = Table.from_definition(friend, definition, MemoryKeeper())
            joiner.join("bob", "")
            for _ in range(20):  # the join, the seating, both ready: the game starts
                for entry in joiner.drain()[0]:
                    await node.call(lambda table, signed=entry.signed: table.receive(signed))
                held = await node.call(
                    lambda table: [e.signed for a in table.logs.authors for e in table.logs.log(a)])
                for signed in held:
                    joiner.receive(signed)
                if joiner.lobby.closed and table.lobby.closed:
                    break
            assert table.lobby.closed
            await asyncio.wait_for(ended.wait(), 10)
            assert await strangers >= 1
            await asyncio.sleep(0.1)
            assert not going.is_set()
            friends.cancel()
        finally:
            await node.stop()

    asyncio.run(scenario())
