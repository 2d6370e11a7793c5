"""A peer's timers: when it began waiting for a step (kept across a restart), this seat's
forced moves paced, and the deadlines watched: the seats a step waits for past its deadline
stated silent (:mod:`condottiere.peer.silence`), and coin reveals that do not come voted on
(:mod:`condottiere.peer.coin`)."""

from __future__ import annotations

import asyncio
import struct
import time
from collections.abc import Callable
from typing import Protocol, TypeVar

from condottiere.peer.controller import Snapshot
from condottiere.peer.driver import Table
from condottiere.peer.pacing import Pacer
from condottiere.peer.store import Store
from condottiere.peer.trace import Trace

__all__ = ["STEP_BEGAN", "TimedNode", "play_forced", "step_began", "watch_time"]

T = TypeVar("T")

STEP_BEGAN = "step began"
"""The store's setting of the table id and number of the step the table waits for, and when
(wall-clock seconds) this peer began waiting for it."""
WATCH_SECONDS = 0.25
"""How often the deadlines are looked at."""


class TimedNode(Protocol):
    """What the timers see of their node."""

    snapshot: Snapshot | None
    coin_timeout: float
    pacer: Pacer
    trace: Trace

    async def call(self, action: Callable[[Table], T]) -> T: ...


def step_began(store: Store, table_id: bytes, number: int) -> float:
    """When this peer began waiting for step ``number`` (monotonic seconds): as its store
    noted it when that step began before the peer was stopped and started again (the others
    count the step's deadline from then, and so does this seat's screen); else now, noted for
    such a restart."""
    now, wall = time.monotonic(), time.time()
    step = table_id + number.to_bytes(8, "big")
    noted = store.setting(STEP_BEGAN)
    if noted is not None and noted[:-8] == step:
        began = float(struct.unpack(">d", noted[-8:])[0])
        return now - max(0.0, wall - began)
    store.set_setting(STEP_BEGAN, step + struct.pack(">d", wall))
    return now


async def play_forced(node: TimedNode, turn: int, since: float) -> None:
    """Publish this seat's forced move of ``turn`` once the delay the pacer draws has passed
    since it was awaited (see :mod:`condottiere.peer.pacing`)."""
    await asyncio.sleep(max(0.0, since + node.pacer.draw() - time.monotonic()))
    if await node.call(lambda table: table.play_forced(turn)):
        node.trace.write("forced", turn=turn)


async def watch_time(node: TimedNode) -> None:
    """Vote on coin reveals that do not come (see :mod:`condottiere.peer.coin`), and run
    the relay rounds on the seats a step waits for past its deadline, at every tick
    (:mod:`condottiere.peer.silence`)."""
    while True:
        await asyncio.sleep(WATCH_SECONDS)
        snapshot = node.snapshot
        waiting = None if snapshot is None else snapshot.waiting
        if (
            snapshot is not None
            and waiting is not None
            and waiting.deadline is not None
            and time.monotonic() - waiting.since > waiting.deadline
        ):
            waited = time.monotonic() - waiting.since
            await node.call(lambda table: table.declare_silent(waited=waited))  # noqa: B023
        if (
            snapshot is not None
            and snapshot.waiting is not None
            and snapshot.waiting.kind == "coin_reveal"
            and time.monotonic() - snapshot.waiting.since > node.coin_timeout
        ):
            await node.call(lambda table: table.give_up_waiting())
