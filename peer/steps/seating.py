"""Seating and the lobby door: who may write to the table before its game starts, the
creator's seating, every seat's ready, and seats freed when not ready in time.

The door turns away unheard an author whose log is full or who has no seat (the table is
seated, or its lobby is full, or its source holds :data:`UNSEATED_PER_SOURCE` authors without
a seat already): its entries are not kept, so nobody can fill a peer's memory.
Once the seating is final, the entries of an author without a seat are refused as they are
read, and once the game starts nothing of such an author is kept in memory.
"""

from __future__ import annotations

from typing import Protocol

from google.protobuf.message import Message

from condottiere import crypto
from condottiere.peer.entries import LogEntry, Reason, Rejection, read_entry
from condottiere.peer.limits import host_of, is_loopback, source_named
from condottiere.peer.lobby import Deadlines, TableSpec
from condottiere.peer.silence import Departure
from condottiere.peer.steps import keys, leavers
from condottiere.peer.steps.base import (
    ACCEPT,
    NOT_YET,
    Next,
    Step,
    StepKind,
    StepRule,
    Verdict,
    register,
)
from condottiere.v1 import log_pb2

SEATING = StepKind("seating")
"""The seating step: the creator seats the first joiners."""
READY = StepKind("ready")
"""The ready step: every seat agrees to the seating."""

MAX_JOINERS = 64
"""How many authors a lobby hears of, at most, before its game starts (refused and freed ones
leave the count at once)."""
UNSEATED_PER_SOURCE = 4
"""How many authors without a seat one source (a host on the LAN) may make this peer keep at
once: a few players on one machine, never enough for one stranger's throw-away keys to fill
:data:`MAX_JOINERS` (16 sources are needed for that). The loopback, this machine's own
processes, is not bounded so."""
UNSEATED_ENTRIES = 24
UNSEATED_BYTES = 64 << 10
"""What this peer keeps, at most, of the log of an author without a seat while the table
fills (entries held ahead of a gap included): a join, a few chat lines, a leave; and of a
seat whose seating has not reached this peer yet, also its ready and its silence
statements. More is not kept (nobody is blamed: a seat's entries come again once this peer
sees it seated). With :data:`MAX_JOINERS`, what strangers can make a peer keep before the
game starts is bounded (about 4 MiB)."""


class Context(leavers.Context, Protocol):
    """What the lobby's rules see of the table."""

    spec: TableSpec
    turned_away: set[bytes]
    ask_again: bool
    _named: set[bytes]
    _want_ready: bool
    _cursor: dict[bytes, int]

    @property
    def freeing(self) -> tuple[bytes, ...]: ...


def door(t: Context, entry: LogEntry, source: str | None = None) -> Rejection | None:
    """Why an author is turned away unheard: its log is full (see ``condottiere.peer.logs``),
    or it has no seat (the table is seated, or its lobby is full: an author the creator's
    owner admitted is let in all the same). Its entries are not kept, so nobody can fill a
    peer's memory. ``source``: the host the entry came from (None: not over the wire, or from
    a record), which a new author without a seat is held to (:func:`_new_from`)."""
    return turned_away_unheard(t, entry.author) or _turned_away_heard(t, entry, source)


def read_at_door(t: Context, signed: bytes, source: str | None) -> LogEntry | Rejection:
    """An entry that arrived from ``source``, read and let in by :func:`door`; else why
    not. The author's refusals that need nothing of the entry come before its signature is
    checked: an author turned away whatever it signs costs no check."""
    try:
        entry = read_entry(
            signed, table_id=t.table_id, refuse=lambda author: turned_away_unheard(t, author)
        )
    except Rejection as rejection:
        return rejection
    return _turned_away_heard(t, entry, source) or entry


def _turned_away_heard(t: Context, entry: LogEntry, source: str | None) -> Rejection | None:
    """The rest of :func:`door`, once :func:`turned_away_unheard` let the author by."""
    author = entry.author
    if t.lobby.closed:
        return None
    if (
        author == t.lobby.creator or author in t.seating or author in t._named
        or author in t.lobby.admitted
    ):
        return None
    entries, size = t.logs.kept(author)
    if not entries and source is not None:
        stranger = _new_from(t, entry, source)
        if stranger is not None:
            t.turned_away.add(author)
            return stranger
    counted = [a for a in t.logs.kept_authors if a not in t.lobby.freed]
    if not entries and len(counted) >= MAX_JOINERS + 1:
        return Rejection(
            Reason.NOT_SEATED, f"the lobby already holds {MAX_JOINERS} joiners", author=author
        )
    full = entries >= UNSEATED_ENTRIES or size + len(entry.signed) > UNSEATED_BYTES
    if full and entry.seq == t.logs.next_seq(author):
        t.logs.drop_held(author)  # the entry that fills the gap comes first
        entries, size = t.logs.kept(author)
        full = entries >= UNSEATED_ENTRIES or size + len(entry.signed) > UNSEATED_BYTES
    if full:
        t.turned_away.add(author)
        return Rejection(
            Reason.TOO_LARGE,
            f"an author without a seat has {UNSEATED_ENTRIES} entries or"
            f" {UNSEATED_BYTES >> 10} KiB kept here at most",
            author=author,
        )
    if not entries and source is not None:
        t.lobby.heard_from[author] = source_named(source)
    return None


def turned_away_unheard(t: Context, author: bytes) -> Rejection | None:
    """Why an author is turned away whatever its entry says (its log is full, it has no seat
    at a seated table, or it was refused or freed): asked before the entry's signature is
    checked (:func:`read_at_door`), and first by :func:`door`."""
    if author in t.logs.full:
        return Rejection(Reason.TOO_LARGE, "the author's log is full", author=author)
    if t.lobby.closed:
        if author not in t.seating:
            return Rejection(
                Reason.NOT_SEATED, "the author has no seat at this table", author=author
            )
        return None
    if author in t.lobby.refused:
        return Rejection(Reason.NOT_SEATED, "the author was refused a seat", author=author)
    if author in t.lobby.freed:
        return Rejection(Reason.NOT_SEATED, "the author's seat was freed", author=author)
    return None


def _new_from(t: Context, entry: LogEntry, source: str) -> Rejection | None:
    """Why a new author without a seat is not taken from ``source``: it is heard of first by
    its join, from the host the join names (so it is counted against the source it really
    comes from: a relay of another's join is not taken, it comes from its own host), and a
    source is held to :data:`UNSEATED_PER_SOURCE` such authors (the loopback excepted)."""
    author = entry.author
    if entry.kind != "join" or source_named(host_of(entry.body.address)) != source_named(source):
        return Rejection(
            Reason.NOT_SEATED,
            "an author without a seat is taken from the host its join names, join first",
            author=author,
        )
    named = source_named(source)
    if is_loopback(named):
        return None
    lobby = t.lobby
    kept = set(t.logs.kept_authors)
    held = [
        a for a, heard in lobby.heard_from.items()
        if heard == named and a in kept and a not in lobby.freed and a not in lobby.refused
        and a not in t.seating and a not in t._named and a not in lobby.admitted
    ]
    if len(held) >= UNSEATED_PER_SOURCE:
        return Rejection(
            Reason.NOT_SEATED,
            f"{UNSEATED_PER_SOURCE} authors without a seat from {named} are kept here already",
            author=author,
        )
    return None


def refuse_unseated(t: Context) -> None:
    """Once the seating is final, refuse every entry of an author without a seat (a freed
    seat's late ready excepted), as it is read."""
    for author in t.logs.authors:
        if author not in t.seating:
            _refuse_entries_of(t, author)


def forget_unseated(t: Context) -> None:
    """Once the game starts, keep nothing in memory of the other authors without a seat
    (their entries stay in the keeper, for the record): their logs and the heads they
    claimed."""
    for author in t.logs.authors:
        if author not in t.seating and author != t.me:
            _refuse_entries_of(t, author)
            if author not in t.lobby.freed:  # a seating names it: its join is needed
                t.logs.forget(author)
    t.logs.forget_claims(t.seating)


def _refuse_entries_of(t: Context, author: bytes) -> None:
    log = t.logs.log(author)
    cursor = t._cursor.get(author, 0)
    while cursor < len(log):
        entry = log[cursor]
        if not entry.free and entry.step not in t._ended:  # else a freed seat's late ready
            t._refuse(
                Rejection(Reason.NOT_SEATED, "the author has no seat", author=author), entry
            )
        cursor += 1
    t._cursor[author] = cursor


def take_join(t: Context, entry: LogEntry) -> None:
    """Take a join (a free entry): the lobby holds it, and the creator's owner is asked to
    admit or refuse its author where the table is not open; once the table is seated, a seat
    that asks again is refused."""
    if t.lobby.closed:
        if entry.seq != 0:
            t._refuse(
                Rejection(Reason.UNEXPECTED, "asks for a seat again, once seated"),
                entry,
                entry.author,
            )
        return
    try:
        t.lobby.add_join(entry)
    except Rejection as rejection:
        t._refuse(rejection, entry)
        return
    if entry.author in t.lobby.pending and t.me == t.lobby.creator:
        fingerprint = crypto.PublicIdentity(entry.author).fingerprint()
        t._say(
            "ask",
            f"{entry.body.player} ({fingerprint}) asks for a seat: admit or refuse them",
        )
    elif entry.author in t.lobby.joins:
        t._say("join", f"{entry.body.player} asks for a seat")


class SeatingRule(StepRule):
    """The creator seats the first joiners (or, once seats were freed, the next ones)."""

    kind = SEATING
    words = "the seating"
    doing = "Seating the players"
    about = "the creator seats the players who asked"
    stage = "lobby"

    def waiting_text(self, t: Context, step: Step, names: str) -> str:
        if t._reseating is not None:
            return "a player to take the freed seat"
        return f"players to join ({len(t.lobby.joins) + 1} of {t.spec.seats})"

    def deadline(self, t: Context, step: Step, deadlines: Deadlines) -> int | None:
        return None

    def make(self, t: Context, step: Step) -> Message | None:
        seating = t.lobby.seating_for(t.freeing)
        if seating is None:
            return None
        return log_pb2.Seating(authors=list(seating))

    def judge(self, t: Context, step: Step, author: bytes, entry: LogEntry) -> Verdict:
        authors = t.lobby.check_seating(entry)
        if t.lobby.missing_joins(entry.body):
            return NOT_YET  # seated authors not heard of yet: wait for their joins
        freed: list[tuple[bytes, Departure]] = []
        if t._reseating is not None:
            reseated = leavers.check_reseating(t, authors)
            if reseated is None:
                return NOT_YET
            freed = reseated
        t.lobby.seat(entry, authors)
        if t.turned_away & set(authors):
            t.ask_again = True
        t.turned_away.clear()
        if freed:
            leavers.free_seats(t, freed, authors)
        t._seated_at = step.number
        t.logs.forget_claims((*t.seating, *t.lobby.joins))
        return ACCEPT

    def finish(self, t: Context, step: Step) -> Next:
        names = ", ".join(t.who(a) for a in t.seating)
        t._say("seated", f"the table is full: {names}")
        return step.then(READY, t.seating)


class ReadyRule(StepRule):
    """Every seat agrees to the seating."""

    kind = READY
    words = "the start"
    doing = "Starting the game"
    about = "every seat agrees to the seating"
    stage = "lobby"

    def waiting_text(self, t: Context, step: Step, names: str) -> str:
        return f"{names} to be ready"

    def deadline(self, t: Context, step: Step, deadlines: Deadlines) -> int | None:
        return deadlines.ready

    def make(self, t: Context, step: Step) -> Message | None:
        if not t._want_ready:
            return None
        return log_pb2.Ready(seating=t.lobby.seating_hash)

    def judge(self, t: Context, step: Step, author: bytes, entry: LogEntry) -> Verdict:
        if entry.body.seating != t.lobby.seating_hash:
            raise Rejection(Reason.UNEXPECTED, "ready for another seating")
        return ACCEPT

    def finish(self, t: Context, step: Step) -> Next:
        t.lobby.close()
        forget_unseated(t)
        t._say("ready", "everyone is ready: the deck is being prepared")
        return step.then(keys.KEYS, t._remaining_authors())


register(SeatingRule(), ReadyRule())
