"""Coins: a fair random choice among the seats still at the table (commit, escrow at three
committers or more, reveal), closes that name the reveals that did not come, and the blame
of withholders (see :mod:`condottiere.peer.coin`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from google.protobuf.message import Message

from condottiere import crypto
from condottiere.interface import Choice, GameState
from condottiere.peer.coin import Coin, Flip, blamed, box_secret_of
from condottiere.peer.entries import LogEntry, Reason, Rejection
from condottiere.peer.lobby import Deadlines, TableSpec
from condottiere.peer.logs import Logs
from condottiere.peer.steps.base import (
    ACCEPT,
    After,
    Next,
    Refusal,
    RuleContext,
    Step,
    StepKind,
    StepRule,
    Verdict,
    register,
)
from condottiere.v1 import log_pb2

COIN_COMMIT = StepKind("coin_commit")
"""The coin_commit step: every committer commits to a value."""
COIN_ESCROW = StepKind("coin_escrow")
"""The coin_escrow step: every committer shares its value among the others."""
COIN_REVEAL = StepKind("coin_reveal")
"""The coin_reveal step: every committer reveals its value."""


class Context(RuleContext, Protocol):
    """What the rules of coin flips see of the table."""

    table_id: bytes
    spec: TableSpec
    logs: Logs
    game: GameState[Any] | None
    flips: list[tuple[Flip, int]]
    refusals: list[Refusal]
    withheld: set[int]
    _coins: dict[tuple[int, int], Coin]
    _closes: dict[tuple[int, int], dict[bytes, LogEntry]]
    _opened_closes: set[bytes]
    _blamed: set[tuple[int, int, int]]
    _consumed: set[bytes]

    def _seat_authors(self, seats: Sequence[int]) -> tuple[bytes, ...]: ...

    def _publish(self, body: Message, step: int = 0) -> LogEntry: ...

    def _stop(self, rejection: Rejection, *, publish_evidence: bool = False) -> None: ...


def coin_secret(flip: Flip) -> str:
    """The name this seat's value for a coin flip is kept under."""
    return f"coin/{flip.choice}/{flip.attempt}"


def coin_value(t: Context, flip: Flip) -> int:
    """This seat's value for ``flip``: the one kept, or a fresh one, kept before use."""
    value = kept_coin_value(t, flip)
    if value is None:
        value = crypto.draw_value()
        t.keeper.keep_secret(coin_secret(flip), crypto.encode_scalar(value))
    return value


def kept_coin_value(t: Context, flip: Flip) -> int | None:
    """This seat's value for ``flip``, if it kept one."""
    kept = t.keeper.secret(coin_secret(flip))
    return None if kept is None else crypto.decode_scalar(kept)


def start_flip(
    t: Context, step: Step, choice: Choice, number: int, seats: tuple[int, ...]
) -> Step:
    """The commit step of a fair choice the game waits for (its ``number``-th choice), among
    ``seats`` (those still at the table)."""
    flip = Flip(number, 0, choice.purpose, choice.seats, seats)
    t._coins[(flip.choice, flip.attempt)] = Coin(flip)
    return step.then(COIN_COMMIT, t._seat_authors(seats), flip=flip)


def _for(step: Step) -> str:
    """What a coin step draws lots for, in words: `` for the first player``."""
    return "" if step.flip is None else f" for the {step.flip.purpose}"


def check_flip(step: Step, body: Any) -> None:
    """:class:`Rejection` unless ``body`` is for the flip under way."""
    assert step.flip is not None
    if (body.choice, body.attempt) != (step.flip.choice, step.flip.attempt):
        raise Rejection(
            Reason.UNEXPECTED,
            f"a coin for choice {step.flip.choice}, attempt {step.flip.attempt} is awaited",
        )


def coin_entry(t: Context, author: bytes, kind: StepKind, flip: Flip) -> bytes:
    """``author``'s signed entry of ``kind`` for ``flip`` that this table took."""
    return next(
        entry.signed
        for entry in t.logs.log(author)
        if entry.kind == kind
        and (entry.body.choice, entry.body.attempt) == (flip.choice, flip.attempt)
        and entry.hash in t._consumed
    )


class CoinCommitRule(StepRule):
    """Every committer: a commitment to a value (and the key its escrow is sealed to)."""

    kind = COIN_COMMIT
    words = "a coin commitment"
    doing = "Drawing lots"
    about = "each seat commits to a secret value first"

    answers = (Choice,)

    def start(self, t: Context, step: Step, waiting: Choice) -> Step | None:
        """A fair choice the game waits for: the commit step among the seats still at the
        table."""
        game = t.game
        assert game is not None
        seats = tuple(seat for seat in range(t.spec.seats) if seat not in t.out)
        return start_flip(t, step, waiting, game.choices_made, seats)

    def waiting_text(self, t: Context, step: Step, names: str) -> str:
        return f"coin commitments from {names}{_for(step)}"

    def make(self, t: Context, step: Step) -> Message | None:
        assert step.flip is not None
        flip = step.flip
        value = coin_value(t, flip)
        return log_pb2.CoinCommit(
            choice=flip.choice,
            attempt=flip.attempt,
            commitment=crypto.commitment_of(value),
            box_key=box_secret_of(flip, value).public.raw,
        )

    def judge(self, t: Context, step: Step, author: bytes, entry: LogEntry) -> Verdict:
        body = entry.body
        check_flip(step, body)
        if not crypto.is_point(body.commitment):
            raise Rejection(Reason.UNEXPECTED, "a coin commitment is a point of the group")
        try:
            crypto.BoxKey(body.box_key)
        except crypto.DecodeError as error:
            raise Rejection(Reason.UNEXPECTED, str(error)) from None
        return ACCEPT

    def finish(self, t: Context, step: Step) -> Next:
        assert step.flip is not None
        coin = t._coins[(step.flip.choice, step.flip.attempt)]
        for author, entry in step.answers.items():
            seat = t.seat_of(author)
            assert seat is not None
            coin.commitments[seat] = entry.body.commitment
            coin.box_keys[seat] = crypto.BoxKey(entry.body.box_key)
        kind = COIN_ESCROW if step.flip.escrowed else COIN_REVEAL
        return step.then(kind, step.authors, flip=step.flip)


class CoinEscrowRule(StepRule):
    """Every committer (three or more): its value shared among the others."""

    kind = COIN_ESCROW
    words = "a coin escrow"
    doing = "Drawing lots"
    about = "each value shared among the others, so that withholding it changes nothing"

    def waiting_text(self, t: Context, step: Step, names: str) -> str:
        return f"coin escrows from {names}{_for(step)}"

    def make(self, t: Context, step: Step) -> Message | None:
        assert step.flip is not None and t.seat is not None
        flip = step.flip
        kept = kept_coin_value(t, flip)
        if kept is None:  # lost with the end of a store put back: no other is made up
            return None
        coin = t._coins[(flip.choice, flip.attempt)]
        keys = [coin.box_keys[seat] for seat in flip.committers]
        dealing = crypto.make_dealing(kept, keys, flip.context(t.table_id, t.seat))
        return log_pb2.CoinEscrow(
            choice=flip.choice, attempt=flip.attempt, dealing=dealing.encode()
        )

    def judge(self, t: Context, step: Step, author: bytes, entry: LogEntry) -> Verdict:
        check_flip(step, entry.body)
        assert step.flip is not None
        try:
            crypto.Dealing.decode(entry.body.dealing, len(step.flip.committers))
        except (crypto.DecodeError, ValueError) as error:
            raise Rejection(Reason.UNEXPECTED, f"not an escrow: {error}") from None
        return ACCEPT

    def finish(self, t: Context, step: Step) -> Next:
        assert step.flip is not None
        coin = t._coins[(step.flip.choice, step.flip.attempt)]
        for author, entry in step.answers.items():
            seat = t.seat_of(author)
            assert seat is not None
            coin.dealings[seat] = crypto.Dealing.decode(
                entry.body.dealing, len(step.flip.committers)
            )
        return step.then(COIN_REVEAL, step.authors, flip=step.flip)


class CoinRevealRule(StepRule):
    """Every committer: its value; complete once every value is known, revealed or opened
    from its escrow."""

    kind = COIN_REVEAL
    words = "a coin reveal"
    doing = "Drawing lots"
    about = "the values together decide, and no seat can bias them"

    def waiting_text(self, t: Context, step: Step, names: str) -> str:
        seats = {s for s in (t.seat_of(a) for a in step.missing) if s is not None}
        blamed_ = " (withheld past the timeout: blamed)" if t.withheld & seats else ""
        return f"coin reveals from {names}{_for(step)}{blamed_}"

    def deadline(self, t: Context, step: Step, deadlines: Deadlines) -> int | None:
        if step.flip and len(step.flip.committers) > 2:
            return None  # a withheld reveal is the coin's own business
        return deadlines.step

    def make(self, t: Context, step: Step) -> Message | None:
        assert step.flip is not None and t.seat is not None
        flip = step.flip
        kept = kept_coin_value(t, flip)
        if kept is None:  # lost with the end of a store put back: no other is made up
            return None
        return log_pb2.CoinReveal(
            choice=flip.choice, attempt=flip.attempt, value=crypto.encode_scalar(kept)
        )

    def judge(self, t: Context, step: Step, author: bytes, entry: LogEntry) -> Verdict:
        check_flip(step, entry.body)
        flip = step.flip
        assert flip is not None
        seat = t.seat_of(author)
        assert seat is not None
        commitment = t._coins[(flip.choice, flip.attempt)].commitments[seat]
        value = entry.body.value
        if len(value) != crypto.VALUE_BYTES or not crypto.value_matches(
            int.from_bytes(value, "little"), commitment
        ):
            raise Rejection(
                Reason.BAD_PROOF,
                "the coin reveal does not match its commitment",
                seat=seat,
                evidence=(coin_entry(t, author, COIN_COMMIT, flip), entry.signed),
            )
        return ACCEPT

    def complete(self, t: Context, step: Step) -> Next | None:
        """Decide the flip once every value is known, revealed or opened from its escrow."""
        flip = step.flip
        assert flip is not None
        if not step.missing and t.seat in flip.committers:
            close(t, flip, ())
        coin = t._coins[(flip.choice, flip.attempt)]
        values = {}
        for seat in flip.committers:
            answer = step.answers.get(t.seating[seat])
            value = (
                coin.opened(seat)
                if answer is None
                else int.from_bytes(answer.body.value, "little")
            )
            if value is None:
                return None
            values[seat] = value
        game = t.game
        assert game is not None
        chosen = flip.outcome(t.table_id, values)
        t.flips.append((flip, chosen))
        opened = [seat for seat in flip.committers if t.seating[seat] not in step.answers]
        how = (
            f" ({', '.join(t.who(t.seating[s]) for s in opened)}: opened from the escrow)"
            if opened
            else ""
        )
        t._say("coin", f"fair choice of the {flip.purpose}: seat {chosen}{how}", chosen)
        game.resolve(chosen)
        return After.GAME


register(CoinCommitRule(), CoinEscrowRule(), CoinRevealRule())


# ---------------------------------------------------------------- closes and withholders


def closes_of(t: Context, flip: Flip) -> dict[int, frozenset[int]]:
    """Each committer's first close of ``flip``: the seats it names as missing."""
    closes = t._closes.get((flip.choice, flip.attempt), {})
    return {
        seat: frozenset(closes[t.seating[seat]].body.missing)
        for seat in flip.committers
        if t.seating[seat] in closes
    }


def close(t: Context, flip: Flip, missing: Sequence[int]) -> bool:
    """Close ``flip``, naming the ``missing`` reveals and giving this seat's pieces of their
    values; True when a close was published."""
    seat = t.seat
    if seat is None or seat in closes_of(t, flip) or t._quiet:
        return False
    secret = b""
    value = kept_coin_value(t, flip)
    if missing and flip.escrowed and value is not None:
        secret = box_secret_of(flip, value).secret_bytes()
    t._publish(
        log_pb2.CoinClose(
            choice=flip.choice, attempt=flip.attempt, missing=missing, box_secret=secret
        )
    )
    t.withheld.update(missing)
    return True


def give_up_waiting(t: Context, step: Step | None) -> bool:
    """Close the coin flip awaited at ``step``, naming the reveals that did not come; True
    when a close was published."""
    if step is None or step.kind != COIN_REVEAL or step.flip is None:
        return False
    if t.me not in step.answers or not step.missing:
        return False
    missing = [seat for seat in (t.seat_of(a) for a in step.missing) if seat is not None]
    return close(t, step.flip, missing)


def take_close(t: Context, entry: LogEntry) -> None:
    """Keep each author's first close of a coin flip's attempt (:func:`check_closes`)."""
    closes = t._closes.setdefault((entry.body.choice, entry.body.attempt), {})
    closes.setdefault(entry.author, entry)


def check_closes(t: Context) -> None:
    """Take the pieces of withheld values from the closes that give them, once the flip's
    escrow is complete (a piece that does not open or check halts the table, blaming its
    dealer; a box secret not of its closer's key, blaming the closer), and blame the
    seats a strict majority of the other committers name."""
    if not t.seating:
        return
    for (choice, attempt), closes in t._closes.items():
        coin = t._coins.get((choice, attempt))
        if coin is None:
            continue
        flip = coin.flip
        for author, entry in closes.items():
            closer = t.seat_of(author)
            if entry.hash in t._opened_closes or closer not in flip.committers:
                continue
            if flip.escrowed and not coin.escrow_complete:
                continue  # its pieces are taken once every escrow is in
            t._opened_closes.add(entry.hash)
            missing = frozenset(entry.body.missing) & set(flip.committers) - {closer}
            if not missing or not flip.escrowed:
                continue
            try:
                coin.open_pieces(t.table_id, closer, entry.body.box_secret, missing)
            except crypto.VerificationError as error:
                culprit = t.seating[error.seat]
                proof = (
                    coin_entry(t, culprit, COIN_COMMIT, flip)
                    if error.seat == closer
                    else coin_entry(t, culprit, COIN_ESCROW, flip)
                )
                reason = str(error).split(": ", 1)[1]
                t._stop(
                    Rejection(
                        Reason.BAD_PROOF,
                        f"its coin escrow for the {flip.purpose} fails: {reason}",
                        seat=error.seat,
                        evidence=(proof, entry.signed),
                    )
                )
                return
        blame_withholders(t, flip)


def blame_withholders(t: Context, flip: Flip) -> None:
    """Blame every seat a strict majority of the other committers of ``flip`` name."""
    for seat in blamed(flip, closes_of(t, flip)):
        if (flip.choice, flip.attempt, seat) in t._blamed:
            continue
        t._blamed.add((flip.choice, flip.attempt, seat))
        refusal = Refusal(
            Reason.BAD_PROOF,
            f"withheld its coin reveal for the {flip.purpose}",
            t.seating[seat],
            seat,
            tuple(close_entries(t, flip, seat)),
        )
        t.refusals.append(refusal)
        t._say("refused", f"{t.who(t.seating[seat])} {refusal.detail}", seat)


def close_entries(t: Context, flip: Flip, seat: int) -> list[bytes]:
    """The signed closes of a coin flip that name ``seat``: the evidence of its blame."""
    closes = t._closes.get((flip.choice, flip.attempt), {})
    return [entry.signed for entry in closes.values() if seat in entry.body.missing]
