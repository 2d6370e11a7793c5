"""The end of a command's event loop: nothing left for ``asyncio.run`` to cancel.

When a peer stops, its gRPC servers cancel the calls still open (another peer's stream of a
log, a bot's stream of snapshots); gRPC's own task around each call then ends a few turns of
the loop later. ``asyncio.run`` cancels every task still pending when the command's
coroutine returns, and gRPC prints a ``CancelledError`` traceback for each of its tasks
cancelled that way. :func:`settle` lets them end first, and cancels and awaits what does not
end within its bound (tasks of the command's own it had cancelled without awaiting).
"""

from __future__ import annotations

import asyncio
import contextlib

__all__ = ["SETTLE_SECONDS", "settle"]

SETTLE_SECONDS = 5.0
"""The longest :func:`settle` waits for the other tasks to end by themselves."""


async def settle(bound: float = SETTLE_SECONDS) -> None:
    """Wait until every task of the running loop but this one has ended (at most ``bound``
    seconds), then cancel those left and wait for them to end too."""
    current = asyncio.current_task()
    others = asyncio.all_tasks() - {current}
    if not others:
        return
    _, left = await asyncio.wait(others, timeout=bound)
    for task in left:
        task.cancel()
    for task in left:
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
