"""The table: the game as a fold over every author's signed log.

A :class:`Table` is fed signed entries (:meth:`Table.receive`) in any order, any number of
times, and computes the same state as every other peer fed the same entries. It walks
through *steps*: at each one it knows which authors it waits for and what each must
publish, takes that from each author's log, checks it, and applies it whole or not at all:

====================  ==========================================================
step                  who, and what
====================  ==========================================================
1 table               the creator defines the table (its first entry)
2 seating             the creator seats the first joiners (joins are free entries)
3 ready               every seat agrees to the seating
4 keys                every seat publishes its key for each deck, with a proof
shuffle               one seat re-encrypts and permutes a deck, with a proof
shares                every seat but a deal's owner: decryption shares of its cards
coin_commit           every committer: a commitment to a nonce (a fair choice)
coin_reveal           every committer: its nonce (see :mod:`condottiere.peer.coin`)
move                  the seat the engine waits for: a move and the cards it shows
audit                 every seat, at the end: its deck secrets, to audit the game
====================  ==========================================================

Each entry names the step it answers. An entry answering a later step waits its turn; one
answering a step that did not wait for its author is refused as out of turn (or stale, if
the author had answered that step). Entries are checked in the design's order: well-formed,
table, signature, sequence and previous hash (at :meth:`receive`), then author, body,
proofs, rules (when their step comes). A refused entry is skipped (the table goes on and
waits for a proper one) unless it proves cheating that cannot be undone: a bad proof or an
equivocation halts the table, with the blame and the signed evidence.

The table's own seat does its protocol work itself (keys, shuffles, shares, coins, reveals,
audit); only moves with a real choice wait for :meth:`Table.submit`. Secrets are kept (by
the :class:`Keeper`) before the entry that needs them is published, and every entry is kept
as it is accepted, so a table rebuilt from its keeper continues exactly where it stopped. An
entry of its own is kept before it is published, and only where no other entry of its key is
(``Keeper.keep_own``); a table rebuilt from a keeper that may be behind what it signed signs
nothing until it has its own log back (:attr:`Table.catching_up`).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from google.protobuf.message import Message

from condottiere import crypto
from condottiere.crypto import Identity
from condottiere.interface import (
    Choice,
    Deal,
    Draw,
    GameState,
    IllegalMoveError,
    InvalidMoveError,
    SeatToMove,
    ToldKind,
)
from condottiere.peer.coin import Abandoned, Flip, Settled, verdict
from condottiere.peer.dealer import Card, Dealer
from condottiere.peer.entries import (
    LogEntry,
    Reason,
    Rejection,
    SigningConflict,
    heads_of,
    make_entry,
    read_entry,
    table_id_of,
)
from condottiere.peer.lobby import Lobby, TableSpec, check_text
from condottiere.peer.logs import Logs, Suspicion
from condottiere.v1 import log_pb2

__all__ = [
    "Halt",
    "Keeper",
    "MemoryKeeper",
    "Refusal",
    "Step",
    "StepKind",
    "Table",
    "TableEvent",
]

HALTING = frozenset({Reason.BAD_PROOF, Reason.EQUIVOCATION})
"""Rejections that prove cheating which cannot be undone by waiting for a better entry."""
MAX_CHAT = 500
MAX_JOINERS = 64
"""How many authors a lobby hears of, at most, before its table is seated."""


class Keeper(Protocol):
    """Where a table keeps what it must not lose: every entry, and its own secrets.

    ``keep_secret`` and ``keep_own`` must be durable when they return: the entry that depends
    on a secret, and an entry of the table's own, are published only afterwards.
    """

    def keep(self, entry: LogEntry) -> None: ...

    def keep_own(self, entry: LogEntry) -> None:
        """Keep an entry the table's own key signed; :class:`SigningConflict` (and nothing
        kept) if another entry of that key holds its sequence number."""
        ...

    def keep_secret(self, name: str, value: bytes) -> None: ...

    def secret(self, name: str) -> bytes | None: ...

    def mark_verified(self, entry: LogEntry) -> None: ...

    def verified(self) -> set[bytes]:
        """The hashes of entries whose proofs were verified before."""
        ...


@dataclass
class MemoryKeeper:
    """A keeper in memory (tests, and peers that need not survive a crash)."""

    entries: list[LogEntry] = field(default_factory=list)
    secrets: dict[str, bytes] = field(default_factory=dict)
    checked: set[bytes] = field(default_factory=set)

    def keep(self, entry: LogEntry) -> None:
        self.entries.append(entry)

    def keep_own(self, entry: LogEntry) -> None:
        for kept in self.entries:
            if (kept.author, kept.seq) == (entry.author, entry.seq):
                if kept.hash != entry.hash:
                    raise SigningConflict(kept, entry)
                return
        self.entries.append(entry)

    def keep_secret(self, name: str, value: bytes) -> None:
        self.secrets[name] = value

    def secret(self, name: str) -> bytes | None:
        return self.secrets.get(name)

    def mark_verified(self, entry: LogEntry) -> None:
        self.checked.add(entry.hash)

    def verified(self) -> set[bytes]:
        return set(self.checked)


@dataclass(frozen=True)
class Refusal:
    """An entry refused; the table went on without it."""

    reason: Reason
    detail: str
    author: bytes | None = field(repr=False)
    seat: int | None
    evidence: tuple[bytes, ...] = field(repr=False)


@dataclass(frozen=True)
class Halt:
    """Why the table stopped for good: a proven cheat (``reason`` set), a seat that left, or
    this peer's own seat that can go no further (its store lost its secrets)."""

    detail: str
    author: bytes | None = field(repr=False)
    seat: int | None
    reason: Reason | None = None
    evidence: tuple[bytes, ...] = field(default=(), repr=False)

    @property
    def cheat(self) -> bool:
        return self.reason is not None


@dataclass(frozen=True)
class TableEvent:
    """Something that happened at the table, in players' words."""

    kind: str
    """``join ask seated ready shuffle deal coin move result change chat leave refused halt
    over audit`` (``ask``: a joiner the creator's owner must admit or refuse); ``move``,
    ``result`` and ``change`` are the game's narration of a move
    (:class:`~condottiere.games.ToldKind`)."""
    text: str
    seat: int | None = None


class StepKind(StrEnum):
    """What a step waits for (its value is the kind of entry that answers it)."""

    SEATING = "seating"
    READY = "ready"
    KEYS = "keys"
    SHUFFLE = "shuffle"
    SHARES = "shares"
    COIN_COMMIT = "coin_commit"
    COIN_REVEAL = "coin_reveal"
    MOVE = "move"
    AUDIT = "audit"


@dataclass
class Step:
    """What the table waits for now."""

    number: int
    kind: StepKind
    authors: tuple[bytes, ...]
    answers: dict[bytes, LogEntry] = field(default_factory=dict)
    deck: int = 0
    draws: tuple[Draw, ...] = ()
    flip: Flip | None = None
    commitments: dict[int, bytes] = field(default_factory=dict)

    @property
    def missing(self) -> tuple[bytes, ...]:
        return tuple(author for author in self.authors if author not in self.answers)


class Table:
    """One table, as one peer (or a watcher) sees it. Build it with :meth:`create`,
    :meth:`from_definition` or :meth:`restore`."""

    def __init__(
        self,
        identity: Identity,
        definition: LogEntry,
        keeper: Keeper,
        *,
        auto_ready: bool = True,
    ) -> None:
        self.identity = identity
        self.me = identity.public.raw
        self.keeper = keeper
        self.auto_ready = auto_ready
        self.table_id = definition.entry.table_id
        self.logs = Logs(self.table_id)
        self.lobby = Lobby(definition)
        self.spec = self.lobby.spec
        self.step: Step | None = Step(2, StepKind.SEATING, (self.lobby.creator,))
        self.rules = self.spec.game_rules
        """The game this table plays (through the game interface only)."""
        self.game: GameState[Any] | None = None
        self.dealer: Dealer | None = None
        self.halt: Halt | None = None
        self.refusals: list[Refusal] = []
        self.events: list[TableEvent] = []
        """Every event so far, oldest first (a controller reads from where it stopped)."""
        self.appended: list[LogEntry] = []
        """Entries appended to the logs since the owner last took them (see :meth:`drain`)."""
        self.cards: dict[Card, str] | None = None
        """Every card of the game by slot, once the audit is through."""
        self.flips: list[tuple[Flip, int]] = []
        """Every coin flip settled or abandoned, and the seat it gave (-1: abandoned)."""
        self.defer_costly = False
        """When set, this seat's shuffle (its costliest work) waits for :meth:`resume` while
        entries appended since the last :meth:`drain` are there: a node publishes the move
        that ended a round, and its snapshot, before it shuffles for the next."""
        self.deferred = False
        """This seat's shuffle waits for :meth:`resume`."""
        self.catching_up = False
        """Set on a table restored from a store that may be behind what this seat signed (a
        backup put back loses the entries signed since): the table takes entries in and
        follows the game, but signs nothing until :meth:`catch_up` has heard from the others
        how much of this seat's log they hold, and holds that much."""
        self._taken_up_over = False
        """Set on a table that was over when it was taken up with ``catching_up``: it says no
        goodbye (its store may have lost the one it said), so it signs nothing more and has
        nothing to catch up with (the others may be gone)."""
        self.on_move: Callable[[int], None] | None = None
        """Called with each move's turn the moment it is applied, before this seat's own work
        that may follow in the same call (a shuffle at a round's end): a benchmark's clock."""
        self._cursor: dict[bytes, int] = {}
        self._answered: dict[bytes, int] = {}
        self._verified = keeper.verified()
        self._held_evidence: list[LogEntry] = []
        self._want_ready = auto_ready
        self._closes: dict[tuple[int, int], dict[bytes, frozenset[int]]] = {}
        """Each author's first close of each coin attempt (see :meth:`_closes_of`)."""
        self.withheld: set[int] = set()
        """Seats this peer closed a coin attempt without the reveal of (blamed, see
        :mod:`condottiere.peer.coin`)."""
        self._consumed: set[bytes] = set()
        self._deck_lists: tuple[tuple[str, ...], ...] | None = None
        self._restoring = True  # the definition is kept by whoever made or received it
        self._add(definition)
        self._restoring = False

    # ------------------------------------------------------------------ construction

    @classmethod
    def create(
        cls,
        identity: Identity,
        spec: TableSpec,
        keeper: Keeper,
        *,
        auto_ready: bool = True,
    ) -> Table:
        """A new table, defined by ``identity`` (its creator, seat 0), under the id its
        definition binds it to (a fresh nonce makes it new)."""
        spec.check()
        body = spec.body()
        table_id = table_id_of(identity.public.raw, body)
        definition = make_entry(identity, table_id, 0, b"", step=1, heads=(), body=body)
        keeper.keep_own(definition)
        return cls(identity, definition, keeper, auto_ready=auto_ready)

    @classmethod
    def from_definition(
        cls, identity: Identity, signed: bytes, keeper: Keeper, *, auto_ready: bool = True
    ) -> Table:
        """The table a received definition entry creates; :class:`Rejection` if it cannot be
        read (a definition under another id than its own is not read) or played."""
        definition = read_entry(signed)
        table = cls(identity, definition, keeper, auto_ready=auto_ready)
        keeper.keep(definition)
        return table

    @classmethod
    def restore(
        cls,
        identity: Identity,
        keeper: Keeper,
        entries: Sequence[LogEntry],
        *,
        catching_up: bool = False,
    ) -> Table:
        """The table rebuilt from its kept entries (the definition first), as it was; with
        ``catching_up``, it signs nothing until :meth:`catch_up` (see :attr:`catching_up`)."""
        definition = next(e for e in entries if e.kind == "table" and e.seq == 0)
        table = cls(identity, definition, keeper)
        table._restoring = True
        for entry in entries:
            if entry is not definition:
                table._add(entry)
        table._restoring = False
        table.catching_up = catching_up
        table._advance()
        if catching_up and table.over:
            table.catching_up = False
            table._taken_up_over = True
        return table

    def catch_up(self, held: Mapping[str, int]) -> bool:
        """End the catch-up (:attr:`catching_up`) when the peer at the address of every other
        author of the table has said, in ``held`` (address -> count), how many entries of
        this seat's log it holds, and this seat holds at least as many; True once it has
        ended. Then the table goes on, and does this seat's part where it waits for it."""
        if not self.catching_up:
            return True
        others = [author for author in self.seating or self.lobby.addresses if author != self.me]
        addresses = [self.lobby.addresses.get(author, "") for author in others]
        told = [held.get(address) for address in addresses if address]
        counts = [count for count in told if count is not None]
        if len(counts) < len(told) or len(self.logs.log(self.me)) < max(counts, default=0):
            return False
        self.catching_up = False
        self._advance()
        return True

    # ------------------------------------------------------------------ public state

    @property
    def seat(self) -> int | None:
        """This peer's seat, once seated."""
        return self.lobby.seat_of(self.me)

    @property
    def seating(self) -> tuple[bytes, ...]:
        return self.lobby.seating

    def seat_of(self, author: bytes | None) -> int | None:
        return None if author is None else self.lobby.seat_of(author)

    def who(self, author: bytes | None) -> str:
        """A person's name for an author: its seat and player name."""
        if author is None:
            return "someone"
        seat = self.seat_of(author)
        name = self.lobby.names.get(author, "a stranger")
        return name if seat is None else f"seat {seat} ({name})"

    @property
    def over(self) -> bool:
        """True once the game is over and audited, or the table halted."""
        return self.halt is not None or (self.step is None and self.game is not None)

    def waiting(self) -> tuple[str, tuple[int, ...], str] | None:
        """What the table waits for: the step's kind, the seats (or nothing, in the lobby)
        and a sentence; None when it waits for nothing."""
        step = self.step
        if step is None or self.halt is not None:
            return None
        seats = tuple(s for s in (self.seat_of(a) for a in step.missing) if s is not None)
        names = ", ".join(self.who(a) for a in step.missing)
        text = {
            StepKind.SEATING: f"players to join ({len(self.lobby.joins) + 1} of {self.spec.seats})",
            StepKind.READY: f"{names} to be ready",
            StepKind.KEYS: f"keys from {names}",
            StepKind.SHUFFLE: f"{names} to shuffle deck {step.deck + 1}",
            StepKind.SHARES: f"decryption shares from {names}",
            StepKind.COIN_COMMIT: f"coin commitments from {names}",
            StepKind.COIN_REVEAL: f"coin reveals from {names}"
            + (" (withheld past the timeout: blamed)" if self.withheld & set(seats) else ""),
            StepKind.MOVE: f"{names} to move",
            StepKind.AUDIT: f"the audit secrets of {names}",
        }[step.kind]
        return step.kind, seats, text

    def progress(self) -> tuple[int, int] | None:
        """Done and total of the shuffle chain or the deal under way; None otherwise."""
        step = self.step
        if step is None or self.dealer is None:
            return None
        if step.kind == StepKind.SHUFFLE:
            n = self.spec.seats
            return step.deck * n + (self.dealer.next_shuffler(step.deck) or 0), n * len(
                self.dealer.decks
            )
        if step.kind == StepKind.SHARES:
            return len(step.answers), len(step.authors)
        return None

    def drain(self) -> tuple[list[LogEntry], list[Suspicion]]:
        """The entries appended and the suspicions raised since the last call."""
        appended, self.appended = self.appended, []
        suspicions, self.logs.suspicions = self.logs.suspicions, []
        return appended, suspicions

    def public_record(self) -> dict[str, Any]:
        """The game's record as anyone may see it: deals to a seat are counts."""
        if self.game is None:
            return {}
        record = self.game.record()
        record["events"] = [
            ["deal", event[1], len(event[2])]
            if event[0] == "deal" and isinstance(event[2], list)
            else event
            for event in record["events"]
        ]
        return record

    def record_hash(self) -> str:
        """SHA-256 of the public record: the same on every peer of the same game."""
        text = json.dumps(self.public_record(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    # ------------------------------------------------------------------ input

    def join(self, player: str, address: str) -> None:
        """Ask for a seat (the first entry of this peer's log)."""
        check_text(player, "a player name")
        if self.me == self.lobby.creator or self.logs.log(self.me):
            return
        self._publish(
            log_pb2.Join(definition=self.lobby.definition.hash, player=player, address=address)
        )
        self._advance()

    def receive(self, signed: bytes) -> Rejection | None:
        """Take in one signed entry as it arrived; the rejection if it cannot even be read as
        an entry of this table, or comes from an author with no place at it (nobody at the
        table is blamed: it is kept nowhere)."""
        if self.logs.holds(signed):
            return None
        try:
            entry = read_entry(signed, table_id=self.table_id)
        except Rejection as rejection:
            return rejection
        turned_away = self._door(entry)
        if turned_away is not None:
            return turned_away
        self._add(entry)
        self._advance()
        return None

    def _door(self, entry: LogEntry) -> Rejection | None:
        """Why an author is turned away unheard: its log is full (see ``condottiere.peer.logs``),
        or it has no seat (the table is seated, or its lobby is full). Its entries are not kept,
        so nobody can fill a peer's memory."""
        author = entry.author
        if author in self.logs.full:
            return Rejection(Reason.TOO_LARGE, "the author's log is full", author=author)
        if self.seating:
            if author not in self.seating:
                return Rejection(
                    Reason.NOT_SEATED, "the author has no seat at this table", author=author
                )
        elif author in self.lobby.refused:
            return Rejection(Reason.NOT_SEATED, "the author was refused a seat", author=author)
        elif author not in self.logs.authors and len(self.logs.authors) >= MAX_JOINERS + 1:
            return Rejection(
                Reason.NOT_SEATED, f"the lobby already holds {MAX_JOINERS} joiners", author=author
            )
        return None

    def admit(self, author: bytes) -> None:
        """Seat ``author`` when its turn comes (at a table that is not open, see
        :class:`~condottiere.peer.lobby.Lobby`); only the creator's admissions count."""
        self.lobby.admit(author)
        self._advance()

    def refuse(self, author: bytes) -> None:
        """Never seat ``author`` (its join is forgotten, its entries turned away)."""
        if author in self.lobby.joins:
            self._say("join", f"{self.who(author)} is refused a seat")
        self.lobby.refuse(author)

    def ready(self) -> None:
        """Say this seat is ready (when the table was made with ``auto_ready=False``)."""
        self._want_ready = True
        self._advance()

    def submit(self, text: str) -> str | None:
        """Play a move for this seat (its text, or the game's move value); None when it is
        published, else why not (nothing changes then)."""
        step, game, dealer = self.step, self.game, self.dealer
        if self.halt is not None:
            return f"the table has stopped: {self.halt.detail}"
        if self.catching_up:
            return "this seat is taking its own log back from the others first"
        if step is None or game is None or dealer is None or step.kind != StepKind.MOVE:
            return "it is not time to move"
        if step.authors != (self.me,) or self._pending(self.me, step) is not None:
            return f"it is not your turn: the table waits for {self.who(step.authors[0])}"
        try:
            move = game.parse_move(str(text))
            if move not in game.legal_moves():
                game.copy().play(move)  # raises the rules' reason, on a copy
        except (InvalidMoveError, IllegalMoveError) as exc:
            return str(exc)
        self._publish(
            log_pb2.MovePlayed(
                turn=game.moves_played, move=str(move), cards=dealer.show(game.card_flow(move))
            ),
            step.number,
        )
        self._advance()
        return None

    def chat(self, text: str) -> None:
        """Say something to the table."""
        text = text.strip()
        if not text:
            return
        check_text(text, "a chat line", MAX_CHAT)
        self._publish(log_pb2.Chat(text=text))

    def leave(self, reason: str = "") -> None:
        """Leave the table for good (the game ends for everyone; the record is kept)."""
        if self.halt is None and not self.over:
            self._publish(log_pb2.Leave(reason=reason[:MAX_CHAT]))
            self._advance()

    def spare_time(self, slots: int = 2) -> bool:
        """Use a moment of idleness: verify the unchecked shares of a few cards in play (see
        ``Dealer.verify_some``); True while more work of this kind remains."""
        if self.dealer is None or self.halt is not None or self._quiet:
            return False
        try:
            return self.dealer.verify_some(slots)
        except Rejection as rejection:
            self._refuse(rejection)
            assert rejection.seat is not None
            for entry in self.logs.log(self.seating[rejection.seat]):
                if entry.kind == StepKind.SHARES and entry.hash in self._consumed:
                    self._publish_bad_share(entry)
            return False

    def _publish_bad_share(self, entry: LogEntry) -> None:
        shares = log_pb2.SignedEntry.FromString(entry.signed)
        self._publish(log_pb2.Evidence(bad_share=log_pb2.BadShare(shares=shares)))

    def finish(self) -> None:
        """Once the game is audited, say goodbye: the heads of this entry show the others that
        this peer holds everything (see :meth:`seen_by_all`). A table taken up over says none
        (see :attr:`catching_up`)."""
        if self.cards is None or self._quiet:
            return
        if not any(entry.kind == "leave" for entry in self.logs.log(self.me)):
            self._publish(log_pb2.Leave(reason="the game is over"))

    def seen_by_all(self) -> bool:
        """Whether every other seat has shown (in the heads of an entry) that it holds this
        peer's log up to its audit: then this peer may go without anyone waiting for it."""
        audits = [e.seq for e in self.logs.log(self.me) if e.kind == StepKind.AUDIT]
        if not audits:
            return False
        for author in self.seating:
            if author != self.me and not any(
                entry.heads().get(self.me, (-1, b""))[0] >= audits[0]
                for entry in self.logs.log(author)
            ):
                return False
        return True

    def give_up_waiting(self) -> bool:
        """Close the coin attempt awaited, naming the reveals that did not come (the owner
        calls it once its timeout expires); True when a close was published. See
        :mod:`condottiere.peer.coin`."""
        step = self.step
        if step is None or step.kind != StepKind.COIN_REVEAL or step.flip is None:
            return False
        if self.me not in step.answers or not step.missing:
            return False
        missing = [seat for seat in (self.seat_of(a) for a in step.missing) if seat is not None]
        if not self._close(step.flip, missing):
            return False
        self._advance()
        return True

    def _closes_of(self, flip: Flip) -> dict[int, frozenset[int]]:
        """Each committer's first close of ``flip``: the seats it names as missing."""
        closes = self._closes.get((flip.choice, flip.attempt), {})
        return {
            seat: closes[self.seating[seat]]
            for seat in flip.committers
            if self.seating[seat] in closes
        }

    def _close(self, flip: Flip, missing: Sequence[int]) -> bool:
        seat = self.seat
        if seat is not None and seat not in self._closes_of(flip) and not self._quiet:
            self._publish(
                log_pb2.CoinClose(choice=flip.choice, attempt=flip.attempt, missing=missing)
            )
            self.withheld.update(missing)
            return True
        return False

    # ------------------------------------------------------------------ logs

    def _add(self, entry: LogEntry) -> None:
        try:
            appended = self.logs.add(entry)
        except Rejection as rejection:
            if rejection.reason in HALTING:
                self._stop(rejection, publish_evidence=rejection.reason is Reason.EQUIVOCATION)
            else:
                self._refuse(rejection, entry)
            return
        for fork in self.logs.forks:
            self._stop(fork, publish_evidence=True)
        self.logs.forks.clear()
        for accepted in appended:
            if not self._restoring:
                self.keeper.keep(accepted)
            self.appended.append(accepted)
            if accepted.free:
                self._free(accepted)

    def _publish(self, body: Message, step: int = 0) -> LogEntry:
        if self._quiet:
            raise RuntimeError("this table signs nothing now (see Table.catching_up)")
        heads = {a: h for a, h in self.logs.heads().items() if a != self.me}
        log = self.logs.log(self.me)
        entry = make_entry(
            self.identity,
            self.table_id,
            len(log),
            log[-1].hash if log else b"",
            step=step,
            heads=heads_of(heads),
            body=body,
        )
        self.keeper.keep_own(entry)
        self.logs.add(entry)
        self.appended.append(entry)
        if entry.free:
            self._free(entry)
        return entry

    def _free(self, entry: LogEntry) -> None:
        kind = entry.kind
        if kind == "join":
            if self.lobby.seated:
                if entry.seq != 0:
                    self._refuse(
                        Rejection(Reason.UNEXPECTED, "asks for a seat again, once seated"),
                        entry,
                        entry.author,
                    )
                return
            try:
                self.lobby.add_join(entry)
            except Rejection as rejection:
                self._refuse(rejection, entry)
                return
            if entry.author in self.lobby.pending and self.me == self.lobby.creator:
                fingerprint = crypto.PublicIdentity(entry.author).fingerprint()
                self._say(
                    "ask",
                    f"{entry.body.player} ({fingerprint}) asks for a seat: admit or refuse them",
                )
            elif entry.author in self.lobby.joins:
                self._say("join", f"{entry.body.player} asks for a seat")
        elif kind == "chat":
            self._say(
                "chat",
                f"{self.who(entry.author)}: {entry.body.text[:MAX_CHAT]}",
                self.seat_of(entry.author),
            )
        elif kind == "leave" and not self.over:
            self._say("leave", f"{self.who(entry.author)} is leaving the table",
                      self.seat_of(entry.author))
        elif kind == "evidence":
            self._held_evidence.append(entry)
        elif kind == "coin_close":
            closes = self._closes.setdefault((entry.body.choice, entry.body.attempt), {})
            closes.setdefault(entry.author, frozenset(entry.body.missing))


    # ------------------------------------------------------------------ the fold

    def _left(self, entry: LogEntry) -> None:
        if self.halt is None and not self.over:
            reason = f" ({entry.body.reason})" if entry.body.reason else ""
            self.halt = Halt(
                f"{self.who(entry.author)} left the table{reason}; the record is kept",
                entry.author,
                self.seat_of(entry.author),
            )
            self._say("halt", self.halt.detail, self.halt.seat)

    def _advance(self) -> None:
        while self.halt is None:
            self._check_evidence()
            if self.halt is not None or self.step is None:
                return
            if not self._work(self.step):
                self._refuse_strays()
                if not self._work(self.step):
                    return

    def _pending(self, author: bytes, step: Step) -> LogEntry | None:
        """``author``'s next entry for ``step``; earlier ones it skips are refused."""
        log = self.logs.log(author)
        waited = author in step.authors and author not in step.answers
        cursor = self._cursor.get(author, 0)
        while cursor < len(log):
            entry = log[cursor]
            if entry.kind == "leave":  # the author's last word, wherever it is read
                if waited:
                    self._left(entry)
                break
            if entry.free or (entry.kind == "table" and entry.seq == 0):
                cursor += 1
                continue
            if entry.step > step.number:
                break
            if entry.step == step.number and waited:
                self._cursor[author] = cursor
                return entry
            stale = entry.step <= self._answered.get(author, 0)
            self._refuse(
                Rejection(
                    Reason.STALE if stale else Reason.OUT_OF_TURN,
                    f"a {entry.kind} entry for step {entry.step}, "
                    + ("which it had answered" if stale else "which did not wait for it"),
                    author=author,
                ),
                entry,
            )
            cursor += 1
        self._cursor[author] = cursor
        return None

    def _refuse_strays(self) -> None:
        """Refuse entries of authors the current step does not wait for that answer it or an
        earlier one (a move out of turn, a replayed entry)."""
        step = self.step
        if step is None:
            return
        for author in self.seating or (self.lobby.creator,):
            if author not in step.missing:
                self._pending(author, step)
        if self.seating:
            for author in self.logs.authors:
                if author not in self.seating:
                    self._refuse_unseated(author)

    def _forget_unseated(self) -> None:
        """Once seated, keep nothing in memory of the other authors without a seat (their
        entries stay in the keeper, for the record): their logs and the heads they claimed."""
        for author in self.logs.authors:
            if author not in self.seating and author != self.me:
                self._refuse_unseated(author)
                self.logs.forget(author)
        self.logs.forget_claims(self.seating)

    def _refuse_unseated(self, author: bytes) -> None:
        log = self.logs.log(author)
        cursor = self._cursor.get(author, 0)
        while cursor < len(log):
            entry = log[cursor]
            if not entry.free:
                self._refuse(
                    Rejection(Reason.NOT_SEATED, "the author has no seat", author=author), entry
                )
            cursor += 1
        self._cursor[author] = cursor

    def _work(self, step: Step) -> bool:
        """Take what the step needs from the logs (making this seat's part); True if anything
        changed."""
        changed = False
        for author in step.missing:
            entry = self._pending(author, step)
            if entry is None and author == self.me and (self.catching_up or self._defers(step)):
                continue
            if entry is None and author == self.me and self._make(step):
                changed = True
                entry = self._pending(author, step)
            if entry is None:
                continue
            try:
                self._check(step, author, entry)
            except _Later:
                continue
            except Rejection as rejection:
                self._cursor[author] += 1
                changed = True
                self._refuse(rejection, entry, author)
                if self.halt is not None:
                    return True
                continue
            self._cursor[author] += 1
            self._consumed.add(entry.hash)
            step.answers[author] = entry
            self._answered[author] = step.number
            changed = True
        if self.halt is None:
            try:
                if self._complete(step):
                    changed = True
            except Rejection as rejection:
                self._refuse(rejection, self._answer_of(step, rejection.seat))
                changed = True
        return changed

    def _defers(self, step: Step) -> bool:
        self.deferred = self.defer_costly and step.kind == StepKind.SHUFFLE and bool(self.appended)
        return self.deferred

    def resume(self) -> None:
        """Do the work :attr:`defer_costly` put off (once what it waited behind is drained)."""
        self.deferred = False
        self._advance()

    def _answer_of(self, step: Step, seat: int | None) -> LogEntry | None:
        """The entry ``seat`` answered ``step`` with (the evidence when the step as a whole
        fails on its part: a key proof, an audit secret)."""
        if seat is None or not 0 <= seat < len(self.seating):
            return None
        return step.answers.get(self.seating[seat])

    # ------------------------------------------------------------------ steps

    def _next_step(self, kind: StepKind, authors: Sequence[bytes], **data: Any) -> None:
        assert self.step is not None
        self.step = Step(self.step.number + 1, kind, tuple(authors), **data)

    def _seat_authors(self, seats: Sequence[int]) -> tuple[bytes, ...]:
        return tuple(self.seating[seat] for seat in seats)

    def _make(self, step: Step) -> bool:
        """Publish this seat's part of ``step`` when it needs no decision; True if done."""
        kind = step.kind
        if kind == StepKind.SEATING:
            seating = self.lobby.seating_for()
            if seating is None:
                return False
            body: Message = log_pb2.Seating(authors=list(seating))
        elif kind == StepKind.READY:
            if not self._want_ready:
                return False
            body = log_pb2.Ready(seating=self.lobby.seating_hash)
        elif kind == StepKind.KEYS:
            body = log_pb2.Keys(announcements=self._own_dealer().announcements())
        else:
            made = self._make_game_part(step)
            if made is None:
                return False
            body = made
        self._publish(body, step.number)
        return True

    def _make_game_part(self, step: Step) -> Message | None:
        dealer, game = self.dealer, self.game
        assert dealer is not None and game is not None
        kind = step.kind
        if kind == StepKind.SHUFFLE:
            return log_pb2.Shuffle(
                deck=step.deck, round=dealer.round(step.deck), step=dealer.make_shuffle(step.deck)
            )
        if kind == StepKind.SHARES:
            return log_pb2.Shares(batches=dealer.make_shares(step.draws))
        if kind == StepKind.COIN_COMMIT:
            assert step.flip is not None and self.seat is not None
            flip = step.flip
            index = flip.committers.index(self.seat)
            nonce = self._coin_nonce(flip)
            commitment = crypto.commitment_of(self.table_id, flip.label, index, nonce)
            return log_pb2.CoinCommit(
                choice=flip.choice, attempt=flip.attempt, commitment=commitment
            )
        if kind == StepKind.COIN_REVEAL:
            assert step.flip is not None
            kept = self.keeper.secret(_coin_secret(step.flip))
            if kept is None:  # lost with the end of a store put back: it cannot be revealed
                return None
            return log_pb2.CoinReveal(choice=step.flip.choice, attempt=step.flip.attempt,
                                      nonce=kept)  # fmt: skip
        if kind == StepKind.MOVE:
            moves = game.legal_moves()
            if len(moves) != 1:
                return None
            move = moves[0]
            return log_pb2.MovePlayed(
                turn=game.moves_played, move=str(move), cards=dealer.show(game.card_flow(move))
            )
        if kind == StepKind.AUDIT:
            return log_pb2.AuditReveal(secrets=Dealer.encode_secrets(dealer.secrets()))
        return None

    def _coin_nonce(self, flip: Flip) -> bytes:
        name = _coin_secret(flip)
        nonce = self.keeper.secret(name)
        if nonce is None:
            nonce = os.urandom(crypto.NONCE_BYTES)
            self.keeper.keep_secret(name, nonce)
        return nonce

    def _own_dealer(self) -> Dealer:
        if self.dealer is None:
            seat = self.seat
            secrets = None
            if seat is not None:
                kept = [self.keeper.secret(f"deck/{i}") for i in range(len(self._decks()))]
                if all(kept):
                    secrets = [crypto.decode_scalar(value or b"") for value in kept]
            self.dealer = Dealer(self.table_id, self.spec.seats, seat, self._decks(), secrets)
            if seat is not None and secrets is None:
                if any(entry.kind == StepKind.KEYS for entry in self.logs.log(self.me)):
                    self._lost_deck_secrets(seat)  # and the new ones are never kept
                else:
                    for index, secret in enumerate(self.dealer.secrets()):
                        self.keeper.keep_secret(f"deck/{index}", crypto.encode_scalar(secret))
        return self.dealer

    def _lost_deck_secrets(self, seat: int) -> None:
        """Stop for good where this seat's keys are published but their secrets are not kept
        (a store put back from a backup older than the deal): no share it could make would
        pass its proof, and it would be taken for a cheater."""
        self.halt = Halt(
            "this peer's store has lost the secrets of the keys it published (put back from "
            "a backup older than the deal?): it can take no further part; the record is kept",
            self.me,
            seat,
        )
        self._say("halt", self.halt.detail, seat)

    def _decks(self) -> tuple[tuple[str, ...], ...]:
        if self._deck_lists is None:
            self._deck_lists = self.rules.for_spectator(self.spec.rules).decks
        return self._deck_lists

    def _check(self, step: Step, author: bytes, entry: LogEntry) -> None:
        """Check (and apply, for one-author steps) ``author``'s answer to ``step``."""
        if entry.kind != step.kind:
            raise Rejection(
                Reason.UNEXPECTED, f"a {step.kind} entry is awaited, not a {entry.kind}"
            )
        body = entry.body
        kind = step.kind
        seat = self.seat_of(author)
        if kind == StepKind.SEATING:
            authors = self.lobby.check_seating(entry)
            if self.lobby.missing_joins(body):
                raise _Later()  # seated authors not heard of yet: wait for their joins
            self.lobby.seat(entry, authors)
            self._forget_unseated()
        elif kind == StepKind.READY:
            if body.seating != self.lobby.seating_hash:
                raise Rejection(Reason.UNEXPECTED, "ready for another seating")
        elif kind == StepKind.KEYS:
            if len(body.announcements) != len(self._decks()):
                raise Rejection(Reason.UNEXPECTED, f"{len(self._decks())} keys expected")
        elif kind == StepKind.SHUFFLE:
            assert self.dealer is not None and seat is not None
            trusted = author == self.me or entry.hash in self._verified
            self.dealer.accept_shuffle(step.deck, seat, body, verify=not trusted)
            if not trusted:
                self.keeper.mark_verified(entry)
        elif kind == StepKind.SHARES:
            assert self.dealer is not None and seat is not None
            try:
                self.dealer.accept_shares(seat, body, step.draws, trusted=author == self.me)
            except Rejection as rejection:
                if rejection.reason is Reason.BAD_PROOF and not self._quiet:
                    self._refuse(rejection, entry)
                    self._publish(
                        log_pb2.Evidence(
                            bad_share=log_pb2.BadShare(
                                shares=log_pb2.SignedEntry.FromString(entry.signed)
                            )
                        )
                    )
                raise
        elif kind == StepKind.COIN_COMMIT:
            self._check_flip(step, body)
            if len(body.commitment) != crypto.COMMITMENT_BYTES:
                raise Rejection(Reason.UNEXPECTED, "a commitment is 32 bytes")
        elif kind == StepKind.COIN_REVEAL:
            self._check_reveal(step, author, entry)
        elif kind == StepKind.MOVE:
            self._play(author, entry)
        elif kind == StepKind.AUDIT and len(body.secrets) != len(self._decks()):
            raise Rejection(Reason.UNEXPECTED, f"{len(self._decks())} secrets expected")

    def _complete(self, step: Step) -> bool:
        """Finish ``step`` when every answer it needs is in; True if it was finished."""
        if step.kind == StepKind.COIN_REVEAL:
            return self._settle_flip(step)
        if step.missing:
            return False
        if step.kind == StepKind.SEATING:
            names = ", ".join(self.who(a) for a in self.seating)
            self._say("seated", f"the table is full: {names}")
            self._next_step(StepKind.READY, self.seating)
        elif step.kind == StepKind.READY:
            self._say("ready", "everyone is ready: the deck is being prepared")
            self._next_step(StepKind.KEYS, self.seating)
        elif step.kind == StepKind.KEYS:
            dealer = self._own_dealer()
            if self.halt is not None:  # it lost its deck secrets (see _own_dealer)
                return True
            dealer.accept_keys([list(step.answers[a].body.announcements) for a in self.seating])
            table = self.spec.rules
            self.game = (
                self.rules.for_spectator(table)
                if self.seat is None
                else self.rules.for_seat(table, self.seat)
            )
            self._next_game_step()
        elif step.kind == StepKind.SHUFFLE:
            self._next_game_step()
        elif step.kind == StepKind.SHARES:
            self._deal(step.draws)
            self._next_game_step()
        elif step.kind == StepKind.COIN_COMMIT:
            assert step.flip is not None
            commitments = {}
            for author, entry in step.answers.items():
                seat = self.seat_of(author)
                assert seat is not None
                commitments[seat] = entry.body.commitment
            self._next_step(
                StepKind.COIN_REVEAL, step.authors, flip=step.flip, commitments=commitments
            )
        elif step.kind == StepKind.MOVE:
            self._next_game_step()
        elif step.kind == StepKind.AUDIT:
            self._audit(step)
        return True

    def _next_game_step(self) -> None:
        game, dealer = self.game, self.dealer
        assert game is not None and dealer is not None
        while True:
            sizes = [game.hand_size(seat) for seat in range(self.spec.seats)]
            waiting = game.waiting
            if waiting is None:
                self._say("over", self._ending())
                self._next_step(StepKind.AUDIT, self.seating)
                return
            if isinstance(waiting, Choice):
                node = waiting
                seats = tuple(range(self.spec.seats))
                flip = Flip(game.choices_made, 0, node.purpose, node.seats, seats)
                self._next_step(StepKind.COIN_COMMIT, self._seat_authors(seats), flip=flip)
                return
            if isinstance(waiting, Deal):
                draws = game.pending_draws()
                dealer.sync(draws, sizes)
                for draw in draws:
                    shuffler = dealer.next_shuffler(draw.pile)
                    if shuffler is not None:
                        shufflers = self._seat_authors([shuffler])
                        self._next_step(StepKind.SHUFFLE, shufflers, deck=draw.pile)
                        return
                sharers = dealer.sharers(draws)
                if sharers:
                    self._next_step(StepKind.SHARES, self._seat_authors(sharers), draws=draws)
                    return
                self._deal(draws)
                continue
            assert isinstance(waiting, SeatToMove)
            dealer.check_hands(sizes)
            self._next_step(StepKind.MOVE, self._seat_authors([waiting.seat]))
            return

    def _ending(self) -> str:
        """The game's outcome in players' words."""
        assert self.game is not None and self.game.outcome is not None
        outcome = self.game.outcome
        winners = " and ".join(self.who(self.seating[s]) for s in outcome.winners)
        if not winners:
            return f"the game is over: nobody won ({outcome.how})"
        return f"the game is over: {winners} won ({outcome.how})"

    def _deal(self, draws: Sequence[Draw]) -> None:
        game, dealer = self.game, self.dealer
        assert game is not None and dealer is not None
        for draw in draws:
            game.resolve(dealer.deal(draw))
        counts = ", ".join(f"{d.deal.count} to seat {d.deal.seat}" for d in draws)
        self._say("deal", f"cards dealt: {counts}")

    # ------------------------------------------------------------------ moves

    def _play(self, author: bytes, entry: LogEntry) -> None:
        game, dealer = self.game, self.dealer
        assert game is not None and dealer is not None
        body: log_pb2.MovePlayed = entry.body
        seat = self.seat_of(author)
        assert seat is not None
        if body.turn != game.moves_played:
            raise Rejection(Reason.UNEXPECTED, f"a move for turn {game.moves_played} is awaited")
        try:
            move = game.parse_move(body.move)
        except InvalidMoveError as exc:
            raise Rejection(Reason.ILLEGAL, str(exc)) from None
        flow = game.card_flow(move)
        showing = dealer.check_shown(seat, flow, body.cards)
        before = game.copy()
        try:
            game.play(move, reveal=showing.names if flow.whole_hand else None)
        except IllegalMoveError as exc:
            raise Rejection(Reason.ILLEGAL, str(exc)) from None
        dealer.apply(showing, flow)
        if self.on_move is not None:
            self.on_move(game.moves_played - 1)
        names = [self.who(author) for author in self.seating]
        for told in self.rules.narrate(before, game, move, showing.names, names):
            if told.kind is not ToldKind.DETAIL:
                self._say(told.kind.value, told.text, told.seat)

    # ------------------------------------------------------------------ coins

    def _check_flip(self, step: Step, body: Any) -> None:
        assert step.flip is not None
        if (body.choice, body.attempt) != (step.flip.choice, step.flip.attempt):
            raise Rejection(
                Reason.UNEXPECTED,
                f"a coin for choice {step.flip.choice}, attempt {step.flip.attempt} is awaited",
            )

    def _check_reveal(self, step: Step, author: bytes, entry: LogEntry) -> None:
        self._check_flip(step, entry.body)
        flip = step.flip
        assert flip is not None
        seat = self.seat_of(author)
        assert seat is not None
        nonce = entry.body.nonce
        index = flip.committers.index(seat)
        if (
            len(nonce) != crypto.NONCE_BYTES
            or crypto.commitment_of(self.table_id, flip.label, index, nonce)
            != step.commitments[seat]
        ):
            commit = next(
                entry.signed
                for entry in self.logs.log(author)
                if entry.kind == StepKind.COIN_COMMIT
                and (entry.body.choice, entry.body.attempt) == (flip.choice, flip.attempt)
                and entry.body.commitment == step.commitments[seat]
            )
            raise Rejection(
                Reason.BAD_PROOF,
                "the coin reveal does not match its commitment",
                seat=seat,
                evidence=(commit, entry.signed),
            )

    def _settle_flip(self, step: Step) -> bool:
        flip = step.flip
        assert flip is not None
        if not step.missing and self.seat in flip.committers:
            self._close(flip, ())
        reveals = {self.seat_of(author) for author in step.answers}
        closes = self._closes_of(flip)
        result = verdict(flip, {seat for seat in reveals if seat is not None}, closes)
        if result is None:
            return False
        game = self.game
        assert game is not None
        if isinstance(result, Settled):
            nonces = {self.seat_of(a): e.body.nonce for a, e in step.answers.items()}
            chosen = flip.outcome(
                self.table_id,
                step.commitments,
                {s: n for s, n in nonces.items() if s is not None},
            )
            self.flips.append((flip, chosen))
            self._say("coin", f"fair choice of the {flip.purpose}: seat {chosen}", chosen)
            game.resolve(chosen)
            self._next_game_step()
            return True
        assert isinstance(result, Abandoned)
        self.flips.append((flip, -1))
        blamed = ", ".join(self.who(self.seating[s]) for s in result.blamed)
        for seat in result.blamed:
            self.refusals.append(
                Refusal(
                    Reason.BAD_PROOF,
                    f"withheld its coin reveal for the {flip.purpose}",
                    self.seating[seat],
                    seat,
                    tuple(self._close_entries(flip)),
                )
            )
        again = flip.again(result.blamed)
        if again is None:
            self.halt = Halt(
                f"every seat the {flip.purpose} could go to withheld its coin reveal ({blamed})",
                None,
                None,
                Reason.BAD_PROOF,
            )
            self._say("halt", self.halt.detail)
            return True
        self._say(
            "coin",
            f"{blamed} withheld a coin reveal: the {flip.purpose} is decided again without them",
        )
        if isinstance(again, int):
            self.flips.append((flip, again))
            game.resolve(again)
            self._next_game_step()
        else:
            self._next_step(StepKind.COIN_COMMIT, self._seat_authors(again.committers), flip=again)
        return True

    def _close_entries(self, flip: Flip) -> list[bytes]:
        """The signed closes of a coin attempt: the evidence of an abandoned attempt."""
        return [
            entry.signed
            for author in self.seating
            for entry in self.logs.log(author)
            if entry.kind == "coin_close"
            and (entry.body.choice, entry.body.attempt) == (flip.choice, flip.attempt)
        ]

    # ------------------------------------------------------------------ audit

    def _audit(self, step: Step) -> None:
        dealer = self.dealer
        assert dealer is not None
        secrets = [list(step.answers[a].body.secrets) for a in self.seating]
        self.cards = dealer.audit(secrets)
        self.step = None
        self._say("audit", "audit passed: every shuffle, share and card checks out")

    # ------------------------------------------------------------------ evidence and blame

    def _check_evidence(self) -> None:
        """Check the evidence entries received, once the table is seated (so that the blame
        names the same seat whatever order the entries came in)."""
        if not self.seating:
            return
        held, self._held_evidence = self._held_evidence, []
        for entry in held:
            proof = entry.body.WhichOneof("proof")
            if proof == "equivocation":
                self._check_equivocation(entry)
            elif proof == "bad_share":
                self._check_bad_share(entry)
            else:
                self._refuse(
                    Rejection(Reason.UNEXPECTED, "evidence of nothing"), entry, entry.author
                )
            if self.halt is not None:
                return

    def _check_equivocation(self, entry: LogEntry) -> None:
        body = entry.body.equivocation
        first = read_entry_or_none(body.first.SerializeToString(), self.table_id)
        second = read_entry_or_none(body.second.SerializeToString(), self.table_id)
        if first is None or second is None or not _forked(first, second):
            self._refuse(
                Rejection(
                    Reason.UNEXPECTED,
                    "evidence of equivocation that proves nothing",
                    author=entry.author,
                ),
                entry,
            )
            return
        self._stop(
            Rejection(
                Reason.EQUIVOCATION,
                f"two different entries with sequence number {first.seq}"
                if first.seq == second.seq
                else f"entry {second.seq} follows another entry {first.seq} than its own",
                author=first.author,
                evidence=(first.signed, second.signed),
            ),
            publish_evidence=False,
        )

    def _check_bad_share(self, entry: LogEntry) -> None:
        """A seat says a share of an entry does not verify: check that entry's shares here."""
        accuser = self.seat_of(entry.author)
        accused = read_entry_or_none(entry.body.bad_share.shares.SerializeToString(), self.table_id)
        if accuser is None or accused is None or accused.kind != StepKind.SHARES:
            self._refuse(
                Rejection(Reason.UNEXPECTED, "evidence of a bad share that names no shares"),
                entry,
                entry.author,
            )
            return
        if accused.hash not in self._consumed or self.dealer is None:
            self._held_evidence.append(entry)  # this peer is not that far yet
            return
        try:
            self.dealer.check_shares(accused.body)
        except Rejection as rejection:
            self._stop(
                Rejection(
                    rejection.reason,
                    rejection.detail,
                    seat=rejection.seat,
                    evidence=(accused.signed,),
                )
            )
            return
        self._stop(
            Rejection(
                Reason.BAD_PROOF,
                "accused another seat of a bad share that verifies",
                author=entry.author,
                evidence=(entry.signed, accused.signed),
            )
        )

    def _refuse(
        self, rejection: Rejection, entry: LogEntry | None = None, author: bytes | None = None
    ) -> None:
        """Record a refused entry (``author``: the one to blame when the rejection names
        nobody); a halting reason stops the table."""
        evidence = rejection.evidence or ((entry.signed,) if entry is not None else ())
        if rejection.author is not None or rejection.seat is not None:
            author = rejection.author
        if author is None and rejection.seat is not None and rejection.seat < len(self.seating):
            author = self.seating[rejection.seat]
        seat = rejection.seat if rejection.seat is not None else self.seat_of(author)
        if rejection.reason in HALTING:
            self._stop(
                Rejection(
                    rejection.reason, rejection.detail, author=author, seat=seat, evidence=evidence
                )
            )
            return
        self.refusals.append(Refusal(rejection.reason, rejection.detail, author, seat, evidence))
        self._say("refused", f"refused from {self.who(author)}: {rejection}", seat)

    def _stop(self, rejection: Rejection, *, publish_evidence: bool = False) -> None:
        if self.halt is not None:
            return
        author = rejection.author
        if author is None and rejection.seat is not None and rejection.seat < len(self.seating):
            author = self.seating[rejection.seat]
        seat = rejection.seat if rejection.seat is not None else self.seat_of(author)
        self.halt = Halt(
            f"{self.who(author)} cheated: {rejection}",
            author,
            seat,
            rejection.reason,
            rejection.evidence,
        )
        self._say("halt", self.halt.detail, seat)
        if publish_evidence and len(rejection.evidence) == 2 and not self._quiet:
            first, second = (log_pb2.SignedEntry.FromString(e) for e in rejection.evidence)
            self._publish(
                log_pb2.Evidence(equivocation=log_pb2.Equivocation(first=first, second=second))
            )

    @property
    def _quiet(self) -> bool:
        """Whether this table signs nothing now: while it is rebuilt (what it signed then is
        in its logs already), catches up, or was taken up over. Evidence of a cheat it finds
        then goes unpublished: the others find the cheat themselves."""
        return self._restoring or self.catching_up or self._taken_up_over

    def _say(self, kind: str, text: str, seat: int | None = None) -> None:
        self.events.append(TableEvent(kind, text, seat))


class _Later(Rejection):
    """Not a rejection: the entry must wait for others before it can be checked."""

    def __init__(self) -> None:
        super().__init__(Reason.UNEXPECTED, "not yet")


def _coin_secret(flip: Flip) -> str:
    """The name this seat's nonce for a coin attempt is kept under."""
    return f"coin/{flip.choice}/{flip.attempt}"


def _forked(first: LogEntry, second: LogEntry) -> bool:
    """Whether two entries of one author prove that it forked its log: two different entries
    with one sequence number, or an entry that does not follow the author's entry before it."""
    if first.author != second.author or first.raw == second.raw:
        return False
    if first.seq == second.seq:
        return True
    return second.seq == first.seq + 1 and second.entry.previous != first.hash


def read_entry_or_none(signed: bytes, table_id: bytes) -> LogEntry | None:
    try:
        return read_entry(signed, table_id=table_id)
    except Rejection:
        return None
