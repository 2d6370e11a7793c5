"""The audit and the evidence: at the end every seat publishes its deck secrets, and every
shuffle, share and card is checked; along the way, a seat's evidence of another's cheat (an
equivocation, a share that does not verify) is checked by every peer.
"""

from __future__ import annotations

from typing import Protocol

from google.protobuf.message import Message

from condottiere.peer import bodies
from condottiere.peer.dealing import Card, Dealer
from condottiere.peer.entries import LogEntry, Reason, Rejection, read_entry
from condottiere.peer.lobby import Lobby
from condottiere.peer.logs import Logs
from condottiere.peer.steps import deal, keys
from condottiere.peer.steps.base import (
    ACCEPT,
    After,
    Next,
    RuleContext,
    Step,
    StepKind,
    StepRule,
    Verdict,
    register,
)
from condottiere.v1 import log_pb2

AUDIT = StepKind("audit")
"""The audit step: every seat publishes its deck secrets, to audit the game."""


class Context(keys.Context, RuleContext, Protocol):
    """What the audit and the checks of evidence see of the table."""

    lobby: Lobby
    logs: Logs
    dealer: Dealer | None
    cards: dict[Card, str] | None
    rekeyed_cards: dict[Card, str]
    _held_evidence: list[LogEntry]
    _consumed: set[bytes]

    def _refuse(
        self, rejection: Rejection, entry: LogEntry | None = None, author: bytes | None = None
    ) -> None: ...


def seen_by_all(t: Context) -> bool:
    """Whether every other seat still at the table holds this peer's log up to its audit (or
    its last silence statement, at a table abandoned), as the heads of its entries show."""
    halt = t.halt
    kind = "silence" if halt is not None and halt.abandoned else AUDIT
    marks = [e.seq for e in t.logs.log(t.me) if e.kind == kind]
    if not marks:
        return kind == "silence"
    mark = marks[-1] if kind == "silence" else marks[0]
    return all(
        any(entry.heads().get(t.me, (-1, b""))[0] >= mark for entry in t.logs.log(author))
        for author in t.seating
        if author != t.me and t.seat_of(author) not in t.out
    )


class AuditRule(StepRule):
    """Every seat, at the end: its deck secrets, to audit the game."""

    kind = AUDIT
    words = "the audit"
    doing = "Auditing the game"
    about = "every shuffle, share and card is checked against the deck secrets"

    def waiting_text(self, t: Context, step: Step, names: str) -> str:
        return f"the audit secrets of {names}"

    def make(self, t: Context, step: Step) -> Message | None:
        assert t.dealer is not None
        return log_pb2.AuditReveal(secrets=bodies.encode_secrets(t.dealer.keys.secrets()))

    def judge(self, t: Context, step: Step, author: bytes, entry: LogEntry) -> Verdict:
        expected = len(keys.decks(t))
        if len(entry.body.secrets) != expected:
            raise Rejection(Reason.UNEXPECTED, f"{expected} secrets expected")
        return ACCEPT

    def finish(self, t: Context, step: Step) -> Next:
        dealer = t.dealer
        assert dealer is not None
        if not dealer.started:
            t._say("audit", "no card was dealt: there is nothing to audit")
            return After.END
        if any(seat in dealer.members for seat in t.out):
            stayed: dict[int, list[bytes]] = {}
            for author, entry in step.answers.items():
                seat = t.seat_of(author)
                assert seat is not None
                dealer.audit.seat(seat, list(entry.body.secrets))
                stayed[seat] = list(entry.body.secrets)
            rekeyed = t.rekeyed_cards = dealer.audit.rekeyed(stayed)
            gone = " and ".join(t.lobby.names.get(t.seating[s], "?") for s in t.out)
            whole = (
                f"; every shuffle, share and card of the decks keyed again without {gone} "
                f"checks out ({len(rekeyed)} cards)"
                if rekeyed
                else ""
            )
            t._say(
                "audit",
                "audit passed for the seats that stayed: their secrets match their keys and "
                f"every share they gave{whole}; the cards dealt before cannot be named "
                f"without {gone}",
            )
            return After.END
        secrets = [list(step.answers[a].body.secrets) for a in t._remaining_authors()]
        t.cards = dealer.audit.whole(secrets)
        t._say("audit", "audit passed: every shuffle, share and card checks out")
        return After.END


register(AuditRule())


# ---------------------------------------------------------------- evidence of a cheat


def check_evidence(t: Context) -> None:
    """Check the evidence entries received, once the table is seated (so that the blame
    names the same seat whatever order the entries came in)."""
    if not t.seating:
        return
    held, t._held_evidence = t._held_evidence, []
    for entry in held:
        proof = entry.body.WhichOneof("proof")
        if proof == "equivocation":
            _check_equivocation(t, entry)
        elif proof == "bad_share":
            _check_bad_share(t, entry)
        else:
            t._refuse(Rejection(Reason.UNEXPECTED, "evidence of nothing"), entry, entry.author)
        if t.halt is not None:
            return


def _check_equivocation(t: Context, entry: LogEntry) -> None:
    body = entry.body.equivocation
    first = read_entry_or_none(body.first.SerializeToString(), t.table_id)
    second = read_entry_or_none(body.second.SerializeToString(), t.table_id)
    if first is None or second is None or not forked(first, second):
        t._refuse(
            Rejection(
                Reason.UNEXPECTED,
                "evidence of equivocation that proves nothing",
                author=entry.author,
            ),
            entry,
        )
        return
    t._stop(
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


def _check_bad_share(t: Context, entry: LogEntry) -> None:
    """A seat says a share of an entry does not verify: check that entry's shares here."""
    accuser = t.seat_of(entry.author)
    accused = read_entry_or_none(entry.body.bad_share.shares.SerializeToString(), t.table_id)
    if accuser is None or accused is None or accused.kind != deal.SHARES:
        t._refuse(
            Rejection(Reason.UNEXPECTED, "evidence of a bad share that names no shares"),
            entry,
            entry.author,
        )
        return
    if accused.hash not in t._consumed or t.dealer is None:
        t._held_evidence.append(entry)  # this peer is not that far yet
        return
    try:
        t.dealer.shares.check(accused.body)
    except Rejection as rejection:
        t._stop(
            Rejection(
                rejection.reason,
                rejection.detail,
                seat=rejection.seat,
                evidence=(accused.signed,),
            )
        )
        return
    t._stop(
        Rejection(
            Reason.BAD_PROOF,
            "accused another seat of a bad share that verifies",
            author=entry.author,
            evidence=(entry.signed, accused.signed),
        )
    )


def equivocation_evidence(evidence: tuple[bytes, ...]) -> log_pb2.Evidence:
    """The evidence entry's body that shows the two signed entries of a forked log."""
    first, second = (log_pb2.SignedEntry.FromString(e) for e in evidence)
    return log_pb2.Evidence(equivocation=log_pb2.Equivocation(first=first, second=second))


def forked(first: LogEntry, second: LogEntry) -> bool:
    """Whether two entries of one author prove that it forked its log: two different entries
    with one sequence number, or an entry that does not follow the author's entry before it."""
    if first.author != second.author or first.raw == second.raw:
        return False
    if first.seq == second.seq:
        return True
    return second.seq == first.seq + 1 and second.entry.previous != first.hash


def read_entry_or_none(signed: bytes, table_id: bytes) -> LogEntry | None:
    """The entry ``signed`` is, or None if it is none of this table's."""
    try:
        return read_entry(signed, table_id=table_id)
    except Rejection:
        return None
