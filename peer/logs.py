"""The logs of one table: one append-only, hash-chained log per author.

Entries may arrive in any order and more than once. An entry that follows its author's log
is appended (with any held entries that then follow it); one from further ahead is held
until the gap is filled; a copy of an entry already there is ignored. An entry that does not
chain onto its predecessor is refused, and a second, different entry at a sequence number
already taken is a proof of equivocation: both signed entries are the evidence.

Every entry also names what its author had seen of the other logs (its heads). A head that
disagrees with the entry this peer holds at that place is a *suspicion*: somebody was shown
another version of that log. :attr:`Logs.suspicions` lists them so that the peer can fetch
the other version (from the author of the head) and turn the suspicion into a proof.

>>> from condottiere.crypto import Identity
>>> from condottiere.v1 import log_pb2
>>> from condottiere.peer.entries import make_entry
>>> me, table = Identity.generate(), b"T" * 16
>>> first = make_entry(me, table, 0, b"", step=0, heads=(), body=log_pb2.Chat(text="a"))
>>> second = make_entry(me, table, 1, first.hash, step=0, heads=(), body=log_pb2.Chat(text="b"))
>>> logs = Logs(table)
>>> logs.add(second), logs.add(first) == [first, second], logs.add(first)
([], True, [])
>>> len(logs.log(me.public.raw))
2
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from condottiere.peer.entries import LogEntry, Reason, Rejection

__all__ = [
    "MAX_CLAIMS",
    "MAX_HELD_BYTES",
    "MAX_LOG_BYTES",
    "MAX_LOG_ENTRIES",
    "Logs",
    "Suspicion",
]

MAX_CLAIMS = 256
"""Heads of entries not held yet that one author's entries may have this peer remember (to
compare once the entry comes); more are not remembered."""
MAX_LOG_ENTRIES = 8192
MAX_LOG_BYTES = 8 << 20
"""The most one author's log may hold at one table (a whole game is a few hundred entries
and well under a megabyte): an author that floods its log stops at the same entry on every
peer, and no peer holds more of it."""
MAX_HELD_BYTES = MAX_LOG_BYTES
"""How many bytes of entries from ahead of an author's log are held, at most, per author
(more could never fit in its log)."""


@dataclass(frozen=True)
class Suspicion:
    """``witness`` says (in a signed head) that ``author``'s entry ``seq`` has hash ``claimed``,
    which is not the entry held here."""

    author: bytes
    seq: int
    claimed: bytes
    witness: bytes


class Logs:
    """Every author's log of the table ``table_id`` that this peer holds."""

    def __init__(self, table_id: bytes) -> None:
        self.table_id = table_id
        self._logs: dict[bytes, list[LogEntry]] = {}
        self._held: dict[bytes, dict[int, LogEntry]] = {}
        self._held_bytes: dict[bytes, int] = {}
        self._claims: dict[tuple[bytes, int], dict[bytes, bytes]] = {}
        self._claims_by: dict[bytes, int] = {}
        """How many of the heads remembered each witness claimed."""
        self.suspicions: list[Suspicion] = []
        """Heads that disagree with the entries held here, oldest first (see the module)."""
        self.forks: list[Rejection] = []
        """Equivocations found among held entries while appending others (see :meth:`add`)."""
        self._bytes: dict[bytes, int] = {}
        self._signed: set[bytes] = set()
        self.full: set[bytes] = set()
        """Authors whose log reached ``MAX_LOG_ENTRIES`` or ``MAX_LOG_BYTES``: nothing more of
        theirs is taken."""

    @property
    def authors(self) -> tuple[bytes, ...]:
        """Every author with at least one entry, in the order their first entry came."""
        return tuple(author for author, log in self._logs.items() if log)

    @property
    def kept_authors(self) -> tuple[bytes, ...]:
        """Every author of whom anything is kept: in its log, or held ahead of a gap."""
        held = [author for author, entries in self._held.items() if entries]
        return tuple(dict.fromkeys([*self.authors, *held]))

    def kept(self, author: bytes) -> tuple[int, int]:
        """How many entries of ``author``, and how many bytes, are kept here (held ahead of
        a gap included)."""
        log, held = self._logs.get(author, ()), self._held.get(author, {})
        return len(log) + len(held), self._bytes.get(author, 0) + self._held_bytes.get(author, 0)

    def log(self, author: bytes) -> Sequence[LogEntry]:
        """``author``'s log from its first entry, as far as it is held without a gap."""
        return self._logs.get(author, ())

    def __len__(self) -> int:
        return sum(len(log) for log in self._logs.values())

    def heads(self) -> dict[bytes, tuple[int, bytes]]:
        """The last entry held of every log: author -> (seq, hash)."""
        return {author: (log[-1].seq, log[-1].hash) for author, log in self._logs.items() if log}

    def next_seq(self, author: bytes) -> int:
        return len(self._logs.get(author, ()))

    def holds(self, signed: bytes) -> bool:
        """Whether these exact signed bytes are an entry of a log here: a copy, which changes
        nothing and need not even be read (a copy fetched from another peer, or relayed
        before the table was seated)."""
        return signed in self._signed

    def add(self, entry: LogEntry) -> list[LogEntry]:
        """Take in an entry (already read and signature-checked for this table).

        Returns the entries appended to the author's log, in order: none for a copy or for an
        entry held until the gap before it is filled. Raises :class:`Rejection` for an
        equivocation (with both entries as evidence), or an entry that would take the log
        past its limits, before changing anything; a held entry found to fork the log while
        others are appended is not appended, and its rejection goes to :attr:`forks`.
        """
        if entry.entry.table_id != self.table_id:
            raise Rejection(Reason.WRONG_TABLE, "the entry is for another table")
        author, seq = entry.author, entry.seq
        log = self._logs.setdefault(author, [])
        if seq < len(log):
            self._check_same(log[seq], entry)
            return []
        held = self._held.setdefault(author, {})
        if seq > len(log):
            if seq in held:
                self._check_same(held[seq], entry)
                return []
            size = self._held_bytes.get(author, 0) + len(entry.signed)
            if size > MAX_HELD_BYTES:
                return []  # far ahead of a gap: asked for again once the gap is filled
            held[seq] = entry
            self._held_bytes[author] = size
            return []
        self._check_room(log, entry)
        self._check_chain(log, entry)
        appended = []
        following: LogEntry | None = entry
        while following is not None:
            log.append(following)
            self._signed.add(following.signed)
            self._bytes[author] = self._bytes.get(author, 0) + len(following.signed)
            appended.append(following)
            self._witness(following)
            following = held.pop(len(log), None)
            if following is not None:
                self._held_bytes[author] -= len(following.signed)
                try:
                    self._check_room(log, following)
                    self._check_chain(log, following)
                except Rejection as refused:  # found while taking in another entry: not raised
                    if refused.reason is Reason.EQUIVOCATION:
                        self.forks.append(refused)
                    following = None
        return appended

    def _check_room(self, log: list[LogEntry], entry: LogEntry) -> None:
        size = self._bytes.get(entry.author, 0) + len(entry.signed)
        if len(log) >= MAX_LOG_ENTRIES or size > MAX_LOG_BYTES:
            self.full.add(entry.author)
            self._held.pop(entry.author, None)
            self._held_bytes.pop(entry.author, None)
            raise Rejection(
                Reason.TOO_LARGE,
                f"the log is full ({MAX_LOG_ENTRIES} entries or {MAX_LOG_BYTES >> 20} MiB)",
                author=entry.author,
            )

    def _check_same(self, kept: LogEntry, arrived: LogEntry) -> None:
        if kept.raw != arrived.raw:
            raise Rejection(
                Reason.EQUIVOCATION,
                f"two different entries with sequence number {kept.seq}",
                author=kept.author,
                evidence=(kept.signed, arrived.signed),
            )

    def _check_chain(self, log: list[LogEntry], entry: LogEntry) -> None:
        if not log and entry.entry.previous:
            raise Rejection(Reason.MALFORMED, "a first entry names no previous entry")
        if log and entry.entry.previous != log[-1].hash:
            # the author signed this entry after another version of its predecessor: a fork
            self._held.pop(entry.author, None)
            self._held_bytes.pop(entry.author, None)
            raise Rejection(
                Reason.EQUIVOCATION,
                f"entry {entry.seq} follows another entry {entry.seq - 1} than the one held",
                author=entry.author,
                evidence=(log[-1].signed, entry.signed),
            )

    def drop_held(self, author: bytes) -> None:
        """Hold none of ``author``'s entries from ahead of a gap any more (room for the entry
        that fills the gap: they come again)."""
        self._held.pop(author, None)
        self._held_bytes.pop(author, None)

    def forget(self, author: bytes) -> None:
        """Hold nothing more of ``author``'s log (an author with no seat)."""
        for entry in self._logs.pop(author, []):
            self._signed.discard(entry.signed)
        self._held.pop(author, None)
        self._held_bytes.pop(author, None)
        self._bytes.pop(author, None)

    def forget_claims(self, keep: Sequence[bytes]) -> None:
        """Forget the heads claimed by every author but those of ``keep`` (the seated ones:
        nobody else has a say once the table is seated)."""
        for place, claims in list(self._claims.items()):
            for digest, witness in list(claims.items()):
                if witness not in keep:
                    del claims[digest]
            if not claims:
                del self._claims[place]
        self._claims_by = {w: n for w, n in self._claims_by.items() if w in keep}

    def _witness(self, entry: LogEntry) -> None:
        """Compare ``entry``'s heads with what is held, and what others said of ``entry``."""
        for claimed, witness in self._claims.pop((entry.author, entry.seq), {}).items():
            self._claims_by[witness] -= 1
            if claimed != entry.hash:
                self.suspicions.append(Suspicion(entry.author, entry.seq, claimed, witness))
        for other, (seq, digest) in entry.heads().items():
            log = self._logs.get(other, [])
            if seq < len(log):
                if log[seq].hash != digest:
                    self.suspicions.append(Suspicion(other, seq, digest, entry.author))
            elif self._claims_by.get(entry.author, 0) < MAX_CLAIMS:
                claims = self._claims.setdefault((other, seq), {})
                if digest not in claims:
                    claims[digest] = entry.author
                    self._claims_by[entry.author] = self._claims_by.get(entry.author, 0) + 1
