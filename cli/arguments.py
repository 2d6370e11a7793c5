"""What the sub-commands' options share: argument types, each of which returns the value or
raises ``argparse.ArgumentTypeError`` with the reason (which argparse shows with exit status
2), the data directory a peer uses when ``--data`` is not given, and what to say when another
process holds it.

>>> positive_int("3"), non_negative_float("0.5"), bot_list("Greedy, random")
(3, 0.5, ('greedy', 'random'))
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path

from condottiere.bots import BOTS
from condottiere.peer.data_lock import DataInUse
from condottiere.peer.store import Store

__all__ = [
    "bot_list",
    "confirm_new",
    "data_in_use",
    "default_data",
    "non_negative_float",
    "positive_int",
    "positive_seconds",
]


def default_data(role: str) -> Path:
    """The data directory of a peer in ``role`` (``host``, ``player``, ``bot``, ``play``) when
    ``--data`` is not given: under ``$CONDOTTIERE_HOME``, else ``$XDG_DATA_HOME/condottiere``
    (``~/.local/share/condottiere``)."""
    base = os.environ.get("CONDOTTIERE_HOME") or os.path.join(
        os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share"), "condottiere"
    )
    return Path(base) / role


def data_in_use(in_use: DataInUse) -> str:
    """What to tell a player whose data directory another process holds: who holds it, and
    what to do."""
    return f"{in_use}; stop it, or give this command a data directory of its own: --data DIR"


def confirm_new(store: Store, data: Path, ask: Callable[[str], str] | None) -> bool:
    """Whether ``--new`` may start afresh on ``store`` (the store of ``data``): yes when it
    holds no game under way; else the player is asked with ``ask`` (None: nobody to ask, a
    program's input, and it goes ahead, saying so on the standard error)."""
    current = store.setting("table")
    if current is None or current == store.setting("closed") or not store.entries(current):
        return True
    under_way = f"{data} holds a game under way (table {current.hex()[:8]})"
    if ask is None:
        print(f"condottiere: {under_way}; --new gives it up", file=sys.stderr)
        return True
    try:
        answer = ask(f"{under_way}; --new gives it up for good. Start a new game? [y/N] ")
    except EOFError:
        answer = ""
    if answer.strip().lower() in ("y", "yes"):
        return True
    print(f"kept it: the same command without --new takes it up ({data})", file=sys.stderr)
    return False


def non_negative_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value >= 0:  # also rejects nan
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {text}")
    return value


def positive_seconds(text: str) -> float:
    """A time limit: a finite number of seconds above 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, not {text}")
    return value


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {text}")
    return value


def bot_list(text: str) -> tuple[str, ...]:
    """Known strategy names, comma-separated."""
    names = tuple(name.strip().lower() for name in text.split(","))
    unknown = [name for name in names if name not in BOTS]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown bot {unknown[0]!r} (choose from {', '.join(sorted(BOTS))})"
        )
    return names
