"""Who sits at the table, with the short fingerprint of each one's key, for the people in the
room to compare aloud: a player reads their own fingerprint from their screen (``your key's
fingerprint``) and every other screen must show the same beside their name.

>>> from condottiere.peer.controller import Player
>>> print("\\n".join(lobby_lines("Friday", 3, (
...     Player(0, "ada", "1a2b-3c4d-5e6f-7a8b-9c0d", "10.0.0.5:4000"),
...     Player(None, "bob", "aaaa-bbbb-cccc-dddd-eeee", "10.0.0.6:4000"),
... ), me="1a2b-3c4d-5e6f-7a8b-9c0d",
... freed=("seat 1 (cy) silent at the start for 60 s; signed by seat 0 (not ready in time)",))))
at the table 'Friday' (2 of 3 seats taken):
  seat 0   ada  1a2b-3c4d-5e6f-7a8b-9c0d  (you)
  waiting  bob  aaaa-bbbb-cccc-dddd-eeee
  freed: seat 1 (cy) silent at the start for 60 s; signed by seat 0 (not ready in time)
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TextIO

from condottiere.peer.controller import Controller, Player, Snapshot

__all__ = ["REFUSED_LINE", "lobby_lines", "show_lobby"]

REFUSAL_CHECK_SECONDS = 1.0
"""How often a joiner's lobby looks whether the table's creator refused it a seat."""
REFUSED_LINE = (
    "the table's creator refused you a seat: you will not be seated at this table "
    "(Ctrl-C stops this peer)"
)


def lobby_lines(
    table: str, seats: int, players: Sequence[Player], me: str, freed: Sequence[str] = ()
) -> list[str]:
    """The lobby as lines: each player's seat (or that they ask for one), name and
    fingerprint; then each seat freed for another player, and why."""
    width = max((len(player.name) for player in players), default=0)
    lines = [f"at the table {table!r} ({min(len(players), seats)} of {seats} seats taken):"]
    joining = bool(players) and players[0].fingerprint != me  # the creator is listed first
    for player in players:
        seat = "waiting" if player.seat is None else f"seat {player.seat}"
        you = "  (you)" if player.fingerprint == me else ""
        if you and joining and player.seat is None:
            you = "  (you: waiting for the host to let you in)"
        lines.append(f"  {seat:7}  {player.name:{width}}  {player.fingerprint}{you}")
    lines += [f"  freed: {words}" for words in freed]
    return lines


async def show_lobby(controller: Controller, me: str, out: TextIO) -> None:
    """Print the lobby each time someone asks for a seat, is seated, or has their seat freed
    (not ready in time), until the game starts (the last lines printed show the seating);
    and once, when the table's creator refused this player a seat (which no log says: its
    peer tells this one, :attr:`Controller.refused_seat`, looked at every second). A joiner
    left without a seat when the game starts keeps looking: the refusal may reach it after
    the seating does."""
    shown: list[str] = []
    refused = False
    changes = controller.changes().__aiter__()
    snapshot: Snapshot | None = None
    next_change = asyncio.ensure_future(changes.__anext__())
    try:
        while True:
            done, _ = await asyncio.wait({next_change}, timeout=REFUSAL_CHECK_SECONDS)
            if next_change in done:
                snapshot = next_change.result()
                next_change = asyncio.ensure_future(changes.__anext__())
                lines = lobby_lines(
                    snapshot.table_name, snapshot.seats, snapshot.players, me, snapshot.freed
                )
                if not shown:
                    print(f"deadlines: {snapshot.deadlines.words()}", file=out, flush=True)
                if lines != shown:
                    print("\n".join(lines), file=out, flush=True)
                    shown = lines
            unseated = snapshot is not None and snapshot.seat is None
            if not refused and unseated and controller.refused_seat:
                refused = True
                print(REFUSED_LINE, file=out, flush=True)
            if snapshot is not None and snapshot.stage != "lobby" and (refused or not unseated):
                return
    finally:
        next_change.cancel()
