"""The JavaScript bot of ``examples/js-bot`` plays a whole game against Python bots through its
peer's controller service, reading the ``.proto`` files directly: the proof that the protocol
is language-neutral. It refuses, saying why, a controller service of another version than the
one it reads. It needs Node and the bot's npm packages (``npm ci`` in that folder); without
them the tests are skipped and say which is missing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from condottiere.v1 import controller_pb2
from tests.examples.headless import (
    chosen_moves,
    ending,
    play_against_python_bots,
    serving_updates,
    submitted_moves,
)
from tests.peer.processes import peers_in

JS_BOT = Path(__file__).resolve().parents[2] / "examples" / "js-bot"
PACKAGES = ("@grpc/grpc-js", "@grpc/proto-loader")


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
    host, js = play_against_python_bots(tmp_path, [node(), str(JS_BOT / "bot.js")], "js")
    submitted = submitted_moves(js)
    assert submitted and submitted == chosen_moves(host), js.output()
    assert not any(line.startswith("refused") for line in js.lines), js.output()
    consequences = [line.strip() + "\n" for line in js.lines if line.startswith("  ")]
    assert consequences, f"no result nor change indented under its move:\n{js.output()}"
    assert set(consequences) <= set(host.lines), js.output()
    assert js.lines[-1].startswith(ending(host)) and js.lines[-1].endswith(")\n"), js.output()


@pytest.mark.parametrize("version", [1, 2, 4])
def test_the_javascript_bot_refuses_a_controller_of_another_version(
    tmp_path: Path, version: int
) -> None:
    program = node()
    # version 1 had no `controller` field: it reads as 0
    served = controller_pb2.Update(controller=version if version > 1 else 0, game="condottiere")
    with serving_updates(tmp_path, [served]), peers_in(tmp_path) as peers:
        js = peers.start_program([program, str(JS_BOT / "bot.js"), str(tmp_path)], tmp_path,
                                 ["node", "bot.js"])
        assert peers.wait_for_exit(js, 30) == 1, js.output()
    said = "a version before 2" if version == 1 else f"version {version}"
    assert f"the peer serves controller {said}, and this bot reads version 3 only" in js.output()


def test_the_javascript_bot_takes_part_in_a_tournament_beside_built_in_bots() -> None:
    from condottiere.bots.command import COMMAND_PREFIX
    from condottiere.cli.tournament import TournamentSettings, run_tournament

    command = f"{COMMAND_PREFIX}{node()} {JS_BOT / 'bot.js'}"
    settings = TournamentSettings("zman-duel", ("greedy", command), games=2, seed=4)
    report = run_tournament(settings)
    lines = {line.bot: line for line in report.lines}
    assert set(lines) == {"greedy", command}
    js = lines[command]
    assert js.moves > 0 and js.played_for == 0
    assert sum(line.wins for line in report.lines) + report.draws == pytest.approx(2)
