"""The JavaScript bot of ``examples/js-bot`` plays a whole game against Python bots through its
peer's controller service, reading the ``.proto`` files directly: the proof that the protocol
is language-neutral. It needs Node and the bot's npm packages (``npm ci`` in that folder);
without them the test is skipped and says which is missing."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.peer.processes import peers_in
from tests.peer.test_network import assert_same_game

JS_BOT = Path(__file__).resolve().parents[2] / "examples" / "js-bot"
PACKAGES = ("@grpc/grpc-js", "@grpc/proto-loader")
GAME_SECONDS = 180
OWN_MOVE = re.compile(r"^seat 0 \(js\) (plays|passes|opens|places|discards|retains|hands)")
"""A move of the JavaScript bot's seat as the table tells it (a forced ``keep`` is played by the
engine itself, so it is not counted)."""


def node() -> str:
    """The ``node`` program, or skip the test saying what is missing."""
    program = shutil.which("node")
    if program is None:
        pytest.skip("node is not installed: the JavaScript bot needs Node 18 or later")
    missing = [p for p in PACKAGES if not (JS_BOT / "node_modules" / p / "package.json").exists()]
    if missing:
        pytest.skip(
            f"the JavaScript bot's npm packages are not installed ({', '.join(missing)}): "
            f"run 'npm ci' in {JS_BOT}"
        )
    return program


def test_the_javascript_bot_plays_a_whole_game_against_python_bots(tmp_path: Path) -> None:
    program = node()
    with peers_in(tmp_path) as peers:
        host = peers.start(
            ["host", "--edition", "zman", "--seats", "3", "--player", "js", "--headless"],
            tmp_path / "seat0",
        )
        address = host.address()
        host.wait_for("hosting", 20)
        host.wait_for(r"^controller on 127\.0\.0\.1:\d+, token in ", 20)
        js = peers.start_program([program, str(JS_BOT / "bot.js"), str(tmp_path / "seat0")],
                                 tmp_path / "seat0", ["node", "bot.js"])  # fmt: skip
        bots = [
            peers.start(["bot", "--join", address, "--strategy", name, "--seed", str(seat)],
                        tmp_path / f"seat{seat}")
            for seat, name in ((1, "greedy"), (2, "random"))
        ]  # fmt: skip
        peers.wait_all([host, js, *bots], GAME_SECONDS)
    assert_same_game([host, *bots])
    submitted = [line for line in js.lines if line.startswith("> ") and line != "> keep\n"]
    played = [line for line in host.lines if OWN_MOVE.match(line)]
    assert submitted and len(submitted) == len(played), js.output()
    assert not any(line.startswith("refused") for line in js.lines), js.output()
    winners = ", ".join(f"seat {seat}" for seat in host.result()["winners"])
    assert js.lines[-1].strip() == f"game over: winners {winners}", js.output()
