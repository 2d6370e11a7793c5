"""What a new user meets at a LAN party before the game: a damaged data directory named with
what to do, ``--new`` asking before it throws a game under way away, a controller port given
to ``join`` by mistake, and a bot's strategy failing told on the host's screen."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest

from condottiere.cli.arguments import confirm_new
from condottiere.cli.bot_peers import TROUBLE, TROUBLES_TOLD, BotPeers
from condottiere.cli.main import main
from condottiere.peer.lobby import TableSpec
from condottiere.peer.node import JoinError, Node
from condottiere.peer.store import DATABASE, DamagedStore, Store


def damaged(data: Path) -> Path:
    """A data directory whose store was written, then had its pages overwritten."""
    store = Store(data)
    store.identity()
    store.close()
    database = data / DATABASE
    content = bytearray(database.read_bytes())
    content[100:] = b"\xde\xad" * ((len(content) - 100) // 2)
    database.write_bytes(bytes(content))
    return data


@pytest.mark.parametrize("command", [["host"], ["join", "127.0.0.1:1"], ["export"]])
def test_a_damaged_store_is_named_with_what_to_do(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: list[str]
) -> None:
    data = damaged(tmp_path / "data")
    status = main([*command, "--data", str(data),
                   *(["--interface", "127.0.0.1"] if command[0] != "export" else [])])
    error = capsys.readouterr().err
    assert status in (1, 2)
    assert f"the peer's data in {data / DATABASE} is damaged" in error
    assert f"mv {data} {data}.damaged" in error and "backup" in error
    assert "Traceback" not in error
    with pytest.raises(DamagedStore):  # and the lock was let go: the same refusal again
        Store(data)


def test_a_file_that_is_no_store_at_all_is_refused_as_damaged(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / DATABASE).write_text("my shopping list\n" * 100)
    with pytest.raises(DamagedStore, match="is damaged"):
        Store(tmp_path / "data")


def test_export_with_no_data_directory_takes_the_default_one_that_holds_a_table(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CONDOTTIERE_HOME", str(tmp_path))
    assert main(["export"]) == 1
    assert "no table in the default data directories" in capsys.readouterr().err

    async def host() -> str:
        node = Node(Store(tmp_path / "play"))
        await node.start(resume=False)
        try:
            await node.host_table(TableSpec("zman", 3, (), "Friday", "ada", ""))
            assert node.table is not None
            return node.table.table_id.hex()
        finally:
            await node.stop()
            node.store.close()

    table = asyncio.run(host())
    Store(tmp_path / "host").close()  # a data directory with no table is passed over
    output = tmp_path / "friday.cdr"
    assert main(["export", "--output", str(output)]) == 0
    said = capsys.readouterr()
    assert f"the table of {tmp_path / 'play'}" in said.err
    assert said.out.startswith("wrote 1 entries to ")
    assert output.exists() and table


def test_new_asks_before_it_gives_up_a_game_under_way(tmp_path: Path) -> None:
    async def host() -> None:
        node = Node(Store(tmp_path / "data"))
        await node.start(resume=False)
        try:
            await node.host_table(TableSpec("zman", 3, (), "Friday", "ada", ""))
        finally:
            await node.stop()
            node.store.close()

    asyncio.run(host())
    store = Store(tmp_path / "data")
    try:
        questions: list[str] = []

        def answer(reply: str) -> Callable[[str], str]:
            def ask(question: str) -> str:
                questions.append(question)
                return reply

            return ask

        assert not confirm_new(store, tmp_path / "data", answer("n"))
        assert "holds a game under way" in questions[0] and "[y/N]" in questions[0]
        assert confirm_new(store, tmp_path / "data", answer("yes"))
        assert confirm_new(store, tmp_path / "data", None)  # nobody to ask: a program
    finally:
        store.close()
    fresh = Store(tmp_path / "fresh")
    try:
        assert confirm_new(fresh, tmp_path / "fresh", lambda question: "n")
    finally:
        fresh.close()


def test_joining_a_controller_port_says_what_it_is_and_what_to_join(tmp_path: Path) -> None:
    async def scenario() -> str:
        host, guest = Node(Store(tmp_path / "host")), Node(Store(tmp_path / "guest"))
        await host.start(resume=False)
        await guest.start(resume=False)
        try:
            await host.host_table(TableSpec("zman", 3, (), "Friday", "ada", ""))
            with pytest.raises(JoinError) as refused:
                await guest.join_table(host.controller_server.address, "bob", patience=5)
            return str(refused.value)
        finally:
            await guest.stop()
            await host.stop()
            guest.store.close()
            host.store.close()

    reason = asyncio.run(scenario())
    assert "controller port" in reason and "'listening on'" in reason
    assert "Method not found" not in reason


def test_a_bots_strategy_failures_are_told_to_the_host_a_few_times(tmp_path: Path) -> None:
    bots = BotPeers(tmp_path / "bots", listen="127.0.0.1", interface="203.0.113.9",
                    coin_timeout=60.0)
    plan = bots.plan(["greedy"], "ada", seed=1)
    bots.start(plan, "127.0.0.1:1", "00" * 16)
    try:
        bots.processes[0].wait(timeout=60)
    finally:
        bots.stop()
    bots.troubles()  # what the bot wrote of itself so far
    log = Path(f"{plan[0].data}.log")
    failure = "greedy (seat 1) raised ZeroDivisionError: division by zero; playing pass instead"
    with log.open("a") as file:
        file.write(f"{TROUBLE}{failure}\nsomething else\n{TROUBLE}{failure}\n{TROUBLE}half")
    told = bots.troubles()
    assert told == [f"The bot {plan[0].name}: {failure}"] * 2  # the half-written line waits
    with log.open("a") as file:
        file.write(" a line\n" + f"{TROUBLE}{failure}\n" * 5)
    told = bots.troubles()
    assert len(told) == TROUBLES_TOLD - 2
    assert told[-1].endswith(f"(further troubles: {log})")
    assert bots.troubles() == []
