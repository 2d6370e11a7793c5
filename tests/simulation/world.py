"""The simulated world: one virtual clock, a network of in-process peers, the owners' timers.

Every peer is a real :class:`~condottiere.peer.driver.Table` with a
:class:`~condottiere.peer.driver.MemoryKeeper`; nothing reads the machine's clock. Time is a
number the scheduler moves forward from one event to the next: an entry delivered, a tick of
the owners' timers (every :data:`TICK` seconds: deadlines, coin timeouts, the bots' moves, the
behaviours), a fault window opening or closing. Entries travel from the peer that drained them
to every other peer with a delay drawn per copy (so they are reordered), may be dropped or
handed twice, and a follower pulls what it lacks from every peer it can reach every
:data:`PULL` seconds (a node follows each peer's stream from what it holds). Every choice
comes from one :class:`random.Random` seeded by the configuration: a run is a function of its
configuration.
"""

from __future__ import annotations

import heapq
import itertools
import random
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from condottiere.bots import make_bot
from condottiere.cli.finish import GOODBYE_SECONDS
from condottiere.crypto import Identity
from condottiere.peer.driver import MemoryKeeper, Step, Table
from condottiere.peer.entries import LogEntry
from condottiere.peer.lobby import Deadlines, TableSpec
from condottiere.peer.steps.coins import COIN_REVEAL
from condottiere.peer.steps.moves import MOVE
from condottiere.peer.steps.seating import SEATING
from tests.simulation import behaviours, promises
from tests.simulation.config import Config
from tests.simulation.entropy import seeded

__all__ = ["Peer", "Run", "World", "run"]

TICK = 1.0
"""Seconds between two rounds of the owners' timers."""
PULL = 3.0
"""Seconds between two pulls of what a peer lacks from the peers it reaches."""
LAN = (0.001, 0.2)
"""The delay of an entry on a sound link, in seconds."""
REORDER = (0.001, 3.0)
"""The delay with the ``delay`` fault on: entries overtake each other."""
SLOW = (12.0, 90.0)
"""The delay on a slow link (the ``slow`` fault): past a protocol step's deadline."""
WINDOW = (1.0, 60.0)
"""How long a fault window (a cut, a crash, a slow link) lasts."""
TIMELY = 10.0
"""A seat whose peer was down, or whose link was cut or slow, for longer than this is no
longer promised to stay at the table (see docs/promises.md)."""
THINK = (0.2, 6.0)
"""How long a bot thinks before its move."""
COIN_TIMEOUT = 60.0
"""Seconds a peer waits for a coin reveal before it closes the coin (as a node does)."""
DROP = 0.15
DUP = 0.15
HORIZON = 400_000.0
"""Virtual seconds after which a run that has not ended is a broken liveness promise."""


@dataclass
class Peer:
    """One process of the world: a seat's peer, or a stranger."""

    index: int
    name: str
    identity: Identity
    source: str
    """The source address its connections come from."""
    seat: int | None
    """The seat it is meant to take (None: a stranger)."""
    behaviour: str | None = None
    """What it does that an honest peer does not (None: honest)."""
    keeper: MemoryKeeper = field(default_factory=MemoryKeeper)
    table: Table | None = None
    down_until: float | None = None
    gone: bool = False
    since: tuple[int, float] = (0, 0.0)
    """(step number, virtual time it began) as this peer's owner saw it."""
    move_at: tuple[int, float] | None = None
    joined_at: float | None = None
    seated_at: float | None = None
    untimely: bool = False
    """Down, cut or slow past :data:`TIMELY` at some moment: the promises no longer cover it."""
    finished: bool = False
    state: dict[str, Any] = field(default_factory=dict)
    """What its behaviour remembers."""
    bot: Any = None
    extra: list[Identity] = field(default_factory=list)
    """A stranger's other keys."""

    @property
    def honest(self) -> bool:
        return self.behaviour is None and self.seat is not None

    @property
    def live(self) -> bool:
        return not self.gone and self.down_until is None and self.table is not None

    @property
    def me(self) -> bytes:
        return self.identity.public.raw


@dataclass
class Run:
    """What a run did: its configuration, the schedule of what happened (faults, behaviours),
    the promises it broke, and what it cost."""

    config: Config
    schedule: list[str]
    broken: list[promises.Broken]
    end: str
    virtual_seconds: float
    ended: bool


class World:
    """The peers of one simulated table, the network between them and the clock."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.rng = random.Random(config.seed)
        self.now = 0.0
        self._queue: list[tuple[float, int, Callable[[], None]]] = []
        self._order = itertools.count()
        self.schedule: list[str] = []
        self.broken: list[promises.Broken] = []
        self.cut: dict[frozenset[int], float] = {}
        """Link (pair of peer indices) -> when it heals."""
        self.slow: dict[frozenset[int], float] = {}
        self.budget = config.budget
        self._over_since: float | None = None
        """When every honest table was over (None while one is not)."""
        self.spec = TableSpec(
            edition=config.edition, seats=config.seats, options=(), name="sim", player="seat0",
            address="10.0.0.0:5000", game=config.game, deadlines=Deadlines(),
        )
        self.peers: list[Peer] = []
        seat_behaviour = dict(config.behaviours)
        for seat in range(config.seats):
            self.peers.append(Peer(
                seat, f"seat{seat}", Identity(self.rng.randbytes(32)), f"10.0.0.{seat}", seat,
                seat_behaviour.get(seat),
                bot=make_bot("greedy", seed=config.seed * 31 + seat),
            ))
        for kind, count in config.strangers:
            index = len(self.peers)
            self.peers.append(Peer(
                index, f"stranger-{kind}", Identity(self.rng.randbytes(32)),
                f"10.0.1.{index}", None, kind,
            ))
            self.peers[-1].state["count"] = count
        self.creator = self.peers[0]
        self.creator.table = behaviours.table_kind(self.creator).create(
            self.creator.identity, self.spec, self.creator.keeper
        )
        self.definition = self.creator.table.logs.log(self.creator.me)[0].signed
        self.friends = {p.me for p in self.peers if p.seat is not None}
        if not config.open:
            self.creator.table.lobby.open = False
            for friend in self.peers[1 : config.seats]:
                self.creator.table.admit(friend.me)  # by fingerprint, before any join
        self.wire = promises.WireModel(self)

    # ------------------------------------------------------------------ scheduling

    def at(self, when: float, action: Callable[[], None]) -> None:
        heapq.heappush(self._queue, (when, next(self._order), action))

    def note(self, text: str) -> None:
        """Add a line to the schedule (what a replay shows)."""
        self.schedule.append(f"t={self.now:9.2f} {text}")

    def run(self) -> Run:
        """Play the table to its end (or to the first broken promise); what happened."""
        for peer in self.peers[1 : self.config.seats]:
            self.at(self.rng.uniform(0.5, 20.0), lambda peer=peer: self._join(peer))
        for peer in self.peers[self.config.seats :]:
            self.at(self.rng.uniform(0.0, 0.4),
                    lambda peer=peer: behaviours.start_stranger(self, peer))
        self.at(TICK, self._tick)
        self.at(PULL, self._pull_all)
        if self.budget and self.config.faults & {"cut", "crash", "slow"}:
            self.at(self.rng.uniform(5.0, 600.0), self._fault)
        self._send(self.creator)
        ended = False
        while self._queue and not self.broken:
            when, _, action = heapq.heappop(self._queue)
            self.now = when
            try:
                action()
            except Exception as exc:  # the simulator's own code, or a peer outside _running
                self.broken.append(promises.Broken("no crash", f"the world: {raised(exc)}"))
                break
            if self._ended():
                ended = True
                break
            if self.now > HORIZON:
                self.broken.append(promises.Broken(
                    "liveness", f"no end after {HORIZON:.0f} virtual seconds"))
                break
        if ended and not self.broken:
            promises.check_end(self)
        return Run(self.config, self.schedule, self.broken, self._end_words(), self.now, ended)

    # ------------------------------------------------------------------ peers

    def seats(self) -> list[Peer]:
        return [p for p in self.peers if p.seat is not None]

    def honest(self) -> list[Peer]:
        """The honest seats' peers still running (crashed ones included)."""
        return [p for p in self.seats() if p.honest and not p.gone]

    def _join(self, peer: Peer) -> None:
        peer.table = behaviours.table_kind(peer).from_definition(
            peer.identity, self.definition, peer.keeper
        )
        peer.table.join(peer.name, f"{peer.source}:5000")
        peer.joined_at = self.now
        self.note(f"{peer.name} asks for a seat")
        self.after(peer)

    def after(self, peer: Peer) -> None:
        """What a peer's owner does after its table changed: send what it appended, fetch the
        other version of an entry a witness disagrees on, check the promises."""
        table = peer.table
        if table is None or not peer.live:
            return
        number = table.step.number if table.step is not None else -1
        if number != peer.since[0]:
            peer.since = (number, self.now)
            peer.move_at = None
        if peer.seated_at is None and table.seat is not None:
            peer.seated_at = self.now
        self._send(peer)
        promises.check_step(self, peer)

    def _send(self, peer: Peer) -> None:
        table = peer.table
        assert table is not None
        appended, suspicions = table.drain()
        faults = self.config.faults
        for entry in appended:
            for other in self.peers:
                if other is peer or other.gone:
                    continue
                if other.seat is None and other.behaviour != "squatter":
                    continue
                self._post(peer, other, entry.signed, faults)
        for suspicion in suspicions:
            witness = next((p for p in self.peers if p.me == suspicion.witness and p.live), None)
            if witness is None or witness.table is None:
                continue
            log = witness.table.logs.log(suspicion.author)
            if suspicion.seq < len(log) and log[suspicion.seq].hash == suspicion.claimed:
                self._post(witness, peer, log[suspicion.seq].signed, frozenset())

    def _post(self, source: Peer, target: Peer, signed: bytes, faults: frozenset[str]) -> None:
        link = frozenset((source.index, target.index))
        if link in self.cut:
            return
        if "drop" in faults and self.rng.random() < DROP:
            return
        copies = 2 if "dup" in faults and self.rng.random() < DUP else 1
        for _ in range(copies):
            low, high = SLOW if link in self.slow else REORDER if "delay" in faults else LAN
            self.at(self.now + self.rng.uniform(low, high),
                    lambda: self.deliver(target, signed, source.source))

    def deliver(self, peer: Peer, signed: bytes, source: str) -> None:
        """Hand ``peer`` an entry that came from the host ``source``."""
        if not peer.live or peer.table is None:
            return
        with self._running(peer):
            peer.table.receive(signed, source)
        if peer.live:
            self.after(peer)

    @contextmanager
    def _running(self, peer: Peer) -> Iterator[None]:
        """Run a step of ``peer``'s table. A dishonest peer's table may fail on what it
        signed itself (its own fold follows its own false decisions): its process dies, as a
        program that cheats may; an honest peer's failure is the run's."""
        try:
            yield
        except Exception as exc:
            if peer.honest:
                self.broken.append(promises.Broken("no crash", f"{peer.name}: {raised(exc)}"))
                self.kill(peer, "crashed")
                return
            self.kill(peer, f"fails on its own entries ({type(exc).__name__}: {exc})")

    def _pull_all(self) -> None:
        """Every live peer takes what it lacks from every peer it reaches (a node following
        each peer's stream from what it holds)."""
        for target in self.peers:
            if not target.live or target.table is None:
                continue
            if target.seat is None and target.behaviour != "squatter":
                continue
            for source in self.peers:
                if source is target or not source.live or source.table is None:
                    continue
                if frozenset((source.index, target.index)) in self.cut:
                    continue
                self._pull(source, target)
        self.at(self.now + PULL, self._pull_all)

    def _pull(self, source: Peer, target: Peer) -> None:
        assert source.table is not None and target.table is not None
        mine = target.table.logs
        for author in list(source.table.logs.authors):
            log = source.table.logs.log(author)
            held = len(mine.log(author))
            for entry in log[held:]:
                if target.table is None or not target.live:
                    return
                with self._running(target):
                    target.table.receive(entry.signed, source.source)
        if target.live:
            self.after(target)

    # ------------------------------------------------------------------ the owners' timers

    def _tick(self) -> None:
        for peer in list(self.peers):
            if peer.down_until is not None and self.now >= peer.down_until:
                self._restore(peer)
            if not peer.live:
                continue
            if peer.seat is None:
                with self._running(peer):
                    behaviours.act(self, peer)
                continue
            with self._running(peer):
                self._owner(peer)
            if peer.behaviour is not None and peer.live:
                with self._running(peer):
                    behaviours.act(self, peer)
            if peer.live:
                self.after(peer)
        self.wire.tick()
        self.at(self.now + TICK, self._tick)

    def _owner(self, peer: Peer) -> None:
        """What a node and its owner do as time passes: state silent a seat past its
        deadline, close a coin whose reveal does not come, play the bot's move, refuse the
        strangers (the creator's owner at a table that is not open), say goodbye."""
        table = peer.table
        assert table is not None
        step = table.step
        waited = self.now - peer.since[1]
        if peer.behaviour != "mute":
            deadline = table.deadline()
            if deadline is not None and waited > deadline:
                table.declare_silent(waited)
            if (
                step is not None and step.kind == COIN_REVEAL
                and waited > COIN_TIMEOUT
            ):
                table.give_up_waiting()
        if peer is self.creator and not self.config.open:
            for author in table.lobby.pending:
                if author not in self.friends:
                    table.refuse(author)
        self._bot(peer, step)
        if table.over and not peer.finished:
            peer.finished = True
            table.finish()

    def _bot(self, peer: Peer, step: Step | None) -> None:
        table = peer.table
        assert table is not None
        game = table.game
        if (
            step is None or game is None or step.kind != MOVE
            or step.missing != (peer.me,) or table.halt is not None or table.seat in table.out
        ):
            return
        if peer.move_at is None or peer.move_at[0] != step.number:
            peer.move_at = (step.number, self.now + self.rng.uniform(*THINK))
            return
        if self.now < peer.move_at[1] or behaviours.holds_back(self, peer):
            return
        seat = table.seat
        assert seat is not None
        reason = table.submit(peer.bot.choose(game.copy(), seat))
        if reason is not None:
            self.broken.append(promises.Broken("sim", f"{peer.name}'s bot move refused: {reason}"))

    # ------------------------------------------------------------------ faults

    def _fault(self) -> None:
        self.budget -= 1
        kinds = sorted(self.config.faults & {"cut", "crash", "slow"})
        kind = self.rng.choice(kinds)
        seated = [p for p in self.seats() if not p.gone and p.table is not None]
        length = self.rng.uniform(*WINDOW)
        if kind == "crash":
            candidates = [p for p in seated if p.down_until is None]
            if candidates:
                peer = self.rng.choice(candidates)
                self.crash(peer, length)
        elif len(seated) >= 2:
            a, b = self.rng.sample(seated, 2)
            link = frozenset((a.index, b.index))
            (self.cut if kind == "cut" else self.slow)[link] = self.now + length
            self.note(f"{kind} link {a.name}-{b.name} for {length:.1f} s")
            if length > TIMELY:
                a.untimely = b.untimely = True
            self.at(self.now + length, lambda: self._heal(kind, link))
        if self.budget > 0:
            self.at(self.now + self.rng.uniform(5.0, 900.0), self._fault)

    def _heal(self, kind: str, link: frozenset[int]) -> None:
        (self.cut if kind == "cut" else self.slow).pop(link, None)

    def crash(self, peer: Peer, length: float) -> None:
        """Stop ``peer``'s process; it comes back from its keeper after ``length`` seconds."""
        peer.table = None
        peer.down_until = self.now + length
        peer.move_at = None
        if length > TIMELY:
            peer.untimely = True
        self.note(f"crash {peer.name} for {length:.1f} s")

    def kill(self, peer: Peer, why: str) -> None:
        """Stop ``peer``'s process for good (whatever it signed and nobody holds is lost)."""
        peer.gone = True
        peer.table = None
        self.note(f"{peer.name} {why}")

    def _restore(self, peer: Peer) -> None:
        peer.down_until = None
        if not peer.keeper.entries:
            return
        with self._running(peer):  # a dishonest seat's fold may fail on its own entries
            peer.table = behaviours.table_kind(peer).restore(
                peer.identity, peer.keeper, list(peer.keeper.entries)
            )
        if peer.table is None:
            return
        step = peer.table.step
        number = step.number if step is not None else -1
        if number != peer.since[0]:  # as the node's store notes when a step began
            peer.since = (number, self.now)
        self.note(f"restore {peer.name}")
        self.after(peer)

    # ------------------------------------------------------------------ the end

    def _ended(self) -> bool:
        """Every honest seat's table has been over for a node's goodbye wait (it reads the
        others that long: ``GOODBYE_SECONDS``; with no honest seat left, nothing more is
        promised), or every honest seat has waited in the lobby past its bound: seated, for
        a joiner to take a free seat (nobody honest is left to ask), or, at a table whose
        creator is dishonest, for a seat (the creator alone seats): nothing more is
        promised."""
        honest = self.honest()
        if all(p.live and p.table is not None and p.table.over for p in honest):
            if self._over_since is None:
                self._over_since = self.now
            return self.now - self._over_since >= GOODBYE_SECONDS
        self._over_since = None
        bound = promises.lobby_bound(self)
        return all(
            p.live and p.table is not None and p.table.step is not None
            and (
                (p.seated_at is not None and p.table.step.kind == SEATING
                 and self.now - p.since[1] > bound)
                or (p.seated_at is None and not self.creator.honest
                    and p.joined_at is not None and self.now - p.joined_at > bound)
            )
            for p in honest
        )

    def _end_words(self) -> str:
        for peer in self.honest():
            table = peer.table
            if table is None:
                continue
            if table.step is not None and table.step.kind == SEATING:
                return "waits in the lobby for a joiner to take a free seat"
            if table.halt is not None:
                return "halted: " + table.halt.detail
            game = table.game
            if game is not None and game.outcome is not None:
                out = f" without seats {sorted(table.out)}" if table.out else ""
                return f"finished ({game.outcome.kind}){out}"
        if not self.creator.honest and any(p.seated_at is None for p in self.honest()):
            return "an honest joiner not seated by a dishonest creator (nothing is promised)"
        return "no end"


def raised(exc: Exception) -> str:
    """An exception in one line: its type and words, and the line of code that raised it."""
    frame = traceback.extract_tb(exc.__traceback__)[-1]
    return f"{type(exc).__name__}: {exc} (at {frame.filename}:{frame.lineno}, {frame.name})"


def run(config: Config) -> Run:
    """Run one simulated game (the crypto's randomness drawn from its seed)."""
    with seeded(config.seed):
        return World(config).run()


def entries_of(table: Table) -> list[LogEntry]:
    """Every entry a peer holds, as it writes its record (the definition first)."""
    entries = [e for a in table.logs.authors for e in table.logs.log(a)]
    return sorted(entries, key=lambda e: e.kind != "table")
