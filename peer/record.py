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

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from google.protobuf.message import DecodeError

from condottiere.crypto import Identity, PublicIdentity
from condottiere.interface import Choice, OutcomeKind
from condottiere.peer.driver import Halt, MemoryKeeper, Refusal, StepKind, Table
from condottiere.peer.entries import LogEntry, Rejection, read_entry
from condottiere.peer.silence import Departure
from condottiere.v1 import log_pb2

__all__ = ["Verdict", "export", "load", "omniscient_record", "verify"]

MAX_RECORD_BYTES = 256 << 20


def export(entries: Sequence[LogEntry], path: Path) -> Path:
    """Write ``entries`` (a table's, the definition first) to ``path``."""
    record = log_pb2.GameRecord(
        entries=[log_pb2.SignedEntry.FromString(entry.signed) for entry in entries]
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(record.SerializeToString())
    return path


def load(path: Path) -> list[bytes]:
    """The signed entries of a record file; ValueError if it is not one."""
    data = path.read_bytes()
    if len(data) > MAX_RECORD_BYTES:
        raise ValueError(f"{path} is too large for a game record")
    try:
        record = log_pb2.GameRecord.FromString(data)
    except DecodeError:
        raise ValueError(f"{path} is not a condottiere game record") from None
    if not record.entries:
        raise ValueError(f"{path} holds no entries")
    return [entry.SerializeToString() for entry in record.entries]


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
        return step.missing if step is not None and step.kind == StepKind.AUDIT else ()

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
            f"table {spec.name!r}: {spec.variant}, {spec.seats} seats, "
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
                         f"{refusal.detail}")  # fmt: skip
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
        if self.replayed is not None:
            lines.append(
                f"audit: every shuffle, share and card checks out; the game replays with "
                f"every hand known ({sum(e[0] == 'move' for e in self.replayed['events'])} moves)"
            )
        lines.append(f"record hash {table.record_hash()}")
        lines.append(f"verdict: {self.verdict_words()}")
        return lines

    def verdict_words(self) -> str:
        """``FAIR``, ``FORFEIT …``, ``ABANDONED …`` or ``NOT SHOWN FAIR``."""
        if self.fair:
            return "FAIR"
        table = self.table
        if self.halt is not None and self.halt.departure is not None:
            return f"ABANDONED by {table.who(self.halt.author)}"
        if self.audited_without_leavers:
            gone = " and ".join(table.who(table.seating[d.seat]) for d in self.departures)
            outcome = None if table.game is None else table.game.outcome
            how = "FORFEIT" if outcome is not None and outcome.kind is OutcomeKind.FORFEIT else (
                "FINISHED")  # fmt: skip
            return (
                f"{how} without {gone}: nothing unfair found (the cards cannot be named "
                f"without the secrets of {gone})"
            )
        return "NOT SHOWN FAIR"


def verify(signed_entries: Sequence[bytes]) -> Verdict:
    """Fold a record's entries (each once, in the record's order) as a peer with no seat; the
    verdict. ValueError when the record holds no table definition that can be read, or the
    definitions of several tables."""
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
    for entry in _stated_last(entries):
        refused = table.receive(entry.signed)
        if refused is not None:
            unreadable.append(str(refused))
    replayed = omniscient_record(table) if table.cards is not None else None
    return Verdict(table, tuple(unreadable), len(signed_entries) - len(unique), replayed)


def _stated_last(entries: Sequence[LogEntry]) -> list[LogEntry]:
    """``entries`` with the logs of the seats that silence statements name last: a seat's late
    answer then reaches the fold after the statements that may have put it out, as it did at
    the peers that signed them (a peer takes no answer of a seat it stated silent until the
    verdict: :mod:`condottiere.peer.silence`)."""
    seating: Sequence[bytes] = next((e.body.authors for e in entries if e.kind == "seating"), [])
    named = {e.body.seat for e in entries if e.kind == "silence"}
    stated = {seating[seat] for seat in named if seat < len(seating)}
    return sorted(entries, key=lambda entry: entry.author in stated)


def omniscient_record(table: Table) -> dict[str, Any]:
    """The game's record with every dealt card named (from the audit), replayed by the
    game's omniscient rules: they rebuild the same game."""
    game, dealer, cards = table.game, table.dealer, table.cards
    if game is None or dealer is None or cards is None:
        raise ValueError("the game has no audit yet")
    rules = table.rules
    full = rules.omniscient(table.spec.rules)
    deals = iter(dealer.dealt)
    moves = 0
    for event in game.record()["events"]:
        kind = event[0]
        if kind == "deal":
            full.resolve([cards[card] for card in next(deals)])
        elif kind == "choice":
            if not isinstance(full.waiting, Choice):
                raise ValueError(f"the record does not replay at {event}")
            full.resolve(event[3])
        elif kind == "leave":
            full.remove_seat(event[1])
        else:
            moves += 1
            # else the omniscient rules played this move by themselves: a forced one, that
            # only the seats' own views had to ask for
            if full.moves_played < moves:
                full.play(full.parse_move(event[2]))
    record = full.record()
    replayed = rules.replay(record)
    if replayed.outcome != game.outcome:
        raise ValueError("the replayed game has another outcome")
    return record
