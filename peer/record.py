"""A game's record: every signed entry of every log in one file, and its verification.

``condottiere export`` writes a table's entries to one file (a ``GameRecord``);
``condottiere verify`` folds them again as a peer with no seat would: every signature, every
chain, every proof, every move against the rules; with the seats' audit secrets, every card
of the game is decrypted and checked against what was shown of it, and the game is replayed
by the game's omniscient rules with every hand known. The verdict says plainly whether the game was
fair and, if not, who cheated where. It names the table by its id and every seat by its key's
fingerprint (a record is only as fair as its players are who they say: one person holding
several keys can fill several seats, and the fingerprints are how players tell), and the
seats whose audit secrets are missing. A record may hold an entry more than once: the copies
are dropped.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from google.protobuf.message import DecodeError

from condottiere.crypto import Identity, PublicIdentity
from condottiere.interface import Choice, GameState, OutcomeKind, game_named
from condottiere.interface.events import (
    Chosen,
    Dealt,
    HandProved,
    HandShown,
    MovePlayed,
    Searched,
    SeatLeft,
    event_from_json,
)
from condottiere.peer.driver import Halt, MemoryKeeper, Refusal, Table
from condottiere.peer.entries import LogEntry, Rejection, read_entry
from condottiere.peer.silence import Departure
from condottiere.peer.steps import leavers
from condottiere.peer.steps.audit import AUDIT
from condottiere.v1 import log_pb2

__all__ = [
    "Verdict",
    "export",
    "load",
    "omniscient_record",
    "owner_of",
    "replay_states",
    "table_order",
    "verify",
]

MAX_RECORD_BYTES = 256 << 20


def export(entries: Sequence[LogEntry], path: Path, owner: bytes | None = None) -> Path:
    """Write ``entries`` (a table's, the definition first) to ``path``, with the ``owner``
    whose peer kept them (``verify`` folds as that peer did)."""
    record = log_pb2.GameRecord(
        entries=[log_pb2.SignedEntry.FromString(entry.signed) for entry in entries],
        owner=owner or b"",
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(record.SerializeToString())
    return path


def load(path: Path) -> list[bytes]:
    """The signed entries of a record file; ValueError if it is not one."""
    return _read(path).entries_bytes


def owner_of(path: Path) -> bytes | None:
    """The author whose peer kept a record file (None for a record that does not say);
    ValueError if it is not one."""
    return _read(path).owner


@dataclass(frozen=True)
class _Record:
    entries_bytes: list[bytes]
    owner: bytes | None


def _read(path: Path) -> _Record:
    data = path.read_bytes()
    if len(data) > MAX_RECORD_BYTES:
        raise ValueError(f"{path} is too large for a game record")
    try:
        record = log_pb2.GameRecord.FromString(data)
    except DecodeError:
        raise ValueError(f"{path} is not a condottiere game record") from None
    if not record.entries:
        raise ValueError(f"{path} holds no entries")
    return _Record([entry.SerializeToString() for entry in record.entries],
                   record.owner or None)


@dataclass(frozen=True)
class Verdict:
    """What a record shows."""

    table: Table
    """The table as a peer with no seat folds it."""
    unreadable: tuple[str, ...]
    """Entries that are not signed entries of this table (nobody can be blamed for them)."""
    duplicates: int
    """How many entries the record held more than once (the copies dropped)."""
    replayed: dict[str, Any] | None
    """The game's record with every hand known, replayed by the game's omniscient rules
    (when every seat revealed its secrets)."""

    @property
    def _moves_replayed(self) -> int:
        assert self.replayed is not None
        events = map(event_from_json, self.replayed["events"])
        return sum(isinstance(event, MovePlayed) for event in events)

    @property
    def halt(self) -> Halt | None:
        return self.table.halt

    @property
    def refusals(self) -> tuple[Refusal, ...]:
        return tuple(self.table.refusals)

    @property
    def finished(self) -> bool:
        return self.table.game is not None and self.table.game.outcome is not None

    @property
    def missing_audits(self) -> tuple[bytes, ...]:
        """The seats' authors whose audit secrets the audit still waits for."""
        step = self.table.step
        return step.missing if step is not None and step.kind == AUDIT else ()

    @property
    def departures(self) -> tuple[Departure, ...]:
        """The seats put out (silent past a deadline, or left), in seat order."""
        return tuple(self.table.out[seat] for seat in sorted(self.table.out))

    @property
    def audited_without_leavers(self) -> bool:
        """The game finished without some seats, and the seats that stayed passed the audit
        of what each did (their secrets, their shares): nothing unfair was found, though the
        leavers' cards cannot be named."""
        return (
            bool(self.departures)
            and self.halt is None
            and not self.refusals
            and self.finished
            and self.table.step is None
        )

    @property
    def fair(self) -> bool:
        """No cheat was found, the game finished, and the audit checked every card."""
        return (
            self.halt is None
            and not self.refusals
            and self.finished
            and self.table.cards is not None
            and self.replayed is not None
        )

    def lines(self) -> list[str]:
        """The verdict in plain words."""
        table = self.table
        spec = table.spec
        lines = [
            f"table {spec.name!r}: {game_named(spec.game).title}, {spec.edition}, "
            f"{spec.seats} seats, "
            f"{sum(len(table.logs.log(a)) for a in table.logs.authors)} signed entries",
            f"table id {table.table_id.hex()}",
        ]
        players = table.seating or (table.lobby.creator, *table.lobby.joins)
        lines += [
            f"  {table.who(author)}, key {PublicIdentity(author).fingerprint()}"
            for author in players
        ]
        if self.duplicates:
            lines.append(f"{self.duplicates} duplicated entries dropped")
        lines += [f"unreadable message: {text}" for text in self.unreadable]
        for refusal in self.refusals:
            lines.append(f"CHEAT by {table.who(refusal.author)}: {refusal.reason.value}: "
                         f"{refusal.detail}")
        for name, freed in table.freed:
            lines.append(f"freed: {freed.words(f'seat {freed.seat} ({name})')}")
        for departure in self.departures:
            if self.halt is None or self.halt.departure != departure:
                lines.append(f"left: {departure.words(table.who(table.seating[departure.seat]))}")
        if self.halt is not None:
            if self.halt.abandoned:
                lines.append(self.halt.detail)
            else:
                lines.append(f"{'CHEAT' if self.halt.cheat else 'STOPPED'}: {self.halt.detail}")
        outcome = None if table.game is None else table.game.outcome
        if outcome is not None:
            winners = " and ".join(table.who(table.seating[s]) for s in outcome.winners)
            lines.append(
                f"the game was played to its end: {winners or 'nobody'} won ({outcome.how})"
            )
        elif self.halt is None:
            lines.append("the game is not finished")
        if self.missing_audits:
            missing = ", ".join(table.who(author) for author in self.missing_audits)
            lines.append(f"no audit secrets from {missing}: the cards cannot be audited")
        if self.audited_without_leavers and table.rekeyed_cards:
            gone = " and ".join(table.who(table.seating[d.seat]) for d in self.departures)
            lines.append(
                f"audit of the decks keyed again without {gone}: every shuffle, share and card "
                f"checks out ({len(table.rekeyed_cards)} cards)"
            )
        if self.replayed is not None:
            lines.append(
                f"audit: every shuffle, share and card checks out; the game replays with "
                f"every hand known ({self._moves_replayed} moves)"
            )
        lines.append(f"record hash {table.record_hash()}")
        lines.append(f"verdict: {self.verdict_words()}")
        return lines

    def verdict_words(self) -> str:
        """``FAIR``, ``FORFEIT …``, ``ABANDONED …`` or ``NOT SHOWN FAIR``."""
        table = self.table
        if self.fair:
            if self.departures:  # seats out before the deal: every card is audited all the same
                gone = " and ".join(table.who(table.seating[d.seat]) for d in self.departures)
                return f"FAIR, played without {gone} (out before the deal)"
            return "FAIR"
        if self.halt is not None and self.halt.departure is not None:
            return f"ABANDONED by {table.who(self.halt.author)}"
        if self.audited_without_leavers:
            gone = " and ".join(table.who(table.seating[d.seat]) for d in self.departures)
            outcome = None if table.game is None else table.game.outcome
            how = "FORFEIT" if outcome is not None and outcome.kind is OutcomeKind.FORFEIT else (
                "FINISHED")
            dealer = table.dealer
            if dealer is not None and not dealer.dealt:
                return f"{how} without {gone}: nothing unfair found (no card was dealt)"
            return (
                f"{how} without {gone}: nothing unfair found (the cards cannot be named "
                f"without the secrets of {gone})"
            )
        return "NOT SHOWN FAIR"


def table_order(entries: Sequence[LogEntry]) -> list[LogEntry]:
    """``entries`` in the order the table lived them: an entry after every entry its author
    had seen when signing it (the earlier entries of its own log and the heads it names of
    the others), and of the entries that could come next the one of the earliest step
    first (an entry that answers no step, such as a chat line, at the step of its author's
    entry before it), then the earliest in the record. So a chat line sent mid-game is told
    mid-game, and a seat's join before the game it joined. Entries whose order nothing
    says (a head no entry of the record has) keep the record's order; a circle of claims
    (which only forged heads could make) is broken at the earliest of the record.

    >>> table_order([])
    []
    """
    by_hash = {entry.hash: entry for entry in entries}
    position = {entry.hash: index for index, entry in enumerate(entries)}
    after: dict[bytes, set[bytes]] = {entry.hash: set() for entry in entries}
    by_place = {(entry.author, entry.seq): entry.hash for entry in entries}
    for entry in entries:
        earlier = by_place.get((entry.author, entry.seq - 1))
        if earlier is not None and earlier != entry.hash:
            after[entry.hash].add(earlier)
        for _, head in entry.heads().values():
            if head in by_hash and head != entry.hash:
                after[entry.hash].add(head)
    step: dict[bytes, int] = {}
    for entry in sorted(entries, key=lambda e: (e.author, e.seq)):
        before = by_place.get((entry.author, entry.seq - 1))
        inherited = step.get(before, 0) if before is not None else 0
        step[entry.hash] = inherited if entry.free else entry.step
    waiting = {digest: len(needs) for digest, needs in after.items()}
    needed_by: dict[bytes, list[bytes]] = {digest: [] for digest in after}
    for digest, needs in after.items():
        for need in needs:
            needed_by[need].append(digest)
    ready = [(step[d], position[d], d) for d, count in waiting.items() if count == 0]
    heapq.heapify(ready)
    ordered: list[LogEntry] = []
    placed: set[bytes] = set()
    while len(ordered) < len(entries):
        if not ready:
            digest = min((d for d in after if d not in placed), key=position.__getitem__)
            ready.append((step[digest], position[digest], digest))
        _, _, digest = heapq.heappop(ready)
        if digest in placed:
            continue
        placed.add(digest)
        ordered.append(by_hash[digest])
        for later in needed_by[digest]:
            waiting[later] -= 1
            if waiting[later] == 0 and later not in placed:
                heapq.heappush(ready, (step[later], position[later], later))
    return ordered


def verify(signed_entries: Sequence[bytes], owner: bytes | None = None) -> Verdict:
    """Fold a record's entries (each once, in the table's order: :func:`table_order`) as a
    peer with no seat that follows the decisions of ``owner`` (the author whose peer kept
    the record) on seats past a deadline, as that peer's own fold did live (see
    :mod:`condottiere.peer.silence`); without an owner, the creator's (as a peer without a
    seat does: ``leavers.judge_of``). The verdict. ValueError when the record holds no table
    definition that can be read, or the definitions of several tables."""
    unique = list(dict.fromkeys(signed_entries))
    unreadable = []
    entries = []
    for signed in unique:
        try:
            entries.append(read_entry(signed))
        except Rejection as rejection:
            unreadable.append(str(rejection))
    definitions = [e for e in entries if e.kind == "table" and e.seq == 0]
    if not definitions:
        reasons = "; ".join(dict.fromkeys(unreadable))
        raise ValueError(
            "the record holds no table definition that can be read"
            + (f" (unreadable: {reasons})" if reasons else "")
        )
    tables = {definition.entry.table_id for definition in definitions}
    if len(tables) > 1:
        raise ValueError(f"the record holds the definitions of {len(tables)} tables, not one")
    table = Table(Identity.generate(), definitions[0], MemoryKeeper(), auto_ready=False)
    table.judge = owner
    by_author: dict[bytes, list[LogEntry]] = {}
    for entry in sorted(entries, key=lambda e: e.seq):
        by_author.setdefault(entry.author, []).append(entry)
    for entry in entries:  # the decisions, known before the steps they decide come
        if entry.kind == "silence":
            log = by_author[entry.author]
            leavers.note(table, entry, [e for e in log if e.seq < entry.seq])
    for entry in table_order(entries):
        refused = table.receive(entry.signed)
        if refused is not None:
            unreadable.append(str(refused))
    replayed = omniscient_record(table) if table.cards is not None else None
    return Verdict(table, tuple(unreadable), len(signed_entries) - len(unique), replayed)


def omniscient_record(table: Table) -> dict[str, Any]:
    """The game's record with every dealt card named (from the audit), replayed by the
    game's omniscient rules: they rebuild the same game."""
    *_, full = _omniscient_events(table)  # the same game each time: as the last event left it
    record = full.record()
    replayed = table.rules.replay(record)
    if replayed.outcome != table.game.outcome:  # type: ignore[union-attr]
        raise ValueError("the replayed game has another outcome")
    return record


def replay_states(table: Table) -> list[GameState[Any]]:
    """The game as the audit shows it (every hand known): before its first move (once the
    first hands are dealt), then after each move, with the chance that follows it (a deal,
    a fair choice) resolved: ``states[n]`` after ``n`` moves (a move the rules force, played
    by itself with the one before it, shows as that one does). Copies; ValueError when the
    game has no audit."""
    states: list[GameState[Any]] = []
    for full in _omniscient_events(table):
        shown = full.copy()
        if full.moves_played < len(states):
            states[-1] = shown
        while full.moves_played >= len(states):  # a forced move plays itself with another
            states.append(shown)
    return states


def _omniscient_events(table: Table) -> Iterator[GameState[Any]]:
    """The omniscient game after each event of the table's game (a deal, a choice, a search
    of the deck, a move, a seat leaving), the same object each time."""
    game, dealer, cards = table.game, table.dealer, table.cards
    if game is None or dealer is None or cards is None:
        raise ValueError("the game has no audit yet")
    full = table.rules.omniscient(table.spec.rules)
    deals = iter(dealer.dealt)
    moves = 0
    for event in game.events:
        if isinstance(event, Dealt):
            full.resolve([cards[card] for card in next(deals)])
        elif isinstance(event, Chosen):
            if not isinstance(full.waiting, Choice):
                raise ValueError(f"the record does not replay at {event}")
            full.resolve(event.seat)
        elif isinstance(event, SeatLeft):
            full.remove_seat(event.seat)
        elif isinstance(event, Searched):  # every table resolves it alike
            full.resolve((event.card,) if event.found else ())
        elif isinstance(event, HandShown):
            full.resolve(full.hand(event.seat))
        elif isinstance(event, HandProved):  # the audit sees the hand does hold one
            full.resolve(None)
        else:
            moves += 1
            # else the omniscient rules played this move by themselves: a forced one, that
            # only the seats' own views had to ask for
            if full.moves_played < moves:
                full.play(full.parse_move(str(event.move)))
        yield full
