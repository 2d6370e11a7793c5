"""The controller service, over gRPC on loopback: only the data directory's token opens it, it
shows the seat exactly what the seat may see, and its calls do what the in-process controller
does. Two nodes play in this process, each with its own store, server and controller service;
the guest's seat is played by a greedy bot through the in-process controller."""

from __future__ import annotations

import asyncio
import stat
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import grpc
import pytest

from condottiere.bots import GreedyBot
from condottiere.bots.player import play_seat
from condottiere.games.captains import view_pb2 as captains_pb2
from condottiere.games.condottiere import view_pb2 as condottiere_pb2
from condottiere.peer.access import TOKEN_FILE
from condottiere.peer.controller import Snapshot
from condottiere.peer.controller_service import ADDRESS_FILE
from condottiere.peer.lobby import TableSpec
from condottiere.peer.node import Node
from condottiere.peer.store import Store
from condottiere.v1 import controller_pb2, controller_pb2_grpc

T = TypeVar("T")
SECONDS = 60.0
"""The bound on every wait of these tests."""
Metadata = tuple[tuple[str, str], ...]
EVENT_KINDS = {
    *("join", "seated", "ready", "freed", "shuffle", "deal", "coin", "chat", "leave", "refused"),
    *("halt", "over", "audit", "move", "result", "change"),
}
"""The kinds of events ``controller.proto`` documents."""


@dataclass
class Table:
    """A two-seat table: the host's seat is driven over gRPC, the guest's by a greedy bot."""

    host: Node
    guest: Node
    guest_bot: asyncio.Task[Snapshot]
    channel: grpc.aio.Channel
    stub: controller_pb2_grpc.ControllerAsyncStub
    owner: Metadata


def bearer(directory: Path) -> Metadata:
    return (("authorization", f"Bearer {(directory / TOKEN_FILE).read_text().strip()}"),)


async def bounded(awaitable: Awaitable[T]) -> T:
    return await asyncio.wait_for(awaitable, SECONDS)


@asynccontextmanager
async def two_seats(
    root: Path, edition: str = "zman-duel", game: str = "condottiere"
) -> AsyncIterator[Table]:
    stores = [Store(root / "host"), Store(root / "guest")]
    host, guest = (Node(store) for store in stores)
    guest_bot: asyncio.Task[Snapshot] | None = None
    try:
        await host.start()
        await guest.start()
        await host.host_table(TableSpec(edition, 2, (), "test", "ada", "", game=game))
        await guest.join_table(host.address, "bob")
        guest_bot = asyncio.create_task(
            play_seat(guest.controller, GreedyBot(seed=1), log=lambda _: None)
        )
        async with grpc.aio.insecure_channel(host.controller_server.address) as channel:
            yield Table(
                host,
                guest,
                guest_bot,
                channel,
                controller_pb2_grpc.ControllerStub(channel),  # type: ignore[arg-type]
                bearer(root / "host"),
            )
    finally:
        if guest_bot is not None:
            guest_bot.cancel()
        for node in (host, guest):
            await node.stop()
        for store in stores:
            store.close()


async def first_turn(table: Table) -> controller_pb2.Update:
    """The host's first update where it must move (the stream is left open by the caller)."""
    async for update in table.stub.Watch(controller_pb2.WatchRequest(), metadata=table.owner):
        if update.my_turn:
            return update
    raise AssertionError("the stream ended before the host's turn")


def test_the_controller_listens_on_loopback_and_keeps_its_token_owner_only(
    tmp_path: Path,
) -> None:
    async def check() -> None:
        async with two_seats(tmp_path) as table:
            host, port = table.host.controller_server.address.split(":")
            assert host == "127.0.0.1"
            assert int(port) != table.host.port
            assert (tmp_path / "host" / ADDRESS_FILE).read_text().strip() == f"{host}:{port}"
            assert stat.S_IMODE((tmp_path / "host" / TOKEN_FILE).stat().st_mode) == 0o600
            assert stat.S_IMODE((tmp_path / "host").stat().st_mode) == 0o700
        assert not (tmp_path / "host" / ADDRESS_FILE).exists()

    asyncio.run(check())


@pytest.mark.parametrize(
    "credentials",
    ["none", "another data directory's token", "the token without Bearer", "an empty token"],
)
def test_the_controller_refuses_every_call_without_the_data_directorys_token(
    tmp_path: Path, credentials: str
) -> None:
    async def check() -> None:
        async with two_seats(tmp_path) as table:
            token = (tmp_path / "host" / TOKEN_FILE).read_text().strip()
            metadata: Metadata = {
                "none": (),
                "another data directory's token": bearer(tmp_path / "guest"),
                "the token without Bearer": (("authorization", token),),
                "an empty token": (("authorization", "Bearer "),),
            }[credentials]
            calls = {
                "Watch": lambda: _first(table.stub.Watch(controller_pb2.WatchRequest(),
                                                         metadata=metadata)),
                "Submit": lambda: table.stub.Submit(controller_pb2.SubmitRequest(move="pass"),
                                                   metadata=metadata),
                "Chat": lambda: table.stub.Chat(controller_pb2.ChatRequest(text="hi"),
                                               metadata=metadata),
                "Leave": lambda: table.stub.Leave(controller_pb2.LeaveRequest(),
                                                 metadata=metadata),
            }
            for name, call in calls.items():
                with pytest.raises(grpc.aio.AioRpcError) as refused:
                    await bounded(call())
                assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED, name
                assert "token" in (refused.value.details() or ""), name
            snapshot = table.host.snapshot
            assert snapshot is not None and snapshot.halt is None
            assert not any(event.kind in ("chat", "leave") for event in table.host.events)

    asyncio.run(check())


async def _first(stream: AsyncIterator[controller_pb2.Update]) -> controller_pb2.Update:
    async for update in stream:
        return update
    raise AssertionError("the stream ended at once")


def test_a_seat_is_shown_its_own_hand_the_public_state_and_its_legal_moves(
    tmp_path: Path,
) -> None:
    async def check() -> None:
        async with two_seats(tmp_path, "zman") as table:
            update = await bounded(first_turn(table))
            game = await table.host.controller.game()
            assert game is not None
            view = game.view(0)
            assert update.controller == controller_pb2.CONTROLLER_VERSION_CURRENT == 3
            assert update.game == "condottiere" and update.edition == "zman"
            assert update.seat == 0 and update.stage == "playing"
            assert [p.name for p in update.players] == ["ada", "bob"]
            assert update.waiting.kind == "move" and list(update.waiting.seats) == [0]
            assert list(update.view.legal_moves) == [str(m) for m in view.legal_moves]
            assert update.view.phase == view.phase and update.view.to_act == 0
            mine = condottiere_pb2.CondottiereView()
            assert update.view.detail.Unpack(mine), update.view.detail.type_url
            assert list(mine.hand) == list(view.hand)
            assert [row.hand_size for row in mine.rows] == list(view.hand_sizes)
            assert dict(mine.control) == dict(view.control)
            assert mine.battle_marker == view.battle_marker
            for seat, row in enumerate(mine.rows):
                assert list(row.cards) == list(view.rows[seat])
                assert row.strength == view.strengths[seat] == row.breakdown[-1].total
            assert not update.HasField("outcome")

    asyncio.run(check())


def test_a_captains_seat_is_shown_its_table_typed_in_view_detail_and_plays_over_grpc(
    tmp_path: Path,
) -> None:
    async def check() -> None:
        async with two_seats(tmp_path, "standard", "captains") as table:
            update = await bounded(first_turn(table))
            assert update.game == "captains" and update.edition == "standard"
            assert update.view.phase == "city"
            mine = captains_pb2.CaptainsView()
            assert update.view.detail.Unpack(mine), update.view.detail.type_url
            assert len(mine.seats) == 2 and mine.active == -1 and mine.turns_each == 10
            assert all(move.startswith("city ") for move in update.view.legal_moves)
            city = update.view.legal_moves[-1].split()[1]
            reply = await table.stub.Submit(
                controller_pb2.SubmitRequest(move=f"city {city}"), metadata=table.owner
            )
            assert reply.applied, reply.reason
            seat = update.seat

            async def picked() -> captains_pb2.CaptainsSeat:
                watch = table.stub.Watch(controller_pb2.WatchRequest(), metadata=table.owner)
                async for later in watch:
                    table_now = captains_pb2.CaptainsView()
                    later.view.detail.Unpack(table_now)
                    if table_now.seats and table_now.seats[seat].city:
                        return table_now.seats[seat]
                raise AssertionError("the stream ended before the city state was taken")

            mine_now = await bounded(picked())
            assert mine_now.city == city and mine_now.provinces >= 5 and mine_now.ducats >= 10

    asyncio.run(check())


def test_submit_answers_the_engines_reason_and_changes_nothing_then_plays_a_legal_move(
    tmp_path: Path,
) -> None:
    async def check() -> None:
        async with two_seats(tmp_path) as table:
            update = await bounded(first_turn(table))
            for wrong in ("fly to the moon", "play 99", "battle Atlantis", ""):
                reply = await table.stub.Submit(
                    controller_pb2.SubmitRequest(move=wrong), metadata=table.owner
                )
                assert not reply.applied and reply.reason, wrong
            snapshot = table.host.snapshot
            assert snapshot is not None and snapshot.step == update.step and snapshot.my_turn
            legal = update.view.legal_moves[0]
            reply = await table.stub.Submit(
                controller_pb2.SubmitRequest(move=legal), metadata=table.owner
            )
            assert reply.applied and not reply.reason

    asyncio.run(check())


def test_a_seat_driven_over_grpc_plays_a_whole_game_and_every_event_arrives_once(
    tmp_path: Path,
) -> None:
    async def play() -> tuple[list[controller_pb2.Update], list[str]]:
        async with two_seats(tmp_path) as table:
            updates = []
            answered = -1
            watch = table.stub.Watch(controller_pb2.WatchRequest(), metadata=table.owner)
            async for update in watch:
                updates.append(update)
                if update.my_turn and update.step != answered:  # once per step, as documented
                    answered = update.step
                    moves = update.view.legal_moves
                    move = "pass" if "pass" in moves else moves[-1]
                    reply = await table.stub.Submit(
                        controller_pb2.SubmitRequest(move=move), metadata=table.owner
                    )
                    assert reply.applied, reply.reason
            await bounded(table.guest_bot)
            return updates, [event.text for event in table.host.events]

    updates, events = asyncio.run(bounded(play()))
    last = updates[-1]
    assert last.stage == "over" and last.audited and last.record_hash
    assert not last.HasField("halt") and last.view.phase == "over"
    assert last.outcome.kind in ("victory", "shared") and list(last.outcome.winners)
    assert last.outcome.how
    assert not any(update.HasField("outcome") for update in updates if update.stage != "over")
    assert [event.text for update in updates for event in update.events] == events
    kinds = {event.kind for update in updates for event in update.events}
    assert {"move", "result"} <= kinds <= EVENT_KINDS
    assert any(update.HasField("progress") for update in updates)


def test_chat_reaches_the_table_and_a_line_too_long_is_refused(tmp_path: Path) -> None:
    async def check() -> None:
        async with two_seats(tmp_path) as table:
            await bounded(first_turn(table))
            hello = controller_pb2.ChatRequest(text="good luck")
            await table.stub.Chat(hello, metadata=table.owner)
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await table.stub.Chat(
                    controller_pb2.ChatRequest(text="x" * 10_000), metadata=table.owner
                )
            assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            assert "chat line" in (refused.value.details() or "")
            deadline = asyncio.get_running_loop().time() + SECONDS
            while not any("good luck" in e.text for e in table.guest.events):
                assert asyncio.get_running_loop().time() < deadline, "the chat never arrived"
                await asyncio.sleep(0.05)
            chats = [e.text for e in table.host.events if e.kind == "chat"]
            assert chats == ["seat 0 (ada): good luck"]

    asyncio.run(check())


def test_leave_ends_a_two_seat_game_by_forfeit_and_ends_the_watch(tmp_path: Path) -> None:
    async def check() -> list[controller_pb2.Update]:
        async with two_seats(tmp_path) as table:
            await bounded(first_turn(table))
            await table.stub.Leave(controller_pb2.LeaveRequest(reason="bedtime"),
                                   metadata=table.owner)
            watch = table.stub.Watch(controller_pb2.WatchRequest(), metadata=table.owner)
            return [update async for update in watch]

    updates = asyncio.run(bounded(check()))
    last = updates[-1]
    assert last.stage == "over" and list(last.outcome.winners) == [1]
    assert "forfeit" in last.outcome.how
    left = [e for u in updates for e in u.events if e.kind == "leave"]
    assert any("ada has left" in e.text and "bedtime" in e.text for e in left), left
