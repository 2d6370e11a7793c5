"""Bot peers as processes of their own, at a table this process hosts (``host --bots`` and
``play``).

Each bot is an ordinary ``condottiere bot`` peer with its own data directory under the
host's (``DATA/bots/N``), its output in ``DATA/bots/N.log``: it plays over gRPC exactly as a
player on another machine would. The list of bots is kept beside them
(``DATA/bots/bots.json``, with the table's id), so that when the host takes its table up
again after a stop, the same bots are started again on their own data and take up the game
where they stopped too. A bot that stops with an error is told to the player once, with the
last line of its log; so is each time its strategy fails at a move (it raised, took too long
or chose a move the rules refuse, and the safe move was played instead), up to
:data:`TROUBLES_TOLD` times a bot: the bot writes those lines with :data:`TROUBLE` before
them, and the host reads its log as it grows.

Each bot is started by :func:`condottiere.cli.launcher.start_peer`: forked from a process that
imported the peer once, where the system can fork. A bot dies with the process that started
it: it is told that process's PID (``--stop-with``) and stops as soon as it is gone
(:func:`stop_with`), even when the host was killed with ``kill -9`` and could stop nobody. A
host started again at once may find a bot of its previous run still stopping: the new bot
waits for it to let go of its data directory (:data:`PREDECESSOR_SECONDS`).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import select
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from condottiere.bots.player import DEFAULT_TIME_LIMIT
from condottiere.cli.launcher import PeerProcess, start_peer, warm
from condottiere.peer.store import Store

__all__ = [
    "BOT_NAMES",
    "PREDECESSOR_SECONDS",
    "TROUBLE",
    "TROUBLES_TOLD",
    "BotPeers",
    "BotSeat",
    "Starter",
    "bot_name",
    "bot_names",
    "bot_trace",
    "stop_with",
]

BOT_NAMES = ("Sforza", "Orsini", "Borgia", "Medici", "Este", "Colonna", "Visconti")
"""Names for bots, each with its own initial (the letter that marks its seat on the map)."""
PREDECESSOR_SECONDS = 30.0
"""How long a bot started by a host waits for its data directory, which the same bot of the
host's previous run may hold while it stops."""
TROUBLE = "strategy trouble: "
"""What a bot peer writes before a line saying that its strategy failed at a move."""
TROUBLES_TOLD = 3
"""How many of a bot's strategy failures the host tells the player; the rest are in its log."""
PARENT_CHECK_SECONDS = 0.25
"""How often a bot checks that the process that started it is still its parent."""


@dataclass(frozen=True)
class BotSeat:
    """One bot: its strategy, its name at the table, its seed, its data directory."""

    strategy: str
    name: str
    seed: int
    data: str


def bot_names(count: int, player: str) -> list[str]:
    """``count`` names for bots whose initials differ from each other and from ``player``'s.

    >>> bot_names(3, "sam")
    ['Orsini', 'Borgia', 'Medici']
    """
    taken = player[:1].upper()
    names = [name for name in BOT_NAMES if name[0] != taken]
    return [names[index % len(names)] for index in range(count)]


def bot_name(key: bytes) -> str:
    """The name of a bot that was given none: one of :data:`BOT_NAMES`, drawn from its key
    (the same for the same data directory).

    >>> bot_name(bytes(32)) in BOT_NAMES
    True
    """
    return BOT_NAMES[int.from_bytes(hashlib.sha256(key).digest()[:4], "big") % len(BOT_NAMES)]


def bot_trace(trace: Path, bot: str) -> Path:
    """Where the bot ``bot`` (its number) of a host tracing to ``trace`` traces.

    >>> bot_trace(Path("runs/trace.jsonl"), "2").as_posix()
    'runs/trace.bot2.jsonl'
    """
    return trace.with_name(f"{trace.stem}.bot{bot}{trace.suffix}")


class BotPeers:
    """The bot processes of one hosted table."""

    def __init__(
        self,
        root: Path,
        *,
        listen: str,
        interface: str,
        coin_timeout: float,
        time_limit: float = DEFAULT_TIME_LIMIT,
        trace: Path | None = None,
    ) -> None:
        """The bots serve on ``listen`` and look for tables on ``interface`` (an address), as
        the host does; each thinks at most ``time_limit`` seconds about a move; with a
        ``trace`` (the host's), bot N traces to :func:`bot_trace` of it."""
        self.root = root
        self.listen = listen
        self.interface = interface
        self.coin_timeout = coin_timeout
        self.time_limit = time_limit
        self.trace = trace
        self.processes: list[PeerProcess] = []
        self._seats: list[BotSeat] = []
        self._reported: set[int] = set()
        self._read: dict[int, int] = {}
        """How far each bot's log has been read for its strategy's troubles."""
        self._troubles: dict[int, int] = {}

    def prepare(self, strategies: Sequence[str]) -> None:
        """Get the bots' launcher ready now, while this process starts, if bots may be
        started: ``strategies`` to plan, or the bots kept of a table that may be taken up
        (:func:`condottiere.cli.launcher.warm`)."""
        if strategies or (self.root / "bots.json").exists():
            warm()

    def plan(self, strategies: Sequence[str], player: str, seed: int) -> list[BotSeat]:
        """A bot for each strategy, with names and seeds of its own."""
        names = bot_names(len(strategies), player)
        return [
            BotSeat(strategy, name, seed + index, str(self.root / str(index)))
            for index, (strategy, name) in enumerate(zip(strategies, names, strict=True), 1)
        ]

    def start(self, bots: Sequence[BotSeat], address: str, table: str) -> None:
        """Start ``bots`` afresh at the table ``table`` (its id) served at ``address``."""
        self.root.mkdir(parents=True, exist_ok=True)
        (self.root / "bots.json").write_text(
            json.dumps({"table": table, "bots": [asdict(bot) for bot in bots]}, indent=2)
        )
        for bot in bots:
            self._spawn(bot, address, new=True)

    def kept(self, table: str) -> list[BotSeat]:
        """The bots that were playing ``table`` (its id), as :meth:`start` kept them."""
        try:
            kept = json.loads((self.root / "bots.json").read_text())
        except (OSError, ValueError):
            return []
        if not isinstance(kept, dict) or kept.get("table") != table:
            return []
        return [BotSeat(**bot) for bot in kept.get("bots", [])]

    def keys(self, bots: Sequence[BotSeat]) -> list[bytes]:
        """The public keys ``bots`` sign with (made now in their data directories if they
        have none yet), so that the host admits them without asking (the admissions are
        kept in the host's store, so a table taken up needs them no more)."""
        keys = []
        for bot in bots:
            store = Store(Path(bot.data), command="condottiere (its bot's key)",
                          wait=PREDECESSOR_SECONDS)
            try:
                keys.append(store.identity().public.raw)
            finally:
                store.close()
        return keys

    def resume(self, address: str, table: str) -> int:
        """Start again the bots that were playing ``table``, on their own data; how many."""
        bots = self.kept(table)
        for bot in bots:
            self._spawn(bot, address, new=False)
        return len(bots)

    def _spawn(self, bot: BotSeat, address: str, *, new: bool) -> None:
        argv = [
            "bot",
            "--join", address,
            "--strategy", bot.strategy,
            "--player", bot.name,
            "--data", bot.data,
            "--seed", str(bot.seed),
            "--listen", self.listen,
            "--interface", self.interface,
            "--coin-timeout", str(self.coin_timeout),
            "--time-limit", str(self.time_limit),
            "--stop-with", str(os.getpid()),
            *(["--new"] if new else []),
        ]
        if self.trace is not None:
            argv += ["--trace", str(bot_trace(self.trace, Path(bot.data).name))]
        self._seats.append(bot)  # first: a bot's seat is known before its process
        self.processes.append(start_peer(argv, Path(f"{bot.data}.log")))

    def failures(self) -> list[str]:
        """What to tell the player of each bot that stopped with an error since the last call:
        its name, its exit status, the last line of its log and where the log is."""
        said = []
        # bots may be starting on another thread: only those with a process so far
        for index, (process, bot) in enumerate(zip(self.processes, self._seats, strict=False)):
            status = process.poll()
            if status in (None, 0) or index in self._reported:
                continue
            self._reported.add(index)
            log = Path(f"{bot.data}.log")
            try:
                lines = log.read_text(errors="replace").strip().splitlines()
            except OSError:
                lines = []
            last = f": {lines[-1]}" if lines else ""
            said.append(f"The bot {bot.name} stopped (exit status {status}){last} (log: {log})")
        return said

    def troubles(self) -> list[str]:
        """What to tell the player of each bot's strategy failing at a move since the last
        call (the lines its log gained that start with :data:`TROUBLE`), at most
        :data:`TROUBLES_TOLD` a bot, the last of them saying where the rest will be."""
        said = []
        for index, bot in enumerate(self._seats):
            log = Path(f"{bot.data}.log")
            try:
                with log.open("rb") as file:
                    file.seek(self._read.get(index, 0))
                    grown = file.read()
            except OSError:
                continue
            complete = grown[: grown.rfind(b"\n") + 1]
            self._read[index] = self._read.get(index, 0) + len(complete)
            for line in complete.decode(errors="replace").splitlines():
                if not line.startswith(TROUBLE):
                    continue
                told = self._troubles.get(index, 0)
                self._troubles[index] = told + 1
                if told >= TROUBLES_TOLD:
                    continue
                more = f" (further troubles: {log})" if told + 1 == TROUBLES_TOLD else ""
                said.append(f"The bot {bot.name}: {line.removeprefix(TROUBLE)}{more}")
        return said

    async def watch(self, say: Callable[[str], None]) -> None:
        """Tell ``say`` of each bot that stops with an error (:meth:`failures`) and of each
        of their strategies' troubles (:meth:`troubles`), checking every second, until
        cancelled."""
        while True:
            for failure in (*self.troubles(), *self.failures()):
                say(failure)
            await asyncio.sleep(1.0)

    def stop(self, wait: float = 0.0) -> None:
        """Let the bots end by themselves for up to ``wait`` seconds (a finished game's
        goodbyes), then stop the rest; their data keeps everything for a restart."""
        deadline = time.monotonic() + wait
        for process in self.processes:
            try:
                process.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


async def stop_with(starter: int, stop: Callable[[], None]) -> None:
    """Call ``stop`` once the process ``starter`` is gone, however it ended (checked every
    :data:`PARENT_CHECK_SECONDS`: see :class:`Starter`), or until cancelled."""
    watched = Starter(starter)
    try:
        while watched.alive():
            await asyncio.sleep(PARENT_CHECK_SECONDS)
    finally:
        watched.close()
    stop()


class Starter:
    """The process that started this one, watched. It is this process's parent (a parent that
    is gone has handed its children to another), or the process that had this one forked by
    the fork server (:mod:`condottiere.cli.launcher`), watched through a handle on it where
    the system has one (Linux's pidfd), else by its PID."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self._handle: int | None = None
        self._parent = os.getppid() == pid
        self._gone = False
        if not self._parent:
            try:
                self._handle = os.pidfd_open(pid)
            except ProcessLookupError:
                self._gone = True
            except (AttributeError, OSError):  # no pidfd here: by PID
                pass

    def alive(self) -> bool:
        """Whether the starter still runs."""
        if self._parent:
            return os.getppid() == self.pid
        if self._gone:
            return False
        if self._handle is not None:
            return not select.select([self._handle], [], [], 0)[0]
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:  # another user's
            pass
        return True

    def close(self) -> None:
        """Let go of the handle on the starter."""
        if self._handle is not None:
            os.close(self._handle)
            self._handle = None
