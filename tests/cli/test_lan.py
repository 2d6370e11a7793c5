"""The LAN options of the networked commands: bad input is refused with the reason (exit status
2, nothing started); ``condottiere tables --once`` and a join by name, in-process on loopback."""

from __future__ import annotations

import asyncio
import json
import os
import socket
from pathlib import Path

import pytest

from condottiere.cli.lan import join_table
from condottiere.cli.main import main
from condottiere.crypto import Identity
from condottiere.peer.advert import Advert
from condottiere.peer.discovery import Advertiser, Lan
from condottiere.peer.interfaces import Interface
from condottiere.peer.lobby import PROTOCOL
from condottiere.peer.node import JoinError, Node
from condottiere.peer.presence import Presence
from condottiere.peer.store import Store

LOOPBACK = Interface("lo", ("127.0.0.1",))


def refusal(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """The error message of a command line that must be refused (exit status 2)."""
    with pytest.raises(SystemExit) as stopped:
        main(list(args))
    assert stopped.value.code == 2
    return capsys.readouterr().err.strip().splitlines()[-1]


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (["host", "--interface", "nosuch0"], "--interface: no interface is called 'nosuch0'"),
        (["join", "T", "--interface", "203.0.113.9"], "no interface has the address 203.0.113.9"),
        (["bot", "--join", "T", "--interface", "0.0.0.0"], "0.0.0.0 means every interface"),
        (["host", "--listen", "0.0.0.0"], "--listen 0.0.0.0 means every interface"),
        (["host", "--listen", "my-laptop"], "--listen takes one IPv4 address of this machine"),
        (["join", "T", "--peer", "nowhere"], "argument --peer: not HOST:PORT: 'nowhere'"),
        (["join", "T", "--wait", "-1"], "--wait must be 0 or more, not -1.0"),
        (["tables", "--json"], "--json needs --once"),
        (["tables", "--once", "--wait", "nan"], "--wait must be 0 or more, not nan"),
        (["tables", "--interface", "nosuch0"], "--interface: no interface is called 'nosuch0'"),
    ],
)
def test_bad_lan_options_are_refused_with_the_reason(
    capsys: pytest.CaptureFixture[str], args: list[str], reason: str
) -> None:
    assert reason in refusal(capsys, *args)


def test_every_lan_option_has_help(capsys: pytest.CaptureFixture[str]) -> None:
    for command in (["host"], ["join"], ["bot"], ["tables"]):
        with pytest.raises(SystemExit):
            main([*command, "--help"])
        text = capsys.readouterr().out
        assert "--interface NAME_OR_ADDRESS" in text
        if command != ["tables"]:
            assert "--listen ADDRESS" in text and "--peer HOST:PORT" in text


def test_tables_once_prints_json_for_scripts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tables", "--once", "--json", "--wait", "0.2", "--interface", "127.0.0.1"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert set(listed) == {"tables", "ignored", "dropped", "followed_at_most"}
    assert all(table["addresses"] for table in listed["tables"])


def test_joining_a_table_whose_advert_points_to_a_closed_port_says_so(tmp_path: Path) -> None:
    async def test() -> None:
        store = Store(tmp_path / "guest")
        node = Node(store, host="127.0.0.1")
        other = Lan(LOOPBACK)
        presence: Presence | None = None
        try:
            await node.start()
            presence = Presence(node, Lan(LOOPBACK), say=print)
            await presence.start()
            with socket.socket() as probe:
                probe.bind(("127.0.0.1", 0))
                port = probe.getsockname()[1]
            name = f"Ghost-{os.urandom(3).hex()}"
            key = Identity.generate().public.fingerprint()
            ghost = Advert(PROTOCOL, os.urandom(32).hex(), name, "condottiere", "zman", (), 3, 1,
                           "lobby", key, key)
            await Advertiser(other, "127.0.0.1", port, key).publish(ghost)
            with pytest.raises(JoinError) as refusal:
                await join_table(node, presence, name, "bob", wait=10)
            assert str(refusal.value) == (
                f"no peer of {name!r} takes joiners: cannot join 127.0.0.1:{port}: "
                "nobody answers there"
            )
            assert node.table is None
        finally:
            if presence is not None:
                await presence.stop()
            await other.close()
            await node.stop()
            store.close()

    asyncio.run(asyncio.wait_for(test(), 60))
