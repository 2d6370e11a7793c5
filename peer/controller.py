"""The controller interface: what a seat's owner sees of its table, and how it acts on it.

The terminal client and every bot drive a seat through a :class:`Controller`: the latest
:class:`Snapshot` (the seat's view, the legal moves, whom the table waits for and since when,
the progress of a shuffle or a deal, a halt with its blame), the table's events in players'
words, a stream of changes, and :meth:`Controller.submit`, which answers with the engine's
reason when a move is refused (and changes nothing then).

A controller adapts what runs its table (a :class:`TableRunner`: the peer's node) and adds no
state of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import AsyncGenerator, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from condottiere.crypto import PublicIdentity
from condottiere.interface import GameState, Outcome, SeatView
from condottiere.peer.driver import Halt, Refusal, Table, TableEvent
from condottiere.peer.lobby import Deadlines
from condottiere.peer.readers import REFUSED_A_SEAT
from condottiere.peer.steps import StepKind, rule_of
from condottiere.peer.trace import Trace

__all__ = [
    "Controller",
    "Player",
    "Snapshot",
    "TableRunner",
    "Waiting",
    "fingerprint",
    "snapshot_of",
    "starved",
]

T = TypeVar("T")


@dataclass(frozen=True)
class Player:
    """A person at the table (seated, or asking for a seat)."""

    seat: int | None
    name: str
    fingerprint: str
    """The short fingerprint of the player's key, for people to compare aloud."""
    address: str
    asking: bool = False
    """A joiner waiting for this peer's owner (the table's creator) to admit or refuse it."""


@dataclass(frozen=True)
class Waiting:
    """What the table waits for, and since when."""

    kind: StepKind | None
    """The kind of step (its rule, :func:`~condottiere.peer.steps.rule_of`, says what it
    is); None for a position of a replay (the seat to act at it)."""
    seats: tuple[int, ...]
    text: str
    """What the table waits for, in the step's own words: ``seat 1 (bob) to shuffle deck 1``."""
    since: float
    """``time.monotonic()`` when the table began waiting for this step."""
    deadline: int | None = None
    """Seconds the step gives the seats it waits for (from :attr:`since`), after which the
    others state them silent; None: no deadline (the lobby, a coin reveal of three or more)."""

    def left(self, now: float) -> float | None:
        """Seconds left before the deadline at ``now`` (0 once past); None without one."""
        return None if self.deadline is None else max(0.0, self.since + self.deadline - now)


@dataclass(frozen=True)
class Snapshot:
    """Everything a seat's owner may know of its table at one moment."""

    table_name: str
    game: str
    """The table's game (a name of :func:`condottiere.interface.game_names`)."""
    edition: str
    seats: int
    seat: int | None
    players: tuple[Player, ...]
    stage: str
    """``lobby``, ``dealing`` (keys, shuffles and deals), ``playing``, ``over`` or ``halted``."""
    view: SeatView | None
    """The seat's view, of the game's own type (None before the deal, and for a watcher)."""
    waiting: Waiting | None
    progress: tuple[int, int] | None
    halt: Halt | None
    refusals: tuple[Refusal, ...]
    outcome: Outcome | None
    """Who won and how, once the game is over."""
    audited: bool
    record_hash: str
    step: int
    deadlines: Deadlines = field(default_factory=Deadlines)
    """The table definition's deadlines (the lobby shows them)."""
    forced: bool = False
    """The table waits for this seat's forced move, which the peer plays itself at its time
    (:mod:`condottiere.peer.pacing`): not the owner's to play."""
    options: tuple[str, ...] = ()
    """The table's house rules (its definition's options)."""
    freed: tuple[str, ...] = ()
    """Each seat freed in the lobby, and why: ``seat 1 (bob) silent at the start for 60 s;
    signed by seat 0 (not ready in time)``, or ``seat 1 (bob) left at the start``."""

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seats; empty until the game is over (and for a draw)."""
        return () if self.outcome is None else self.outcome.winners

    @property
    def final(self) -> bool:
        """True for the last snapshot of a table: the game over and audited, or halted."""
        return self.halt is not None or self.audited

    @property
    def my_turn(self) -> bool:
        """True when this seat must choose a move now."""
        return (
            self.view is not None
            and self.waiting is not None
            and self.waiting.kind == "move"
            and self.waiting.seats == (self.seat,)
            and bool(self.view.legal_moves)
            and not self.forced
        )


@functools.lru_cache(maxsize=256)
def fingerprint(author: bytes) -> str:
    """The short fingerprint people compare for a player's key."""
    return PublicIdentity(author).fingerprint()


def starved(snapshot: Snapshot, links: Mapping[str, str | None]) -> dict[int, str]:
    """The seats the table waits for whose peer this one has no link to, with why the link
    failed last: the wait is the link's (they may well have answered), not the seat's.

    >>> from condottiere.peer.steps.seating import READY
    >>> ada = Player(0, "ada", "f", "10.0.0.5:4000")
    >>> bob = Player(1, "bob", "g", "10.0.0.6:4000")
    >>> now = Snapshot("t", "condottiere", "zman", 2, 0, (ada, bob), "lobby", None,
    ...                Waiting(READY, (0, 1), "", 0.0), None, None, (), None, False,
    ...                "", 3)
    >>> starved(now, {"10.0.0.6:4000": "nobody answers there"})
    {1: 'nobody answers there'}
    >>> starved(now, {"10.0.0.6:4000": None})
    {}
    """
    if snapshot.waiting is None:
        return {}
    addresses = {p.seat: p.address for p in snapshot.players if p.seat is not None}
    return {
        seat: why
        for seat in snapshot.waiting.seats
        if seat != snapshot.seat
        and (why := links.get(addresses.get(seat, ""))) is not None
    }


def snapshot_of(table: Table, since: float) -> Snapshot:
    """The snapshot of ``table`` now (called where the table lives: its thread)."""
    lobby = table.lobby
    authors = table.seating or (lobby.creator, *lobby.joins)
    if table.seating and not lobby.closed:  # seats being freed go; joiners wait for them
        freeing = table.freeing
        authors = (
            *(a for a in table.seating if a not in freeing),
            *(a for a in lobby.joins if a not in table.seating),
        )
    asking = set(lobby.pending)
    players = tuple(
        Player(
            table.seat_of(author) if table.seating else None,
            lobby.names.get(author, "?"),
            fingerprint(author),
            lobby.addresses.get(author, ""),
            author in asking,
        )
        for author in authors
    )
    game = table.game
    waiting = table.waiting()
    step = table.step
    rule = None if step is None else rule_of(step.kind)
    if table.halt is not None:
        stage = "halted"
    elif game is not None and game.outcome is not None:
        stage = "over"
    else:
        stage = (rule.stage if rule is not None else None) or (
            "dealing" if game is None else "playing"
        )
    view = None
    if game is not None and table.seat is not None:
        view = game.view(table.seat)
    return Snapshot(
        table_name=table.spec.name,
        game=table.spec.game,
        edition=table.spec.edition,
        seats=table.spec.seats,
        seat=table.seat,
        players=players,
        stage=stage,
        view=view,
        waiting=None if waiting is None else Waiting(*waiting, since, table.deadline()),
        progress=table.progress(),
        halt=table.halt,
        refusals=tuple(table.refusals),
        outcome=None if game is None else game.outcome,
        audited=table.audited,
        record_hash=table.record_hash() if stage == "over" else "",
        step=0 if step is None else step.number,
        deadlines=table.spec.deadlines,
        forced=table.forced_move() is not None,
        options=table.spec.options,
        freed=tuple(
            departure.words(f"seat {departure.seat} ({name})")
            + ("" if departure.waited is None else " (not ready in time)")
            for name, departure in table.freed
        ),
    )


class TableRunner(Protocol):
    """What a :class:`Controller` needs of what runs its table (the peer's node): what it
    published last, the queues it publishes each new snapshot to, its links to the other
    peers, and calls on the table's own thread."""

    @property
    def snapshot(self) -> Snapshot | None:
        """The latest snapshot; None before there is a table."""
        ...

    @property
    def events(self) -> list[TableEvent]:
        """Every event of the table so far, oldest first."""
        ...

    @property
    def listeners(self) -> set[asyncio.Queue[Snapshot]]:
        """The queues each new snapshot is put on (a listener adds and discards its own)."""
        ...

    @property
    def connected(self) -> frozenset[str]:
        """The addresses of the peers followed successfully now."""
        ...

    @property
    def link_errors(self) -> Mapping[str, str]:
        """The last reason following each peer failed, by address."""
        ...

    @property
    def trace(self) -> Trace: ...

    async def call(self, action: Callable[[Table], T]) -> T:
        """Run ``action(table)`` on the table's thread, then publish what changed;
        RuntimeError when there is no table yet."""
        ...

    async def admit(self, who: str | bytes) -> str | None:
        """Admit a joiner to a seat at the table this peer created; why not, if not."""
        ...

    async def refuse(self, who: str | bytes) -> str | None:
        """Refuse a joiner a seat at the table this peer created; why not, if not."""
        ...


class Controller:
    """The owner's handle on a table (in the event loop of what runs it)."""

    def __init__(self, runner: TableRunner) -> None:
        self._runner = runner

    @property
    def snapshot(self) -> Snapshot | None:
        """The latest snapshot; None before there is a table."""
        return self._runner.snapshot

    @property
    def events(self) -> list[TableEvent]:
        """Every event of the table so far, oldest first."""
        return self._runner.events

    async def changes(self) -> AsyncGenerator[Snapshot, None]:
        """Each new snapshot as the table changes (the current one first)."""
        queue: asyncio.Queue[Snapshot] = asyncio.Queue()
        self._runner.listeners.add(queue)
        try:
            if self.snapshot is not None:
                yield self.snapshot
            while True:
                snapshot = await queue.get()
                while not queue.empty():  # a slow reader only needs the newest
                    snapshot = queue.get_nowait()
                yield snapshot
        finally:
            self._runner.listeners.discard(queue)

    async def updates(self) -> AsyncGenerator[tuple[Snapshot, list[TableEvent]], None]:
        """Each new snapshot (as :meth:`changes`) with the events since the previous one; every
        event so far comes with the first."""
        taken = 0
        async with contextlib.aclosing(self.changes()) as changes:
            async for snapshot in changes:
                events = self.events[taken:]
                taken += len(events)
                yield snapshot, events

    @property
    def links(self) -> dict[str, str | None]:
        """The other peers this one follows, by address: None while the link is up, else why
        it failed last (a peer that is gone, or not there yet)."""
        connected = self._runner.connected
        failed = {a: e for a, e in self._runner.link_errors.items() if a not in connected}
        return {**dict.fromkeys(connected), **failed}

    @property
    def refused_seat(self) -> bool:
        """The table's creator refused this peer's owner a seat: its peer said so when this
        one followed it (the refusal is in no log)."""
        return any(why == REFUSED_A_SEAT for why in self.links.values())

    async def game(self) -> GameState[Any] | None:
        """A copy of this seat's own game (what a bot may look at), or None before the deal."""
        return await self._runner.call(
            lambda table: None if table.game is None else table.game.copy()
        )

    async def submit(self, move: str) -> str | None:
        """Play a move; None when it is played, else the reason it is refused."""

        def submit(table: Table) -> str | None:
            turn = 0 if table.game is None else table.game.moves_played
            self._runner.trace.write("submit", turn=turn)
            return table.submit(move)

        return await self._runner.call(submit)

    async def chat(self, text: str) -> None:
        await self._runner.call(lambda table: table.chat(text))

    async def ready(self) -> None:
        await self._runner.call(lambda table: table.ready())

    async def leave(self, reason: str = "") -> None:
        await self._runner.call(lambda table: table.leave(reason))

    async def admit(self, who: str) -> str | None:
        """At a table this peer created that is not open: seat the joiner ``who`` (its name
        or key fingerprint, as the ``ask`` event shows them) when the seats are given; None
        when done, else why not."""
        return await self._runner.admit(who)

    async def refuse(self, who: str) -> str | None:
        """Never seat the joiner ``who`` (see :meth:`admit`); None when done, else why not."""
        return await self._runner.refuse(who)
