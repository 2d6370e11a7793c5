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
4 keys                every seat publishes its key for each deck, with a proof (and, at
                      three seats or more, its box key)
dealings              (three seats or more) every seat: its deck secrets backed up among the
                      others (Feldman VSS, pieces sealed to each recipient)
piece_checks          every seat: the dealers whose piece for it does not open or check
piece_answers         a dealer complained about: the piece and its box's ephemeral secret
                      (then the dealer, or the complainer of a false complaint, is blamed)
shuffle               one seat re-encrypts and permutes a deck, with a proof
shares                every seat but a deal's owner: decryption shares of its cards
hand_shown            the seat whose hand the game shows to one other seat (the viewer):
                      for each hidden card, its part sealed to the viewer with a proof, the
                      face-up ones named (with ``handed``, the cards go to the viewer's hand)
hand_proof            the seat whose hidden hand the game asks to prove that it holds a card
                      of a set: a proof over its hidden cards that one of them is, showing
                      none (nothing when a face-up card of its hand is of the set)
coin_commit           every committer: a commitment to a value (a fair choice)
coin_escrow           every committer (three or more): its value shared among the others
coin_reveal           every committer: its value (see :mod:`condottiere.peer.coin`)
move                  the seat the engine waits for: a move and the cards it shows
stand_in              every seat still at the table, at a deal after a seat left: its parts
                      of the leaver's shares of the cards dealt, with proofs
rekey                 every seat still at the table, when a deck is formed again after a seat
                      left: its parts of the leaver's shares of the hidden cards that come
                      back, with proofs (the deck's new round is keyed without the leaver)
redealing             (three seats or more still there) every seat, once its deck is re-keyed:
                      its secret backed up again among them alone, then piece_checks (and
                      piece_answers) as for the first backup
search_blinding       every seat still at the table, when the game searches a pile for a named
                      card: its blinding of every card still in the pile, with proofs
search_opening        every seat still at the table: its decryption shares of the combined
                      blindings, with proofs (and its parts of a seat out's shares)
audit                 every seat, at the end: its deck secrets, to audit the game
====================  ==========================================================

A step that waits for a seat has a deadline (the table definition's; :meth:`Table.deadline`):
past it, the owner calls :meth:`Table.declare_silent` and the table signs a silence statement
about each seat it still waits for; a seat is put out once every other seat still at the
table has (see :mod:`condottiere.peer.silence`), or where its log says it leaves. A seat out
plays no more, and the game goes on without it: its hand leaves the game unseen, it shuffles
no more, and at each deal the others stand in for its decryption shares (every remaining seat
publishes its part, from its piece of the leaver's backed-up secret, with a proof; the parts
are combined, the leaver's secret is never rebuilt), until its deck is formed again: then the
others take the leaver's key off the hidden cards that come back the same way (a ``rekey``
step), and the deck's new round is keyed, shuffled and dealt by them alone; at three seats
or more still there, they back their secrets up again among themselves (a ``redealing``
step), so that a second leaver is covered as the first was. With one seat left, that seat
wins by forfeit. Before the game is dealt, the seats still at the table
start again without it (the keys and their backups made among them alone, the game made
without it). Once a second seat is gone after the deal before the others backed their
secrets up again without the first (the stand-in needs every other seat), the table stops as
abandoned, naming the seat.

Each entry names the step it answers. An entry answering a later step waits its turn; one
answering a step that did not wait for its author is refused as out of turn (or stale, if
the author had answered that step). Entries are checked in the design's order: well-formed,
table, signature, sequence and previous hash (at :meth:`receive`), then author, body,
proofs, rules (when their step comes). A refused entry is skipped (the table goes on and
waits for a proper one) unless it proves cheating that cannot be undone: a bad proof or an
equivocation halts the table, with the blame and the signed evidence.

The table's own seat does its protocol work itself (keys, shuffles, shares, coins, reveals,
audit); only moves with a real choice wait for :meth:`Table.submit` (and, with
:attr:`Table.hold_forced`, forced moves wait for :meth:`Table.play_forced`). Secrets are kept (by
the :class:`Keeper`) before the entry that needs them is published, and every entry is kept
as it is accepted, so a table rebuilt from its keeper continues exactly where it stopped. An
entry of its own is kept before it is published, and only where no other entry of its key is
(``Keeper.keep_own``); a table rebuilt from a keeper that may be behind what it signed signs
nothing until it has its own log back (:attr:`Table.catching_up`).
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
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
    HandHolds,
    IllegalMoveError,
    InvalidMoveError,
    SearchDeck,
    SeatToMove,
    ShowHand,
    ToldKind,
)
from condottiere.peer.coin import Coin, Flip, blamed, box_secret_of
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
from condottiere.peer.silence import Departure, Verdict, silence_verdict
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
    "Work",
]

HALTING = frozenset({Reason.BAD_PROOF, Reason.EQUIVOCATION})
"""Rejections that prove cheating which cannot be undone by waiting for a better entry."""
MAX_CHAT = 500
MAX_JOINERS = 64
"""How many authors a lobby hears of, at most, before its game starts (refused and freed ones
leave the count at once)."""
UNSEATED_ENTRIES = 24
UNSEATED_BYTES = 64 << 10
"""What this peer keeps, at most, of the log of an author without a seat while the table
fills (entries held ahead of a gap included): a join, a few chat lines, a leave; and of a
seat whose seating has not reached this peer yet, also its ready and its silence
statements. More is not kept (nobody is blamed: a seat's entries come again once this peer
sees it seated). With :data:`MAX_JOINERS`, what strangers can make a peer keep before the
game starts is bounded (about 4 MiB)."""
LOBBY_ENTRIES = 8
"""The entries this peer signs, at most, while it has no seat (its join, chat lines, its
leave): well within what the others keep of it (:data:`UNSEATED_ENTRIES`)."""


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
    """Why the table stopped for good: a proven cheat (``reason`` set), a seat that left where
    the game cannot go on without it (``departure`` set: the table is abandoned), or this
    peer's own seat that can go no further (its store lost its secrets, or it was put out)."""

    detail: str
    author: bytes | None = field(repr=False)
    seat: int | None
    reason: Reason | None = None
    evidence: tuple[bytes, ...] = field(default=(), repr=False)
    departure: Departure | None = None

    @property
    def cheat(self) -> bool:
        return self.reason is not None

    @property
    def abandoned(self) -> bool:
        return self.departure is not None


@dataclass(frozen=True)
class TableEvent:
    """Something that happened at the table, in players' words."""

    kind: str
    """``join ask seated ready freed shuffle deal coin move result change chat leave
    refused halt over audit`` (``ask``: a joiner the creator's owner must admit or refuse;
    ``freed``: a seat not ready in time, freed for another joiner); ``move``,
    ``result`` and ``change`` are the game's own narration, of its moves and of what it
    learnt from chance (:class:`~condottiere.interface.ToldKind`)."""
    text: str
    seat: int | None = None


class Work(StrEnum):
    """The costly crypto work of a table, reported to :attr:`Table.on_work` (benchmarks)."""

    MAKE_SHUFFLE = "make_shuffle"
    VERIFY_SHUFFLE = "verify_shuffle"
    MAKE_SHARES = "make_shares"
    CHECK_SHARES = "check_shares"
    MAKE_BLINDING = "make_blinding"
    CHECK_BLINDING = "check_blinding"
    MAKE_OPENING = "make_opening"
    CHECK_OPENING = "check_opening"


class StepKind(StrEnum):
    """What a step waits for (its value is the kind of entry that answers it)."""

    SEATING = "seating"
    READY = "ready"
    KEYS = "keys"
    SHUFFLE = "shuffle"
    SHARES = "shares"
    COIN_COMMIT = "coin_commit"
    COIN_ESCROW = "coin_escrow"
    COIN_REVEAL = "coin_reveal"
    MOVE = "move"
    AUDIT = "audit"
    DEALINGS = "dealings"
    PIECE_CHECKS = "piece_checks"
    PIECE_ANSWERS = "piece_answers"
    STAND_IN = "stand_in"
    REKEY = "rekey"
    REDEALING = "redealing"
    SEARCH_BLINDING = "search_blinding"
    SEARCH_OPENING = "search_opening"
    HAND_SHOWN = "hand_shown"
    HAND_PROOF = "hand_proof"

    @property
    def words(self) -> str:
        """The step in a sentence: ``silent at a move``."""
        return _STEP_WORDS[self]


_STEP_WORDS = {
    StepKind.SEATING: "the seating",
    StepKind.READY: "the start",
    StepKind.KEYS: "the keys",
    StepKind.SHUFFLE: "a shuffle",
    StepKind.SHARES: "the shares",
    StepKind.COIN_COMMIT: "a coin commitment",
    StepKind.COIN_ESCROW: "a coin escrow",
    StepKind.COIN_REVEAL: "a coin reveal",
    StepKind.MOVE: "a move",
    StepKind.AUDIT: "the audit",
    StepKind.DEALINGS: "the backup of the keys",
    StepKind.PIECE_CHECKS: "the check of the backups",
    StepKind.PIECE_ANSWERS: "answering a complaint",
    StepKind.STAND_IN: "a stand-in",
    StepKind.REKEY: "the re-keying of a deck",
    StepKind.REDEALING: "the new backup of the keys",
    StepKind.SEARCH_BLINDING: "the blinding of a search of the deck",
    StepKind.SEARCH_OPENING: "the opening of a search of the deck",
    StepKind.HAND_SHOWN: "showing a hand",
    StepKind.HAND_PROOF: "proving what a hand holds",
}
SEARCH_STEPS = frozenset({StepKind.SEARCH_BLINDING, StepKind.SEARCH_OPENING})
"""The steps of a search of a draw pile for a named card (see :meth:`Table._start_search`)."""



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
    leaver: int | None = None
    """The seat a stand-in or re-key step stands in for."""
    complaints: tuple[tuple[int, int, int], ...] = ()
    """(complainer, dealer, deck) of every complaint a step of answers waits for."""
    search: SearchDeck | None = None
    """The search of a draw pile the steps of a search are for."""
    shown: ShowHand | None = None
    """The hand a hand_shown step shows, and to whom."""
    holds: HandHolds | None = None
    """The hand a hand_proof step proves to hold a card of a set, and the set."""

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
        self._told = 0
        """How many sentences of the game's own narration are in :attr:`events`."""
        self.appended: list[LogEntry] = []
        """Entries appended to the logs since the owner last took them (see :meth:`drain`)."""
        self.cards: dict[Card, str] | None = None
        """Every card of the game by slot, once the audit is through."""
        self.rekeyed_cards: dict[Card, str] = {}
        """At a table a seat left: the cards of the decks keyed again without it, by slot,
        once the audit has checked them whole from the secrets of the seats that stayed."""
        self.flips: list[tuple[Flip, int]] = []
        """Every coin flip decided, and the seat it gave."""
        self.defer_costly = False
        """When set, this seat's shuffle (its costliest work) waits for :meth:`resume` while
        entries appended since the last :meth:`drain` are there: a node publishes the move
        that ended a round, and its snapshot, before it shuffles for the next."""
        self.deferred = False
        """This seat's shuffle waits for :meth:`resume`."""
        self.hold_forced = False
        """When set, a move the rules force (one legal move) is not published the moment it is
        awaited but by :meth:`play_forced`: a node paces it like a chosen move, so that its
        timing tells nobody it was forced (:mod:`condottiere.peer.pacing`)."""
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
        self.on_work: Callable[[Work, int, int, float], None] | None = None
        """Called after each piece of costly crypto work with its kind, the deck, the seat
        whose step it is (the maker, or the author checked) and the CPU seconds the process
        used meanwhile: a benchmark's clock for the critical path a LAN would see."""
        self._cursor: dict[bytes, int] = {}
        self._answered: dict[bytes, int] = {}
        self._verified = keeper.verified()
        self._held_evidence: list[LogEntry] = []
        self._want_ready = auto_ready
        self._coins: dict[tuple[int, int], Coin] = {}
        """What this table holds of each coin flip (see :mod:`condottiere.peer.coin`)."""
        self._closes: dict[tuple[int, int], dict[bytes, LogEntry]] = {}
        """Each author's first close of each coin flip (see :meth:`_closes_of`)."""
        self._opened_closes: set[bytes] = set()
        """The closes whose box secrets were checked and their pieces taken."""
        self._blamed: set[tuple[int, int, int]] = set()
        """(choice, attempt, seat): the withholders blamed so far."""
        self.withheld: set[int] = set()
        """Seats this peer closed a coin attempt without the reveal of (blamed, see
        :mod:`condottiere.peer.coin`)."""
        self._consumed: set[bytes] = set()
        self._deck_lists: tuple[tuple[str, ...], ...] | None = None
        self.out: dict[int, Departure] = {}
        """The seats put out (silent past a deadline, or left), and how."""
        self._statements: dict[tuple[int, int], dict[bytes, LogEntry]] = {}
        """(seat, step number) -> each author's first silence statement about it (read as
        votes once the table is seated: :meth:`_votes`)."""
        self._took: dict[tuple[int, int], bytes] = {}
        """(seat, step number) -> the signed answer this table took (an *answered* statement
        carries it)."""
        self._carried: dict[bytes, bool] = {}
        """Whether each *answered* statement checked carries the answer it speaks of."""
        self._unchecked: list[LogEntry] = []
        """*Answered* statements not checked yet (see :meth:`_check_statements`)."""
        self._leaves: dict[bytes, LogEntry] = {}
        """Leaves read where their author's next answer was awaited."""
        self._ended: set[int] = set()
        """Steps ended by a departure: answers to them that came are no one's fault."""
        self._removing: set[int] = set()
        """Seats out at a deal's shares: they leave the game once that deal is dealt."""
        self._before_deal: set[int] = set()
        """Seats put out before the game was dealt: the decks are keyed without them."""
        self._bad_pieces: list[tuple[int, int]] = []
        """(dealer, deck) of every piece sealed to this seat that did not open or check."""
        self.freed: list[tuple[str, Departure]] = []
        """Every seat freed in the lobby (not ready in time, or left before the start): the
        name of the player who held it, and how (see :meth:`_free_seats`)."""
        self._seated_at = 0
        """The number of the step whose seating holds now: silence statements about earlier
        steps name seats of a seating that was (before seats were freed)."""
        self.turned_away: set[bytes] = set()
        """Authors without a seat some of whose entries were turned away (past the lobby's
        bound, :data:`UNSEATED_ENTRIES`): a seating may name one of them yet (its entries came
        before the seating did)."""
        self._named: set[bytes] = set()
        """Every author a seating entry of the creator's names, taken or not yet (its joins
        may still be on their way): their entries are kept whole."""
        self.ask_again = False
        """Set when a seating names an author whose entries were turned away: the owner asks
        the other peers for every log again (a node follows them anew), then clears it."""
        self._reseating: int | None = None
        """The ready step at which a seat was put out, while the table waits for the
        creator's new seating."""
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

    @property
    def audited(self) -> bool:
        """True once the game is over and its audit passed: every card checked
        (:attr:`cards`), or, with seats out, what each seat that stayed did."""
        return self.halt is None and self.step is None and self.game is not None

    def waiting(self) -> tuple[str, tuple[int, ...], str] | None:
        """What the table waits for: the step's kind, the seats (or nothing, in the lobby)
        and a sentence; None when it waits for nothing."""
        step = self.step
        if step is None or self.halt is not None:
            return None
        seats = tuple(s for s in (self.seat_of(a) for a in step.missing) if s is not None)
        names = ", ".join(self.who(a) for a in step.missing)
        text = {
            StepKind.SEATING: "a player to take the freed seat" if self._reseating is not None
            else f"players to join ({len(self.lobby.joins) + 1} of {self.spec.seats})",
            StepKind.READY: f"{names} to be ready",
            StepKind.KEYS: f"keys from {names}",
            StepKind.SHUFFLE: f"{names} to shuffle deck {step.deck + 1}",
            StepKind.SHARES: f"decryption shares from {names}",
            StepKind.COIN_COMMIT: f"coin commitments from {names}",
            StepKind.COIN_ESCROW: f"coin escrows from {names}",
            StepKind.COIN_REVEAL: f"coin reveals from {names}"
            + (" (withheld past the timeout: blamed)" if self.withheld & set(seats) else ""),
            StepKind.MOVE: f"{names} to move"
            + ("" if self.forced_move() is None else " (its only move: played in a moment)"),
            StepKind.AUDIT: f"the audit secrets of {names}",
            StepKind.DEALINGS: f"the backups of the keys of {names}",
            StepKind.PIECE_CHECKS: f"{names} to check their pieces of the backups",
            StepKind.PIECE_ANSWERS: f"{names} to answer a complaint about a backup",
            StepKind.STAND_IN: f"{names} to stand in for a seat that left",
            StepKind.REKEY: f"{names} to re-key deck {step.deck + 1} without a seat that left",
            StepKind.REDEALING: f"the new backups of the keys of {names}",
            StepKind.SEARCH_BLINDING: f"{names} to blind the draw pile for a search",
            StepKind.SEARCH_OPENING: f"{names} to open the search of the draw pile",
            StepKind.HAND_SHOWN: f"{names} to show a hand to "
            + (self.who(self.seating[step.shown.viewer]) if step.shown else "another seat"),
            StepKind.HAND_PROOF: f"{names} to prove what its hand holds",
        }[step.kind]
        return step.kind, seats, text

    def progress(self) -> tuple[int, int] | None:
        """Done and total of the shuffle chain, the deal or the step of a search under way;
        None otherwise."""
        step = self.step
        if step is None or self.dealer is None:
            return None
        if step.kind == StepKind.SHUFFLE:
            n = len(self.dealer.members)
            return step.deck * n + (self.dealer.next_shuffler(step.deck) or 0), n * len(
                self.dealer.decks
            )
        if step.kind == StepKind.SHARES or step.kind in SEARCH_STEPS:
            return len(step.answers), len(step.authors)
        return None

    def deadline(self) -> int | None:
        """Seconds the current step gives the seats it waits for (the table definition's
        deadlines); None when no seat can be put out for silence now: in the lobby, once over,
        and at a coin reveal of three committers or more (a withheld reveal is the coin's own
        business: :mod:`condottiere.peer.coin`)."""
        step = self.step
        if step is None or self.halt is not None or step.kind == StepKind.SEATING:
            return None
        deadlines = self.spec.deadlines
        if step.kind == StepKind.MOVE:
            bot = all(author in self.lobby.bots for author in step.authors)
            return deadlines.bot_move if bot else deadlines.move
        if step.kind == StepKind.READY:
            return deadlines.ready
        if step.kind == StepKind.COIN_REVEAL and step.flip and len(step.flip.committers) > 2:
            return None
        return deadlines.step

    def declare_silent(self, waited: float) -> bool:
        """Once ``waited`` seconds (by the owner's clock, since the step began) pass the
        step's :meth:`deadline`: sign a silence statement about every seat the step still
        waits for (see :mod:`condottiere.peer.silence`); True if one was published."""
        step, seat, deadline = self.step, self.seat, self.deadline()
        if step is None or seat is None or deadline is None or waited < deadline:
            return False
        if self._quiet or seat in self.out:
            return False
        published = False
        for author in step.missing:
            silent = self.seat_of(author)
            if author == self.me or silent is None:
                continue
            if self.me in self._statements.get((silent, step.number), {}):
                continue
            self._publish(log_pb2.Silence(seat=silent, step=step.number, waited=int(waited)))
            published = True
        if published:
            self._advance()
        return published

    def drain(self) -> tuple[list[LogEntry], list[Suspicion]]:
        """The entries appended and the suspicions raised since the last call."""
        appended, self.appended = self.appended, []
        suspicions, self.logs.suspicions = self.logs.suspicions, []
        return appended, suspicions

    def public_record(self) -> dict[str, Any]:
        """The game's record as anyone may see it: deals to a seat, and hands shown to one
        seat, are counts."""
        if self.game is None:
            return {}
        record = self.game.record()
        record["events"] = [event.public().to_json() for event in self.game.events]
        return record

    def record_hash(self) -> str:
        """SHA-256 of the public record: the same on every peer of the same game."""
        text = json.dumps(self.public_record(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    # ------------------------------------------------------------------ input

    def join(self, player: str, address: str, *, bot: bool = False) -> None:
        """Ask for a seat (the first entry of this peer's log); ``bot``: a program plays it
        (its moves get the table's bot deadline)."""
        check_text(player, "a player name")
        if self.me == self.lobby.creator or self.logs.log(self.me):
            return
        self._publish(
            log_pb2.Join(
                definition=self.lobby.definition.hash, player=player, address=address, bot=bot
            )
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
        or it has no seat (the table is seated, or its lobby is full: an author the creator's
        owner admitted is let in all the same). Its entries are not kept, so nobody can fill a
        peer's memory."""
        author = entry.author
        if author in self.logs.full:
            return Rejection(Reason.TOO_LARGE, "the author's log is full", author=author)
        if self.lobby.closed:
            if author not in self.seating:
                return Rejection(
                    Reason.NOT_SEATED, "the author has no seat at this table", author=author
                )
            return None
        if author in self.lobby.refused:
            return Rejection(Reason.NOT_SEATED, "the author was refused a seat", author=author)
        if author in self.lobby.freed:
            return Rejection(Reason.NOT_SEATED, "the author's seat was freed", author=author)
        if (
            author == self.lobby.creator or author in self.seating or author in self._named
            or author in self.lobby.admitted
        ):
            return None
        entries, size = self.logs.kept(author)
        counted = [a for a in self.logs.kept_authors if a not in self.lobby.freed]
        if not entries and len(counted) >= MAX_JOINERS + 1:
            return Rejection(
                Reason.NOT_SEATED, f"the lobby already holds {MAX_JOINERS} joiners", author=author
            )
        full = entries >= UNSEATED_ENTRIES or size + len(entry.signed) > UNSEATED_BYTES
        if full and entry.seq == self.logs.next_seq(author):
            self.logs.drop_held(author)  # the entry that fills the gap comes first
            entries, size = self.logs.kept(author)
            full = entries >= UNSEATED_ENTRIES or size + len(entry.signed) > UNSEATED_BYTES
        if full:
            self.turned_away.add(author)
            return Rejection(
                Reason.TOO_LARGE,
                f"an author without a seat has {UNSEATED_ENTRIES} entries or"
                f" {UNSEATED_BYTES >> 10} KiB kept here at most",
                author=author,
            )
        return None

    def admit(self, author: bytes) -> None:
        """Seat ``author`` when its turn comes (at a table that is not open, see
        :class:`~condottiere.peer.lobby.Lobby`); only the creator's admissions count."""
        self.lobby.admit(author)
        self._advance()

    def refuse(self, author: bytes) -> None:
        """Never seat ``author`` (its join is forgotten, its entries turned away and nothing of
        it kept: it leaves the lobby's counts at once)."""
        if author in self.lobby.joins:
            self._say("join", f"{self.who(author)} is refused a seat")
        self.lobby.refuse(author)
        if author not in self.seating and author not in self._named and author != self.me:
            self.logs.forget(author)

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
        if self.seat in self.out:
            return "this seat is out of the game: it may watch, not play"
        if step is None or game is None or dealer is None or step.kind != StepKind.MOVE:
            return "it is not time to move"
        if step.authors != (self.me,) or self._pending(self.me, step) is not None:
            return f"it is not your turn: the table waits for {self.who(step.authors[0])}"
        try:
            move = game.parse_move(str(text))
        except InvalidMoveError as exc:
            return str(exc)
        refused = game.why_illegal(move)
        if refused is not None:
            return refused
        if self.forced_move() is None:  # else the only move: play_forced publishes it
            self._publish_move(move)
        return None

    def _publish_move(self, move: Any) -> None:
        step, game, dealer = self.step, self.game, self.dealer
        assert step is not None and game is not None and dealer is not None
        self._publish(
            log_pb2.MovePlayed(
                turn=game.moves_played, move=str(move), cards=dealer.show(game.card_flow(move))
            ),
            step.number,
        )
        self._advance()

    def forced_move(self) -> int | None:
        """The turn of this seat's forced move awaited and held (see :attr:`hold_forced`), or
        None."""
        step, game = self.step, self.game
        if (
            not self.hold_forced
            or self.halt is not None
            or self._quiet
            or step is None
            or game is None
            or step.kind != StepKind.MOVE
            or step.authors != (self.me,)
            or self._pending(self.me, step) is not None
            or len(game.legal_moves()) != 1
        ):
            return None
        return game.moves_played

    def play_forced(self, turn: int) -> bool:
        """Publish this seat's forced move of ``turn``, if it is still the one awaited; True
        when published."""
        if self.forced_move() != turn:
            return False
        assert self.game is not None
        self._publish_move(self.game.legal_moves()[0])
        return True

    def chat(self, text: str) -> None:
        """Say something to the table."""
        text = text.strip()
        if not text:
            return
        check_text(text, "a chat line", MAX_CHAT)
        if self.seat is None and len(self.logs.log(self.me)) >= LOBBY_ENTRIES - 1:
            raise ValueError(
                f"a player without a seat says at most {LOBBY_ENTRIES - 2} things at a table"
            )
        self._publish(log_pb2.Chat(text=text))

    def leave(self, reason: str = "") -> None:
        """Leave the table for good: the others read it where this seat's next answer is
        awaited and go on without it (see :mod:`condottiere.peer.silence`)."""
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
        if self._quiet or not self.over or (self.halt is not None and not self.halt.abandoned):
            return
        if self.seat is None or self.seat in self.out:
            return
        if not any(entry.kind == "leave" for entry in self.logs.log(self.me)):
            self._publish(log_pb2.Leave(reason="the game is over"))

    def seen_by_all(self) -> bool:
        """Whether every other seat still at the table has shown (in the heads of an entry)
        that it holds this peer's log up to its audit (or its last silence statement, at a
        table abandoned): then this peer may go without anyone waiting for it."""
        kind = "silence" if self.halt is not None and self.halt.abandoned else StepKind.AUDIT
        marks = [e.seq for e in self.logs.log(self.me) if e.kind == kind]
        if not marks:
            return kind == "silence"
        mark = marks[-1] if kind == "silence" else marks[0]
        for author in self.seating:
            if author != self.me and self.seat_of(author) not in self.out and not any(
                entry.heads().get(self.me, (-1, b""))[0] >= mark
                for entry in self.logs.log(author)
            ):
                return False
        return True

    def give_up_waiting(self) -> bool:
        """Close the coin flip awaited, naming the reveals that did not come and giving this
        seat's pieces of their values (the owner calls it once its timeout expires); True when
        a close was published. See :mod:`condottiere.peer.coin`."""
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
            seat: frozenset(closes[self.seating[seat]].body.missing)
            for seat in flip.committers
            if self.seating[seat] in closes
        }

    def _close(self, flip: Flip, missing: Sequence[int]) -> bool:
        seat = self.seat
        if seat is None or seat in self._closes_of(flip) or self._quiet:
            return False
        secret = b""
        value = self._kept_coin_value(flip)
        if missing and flip.escrowed and value is not None:
            secret = box_secret_of(flip, value).secret_bytes()
        self._publish(
            log_pb2.CoinClose(
                choice=flip.choice, attempt=flip.attempt, missing=missing, box_secret=secret
            )
        )
        self.withheld.update(missing)
        return True

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
            if accepted.kind == StepKind.SEATING and accepted.author == self.lobby.creator:
                self._named.update(accepted.body.authors)
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
        if entry.kind == StepKind.SEATING:
            self._named.update(entry.body.authors)
        if entry.free:
            self._free(entry)
        return entry

    def _free(self, entry: LogEntry) -> None:
        kind = entry.kind
        if kind == "join":
            if self.lobby.closed:
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
            if not self.lobby.closed and entry.author not in self.seating:
                self.lobby.left.add(entry.author)  # a joiner who waited: seated no more
        elif kind == "evidence":
            self._held_evidence.append(entry)
        elif kind == "coin_close":
            closes = self._closes.setdefault((entry.body.choice, entry.body.attempt), {})
            closes.setdefault(entry.author, entry)
        elif kind == "silence":
            self._note_silence(entry)

    def _note_silence(self, entry: LogEntry) -> None:
        """Keep each author's first statement about each (seat, step); take in the answer an
        *answered* statement carries, as if it had come by itself (anyone may relay it)."""
        body = entry.body
        self._statements.setdefault((body.seat, body.step), {}).setdefault(entry.author, entry)
        if body.answered:
            self._unchecked.append(entry)
        if body.answered and body.answer and not self.logs.holds(body.answer):
            answer = read_entry_or_none(body.answer, self.table_id)
            if answer is not None and self._door(answer) is None:
                self._add(answer)

    def _carries_answer(self, seat: int, number: int, statement: LogEntry) -> bool:
        """Whether an *answered* statement about ``seat`` at step ``number`` carries that
        seat's own signed answer to that step (else it is false, and counts for nothing)."""
        carried = self._carried.get(statement.hash)
        if carried is None:
            answer = read_entry_or_none(statement.body.answer, self.table_id)
            carried = (
                answer is not None and seat < len(self.seating)
                and answer.author == self.seating[seat] and answer.step == number
                and not answer.free
            )
            self._carried[statement.hash] = carried
        return carried

    def _check_statements(self) -> None:
        """Once the game has started, halt on an *answered* statement that does not carry the
        answer it speaks of: its signer's own entry proves it false (the same at every peer,
        whenever it comes)."""
        if not self.lobby.closed:
            return
        unchecked, self._unchecked = self._unchecked, []
        for statement in unchecked:
            seat, number = statement.body.seat, statement.body.step
            if number < self._seated_at or self.halt is not None:
                continue
            if not self._carries_answer(seat, number, statement):
                self._refuse(Rejection(
                    Reason.BAD_PROOF, f"states seat {seat} answered step {number} without "
                    "carrying its answer", author=statement.author), statement)

    def _votes(self, seat: int, number: int) -> dict[int, LogEntry]:
        """The votes about ``seat`` at step ``number``: every other seat's first statement
        (none about a step before the seating that holds now: they name another seating's
        seats)."""
        if number < self._seated_at:
            return {}
        statements = self._statements.get((seat, number), {})
        votes = {}
        for author, entry in statements.items():
            voter = self.seat_of(author)
            if voter is None or voter == seat:
                continue
            if entry.body.answered and not self._carries_answer(seat, number, entry):
                continue
            votes[voter] = entry
        return votes


    # ------------------------------------------------------------------ the fold

    def _advance(self) -> None:
        while self.halt is None:
            self._check_evidence()
            self._check_statements()
            self._check_closes()
            if self.halt is not None or self.step is None:
                break
            if not self._work(self.step):
                self._refuse_strays()
                if not self._work(self.step):
                    break
        self._answer_statements()
        self._tell_game()

    def _answer_statements(self) -> None:
        """Vote *answered* on every statement about an answer this table took (a seat that
        came back in time: see :mod:`condottiere.peer.silence`); and stop where this seat
        finds itself put out at a step it went past (it came back too late)."""
        seat = self.seat
        if seat is None or self._quiet:
            return
        for (silent, number), statements in list(self._statements.items()):
            if (
                silent == seat
                and self.halt is None
                and number < self._step_number()
                and number != self._reseating  # the creator's seating says who is freed
            ):
                if self._verdict(silent, number) is Verdict.OUT:
                    departure = self._departure_by_silence(silent, number, "a step it passed")
                    self.out[seat] = departure
                    self.halt = Halt(
                        f"this seat was put out: {departure.words(self.who(self.me))}; "
                        "the others play on without it",
                        self.me,
                        seat,
                        departure=departure,
                    )
                    self._say("halt", self.halt.detail, seat)
            elif (
                self.me not in statements
                and (silent, number) in self._took
                and seat not in self.out
                and self._votes(silent, number)
            ):
                answer = self._took[(silent, number)]
                self._publish(
                    log_pb2.Silence(seat=silent, step=number, answered=True, answer=answer)
                )

    def _step_number(self) -> int:
        return self.step.number if self.step is not None else 1 << 62

    def _pending(self, author: bytes, step: Step) -> LogEntry | None:
        """``author``'s next entry for ``step``; earlier ones it skips are refused."""
        log = self.logs.log(author)
        waited = author in step.authors and author not in step.answers
        cursor = self._cursor.get(author, 0)
        while cursor < len(log):
            entry = log[cursor]
            if entry.kind == "leave":  # the author's last word, wherever it is read
                if waited:
                    self._leaves[author] = entry
                break
            if entry.free or (entry.kind == "table" and entry.seq == 0):
                cursor += 1
                continue
            if entry.step > step.number:
                break
            if entry.step in self._ended and not (entry.step == step.number and waited):
                cursor += 1  # an answer to a step a departure ended: nobody's fault
                continue
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
            if author not in step.missing and self.seat_of(author) not in self.out:
                self._pending(author, step)
        if self.lobby.closed:
            for author in self.logs.authors:
                if author not in self.seating:
                    self._refuse_unseated(author)

    def _forget_unseated(self) -> None:
        """Once the game starts, keep nothing in memory of the other authors without a seat
        (their entries stay in the keeper, for the record): their logs and the heads they
        claimed."""
        for author in self.logs.authors:
            if author not in self.seating and author != self.me:
                self._refuse_unseated(author)
                if author not in self.lobby.freed:  # a seating names it: its join is needed
                    self.logs.forget(author)
        self.logs.forget_claims(self.seating)

    def _refuse_unseated(self, author: bytes) -> None:
        log = self.logs.log(author)
        cursor = self._cursor.get(author, 0)
        while cursor < len(log):
            entry = log[cursor]
            if not entry.free and entry.step not in self._ended:  # else a freed seat's late ready
                self._refuse(
                    Rejection(Reason.NOT_SEATED, "the author has no seat", author=author), entry
                )
            cursor += 1
        self._cursor[author] = cursor

    def _work(self, step: Step) -> bool:
        """Take what the step needs from the logs (making this seat's part); True if anything
        changed."""
        if self._departures(step):
            return True
        changed = False
        for author in step.missing:
            entry = self._pending(author, step)
            if author in self._leaves:
                return self._put_out(step, self._departure_by_leave(self._leaves.pop(author)))
            if entry is not None and self._holding(author, step):
                continue
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
            self._took[(self.seating.index(author) if self.seating else -1, step.number)] = (
                entry.signed
            )
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
            seating = self.lobby.seating_for(self.freeing)
            if seating is None:
                return False
            body: Message = log_pb2.Seating(authors=list(seating))
        elif kind == StepKind.READY:
            if not self._want_ready:
                return False
            body = log_pb2.Ready(seating=self.lobby.seating_hash)
        elif kind == StepKind.KEYS:
            dealer = self._own_dealer()
            body = log_pb2.Keys(announcements=dealer.announcements())
            if dealer.backed_up:
                body.box_key = self._box().public.encode()
        elif kind == StepKind.DEALINGS:
            body = log_pb2.Dealings(dealings=self._own_dealer().make_dealings())
        elif kind == StepKind.PIECE_CHECKS:
            body = log_pb2.PieceChecks(
                complaints=[log_pb2.PieceComplaint(dealer=d, deck=i) for d, i in self._bad_pieces]
            )
        elif kind == StepKind.PIECE_ANSWERS:
            dealer = self._own_dealer()
            body = log_pb2.PieceAnswers(
                answers=[
                    log_pb2.PieceAnswer(
                        recipient=complainer, deck=index, answer=dealer.answer(complainer, index)
                    )
                    for complainer, accused, index in step.complaints
                    if accused == self.seat
                ]
            )
        elif kind == StepKind.STAND_IN:
            assert step.leaver is not None
            body = log_pb2.StandIn(
                leaver=step.leaver,
                batches=self._own_dealer().make_stand_in(step.leaver, step.draws),
            )
        elif kind == StepKind.REDEALING:
            body = self._own_dealer().make_redealing(step.deck)
        elif kind == StepKind.REKEY:
            assert step.leaver is not None
            dealer = self._own_dealer()
            body = log_pb2.Rekey(
                deck=step.deck,
                round=dealer.round(step.deck),
                leaver=step.leaver,
                batch=dealer.make_rekey(step.deck, step.leaver),
            )
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
            with self._work_timed(Work.MAKE_SHUFFLE, step.deck, self.seat):
                made = dealer.make_shuffle(step.deck)
            return log_pb2.Shuffle(deck=step.deck, round=dealer.round(step.deck), step=made)
        if kind == StepKind.SHARES:
            with self._work_timed(Work.MAKE_SHARES, 0, self.seat):
                return log_pb2.Shares(batches=dealer.make_shares(step.draws))
        if kind == StepKind.COIN_COMMIT:
            assert step.flip is not None
            flip = step.flip
            value = self._coin_value(flip)
            return log_pb2.CoinCommit(
                choice=flip.choice,
                attempt=flip.attempt,
                commitment=crypto.commitment_of(value),
                box_key=box_secret_of(flip, value).public.raw,
            )
        if kind in (StepKind.COIN_ESCROW, StepKind.COIN_REVEAL):
            assert step.flip is not None and self.seat is not None
            flip = step.flip
            kept = self._kept_coin_value(flip)
            if kept is None:  # lost with the end of a store put back: no other is made up
                return None
            if kind == StepKind.COIN_REVEAL:
                return log_pb2.CoinReveal(
                    choice=flip.choice, attempt=flip.attempt, value=crypto.encode_scalar(kept)
                )
            coin = self._coins[(flip.choice, flip.attempt)]
            keys = [coin.box_keys[seat] for seat in flip.committers]
            dealing = crypto.make_dealing(kept, keys, flip.context(self.table_id, self.seat))
            return log_pb2.CoinEscrow(
                choice=flip.choice, attempt=flip.attempt, dealing=dealing.encode()
            )
        if kind == StepKind.MOVE:
            moves = game.legal_moves()
            if len(moves) != 1 or self.hold_forced:
                return None
            move = moves[0]
            return log_pb2.MovePlayed(
                turn=game.moves_played, move=str(move), cards=dealer.show(game.card_flow(move))
            )
        if kind == StepKind.AUDIT:
            return log_pb2.AuditReveal(secrets=Dealer.encode_secrets(dealer.secrets()))
        if kind in SEARCH_STEPS:
            return self._make_search_part(step)
        if kind == StepKind.HAND_SHOWN:
            assert step.shown is not None
            return dealer.show_hand(step.shown.viewer)
        if kind == StepKind.HAND_PROOF:
            assert step.holds is not None
            return dealer.prove_holds(step.holds.cards)
        return None

    @contextmanager
    def _work_timed(self, work: Work, deck: int, seat: int | None) -> Iterator[None]:
        """Report the CPU the block used to :attr:`on_work` (nothing for ``seat`` None)."""
        if self.on_work is None or seat is None:
            yield
            return
        started = time.process_time()
        yield
        self.on_work(work, deck, seat, time.process_time() - started)

    def _box(self) -> crypto.BoxSecret:
        """This seat's box secret (the pieces of the others' secrets are sealed to its key),
        kept before its key is published."""
        kept = self.keeper.secret("box")
        if kept is None:
            box = crypto.BoxSecret.generate()
            self.keeper.keep_secret("box", box.secret_bytes())
            return box
        return crypto.BoxSecret(kept)

    def _coin_value(self, flip: Flip) -> int:
        """This seat's value for ``flip``: the one kept, or a fresh one, kept before use."""
        value = self._kept_coin_value(flip)
        if value is None:
            value = crypto.draw_value()
            self.keeper.keep_secret(_coin_secret(flip), crypto.encode_scalar(value))
        return value

    def _kept_coin_value(self, flip: Flip) -> int | None:
        kept = self.keeper.secret(_coin_secret(flip))
        return None if kept is None else crypto.decode_scalar(kept)

    def _own_dealer(self) -> Dealer:
        """The decks of the seats still at the table when the keys were made (a seat out
        before the deal takes no part: :meth:`_without_before_the_deal`)."""
        if self.dealer is None:
            seat = None if self.seat in self._before_deal else self.seat
            secrets = None
            if seat is not None:
                kept = [self.keeper.secret(f"deck/{i}") for i in range(len(self._decks()))]
                if all(kept):
                    secrets = [crypto.decode_scalar(value or b"") for value in kept]
            members = [s for s in range(self.spec.seats) if s not in self._before_deal]
            self.dealer = Dealer(
                self.table_id, self.spec.seats, seat, self._decks(), secrets, members
            )
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
            freed = self._check_reseating(authors) if self._reseating is not None else []
            self.lobby.seat(entry, authors)
            if self.turned_away & set(authors):
                self.ask_again = True
            self.turned_away.clear()
            if freed:
                self._free_seats(freed, authors)
            self._seated_at = step.number
            self.logs.forget_claims((*self.seating, *self.lobby.joins))
        elif kind == StepKind.READY:
            if body.seating != self.lobby.seating_hash:
                raise Rejection(Reason.UNEXPECTED, "ready for another seating")
        elif kind == StepKind.KEYS:
            if len(body.announcements) != len(self._decks()):
                raise Rejection(Reason.UNEXPECTED, f"{len(self._decks())} keys expected")
            backed_up = len(self._remaining_authors()) >= crypto.MIN_BACKUP_SEATS
            if backed_up != bool(body.box_key):
                raise Rejection(Reason.UNEXPECTED, "a box key comes with the keys at 3 seats+")
        elif kind == StepKind.DEALINGS:
            assert self.dealer is not None and seat is not None
            box = self._box() if self.seat is not None and author != self.me else None
            for index in self.dealer.accept_dealings(seat, body.dealings, box):
                self._bad_pieces.append((seat, index))
        elif kind == StepKind.PIECE_CHECKS:
            assert self.dealer is not None
            for complaint in body.complaints:
                if not (complaint.dealer in self.dealer.members and complaint.dealer != seat
                        and 0 <= complaint.deck < len(self._decks())):
                    raise Rejection(Reason.UNEXPECTED, "a complaint about no other seat's deck")
        elif kind == StepKind.PIECE_ANSWERS:
            owed = [c for c in step.complaints if c[1] == seat]
            if [(a.recipient, a.deck) for a in body.answers] != [(c[0], c[2]) for c in owed]:
                raise Rejection(Reason.UNEXPECTED, "an answer to each complaint, in order")
        elif kind == StepKind.STAND_IN:
            assert self.dealer is not None and seat is not None and step.leaver is not None
            self.dealer.accept_stand_in(seat, step.leaver, body, step.draws)
        elif kind == StepKind.REKEY:
            assert self.dealer is not None and seat is not None and step.leaver is not None
            self.dealer.accept_rekey(seat, step.leaver, step.deck, body)
        elif kind == StepKind.REDEALING:
            assert self.dealer is not None and seat is not None
            if body.deck != step.deck:
                raise Rejection(Reason.UNEXPECTED, f"a new backup of deck {step.deck} expected")
            box = self._box() if self.seat is not None and author != self.me else None
            if self.dealer.accept_redealing(seat, body, box):
                self._bad_pieces.append((seat, body.deck))
        elif kind == StepKind.SHUFFLE:
            assert self.dealer is not None and seat is not None
            trusted = author == self.me or entry.hash in self._verified
            ahead = None
            if not trusted and self.seat == seat + 1 and not self._quiet:
                # this seat shuffles next: its step is made while this one is verified
                dealer = self.dealer
                ahead = threading.Thread(
                    target=lambda: dealer.make_shuffle_ahead(step.deck, body), name="shuffle"
                )
                ahead.start()
            # the CPU of the step made ahead is counted here, with the verification
            with self._work_timed(Work.VERIFY_SHUFFLE, step.deck, None if trusted else seat):
                try:
                    self.dealer.accept_shuffle(step.deck, seat, body, verify=not trusted)
                finally:
                    if ahead is not None:
                        ahead.join()
            if not trusted:
                self.keeper.mark_verified(entry)
        elif kind == StepKind.SHARES:
            assert self.dealer is not None and seat is not None
            try:
                own = author == self.me
                with self._work_timed(Work.CHECK_SHARES, 0, None if own else seat):
                    self.dealer.accept_shares(seat, body, step.draws, trusted=own)
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
            if not crypto.is_point(body.commitment):
                raise Rejection(Reason.UNEXPECTED, "a coin commitment is a point of the group")
            try:
                crypto.BoxKey(body.box_key)
            except crypto.DecodeError as error:
                raise Rejection(Reason.UNEXPECTED, str(error)) from None
        elif kind == StepKind.COIN_ESCROW:
            self._check_flip(step, body)
            assert step.flip is not None
            try:
                crypto.Dealing.decode(body.dealing, len(step.flip.committers))
            except (crypto.DecodeError, ValueError) as error:
                raise Rejection(Reason.UNEXPECTED, f"not an escrow: {error}") from None
        elif kind == StepKind.COIN_REVEAL:
            self._check_reveal(step, author, entry)
        elif kind == StepKind.MOVE:
            self._play(author, entry)
        elif kind in SEARCH_STEPS:
            self._check_search(step, author, entry)
        elif kind == StepKind.HAND_SHOWN:
            self._hand_shown(step, entry)
        elif kind == StepKind.HAND_PROOF:
            self._hand_proof(step, entry)
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
            self.lobby.close()
            self._forget_unseated()
            self._say("ready", "everyone is ready: the deck is being prepared")
            self._next_step(StepKind.KEYS, self._remaining_authors())
        elif step.kind == StepKind.KEYS:
            dealer = self._own_dealer()
            if self.halt is not None:  # it lost its deck secrets (see _own_dealer)
                return True
            members = self._remaining_authors()
            dealer.accept_keys([list(step.answers[a].body.announcements) for a in members])
            if dealer.backed_up:
                dealer.accept_box_keys([step.answers[a].body.box_key for a in members])
                self._next_step(StepKind.DEALINGS, members)
            else:
                self._start_game()
        elif step.kind == StepKind.DEALINGS:
            self._next_step(StepKind.PIECE_CHECKS, step.authors)
        elif step.kind == StepKind.PIECE_CHECKS:
            complaints = tuple(sorted(
                (self.seating.index(author), c.dealer, c.deck)
                for author, entry in step.answers.items()
                for c in entry.body.complaints
            ))
            if not complaints and self.game is not None:  # a new backup after a re-key
                self._next_game_step()
            elif not complaints:
                self._start_game()
            else:
                accused = sorted({dealer for _, dealer, _ in complaints})
                self._next_step(
                    StepKind.PIECE_ANSWERS, self._seat_authors(accused), complaints=complaints
                )
        elif step.kind == StepKind.PIECE_ANSWERS:
            self._settle_complaints(step)
        elif step.kind == StepKind.STAND_IN:
            assert self.dealer is not None and step.leaver is not None
            self.dealer.complete_stand_in(step.leaver, step.draws)
            self._say("deal", f"the others stood in for {self.who(self.seating[step.leaver])}")
            self._finish_deal(step.draws)
        elif step.kind == StepKind.REDEALING:
            self._next_step(StepKind.PIECE_CHECKS, step.authors)
        elif step.kind == StepKind.REKEY:
            assert self.dealer is not None and step.leaver is not None
            self.dealer.complete_rekey(step.deck, step.leaver)
            self._say(
                "shuffle",
                f"deck {step.deck + 1} is keyed again without "
                f"{self.who(self.seating[step.leaver])}: its cards no longer need it",
            )
            self._next_game_step()
        elif step.kind == StepKind.SHUFFLE:
            self._next_game_step()
        elif step.kind == StepKind.SHARES:
            self._after_shares(step.draws)
        elif step.kind == StepKind.COIN_COMMIT:
            assert step.flip is not None
            coin = self._coins[(step.flip.choice, step.flip.attempt)]
            for author, entry in step.answers.items():
                seat = self.seat_of(author)
                assert seat is not None
                coin.commitments[seat] = entry.body.commitment
                coin.box_keys[seat] = crypto.BoxKey(entry.body.box_key)
            kind = StepKind.COIN_ESCROW if step.flip.escrowed else StepKind.COIN_REVEAL
            self._next_step(kind, step.authors, flip=step.flip)
        elif step.kind == StepKind.COIN_ESCROW:
            assert step.flip is not None
            coin = self._coins[(step.flip.choice, step.flip.attempt)]
            for author, entry in step.answers.items():
                seat = self.seat_of(author)
                assert seat is not None
                coin.dealings[seat] = crypto.Dealing.decode(
                    entry.body.dealing, len(step.flip.committers)
                )
            self._next_step(StepKind.COIN_REVEAL, step.authors, flip=step.flip)
        elif step.kind in (StepKind.MOVE, StepKind.HAND_SHOWN, StepKind.HAND_PROOF):
            self._next_game_step()
        elif step.kind == StepKind.SEARCH_BLINDING:
            self._next_step(StepKind.SEARCH_OPENING, step.authors, search=step.search)
        elif step.kind == StepKind.SEARCH_OPENING:
            self._finish_search(step)
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
                self._next_step(StepKind.AUDIT, self._remaining_authors())
                return
            if isinstance(waiting, Choice):
                node = waiting
                seats = tuple(s for s in range(self.spec.seats) if s not in self.out)
                flip = Flip(game.choices_made, 0, node.purpose, node.seats, seats)
                self._coins[(flip.choice, flip.attempt)] = Coin(flip)
                self._next_step(StepKind.COIN_COMMIT, self._seat_authors(seats), flip=flip)
                return
            if isinstance(waiting, Deal):
                draws = game.pending_draws()
                dealer.sync(draws, sizes)
                if self._rekey(draws) or self._redeal(draws):
                    return
                for draw in draws:
                    shuffler = dealer.next_shuffler(draw.pile)
                    if shuffler is not None:
                        shufflers = self._seat_authors([shuffler])
                        self._next_step(StepKind.SHUFFLE, shufflers, deck=draw.pile)
                        return
                sharers = [seat for seat in dealer.sharers(draws) if seat not in self.out]
                if sharers:
                    self._next_step(StepKind.SHARES, self._seat_authors(sharers), draws=draws)
                    return
                if self._stand_in_for(draws):
                    return
                self._deal(draws)
                continue
            if isinstance(waiting, SearchDeck):
                if self._start_search(waiting):
                    return
                continue
            if isinstance(waiting, ShowHand):
                dealer.check_hands(sizes)
                self._next_step(
                    StepKind.HAND_SHOWN, self._seat_authors([waiting.seat]), shown=waiting
                )
                return
            if isinstance(waiting, HandHolds):
                dealer.check_hands(sizes)
                self._next_step(
                    StepKind.HAND_PROOF, self._seat_authors([waiting.seat]), holds=waiting
                )
                return
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

    def _start_game(self) -> None:
        """Make the game for the table's seating, without the seats put out before the deal
        (the game's rules go on without them as with any leaver)."""
        table = self.spec.rules
        self.game = (
            self.rules.for_spectator(table) if self.seat is None else self.rules.for_seat(table,
                                                                                      self.seat)
        )
        for seat in sorted(self.out):
            self.game.remove_seat(seat)
        self._next_game_step()

    def _settle_complaints(self, step: Step) -> None:
        """Every complaint about a backup ends with a blame (the dealer's, or the
        complainer's for a false one): the table stops with the first."""
        assert self.dealer is not None
        complainer, dealer, index = step.complaints[0]
        answers = step.answers[self.seating[dealer]].body.answers
        answer = next(a.answer for a in answers if (a.recipient, a.deck) == (complainer, index))
        rejection = self.dealer.settle(dealer, complainer, index, answer)
        backup = StepKind.DEALINGS if self.game is None else StepKind.REDEALING
        dealt = [e for e in self.logs.log(self.seating[dealer]) if e.kind == backup][-1]
        complaint = [
            e for e in self.logs.log(self.seating[complainer]) if e.kind == "piece_checks"
        ][-1]
        evidence = (dealt.signed, complaint.signed, step.answers[self.seating[dealer]].signed)
        self._stop(Rejection(rejection.reason, rejection.detail, seat=rejection.seat,
                             evidence=evidence))

    def _stand_in_for(self, draws: Sequence[Draw]) -> bool:
        """Start a stand-in step when a seat out owes shares of these deals; True if one."""
        dealer = self.dealer
        assert dealer is not None
        for leaver in sorted(self.out):
            if dealer.owed(leaver, draws):
                self._next_step(
                    StepKind.STAND_IN, self._remaining_authors(), draws=draws, leaver=leaver
                )
                return True
        return False

    def _rekey(self, draws: Sequence[Draw]) -> bool:
        """Start a re-key step when a pile these deals take from was formed again with hidden
        cards still under the key of a seat that left; True if one."""
        dealer = self.dealer
        assert dealer is not None
        for draw in draws:
            leaver = dealer.rekeying(draw.pile)
            if leaver is not None:
                self._next_step(
                    StepKind.REKEY, self._remaining_authors(), deck=draw.pile, leaver=leaver
                )
                return True
        return False

    def _redeal(self, draws: Sequence[Draw]) -> bool:
        """Start a new backup step when a pile these deals take from was re-keyed and its
        members (three or more) still back their secrets up with a seat that left; True if
        one."""
        dealer = self.dealer
        assert dealer is not None
        for draw in draws:
            seats = dealer.redealt(draw.pile)
            if seats is not None:
                self._bad_pieces.clear()
                self._next_step(StepKind.REDEALING, self._seat_authors(seats), deck=draw.pile)
                return True
        return False

    def _after_shares(self, draws: Sequence[Draw]) -> None:
        if not self._stand_in_for(draws):
            self._finish_deal(draws)

    def _finish_deal(self, draws: Sequence[Draw]) -> None:
        """Deal, then take out of the game the seats put out while it was under way."""
        game, dealer = self.game, self.dealer
        assert game is not None and dealer is not None
        self._deal(draws)
        for seat in sorted(self._removing):
            dealer.drop_hand(game.remove_seat(seat).seat)
        self._removing.clear()
        self._next_game_step()

    def _deal(self, draws: Sequence[Draw]) -> None:
        game, dealer = self.game, self.dealer
        assert game is not None and dealer is not None
        counts = ", ".join(f"{d.deal.count} to seat {d.deal.seat}" for d in draws)
        self._say("deal", f"cards dealt: {counts}")
        for draw in draws:
            game.resolve(dealer.deal(draw))

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
        try:
            game.play(move, reveal=showing.names if flow.whole_hand else None)
        except IllegalMoveError as exc:
            raise Rejection(Reason.ILLEGAL, str(exc)) from None
        dealer.apply(showing, flow)
        if self.on_move is not None:
            self.on_move(game.moves_played - 1)
        self._tell_game()

    # ------------------------------------------------------------------ searches

    def _start_search(self, search: SearchDeck) -> bool:
        """Start the search of a draw pile the game waits for: the pile's shuffle chain first,
        where its round is not shuffled yet (as a deal would), then the blinding step of every
        seat still at the table. True if a step was started; False when the pile holds no
        card (the search is settled at once: not found)."""
        dealer = self.dealer
        assert dealer is not None
        shuffler = dealer.next_shuffler(search.pile)
        if shuffler is not None:
            self._next_step(StepKind.SHUFFLE, self._seat_authors([shuffler]), deck=search.pile)
            return True
        if not dealer.pile_positions(search.pile):
            self._resolve_search(search, ())
            return False
        dealer.start_search(search.pile, search.card)
        searchers = [seat for seat in dealer.members if seat not in self.out]
        self._next_step(StepKind.SEARCH_BLINDING, self._seat_authors(searchers), search=search)
        return True

    def _search_leaver(self) -> int | None:
        """The seat of the decks that is out: its opening shares are stood in for."""
        dealer = self.dealer
        assert dealer is not None
        return next((seat for seat in sorted(self.out) if seat in dealer.members), None)

    def _make_search_part(self, step: Step) -> Message:
        dealer, search = self.dealer, step.search
        assert dealer is not None and search is not None
        index, round_ = search.pile, dealer.round(search.pile)
        if step.kind == StepKind.SEARCH_BLINDING:
            with self._work_timed(Work.MAKE_BLINDING, index, self.seat):
                blinding = dealer.make_search_blinding()
            return log_pb2.SearchBlinding(
                deck=index, round=round_, card=search.card, blinding=blinding
            )
        with self._work_timed(Work.MAKE_OPENING, index, self.seat):
            opening, stand_in = dealer.make_search_opening(self._search_leaver())
        return log_pb2.SearchOpening(
            deck=index, round=round_, card=search.card, opening=opening, stand_in=stand_in
        )

    def _check_search(self, step: Step, author: bytes, entry: LogEntry) -> None:
        """Check ``author``'s blinding or opening of the search under way (its proofs
        verified, but for this seat's own); :class:`Rejection` blames it."""
        dealer, search, seat = self.dealer, step.search, self.seat_of(author)
        assert dealer is not None and search is not None and seat is not None
        body = entry.body
        round_ = dealer.round(search.pile)
        if (body.deck, body.round, body.card) != (search.pile, round_, search.card):
            raise Rejection(
                Reason.UNEXPECTED,
                f"a search of deck {search.pile}, round {round_}, for {search.card!r} is "
                f"awaited, not of deck {body.deck}, round {body.round}, for {body.card!r}",
                seat=seat,
            )
        own = author == self.me
        if step.kind == StepKind.SEARCH_BLINDING:
            with self._work_timed(Work.CHECK_BLINDING, search.pile, None if own else seat):
                dealer.accept_search_blinding(seat, body.blinding)
        else:
            with self._work_timed(Work.CHECK_OPENING, search.pile, None if own else seat):
                dealer.accept_search_opening(
                    seat, body.opening, body.stand_in, self._search_leaver()
                )

    def _finish_search(self, step: Step) -> None:
        """Every opening is in: the card found (if any) leaves the pile face up into the
        searcher's hand, and the game goes on."""
        dealer, search = self.dealer, step.search
        assert dealer is not None and search is not None
        found = dealer.finish_search(search.seat, self._search_leaver())
        self._resolve_search(search, found)
        self._next_game_step()

    def _resolve_search(self, search: SearchDeck, found: tuple[str, ...]) -> None:
        game = self.game
        assert game is not None
        game.resolve(found)
        self._tell_game()

    # ------------------------------------------------------------------ a hand shown to one seat

    def _hand_shown(self, step: Step, entry: LogEntry) -> None:
        """Check the shown seat's answer (every card of its hand, each hidden one's part
        sealed to the viewer with a proof that verifies), then apply it: the viewer opens
        the cards, the engine is resolved (with the cards where this table may see them), and
        with ``handed`` the cards go to the viewer's hand."""
        game, dealer, shown = self.game, self.dealer, step.shown
        assert game is not None and dealer is not None and shown is not None
        showing = dealer.check_hand_shown(shown.seat, shown.viewer, entry.body)
        opened = dealer.apply_hand_shown(showing, handed=shown.handed)
        if self.seat == shown.seat:
            game.resolve(game.hand(shown.seat))
        elif self.seat == shown.viewer:
            game.resolve(opened)
        else:
            game.resolve(None)
        self._tell_game()

    # ------------------------------------------------------------------ a hand's proof

    def _hand_proof(self, step: Step, entry: LogEntry) -> None:
        """Check the seat's proof that its hidden hand holds a card of the set (a bad or
        missing proof blames it as any bad proof does), then resolve the engine."""
        game, dealer, holds = self.game, self.dealer, step.holds
        assert game is not None and dealer is not None and holds is not None
        dealer.check_holds(holds.seat, holds.cards, entry.body)
        game.resolve(None)
        self._tell_game()

    # ------------------------------------------------------------------ coins

    def _check_flip(self, step: Step, body: Any) -> None:
        assert step.flip is not None
        if (body.choice, body.attempt) != (step.flip.choice, step.flip.attempt):
            raise Rejection(
                Reason.UNEXPECTED,
                f"a coin for choice {step.flip.choice}, attempt {step.flip.attempt} is awaited",
            )

    def _coin_entry(self, author: bytes, kind: StepKind, flip: Flip) -> bytes:
        """``author``'s signed entry of ``kind`` for ``flip`` that this table took."""
        return next(
            entry.signed
            for entry in self.logs.log(author)
            if entry.kind == kind
            and (entry.body.choice, entry.body.attempt) == (flip.choice, flip.attempt)
            and entry.hash in self._consumed
        )

    def _check_reveal(self, step: Step, author: bytes, entry: LogEntry) -> None:
        self._check_flip(step, entry.body)
        flip = step.flip
        assert flip is not None
        seat = self.seat_of(author)
        assert seat is not None
        commitment = self._coins[(flip.choice, flip.attempt)].commitments[seat]
        value = entry.body.value
        if len(value) != crypto.VALUE_BYTES or not crypto.value_matches(
            int.from_bytes(value, "little"), commitment
        ):
            raise Rejection(
                Reason.BAD_PROOF,
                "the coin reveal does not match its commitment",
                seat=seat,
                evidence=(self._coin_entry(author, StepKind.COIN_COMMIT, flip), entry.signed),
            )

    def _settle_flip(self, step: Step) -> bool:
        """Decide the flip once every value is known, revealed or opened from its escrow."""
        flip = step.flip
        assert flip is not None
        if not step.missing and self.seat in flip.committers:
            self._close(flip, ())
        coin = self._coins[(flip.choice, flip.attempt)]
        values = {}
        for seat in flip.committers:
            answer = step.answers.get(self.seating[seat])
            value = (
                coin.opened(seat)
                if answer is None
                else int.from_bytes(answer.body.value, "little")
            )
            if value is None:
                return False
            values[seat] = value
        game = self.game
        assert game is not None
        chosen = flip.outcome(self.table_id, values)
        self.flips.append((flip, chosen))
        opened = [seat for seat in flip.committers if self.seating[seat] not in step.answers]
        how = (
            f" ({', '.join(self.who(self.seating[s]) for s in opened)}: opened from the escrow)"
            if opened
            else ""
        )
        self._say("coin", f"fair choice of the {flip.purpose}: seat {chosen}{how}", chosen)
        game.resolve(chosen)
        self._next_game_step()
        return True

    def _check_closes(self) -> None:
        """Take the pieces of withheld values from the closes that give them, once the flip's
        escrow is complete (a piece that does not open or check halts the table, blaming its
        dealer; a box secret not of its closer's key, blaming the closer), and blame the
        seats a strict majority of the other committers name."""
        if not self.seating:
            return
        for (choice, attempt), closes in self._closes.items():
            coin = self._coins.get((choice, attempt))
            if coin is None:
                continue
            flip = coin.flip
            for author, entry in closes.items():
                closer = self.seat_of(author)
                if entry.hash in self._opened_closes or closer not in flip.committers:
                    continue
                if flip.escrowed and not coin.escrow_complete:
                    continue  # its pieces are taken once every escrow is in
                self._opened_closes.add(entry.hash)
                missing = frozenset(entry.body.missing) & set(flip.committers) - {closer}
                if not missing or not flip.escrowed:
                    continue
                try:
                    coin.open_pieces(self.table_id, closer, entry.body.box_secret, missing)
                except crypto.VerificationError as error:
                    culprit = self.seating[error.seat]
                    proof = (
                        self._coin_entry(culprit, StepKind.COIN_COMMIT, flip)
                        if error.seat == closer
                        else self._coin_entry(culprit, StepKind.COIN_ESCROW, flip)
                    )
                    reason = str(error).split(": ", 1)[1]
                    self._stop(
                        Rejection(
                            Reason.BAD_PROOF,
                            f"its coin escrow for the {flip.purpose} fails: {reason}",
                            seat=error.seat,
                            evidence=(proof, entry.signed),
                        )
                    )
                    return
            self._blame_withholders(flip)

    def _blame_withholders(self, flip: Flip) -> None:
        for seat in blamed(flip, self._closes_of(flip)):
            if (flip.choice, flip.attempt, seat) in self._blamed:
                continue
            self._blamed.add((flip.choice, flip.attempt, seat))
            refusal = Refusal(
                Reason.BAD_PROOF,
                f"withheld its coin reveal for the {flip.purpose}",
                self.seating[seat],
                seat,
                tuple(self._close_entries(flip, seat)),
            )
            self.refusals.append(refusal)
            self._say("refused", f"{self.who(self.seating[seat])} {refusal.detail}", seat)

    def _close_entries(self, flip: Flip, seat: int) -> list[bytes]:
        """The signed closes of a coin flip that name ``seat``: the evidence of its blame."""
        closes = self._closes.get((flip.choice, flip.attempt), {})
        return [entry.signed for entry in closes.values() if seat in entry.body.missing]

    # ------------------------------------------------------------------ audit

    def _audit(self, step: Step) -> None:
        dealer = self.dealer
        assert dealer is not None
        if not dealer.started:
            self.step = None
            self._say("audit", "no card was dealt: there is nothing to audit")
            return
        if any(seat in dealer.members for seat in self.out):
            stayed: dict[int, list[bytes]] = {}
            for author, entry in step.answers.items():
                seat = self.seat_of(author)
                assert seat is not None
                dealer.audit_seat(seat, list(entry.body.secrets))
                stayed[seat] = list(entry.body.secrets)
            rekeyed = self.rekeyed_cards = dealer.audit_rekeyed(stayed)
            self.step = None
            gone = " and ".join(self.lobby.names.get(self.seating[s], "?") for s in self.out)
            whole = (
                f"; every shuffle, share and card of the decks keyed again without {gone} "
                f"checks out ({len(rekeyed)} cards)"
                if rekeyed
                else ""
            )
            self._say(
                "audit",
                "audit passed for the seats that stayed: their secrets match their keys and "
                f"every share they gave{whole}; the cards dealt before cannot be named "
                f"without {gone}",
            )
            return
        secrets = [list(step.answers[a].body.secrets) for a in self._remaining_authors()]
        self.cards = dealer.audit(secrets)
        self.step = None
        self._say("audit", "audit passed: every shuffle, share and card checks out")

    # ------------------------------------------------------------------ departures

    def _remaining_authors(self) -> tuple[bytes, ...]:
        return tuple(a for s, a in enumerate(self.seating) if s not in self.out)

    def _verdict(self, seat: int, number: int) -> Verdict | None:
        votes = self._votes(seat, number)
        voters = {s for s in range(len(self.seating)) if s != seat and s not in self.out}
        return silence_verdict(seat, voters, {v: e.body.answered for v, e in votes.items()})

    def _holding(self, author: bytes, step: Step) -> bool:
        """Whether this seat holds back ``author``'s answer to ``step``: it voted the author
        silent there, and no verdict is reached yet."""
        seat, mine = self.seat_of(author), self.seat
        if seat is None or mine is None:
            return False
        votes = self._votes(seat, step.number)
        return mine in votes and self._verdict(seat, step.number) is None

    def _departures(self, step: Step) -> bool:
        """Put out a seat ``step`` waits for that every other seat stated silent (at the
        ready step, free the seats put out: :meth:`_freeable`); True if one was."""
        if step.kind == StepKind.READY and self.seat_of(self.lobby.creator) not in self.out:
            freeable = self._freeable(step.number)
            if freeable:
                return self._reseat(step, freeable)
        for author in step.missing:
            seat = self.seat_of(author)
            if seat is not None and self._verdict(seat, step.number) is Verdict.OUT:
                return self._put_out(step, self._departure_by_silence(seat, step.number,
                                                                      step.kind.words))
        return False

    def _departure_by_silence(self, seat: int, number: int, at: str) -> Departure:
        votes = self._votes(seat, number)
        return Departure(
            seat,
            number,
            at,
            min(entry.body.waited for entry in votes.values()),
            tuple(sorted(votes)),
            evidence=tuple(votes[voter].signed for voter in sorted(votes)),
        )

    def _departure_by_leave(self, entry: LogEntry) -> Departure:
        seat = self.seat_of(entry.author)
        step = self.step
        assert seat is not None and step is not None
        return Departure(
            seat,
            step.number,
            step.kind.words,
            None,
            reason=entry.body.reason[:MAX_CHAT],
            evidence=(entry.signed,),
        )

    def _put_out(self, step: Step, departure: Departure) -> bool:
        """The seat of ``departure`` is out at ``step``: the game goes on without it where it
        can (see the module); True (the table changed)."""
        seat = departure.seat
        author = self.seating[seat]
        if step.kind == StepKind.READY and self._frees(author):
            return self._reseat(step, (seat,))
        self.out[seat] = departure
        name = self.lobby.names.get(author, "?")
        game = self.game
        remaining = [s for s in range(len(self.seating)) if s not in self.out]
        if step.kind == StepKind.AUDIT:
            step.authors = tuple(a for a in step.authors if a != author)
            self._say("leave", f"{name} has left: the audit goes on without {name}", seat)
            return True
        if game is None:
            return self._without_before_the_deal(step, departure)
        dealer = self.dealer
        assert dealer is not None
        stand_in = dealer.covered(seat, self.out)
        if len(remaining) > 1 and not stand_in:
            why = "a second seat gone: the others cannot open cards without both shares"
            self.halt = Halt(
                f"abandoned: {departure.words(self.who(author))} ({why}); the record is kept",
                author,
                seat,
                evidence=departure.evidence,
                departure=departure,
            )
            self._say("halt", self.halt.detail, seat)
            return True
        dealer.drop_seat(seat)
        if step.kind == StepKind.SHARES and len(remaining) > 1:
            # the deal under way is dealt as the game asked; the others stand in for its
            # shares, and its hand leaves the game once dealt
            step.authors = tuple(a for a in step.authors if a != author)
            self._removing.add(seat)
            self._say("leave", f"{name} has left: the game goes on without {name} "
                      f"({departure.words(self.who(author))})", seat)
            return True
        self._ended.add(step.number)
        gone = game.remove_seat(seat)
        dealer.drop_hand(gone.seat)
        goes_on = f": the game goes on without {name}" if game.outcome is None else ""
        self._say(
            "leave",
            f"{name} has left{goes_on} ({departure.words(self.who(author))}; its "
            f"{gone.count} hidden cards leave the game unseen)",
            seat,
        )
        self._next_game_step()
        return True

    def _frees(self, author: bytes) -> bool:
        """Whether a seat out at the start is freed for another joiner: any seat but the
        creator's (whose seating it is to make), while the creator is at the table."""
        creator = self.lobby.creator
        return author != creator and self.seat_of(creator) not in self.out

    def _freeable(self, number: int) -> tuple[int, ...]:
        """The seats put out at the ready step ``number``: the largest set of seats (never
        the creator's) each of which every seat outside it still at the table stated silent
        there, or whose player said it leaves. Seats silent together need not state each
        other silent (nobody may be left to); every seat that could have taken one's ready
        is outside the set and stated it silent, so no peer but theirs went past the step.
        Statements only add up, so once a seat is in the set it stays in it."""
        at_table = [s for s in range(len(self.seating)) if s not in self.out]
        group = {s for s in at_table if self.seating[s] != self.lobby.creator}
        while True:
            kept = {
                seat for seat in group
                if self._left(seat, number) or all(
                    self._stated(voter, seat, number) is False
                    for voter in at_table if voter not in group and voter != seat
                )
            }
            if kept == group:
                return tuple(sorted(group))
            group = kept

    def _stated(self, voter: int, seat: int, number: int) -> bool | None:
        """``voter``'s first statement about ``seat`` at step ``number``: whether it says it
        holds the seat's answer; None when it stated nothing."""
        vote = self._votes(seat, number).get(voter)
        return None if vote is None else bool(vote.body.answered)

    def _left(self, seat: int, number: int) -> LogEntry | None:
        """``seat``'s leave, if its player left at the ready step ``number`` (its leave comes
        before any ready of its to that step: a leave is read where the next answer is)."""
        for entry in self.logs.log(self.seating[seat]):
            if entry.kind == StepKind.READY and entry.step == number:
                return None
            if entry.kind == "leave":
                return entry
        return None

    def _reseat(self, step: Step, seats: Sequence[int]) -> bool:
        """Seats were not ready in time (or their players left before the start): the table
        waits for the creator to seat the next joiners in their places (see
        :meth:`_check_reseating`). True (the table changed)."""
        self._ended.add(step.number)
        self._reseating = step.number
        for seat in seats:
            author = self.seating[seat]
            departure = self._departure_frees(seat, step.number)
            self._say(
                "freed",
                f"{self.lobby.names.get(author, '?')}'s seat is freed"
                f" ({departure.words(self.who(author))}): the table seats the next player who"
                " asks in their place",
                seat,
            )
        self._next_step(StepKind.SEATING, (self.lobby.creator,))
        return True

    @property
    def freeing(self) -> tuple[bytes, ...]:
        """The seated authors the creator's next seating frees, as this peer knows them
        (none unless seats were put out at the ready step: see :meth:`_reseat`)."""
        if self._reseating is None:
            return ()
        return tuple(self.seating[seat] for seat in self._freeable(self._reseating))

    def _check_reseating(self, authors: tuple[bytes, ...]) -> list[tuple[bytes, Departure]]:
        """The seats a new seating frees, with how each was put out at the start:
        :class:`Rejection` unless every other seat stays where it was, and every seat it
        frees was put out there, each stated silent by every seat it does not free (or left);
        ``_Later`` while statements that may still come are missing."""
        number = self._reseating
        assert number is not None
        freed = [seat for seat, author in enumerate(self.seating) if authors[seat] != author]
        if not freed:
            raise Rejection(Reason.UNEXPECTED, "a new seating frees a seat not ready in time")
        for seat in freed:
            author = self.seating[seat]
            if author == self.lobby.creator or author in authors:
                raise Rejection(
                    Reason.UNEXPECTED, "a new seating keeps every seat it does not free in place"
                )
        voters = [s for s in range(len(self.seating)) if s not in self.out and s not in freed]
        mine = self.seat
        for seat in freed:
            if (
                mine in voters and (seat, number) in self._took and not self._quiet
                and self._stated(mine, seat, number) is None
            ):  # this peer holds its ready: it says so, and the seating can never hold
                self._publish(log_pb2.Silence(
                    seat=seat, step=number, answered=True, answer=self._took[(seat, number)]))
        waiting = False
        for seat in freed:
            if self._left(seat, number):
                continue
            stated = [self._stated(voter, seat, number) for voter in voters if voter != seat]
            if any(stated):
                raise Rejection(Reason.UNEXPECTED, "a new seating frees a seat that was ready")
            waiting = waiting or None in stated
        if waiting:
            raise _Later()
        return [(self.seating[seat], self._departure_frees(seat, number)) for seat in freed]

    def _departure_frees(self, seat: int, number: int) -> Departure:
        """How a seat a valid new seating frees was put out at the ready step ``number``."""
        leave = self._left(seat, number)
        if leave is not None:
            reason = leave.body.reason[:MAX_CHAT]
            return Departure(
                seat, number, StepKind.READY.words, None, reason=reason, evidence=(leave.signed,)
            )
        return self._departure_by_silence(seat, number, StepKind.READY.words)

    def _free_seats(self, freed: Sequence[tuple[bytes, Departure]],
                    authors: tuple[bytes, ...]) -> None:
        """Apply a new seating's freed seats (see :meth:`_check_reseating`)."""
        for author, departure in freed:
            name = self.lobby.names.get(author, "?")
            taker = self.lobby.names.get(authors[departure.seat], "?")
            self.freed.append((name, departure))
            self.lobby.free(author)
            words = departure.words(f"seat {departure.seat} ({name})")
            if author == self.me:
                self.halt = Halt(
                    f"this seat was freed for another player: {words}", self.me, departure.seat
                )
                self._say("freed", self.halt.detail, departure.seat)
            else:
                self._say("freed", f"{taker} takes the seat freed from {name} ({words})",
                          departure.seat)
        self._reseating = None

    def _without_before_the_deal(self, step: Step, departure: Departure) -> bool:
        """A seat out before the game was dealt: nothing secret depends on it yet, so the
        seats still at the table start again without it, from the start (a seat out at
        the start) or from the keys (at the keys and the backups of the keys): the decks
        are keyed and their secrets backed up among them alone, and the game is made
        without it. With one seat left, that seat wins by forfeit. True (the table
        changed)."""
        seat = departure.seat
        author = self.seating[seat]
        name = self.lobby.names.get(author, "?")
        words = departure.words(self.who(author))
        self._ended.add(step.number)
        if len(self.seating) - len(self.out) == 1:
            self._own_dealer()  # the decks as they were: the audit has nothing dealt to check
            self._say("leave", f"{name} has left before the deal ({words})", seat)
            self._start_game()
            return True
        self._before_deal.add(seat)
        self.dealer = None
        self._bad_pieces.clear()
        again = StepKind.READY if step.kind == StepKind.READY else StepKind.KEYS
        self._say(
            "leave",
            f"{name} has left before the deal ({words}): the game goes on without {name}; "
            f"{'the start' if again == StepKind.READY else 'the keys'} again without {name}",
            seat,
        )
        self._next_step(again, self._remaining_authors())
        return True

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
        self._tell_game()
        self.events.append(TableEvent(kind, text, seat))

    def _tell_game(self) -> None:
        """Say the sentences the game told since the last ones said (its moves, what they
        changed, what chance showed it), each seat by its player's name; the figures behind
        a result (:attr:`ToldKind.DETAIL`) are left to the screens."""
        game = self.game
        if game is None:
            return
        told = game.narration(self._told)
        if told:
            self._told += len(told)
            names = [self.who(author) for author in self.seating]
            for sentence in told:
                if sentence.kind is not ToldKind.DETAIL:
                    said = sentence.told(names)
                    self.events.append(TableEvent(said.kind.value, said.text, said.seat))


class _Later(Rejection):
    """Not a rejection: the entry must wait for others before it can be checked."""

    def __init__(self) -> None:
        super().__init__(Reason.UNEXPECTED, "not yet")




def _coin_secret(flip: Flip) -> str:
    """The name this seat's value for a coin flip is kept under."""
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
