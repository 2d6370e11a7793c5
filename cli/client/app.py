"""The full-screen client of one seat, in the event loop of the seat's own peer.

:class:`ClientApp` follows the seat's :class:`~condottiere.peer.controller.Controller`: each new
snapshot, with a copy of the seat's game, the table's events and the state of the links,
goes into the :class:`~condottiere.cli.client.model.TableModel`, and the screen is redrawn
(``invalidate``). Lines typed go to the controller (a move, a chat line, the admission or
refusal of a joiner who asks for a seat) or to the model (``why``, ``help``). Once the game
is over (or the table stopped), ``on_end`` is called once, to say goodbye and write the
record; the end screen shows where it is.

Nothing is printed while the screen is up: every answer goes into the model.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import traceback
from collections.abc import Awaitable, Callable
from pathlib import Path

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.document import Document
from prompt_toolkit.input import Input
from prompt_toolkit.output import ColorDepth, Output

from condottiere.cli.client.commands import Command, CommandError, MoveCompleter, parse
from condottiere.cli.client.keys import build_key_bindings
from condottiere.cli.client.layout import build_layout
from condottiere.cli.client.model import Message, TableModel
from condottiere.cli.client.style import make_style
from condottiere.interface.screen import cells
from condottiere.peer.controller import Controller, Snapshot

__all__ = ["ClientApp", "Outcome"]

END_SECONDS = 30.0
"""How long leaving waits for the record to be written."""


class Outcome(enum.Enum):
    """How the client was left."""

    STOPPED = "stopped"
    """Ctrl-C (or ``quit``): the game is saved and can be taken up again."""
    LEFT = "left"
    """After the end of the game."""


class ClientApp:
    """The screen of one seat, over its controller."""

    def __init__(
        self,
        controller: Controller,
        model: TableModel,
        *,
        on_end: Callable[[Snapshot], Awaitable[Path]] | None = None,
        palette: str = "classic",
        color: bool = True,
        input: Input | None = None,
        output: Output | None = None,
    ) -> None:
        self.controller = controller
        self.model = model
        self.on_end = on_end
        self.line = Buffer(
            completer=MoveCompleter(model),
            complete_while_typing=True,
            multiline=False,
            accept_handler=self._accept,
            on_text_changed=self._typed,
        )
        self.application: Application[Outcome] = Application(
            layout=build_layout(model, self.line),
            key_bindings=build_key_bindings(model, self.line, self),
            style=make_style(palette),
            color_depth=None if color else ColorDepth.DEPTH_1_BIT,
            full_screen=True,
            refresh_interval=1.0,
            input=input,
            output=output,
            before_render=self._before_drawing,
        )
        self.application.ttimeoutlen = 0.05
        self._tasks: set[asyncio.Task[None]] = set()
        self._ending: asyncio.Task[None] | None = None
        self._refused: str | None = None
        """A refused line put back on the command line: what is typed at its end replaces
        it (Backspace or the arrows edit it instead)."""

    async def run(self) -> Outcome:
        """Show the screen until the player leaves; how they left."""
        following = asyncio.create_task(self._follow(), name="client-follow")
        try:
            return await self.application.run_async(set_exception_handler=False)
        finally:
            tasks = [following, *self._tasks, *([self._ending] if self._ending else [])]
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    # ------------------------------------------------------------------ the table

    async def _follow(self) -> None:
        shown: tuple[Snapshot, int] | None = None
        async for snapshot in self.controller.changes():
            seen = (snapshot, len(self.controller.events))
            if seen == shown:
                continue  # nothing new: fetching the game below publishes the same again
            shown = seen
            turn = self.model.snapshot is not None and (
                self.model.snapshot.step, self.model.my_turn)
            try:
                watched = snapshot.seat is None and snapshot.stage in ("playing", "over", "halted")
                game = await self.controller.game() if snapshot.view or watched else None
                self.model.update(snapshot, game, self.controller.events, self.controller.links)
                if turn != (snapshot.step, self.model.my_turn):
                    self.line.complete_state = None  # its moves and their effects are gone
                    if self.model.message is not None and self.model.message.move:
                        self.model.message = None  # a refusal of a step that is over
            except Exception as error:  # a fault of this client's own: say it, keep following
                traceback.print_exc()
                self.model.message = Message(f"could not show the table: {error}", True)
            self.application.invalidate()
            if (snapshot.halt is not None or snapshot.audited) and self._ending is None:
                self._ending = asyncio.create_task(self._end(snapshot), name="client-end")

    def _before_drawing(self, _: Application[Outcome]) -> None:
        """Before each drawing (at least every second): the links to the other peers, which
        change without the table changing; and the command line as it is (a reset of the
        line tells no one)."""
        self.model.links = self.controller.links
        self.model.line = self.line.text

    async def _end(self, final: Snapshot) -> None:
        if self.on_end is None:
            return
        try:
            path = await self.on_end(final)
        except Exception as error:
            traceback.print_exc()
            self.model.message = Message(f"could not write the record: {error}", True)
        else:
            self.model.record = str(path)
        self.application.invalidate()

    # ------------------------------------------------------------------ the command line

    def _typed(self, line: Buffer) -> None:
        refused, self._refused = self._refused, None
        text = line.text
        if (refused is not None and len(text) > len(refused) and text.startswith(refused)
                and line.cursor_position == len(text)):
            typed = text[len(refused) :]
            line.document = Document(typed, len(typed))  # calls this again, with nothing refused
            return
        self.model.line = text

    def _accept(self, line: Buffer) -> bool:
        text = line.text.strip()
        self.model.line = ""  # the line is reset once this returns
        self._refused = None
        line.complete_state = None  # no menu of this line's moves is left over the log
        if not text:
            return False
        self._spawn(self.run_line(text))
        return False

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def run_line(self, text: str) -> None:
        """Do what a line typed says; a refused move is put back on the line, with the
        rules' reason below it (typing replaces it; Backspace or the arrows edit it)."""
        model = self.model
        try:
            command = parse(text, model.verbs())
        except CommandError as error:
            model.message = Message(str(error), True)
            self._put_back(text)
            return
        model.message = None
        refusal = await self._do(command)
        if refusal is not None:
            refusal = model.in_words(refusal)
            model.message = Message(refusal, True, move=command.verb == "move")
            if cells(refusal) >= self.application.output.get_size().columns - 1:
                model.note(refusal)  # cut on the status line: the log shows all of it
            self._put_back(text)
        self.application.invalidate()

    async def _do(self, command: Command) -> str | None:
        model = self.model
        if command.verb == "move":
            reason = await self.controller.submit(command.text)
            return None if reason is None else f"refused: {reason}"
        if command.verb == "say":
            try:
                await self.controller.chat(command.text)
            except ValueError as error:
                return str(error)
            return None
        if command.verb == "why":
            seat = command.seat
            if seat is None:
                seat = model.snapshot.seat if model.snapshot is not None else None
            if seat is None or model.seat(seat) is None:
                return f"there is no seat {command.seat}" if command.seat is not None else (
                    "you have no seat to explain"
                )
            model.why = seat
            return None
        if command.verb in ("admit", "refuse"):
            return await self._answer(command.verb, command.text)
        if command.verb == "help":
            model.help = True
            model.scroll = 0
            return None
        self.stop()
        return None

    async def _answer(self, verb: str, who: str) -> str | None:
        """Admit or refuse the joiner ``who`` names; the outcome goes in the log, a refusal
        (nothing changed) comes back as the reason."""
        row = self.model.joiner(who)
        decide = self.controller.admit if verb == "admit" else self.controller.refuse
        reason = await decide(who)
        if reason is not None:
            return f"cannot {verb} {who}: {reason}"
        named = who if row is None else f"{row.name} ({row.fingerprint})"
        self.model.note(
            f"You admitted {named}: seated when the table is." if verb == "admit"
            else f"You refused {named} a seat: their join is forgotten."
        )
        return None

    def _put_back(self, text: str) -> None:
        """Put a refused line back, to be edited (Backspace, the arrows) or replaced by what
        is typed next."""
        if not self.line.text:
            self.line.document = Document(text, len(text))
            self._refused = text
            self.line.complete_state = None

    # ------------------------------------------------------------------ leaving

    def stop(self) -> None:
        if not self.application.is_done:
            self.application.exit(result=Outcome.STOPPED)

    def leave(self) -> None:
        ending = self._ending
        if ending is None or ending.done():
            if not self.application.is_done:
                self.application.exit(result=Outcome.LEFT)
            return
        self.model.message = Message("writing the record: a moment...", False)
        self._spawn(self._leave_when_written(ending))

    async def _leave_when_written(self, ending: asyncio.Task[None]) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(ending), END_SECONDS)
        if not self.application.is_done:
            self.application.exit(result=Outcome.LEFT)
