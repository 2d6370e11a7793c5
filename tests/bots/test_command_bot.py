"""A program over the controller service seats in a tournament (``cmd:COMMAND``): it is
started per game with a data directory holding the service's address and token, asked for
each choice, its moves checked by the engine, its silence answered by the safe move, and it
is stopped at the end. The programs here are small Python scripts written by the test."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pytest

from condottiere.bots.command import CommandBot, command_of
from condottiere.cli.tournament import TournamentSettings, run_tournament, tournament_bots
from condottiere.interface import TableRules

PYTHON_BOT = '''
import argparse
import sys
from pathlib import Path
import grpc
from condottiere.v1 import controller_pb2, controller_pb2_grpc

data = Path(sys.argv[-1])
address = (data / "controller.address").read_text().strip()
owner = [("authorization", "Bearer " + (data / "controller.token").read_text().strip())]
with grpc.insecure_channel(address) as channel:
    controller = controller_pb2_grpc.ControllerStub(channel)
    answered = -1
    for update in controller.Watch(controller_pb2.WatchRequest(), metadata=owner):
        if update.my_turn and update.step != answered:
            answered = update.step
            wrong = controller.Submit(controller_pb2.SubmitRequest(move="battle Atlantis"),
                                      metadata=owner)
            assert not wrong.applied and wrong.reason, wrong
            moves = list(update.view.legal_moves)
            controller.Submit(controller_pb2.SubmitRequest(move=moves[-1]), metadata=owner)
'''

SILENT_BOT = "import time, sys\ntime.sleep(60)\n"


def _script(tmp_path: Path, text: str) -> str:
    path = tmp_path / "bot.py"
    path.write_text(text)
    return f"cmd:{sys.executable} {path}"


def test_a_python_program_over_the_controller_plays_its_seat_in_a_tournament(
    tmp_path: Path,
) -> None:
    command = _script(tmp_path, PYTHON_BOT)
    report = run_tournament(TournamentSettings("zman-duel", ("random", command), games=2,
                                               seed=3))
    line = next(line for line in report.lines if line.bot == command)
    assert line.moves > 0 and line.played_for == 0
    assert sum(x.wins for x in report.lines) + report.draws == pytest.approx(2)


def test_a_program_that_never_answers_has_the_safe_move_played_and_is_stopped(
    tmp_path: Path,
) -> None:
    command = command_of(_script(tmp_path, SILENT_BOT))
    assert command is not None
    from condottiere.games.condottiere import Game

    game = Game.setup("zman", players=2, hands=[["10", "3"], ["5"]], first=0,
                      battle="Firenze", seed=0)
    bot = CommandBot(command, TableRules("condottiere", "zman", 2), time_limit=0.5,
                     exit_grace=0.5)
    try:
        move = bot.choose(game, 0)
        process = bot._process
        assert process is not None
    finally:
        bot.finish(game, 0)
    assert str(move) == "pass" and bot.troubles == 1
    assert process.poll() is not None  # stopped: the seat's program does not outlive the game


def test_the_bot_list_reads_built_in_names_commands_and_classes() -> None:
    assert tournament_bots("ISMCTS, greedy,cmd:node examples/js-bot/bot.js,mod.bots:Mine") == (
        "ismcts", "greedy", "cmd:node examples/js-bot/bot.js", "mod.bots:Mine")
    with pytest.raises(argparse.ArgumentTypeError, match="unknown bot 'clever'"):
        tournament_bots("greedy,clever")
