"""Keys and backups: every seat's key for each deck (with its box key at three seats or more),
its deck secrets backed up among the others (Feldman VSS, pieces sealed to each recipient),
the check of the pieces, the answers to complaints, and the new backup after a re-key.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from google.protobuf.message import Message

from condottiere import crypto
from condottiere.interface import GameRules, GameState
from condottiere.peer.dealing import Dealer
from condottiere.peer.entries import LogEntry, Reason, Rejection
from condottiere.peer.lobby import TableSpec
from condottiere.peer.logs import Logs
from condottiere.peer.silence import Departure
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

KEYS = StepKind("keys")
"""The keys step: every seat publishes its key of each deck (and its box key)."""
DEALINGS = StepKind("dealings")
"""The dealings step: every seat backs its deck secrets up among the others."""
PIECE_CHECKS = StepKind("piece_checks")
"""The piece_checks step: every seat names the dealers whose piece for it fails."""
PIECE_ANSWERS = StepKind("piece_answers")
"""The piece_answers step: a dealer complained about answers with its piece."""
REDEALING = StepKind("redealing")
"""The redealing step: every seat backs its secret of a re-keyed deck up again."""


class Context(RuleContext, Protocol):
    """What the rules of keys and backups see of the table."""

    table_id: bytes
    logs: Logs
    spec: TableSpec
    rules: GameRules
    dealer: Dealer | None
    game: GameState[Any] | None
    _bad_pieces: list[tuple[int, int]]
    _before_deal: set[int]
    _deck_lists: tuple[tuple[str, ...], ...] | None

    def _remaining_authors(self) -> tuple[bytes, ...]: ...

    def _seat_authors(self, seats: Sequence[int]) -> tuple[bytes, ...]: ...

    def _stop(self, rejection: Rejection, *, publish_evidence: bool = False) -> None: ...

    def _halt_own(
        self, detail: str, seat: int, departure: Departure | None = None
    ) -> None: ...


def decks(t: Context) -> tuple[tuple[str, ...], ...]:
    """The game's decks (the cards of each, by name)."""
    if t._deck_lists is None:
        t._deck_lists = t.rules.for_spectator(t.spec.rules).decks
    return t._deck_lists


def box(t: Context) -> crypto.BoxSecret:
    """This seat's box secret (the pieces of the others' secrets are sealed to its key),
    kept before its key is published."""
    kept = t.keeper.secret("box")
    if kept is None:
        secret = crypto.BoxSecret.generate()
        t.keeper.keep_secret("box", secret.secret_bytes())
        return secret
    return crypto.BoxSecret(kept)


def own_dealer(t: Context) -> Dealer:
    """The decks of the seats still at the table when the keys were made (a seat out
    before the deal takes no part: see ``leavers.without_before_the_deal``)."""
    if t.dealer is None:
        seat = None if t.seat in t._before_deal else t.seat
        secrets = None
        if seat is not None:
            kept = [t.keeper.secret(f"deck/{i}") for i in range(len(decks(t)))]
            if all(kept):
                secrets = [crypto.decode_scalar(value or b"") for value in kept]
        members = [s for s in range(t.spec.seats) if s not in t._before_deal]
        t.dealer = Dealer(t.table_id, t.spec.seats, seat, decks(t), secrets, members)
        if seat is not None and secrets is None:
            if any(entry.kind == KEYS for entry in t.logs.log(t.me)):
                lost_deck_secrets(t, seat)  # and the new ones are never kept
            else:
                for index, secret in enumerate(t.dealer.keys.secrets()):
                    t.keeper.keep_secret(f"deck/{index}", crypto.encode_scalar(secret))
    return t.dealer


def lost_deck_secrets(t: Context, seat: int) -> None:
    """Stop for good where this seat's keys are published but their secrets are not kept
    (a store put back from a backup older than the deal): no share it could make would
    pass its proof, and it would be taken for a cheater."""
    t._halt_own(
        "this peer's store has lost the secrets of the keys it published (put back from "
        "a backup older than the deal?): it can take no further part; the record is kept",
        seat,
    )


class KeysRule(StepRule):
    """Every seat publishes its key for each deck, with a proof (and its box key)."""

    kind = KEYS
    words = "the keys"
    doing = "Preparing the deck"
    about = "a card can be read only with every seat's help"

    def waiting_text(self, t: Context, step: Step, names: str) -> str:
        return f"keys from {names}"

    def make(self, t: Context, step: Step) -> Message | None:
        dealer = own_dealer(t)
        body = log_pb2.Keys(announcements=dealer.keys.announcements())
        if dealer.backups.backed_up:
            body.box_key = box(t).public.encode()
        return body

    def judge(self, t: Context, step: Step, author: bytes, entry: LogEntry) -> Verdict:
        body = entry.body
        if len(body.announcements) != len(decks(t)):
            raise Rejection(Reason.UNEXPECTED, f"{len(decks(t))} keys expected")
        backed_up = len(t._remaining_authors()) >= crypto.MIN_BACKUP_SEATS
        if backed_up != bool(body.box_key):
            raise Rejection(Reason.UNEXPECTED, "a box key comes with the keys at 3 seats+")
        return ACCEPT

    def finish(self, t: Context, step: Step) -> Next:
        dealer = own_dealer(t)
        if t.halt is not None:  # it lost its deck secrets (see own_dealer)
            return After.STOPPED
        members = t._remaining_authors()
        dealer.keys.accept([list(step.answers[a].body.announcements) for a in members])
        if dealer.backups.backed_up:
            dealer.backups.accept_box_keys([step.answers[a].body.box_key for a in members])
            return step.then(DEALINGS, members)
        return After.GAME


class DealingsRule(StepRule):
    """(Three seats or more) every seat: its deck secrets backed up among the others."""

    kind = DEALINGS
    words = "the backup of the keys"
    doing = "Backing up the keys"
    about = "each seat's secrets shared among the others: a seat that leaves stops nothing"

    def waiting_text(self, t: Context, step: Step, names: str) -> str:
        return f"the backups of the keys of {names}"

    def make(self, t: Context, step: Step) -> Message | None:
        return own_dealer(t).backups.make_dealings()

    def judge(self, t: Context, step: Step, author: bytes, entry: LogEntry) -> Verdict:
        seat = t.seat_of(author)
        assert t.dealer is not None and seat is not None
        sealed_to = box(t) if t.seat is not None and author != t.me else None
        for index in t.dealer.backups.accept_dealings(seat, entry.body, sealed_to):
            t._bad_pieces.append((seat, index))
        return ACCEPT

    def finish(self, t: Context, step: Step) -> Next:
        return step.then(PIECE_CHECKS, step.authors)


class PieceChecksRule(StepRule):
    """Every seat: the dealers whose piece for it does not open or check."""

    kind = PIECE_CHECKS
    words = "the check of the backups"
    doing = "Checking the backups"
    about = "each seat checks its pieces of the others' secrets"

    def waiting_text(self, t: Context, step: Step, names: str) -> str:
        return f"{names} to check their pieces of the backups"

    def make(self, t: Context, step: Step) -> Message | None:
        return log_pb2.PieceChecks(
            complaints=[log_pb2.PieceComplaint(dealer=d, deck=i) for d, i in t._bad_pieces]
        )

    def judge(self, t: Context, step: Step, author: bytes, entry: LogEntry) -> Verdict:
        seat = t.seat_of(author)
        assert t.dealer is not None
        for complaint in entry.body.complaints:
            if not (complaint.dealer in t.dealer.members and complaint.dealer != seat
                    and 0 <= complaint.deck < len(decks(t))):
                raise Rejection(Reason.UNEXPECTED, "a complaint about no other seat's deck")
        return ACCEPT

    def finish(self, t: Context, step: Step) -> Next:
        complaints = tuple(sorted(
            (t.seating.index(author), c.dealer, c.deck)
            for author, entry in step.answers.items()
            for c in entry.body.complaints
        ))
        if not complaints:  # the game starts, or goes on after a new backup
            return After.GAME
        accused = sorted({dealer for _, dealer, _ in complaints})
        return step.then(
            PIECE_ANSWERS, t._seat_authors(accused), complaints=complaints
        )


class PieceAnswersRule(StepRule):
    """A dealer complained about: the piece and its box's ephemeral secret (then the dealer,
    or the complainer of a false complaint, is blamed)."""

    kind = PIECE_ANSWERS
    words = "answering a complaint"
    doing = "Answering a complaint about a backup"
    about = "the piece and its key, so that every seat sees who was wrong"

    def waiting_text(self, t: Context, step: Step, names: str) -> str:
        return f"{names} to answer a complaint about a backup"

    def make(self, t: Context, step: Step) -> Message | None:
        backups = own_dealer(t).backups
        return log_pb2.PieceAnswers(
            answers=[
                log_pb2.PieceAnswer(
                    recipient=complainer, deck=index, answer=backups.answer(complainer, index)
                )
                for complainer, accused, index in step.complaints
                if accused == t.seat
            ]
        )

    def judge(self, t: Context, step: Step, author: bytes, entry: LogEntry) -> Verdict:
        seat = t.seat_of(author)
        owed = [c for c in step.complaints if c[1] == seat]
        if [(a.recipient, a.deck) for a in entry.body.answers] != [(c[0], c[2]) for c in owed]:
            raise Rejection(Reason.UNEXPECTED, "an answer to each complaint, in order")
        return ACCEPT

    def finish(self, t: Context, step: Step) -> Next:
        """Every complaint about a backup ends with a blame (the dealer's, or the
        complainer's for a false one): the table stops with the first."""
        assert t.dealer is not None
        complainer, dealer, index = step.complaints[0]
        answers = step.answers[t.seating[dealer]].body.answers
        answer = next(a.answer for a in answers if (a.recipient, a.deck) == (complainer, index))
        rejection = t.dealer.backups.settle(dealer, complainer, index, answer)
        backup = DEALINGS if t.game is None else REDEALING
        dealt = [e for e in t.logs.log(t.seating[dealer]) if e.kind == backup][-1]
        complaint = [
            e for e in t.logs.log(t.seating[complainer]) if e.kind == "piece_checks"
        ][-1]
        evidence = (dealt.signed, complaint.signed, step.answers[t.seating[dealer]].signed)
        t._stop(Rejection(rejection.reason, rejection.detail, seat=rejection.seat,
                          evidence=evidence))
        return After.STOPPED


class RedealingRule(StepRule):
    """(Three seats or more still there) every seat, once its deck is re-keyed: its secret
    backed up again among them alone (then the pieces are checked as for the first)."""

    kind = REDEALING
    words = "the new backup of the keys"
    doing = "Backing up the keys again"
    about = "among the seats still at the table"

    def waiting_text(self, t: Context, step: Step, names: str) -> str:
        return f"the new backups of the keys of {names}"

    def make(self, t: Context, step: Step) -> Message | None:
        return own_dealer(t).backups.make_redealing(step.deck)

    def judge(self, t: Context, step: Step, author: bytes, entry: LogEntry) -> Verdict:
        seat = t.seat_of(author)
        assert t.dealer is not None and seat is not None
        body = entry.body
        if body.deck != step.deck:
            raise Rejection(Reason.UNEXPECTED, f"a new backup of deck {step.deck} expected")
        sealed_to = box(t) if t.seat is not None and author != t.me else None
        if t.dealer.backups.accept_redealing(seat, body, sealed_to):
            t._bad_pieces.append((seat, body.deck))
        return ACCEPT

    def finish(self, t: Context, step: Step) -> Next:
        return step.then(PIECE_CHECKS, step.authors)


register(KeysRule(), DealingsRule(), PieceChecksRule(), PieceAnswersRule(), RedealingRule())
