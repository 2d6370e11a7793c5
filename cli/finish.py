"""The end of a networked game at one peer: the goodbyes, the record and the summary.

Once its game is over (or its table halted), a peer says goodbye, waits a while until every
seat still at the table holds its last entries (at a table abandoned, its silence
statements: the others need them to reach the same verdict), writes the game's record to
``DATA/records/`` (``condottiere verify FILE`` checks it) and a summary to
``DATA/last-game.json``: the table, the seat, the winners, the record's hash and path, and the
state every seat saw alike at the end (the game's
:meth:`~condottiere.interface.GameRules.public_state`), so that the summaries of every peer of a
table can be compared. A peer that watched the table without a seat has no goodbye to say:
it writes the record and verifies it (:func:`finish_watching`).
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any, TextIO

from condottiere.interface import game_named
from condottiere.peer.controller import Snapshot
from condottiere.peer.node import Node

__all__ = ["GOODBYE_SECONDS", "finish_table", "finish_watching"]

GOODBYE_SECONDS = 15.0
"""How long a finished peer waits for the others to show they hold its last entries."""


async def finish_table(node: Node, final: Snapshot, data: Path, out: TextIO) -> Path:
    """Say goodbye, wait (a while) until every seat holds this peer's entries, write the
    record and the summary, and say how the game ended; the record's path."""
    if final.halt is None or final.halt.abandoned:  # the others may need its statements
        await node.call(lambda table: table.finish())
        deadline = time.monotonic() + GOODBYE_SECONDS
        while time.monotonic() < deadline:
            if await node.call(lambda table: table.seen_by_all()):
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)  # let the last entries reach the peers still reading
    table = node.table
    assert table is not None
    entries = await node.call(
        lambda table: [e for a in table.logs.authors for e in table.logs.log(a)]
    )
    from condottiere.peer.record import export  # at the end only: keeps the start quick

    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = export(
        sorted(entries, key=lambda e: e.kind != "table"),
        data / "records" / f"{stamp}-{table.table_id.hex()[:8]}.cdr",
        table.me,
    )
    summary = {
        "table": table.spec.name,
        "game": table.spec.game,
        "edition": table.spec.edition,
        "seat": final.seat,
        "winners": list(final.winners),
        "record_hash": final.record_hash,
        "audited": final.audited,
        "halt": None if final.halt is None else final.halt.detail,
        "record": str(path),
        "state": _public_state(final),
    }
    (data / "last-game.json").write_text(json.dumps(summary, indent=2))
    node.close_table()
    for line in (
        f"game over: winners {', '.join(f'seat {s}' for s in final.winners) or 'none'}"
        if final.halt is None
        else f"the table stopped: {final.halt.detail}",
        f"record hash {final.record_hash or '-'}; the record is in {path}",
        f"check it with: condottiere verify {path}",
    ):
        print(line, file=out, flush=True)
    return path


async def finish_watching(node: Node, data: Path) -> tuple[Path, list[str]]:
    """At the end of a table this peer watched (no seat: nothing to say goodbye with): write
    the record of every entry it holds to ``DATA/records/`` and verify it as any peer would;
    the record's path and the verdict, in lines (the last says FAIR or not)."""
    from condottiere.peer.record import export, load, verify

    table = node.table
    assert table is not None
    entries = await node.call(
        lambda table: [e for a in table.logs.authors for e in table.logs.log(a)]
    )
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = export(
        sorted(entries, key=lambda e: e.kind != "table"),
        data / "records" / f"{stamp}-{table.table_id.hex()[:8]}.cdr",
    )
    verdict = await asyncio.to_thread(lambda: verify(load(path)))
    node.close_table()
    return path, verdict.lines()


def _public_state(final: Snapshot) -> dict[str, Any] | None:
    """What every seat saw alike at the end; None when the game was never dealt."""
    if final.view is None:
        return None
    return game_named(final.game).public_state(final.view)
