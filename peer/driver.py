"""The table: the game as a fold over every author's signed log.

A :class:`Table` is fed signed entries (:meth:`Table.receive`) in any order, any number of
times, and computes the same state as every other peer fed the same entries. It walks
through *steps*: at each one it knows which authors it waits for and what each must
publish, takes that from each author's log, checks it, and applies it whole or not at all.
Each kind of step is one rule of :mod:`condottiere.peer.steps` (the list of the steps is
there); the table keeps the loop: it takes an entry, asks the step's rule for its verdict,
applies it, and asks the one scheduler for the next step.

A step that waits for a seat has a deadline (the table definition's; :meth:`Table.deadline`):
past it, the owner calls :meth:`Table.declare_silent` and the table signs a silence statement
about each seat it still waits for, then runs the relay rounds on it: a seat is put out where
this peer decides it is, the same decision as every honest peer's (see
:mod:`condottiere.peer.silence`), or where its log says it leaves. A seat out
plays no more, and the game goes on without it: its hand leaves the game unseen, it shuffles
no more, and the others stand in for its decryption shares (every remaining seat publishes
its part, from its piece of the leaver's backed-up secret, with a proof; the parts are
combined, the leaver's secret is never rebuilt): for a deal under way, then right after the
verdict for every card of the decks that still needs its share (a ``rekey`` step), so that
no card needs it again (the next reshuffle takes its key off the cards that come back by
those shares, and the deck's new round is keyed, shuffled and dealt by the others alone); at
three seats or more still there, they back their secrets up again among themselves right
away (a ``redealing`` step), so that a second leaver is covered as the first was, down to
two seats. With one seat left, that seat wins by forfeit. Before the game is dealt, the
seats still at the table start again without it (the keys and their backups made among them
alone, the game made without it). A seat gone before the others re-keyed the decks without
the one before and backed their secrets up again (the stand-in needs every other seat), or
seats gone together, stop the table as abandoned, naming the seat.

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
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from google.protobuf.message import Message

from condottiere.crypto import Identity
from condottiere.interface import GameState, ToldKind
from condottiere.peer.coin import Coin, Flip
from condottiere.peer.dealing import Card, Dealer
from condottiere.peer.entries import (
    LogEntry,
    Reason,
    Rejection,
    heads_of,
    make_entry,
    read_entry,
    table_id_of,
)
from condottiere.peer.keeper import Keeper, MemoryKeeper
from condottiere.peer.lobby import Lobby, TableSpec, check_text
from condottiere.peer.logs import Logs, Suspicion
from condottiere.peer.silence import Departure
from condottiere.peer.steps import audit, coins, deal, leavers, moves, schedule, seating
from condottiere.peer.steps.base import (
    MAX_CHAT,
    After,
    Halt,
    Next,
    NotYet,
    Refusal,
    Refuse,
    Step,
    StepKind,
    TableEvent,
    Verdict,
    Work,
    rule_of,
)
from condottiere.peer.steps.seating import (
    MAX_JOINERS,
    SEATING,
    UNSEATED_BYTES,
    UNSEATED_ENTRIES,
)
from condottiere.v1 import log_pb2

__all__ = [
    "MAX_JOINERS",
    "UNSEATED_BYTES",
    "UNSEATED_ENTRIES",
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
LOBBY_ENTRIES = 8
"""The entries this peer signs, at most, while it has no seat (its join, chat lines, its
leave): well within what the others keep of it (:data:`UNSEATED_ENTRIES`)."""


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
        self.step: Step | None = Step(2, SEATING, (self.lobby.creator,))
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
        self.on_step: Callable[[Step], None] | None = None
        """Called with each step the table goes on to, as it begins: a trace's record."""
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
        self._statements: dict[tuple[int, int], dict[bytes, leavers.Stand]] = {}
        """(seat, step number) -> what each author stated about it (``leavers.note``)."""
        self.judge: bytes | None = None
        """Whose decisions on seats past a deadline the fold follows (see
        :mod:`condottiere.peer.silence`): None for this peer's own seat; ``verify`` sets the
        record's owner."""
        self._took: dict[tuple[int, int], bytes] = {}
        """(seat, step number) -> the signed answer this table took (an *answered* statement
        carries it)."""
        self._carried: dict[bytes, bool] = {}
        """Whether each *answered* statement checked carries the answer it speaks of."""
        self._unchecked: list[LogEntry] = []
        """*Answered* statements not checked yet (see ``leavers.check_statements``)."""
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

    def waiting(self) -> tuple[StepKind, tuple[int, ...], str] | None:
        """What the table waits for: the step's kind, the seats (or nothing, in the lobby)
        and a sentence; None when it waits for nothing."""
        step = self.step
        if step is None or self.halt is not None:
            return None
        seats = tuple(s for s in (self.seat_of(a) for a in step.missing) if s is not None)
        names = ", ".join(self.who(a) for a in step.missing)
        text = rule_of(step.kind).waiting_text(self, step, names)
        return step.kind, seats, text

    def progress(self) -> tuple[int, int] | None:
        """Done and total of the shuffle chain, the deal or the step of a search under way;
        None otherwise."""
        step = self.step
        if step is None or self.dealer is None:
            return None
        return rule_of(step.kind).progress(self, step)

    def deadline(self) -> int | None:
        """Seconds the current step gives the seats it waits for (the table definition's
        deadlines); None when no seat can be put out for silence now: in the lobby, once over,
        and at a coin reveal of three committers or more (a withheld reveal is the coin's own
        business: :mod:`condottiere.peer.coin`)."""
        step = self.step
        if step is None or self.halt is not None:
            return None
        return rule_of(step.kind).deadline(self, step, self.spec.deadlines)

    def declare_silent(self, waited: float) -> bool:
        """The owner's timer, called while ``waited`` seconds (by the owner's clock, since
        the step began) are past the step's :meth:`deadline`, at least once a second: start
        the relay rounds on every seat the step still waits for, and decide on those started
        (see :mod:`condottiere.peer.silence`); True if a statement was published."""
        published = leavers.declare_silent(self, waited, self.deadline())
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

    def receive(self, signed: bytes, source: str | None = None) -> Rejection | None:
        """Take in one signed entry as it arrived from ``source`` (the host that sent it; None:
        not over the wire); the rejection if it cannot even be read as an entry of this table,
        or comes from an author with no place at it (nobody is blamed: it is kept nowhere)."""
        if self.logs.holds(signed):
            return None
        entry = seating.read_at_door(self, signed, source)
        if isinstance(entry, Rejection):
            return entry
        self._add(entry)
        self._advance()
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
        try:
            move = moves.submitted(self, text)
        except moves.NotNow as refused:
            return str(refused)
        if self.forced_move() is None:  # else the only move: play_forced publishes it
            self._publish_move(move)
        return None

    def _publish_move(self, move: Any) -> None:
        step, game, dealer = self.step, self.game, self.dealer
        assert step is not None and game is not None and dealer is not None
        self._publish(moves.move_body(game, dealer, move), step.number)
        self._advance()

    def forced_move(self) -> int | None:
        """The turn of this seat's forced move awaited and held (see :attr:`hold_forced`), or
        None."""
        return moves.forced_turn(self)

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
        :func:`~condottiere.peer.steps.deal.verify_some`); True while more work of this kind
        remains."""
        if self.dealer is None or self.halt is not None or self._quiet:
            return False
        return deal.verify_some(self, slots)

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
        """Whether this peer may go without anyone waiting for it: every other seat still at
        the table holds its log up to its audit (:func:`~.steps.audit.seen_by_all`)."""
        return audit.seen_by_all(self)

    def give_up_waiting(self) -> bool:
        """Close the coin flip awaited, naming the reveals that did not come and giving this
        seat's pieces of their values (the owner calls it once its timeout expires); True when
        a close was published. See :mod:`condottiere.peer.coin`."""
        if not coins.give_up_waiting(self, self.step):
            return False
        self._advance()
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
            if accepted.kind == SEATING and accepted.author == self.lobby.creator:
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
        if entry.kind == SEATING:
            self._named.update(entry.body.authors)
        if entry.free:
            self._free(entry)
        return entry

    def _free(self, entry: LogEntry) -> None:
        kind = entry.kind
        if kind == "join":
            seating.take_join(self, entry)
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
            coins.take_close(self, entry)
        elif kind == "silence":
            leavers.take_statement(self, entry)

    # ------------------------------------------------------------------ the fold

    def _advance(self) -> None:
        while self.halt is None:
            audit.check_evidence(self)
            leavers.check_statements(self)
            coins.check_closes(self)
            if self.halt is not None or self.step is None:
                break
            if not self._work(self.step):
                self._refuse_strays()
                if not self._work(self.step):
                    break
        leavers.answer_statements(self)
        self._tell_game()

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
                if entry.kind == rule_of(step.kind).awaited(step) or not leavers.stated_me_out(
                    self, author, entry.step
                ):
                    self._cursor[author] = cursor
                    return entry
                break  # its table goes on without this seat: held until this seat is told
            stale = entry.step <= self._answered.get(author, 0)
            if not stale and leavers.went_apart(self, author, entry.step):
                break
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
            seating.refuse_unseated(self)

    def _work(self, step: Step) -> bool:
        """Take what the step needs from the logs (making this seat's part); True if anything
        changed."""
        departed = leavers.departures(self, step)
        if departed is not None:
            self._go(departed)
            return True
        changed = False
        for author in step.missing:
            entry = self._pending(author, step)
            if author in self._leaves:
                leave = self._leaves.pop(author)
                self._go(leavers.put_out(self, step, [leavers.departure_by_leave(self, leave)]))
                return True
            if entry is not None and leavers.holding(self, author, step):
                continue
            if entry is None and author == self.me and (self.catching_up or self._defers(step)):
                continue
            if entry is None and author == self.me and self._make(step):
                changed = True
                entry = self._pending(author, step)
            if entry is None:
                continue
            verdict = self._check(step, author, entry)
            if isinstance(verdict, NotYet):
                continue
            self._cursor[author] += 1
            changed = True
            if isinstance(verdict, Refuse):
                self._refuse(verdict.rejection, entry, author)
                if self.halt is not None:
                    return True
                continue
            self._consumed.add(entry.hash)
            self._took[(self.seating.index(author) if self.seating else -1, step.number)] = (
                entry.signed
            )
            step.answers[author] = entry
            self._answered[author] = step.number
        if self.halt is None:
            try:
                after = self._complete(step)
            except Rejection as rejection:
                self._refuse(rejection, self._answer_of(step, rejection.seat))
                return True
            if after is not None:
                self._go(after)
                changed = True
        return changed

    def _go(self, after: Next) -> None:
        """Go on to what follows a step: the step a rule names, or the one the scheduler gives
        (:mod:`condottiere.peer.steps.schedule`), or none."""
        if isinstance(after, Step):
            self.step = after
        elif after is After.GAME:
            assert self.step is not None
            self.step = schedule.next_step(self, self.step)
        elif after is After.END:
            self.step = None
        if self.step is not None and self.on_step is not None:
            self.on_step(self.step)

    def _make(self, step: Step) -> bool:
        """Publish this seat's part of ``step`` when it needs no decision; True if done."""
        body = self._entry_body(step)
        if body is None:
            return False
        self._publish(body, step.number)
        return True

    def _entry_body(self, step: Step) -> Message | None:
        """The body of this seat's entry for ``step`` (see ``StepRule.make``)."""
        return rule_of(step.kind).make(self, step)

    def _check(self, step: Step, author: bytes, entry: LogEntry) -> Verdict:
        """The verdict on ``author``'s answer to ``step`` (applied, for one-author steps)."""
        rule = rule_of(step.kind)
        awaited = rule.awaited(step)
        if entry.kind != awaited:
            return Refuse(
                Rejection(Reason.UNEXPECTED, f"a {awaited} entry is awaited, not a {entry.kind}")
            )
        return rule.check(self, step, author, entry)

    def _complete(self, step: Step) -> Next | None:
        """What follows ``step`` once every answer it needs is in; None before."""
        return rule_of(step.kind).complete(self, step)

    def _defers(self, step: Step) -> bool:
        costly = rule_of(step.kind).costly
        self.deferred = self.defer_costly and costly and bool(self.appended)
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

    def _seat_authors(self, seats: Sequence[int]) -> tuple[bytes, ...]:
        return tuple(self.seating[seat] for seat in seats)

    @contextmanager
    def _work_timed(self, work: Work, deck: int, seat: int | None) -> Iterator[None]:
        """Report the CPU the block used to :attr:`on_work` (nothing for ``seat`` None)."""
        if self.on_work is None or seat is None:
            yield
            return
        started = time.process_time()
        yield
        self.on_work(work, deck, seat, time.process_time() - started)

    def _remaining_authors(self) -> tuple[bytes, ...]:
        return tuple(a for s, a in enumerate(self.seating) if s not in self.out)

    @property
    def freeing(self) -> tuple[bytes, ...]:
        """The seated authors the creator's next seating frees, as this peer knows them
        (none unless seats were put out at the ready step: see ``seating.reseat``)."""
        if self._reseating is None:
            return ()
        return tuple(self.seating[seat] for seat in leavers.freeable(self, self._reseating))

    # ------------------------------------------------------------------ evidence and blame

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
            self._publish(audit.equivocation_evidence(rejection.evidence))

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

    def _halt_own(self, detail: str, seat: int, departure: Departure | None = None) -> None:
        """Stop for good where this peer's own seat can go no further."""
        self.halt = Halt(detail, self.me, seat, departure=departure)
        self._say("halt", detail, seat)
