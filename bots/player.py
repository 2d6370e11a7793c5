"""A strategy playing a seat at a networked table, through the seat's controller.

The strategy gets a copy of the seat's own game (``GameRules.for_seat``: other hands are only
counts), exactly what the seat may see, and answers with a move. A strategy that raises,
takes longer than its time limit or answers with something the rules refuse does not stall
the table: one line of the log says what went wrong and where, and the game's safe move is
played instead (``GameRules.safe_move``: in Condottiere, ``pass`` when passing is legal).

The strategy thinks on a thread of its own, one move at a time: a strategy still busy with an
earlier move when the next one is due is not asked again (the safe move is played), and a
strategy that never returns does not keep the peer from exiting once the game is over.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from condottiere.bots.strategy import Strategy
from condottiere.interface import GameState, game_named
from condottiere.peer.controller import Controller, Snapshot

__all__ = ["DEFAULT_TIME_LIMIT", "play_seat"]

DEFAULT_TIME_LIMIT = 10.0
"""Seconds a strategy may think about one move."""


async def play_seat(
    controller: Controller,
    strategy: Strategy,
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
    log: Callable[[str], None] = print,
) -> Snapshot:
    """Play every move of the controller's seat with ``strategy`` until the table is over
    (audited) or halted; the last snapshot."""
    thinker = _Thinker(strategy, time_limit)
    handled = -1
    async for snapshot in controller.changes():
        if snapshot.final:
            return snapshot
        if not snapshot.my_turn or snapshot.step == handled:
            continue
        handled = snapshot.step
        game = await controller.game()
        assert game is not None and snapshot.view is not None and snapshot.seat is not None
        move, trouble = await thinker.choose(game, snapshot.seat)
        if move is not None:
            reason = await controller.submit(str(move))
            if reason is None:
                continue
            trouble = f"chose {move}, which the rules refuse: {reason}"
        fallback = game_named(snapshot.game).safe_move(snapshot.view.legal_moves)
        log(f"{strategy.name} (seat {snapshot.seat}) {trouble}; playing {fallback} instead")
        reason = await controller.submit(str(fallback))
        if reason is not None:
            log(f"the table refused {fallback} too: {reason}")
    raise RuntimeError("the controller stopped before the game ended")


class _Thinker:
    """Asks a strategy for moves on a daemon thread, one at a time, within a time limit."""

    def __init__(self, strategy: Strategy, time_limit: float) -> None:
        self._strategy = strategy
        self._time_limit = time_limit
        self._busy = threading.Event()
        """Set while the strategy thinks (cleared as its answer is handed over, not when its
        thread ends: a thread that has answered may still be alive for a moment)."""

    async def choose(self, game: Any, seat: int) -> tuple[Any, str]:
        """The strategy's move, or None and what went wrong (in words that follow its name).
        ``game`` is the table's game of its own type (a strategy reads what its game offers)."""
        if self._busy.is_set():
            return None, "is still thinking about an earlier move"
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[tuple[bool, object]] = loop.create_future()

        def settle(result: tuple[bool, object]) -> None:
            if not answer.done():
                answer.set_result(result)

        def think() -> None:
            try:
                result: tuple[bool, object] = (True, self._strategy.choose(game, seat))
            except BaseException as exc:  # the author's code: whatever it raises is reported
                result = (False, exc)
            self._busy.clear()
            with contextlib.suppress(RuntimeError):  # the loop is gone: nobody waits any more
                loop.call_soon_threadsafe(settle, result)

        self._busy.set()
        threading.Thread(target=think, name="strategy", daemon=True).start()
        try:
            returned, value = await asyncio.wait_for(answer, self._time_limit)
        except TimeoutError:
            return None, f"took longer than its time limit ({self._time_limit:g} s) to choose"
        if not returned:
            assert isinstance(value, BaseException)
            return None, f"raised {_where(value)}"
        return _as_move(game, value)


def _where(exc: BaseException) -> str:
    """``ZeroDivisionError: division by zero (frugal.py, line 12, in choose)``."""
    text = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    frames = traceback.extract_tb(exc.__traceback__)
    if frames:
        frame = frames[-1]
        text += f" ({Path(frame.filename).name}, line {frame.lineno}, in {frame.name})"
    return text


def _as_move(game: GameState[Any], value: object) -> tuple[Any, str]:
    """The move a strategy answered (a move, or its text), or None and why not."""
    if isinstance(value, str):
        try:
            return game.parse_move(value), ""
        except ValueError as exc:
            return None, f"answered {value!r}, which is not a move: {exc}"
    try:
        move = game.parse_move(str(value))
    except ValueError:
        move = None
    if move is None or move != value:
        return None, f"answered {value!r}, which is not a move"
    return move, ""
