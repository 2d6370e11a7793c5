"""The networked commands: ``host``, ``join``, ``bot``, ``tables``, ``export``, ``verify`` and
``replay``.

A peer keeps everything in its data directory (``--data``): its identity, every log it has
seen and its own secrets. Started again on the same directory, it takes up the table it was
playing where it stopped. At the end of a game each peer writes the game's record to
``DATA/records/`` (``condottiere verify FILE`` checks it) and a summary to
``DATA/last-game.json``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from condottiere.bots.loading import load_strategy
from condottiere.bots.player import DEFAULT_TIME_LIMIT, play_seat
from condottiere.cli.console import play_console
from condottiere.cli.lan import (
    Placement,
    add_interface_option,
    add_listen_option,
    go_on_lan,
    is_address,
    join_table,
    placement_from,
)
from condottiere.cli.lobby import show_lobby
from condottiere.cli.seat import add_seat_options, check_strategies, play_headless
from condottiere.cli.tables import add_command as add_tables_command
from condottiere.cli.tables import main_tables
from condottiere.games.condottiere import EDITIONS
from condottiere.peer.controller import Snapshot
from condottiere.peer.lobby import TableSpec
from condottiere.peer.node import JoinError, Node
from condottiere.peer.record import export, load, verify
from condottiere.peer.store import Store

__all__ = [
    "PeerSettings",
    "default_data",
    "finish_table",
    "run_export",
    "run_peer",
    "run_replay",
    "run_verify",
]

GOODBYE_SECONDS = 15.0
"""How long a finished peer waits for the others to show they hold its last entries."""


def default_data(role: str) -> Path:
    """The data directory a peer uses when ``--data`` is not given."""
    base = os.environ.get("CONDOTTIERE_HOME") or os.path.join(
        os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share"), "condottiere"
    )
    return Path(base) / role


@dataclass
class PeerSettings:
    """What ``host``, ``join`` and ``bot`` were asked to do."""

    data: Path
    player: str
    placement: Placement
    port: int = 0
    spec: TableSpec | None = None
    """The table to create (``host``); None to join ``join``."""
    join: str = ""
    """The table to join: ``HOST:PORT``, or its name or id on the LAN."""
    wait: float = 10.0
    """How long to look on the LAN for the table to join."""
    peers: list[str] = field(default_factory=list)
    """Addresses of other peers of the table, beside those found on the LAN."""
    strategy: str | None = None
    """The bot that plays this seat (see :mod:`condottiere.bots.loading`); None: a person at the
    console, or another program (``headless``)."""
    time_limit: float = DEFAULT_TIME_LIMIT
    """Seconds the strategy may think about one move."""
    headless: bool = False
    """Another program plays this seat through the controller service."""
    seed: int = 0
    bots: list[str] = field(default_factory=list)
    """Bots to start as separate peers at the hosted table."""
    coin_timeout: float = 60.0
    new: bool = False
    trace: Path | None = None
    """Write timestamped progress lines here (benchmarks)."""


def run_peer(settings: PeerSettings, out: TextIO = sys.stdout) -> int:
    """Run one peer until its game ends (or it is stopped: Ctrl-C or SIGTERM, after which it
    withdraws its table from the LAN); the exit status."""
    stopped = "\nstopped; start again with the same --data to take up the game"
    try:
        return asyncio.run(_peer(settings, out))
    except KeyboardInterrupt:
        print(stopped, file=out)
        return 130
    except asyncio.CancelledError:
        print(stopped, file=out)
        return 128 + signal.SIGTERM


async def _peer(settings: PeerSettings, out: TextIO) -> int:
    main = asyncio.current_task()
    assert main is not None
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, main.cancel)
    store = Store(settings.data)
    node = Node(
        store,
        host=settings.placement.listen,
        port=settings.port,
        coin_timeout=settings.coin_timeout,
        trace=settings.trace,
    )
    bots: list[subprocess.Popen[bytes]] = []
    presence = None
    lobby = None
    try:
        await node.start(resume=not settings.new)
        print(f"listening on {node.address} (data in {settings.data})", file=out, flush=True)
        print(
            f"controller on {node.controller_server.address}, "
            f"token in {node.controller_server.token_path}",
            file=out,
            flush=True,
        )
        presence = await go_on_lan(
            node, settings.placement, lambda text: print(text, file=out, flush=True)
        )
        if node.table is not None:
            print(
                f"taking up table {node.table.spec.name!r} where it stopped", file=out, flush=True
            )
        elif settings.spec is not None:
            await node.host_table(settings.spec)
            print(
                f"hosting {settings.spec.name!r} ({settings.spec.variant}, "
                f"{settings.spec.seats} seats): others join with "
                f"'condottiere join {node.address}', or by its name where they see it "
                "('condottiere tables')",
                file=out,
                flush=True,
            )
            bots = _start_bots(settings, node.address)
        else:
            try:
                address = await join_table(
                    node, presence, settings.join, settings.player, settings.wait
                )
            except JoinError as exc:
                print(f"condottiere: {exc}", file=sys.stderr)
                return 1
            print(f"asked {address} for a seat", file=out, flush=True)
        for address in settings.peers:
            node.heard_of(address)
        if presence is not None:
            presence.attend()
        identity = node.identity.public.fingerprint()
        print(f"your key's fingerprint: {identity}", file=out, flush=True)
        controller = node.controller
        lobby = asyncio.create_task(show_lobby(controller, identity, out))
        if node.table is not None and node.table.over and node.snapshot is not None:
            final = node.snapshot  # stopped while saying goodbye: only that is left to do
        elif settings.strategy is not None:
            bot = load_strategy(settings.strategy, seed=settings.seed)
            print(
                f"{bot.name} plays this seat ({settings.time_limit:g} s a move at most)",
                file=out,
                flush=True,
            )
            final = await play_seat(
                controller,
                bot,
                time_limit=settings.time_limit,
                log=lambda text: print(text, file=out, flush=True),
            )
        elif settings.headless:
            final = await play_headless(controller, out)
        else:
            final = await play_console(controller, out)
        await finish_table(node, final, settings.data, out)
        return 0 if final.halt is None else 3
    finally:
        if lobby is not None:
            lobby.cancel()
        if presence is not None:
            await presence.stop()
        await node.stop()
        store.close()
        for process in bots:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=GOODBYE_SECONDS + 5)
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                process.wait()


def _start_bots(settings: PeerSettings, address: str) -> list[subprocess.Popen[bytes]]:
    processes = []
    for index, name in enumerate(settings.bots, start=1):
        command = [
            sys.executable,
            "-m",
            "condottiere.cli.main",
            "bot",
            "--join",
            address,
            "--strategy",
            name,
            "--data",
            str(settings.data / "bots" / str(index)),
            "--new",
            "--seed",
            str(settings.seed + index),
            "--listen",
            settings.placement.listen,
            "--interface",
            settings.placement.interface.addresses[0],
            "--coin-timeout",
            str(settings.coin_timeout),
            "--time-limit",
            str(settings.time_limit),
        ]
        (settings.data / "bots").mkdir(parents=True, exist_ok=True)
        with (settings.data / "bots" / f"{index}.log").open("wb") as log:
            processes.append(subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT))
    return processes


async def finish_table(node: Node, final: Snapshot, data: Path, out: TextIO) -> Path:
    """Say goodbye, wait (a while) until every seat holds this peer's entries, write the
    record and the summary; the record's path."""
    if final.halt is None:
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
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = export(
        sorted(entries, key=lambda e: e.kind != "table"),
        data / "records" / f"{stamp}-{table.table_id.hex()[:8]}.cdr",
    )
    summary = {
        "table": table.spec.name,
        "variant": table.spec.variant,
        "seat": final.seat,
        "winners": list(final.winners),
        "record_hash": final.record_hash,
        "audited": final.audited,
        "halt": None if final.halt is None else final.halt.detail,
        "record": str(path),
        "state": None if final.view is None else _public_state(final),
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


def _public_state(snapshot: Snapshot) -> dict[str, object]:
    view = snapshot.view
    assert view is not None
    return {
        "phase": view.phase,
        "control": dict(sorted(view.control.items())),
        "favor": view.favor,
        "battles_won": list(view.battles_won),
        "hand_sizes": list(view.hand_sizes),
        "discard_pile": list(view.discard_pile),
        "winners": list(view.winners),
    }


# ---------------------------------------------------------------------- records


def _entries_of(data: Path) -> tuple[str, list[bytes]]:
    store = Store(data)
    try:
        current = store.setting("table")
        if current is None:
            raise ValueError(f"{data} holds no table")
        return current.hex(), [entry.signed for entry in store.entries(current)]
    finally:
        store.close()


def run_export(data: Path, output: Path | None, out: TextIO = sys.stdout) -> int:
    """Write the table of a data directory to one record file."""
    from condottiere.peer.entries import read_entry

    try:
        table_id, signed = _entries_of(data)
    except ValueError as exc:
        print(f"condottiere: {exc}", file=sys.stderr)
        return 1
    path = output or Path(f"condottiere-{table_id[:8]}.cdr")
    entries = sorted((read_entry(s) for s in signed), key=lambda e: e.kind != "table")
    export(entries, path)
    print(f"wrote {len(entries)} entries to {path}", file=out)
    return 0


def run_verify(path: Path, out: TextIO = sys.stdout) -> int:
    """Check a record file; 0 when the game is shown fair."""
    try:
        verdict = verify(load(path))
    except (OSError, ValueError) as exc:
        print(f"condottiere: {exc}", file=sys.stderr)
        return 2
    for line in verdict.lines():
        print(line, file=out)
    return 0 if verdict.fair else 1


def run_replay(path: Path, delay: float, out: TextIO = sys.stdout) -> int:
    """Show a recorded game move by move."""
    try:
        verdict = verify(load(path))
    except (OSError, ValueError) as exc:
        print(f"condottiere: {exc}", file=sys.stderr)
        return 2
    for event in verdict.table.events:
        print(event.text, file=out, flush=True)
        if delay and event.kind in ("move", "coin", "deal"):
            time.sleep(delay)
    print(verdict.lines()[-1], file=out)
    return 0


# ---------------------------------------------------------------------- arguments


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
    host.add_argument(
        "--edition", default="zman", choices=sorted(EDITIONS), help="rules edition (default zman)"
    )
    host.add_argument(
        "--seats",
        type=int,
        default=None,
        help="number of seats (default 4, or what the edition allows)",
    )
    host.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME",
        help="a house rule of the edition (ffg: sieges, cede); repeatable",
    )
    host.add_argument("--name", default="condottiere", help="the table's name")
    host.add_argument(
        "--bots",
        type=_bot_names,
        default=[],
        metavar="NAME,NAME,...",
        help="start these bots as peers at the table (e.g. greedy,greedy,random; a bot may be "
        "your own class, PATH.py:CLASS or MODULE:CLASS); they think within --time-limit",
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
        description="Write every signed entry of the table a data directory holds to FILE.",
    )
    export_parser.add_argument(
        "--data",
        type=Path,
        default=default_data("host"),
        help="the peer's data directory (default: the host's)",
    )
    export_parser.add_argument("--output", "-o", type=Path, help="the file to write")
    add_tables_command(commands)
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
        help="show a recorded game move by move",
        description="Check a record as 'verify' does, then show the game move by move.",
    )
    replay_parser.add_argument("file", type=Path, help="a record file")
    replay_parser.add_argument(
        "--delay",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="pause after each move (default 0)",
    )


def _peer_options(parser: argparse.ArgumentParser, role: str) -> None:
    parser.add_argument(
        "--player", default=os.environ.get("USER", role)[:40] or role, help="your name at the table"
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
        help="how long to wait for a coin reveal before voting that it is withheld (default 60)",
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
        help="append timestamped progress lines (JSON) to FILE, for benchmarks",
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
    )
    if settings.headless and settings.strategy is not None:
        parser.error("--headless leaves the seat to another program: give no --strategy")
    check_strategies(parser, [args.strategy] if args.strategy else [], args.seed)
    if args.command == "host":
        check_strategies(parser, args.bots, args.seed)
        edition = EDITIONS[args.edition]
        seats = args.seats or min(max(4, edition.min_players), edition.max_players)
        if len(args.bots) > seats - 1:
            parser.error(f"{len(args.bots)} bots for the {seats - 1} other seats")
        spec = TableSpec(
            variant=args.edition,
            seats=seats,
            options=tuple(sorted(set(args.option))),
            name=args.name,
            player=args.player,
            address="",
        )
        try:
            spec.check()
        except ValueError as exc:
            parser.error(str(exc))
        settings.spec = spec
        settings.bots = args.bots
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
    if args.command == "export":
        return run_export(args.data, args.output)
    if args.command == "verify":
        return run_verify(args.file)
    return run_replay(args.file, args.delay)


def commands() -> Sequence[str]:
    return ("host", "join", "bot", "tables", "export", "verify", "replay")
