"""Leavers and re-keys: the silence votes, a seat put out (silent past a deadline, or left),
the game going on without it, the others standing in for its decryption shares at a deal, and
a deck formed again re-keyed without it (then backed up again among the seats that stayed);
before the deal, the seats still there start again without it, and seats put out at the start
are freed for other joiners (the creator's new seating says which).

See the table's module (:mod:`condottiere.peer.driver`) for the whole story, and
:mod:`condottiere.peer.silence` for the votes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from google.protobuf.message import Message

from condottiere.interface import Draw, GameState
from condottiere.peer.dealing import Dealer
from condottiere.peer.entries import LogEntry, Reason, Rejection
from condottiere.peer.lobby import Lobby
from condottiere.peer.logs import Logs
from condottiere.peer.silence import Departure, Verdict, silence_verdict
from condottiere.peer.steps import audit, deal, keys
from condottiere.peer.steps.base import (
    ACCEPT,
    MAX_CHAT,
    After,
    Halt,
    Next,
    Step,
    StepKind,
    StepRule,
    register,
    rule_of,
)
from condottiere.peer.steps.base import Verdict as EntryVerdict
from condottiere.v1 import log_pb2

STAND_IN = StepKind("stand_in")
"""The stand_in step: the seats still there stand in for a leaver's shares."""
REKEY = StepKind("rekey")
"""The rekey step: the seats still there take a leaver's key off a deck formed again."""


class Context(keys.Context, deal.Context, Protocol):
    """What the rules of leavers see of the table."""

    lobby: Lobby
    logs: Logs
    dealer: Dealer | None
    game: GameState[Any] | None
    step: Step | None
    freed: list[tuple[str, Departure]]
    _statements: dict[tuple[int, int], dict[bytes, LogEntry]]
    _reseating: int | None
    _seated_at: int
    _ended: set[int]
    _took: dict[tuple[int, int], bytes]
    _carried: dict[bytes, bool]
    _unchecked: list[LogEntry]
    table_id: bytes

    def _refuse(
        self, rejection: Rejection, entry: LogEntry | None = None, author: bytes | None = None
    ) -> None: ...

    def _step_number(self) -> int: ...

    def _publish(self, body: Message, step: int = 0) -> LogEntry: ...


def votes(t: Context, seat: int, number: int) -> dict[int, LogEntry]:
    """The votes about ``seat`` at step ``number``: every other seat's first statement
    (none about a step before the seating that holds now: they name another seating's
    seats)."""
    if number < t._seated_at:
        return {}
    statements = t._statements.get((seat, number), {})
    cast = {}
    for author, entry in statements.items():
        voter = t.seat_of(author)
        if voter is None or voter == seat:
            continue
        if entry.body.answered and not carries_answer(t, seat, number, entry):
            continue
        cast[voter] = entry
    return cast


def carries_answer(t: Context, seat: int, number: int, statement: LogEntry) -> bool:
    """Whether an *answered* statement about ``seat`` at step ``number`` carries that
    seat's own signed answer to that step (else it is false, and counts for nothing)."""
    carried = t._carried.get(statement.hash)
    if carried is None:
        answer = audit.read_entry_or_none(statement.body.answer, t.table_id)
        carried = (
            answer is not None and seat < len(t.seating)
            and answer.author == t.seating[seat] and answer.step == number
            and not answer.free
        )
        t._carried[statement.hash] = carried
    return carried


def check_statements(t: Context) -> None:
    """Once the game has started, halt on an *answered* statement that does not carry the
    answer it speaks of: its signer's own entry proves it false (the same at every peer,
    whenever it comes)."""
    if not t.lobby.closed:
        return
    unchecked, t._unchecked = t._unchecked, []
    for statement in unchecked:
        seat, number = statement.body.seat, statement.body.step
        if number < t._seated_at or t.halt is not None:
            continue
        if not carries_answer(t, seat, number, statement):
            t._refuse(Rejection(
                Reason.BAD_PROOF, f"states seat {seat} answered step {number} without "
                "carrying its answer", author=statement.author), statement)


def departure_by_silence(t: Context, seat: int, number: int, at: str) -> Departure:
    """How ``seat`` is out at step ``number`` (``at``: the step in words) by the votes."""
    cast = votes(t, seat, number)
    return Departure(
        seat,
        number,
        at,
        min(entry.body.waited for entry in cast.values()),
        tuple(sorted(cast)),
        evidence=tuple(cast[voter].signed for voter in sorted(cast)),
    )


def declare_silent(t: Context, waited: float, deadline: int | None) -> bool:
    """Once ``waited`` seconds (by the owner's clock, since the step began) pass the step's
    ``deadline``: sign a silence statement about every seat the step still waits for (see
    :mod:`condottiere.peer.silence`); True if one was published."""
    step, seat = t.step, t.seat
    if step is None or seat is None or deadline is None or waited < deadline:
        return False
    if t._quiet or seat in t.out:
        return False
    published = False
    for author in step.missing:
        silent = t.seat_of(author)
        if author == t.me or silent is None:
            continue
        if t.me in t._statements.get((silent, step.number), {}):
            continue
        t._publish(log_pb2.Silence(seat=silent, step=step.number, waited=int(waited)))
        published = True
    return published


def verdict(t: Context, seat: int, number: int) -> Verdict | None:
    """Whether ``seat`` is out at step ``number`` by the votes so far (None: not decided)."""
    cast = votes(t, seat, number)
    voters = {s for s in range(len(t.seating)) if s != seat and s not in t.out}
    return silence_verdict(seat, voters, {v: e.body.answered for v, e in cast.items()})


def holding(t: Context, author: bytes, step: Step) -> bool:
    """Whether this seat holds back ``author``'s answer to ``step``: it voted the author
    silent there, and no verdict is reached yet."""
    seat, mine = t.seat_of(author), t.seat
    if seat is None or mine is None:
        return False
    return mine in votes(t, seat, step.number) and verdict(t, seat, step.number) is None


def answer_statements(t: Context) -> None:
    """Vote *answered* on every statement about an answer this table took (a seat that
    came back in time: see :mod:`condottiere.peer.silence`); and stop where this seat
    finds itself put out at a step it went past (it came back too late)."""
    seat = t.seat
    if seat is None or t._quiet:
        return
    for (silent, number), statements in list(t._statements.items()):
        if (
            silent == seat
            and t.halt is None
            and number < t._step_number()
            and number != t._reseating  # the creator's seating says who is freed
        ):
            if verdict(t, silent, number) is Verdict.OUT:
                departure = departure_by_silence(t, silent, number, "a step it passed")
                t.out[seat] = departure
                t._halt_own(
                    f"this seat was put out: {departure.words(t.who(t.me))}; "
                    "the others play on without it",
                    seat,
                    departure,
                )
        elif (
            t.me not in statements
            and (silent, number) in t._took
            and seat not in t.out
            and votes(t, silent, number)
        ):
            answer = t._took[(silent, number)]
            t._publish(log_pb2.Silence(seat=silent, step=number, answered=True, answer=answer))


def departures(t: Context, step: Step) -> Next | None:
    """Put out a seat ``step`` waits for that every other seat stated silent (at the
    ready step, free the seats put out: :func:`freeable`); what comes next if one
    was, else None."""
    if step.kind == seating.READY and t.seat_of(t.lobby.creator) not in t.out:
        seats = freeable(t, step.number)
        if seats:
            return reseat(t, step, seats)
    for author in step.missing:
        seat = t.seat_of(author)
        if seat is not None and verdict(t, seat, step.number) is Verdict.OUT:
            return put_out(
                t, step, departure_by_silence(t, seat, step.number, rule_of(step.kind).words)
            )
    return None


def departure_by_leave(t: Context, entry: LogEntry) -> Departure:
    """How the author of ``entry`` (a leave) is out at the step under way."""
    seat = t.seat_of(entry.author)
    step = t.step
    assert seat is not None and step is not None
    return Departure(
        seat,
        step.number,
        rule_of(step.kind).words,
        None,
        reason=entry.body.reason[:MAX_CHAT],
        evidence=(entry.signed,),
    )


def put_out(t: Context, step: Step, departure: Departure) -> Next:
    """The seat of ``departure`` is out at ``step``: the game goes on without it where it
    can (see the table's module); what comes next."""
    seat = departure.seat
    author = t.seating[seat]
    if step.kind == seating.READY and frees(t, author):
        return reseat(t, step, (seat,))
    t.out[seat] = departure
    name = t.lobby.names.get(author, "?")
    game = t.game
    remaining = [s for s in range(len(t.seating)) if s not in t.out]
    if step.kind == audit.AUDIT:
        step.authors = tuple(a for a in step.authors if a != author)
        t._say("leave", f"{name} has left: the audit goes on without {name}", seat)
        return step
    if game is None:
        return without_before_the_deal(t, step, departure)
    dealer = t.dealer
    assert dealer is not None
    stand_in = dealer.backups.covered(seat, t.out)
    if len(remaining) > 1 and not stand_in:
        why = "a second seat gone: the others cannot open cards without both shares"
        t.halt = Halt(
            f"abandoned: {departure.words(t.who(author))} ({why}); the record is kept",
            author,
            seat,
            evidence=departure.evidence,
            departure=departure,
        )
        t._say("halt", t.halt.detail, seat)
        return After.STOPPED
    dealer.drop_seat(seat)
    if step.kind == deal.SHARES and len(remaining) > 1:
        # the deal under way is dealt as the game asked; the others stand in for its
        # shares, and its hand leaves the game once dealt
        step.authors = tuple(a for a in step.authors if a != author)
        t._removing.add(seat)
        t._say("leave", f"{name} has left: the game goes on without {name} "
               f"({departure.words(t.who(author))})", seat)
        return step
    t._ended.add(step.number)
    gone = game.remove_seat(seat)
    dealer.drop_hand(gone.seat)
    goes_on = f": the game goes on without {name}" if game.outcome is None else ""
    t._say(
        "leave",
        f"{name} has left{goes_on} ({departure.words(t.who(author))}; its "
        f"{gone.count} hidden cards leave the game unseen)",
        seat,
    )
    return After.GAME


def without_before_the_deal(t: Context, step: Step, departure: Departure) -> Next:
    """A seat out before the game was dealt: nothing secret depends on it yet, so the
    seats still at the table start again without it, from the start (a seat out at
    the start) or from the keys (at the keys and the backups of the keys): the decks
    are keyed and their secrets backed up among them alone, and the game is made
    without it. With one seat left, that seat wins by forfeit."""
    seat = departure.seat
    author = t.seating[seat]
    name = t.lobby.names.get(author, "?")
    words = departure.words(t.who(author))
    t._ended.add(step.number)
    if len(t.seating) - len(t.out) == 1:
        keys.own_dealer(t)  # the decks as they were: the audit has nothing dealt to check
        t._say("leave", f"{name} has left before the deal ({words})", seat)
        return After.GAME
    t._before_deal.add(seat)
    t.dealer = None
    t._bad_pieces.clear()
    again = seating.READY if step.kind == seating.READY else keys.KEYS
    t._say(
        "leave",
        f"{name} has left before the deal ({words}): the game goes on without {name}; "
        f"{'the start' if again == seating.READY else 'the keys'} again without {name}",
        seat,
    )
    return step.then(again, t._remaining_authors())


def rekey_step(t: Context, step: Step, draws: Sequence[Draw]) -> Step | None:
    """A re-key step when a pile these deals take from was formed again with hidden cards
    still under the key of a seat that left; None when none was."""
    dealer = t.dealer
    assert dealer is not None
    for draw in draws:
        leaver = dealer.rekeys.owed(draw.pile)
        if leaver is not None:
            return step.then(
                REKEY, t._remaining_authors(), deck=draw.pile, leaver=leaver
            )
    return None


def redeal_step(t: Context, step: Step, draws: Sequence[Draw]) -> Step | None:
    """A new backup step when a pile these deals take from was re-keyed and its members
    (three or more) still back their secrets up with a seat that left; None otherwise."""
    dealer = t.dealer
    assert dealer is not None
    for draw in draws:
        seats = dealer.backups.redealt(draw.pile)
        if seats is not None:
            t._bad_pieces.clear()
            return step.then(keys.REDEALING, t._seat_authors(list(seats)), deck=draw.pile)
    return None


class StandInRule(StepRule):
    """Every seat still at the table, at a deal after a seat left: its parts of the
    leaver's shares of the cards dealt, with proofs."""

    kind = STAND_IN
    words = "a stand-in"
    doing = "Standing in for a seat that left"
    about = "the others open its part of the cards dealt, with proofs"

    def waiting_text(self, t: Context, step: Step, names: str) -> str:
        return f"{names} to stand in for a seat that left"

    def make(self, t: Context, step: Step) -> Message | None:
        assert step.leaver is not None
        return keys.own_dealer(t).stand_ins.make(step.leaver, step.draws)

    def judge(self, t: Context, step: Step, author: bytes, entry: LogEntry) -> EntryVerdict:
        seat = t.seat_of(author)
        assert t.dealer is not None and seat is not None and step.leaver is not None
        t.dealer.stand_ins.accept(seat, step.leaver, entry.body, step.draws)
        return ACCEPT

    def finish(self, t: Context, step: Step) -> Next:
        assert t.dealer is not None and step.leaver is not None
        t.dealer.stand_ins.complete(step.leaver, step.draws)
        t._say("deal", f"the others stood in for {t.who(t.seating[step.leaver])}")
        return deal.finish_deal(t, step.draws)


class RekeyRule(StepRule):
    """Every seat still at the table, when a deck is formed again after a seat left: its
    parts of the leaver's shares of the hidden cards that come back, with proofs (the
    deck's new round is keyed without the leaver)."""

    kind = REKEY
    words = "the re-keying of a deck"
    doing = "Re-keying a deck"
    about = "the key of the seat that left is taken off the cards that come back"

    def waiting_text(self, t: Context, step: Step, names: str) -> str:
        return f"{names} to re-key deck {step.deck + 1} without a seat that left"

    def make(self, t: Context, step: Step) -> Message | None:
        assert step.leaver is not None
        return keys.own_dealer(t).rekeys.make(step.deck, step.leaver)

    def judge(self, t: Context, step: Step, author: bytes, entry: LogEntry) -> EntryVerdict:
        seat = t.seat_of(author)
        assert t.dealer is not None and seat is not None and step.leaver is not None
        t.dealer.rekeys.accept(seat, step.leaver, step.deck, entry.body)
        return ACCEPT

    def finish(self, t: Context, step: Step) -> Next:
        assert t.dealer is not None and step.leaver is not None
        t.dealer.rekeys.complete(step.deck, step.leaver)
        t._say(
            "shuffle",
            f"deck {step.deck + 1} is keyed again without "
            f"{t.who(t.seating[step.leaver])}: its cards no longer need it",
        )
        return After.GAME


register(StandInRule(), RekeyRule())


# ---------------------------------------------------------------- seats freed at the start


def frees(t: Context, author: bytes) -> bool:
    """Whether a seat out at the start is freed for another joiner: any seat but the
    creator's (whose seating it is to make), while the creator is at the table."""
    creator = t.lobby.creator
    return author != creator and t.seat_of(creator) not in t.out


def freeable(t: Context, number: int) -> tuple[int, ...]:
    """The seats put out at the ready step ``number``: the largest set of seats (never
    the creator's) each of which every seat outside it still at the table stated silent
    there, or whose player said it leaves. Seats silent together need not state each
    other silent (nobody may be left to); every seat that could have taken one's ready
    is outside the set and stated it silent, so no peer but theirs went past the step.
    Statements only add up, so once a seat is in the set it stays in it."""
    at_table = [s for s in range(len(t.seating)) if s not in t.out]
    group = {s for s in at_table if t.seating[s] != t.lobby.creator}
    while True:
        kept = {
            seat for seat in group
            if left(t, seat, number) or all(
                stated(t, voter, seat, number) is False
                for voter in at_table if voter not in group and voter != seat
            )
        }
        if kept == group:
            return tuple(sorted(group))
        group = kept


def stated(t: Context, voter: int, seat: int, number: int) -> bool | None:
    """``voter``'s first statement about ``seat`` at step ``number``: whether it says it
    holds the seat's answer; None when it stated nothing."""
    vote = votes(t, seat, number).get(voter)
    return None if vote is None else bool(vote.body.answered)


def left(t: Context, seat: int, number: int) -> LogEntry | None:
    """``seat``'s leave, if its player left at the ready step ``number`` (its leave comes
    before any ready of its to that step: a leave is read where the next answer is)."""
    for entry in t.logs.log(t.seating[seat]):
        if entry.kind == seating.READY and entry.step == number:
            return None
        if entry.kind == "leave":
            return entry
    return None


def reseat(t: Context, step: Step, seats: Sequence[int]) -> Step:
    """Seats were not ready in time (or their players left before the start): the table
    waits for the creator to seat the next joiners in their places (see
    :func:`check_reseating`)."""
    t._ended.add(step.number)
    t._reseating = step.number
    for seat in seats:
        author = t.seating[seat]
        departure = departure_frees(t, seat, step.number)
        t._say(
            "freed",
            f"{t.lobby.names.get(author, '?')}'s seat is freed"
            f" ({departure.words(t.who(author))}): the table seats the next player who"
            " asks in their place",
            seat,
        )
    return step.then(seating.SEATING, (t.lobby.creator,))


def check_reseating(
    t: Context, authors: tuple[bytes, ...]
) -> list[tuple[bytes, Departure]] | None:
    """The seats a new seating frees, with how each was put out at the start:
    :class:`Rejection` unless every other seat stays where it was, and every seat it
    frees was put out there, each stated silent by every seat it does not free (or left);
    None while statements that may still come are missing."""
    number = t._reseating
    assert number is not None
    freed = [seat for seat, author in enumerate(t.seating) if authors[seat] != author]
    if not freed:
        raise Rejection(Reason.UNEXPECTED, "a new seating frees a seat not ready in time")
    for seat in freed:
        author = t.seating[seat]
        if author == t.lobby.creator or author in authors:
            raise Rejection(
                Reason.UNEXPECTED, "a new seating keeps every seat it does not free in place"
            )
    voters = [s for s in range(len(t.seating)) if s not in t.out and s not in freed]
    mine = t.seat
    for seat in freed:
        if (
            mine in voters and (seat, number) in t._took and not t._quiet
            and stated(t, mine, seat, number) is None
        ):  # this peer holds its ready: it says so, and the seating can never hold
            t._publish(log_pb2.Silence(
                seat=seat, step=number, answered=True, answer=t._took[(seat, number)]))
    waiting = False
    for seat in freed:
        if left(t, seat, number):
            continue
        said = [stated(t, voter, seat, number) for voter in voters if voter != seat]
        if any(said):
            raise Rejection(Reason.UNEXPECTED, "a new seating frees a seat that was ready")
        waiting = waiting or None in said
    if waiting:
        return None
    return [(t.seating[seat], departure_frees(t, seat, number)) for seat in freed]


def departure_frees(t: Context, seat: int, number: int) -> Departure:
    """How a seat a valid new seating frees was put out at the ready step ``number``."""
    leave = left(t, seat, number)
    if leave is not None:
        reason = leave.body.reason[:MAX_CHAT]
        at = rule_of(seating.READY).words
        return Departure(seat, number, at, None, reason=reason, evidence=(leave.signed,))
    return departure_by_silence(t, seat, number, rule_of(seating.READY).words)


def free_seats(
    t: Context, freed: Sequence[tuple[bytes, Departure]], authors: tuple[bytes, ...]
) -> None:
    """Apply a new seating's freed seats (see :func:`check_reseating`)."""
    for author, departure in freed:
        name = t.lobby.names.get(author, "?")
        taker = t.lobby.names.get(authors[departure.seat], "?")
        t.freed.append((name, departure))
        t.lobby.free(author)
        words = departure.words(f"seat {departure.seat} ({name})")
        if author == t.me:
            t._halt_own(f"this seat was freed for another player: {words}", departure.seat)
        else:
            t._say("freed", f"{taker} takes the seat freed from {name} ({words})",
                   departure.seat)
    t._reseating = None


# the seating's rules build on this module's context: it is imported once that is defined
from condottiere.peer.steps import seating  # noqa: E402
