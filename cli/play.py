"""``condottiere play``: the full-screen game.

With no options it hosts a table of the default game in its default edition (Condottiere,
``zman``) with that edition's usual seats (four) on this machine (127.0.0.1) and starts a bot
peer for every other seat, each a process of its own (:mod:`condottiere.cli.bot_peers`),
which plays over loopback gRPC exactly as players on other machines would; then it opens the
full-screen client on seat 0. Options choose the game, the edition, the seats, the bots, a
table open to other players (``--listen``, advertised on the LAN), or a seat at someone
else's table (``--join`` its name as ``condottiere tables`` lists it, or ``HOST:PORT``).

The peer runs in this process, in the same event loop as the screen. Ctrl-C leaves the screen
at once: everything is in the data directory (``--data``), and running ``condottiere play``
again on it takes the game up where it stopped, bots included. What the peer or a library
would write to the standard error goes to ``DATA/client.log`` instead, never over the screen;
an error that stops the command (a table that cannot be joined) is printed once the screen
is gone.

One process at a time uses a data directory: a second ``play`` on it (a second ``play --join``
without ``--data`` on the machine that hosts) is told which process holds it and exits with
status 2 before touching anything.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import os
import random
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from condottiere.bots import BOTS
from condottiere.cli.arguments import confirm_new, data_in_use, default_data
from condottiere.cli.bot_peers import BotPeers
from condottiere.cli.client.style import PALETTES
from condottiere.cli.finish import GOODBYE_SECONDS, finish_table, finish_watching
from condottiere.cli.lan import (
    Placement,
    add_interface_option,
    go_on_lan,
    is_address,
    join_table,
    placement_from,
    watch_table,
)
from condottiere.cli.settle import settle
from condottiere.cli.table_options import (
    TABLE_OPTIONS,
    add_table_options,
    check_bot_count,
    default_seats,
    table_spec,
)
from condottiere.interface import DEFAULT_GAME, game_named
from condottiere.peer.controller import Snapshot
from condottiere.peer.entries import SigningConflict
from condottiere.peer.lobby import TableSpec
from condottiere.peer.node import JoinError, Node
from condottiere.peer.store import DamagedStore, DataInUse, Store

if TYPE_CHECKING:
    from condottiere.cli.client.app import Outcome
    from condottiere.cli.client.model import TableModel

__all__ = [
    "PlaySettings",
    "add_play_command",
    "add_watch_command",
    "play_settings",
    "run_play",
    "watch_settings",
]

DEFAULT_BOT = "greedy"
FIND_SECONDS = 10.0
"""How long a table named by ``--join`` is looked for on the LAN."""


@dataclass
class PlaySettings:
    """What ``condottiere play`` was asked to do."""

    data: Path
    player: str
    spec: TableSpec | None
    """The table to host; None to join the one at ``join``."""
    bots: tuple[str, ...] = ()
    """Strategies of the bot peers to start at a hosted table."""
    join: str = ""
    watch: str = ""
    """The table to follow without a seat (a spectator), when not empty."""
    listen: str = "127.0.0.1"
    open_to_others: bool = False
    """Seats are left for other players (``--listen``, or fewer bots than seats)."""
    open_seating: bool = False
    """Seat the first players who ask (``--open``); else the player admits or refuses each
    in the lobby (the table's own bots are admitted by key)."""
    placement: Placement | None = None
    """Where the table is advertised and looked for on the LAN; None: by address only."""
    port: int = 0
    seed: int = 0
    coin_timeout: float = 60.0
    new: bool = False
    palette: str = "classic"
    color: bool = True


def run_play(settings: PlaySettings, out: TextIO = sys.stdout) -> int:
    """Play until the game ends or the player stops; the exit status."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        print(
            "condottiere: 'play' needs a terminal; 'condottiere host' and 'join' play in"
            " plain text",
            file=sys.stderr,
        )
        return 2
    try:
        store = Store(settings.data, command="condottiere play")
    except DataInUse as in_use:
        print(f"condottiere: {data_in_use(in_use)}", file=sys.stderr)
        return 2
    except DamagedStore as damaged:
        print(f"condottiere: {damaged}", file=sys.stderr)
        return 2
    if settings.new and not settings.watch and not confirm_new(store, settings.data, input):
        store.close()
        return 1
    try:
        with _errors_to(settings.data / "client.log"):
            return asyncio.run(_play(settings, store, out))
    except (JoinError, OSError) as error:
        print(f"condottiere: {error}", file=sys.stderr)
        return 1
    except SigningConflict as conflict:
        print(f"condottiere: {conflict}; is another process using {settings.data}?",
              file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"\nstopped; run the same command again to take up the game ({settings.data})",
              file=out)
        return 130
    finally:
        store.close()


async def _play(settings: PlaySettings, store: Store, out: TextIO) -> int:
    # The screen's modules (prompt_toolkit) are imported here, not by every command.
    from condottiere.cli.client.app import ClientApp, Outcome
    from condottiere.cli.client.model import TableModel

    # The table's own bots are admitted by key; anyone else who asks for a seat waits for the
    # player to admit or refuse them in the lobby, unless --open seats the first who ask.
    node = Node(store, host=settings.listen, port=settings.port,
                coin_timeout=settings.coin_timeout,
                open_seating=settings.open_seating)
    interface = "127.0.0.1" if settings.placement is None else (
        settings.placement.interface.addresses[0])
    bots = BotPeers(settings.data / "bots", listen=settings.listen, interface=interface,
                    coin_timeout=settings.coin_timeout)
    bots.prepare(settings.bots if settings.spec is not None else ())
    model = TableModel()
    verdict: list[str] = []
    """What verifying the record said, for a table watched without a seat."""
    outcome: Outcome | None = None
    presence = None
    starting: asyncio.Task[object] | None = None
    """The bots being started, on a thread of their own: the screen need not wait for them."""

    def start_bots(start: Callable[[], object]) -> asyncio.Task[object]:
        def told(done: asyncio.Task[object]) -> None:
            if not done.cancelled() and done.exception() is not None:
                model.note(f"The bots could not be started: {done.exception()}")

        task = asyncio.create_task(asyncio.to_thread(start), name="play-bots-start")
        task.add_done_callback(told)
        return task

    try:
        await node.start(resume=not settings.new)
        if settings.placement is not None:
            presence = await go_on_lan(node, settings.placement, model.note)
        if node.table is not None:
            table = node.table
            model.note(f"Taking up table {table.spec.name!r} ({table.spec.edition}) where it"
                       " stopped; 'play --new' starts another game.")
            starting = start_bots(partial(bots.resume, node.address, table.table_id.hex()))
        elif settings.spec is not None:
            await node.host_table(settings.spec)
            assert node.table is not None
            plan = bots.plan(settings.bots, settings.player, settings.seed)
            for key in bots.keys(plan):
                await node.admit(key)
            starting = start_bots(
                partial(bots.start, plan, node.address, node.table.table_id.hex())
            )
        elif settings.watch:
            if not is_address(settings.watch):
                print(f"looking for the table {settings.watch!r} on the LAN...", file=out,
                      flush=True)
            address = await watch_table(node, presence, settings.watch, FIND_SECONDS)
            model.note(f"Watching the table at {address}: you see what every seat sees of the"
                       " others, never a hand.")
        else:
            if not is_address(settings.join):
                print(f"looking for the table {settings.join!r} on the LAN...", file=out,
                      flush=True)
            address = await join_table(node, presence, settings.join, settings.player,
                                       FIND_SECONDS)
            model.note(f"Asked {address} for a seat.")
        if presence is not None and not settings.watch:  # a watcher advertises no table
            presence.attend()
        model.address = node.address
        model.fingerprint = node.identity.public.fingerprint()
        model.on_lan = presence is not None

        async def on_end(final: Snapshot) -> Path:
            if node.table is not None and node.table.seat is None:
                path, told = await finish_watching(node, settings.data)
                verdict[:] = told
                model.note(f"The record, checked as every peer checks it: {told[-1]}")
                return path
            return await finish_table(node, final, settings.data, io.StringIO())

        client = ClientApp(node.controller, model, on_end=on_end, palette=settings.palette,
                           color=settings.color)
        # A bot's failure is a note: the screen is drawn again every second, so it shows.
        watching = asyncio.create_task(bots.watch(model.note), name="play-bots")
        try:
            outcome = await node.unless_failed(client.run())
        finally:
            watching.cancel()
    finally:
        if presence is not None:
            await presence.stop()
        await node.stop()
        if starting is not None:
            await asyncio.wait([starting])  # every bot started is known before they stop
        bots.stop(wait=GOODBYE_SECONDS + 5 if outcome is Outcome.LEFT else 0.0)
        await settle()
    for line in [*_farewell(model, outcome, settings.data), *verdict]:
        print(line, file=out)
    halted = model.snapshot is not None and model.snapshot.halt is not None
    if verdict and not verdict[-1].startswith("verdict: FAIR"):
        return 1
    return 3 if halted else 0 if outcome is Outcome.LEFT else 130


def _farewell(model: TableModel, outcome: Outcome | None, data: Path) -> list[str]:
    """What is left on the terminal once the screen is gone."""
    from condottiere.cli.client.app import Outcome

    ending = model.ending()
    if outcome is not Outcome.LEFT or ending is None:
        return [
            f"stopped: the game is kept in {data}; run the same command again to take it up"
        ]
    lines = [f"{ending.title}.", *ending.lines]
    if ending.record is not None:
        lines += [f"The record: {ending.record}",
                  f"Check it yourself: condottiere verify {ending.record}"]
    return lines


@contextlib.contextmanager
def _errors_to(path: Path) -> Iterator[None]:
    """Send whatever is written to the standard error (by this process or a library: gRPC
    complains of streams cancelled at exit) to ``path``, so that nothing is written over the
    full screen."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("ab") as log:
        sys.stderr.flush()
        saved = os.dup(2)
        os.dup2(log.fileno(), 2)
        try:
            yield
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)


# ---------------------------------------------------------------------- arguments


def add_play_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``play`` to a parser's sub-commands."""
    rules = game_named(DEFAULT_GAME)
    seats = default_seats(DEFAULT_GAME, rules.default_edition)
    play = commands.add_parser(
        "play",
        help=f"play at the full-screen table (with no options: you and {seats - 1} bots)",
        description=f"Play {rules.title} in the full-screen client. With no options: a "
        f"{seats}-seat {rules.default_edition} table on this machine, the other seats "
        "taken by bot peers running as processes of their own. Ctrl-C stops; the same "
        "command again takes the game up where it stopped.",
    )
    table = play.add_argument_group("the table to host (not with --join)")
    add_table_options(table)
    table.add_argument(
        "--bots", type=_bot_list, metavar="NAME,NAME,...",
        help=f"bots for the other seats (known: {', '.join(sorted(BOTS))}), or none; default: "
        f"{DEFAULT_BOT} in every other seat (none with --listen)",
    )
    network = play.add_argument_group("the network")
    network.add_argument(
        "--join", metavar="TABLE",
        help="take a seat at a table instead of hosting one: its name or the first digits of "
        "its id as 'condottiere tables' lists them, or the address of one of its peers "
        "(HOST:PORT)",
    )
    network.add_argument(
        "--watch", metavar="TABLE",
        help="watch a table without a seat, as 'condottiere watch TABLE' does (its name, the "
        "first digits of its id, or HOST:PORT); the table must admit spectators",
    )
    network.add_argument(
        "--listen", metavar="ADDRESS",
        help="host for other players: serve on ADDRESS (this machine's LAN address, or "
        "127.0.0.1 for other terminals here); the seats no bot takes wait for them. A table "
        "open to others is advertised on the LAN unless ADDRESS is a loopback address",
    )
    network.add_argument(
        "--open", action="store_true",
        help="seat the first players who ask (default: each one who asks is a row of your "
        "lobby, with their key's fingerprint, for you to admit or refuse); your own --bots "
        "are seated without asking",
    )
    add_interface_option(network)
    network.add_argument(
        "--port", type=int, default=0, help="port to serve on (default: the one used last, or "
        "any free port)"
    )
    network.add_argument(
        "--coin-timeout", type=float, default=60.0, metavar="SECONDS",
        help="how long to wait for a coin reveal before closing the choice without it "
        "(its value is then opened from its escrow; default 60)",
    )
    you = play.add_argument_group("you")
    you.add_argument(
        "--player", default=(os.environ.get("USER") or "player")[:40],
        help="your name at the table (default: your user name)",
    )
    you.add_argument(
        "--data", type=Path,
        help=f"where this peer keeps its identity and games (default {default_data('play')})",
    )
    you.add_argument(
        "--new", action="store_true",
        help="start a new game even if the data directory holds an unfinished one",
    )
    you.add_argument("--seed", type=int, help="seed of the bots' choices (default: random)")
    you.add_argument(
        "--palette", choices=sorted(PALETTES), default="classic",
        help="seat colours: classic, or colorblind (Okabe-Ito, safe for colour-blind eyes)",
    )
    you.add_argument(
        "--no-color", action="store_true",
        help="no colours at all (also when the NO_COLOR environment variable is set)",
    )
    play.set_defaults(command_parser=play)


def _bot_list(text: str) -> tuple[str, ...]:
    if text.strip().lower() == "none":
        return ()
    names = tuple(name.strip().lower() for name in text.split(",") if name.strip())
    unknown = [name for name in names if name not in BOTS]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown bot {unknown[0]!r} (choose from {', '.join(sorted(BOTS))}, or none)"
        )
    return names


def play_settings(parser: argparse.ArgumentParser, args: argparse.Namespace) -> PlaySettings:
    """The settings of ``play``; bad input exits with status 2 and a message."""
    settings = PlaySettings(
        data=args.data or default_data("play"),
        player=args.player,
        spec=None,
        listen=args.listen or "127.0.0.1",
        port=args.port,
        seed=args.seed if args.seed is not None else random.randrange(1_000_000),
        coin_timeout=args.coin_timeout,
        new=args.new,
        palette=args.palette,
        color=not args.no_color,
    )
    if not 0 < len(args.player) <= 40 or not args.player.isprintable():
        parser.error("--player must be 1 to 40 printable characters")
    if args.open and (args.join or args.watch):
        parser.error("--open: the table's host seats who asks; not with --join or --watch")
    if args.join and args.watch:
        parser.error("--join takes a seat, --watch watches without one: not both")
    if args.join or args.watch:
        option, wanted = ("--join", args.join) if args.join else ("--watch", args.watch)
        chosen = [f"--{name.replace('_', '-')}" for name in (*TABLE_OPTIONS, "bots")
                  if getattr(args, name) is not None]
        if chosen:
            parser.error(f"{', '.join(chosen)}: the table's host chose these; not with {option}")
        if not wanted.strip():
            parser.error(f"{option} wants a table's name, id or HOST:PORT")
        settings.join, settings.watch = args.join or "", args.watch or ""
        settings.new = settings.new or bool(args.watch)  # a table watched before: not taken up
        if args.interface or not is_address(wanted):
            _place(parser, args, settings)
        return settings
    spec = table_spec(parser, args, args.player)
    seats = spec.seats
    bots = args.bots
    if bots is None:
        bots = () if args.listen else (DEFAULT_BOT,) * (seats - 1)
    check_bot_count(parser, len(bots), seats)
    settings.spec = spec
    settings.bots = bots
    settings.open_to_others = bool(args.listen) or len(bots) < seats - 1
    settings.open_seating = args.open
    loopback_only = args.listen is not None and args.listen.startswith("127.")
    if args.interface or (settings.open_to_others and not loopback_only):
        _place(parser, args, settings)
    return settings


def _place(parser: argparse.ArgumentParser, args: argparse.Namespace,
           settings: PlaySettings) -> None:
    """Put the peer on the LAN: zeroconf on the interface the options or the environment name,
    serving on its address unless ``--listen`` says otherwise."""
    settings.placement = placement_from(parser, args)
    settings.listen = settings.placement.listen


def add_watch_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``watch`` (``play --watch``) to a parser's sub-commands."""
    watch = commands.add_parser(
        "watch",
        help="watch a table live on the full-screen board, without a seat",
        description="Follow a table on the full-screen board without a seat: the board, the "
        "rows, every move and the log, never a hand (a spectator holds no key share, so it "
        "cannot see one). The table must admit spectators (its host gave --spectators). At "
        "the end the record is written and verified as any peer's. The same as 'condottiere "
        "play --watch TABLE'.",
    )
    watch.add_argument(
        "table", metavar="TABLE",
        help="the table: its name or the first digits of its id as 'condottiere tables' lists "
        "them, or HOST:PORT of any of its peers",
    )
    add_interface_option(watch)
    watch.add_argument(
        "--data", type=Path,
        help=f"where this watcher keeps its key and the record (default {default_data('watch')})",
    )
    watch.add_argument(
        "--palette", choices=sorted(PALETTES), default="classic",
        help="seat colours: classic, or colorblind",
    )
    watch.add_argument("--no-color", action="store_true", help="no colours at all")
    watch.set_defaults(command_parser=watch)


def watch_settings(parser: argparse.ArgumentParser, args: argparse.Namespace) -> PlaySettings:
    """The settings of ``watch``: those of ``play --watch TABLE``."""
    if not args.table.strip():
        parser.error("TABLE wants a table's name, id or HOST:PORT")
    settings = PlaySettings(
        data=args.data or default_data("watch"),
        player="watcher",
        spec=None,
        watch=args.table,
        new=True,  # a table watched before is not taken up: this one is watched afresh
        palette=args.palette,
        color=not args.no_color,
    )
    if args.interface or not is_address(args.table):
        _place(parser, args, settings)
    return settings
