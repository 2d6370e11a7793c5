"""Step rules tested alone: each rule sees a small stand-in for the table (its narrow
context), with real signed entries and no socket, no node and no game."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from condottiere import crypto
from condottiere.crypto import Identity
from condottiere.interface import Choice, Deal, HandHolds, SearchDeck, SeatToMove, ShowHand
from condottiere.peer.coin import Coin, Flip
from condottiere.peer.entries import LogEntry, Reason, make_entry
from condottiere.peer.lobby import Deadlines
from condottiere.peer.steps import (
    ACCEPT,
    RULES,
    After,
    NotYet,
    Refuse,
    Step,
    StepKind,
    StepRule,
    coins,
    keys,
    moves,
    rule_answering,
    rule_of,
)
from condottiere.peer.steps.audit import AUDIT
from condottiere.peer.steps.base import RuleConflict, register
from condottiere.peer.steps.coins import COIN_COMMIT, COIN_REVEAL
from condottiere.peer.steps.deal import SHUFFLE
from condottiere.peer.steps.keys import DEALINGS, PIECE_ANSWERS, PIECE_CHECKS
from condottiere.peer.steps.leavers import STAND_IN
from condottiere.peer.steps.moves import HAND_PROOF, HAND_SHOWN, MOVE
from condottiere.peer.steps.searches import SEARCH_BLINDING
from condottiere.peer.steps.seating import READY, SEATING
from condottiere.v1 import log_pb2

TABLE = b"\x07" * 32
PEOPLE = [Identity.generate() for _ in range(3)]
AUTHORS = tuple(person.public.raw for person in PEOPLE)


def entry_of(seat: int, body: Any, step: int = 5) -> LogEntry:
    """A signed entry of ``seat``'s answering step ``step``."""
    return make_entry(PEOPLE[seat], TABLE, 3, b"\x00" * 32, step=step, heads=(), body=body)


@dataclass
class Lobby:
    seating_hash: bytes = b"the seating"
    bots: set[bytes] = field(default_factory=set)


@dataclass
class Keeper:
    secrets: dict[str, bytes] = field(default_factory=dict)

    def keep_secret(self, name: str, value: bytes) -> None:
        self.secrets[name] = value

    def secret(self, name: str) -> bytes | None:
        return self.secrets.get(name)


@dataclass
class Logs:
    logs: dict[bytes, list[LogEntry]] = field(default_factory=dict)

    def log(self, author: bytes) -> list[LogEntry]:
        return self.logs.get(author, [])


@dataclass
class Seen:
    """What a rule may see of a table of three seats, seat 0 its own."""

    seating: tuple[bytes, ...] = AUTHORS
    seat: int | None = 0
    me: bytes = AUTHORS[0]
    table_id: bytes = TABLE
    lobby: Lobby = field(default_factory=Lobby)
    keeper: Keeper = field(default_factory=Keeper)
    out: dict[int, Any] = field(default_factory=dict)
    said: list[tuple[str, str]] = field(default_factory=list)
    logs: Logs = field(default_factory=Logs)
    _coins: dict[tuple[int, int], Coin] = field(default_factory=dict)
    _consumed: set[bytes] = field(default_factory=set)
    hold_forced: bool = False
    _deck_lists: tuple[tuple[str, ...], ...] | None = (("a", "b"), ("c",))

    def seat_of(self, author: bytes | None) -> int | None:
        return self.seating.index(author) if author in self.seating else None

    def who(self, author: bytes | None) -> str:
        return f"seat {self.seat_of(author)}"

    def _seat_authors(self, seats: Any) -> tuple[bytes, ...]:
        return tuple(self.seating[seat] for seat in seats)

    def _say(self, kind: str, text: str, seat: int | None = None) -> None:
        self.said.append((kind, text))

    def forced_move(self) -> int | None:
        return None


def test_every_step_kind_has_one_rule_with_its_words_headline_and_waiting_text() -> None:
    assert len(RULES) >= 20
    for kind, rule in RULES.items():
        assert rule_of(kind) is rule and rule.kind == kind
        assert rule.words and not rule.words.startswith("StepKind")
        assert rule.doing, f"{kind} has no headline"
    seen = Seen()
    step = Step(5, STAND_IN, AUTHORS[1:])
    text = rule_of(STAND_IN).waiting_text(seen, step, "seat 1, seat 2")
    assert text == "seat 1, seat 2 to stand in for a seat that left"


def test_a_ready_for_another_seating_is_refused_and_the_right_one_accepted() -> None:
    rule, seen = rule_of(READY), Seen()
    step = Step(3, READY, AUTHORS)
    right = entry_of(1, log_pb2.Ready(seating=b"the seating"), step=3)
    wrong = entry_of(2, log_pb2.Ready(seating=b"another seating"), step=3)
    assert rule.check(seen, step, AUTHORS[1], right) == ACCEPT
    verdict = rule.check(seen, step, AUTHORS[2], wrong)
    assert isinstance(verdict, Refuse)
    assert verdict.rejection.reason is Reason.UNEXPECTED
    assert "another seating" in verdict.rejection.detail


def test_a_coin_commitment_for_another_flip_or_not_a_point_is_refused() -> None:
    rule, seen = rule_of(COIN_COMMIT), Seen()
    flip = Flip(2, 0, "first player", (0, 1, 2), (0, 1, 2))
    step = Step(9, COIN_COMMIT, AUTHORS, flip=flip)
    made = rule.make(seen, step)
    assert isinstance(made, log_pb2.CoinCommit)
    assert rule.check(seen, step, AUTHORS[0], entry_of(0, made, 9)) == ACCEPT
    late = log_pb2.CoinCommit(choice=1, attempt=0, commitment=made.commitment, box_key=made.box_key)
    verdict = rule.check(seen, step, AUTHORS[1], entry_of(1, late, 9))
    assert isinstance(verdict, Refuse) and "choice 2, attempt 0" in verdict.rejection.detail
    junk = log_pb2.CoinCommit(choice=2, attempt=0, commitment=b"\x01" * 32, box_key=made.box_key)
    verdict = rule.check(seen, step, AUTHORS[2], entry_of(2, junk, 9))
    assert isinstance(verdict, Refuse) and "a point of the group" in verdict.rejection.detail


def test_a_coin_reveal_that_does_not_open_its_commitment_proves_a_cheat() -> None:
    seen = Seen()
    flip = Flip(0, 0, "first player", (0, 1), (0, 1, 2))
    seen._coins[(0, 0)] = coin = Coin(flip)
    value = coins.coin_value(seen, flip)
    coin.commitments[0] = crypto.commitment_of(value)
    other = log_pb2.CoinCommit(choice=0, attempt=0, commitment=crypto.commitment_of(2))
    committed = entry_of(1, other, 10)
    seen.logs.logs[AUTHORS[1]] = [committed]
    seen._consumed.add(committed.hash)
    coin.commitments[1] = other.commitment
    step = Step(11, COIN_REVEAL, AUTHORS[:2], flip=flip)
    rule = rule_of(COIN_REVEAL)
    own = rule.make(seen, step)
    assert isinstance(own, log_pb2.CoinReveal)
    assert rule.check(seen, step, AUTHORS[0], entry_of(0, own, 11)) == ACCEPT
    copied = entry_of(1, own, 11)  # seat 1 reveals seat 0's value as its own
    verdict = rule.check(seen, step, AUTHORS[1], copied)
    assert isinstance(verdict, Refuse)
    assert verdict.rejection.reason is Reason.BAD_PROOF and verdict.rejection.seat == 1
    assert verdict.rejection.evidence == (committed.signed, copied.signed)


def test_the_check_of_backups_goes_back_to_the_game_without_complaints() -> None:
    rule = rule_of(PIECE_CHECKS)
    seen = Seen()
    step = Step(7, PIECE_CHECKS, AUTHORS)
    quiet = log_pb2.PieceChecks()
    for seat in range(3):
        step.answers[AUTHORS[seat]] = entry_of(seat, quiet, 7)
    assert rule.complete(seen, step) is After.GAME
    complaint = log_pb2.PieceChecks(complaints=[log_pb2.PieceComplaint(dealer=2, deck=1)])
    step.answers[AUTHORS[1]] = entry_of(1, complaint, 7)
    then = rule.complete(seen, step)
    assert isinstance(then, Step)
    assert (then.number, then.kind, then.authors) == (8, PIECE_ANSWERS, AUTHORS[2:])
    assert then.complaints == ((1, 2, 1),)


def test_a_step_is_not_complete_while_an_author_has_not_answered() -> None:
    step = Step(7, DEALINGS, AUTHORS)
    step.answers[AUTHORS[0]] = entry_of(0, log_pb2.Dealings(), 7)
    assert rule_of(DEALINGS).complete(Seen(), step) is None


def test_the_audit_wants_one_secret_per_deck() -> None:
    rule, seen = rule_of(AUDIT), Seen()
    step = Step(40, AUDIT, AUTHORS)
    assert keys.decks(seen) == (("a", "b"), ("c",))
    two = log_pb2.AuditReveal(secrets=[b"x", b"y"])
    one = log_pb2.AuditReveal(secrets=[b"x"])
    assert rule.check(seen, step, AUTHORS[1], entry_of(1, two, 40)) == ACCEPT
    verdict = rule.check(seen, step, AUTHORS[1], entry_of(1, one, 40))
    assert isinstance(verdict, Refuse) and verdict.rejection.detail == "2 secrets expected"


def test_a_move_of_a_bot_has_the_bot_deadline_and_a_coin_reveal_of_three_none() -> None:
    seen, deadlines = Seen(), Deadlines(move=120, bot_move=15, step=30)
    move = Step(20, MOVE, AUTHORS[1:2])
    assert rule_of(MOVE).deadline(seen, move, deadlines) == 120
    seen.lobby.bots.add(AUTHORS[1])
    assert rule_of(MOVE).deadline(seen, move, deadlines) == 15
    three = Step(21, COIN_REVEAL, AUTHORS, flip=Flip(0, 0, "x", (0, 1, 2), (0, 1, 2)))
    two = Step(21, COIN_REVEAL, AUTHORS[:2], flip=Flip(0, 0, "x", (0, 1), (0, 1)))
    assert rule_of(COIN_REVEAL).deadline(seen, three, deadlines) is None
    assert rule_of(COIN_REVEAL).deadline(seen, two, deadlines) == 30
    lobby = Step(2, SEATING, ())
    assert rule_of(SEATING).deadline(seen, lobby, deadlines) is None


def test_a_move_for_another_turn_is_refused_before_the_game_is_asked() -> None:
    @dataclass
    class Game:
        moves_played: int = 4

    seen = Seen()
    setattr(seen, "game", Game())  # noqa: B010 (the one field the check reads first)
    setattr(seen, "dealer", object())  # noqa: B010
    step = Step(20, MOVE, AUTHORS[1:2])
    verdict = rule_of(MOVE).check(
        seen, step, AUTHORS[1], entry_of(1, log_pb2.MovePlayed(turn=3, move="pass"), 20)
    )
    assert isinstance(verdict, Refuse)
    assert verdict.rejection.detail == "a move for turn 4 is awaited"
    assert moves.MoveRule.kind is MOVE


def test_a_seating_waits_for_the_joins_of_the_authors_it_seats() -> None:
    @dataclass
    class Joins:
        heard: set[bytes]

        def check_seating(self, entry: LogEntry) -> tuple[bytes, ...]:
            return tuple(entry.body.authors)

        def missing_joins(self, body: Any) -> list[bytes]:
            return [author for author in body.authors[1:] if author not in self.heard]

    seen = Seen()
    setattr(seen, "lobby", Joins({AUTHORS[1]}))  # noqa: B010 (the lobby's part it reads)
    setattr(seen, "_reseating", None)  # noqa: B010
    step = Step(2, SEATING, AUTHORS[:1])
    seating = entry_of(0, log_pb2.Seating(authors=list(AUTHORS)), 2)
    assert isinstance(rule_of(SEATING).check(seen, step, AUTHORS[0], seating), NotYet)


def test_each_waiting_value_of_a_game_goes_to_the_rule_that_declares_it_answers_its_type() -> None:
    assert rule_answering(SeatToMove(0)).kind == MOVE
    assert rule_answering(Deal(0, 3)).kind == SHUFFLE
    assert rule_answering(Choice((0, 1), "first player")).kind == COIN_COMMIT
    assert rule_answering(SearchDeck(0, "a")).kind == SEARCH_BLINDING
    assert rule_answering(ShowHand(0, 1, 3)).kind == HAND_SHOWN
    assert rule_answering(HandHolds(0, ("a",))).kind == HAND_PROOF
    with pytest.raises(LookupError):
        rule_answering("a value no rule answers")


def test_a_second_rule_for_a_kind_or_a_waiting_type_is_refused_and_nothing_registered() -> None:
    class SecondMove(StepRule):
        kind = MOVE
        words = doing = "moving again"

    class AnotherMove(StepRule):
        kind = StepKind("another_move")
        answers = (SeatToMove,)
        words = doing = "moving otherwise"

    for rule in (SecondMove(), AnotherMove()):
        with pytest.raises(RuleConflict):
            register(rule)
    assert not isinstance(rule_of(MOVE), SecondMove)
    assert StepKind("another_move") not in RULES
    assert rule_answering(SeatToMove(0)).kind == MOVE
