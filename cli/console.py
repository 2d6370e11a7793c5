"""Playing a seat in plain text: the table's events as lines, and moves typed at a prompt.

This is the simple line-by-line way to play (``condottiere host`` and ``join``); the
full-screen client is ``condottiere play``. Type a move in the notation (``play 10``,
``battle Firenze``, ``pass``), or ``hand``, ``moves``, ``say TEXT``, ``leave``, ``help``.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from typing import TextIO

from condottiere.games.condottiere.cards import card_name
from condottiere.peer.controller import Controller, Snapshot

__all__ = ["play_console"]

HELP = """commands:
  a move, as in: play 10 | play scarecrow 5 | battle Firenze | pass | favor Roma | discard | keep
  hand      your cards          moves   the moves you may make now
  say TEXT  chat to the table   leave   leave the table for good (the game ends for everyone)
  help      this text
Ctrl-C stops this peer; start it again with the same --data to take up the game."""


async def play_console(
    controller: Controller, out: TextIO = sys.stdout, read_line: Callable[[], str] | None = None
) -> Snapshot:
    """Print the table's events and play the moves typed; the last snapshot at the end."""
    reader = read_line or sys.stdin.readline
    printed = 0
    asked = -1
    input_task: asyncio.Task[str] | None = None
    changes = controller.changes().__aiter__()
    next_change: asyncio.Task[Snapshot] = asyncio.ensure_future(changes.__anext__())
    snapshot: Snapshot | None = None
    print(HELP, file=out, flush=True)
    try:
        while True:
            waiting: set[asyncio.Future[object]] = {next_change}  # type: ignore[arg-type]
            if input_task is not None:
                waiting.add(input_task)  # type: ignore[arg-type]
            done, _ = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            if next_change in done:
                snapshot = next_change.result()
                for event in controller.events[printed:]:
                    print(event.text, file=out, flush=True)
                printed = len(controller.events)
                if snapshot.halt is not None or snapshot.audited:
                    return snapshot
                if snapshot.my_turn and snapshot.step != asked:
                    asked = snapshot.step
                    _show_turn(snapshot, out)
                next_change = asyncio.ensure_future(changes.__anext__())
                if input_task is None:
                    input_task = asyncio.ensure_future(asyncio.to_thread(reader))
            if input_task is not None and input_task in done:
                line = input_task.result()
                input_task = None
                if line == "":  # end of input: keep following the table without a prompt
                    continue
                input_task = asyncio.ensure_future(asyncio.to_thread(reader))
                await _command(controller, line.strip(), snapshot, out)
    finally:
        next_change.cancel()


def _show_turn(snapshot: Snapshot, out: TextIO) -> None:
    view = snapshot.view
    assert view is not None
    hand = ", ".join(card_name(card) for card in view.hand) or "no cards"
    moves = " | ".join(str(move) for move in view.legal_moves)
    print(f"\nyour turn ({view.phase}). hand: {hand}", file=out)
    print(f"moves: {moves}", file=out)
    print("> ", end="", file=out, flush=True)


async def _command(
    controller: Controller, line: str, snapshot: Snapshot | None, out: TextIO
) -> None:
    if not line:
        return
    word, _, rest = line.partition(" ")
    view = None if snapshot is None else snapshot.view
    if word == "help":
        print(HELP, file=out)
    elif word == "hand":
        cards = "no cards yet" if view is None else ", ".join(map(card_name, view.hand))
        print(cards or "no cards", file=out)
    elif word == "moves":
        moves = [] if view is None else [str(move) for move in view.legal_moves]
        print(" | ".join(moves) or "nothing to play now", file=out)
    elif word == "say":
        await controller.chat(rest)
    elif word == "leave":
        await controller.leave("left from the console")
    else:
        reason = await controller.submit(line)
        if reason is not None:
            print(f"refused: {reason}", file=out)
    print("> ", end="", file=out, flush=True)
