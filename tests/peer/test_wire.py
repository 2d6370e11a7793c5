"""The wire under attack, over real gRPC on loopback: a short fuzz run (the full one is
``scripts/fuzz_wire.py``), the cheats that need a socket (a forged signature, an entry for
another table, oversized messages), and the limits that keep one bad peer from exhausting
another (request size, calls per connection, junk per followed peer, addresses followed)."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import grpc
import pytest

from condottiere.crypto import Identity
from condottiere.peer.entries import MAX_ENTRY_BYTES, make_entry
from condottiere.peer.limits import (
    CALL_BURST,
    JUNK_BURST,
    JUNK_PER_SECOND,
    MAX_CLAIMED,
    MAX_REQUEST_BYTES,
)
from condottiere.peer.lobby import PROTOCOL, TableSpec
from condottiere.peer.node import Node
from condottiere.peer.service import SERVICE_NAME
from condottiere.peer.store import Store
from condottiere.v1 import log_pb2, peer_pb2
from tests.peer.wire import (
    HostilePeer,
    fingerprint,
    run_fuzz,
    until,
    victim_and_mallory,
)


def test_a_short_fuzz_of_the_wire_is_refused_message_by_message_and_changes_nothing(
    tmp_path: Path,
) -> None:
    run = asyncio.run(run_fuzz(tmp_path, messages=3000, calls=300, seed=11))
    assert run.sent == 3000 and run.taken == 0
    assert run.copies == run.expected_copies
    assert sum(run.refused.values()) + run.copies == run.sent
    assert {"malformed", "bad-signature", "not-seated", "wrong-table"} <= set(run.refused)
    assert run.unchanged and run.serving and not run.faults
    assert run.calls == 300 and "answered" in run.statuses
    assert not {"UNKNOWN", "INTERNAL"} & set(run.statuses)
    assert run.max_inbox <= 1024


async def _hostile_table(root: Path) -> tuple[Node, HostilePeer, str]:
    victim, mallory = await victim_and_mallory(root)
    address, hello = mallory.address, mallory.hello_reply()
    await mallory.stop()
    mallory.store.close()
    hostile = HostilePeer(address, hello)
    await hostile.start()
    await until(lambda: hostile.subscribers > 0, 20, "the victim following Mallory again")
    return victim, hostile, address


async def _close(victim: Node, hostile: HostilePeer) -> None:
    await hostile.stop()
    await victim.stop()
    victim.store.close()


def test_forged_foreign_and_oversized_entries_from_a_followed_peer_are_refused_by_reason(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        victim, hostile, address = await _hostile_table(tmp_path)
        table = victim.table
        assert table is not None
        before = fingerprint(victim)
        own = table.logs.log(table.me)
        forged = log_pb2.SignedEntry.FromString(
            make_entry(Identity.generate(), table.table_id, len(own), own[-1].hash, step=0,
                       heads=(), body=log_pb2.Chat(text="I resign")).signed
        )
        envelope = log_pb2.SignedEntry(
            entry=log_pb2.Entry.FromString(forged.entry).SerializeToString(),
            signature=forged.signature,
        )
        claimed = log_pb2.Entry.FromString(envelope.entry)
        claimed.author = table.me  # in the victim's own name, signed by someone else
        envelope.entry = claimed.SerializeToString()
        elsewhere = make_entry(Identity.generate(), os.urandom(32), 0, b"", step=0, heads=(),
                               body=log_pb2.Chat(text="another table"))
        too_large = elsewhere.signed + bytes(MAX_ENTRY_BYTES)
        for message in (envelope.SerializeToString(), elsewhere.signed, too_large):
            await hostile.send(message)
        await until(lambda: sum(victim.wire.refused.values()) >= 3, 20, "three refusals")
        assert dict(victim.wire.refused) == {"bad-signature": 1, "wrong-table": 1, "too-large": 1}
        assert [a for a, _ in victim.wire.recent] == [address] * 3
        assert fingerprint(victim) == before and table.halt is None and not table.refusals
        await _close(victim, hostile)

    asyncio.run(scenario())


def test_a_message_too_large_for_the_wire_breaks_only_that_stream_and_the_link_comes_back(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        victim, hostile, address = await _hostile_table(tmp_path)
        before = fingerprint(victim)
        await hostile.send(bytes(2 * MAX_ENTRY_BYTES))
        await until(lambda: "larger than max" in victim.link_errors.get(address, ""), 20,
                    "the oversized message refused")
        await until(lambda: hostile.subscribers > 0, 20, "the link coming back")
        await hostile.send(b"junk")
        await until(lambda: victim.wire.refused["malformed"] == 1, 20, "the next message read")
        assert fingerprint(victim) == before
        await _close(victim, hostile)

    asyncio.run(scenario())


def test_a_peer_that_sends_junk_is_read_no_faster_than_its_junk_allowance(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        victim, hostile, _ = await _hostile_table(tmp_path)
        extra = 3000
        count = int(JUNK_BURST) + extra
        started = time.monotonic()
        for index in range(count):
            await hostile.send(b"junk %d" % index)
        await until(lambda: victim.wire.refused["malformed"] >= count, 60, "the junk read")
        # The reader sleeps off its debt before its next read, so the last batch of junk may
        # be read ahead of its allowance: most of the extra, not all, is paced.
        assert time.monotonic() - started >= 0.75 * extra / JUNK_PER_SECOND
        await _close(victim, hostile)

    asyncio.run(scenario())


async def _raw_call(channel: grpc.aio.Channel, method: str, data: bytes) -> grpc.StatusCode:
    try:
        await channel.unary_unary(f"/{SERVICE_NAME}/{method}")(data, timeout=5)
    except grpc.aio.AioRpcError as error:
        return error.code()
    return grpc.StatusCode.OK


def test_requests_that_are_too_large_malformed_or_too_fast_are_refused_and_others_served(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        node = Node(Store(tmp_path / "peer"))
        await node.start()
        await node.host_table(TableSpec("zman-duel", 2, (), "t", "ada", ""))
        hello = peer_pb2.HelloRequest(protocol=PROTOCOL).SerializeToString()
        fresh = [("grpc.use_local_subchannel_pool", 1)]
        async with grpc.aio.insecure_channel(node.address, options=fresh) as channel:
            big = bytes(MAX_REQUEST_BYTES + 1)
            assert await _raw_call(channel, "Hello", big) == grpc.StatusCode.RESOURCE_EXHAUSTED
            bad = b"\xff\xff\xff"
            assert await _raw_call(channel, "Hello", bad) == grpc.StatusCode.INVALID_ARGUMENT
            # Bursts at once, so that the bucket cannot refill between calls on a slow machine.
            statuses: list[grpc.StatusCode] = []
            for _ in range(10):
                burst = [_raw_call(channel, "Hello", hello) for _ in range(int(CALL_BURST))]
                statuses += await asyncio.gather(*burst)
                if grpc.StatusCode.RESOURCE_EXHAUSTED in statuses:
                    break
            assert grpc.StatusCode.RESOURCE_EXHAUSTED in statuses
        async with grpc.aio.insecure_channel(node.address, options=fresh) as other:
            assert await _raw_call(other, "Hello", hello) == grpc.StatusCode.OK
        await node.stop()
        node.store.close()

    asyncio.run(scenario())


@pytest.mark.parametrize("seated", [False, True], ids=["lobby", "seated"])
def test_addresses_claimed_by_callers_are_followed_only_within_bounds(
    tmp_path: Path, seated: bool
) -> None:
    async def scenario() -> None:
        if seated:
            node, mallory = await victim_and_mallory(tmp_path)
            await mallory.stop()
            mallory.store.close()
        else:
            node = Node(Store(tmp_path / "peer"))
            await node.start()
            await node.host_table(TableSpec("zman", 3, (), "t", "ada", ""))
        followed = len(node.links._followed)
        fresh = [("grpc.use_local_subchannel_pool", 1)]
        for port in range(1000, 1000 + 2 * MAX_CLAIMED):
            request = peer_pb2.HelloRequest(
                protocol=PROTOCOL, author=os.urandom(32), address=f"127.0.0.1:{port}"
            ).SerializeToString()
            async with grpc.aio.insecure_channel(node.address, options=fresh) as channel:
                assert await _raw_call(channel, "Hello", request) == grpc.StatusCode.OK
        added = len(node.links._followed) - followed
        assert added == (0 if seated else MAX_CLAIMED)
        await node.stop()
        node.store.close()

    asyncio.run(scenario())
