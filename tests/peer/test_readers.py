"""Who may read a table's logs is a table setting: a stranger on the LAN who asks for a
seated table's logs through the wire (with its own key's proof, a forged one, or none) is
refused, as is a seated player's proof made for another peer's challenge, while the seated
peers play on; a table that admits spectators lets a watcher
follow it to the end, seeing no hand, and the watcher's record verifies FAIR; a table that
does not is not watched."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import grpc
import pytest

from condottiere.bots import GreedyBot
from condottiere.bots.player import play_seat
from condottiere.crypto import Identity
from condottiere.peer.controller import Snapshot
from condottiere.peer.links import CHANNEL_OPTIONS
from condottiere.peer.lobby import TableSpec
from condottiere.peer.node import JoinError, Node
from condottiere.peer.record import verify
from condottiere.peer.service import SERVICE_NAME, subscription_proof
from condottiere.peer.store import Store
from condottiere.v1 import peer_pb2

WAIT_SECONDS = 120.0


async def until_seated(node: Node) -> None:
    deadline = asyncio.get_running_loop().time() + WAIT_SECONDS
    while node.table is None or not node.table.seating or not node.table.lobby.closed:
        assert asyncio.get_running_loop().time() < deadline, "the table was never seated"
        await asyncio.sleep(0.05)


async def read_as(address: str, table_id: bytes, request: peer_pb2.SubscribeRequest) -> str:
    """What the peer at ``address`` answers a ``Subscribe``: ``streamed`` when it sends an
    entry, else the status's details."""
    async with grpc.aio.insecure_channel(address, options=CHANNEL_OPTIONS) as channel:
        stream = channel.unary_stream(
            f"/{SERVICE_NAME}/Subscribe",
            request_serializer=peer_pb2.SubscribeRequest.SerializeToString,
            response_deserializer=bytes,
        )(request, timeout=10)
        try:
            async for _ in stream:
                stream.cancel()
                return "streamed"
        except grpc.aio.AioRpcError as error:
            assert error.code() == grpc.StatusCode.PERMISSION_DENIED, error
            return error.details() or ""
    return "nothing"


def test_only_seated_players_read_a_table_that_admits_no_spectators(tmp_path: Path) -> None:
    async def scenario() -> dict[str, str]:
        host, guest = Node(Store(tmp_path / "host")), Node(Store(tmp_path / "guest"))
        watcher = Node(Store(tmp_path / "watcher"))
        for node in (host, guest, watcher):
            await node.start(resume=False)
        try:
            await host.host_table(TableSpec("zman-duel", 2, (), "closed", "ada", ""))
            await guest.join_table(host.address, "bob")
            await until_seated(host)
            assert host.table is not None
            table_id = host.table.table_id
            stranger = Identity.generate()
            told: dict[str, str] = {}

            challenge = host.challenge  # what the host's Hello reply gives any caller

            def request(who: Identity, proof: bytes) -> peer_pb2.SubscribeRequest:
                return peer_pb2.SubscribeRequest(table_id=table_id, subscriber=who.public.raw,
                                                 proof=proof)

            own = subscription_proof(stranger, table_id, challenge)
            told["stranger"] = await read_as(host.address, table_id, request(stranger, own))
            guest_key = guest.identity
            told["unsigned"] = await read_as(host.address, table_id, request(guest_key, b""))
            told["forged"] = await read_as(host.address, table_id, request(guest_key, own))
            elsewhere = subscription_proof(guest_key, table_id, os.urandom(len(challenge)))
            told["elsewhere"] = await read_as(host.address, table_id, request(guest_key, elsewhere))
            seated = subscription_proof(guest_key, table_id, challenge)
            told["seated"] = await read_as(host.address, table_id, request(guest_key, seated))
            with pytest.raises(JoinError, match="admits no spectators"):
                await watcher.watch_table(host.address)
            assert host.table.halt is None and not host.table.refusals
            return told
        finally:
            for node in (watcher, guest, host):
                await node.stop()
                node.store.close()

    told = asyncio.run(scenario())
    assert told["stranger"].startswith("only the seated players may follow this table")
    unproven = "the subscription is not signed by the key it names for this peer's challenge"
    assert told["unsigned"] == told["forged"] == told["elsewhere"] == unproven
    assert told["seated"] == "streamed"


def test_a_watcher_follows_a_table_that_admits_spectators_to_the_end_and_sees_no_hand(
    tmp_path: Path,
) -> None:
    async def scenario() -> tuple[list[bytes], set[int], int]:
        host, guest = Node(Store(tmp_path / "host")), Node(Store(tmp_path / "guest"))
        watcher = Node(Store(tmp_path / "watcher"))
        for node in (host, guest, watcher):
            await node.start(resume=False)
        bots: list[asyncio.Task[Snapshot]] = []
        try:
            spec = TableSpec("zman-duel", 2, (), "open", "ada", "", spectators=True)
            await host.host_table(spec)
            await watcher.watch_table(host.address)
            await guest.join_table(host.address, "bob")
            for seat, node in enumerate((host, guest)):
                playing = play_seat(node.controller, GreedyBot(seat), log=lambda _: None)
                bots.append(asyncio.create_task(playing))
            hands_seen: set[int] = set()
            deadline = asyncio.get_running_loop().time() + WAIT_SECONDS
            async for snapshot in watcher.controller.changes():
                assert snapshot.seat is None and snapshot.view is None
                game = await watcher.controller.game()
                if game is not None and game.moves_played:
                    hands_seen |= {len(game.view(seat).hand) for seat in range(2)}  # type: ignore[attr-defined]
                if snapshot.audited:
                    break
                assert asyncio.get_running_loop().time() < deadline, "the game never ended"
            table = watcher.table
            assert table is not None and table.game is not None
            entries = await watcher.call(
                lambda table: [e.signed for a in table.logs.authors for e in table.logs.log(a)]
            )
            return entries, hands_seen, table.game.moves_played
        finally:
            for bot in bots:
                bot.cancel()
            for node in (watcher, guest, host):
                await node.stop()
                node.store.close()

    entries, hands_seen, moves = asyncio.run(scenario())
    assert hands_seen == {0}, "a watcher never holds a card of any hand"
    verdict = verify(entries)
    assert moves > 0 and verdict.fair, verdict.lines()
