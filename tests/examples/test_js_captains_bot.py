"""The JavaScript Captains bot of ``examples/js-captains-bot`` plays a whole game of Condottieri
Captains against Python bots through its peer's controller service, reading the ``.proto``
files directly and the game's typed part of the view (a ``CaptainsView`` in ``view.detail``,
unpacked with the game's own ``.proto``). It refuses, saying
why, a table of another game. Needs Node and the bot's npm packages (``npm ci`` in that
folder); without them the tests are skipped and say which is missing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from condottiere.games.captains import Game
from condottiere.games.captains.wire import view_message
from condottiere.peer.record import load, verify
from condottiere.v1 import controller_pb2
from tests.examples.headless import (
    ending,
    play_against_python_bots,
    serving_updates,
    submitted_moves,
)
from tests.peer.processes import PeerProcess, peers_in
from tests.peer.test_captains_network import assert_same_captains_game

JS_BOT = Path(__file__).resolve().parents[2] / "examples" / "js-captains-bot"
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


def chosen_moves(host: PeerProcess) -> list[str]:
    """The moves the host's seat chose, in order: its moves of the game's audited record
    where it had more than one legal move (the peer plays a seat's only legal move itself),
    the record followed by Captains' omniscient engine."""
    verdict = verify(load(Path(host.result()["record"])))
    assert verdict.replayed is not None, verdict.lines()
    record = verdict.replayed
    game = Game({key: value for key, value in record.items() if key != "events"})
    chosen = []
    for event in record["events"]:
        if event[0] == "move" and event[1] == 0 and len(game.legal_moves()) > 1:
            chosen.append(event[2])
        game.follow([event])
    assert game.outcome is not None
    return chosen


def test_the_javascript_captains_bot_plays_a_whole_game_against_python_bots(
    tmp_path: Path,
) -> None:
    host, js = play_against_python_bots(
        tmp_path, [node(), str(JS_BOT / "bot.js")], "js", ("--game", "captains"),
        assert_same_captains_game,
    )
    submitted = submitted_moves(js)
    assert submitted and submitted == chosen_moves(host), js.output()
    assert not any(line.startswith("refused") for line in js.lines), js.output()
    verbs = {move.split()[0] for move in submitted}
    assert "city" in verbs and len(verbs) >= 4, verbs  # a keep may be forced: the peer's
    consequences = [line.strip() + "\n" for line in js.lines if line.startswith("  ")]
    assert consequences, f"no result nor change indented under its move:\n{js.output()}"
    assert set(consequences) <= set(host.lines), js.output()
    assert js.lines[-1].startswith(ending(host)) and js.lines[-1].endswith(")\n"), js.output()


def test_the_javascript_captains_bot_refuses_a_table_of_another_game(tmp_path: Path) -> None:
    program = node()
    served = controller_pb2.Update(
        controller=controller_pb2.CONTROLLER_VERSION_CURRENT, game="condottiere"
    )
    with serving_updates(tmp_path, [served]), peers_in(tmp_path) as peers:
        js = peers.start_program([program, str(JS_BOT / "bot.js"), str(tmp_path)], tmp_path,
                                 ["node", "bot.js"])
        assert peers.wait_for_exit(js, 30) == 1, js.output()
    assert "the table plays condottiere, and this bot plays captains" in js.output()


def test_the_javascript_captains_bot_answers_each_phase_from_the_typed_view(
    tmp_path: Path,
) -> None:
    """A stand-in controller streams a Captains update asking seat 0 to block an attack;
    the bot blocks with its strongest captain, read from the ``CaptainsView`` in
    ``view.detail``."""
    program = node()
    game = Game.setup(
        2, cities=["milan", "pisa"], hands=[[], ["reserve"]], turns=[1, 1], seed=0,
        armies=[{"gonzaga": ["pikemen"]}, {"faggiuola": [], "carmagnola": ["crafty"]}],
        deck=["rally"],
    )
    for move in ("done", "pay", "done", "attack gonzaga 1"):
        game.play(move)
    view = game.seen_by(1).view(1)
    update = controller_pb2.Update(
        controller=controller_pb2.CONTROLLER_VERSION_CURRENT, game="captains", seat=1,
        my_turn=True, step=7, stage="playing",
        view=controller_pb2.View(
            phase=str(view.phase), to_act=1, legal_moves=[str(m) for m in view.legal_moves],
        ),
    )
    update.view.detail.Pack(view_message(view))
    with serving_updates(tmp_path, [update]), peers_in(tmp_path) as peers:
        js = peers.start_program([program, str(JS_BOT / "bot.js"), str(tmp_path)], tmp_path,
                                 ["node", "bot.js"])
        peers.wait_for_exit(js, 30)
    assert "> block carmagnola\n" in js.lines, js.output()
