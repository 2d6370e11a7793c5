"""The ``condottiere`` command.

Sub-commands:

- ``play``: the full-screen game (see :mod:`condottiere.cli.play`); ``watch``: a table
  followed on the full-screen board without a seat;
- ``demo``: an offline game between bots, narrated on the terminal as plain text;
- ``host``, ``join``, ``bot``: a peer at a networked table (see :mod:`condottiere.cli.peers`);
- ``tables``: the tables on the LAN (see :mod:`condottiere.cli.tables`);
- ``export``, ``verify``, ``replay``: a game's record;
- ``tournament``: many offline games between bots on every core, and each bot's figures.

``main(argv)`` returns the exit status, so tests can call it in-process; bad input exits with
status 2 and a message on stderr, as argparse does.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import textwrap
from collections.abc import Sequence

from condottiere.bots import BOTS
from condottiere.cli.arguments import bot_list, non_negative_float, positive_int
from condottiere.cli.demo import DemoSettings, run_demo
from condottiere.cli.peers import add_commands, main_peer
from condottiere.cli.play import (
    add_play_command,
    add_watch_command,
    play_settings,
    run_play,
    watch_settings,
)
from condottiere.cli.table_options import chosen_edition
from condottiere.cli.tournament import add_tournament_parser, tournament_command
from condottiere.interface import DEFAULT_GAME, Edition, game_named, game_names

__all__ = ["build_parser", "demo_settings", "main"]

DEFAULT_BOTS = ("greedy", "random")
TTY_DELAY_SECONDS = 0.15


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the whole command, with help on every command and option."""
    parser = argparse.ArgumentParser(
        prog="condottiere",
        description="Condottiere, the card game of Renaissance mercenaries, "
        "played peer to peer on a LAN.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    add_play_command(commands)
    add_watch_command(commands)
    demo = commands.add_parser(
        "demo",
        help="watch bots play an offline game, narrated as plain text",
        description=textwrap.fill(
            "Play an offline game between bots and narrate it: every battle, who plays what, "
            "the strengths with their reasons, who wins, the board after each battle, the "
            "refills, and the winners.",
            width=78,
        ),
        epilog="\n".join(_editions(game) for game in game_names()),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    demo.set_defaults(command_parser=demo)
    demo.add_argument(
        "--game",
        default=DEFAULT_GAME,
        choices=game_names(),
        help=f"the game to play (default {DEFAULT_GAME})",
    )
    demo.add_argument(
        "--edition",
        help="the game's edition, listed below (default: the one marked *)",
    )
    demo.add_argument(
        "--players",
        type=int,
        help="number of seats (default: the edition's, listed below)",
    )
    demo.add_argument(
        "--seed",
        type=int,
        help="seed of the deal and of the bots; the same seed replays the same game "
        "(default: a fresh one, printed)",
    )
    demo.add_argument(
        "--bots",
        type=bot_list,
        default=DEFAULT_BOTS,
        metavar="NAME,NAME,...",
        help=f"strategies seat by seat, repeated to fill every seat; known: "
        f"{', '.join(sorted(BOTS))} (default {','.join(DEFAULT_BOTS)})",
    )
    demo.add_argument(
        "--delay",
        type=non_negative_float,
        metavar="SECONDS",
        help=f"pause after each move (default {TTY_DELAY_SECONDS} on a terminal, "
        "0 when output is redirected)",
    )
    demo.add_argument(
        "--max-contests",
        type=positive_int,
        metavar="N",
        help="stop after N contests decided (battles, tricks: the game's results) even if "
        "nobody has won yet",
    )
    add_commands(commands)
    add_tournament_parser(commands)
    return parser


def _editions(game: str) -> str:
    """The help's list of ``game``'s editions, with their seats."""
    rules = game_named(game)
    lines = [f"{rules.title} editions (--game {game}):"]
    for name, edition in sorted(rules.editions.items()):
        mark = "*" if name == rules.default_edition else " "
        lines.append(
            f" {mark}{name:13} {edition.title} ({_seat_range(edition)} players, "
            f"{edition.default_seats} by default)"
        )
    return "\n".join(lines)


def _seat_range(edition: Edition) -> str:
    low, high = edition.min_seats, edition.max_seats
    return f"exactly {low}" if low == high else f"{low} to {high}"


def _demo_settings(parser: argparse.ArgumentParser, args: argparse.Namespace) -> DemoSettings:
    _, offered = chosen_edition(parser, args.game, args.edition)
    edition = offered.name
    players = args.players if args.players is not None else offered.default_seats
    if not offered.min_seats <= players <= offered.max_seats:
        parser.error(
            f"edition {edition} is played by {_seat_range(offered)} players, not {players}"
        )
    if len(args.bots) > players:
        parser.error(f"{len(args.bots)} bots given for {players} seats")
    seats = tuple(args.bots[seat % len(args.bots)] for seat in range(players))
    delay = args.delay if args.delay is not None else (
        TTY_DELAY_SECONDS if sys.stdout.isatty() else 0.0
    )
    return DemoSettings(
        edition=edition,
        bots=seats,
        seed=args.seed if args.seed is not None else random.randrange(1_000_000),
        game=args.game,
        delay=delay,
        max_contests=args.max_contests,
    )


def demo_settings(argv: Sequence[str]) -> DemoSettings:
    """What ``condottiere demo ...`` would play; ``argv`` starts with ``demo``.

    Bad input exits with status 2 and a message, as on the command line.

    >>> settings = demo_settings(["demo", "--edition", "zman-duel", "--bots", "random"])
    >>> settings.edition, settings.bots
    ('zman-duel', ('random', 'random'))
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command != "demo":
        parser.error(f"{args.command!r} is not the demo command")
    return _demo_settings(args.command_parser, args)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``); return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "tournament":
        return tournament_command(args.command_parser, args)
    if args.command == "play":
        return run_play(play_settings(args.command_parser, args))
    if args.command == "watch":
        return run_play(watch_settings(args.command_parser, args))
    if args.command != "demo":
        return main_peer(parser, args)
    settings = _demo_settings(args.command_parser, args)
    try:
        run_demo(settings, sys.stdout)
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, as other commands do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
