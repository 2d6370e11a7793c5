"""Who plays a peer's seat: a person at the console, a strategy (``--strategy``), or another
program through the peer's controller service (``--headless``).

A strategy is a name the project knows or the author's own class (``PATH.py:CLASS``,
``MODULE:CLASS``; see :mod:`condottiere.bots.loading`); it is loaded while the command line is
read, so a mistake in it is reported before the peer takes a seat. A headless peer prints the
table's events and waits for its program to play; the program finds the peer's controller service
through the ``controller on ...`` line the peer prints, or through ``DATA/controller.address``
and ``DATA/controller.token``.
"""

from __future__ import annotations

import argparse
from typing import TextIO

from condottiere.bots.loading import StrategyError, load_strategy
from condottiere.bots.player import DEFAULT_TIME_LIMIT
from condottiere.cli.arguments import positive_seconds
from condottiere.peer.controller import Controller, Snapshot

__all__ = ["add_seat_options", "check_strategies", "play_headless"]

STRATEGY_HELP = (
    "a name (greedy, random, ...) or your own class, as PATH.py:CLASS or MODULE:CLASS "
    "(see docs/bots.md)"
)


def add_seat_options(parser: argparse.ArgumentParser, *, bot: bool) -> None:
    """``--strategy`` and ``--time-limit`` (and, unless ``bot``, ``--headless``) on ``parser``."""
    parser.add_argument(
        "--strategy",
        default="greedy" if bot else None,
        metavar="NAME|PATH.py:CLASS|MODULE:CLASS",
        help="the bot that plays the seat"
        + (" (default greedy): " if bot else ", instead of typing moves: ")
        + STRATEGY_HELP,
    )
    parser.add_argument(
        "--time-limit",
        type=positive_seconds,
        default=DEFAULT_TIME_LIMIT,
        metavar="SECONDS",
        help="how long the strategy may think about one move; past it, or when it raises or "
        f"answers a move the engine refuses, the seat passes if it may (default "
        f"{DEFAULT_TIME_LIMIT:g})",
    )
    if not bot:
        parser.add_argument(
            "--headless",
            action="store_true",
            help="no prompt: another program plays the seat through this peer's controller "
            "service (a bot in any language; see docs/bots.md); the table's events are printed",
        )


def check_strategies(parser: argparse.ArgumentParser, specs: list[str], seed: int) -> None:
    """Load every strategy of ``specs`` once, so that a mistake stops the command line (exit
    status 2) with what to fix, before any peer takes a seat."""
    for spec in specs:
        try:
            load_strategy(spec, seed)
        except StrategyError as exc:
            parser.error(f"strategy {spec!r}: {exc}")


async def play_headless(controller: Controller, out: TextIO) -> Snapshot:
    """Print the table's events until the game is over (audited) or the table halts, while
    another program plays the seat; the last snapshot."""
    async for snapshot, events in controller.updates():
        for event in events:
            print(event.text, file=out, flush=True)
        if snapshot.final:
            return snapshot
    raise RuntimeError("the controller stopped before the game ended")
