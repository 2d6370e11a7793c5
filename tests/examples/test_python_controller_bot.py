"""The Python bot of ``docs/bots.md`` that plays through the controller service, exactly as the
page shows it: taken from the page, it plays a whole game against the project's bots through a
headless peer, importing the bindings as ``condottiere.v1``, and refuses a controller service
of another version than the one it reads."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from condottiere.v1 import controller_pb2
from tests.examples.headless import (
    chosen_moves,
    ending,
    play_against_python_bots,
    serving_updates,
    submitted_moves,
)
from tests.peer.processes import peers_in

BOTS_PAGE = Path(__file__).resolve().parents[2] / "docs" / "bots.md"
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def the_pages_bot(directory: Path) -> Path:
    """The page's one Python block that drives the controller service, written to a file."""
    (code,) = [
        block
        for block in PYTHON_BLOCK.findall(BOTS_PAGE.read_text(encoding="utf-8"))
        if "controller_pb2_grpc" in block
    ]
    path = directory / "bot.py"
    path.write_text(code, encoding="utf-8")
    return path


def test_the_pages_python_bot_plays_a_whole_game_through_the_controller_service(
    tmp_path: Path,
) -> None:
    bot = the_pages_bot(tmp_path)
    host, py = play_against_python_bots(tmp_path, [sys.executable, str(bot)], "py")
    submitted = submitted_moves(py)
    assert submitted and submitted == chosen_moves(host), py.output()
    assert not any(line.startswith("refused") for line in py.lines), py.output()
    assert any(line.startswith("  ") for line in py.lines), py.output()
    assert py.lines[-1].startswith(ending(host)) and py.lines[-1].endswith(")\n"), py.output()


def test_the_pages_python_bot_refuses_a_controller_of_another_version(tmp_path: Path) -> None:
    bot = the_pages_bot(tmp_path)
    served = controller_pb2.Update(controller=2, game="condottiere")
    with serving_updates(tmp_path, [served]), peers_in(tmp_path) as peers:
        py = peers.start_program([sys.executable, str(bot), str(tmp_path)], tmp_path, ["py"])
        assert peers.wait_for_exit(py, 30) == 1, py.output()
    assert "this bot reads controller version 3; the peer serves 2" in py.output()
