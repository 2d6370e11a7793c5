"""One peer of a networked table in plain text, as ``host``, ``join`` and ``bot`` run it.

The peer serves the others over gRPC, goes on the LAN (advertising its table once it has
one), hosts a table or asks for a seat at one, prints the lobby, and plays its seat: a person
at the console, a strategy, or another program through the controller service
(:mod:`condottiere.cli.seat`). A host may start bot peers for the other seats
(:mod:`condottiere.cli.bot_peers`). At the end it writes the record and the summary
(:mod:`condottiere.cli.finish`).

A peer keeps everything in its data directory (``--data``): its identity, every log it has
seen and its own secrets. Started again on the same directory, it takes up the table it was
playing where it stopped, with the bots it had started. One process at a time uses a data
directory: a second is told which process holds it, and exits with status 2 before touching
anything.
"""

from __future__ import annotations

import asyncio
import signal
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TextIO

from condottiere.bots.loading import load_strategy
from condottiere.bots.player import DEFAULT_TIME_LIMIT, play_seat
from condottiere.cli.arguments import confirm_new, data_in_use
from condottiere.cli.bot_peers import (
    PREDECESSOR_SECONDS,
    TROUBLE,
    BotPeers,
    bot_name,
    stop_with,
)
from condottiere.cli.console import play_console
from condottiere.cli.finish import GOODBYE_SECONDS, finish_table
from condottiere.cli.lan import Placement, go_on_lan, join_table
from condottiere.cli.lobby import show_lobby
from condottiere.cli.seat import play_headless
from condottiere.cli.settle import settle
from condottiere.peer.entries import SigningConflict
from condottiere.peer.lobby import TableSpec
from condottiere.peer.node import JoinError, Node
from condottiere.peer.pacing import BOT, PERSON
from condottiere.peer.store import DamagedStore, DataInUse, Store

__all__ = ["PeerSettings", "run_peer"]


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
    """Seconds the strategy (and each bot peer) may think about one move."""
    headless: bool = False
    """Another program plays this seat through the controller service."""
    seed: int = 0
    bots: list[str] = field(default_factory=list)
    """Strategies of the bot peers to start at the hosted table."""
    coin_timeout: float = 60.0
    new: bool = False
    trace: Path | None = None
    """Write timestamped progress lines here (benchmarks)."""
    command: str = "condottiere"
    """What this process is (``condottiere host``), as the data directory's lock tells it."""
    stop_with: int | None = None
    """The PID of the host that started this bot: the bot stops when it is gone."""
    open_seating: bool = False
    """A hosted table seats the first joiners (``--open``); else the person at the console
    admits or refuses each (a host played by a strategy or another program is always open,
    having nobody to ask). The host's own bots are admitted without asking."""


def run_peer(settings: PeerSettings, out: TextIO = sys.stdout) -> int:
    """Run one peer until its game ends (or it is stopped: Ctrl-C or SIGTERM, after which it
    withdraws its table from the LAN); the exit status: 2 when another process uses the
    data directory, 1 when this peer refused to sign an entry (:class:`SigningConflict`)."""
    stopped = "\nstopped; start again with the same --data to take up the game"
    wait = 0.0 if settings.stop_with is None else PREDECESSOR_SECONDS
    try:
        store = Store(settings.data, command=settings.command, wait=wait)
    except DataInUse as in_use:
        print(f"condottiere: {data_in_use(in_use)}", file=sys.stderr)
        return 2
    except DamagedStore as damaged:
        print(f"condottiere: {damaged}", file=sys.stderr)
        return 2
    interactive = settings.stop_with is None and sys.stdin.isatty()
    if settings.new and not confirm_new(store, settings.data, input if interactive else None):
        store.close()
        return 1
    if not settings.player:
        settings.player = bot_name(store.identity().public.raw)
    try:
        return asyncio.run(_peer(settings, store, out))
    except KeyboardInterrupt:
        print(stopped, file=out)
        return 130
    except asyncio.CancelledError:
        print(stopped, file=out)
        return 128 + signal.SIGTERM
    except SigningConflict as conflict:
        print(f"condottiere: {conflict}; is another process using {settings.data}?",
              file=sys.stderr)
        return 1
    finally:
        store.close()


async def _peer(settings: PeerSettings, store: Store, out: TextIO) -> int:
    main = asyncio.current_task()
    assert main is not None
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, main.cancel)

    def say(text: str) -> None:
        print(text, file=out, flush=True)

    def orphaned() -> None:
        say(f"the process that started this bot ({settings.stop_with}) is gone: stopping")
        main.cancel()

    parent = None
    if settings.stop_with is not None:
        parent = asyncio.create_task(stop_with(settings.stop_with, orphaned), name="peer-parent")
    node = Node(
        store,
        host=settings.placement.listen,
        port=settings.port,
        coin_timeout=settings.coin_timeout,
        open_seating=(
            settings.open_seating or settings.strategy is not None or settings.headless
        ),
        trace=settings.trace,
        pace=PERSON if settings.strategy is None and not settings.headless else BOT,
    )
    node.plays_as_bot = settings.strategy is not None
    bots = BotPeers(
        settings.data / "bots",
        listen=settings.placement.listen,
        interface=settings.placement.interface.addresses[0],
        coin_timeout=settings.coin_timeout,
        time_limit=settings.time_limit,
        trace=settings.trace,
    )
    bots.prepare(settings.bots)
    watching = asyncio.create_task(bots.watch(say), name="peer-bots")
    finished = False
    presence = None
    lobby = None
    try:
        await node.start(resume=not settings.new)
        say(f"listening on {node.address} (data in {settings.data})")
        say(
            f"controller on {node.controller_server.address}, "
            f"token in {node.controller_server.token_path}"
        )
        presence = await go_on_lan(node, settings.placement, say)
        if node.table is not None:
            say(f"taking up table {node.table.spec.name!r} where it stopped")
            bots.resume(node.address, node.table.table_id.hex())
        elif settings.spec is not None:
            await node.host_table(replace(settings.spec, creator_bot=node.plays_as_bot))
            assert node.table is not None
            say(
                f"hosting {settings.spec.name!r} ({settings.spec.edition}, "
                f"{settings.spec.seats} seats): others join with "
                f"'condottiere join {node.address}', or by its name where they see it "
                "('condottiere tables')"
            )
            plan = bots.plan(settings.bots, settings.player, settings.seed)
            for key in bots.keys(plan):
                await node.admit(key)
            bots.start(plan, node.address, node.table.table_id.hex())
            if not node.open_seating:
                say("you admit or refuse each player who asks for a seat ('admit NAME')")
        else:
            try:
                address = await join_table(
                    node, presence, settings.join, settings.player, settings.wait
                )
            except JoinError as exc:
                print(f"condottiere: {exc}", file=sys.stderr)
                return 1
            say(f"asked {address} for a seat")
        for address in settings.peers:
            node.heard_of(address)
        if presence is not None:
            presence.attend()
        identity = node.identity.public.fingerprint()
        say(f"your key's fingerprint: {identity}")
        controller = node.controller
        lobby = asyncio.create_task(show_lobby(controller, identity, out))
        if node.table is not None and node.table.over and node.snapshot is not None:
            final = node.snapshot  # stopped while saying goodbye: only that is left to do
        elif settings.strategy is not None:
            bot = load_strategy(settings.strategy, seed=settings.seed)
            say(f"{bot.name} plays this seat ({settings.time_limit:g} s a move at most)")
            playing = play_seat(controller, bot, time_limit=settings.time_limit,
                                log=lambda text: say(f"{TROUBLE}{text}"))
            final = await node.unless_failed(playing)
        elif settings.headless:
            final = await node.unless_failed(play_headless(controller, out))
        else:
            final = await node.unless_failed(play_console(controller, out))
        await finish_table(node, final, settings.data, out)
        finished = True
        return 0 if final.halt is None else 3
    finally:
        watching.cancel()
        if parent is not None:
            parent.cancel()
        if lobby is not None:
            lobby.cancel()
        if presence is not None:
            await presence.stop()
        await node.stop()
        bots.stop(wait=GOODBYE_SECONDS + 5 if finished else 0.0)
        await settle()
