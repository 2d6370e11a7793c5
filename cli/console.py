"""Playing a seat in plain text: the table's events as lines, and moves typed at a prompt.

This is the simple line-by-line way to play (``condottiere host`` and ``join``); the
full-screen client is ``condottiere play``. Type a move in the game's notation (in
Condottiere ``play 10``, ``battle Firenze``, ``pass``), or ``hand``, ``moves``, ``say TEXT``,
``leave``, ``help``; at a table this peer created that is not open, ``admit NAME`` and
``refuse NAME`` answer a joiner that asks for a seat (its name or key fingerprint, as shown).
The game is reached through its rules in the registry
(:func:`condottiere.interface.game_named`): the help's examples of moves and the hand in words
are the game's own.
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, TextIO

from condottiere.interface import GameRules, game_named
from condottiere.peer.controller import Controller, Snapshot, starved

LINK_CHECK_SECONDS = 2.0
"""How often the console looks at the links to the seats the table waits for."""

__all__ = ["help_text", "play_console"]


def help_text(rules: GameRules) -> str:
    """What can be typed at the prompt, with examples of ``rules``' moves.

    >>> print(help_text(game_named("condottiere")).splitlines()[1])
      a move, as in: play 10 | play scarecrow 5 | battle Firenze | pass | favor Roma
    """
    return f"""commands:
  a move, as in: {" | ".join(rules.move_examples)}
  hand      your cards          moves   the moves you may make now
  say TEXT  chat to the table   leave   leave the table for good (the game goes on without you)
  admit NAME / refuse NAME      in the lobby: seat, or never seat, a joiner that asks (name
                                or fingerprint); a bare 'refuse' is a move where it is one
  help      this text
Ctrl-C stops this peer; start it again with the same --data to take up the game (before the
deadline of the step the table waits for: after it, the others may put your seat out)."""


async def play_console(
    controller: Controller, out: TextIO = sys.stdout, read_line: Callable[[], str] | None = None
) -> Snapshot:
    """Print the help (once the table, and so its game, is known), the table's events, and
    play the moves typed; the last snapshot at the end."""
    lines = _Lines(read_line or sys.stdin.readline)
    printed = 0
    asked = -1
    input_task: asyncio.Task[str] | None = None
    changes = controller.changes().__aiter__()
    next_change: asyncio.Task[Snapshot] = asyncio.ensure_future(changes.__anext__())
    snapshot: Snapshot | None = None
    countdown = Countdown(out)
    cut_off: dict[int, str] = {}
    try:
        while True:
            waiting: set[asyncio.Future[Any]] = {next_change}
            if input_task is not None:
                waiting.add(input_task)
            done, _ = await asyncio.wait(
                waiting, timeout=min(LINK_CHECK_SECONDS,
                                     countdown.next_in(time.monotonic()) or LINK_CHECK_SECONDS),
                return_when=asyncio.FIRST_COMPLETED,
            )
            countdown.tell(snapshot, time.monotonic())
            if snapshot is not None:
                cut_off = _say_cut_off(snapshot, starved(snapshot, controller.links), cut_off, out)
            if next_change in done:
                first = snapshot is None
                snapshot = next_change.result()
                if first:  # the table, and so its game, is known from now on
                    print(help_text(game_named(snapshot.game)), file=out, flush=True)
                for event in controller.events[printed:]:
                    print(event.text, file=out, flush=True)
                    if event.kind == "ask":
                        print("  type 'admit NAME' or 'refuse NAME' (or the fingerprint)",
                              file=out, flush=True)
                printed = len(controller.events)
                countdown.tell(snapshot, time.monotonic())
                if snapshot.halt is not None or snapshot.audited:
                    return snapshot
                if snapshot.my_turn and snapshot.step != asked:
                    asked = snapshot.step
                    _show_turn(snapshot, out)
                next_change = asyncio.ensure_future(changes.__anext__())
                if input_task is None:
                    input_task = asyncio.ensure_future(lines.next())
            if input_task is not None and input_task in done:
                line = input_task.result()
                input_task = None
                if line == "":  # end of input: keep following the table without a prompt
                    continue
                input_task = asyncio.ensure_future(lines.next())
                assert snapshot is not None  # lines are read once the table is known
                await _command(controller, line.strip(), snapshot, out)
    finally:
        next_change.cancel()
        if input_task is not None:
            input_task.cancel()


class _Lines:
    """The lines ``read_line`` returns, read ahead on a daemon thread: the program never
    waits for a line nobody types (an Enter at the end), and nothing is left to cancel."""

    def __init__(self, read_line: Callable[[], str]) -> None:
        self._queue: asyncio.Queue[str] = asyncio.Queue()
        loop = asyncio.get_running_loop()

        def read() -> None:
            while True:
                line = read_line()
                try:
                    loop.call_soon_threadsafe(self._queue.put_nowait, line)
                except RuntimeError:  # the loop is closed: nobody wants more lines
                    return
                if line == "":
                    return

        threading.Thread(target=read, name="console-input", daemon=True).start()

    async def next(self) -> str:
        """The next line, with its newline; "" at the end of the input."""
        return await self._queue.get()


class Countdown:
    """The deadline of the step the table waits for, told in lines: when the wait begins,
    with 10 seconds left, and when it has passed (the others may then put the seat out)."""

    WARN = 10.0

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self._told: tuple[int, int] = (-1, -1)
        """(step, what was told of it: 0 the start, 1 the warning, 2 the end)."""
        self._due: float | None = None

    def next_in(self, now: float) -> float | None:
        """Seconds until the next line is due (None: none is)."""
        return None if self._due is None else max(0.05, self._due - now)

    def tell(self, snapshot: Snapshot | None, now: float) -> None:
        waiting = None if snapshot is None else snapshot.waiting
        self._due = None
        if snapshot is None or waiting is None or waiting.deadline is None:
            return
        end = waiting.since + waiting.deadline
        step, told = self._told
        if step != snapshot.step:
            step, told = snapshot.step, -1
        who = "you have" if snapshot.my_turn else f"{waiting.text}:"
        if told < 0:
            print(f"{who} {waiting.deadline} s before the others may state "
                  f"{'your seat' if snapshot.my_turn else 'it'} silent", file=self.out,
                  flush=True)
            told = 0
        if told < 1 and end - now <= self.WARN and waiting.deadline > 2 * self.WARN:
            print(f"{who} {max(0, round(end - now))} s left", file=self.out, flush=True)
            told = 1
        if told < 2 and now >= end:
            print(f"{who} the deadline has passed", file=self.out, flush=True)
            told = 2
        self._told = (step, told)
        if told < 1 and waiting.deadline > 2 * self.WARN:
            self._due = end - self.WARN
        elif told < 2:
            self._due = end


def _say_cut_off(
    snapshot: Snapshot, now: dict[int, str], before: dict[int, str], out: TextIO
) -> dict[int, str]:
    """Say which seats the table waits for only because this peer has no link to them (once
    each, and again when the reason changes); what is cut off now."""
    names = {player.seat: player.name for player in snapshot.players}
    for seat, why in now.items():
        if before.get(seat) != why:
            print(
                f"waiting on the link to seat {seat} ({names.get(seat, '?')}), not on them: "
                f"{why}",
                file=out,
                flush=True,
            )
    return now


def _show_turn(snapshot: Snapshot, out: TextIO) -> None:
    view = snapshot.view
    assert view is not None
    hand = game_named(snapshot.game).hand_words(view)
    moves = " | ".join(str(move) for move in view.legal_moves)
    print(f"\nyour turn ({view.phase}). hand: {hand}", file=out)
    print(f"moves: {moves}", file=out)
    print("> ", end="", file=out, flush=True)


async def _command(controller: Controller, line: str, snapshot: Snapshot, out: TextIO) -> None:
    if not line:
        return
    word, _, rest = line.partition(" ")
    rules = game_named(snapshot.game)
    view = snapshot.view
    if word == "help":
        print(help_text(rules), file=out)
    elif word == "hand":
        print("no cards yet" if view is None else rules.hand_words(view), file=out)
    elif word == "moves":
        moves = [] if view is None else [str(move) for move in view.legal_moves]
        print(" | ".join(moves) or "nothing to play now", file=out)
    elif word == "say":
        await controller.chat(rest)
    elif word == "leave":
        await controller.leave("left from the console")
        print("you are leaving the table: the others go on without you once they read it "
              "(Ctrl-C stops this peer)", file=out)
    elif word in ("admit", "refuse") and snapshot.stage == "lobby" and rest.strip():
        decide = controller.admit if word == "admit" else controller.refuse
        reason = await decide(rest)
        done = "admitted" if word == "admit" else "refused"
        print(f"{done}: {rest}" if reason is None else f"cannot {word}: {reason}", file=out)
    else:
        reason = await controller.submit(line)
        if reason is not None:
            print(f"refused: {reason}", file=out)
    print("> ", end="", file=out, flush=True)
