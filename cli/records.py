"""A game's record on the command line: ``export`` (the table of a data directory to one
record file), ``verify`` (every signature, proof, move and card of a record; whether the game
was fair) and ``replay`` (a checked record shown move by move).

Each prints on ``out`` (default: the standard output as it is when called), returns the
command's exit status, and says what is wrong on the standard error.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from condottiere.cli.arguments import default_data
from condottiere.crypto import Identity
from condottiere.peer.entries import Rejection, read_entry
from condottiere.peer.record import export, load, owner_of, verify
from condottiere.peer.store import DATABASE, Store

__all__ = ["DATA_ROLES", "damaged_entries", "run_export", "run_replay", "run_verify"]

DATA_ROLES = ("play", "host", "player", "bot")
"""The default data directories (:func:`~condottiere.cli.arguments.default_data`), each a
command's."""


def run_export(data: Path | None, output: Path | None, out: TextIO | None = None) -> int:
    """Write the table of a data directory to one record file (default
    ``condottiere-ID.cdr``, ID the start of the table's id). With no ``data``, the directory
    of the default ones (``play``, ``host``, ``player``, ``bot``) that holds a table and was
    written last, named on the standard error.

    It only reads: it takes no lock on the directory, so it writes the record of a game its
    peer is playing (every entry the peer has committed), and changes none of its data."""
    out = out or sys.stdout
    try:
        if data is None:
            data = _latest_table_data()
            print(f"the table of {data} (another: --data DIR)", file=sys.stderr)
        table_id, signed = _entries_of(data)
    except (OSError, ValueError) as exc:
        print(f"condottiere: {exc}", file=sys.stderr)
        return 1
    path = output or Path(f"condottiere-{table_id[:8]}.cdr")
    entries = sorted((read_entry(s) for s in signed), key=lambda e: e.kind != "table")
    export(entries, path, _owner_of(data))
    print(f"wrote {len(entries)} entries to {path}", file=out)
    return 0


def _latest_table_data() -> Path:
    """Of the default data directories, the one holding a table that was written last;
    :class:`FileNotFoundError` saying where it looked when none holds one."""
    found = []
    for role in DATA_ROLES:
        data = default_data(role)
        try:
            _entries_of(data)
        except (OSError, ValueError):
            continue
        found.append((_written(data), str(data)))
    if not found:
        looked = ", ".join(str(default_data(role)) for role in DATA_ROLES)
        raise FileNotFoundError(
            f"no table in the default data directories ({looked}): give the data directory "
            "of the peer that played it, --data DIR"
        )
    return Path(max(found)[1])


def _written(data: Path) -> float:
    """When a data directory's store was last written (its write-ahead log included)."""
    times = [
        (data / name).stat().st_mtime
        for name in (DATABASE, f"{DATABASE}-wal")
        if (data / name).exists()
    ]
    return max(times, default=0.0)


def _entries_of(data: Path) -> tuple[str, list[bytes]]:
    """The id (hex) of the table a data directory holds, and its signed entries."""
    store = Store(data, read_only=True)
    try:
        current = store.setting("table")
        if current is None:
            raise ValueError(f"{data} holds no table")
        return current.hex(), [entry.signed for entry in store.entries(current)]
    finally:
        store.close()


def _owner_of(data: Path) -> bytes | None:
    """The author whose peer keeps a data directory (None before it has an identity)."""
    store = Store(data, read_only=True)
    try:
        secret = store.setting("identity")
        return None if secret is None else Identity(secret).public.raw
    finally:
        store.close()


def run_verify(path: Path, out: TextIO | None = None) -> int:
    """Check a record file; 0 when the game is shown fair, 1 when not, 2 when the file cannot
    be read. A file with entries that are no longer what was signed (damaged, or altered
    after the game) is said to be so first, with where, and its verdict says so."""
    try:
        signed = load(path)
        verdict = verify(signed, owner_of(path))
    except (OSError, ValueError) as exc:
        print(f"condottiere: {exc}", file=sys.stderr)
        return 2
    damage = damaged_entries(signed)
    lines = verdict.lines()
    if damage:
        told = {reason for _, reason in damage}
        lines = [
            f"the record file is damaged: {len(damage)} of its {len(signed)} entries "
            f"{'is' if len(damage) == 1 else 'are'} not what their author signed (the file was "
            "changed after the game)",
            *(f"  damaged: {where}: {reason}" for where, reason in damage),
            *(line for line in lines[:-1]
              if line.removeprefix("unreadable message: ") not in told),
            "verdict: DAMAGED RECORD: not shown fair (what follows from the damaged entries "
            "cannot be checked)",
        ]
    for line in lines:
        print(line, file=out or sys.stdout)
    return 0 if verdict.fair and not damage else 1


def damaged_entries(signed: Sequence[bytes]) -> list[tuple[str, str]]:
    """Each entry of a record (``signed``, in the file's order) that cannot be read as a
    signed entry: where it is (its place, and its bytes in the file as :func:`load` read it)
    and why."""
    damage = []
    start = 0
    for index, entry in enumerate(signed, 1):
        length = 1 + _varint_size(len(entry)) + len(entry)  # field 1's tag, length, bytes
        try:
            read_entry(entry)
        except Rejection as rejection:
            where = f"entry {index} of {len(signed)} (bytes {start}-{start + length - 1})"
            damage.append((where, str(rejection)))
        start += length
    return damage


def _varint_size(value: int) -> int:
    """How many bytes protobuf's varint of ``value`` takes.

    >>> _varint_size(127), _varint_size(128), _varint_size(300_000)
    (1, 2, 3)
    """
    return max(1, (value.bit_length() + 6) // 7)


def run_replay(path: Path, delay: float, out: TextIO | None = None, *,
               screen: bool = False, color: bool = True) -> int:
    """Check a record as :func:`run_verify` does, then show the game: with ``screen``, on
    the full-screen board, stepped forward and back by the keys (a record with no audit,
    whose hands cannot be shown, is told as text); else move by move as text, in the
    table's order, pausing ``delay`` seconds after each move, coin and deal."""
    try:
        verdict = verify(load(path), owner_of(path))
    except (OSError, ValueError) as exc:
        print(f"condottiere: {exc}", file=sys.stderr)
        return 2
    out = out or sys.stdout
    if screen:
        # The screen's modules (prompt_toolkit) are imported here, not by every command.
        from condottiere.cli.client.replay import Replay, ReplayModel, replay_application

        try:
            replay = Replay(verdict, path)
        except ValueError as exc:
            print(f"condottiere: {exc}; told as text", file=sys.stderr)
        else:
            replay_application(ReplayModel(replay), color=color).run()
            print(verdict.lines()[-1], file=out)
            return 0
    for event in verdict.table.events:
        print(event.text, file=out, flush=True)
        if delay and event.kind in ("move", "coin", "deal"):
            time.sleep(delay)
    print(verdict.lines()[-1], file=out)
    return 0
