"""A seat played by a program of any language over the controller service, offline: what lets
``condottiere tournament --bots ismcts,cmd:"node examples/js-bot/bot.js"`` seat a bot written
against a real peer beside the built-in strategies.

:class:`CommandBot` is a strategy like any other. For its game it serves the
``condottiere.v1.Controller`` service on 127.0.0.1 (a port of its own, the owner's token
required as a real peer does), writes ``controller.address`` and ``controller.token`` into a
fresh data directory, and starts the command with that directory as its last argument, as one
would start a bot on a headless peer's data directory (``docs/bots.md``). Each time its seat
must choose among two or more moves, the program's ``Watch`` stream gets an ``Update`` with
``my_turn`` and the seat's view (a forced move is played for it, as a peer does); the move it
``Submit``\\s is checked by the engine (refused with the rules' reason, as a peer refuses it),
and played. At the end (:meth:`CommandBot.finish`) the stream gets the last update, with the
``outcome``, and ends; the program is given :data:`EXIT_GRACE` seconds to exit, then killed.

A program that does not answer within the time limit, or that has gone, has the rules' safe
move played for it (``GameRules.safe_move``), and each such case is counted in
:attr:`CommandBot.troubles`.
"""

from __future__ import annotations

import queue
import shlex
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import grpc

from condottiere.interface import GameRules, MoveError, TableRules, game_named
from condottiere.peer.access import TOKEN_FILE, carries_token, owner_token
from condottiere.peer.controller import Player, Snapshot, Waiting
from condottiere.peer.controller_service import ADDRESS_FILE, CONTROLLER_HOST, update_of
from condottiere.peer.steps.moves import MOVE
from condottiere.v1 import controller_pb2, controller_pb2_grpc

__all__ = ["COMMAND_PREFIX", "EXIT_GRACE", "CommandBot", "command_of"]

COMMAND_PREFIX = "cmd:"
"""How a tournament's bot list names a program: ``cmd:COMMAND``."""
TIME_LIMIT = 15.0
"""Seconds a program has to choose a move (a table's default bot deadline)."""
EXIT_GRACE = 10.0
"""Seconds a program has to exit once its stream has ended."""


def command_of(name: str) -> str | None:
    """The command of a bot named ``cmd:COMMAND``; None for any other name.

    >>> command_of('cmd:node examples/js-bot/bot.js'), command_of('greedy')
    ('node examples/js-bot/bot.js', None)
    """
    return name[len(COMMAND_PREFIX) :].strip() if name.startswith(COMMAND_PREFIX) else None


class CommandBot:
    """One seat of one game played by the program ``command`` over the controller service."""

    def __init__(
        self,
        command: str,
        table: TableRules,
        time_limit: float = TIME_LIMIT,
        exit_grace: float = EXIT_GRACE,
    ) -> None:
        self.name = COMMAND_PREFIX + command
        self.troubles = 0
        """Moves the program did not make in time (or after it left), played for it."""
        self._argv = shlex.split(command)
        if not self._argv:
            raise ValueError("cmd: names no command")
        self._table = table
        self._rules: GameRules = game_named(table.game)
        self._time_limit = time_limit
        self._exit_grace = exit_grace
        self._lock = threading.Lock()
        self._updates: queue.Queue[controller_pb2.Update | None] = queue.Queue()
        self._moves: queue.Queue[Any] = queue.Queue()
        self._asking: Any | None = None
        """The game the program is asked to move in, while it is."""
        self._step = 0
        self._left = False
        self._server: grpc.Server | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._data: Path | None = None
        self._token = ""

    # ------------------------------------------------------------------ the strategy

    def choose(self, game: Any, seat: int) -> Any:
        legal = game.legal_moves()
        if len(legal) == 1:
            return legal[0]
        if self._process is None:
            self._start()
        with self._lock:
            self._step += 1
            self._asking = game
            self._drain_moves()
        self._publish(game, seat, asking=True)
        try:
            move = None if self._left else self._moves.get(timeout=self._time_limit)
        except queue.Empty:
            move = None
        with self._lock:
            self._asking = None
        if move is None:
            self.troubles += 1
            return self._rules.safe_move(legal)
        return move

    def finish(self, game: Any, seat: int) -> None:
        """The game is over: send the last update, let the program exit, and clean up."""
        try:
            if self._process is not None:
                self._publish(game, seat, asking=False)
                self._updates.put(None)
                try:
                    self._process.wait(timeout=self._exit_grace)
                except subprocess.TimeoutExpired:
                    self._process.kill()
                    self._process.wait()
        finally:
            if self._server is not None:
                self._server.stop(grace=None)
            if self._data is not None:
                shutil.rmtree(self._data, ignore_errors=True)
            self._process = self._server = self._data = None

    # ------------------------------------------------------------------ the service

    def _start(self) -> None:
        self._data = Path(tempfile.mkdtemp(prefix="condottiere-cmd-"))
        self._token = owner_token(self._data)
        server = grpc.server(ThreadPoolExecutor(max_workers=4))
        controller_pb2_grpc.add_ControllerServicer_to_server(_Service(self), server)
        port = server.add_insecure_port(f"{CONTROLLER_HOST}:0")
        server.start()
        self._server = server
        (self._data / ADDRESS_FILE).write_text(f"{CONTROLLER_HOST}:{port}\n")
        assert (self._data / TOKEN_FILE).exists()
        with (self._data / "stderr.txt").open("wb") as errors:
            self._process = subprocess.Popen(
                [*self._argv, str(self._data)],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=errors,
            )

    def _publish(self, game: Any, seat: int, *, asking: bool) -> None:
        table = self._table
        outcome = game.outcome
        view = game.view(seat)
        waiting = None
        if asking:
            waiting = Waiting(
                MOVE, (seat,), f"seat {seat} to move", time.monotonic(),
                int(self._time_limit),
            )
        snapshot = Snapshot(
            table_name="tournament",
            game=table.game,
            edition=table.edition,
            seats=table.seats,
            seat=seat,
            players=tuple(Player(s, f"seat {s}", "", "") for s in range(table.seats)),
            stage="over" if outcome is not None else "playing",
            view=view,
            waiting=waiting,
            progress=None,
            halt=None,
            refusals=(),
            outcome=outcome,
            audited=outcome is not None,
            record_hash="",
            step=self._step,
            options=table.options,
        )
        self._updates.put(update_of(snapshot, (), time.monotonic()))

    def _drain_moves(self) -> None:
        while not self._moves.empty():
            self._moves.get_nowait()

    def submit(self, text: str) -> str | None:
        """The program's move: None when taken, else why not (as a peer answers)."""
        with self._lock:
            game = self._asking
            if game is None:
                return "it is not your turn"
            try:
                move = game.parse_move(text)
                if move not in game.legal_moves():
                    game.copy().play(move)  # raises the rules' reason, on a copy
            except MoveError as error:
                return str(error)
            self._asking = None
            self._moves.put(move)
            return None

    def leave(self) -> None:
        with self._lock:
            self._left = True
            self._moves.put(None)

    def updates(self) -> Iterator[controller_pb2.Update]:
        while (update := self._updates.get()) is not None:
            yield update

    def owns(self, context: grpc.ServicerContext) -> bool:
        return carries_token(context.invocation_metadata(), self._token)


class _Service(controller_pb2_grpc.ControllerServicer):
    """The controller service of one :class:`CommandBot`."""

    def __init__(self, bot: CommandBot) -> None:
        self._bot = bot

    def _check(self, context: grpc.ServicerContext) -> None:
        if not self._bot.owns(context):
            context.abort(grpc.StatusCode.UNAUTHENTICATED, "this call needs the seat's token")

    def Watch(
        self, request: controller_pb2.WatchRequest, context: grpc.ServicerContext
    ) -> Iterator[controller_pb2.Update]:
        self._check(context)
        yield from self._bot.updates()

    def Submit(
        self, request: controller_pb2.SubmitRequest, context: grpc.ServicerContext
    ) -> controller_pb2.SubmitReply:
        self._check(context)
        reason = self._bot.submit(request.move)
        return controller_pb2.SubmitReply(applied=reason is None, reason=reason or "")

    def Chat(
        self, request: controller_pb2.ChatRequest, context: grpc.ServicerContext
    ) -> controller_pb2.ChatReply:
        self._check(context)
        return controller_pb2.ChatReply()

    def Leave(
        self, request: controller_pb2.LeaveRequest, context: grpc.ServicerContext
    ) -> controller_pb2.LeaveReply:
        self._check(context)
        self._bot.leave()
        return controller_pb2.LeaveReply()
