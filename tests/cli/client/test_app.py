"""The client application over a real table: two peers in this process (loopback gRPC), a
greedy bot on the other seat, and keys sent through prompt_toolkit's pipe input."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput

from condottiere.bots import GreedyBot
from condottiere.bots.player import play_seat
from condottiere.cli.client.app import ClientApp, Outcome
from condottiere.cli.client.model import TableModel
from condottiere.cli.client.views import plain, rows_lines
from condottiere.peer.controller import Snapshot
from condottiere.peer.lobby import TableSpec
from condottiere.peer.node import Node
from condottiere.peer.store import Store
from tests.cli.client.screen import draw

WAIT_SECONDS = 120.0


@dataclass
class Duel:
    """This client hosting seat 0 of a duel; a greedy bot peer playing seat 1."""

    client: ClientApp
    pipe: PipeInput
    host: Node
    guest: Node
    bot: asyncio.Task[Snapshot]


@asynccontextmanager
async def duel(root: Path) -> AsyncIterator[Duel]:
    host, guest = Node(Store(root / "host")), Node(Store(root / "guest"))
    await host.start(resume=False)
    await guest.start(resume=False)
    bot: asyncio.Task[Snapshot] | None = None
    try:
        await host.host_table(TableSpec("zman-duel", 2, (), "test", "ada", ""))
        await guest.join_table(host.address, "bob")
        bot = asyncio.create_task(play_seat(guest.controller, GreedyBot(1), log=lambda _: None))
        with create_pipe_input() as pipe:
            client = ClientApp(host.controller, TableModel(), input=pipe, output=DummyOutput())
            yield Duel(client, pipe, host, guest, bot)
    finally:
        if bot is not None:
            bot.cancel()
        await guest.stop()
        await host.stop()


async def until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while not condition():
        assert time.monotonic() < deadline, f"still waiting for {what}"
        await asyncio.sleep(0.02)


def my_turn(model: TableModel) -> bool:
    return model.snapshot is not None and model.snapshot.my_turn and model.view is not None


def test_keys_play_a_card_an_illegal_line_shows_the_reason_and_ctrl_c_stops(
    tmp_path: Path,
) -> None:
    async def scenario() -> Outcome:
        async with duel(tmp_path) as table:
            client, pipe, model = table.client, table.pipe, table.client.model
            running = asyncio.create_task(client.run())
            await until(lambda: my_turn(model), "seat 0's turn")
            assert model.view is not None
            played = model.view.hand_sizes[0]

            pipe.send_text("play 7\r")
            await until(lambda: model.message is not None, "the refusal")
            assert model.message is not None and model.message.error
            assert model.message.text == "refused: there is no card called '7'"
            assert client.line.text == "play 7"  # kept, to be corrected
            assert model.view.hand_sizes[0] == played  # nothing changed
            screen = "\n".join(draw(client.application))
            assert "refused: there is no card called '7'" in screen
            assert "Your turn" in screen.splitlines()[0]

            client.line.reset()
            pipe.send_text("pa")
            await until(lambda: client.line.complete_state is not None, "the menu of one move")
            pipe.send_text("\t")
            await until(lambda: client.line.text == "pass", "Tab completing the one move left")
            await until(lambda: client.line.complete_state is None, "the menu closed")
            client.line.reset()
            pipe.send_text("1")
            await until(lambda: client.line.text.startswith("play "), "the first card chosen")
            chosen = client.line.text
            assert chosen == model.choices().numbered[0]
            pipe.send_text("\r")
            mine = "seat 0 (ada) plays "
            await until(lambda: any(e.text.startswith(mine) for e in model.events), "the play")
            assert model.message is None and client.line.text == ""
            assert model.suggestion() is None  # nothing left for Enter to play again

            pipe.send_text("\x03")  # Ctrl-C
            return await asyncio.wait_for(running, WAIT_SECONDS)

    assert asyncio.run(scenario()) is Outcome.STOPPED


def test_a_chat_line_reaches_the_log_and_why_explains_a_row(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with duel(tmp_path) as table:
            client, pipe, model = table.client, table.pipe, table.client.model
            running = asyncio.create_task(client.run())
            await until(lambda: model.view is not None, "the deal")
            pipe.send_text("\x14")  # Ctrl-T
            await until(lambda: client.line.text == "say ", "the chat line")
            pipe.send_text("good luck\r")
            await until(lambda: any(e.kind == "chat" for e in model.events), "the chat")
            assert any(line.text == "ada: good luck" for line in model.log())
            pipe.send_text("why 1\r")
            await until(lambda: model.why == 1, "the breakdown")
            pipe.send_text("why 5\r")
            await until(lambda: model.message is not None, "the refusal")
            assert model.message is not None and model.message.text == "there is no seat 5"
            assert client.line.text == "why 5"  # put back, to be corrected
            client.line.reset()
            pipe.send_text("quit\r")
            assert await asyncio.wait_for(running, WAIT_SECONDS) is Outcome.STOPPED

    asyncio.run(scenario())


def test_a_client_waiting_for_its_player_leaves_the_peer_idle(tmp_path: Path) -> None:
    """Following the table must not make the table publish again and again (each fetch of
    the seat's engine is a call on the table)."""

    async def scenario() -> int:
        async with duel(tmp_path) as table:
            client = table.client
            running = asyncio.create_task(client.run())
            await until(lambda: my_turn(client.model), "seat 0's turn")
            await asyncio.sleep(0.2)
            published: asyncio.Queue[Snapshot] = asyncio.Queue()
            table.host.listeners.add(published)
            await asyncio.sleep(1.0)
            client.stop()
            await running
            return published.qsize()

    assert asyncio.run(scenario()) <= 2


def test_a_seat_whose_peer_is_gone_is_shown_as_waited_for_with_the_reason(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with duel(tmp_path) as table:
            client, model = table.client, table.client.model
            running = asyncio.create_task(client.run())
            await until(lambda: my_turn(model), "seat 0's turn")
            table.bot.cancel()
            assert await client.controller.submit(model.choices().moves[0]) is None
            await until(lambda: model.banner().headline.startswith("Bob is playing"), "bob")
            assert not model.banner().detail.startswith("No link")
            await table.guest.stop()
            await until(
                lambda: model.banner().detail.startswith("No link to bob's peer"), "the loss"
            )
            assert model.banner().headline.startswith("Bob is playing")
            bob = model.seat(1)
            assert bob is not None and bob.name == "bob" and bob.link is not None
            rows = plain(rows_lines(model, 40, 8)).splitlines()
            assert any("B bob" in row and row.endswith(" no link") for row in rows)
            client.stop()
            await running

    asyncio.run(scenario())


def test_a_refused_line_is_replaced_by_what_is_typed_next_and_enter_leaves_no_menu(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        async with duel(tmp_path) as table:
            client, pipe, model = table.client, table.pipe, table.client.model
            running = asyncio.create_task(client.run())
            await until(lambda: my_turn(model) and "pass" in model.choices().moves, "a battle")
            pipe.send_text("play 7\r")
            await until(lambda: client.line.text == "play 7", "the refused line put back")
            pipe.send_text("why 1")
            await until(lambda: client.line.text == "why 1", "the line replaced")
            pipe.send_text("\r")
            await until(lambda: model.why == 1, "the breakdown")
            pipe.send_text("play 7\r")
            await until(lambda: client.line.text == "play 7", "the refused line put back")
            pipe.send_text("\x7f" + "1")  # Backspace edits it instead
            await until(lambda: client.line.text == "play 1", "the line edited")
            client.line.reset()
            pipe.send_text("pa")
            await until(lambda: client.line.complete_state is not None, "the menu of moves")
            pipe.send_text("ss\r")
            await until(lambda: any(e.text == "seat 0 (ada) passes" for e in model.events)
                        or not my_turn(model), "the pass")
            assert client.line.complete_state is None and client.line.text == ""
            client.stop()
            await running

    asyncio.run(scenario())


def test_the_creator_refuses_one_of_two_bobs_with_the_keys_and_admits_the_other_by_name(
    tmp_path: Path,
) -> None:
    """ada's two-seat table is not open: two players called bob ask for a seat. Naming
    'bob' is refused (two joiners are called so) and nothing changes; the keys pick the
    first and refuse him; 'admit bob' then names one joiner and seats him: the deal begins."""

    async def scenario() -> None:
        host = Node(Store(tmp_path / "host"), open_seating=False)
        guests = [Node(Store(tmp_path / f"bob{n}")) for n in (1, 2)]
        for node in (host, *guests):
            await node.start(resume=False)
        try:
            await host.host_table(TableSpec("zman", 2, (), "Friday", "ada", ""))
            with create_pipe_input() as pipe:
                model = TableModel()
                client = ClientApp(host.controller, model, input=pipe, output=DummyOutput())
                running = asyncio.create_task(client.run())
                for guest in guests:
                    await guest.join_table(host.address, "bob")
                await until(lambda: len(model.asking()) == 2, "two bobs asking")
                # in the order the host heard them ask
                first, second = (row.fingerprint for row in model.asking())
                assert {first, second} == {g.identity.public.fingerprint() for g in guests}
                screen = "\n".join(draw(client.application))
                assert screen.count("asks for a seat") >= 2 and first in screen

                pipe.send_text("admit bob\r")
                await until(lambda: model.message is not None, "the refusal")
                assert model.message is not None and model.message.error
                assert model.message.text == (
                    "cannot admit bob: 2 joiners are called 'bob': name one by its fingerprint")
                assert client.line.text == "admit bob" and len(model.asking()) == 2
                assert host.pending_joiners() == [("bob", first), ("bob", second)]

                client.line.reset()
                pipe.send_text("\x1b[B")  # ↓: the first who asks
                await until(lambda: client.line.text == f"admit {first}", "the first picked")
                pipe.send_text("\x1b[C")  # →: refuse instead
                await until(lambda: client.line.text == f"refuse {first}", "the refusal picked")
                pipe.send_text("\r")
                await until(lambda: len(model.asking()) == 1, "the first bob refused")
                assert any(f"You refused bob ({first}) a seat" in line.text
                           for line in model.log())

                pipe.send_text("admit bob\r")
                await until(lambda: model.snapshot is not None and model.snapshot.seat == 0,
                            "the table seated")
                assert model.snapshot is not None
                seated = [(p.seat, p.fingerprint) for p in model.snapshot.players]
                assert seated == [(0, host.identity.public.fingerprint()), (1, second)]
                assert any(f"You admitted bob ({second})" in line.text for line in model.log())
                assert model.message is None
                pipe.send_text("\x03")
                assert await asyncio.wait_for(running, WAIT_SECONDS) is Outcome.STOPPED
        finally:
            for node in (*guests, host):
                await node.stop()

    asyncio.run(scenario())
