"""A strategy playing a seat at a networked table, through the seat's controller.

The strategy gets a copy of the seat's own engine (``Game.observe``: other hands are only
counts), exactly what the seat may see, and answers with a move. A strategy that raises,
takes longer than its time limit or answers with a move the engine refuses does not stall
the table: the reason is logged and a safe move is played instead (``pass`` when passing is
legal, else the first legal move).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from bots.strategy import Strategy
from engine import Game, Move
from peer.controller import Controller, Snapshot

__all__ = ["DEFAULT_TIME_LIMIT", "play_seat", "safe_move"]

DEFAULT_TIME_LIMIT = 10.0
"""Seconds a strategy may think about one move."""


def safe_move(legal: tuple[Move, ...] | list[Move]) -> Move:
    """``pass`` when it is legal, else the first legal move."""
    passing = Move("pass")
    return passing if passing in legal else legal[0]


async def play_seat(
    controller: Controller,
    strategy: Strategy,
    *,
    time_limit: float = DEFAULT_TIME_LIMIT,
    log: Callable[[str], None] = print,
) -> Snapshot:
    """Play every move of the controller's seat with ``strategy`` until the table is over
    (audited) or halted; the last snapshot."""
    handled = -1
    async for snapshot in controller.changes():
        if snapshot.halt is not None or snapshot.audited:
            return snapshot
        if not snapshot.my_turn or snapshot.step == handled:
            continue
        handled = snapshot.step
        game = await controller.game()
        assert game is not None and snapshot.view is not None and snapshot.seat is not None
        move = await _choose(strategy, game, snapshot.seat, time_limit, log)
        legal = snapshot.view.legal_moves
        reason = None if move is None else await controller.submit(str(move))
        if move is None or reason is not None:
            if reason is not None:
                log(f"{strategy.name} chose {move}, which the engine refuses: {reason}")
            fallback = safe_move(legal)
            log(f"playing {fallback} instead")
            await controller.submit(str(fallback))
    raise RuntimeError("the controller stopped before the game ended")


async def _choose(
    strategy: Strategy, game: Game, seat: int, time_limit: float, log: Callable[[str], None]
) -> Move | None:
    try:
        move = await asyncio.wait_for(
            asyncio.to_thread(strategy.choose, game, seat), timeout=time_limit
        )
    except TimeoutError:
        log(f"{strategy.name} took longer than {time_limit:g} s to choose")
        return None
    except Exception as exc:
        log(f"{strategy.name} raised {type(exc).__name__}: {exc}")
        return None
    if isinstance(move, str):
        try:
            return Move.parse(move)
        except ValueError as exc:
            log(f"{strategy.name} answered {move!r}, which is not a move: {exc}")
            return None
    if not isinstance(move, Move):
        log(f"{strategy.name} answered {move!r}, which is not a move")
        return None
    return move
