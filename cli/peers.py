"""The networked commands on the command line: ``host``, ``join``, ``bot``, ``tables``,
``export``, ``verify``, ``replay`` and ``standings``: their options, the settings they make,
and what runs each (:mod:`condottiere.cli.peer_runner` a peer, :mod:`condottiere.cli.tables`
the LAN's tables, :mod:`condottiere.cli.records` a game's record,
:mod:`condottiere.cli.standings` the night's standings).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from condottiere.cli.arguments import default_data, non_negative_float
from condottiere.cli.lan import add_interface_option, add_listen_option, is_address, placement_from
from condottiere.cli.peer_runner import PeerSettings, run_peer
from condottiere.cli.seat import add_seat_options, check_strategies
from condottiere.cli.standings import add_command as add_standings_command
from condottiere.cli.standings import run_standings
from condottiere.cli.table_options import add_table_options, check_bot_count, table_spec
from condottiere.cli.tables import add_command as add_tables_command
from condottiere.cli.tables import main_tables

__all__ = ["add_commands", "main_peer", "settings_from"]


def add_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``host``, ``join``, ``bot``, ``tables``, ``export``, ``verify`` and ``replay`` to a
    parser."""
    host = commands.add_parser(
        "host",
        help="create a table and play at it (advertised on the LAN)",
        description="Create a table on this machine and take its first seat. The table is "
        "advertised on the LAN (others see it with 'condottiere tables' and join it by name), "
        "and the address others can join with is printed ('condottiere join ADDRESS'). With "
        "--bots, bot peers take the other seats as separate processes.",
    )
    add_table_options(host)
    host.add_argument(
        "--bots",
        type=_bot_names,
        default=[],
        metavar="NAME,NAME,...",
        help="start these bots as peers at the table (e.g. greedy,greedy,random; a bot may be "
        "your own class, PATH.py:CLASS or MODULE:CLASS); they think within --time-limit",
    )
    host.add_argument(
        "--open",
        action="store_true",
        help="seat the first players who ask (default: you admit or refuse each one at the "
        "console, seeing their name and key fingerprint; a host played by --strategy or "
        "--headless is always open); your own --bots are seated without asking",
    )
    _peer_options(host, "host")
    join = commands.add_parser(
        "join",
        help="take a free seat at a table, by its name on the LAN or a peer's address",
        description="Ask for a seat at the table TABLE names: its name or the start of its id "
        "as 'condottiere tables' lists them, or the address of any of its peers (HOST:PORT, "
        "as 'condottiere host' printed it; where zeroconf cannot reach).",
    )
    join.add_argument(
        "address",
        metavar="TABLE",
        help="a table's name or id prefix, or HOST:PORT of any peer at the table",
    )
    _peer_options(join, "player")
    bot = commands.add_parser(
        "bot",
        help="a bot peer: take a seat at a table and let a strategy play it",
        description="Join the table at --join and play the seat with a bot strategy.",
    )
    bot.add_argument(
        "--join",
        required=True,
        metavar="TABLE",
        help="the table: its name or id prefix on the LAN, or HOST:PORT of a peer at it",
    )
    _peer_options(bot, "bot")
    bot.add_argument(
        "--stop-with",
        type=int,
        metavar="PID",
        help="stop when the process PID, which started this bot, stops (a host gives it to "
        "the bots it starts); meanwhile, wait for the data directory while the same bot of "
        "that host's previous run stops",
    )
    for parser in (join, bot):
        parser.add_argument(
            "--wait",
            type=float,
            default=10.0,
            metavar="SECONDS",
            help="how long to look on the LAN for the table named (default 10)",
        )
    for parser in (host, join, bot):
        add_seat_options(parser, bot=parser is bot)
    export_parser = commands.add_parser(
        "export",
        help="write the table of a data directory to one record file",
        description="Write every signed entry of the table a data directory holds to a "
        "record file (verify and replay read it).",
    )
    export_parser.add_argument(
        "--data",
        type=Path,
        help="the peer's data directory (default: of the default directories of play, host, "
        f"join and bot, under {default_data('play').parent}, the one with a table that was "
        "written last)",
    )
    export_parser.add_argument("--output", "-o", type=Path, help="the file to write")
    add_tables_command(commands)
    add_standings_command(commands)
    verify_parser = commands.add_parser(
        "verify",
        help="check a game record: signatures, proofs, rules, every card",
        description="Check every signature, chain, proof and move of a record; with the "
        "seats' audit secrets, every card against what was shown of it. Exit status 0 when "
        "the game is shown fair, 1 when not, 2 when the file cannot be read.",
    )
    verify_parser.add_argument("file", type=Path, help="a record file (condottiere export)")
    replay_parser = commands.add_parser(
        "replay",
        help="show a recorded game move by move, on the board",
        description="Check a record as 'verify' does, then show the game: on a terminal, "
        "the full-screen board as it was after each move, with a seat's hand (the audit "
        "shows every hand), stepped forward and back with the arrow keys; with --text (or "
        "when the output is not a terminal), every event of the table as a line.",
    )
    replay_parser.add_argument("file", type=Path, help="a record file")
    replay_parser.add_argument(
        "--text", action="store_true", help="tell the game as lines of text, in the table's order"
    )
    replay_parser.add_argument(
        "--delay",
        type=non_negative_float,
        default=0.0,
        metavar="SECONDS",
        help="with --text, pause after each move (default 0)",
    )
    replay_parser.add_argument(
        "--no-color", action="store_true",
        help="no colours on the board (also when NO_COLOR is set)",
    )


def _peer_options(parser: argparse.ArgumentParser, role: str) -> None:
    if role == "bot":
        parser.add_argument(
            "--player", default="",
            help="the bot's name at the table (default: a condottiere's name drawn from its "
            "key, the same each time, so that a bot is never named after the person who runs it)",
        )
    else:
        parser.add_argument(
            "--player", default=os.environ.get("USER", role)[:40] or role,
            help="your name at the table",
        )
    parser.add_argument(
        "--data", type=Path, default=None, help=f"data directory (default {default_data(role)})"
    )
    add_interface_option(parser)
    add_listen_option(parser)
    parser.add_argument(
        "--peer",
        action="append",
        default=[],
        type=_address,
        metavar="HOST:PORT",
        help="the address of another peer of the table, to follow beside those found on "
        "the LAN (where multicast does not pass); repeatable",
    )
    parser.add_argument(
        "--port", type=int, default=0, help="port to serve on (default: any free port)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the bots' choices")
    parser.add_argument(
        "--coin-timeout",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="how long to wait for a coin reveal before closing the choice without it "
        "(its value is then opened from its escrow; default 60)",
    )
    parser.add_argument(
        "--new",
        action="store_true",
        help="start afresh even if the data directory holds an unfinished game",
    )
    parser.add_argument(
        "--trace",
        type=Path,
        metavar="FILE",
        help="append timestamped progress lines (JSON) to FILE, for benchmarks (a host's "
        "--bots each to FILE's name with .botN before its suffix: trace.bot1.jsonl)",
    )
    parser.set_defaults(role=role)


def _address(text: str) -> str:
    if not is_address(text):
        raise argparse.ArgumentTypeError(f"not HOST:PORT: {text!r}")
    return text


def _bot_names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


def settings_from(parser: argparse.ArgumentParser, args: argparse.Namespace) -> PeerSettings:
    """The settings of ``host``, ``join`` or ``bot``; bad input exits with status 2."""
    data = args.data or default_data(args.role)
    settings = PeerSettings(
        data=data,
        player=args.player,
        placement=placement_from(parser, args),
        port=args.port,
        strategy=args.strategy,
        time_limit=args.time_limit,
        headless=getattr(args, "headless", False),
        seed=args.seed,
        coin_timeout=args.coin_timeout,
        new=args.new,
        trace=args.trace,
        peers=args.peer,
        command=f"condottiere {args.command}",
        stop_with=getattr(args, "stop_with", None),
    )
    if settings.headless and settings.strategy is not None:
        parser.error("--headless leaves the seat to another program: give no --strategy")
    check_strategies(parser, [args.strategy] if args.strategy else [], args.seed)
    if args.command == "host":
        check_strategies(parser, args.bots, args.seed)
        settings.spec = table_spec(parser, args, args.player)
        check_bot_count(parser, len(args.bots), settings.spec.seats)
        settings.bots = args.bots
        settings.open_seating = args.open
    else:
        settings.join = args.join if args.command == "bot" else args.address
        if not args.wait >= 0:
            parser.error(f"--wait must be 0 or more, not {args.wait}")
        settings.wait = args.wait
    return settings


def main_peer(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Run the networked command ``args.command``."""
    if args.command in ("host", "join", "bot"):
        return run_peer(settings_from(parser, args))
    if args.command == "tables":
        return main_tables(parser, args)
    from condottiere.cli.records import run_export, run_replay, run_verify  # only for these

    if args.command == "export":
        return run_export(args.data, args.output)
    if args.command == "verify":
        return run_verify(args.file)
    if args.command == "standings":
        return run_standings(args.records)
    terminal = sys.stdin.isatty() and sys.stdout.isatty()
    return run_replay(args.file, args.delay, screen=terminal and not args.text,
                      color=not args.no_color)
