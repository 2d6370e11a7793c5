"""Leavers and re-keys: the relay rounds on a seat past its deadline, a seat put out (out by
this peer's own decision, or left), the game going on without it, the others standing in
for its decryption shares at a deal under way and, right after its verdict, for every card
still in play (the decks re-keyed without it, then backed up again among the seats that
stayed); before the deal, the seats still there start again
without it, and seats put out at the start are freed for other joiners (the creator's new
seating says which).

See the table's module (:mod:`condottiere.peer.driver`) for the whole story, and
:mod:`condottiere.peer.silence` for the rounds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from google.protobuf.message import Message

from condottiere.interface import GameState
from condottiere.peer.dealing import Dealer
from condottiere.peer.entries import LogEntry, Reason, Rejection
from condottiere.peer.lobby import Lobby
from condottiere.peer.logs import Logs
from condottiere.peer.silence import Decision, Departure, decide, round_seconds
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


@dataclass
class Stand:
    """What one author stated about one (seat, step): its first statement of each kind (see
    :mod:`condottiere.peer.silence`)."""

    silent: LogEntry | None = None
    """Its start: its deadline passed without the seat's answer."""
    relay: LogEntry | None = None
    """It holds the seat's answer (the statement carries it)."""
    out: LogEntry | None = None
    """Its rounds ended without an answer: the seat is out for it."""


_NOTHING = Stand()
"""The stand of an author that stated nothing."""

class Context(keys.Context, deal.Context, Protocol):
    """What the rules of leavers see of the table."""

    lobby: Lobby
    logs: Logs
    dealer: Dealer | None
    game: GameState[Any] | None
    step: Step | None
    freed: list[tuple[str, Departure]]
    judge: bytes | None
    _statements: dict[tuple[int, int], dict[bytes, Stand]]
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

    def _add(self, entry: LogEntry) -> None: ...


def take_statement(t: seating.Context, entry: LogEntry) -> None:
    """Keep a silence statement (:func:`note`); take in the answer a relay carries, as if it
    had come by itself (anyone may relay it), if the door lets its author in."""
    body = entry.body
    note(t, entry)
    if body.answered:
        t._unchecked.append(entry)
    if body.answered and body.answer and not t.logs.holds(body.answer):
        answer = audit.read_entry_or_none(body.answer, t.table_id)
        if answer is not None and seating.door(t, answer) is None:
            t._add(answer)


def note(t: Context, entry: LogEntry, earlier: Sequence[LogEntry] | None = None) -> None:
    """Keep ``entry`` (a silence statement) as its author's first of its kind about its
    (seat, step). A start or *out* signed after its author answered a later step is no
    decision (its author had gone past that step: an honest peer never signs one), so a
    table taken up again, or ``verify``, reads the author's decisions as it took them.
    ``earlier``: the author's entries before it (default: as this table holds them)."""
    body = entry.body
    if not body.answered:
        before = t.logs.log(entry.author)[: entry.seq] if earlier is None else earlier
        if any(not e.free and e.step > body.step for e in before):
            return
    stand = t._statements.setdefault((body.seat, body.step), {}).setdefault(
        entry.author, Stand()
    )
    if body.answered:
        stand.relay = stand.relay or entry
    elif body.out:
        stand.out = stand.out or entry
    else:
        stand.silent = stand.silent or entry


def stands(t: Context, seat: int, number: int) -> dict[int, Stand]:
    """What every other seated author stated about ``seat`` at step ``number``, by its seat
    (nothing about a step before the seating that holds now: that names another seating's
    seats); a relay that does not carry the seat's answer is no relay."""
    if number < t._seated_at:
        return {}
    found = {}
    for author, stand in t._statements.get((seat, number), {}).items():
        voter = t.seat_of(author)
        if voter is None or voter == seat:
            continue
        if stand.relay is not None and not carries_answer(t, seat, number, stand.relay):
            stand = Stand(stand.silent, None, stand.out)
        found[voter] = stand
    return found


def judge_of(t: Context) -> bytes | None:
    """Whose decisions this fold follows: the table's :attr:`judge` when set (``verify``
    folds a record as its owner did), else this peer's own seat; None while that author has
    no seat (a joiner catching up, a spectator, a record that names no owner: see
    :func:`stand`)."""
    judge = t.judge if t.judge is not None else t.me
    return judge if t.seat_of(judge) is not None else None


def stand(t: Context, seat: int, number: int) -> Stand | None:
    """The judge's stand on ``seat`` at step ``number`` (:func:`judge_of`). A fold without a
    judge follows the creator's (whose seating the lobby follows anyway), or once the
    creator is out the first seat still at the table; on the creator itself, no seat's word
    before the deal, and in the game the *out* of every other seat at the table."""
    judge = judge_of(t)
    creator = t.seat_of(t.lobby.creator)
    if judge is None and seat == creator:
        if t.game is None or not all_others_out(t, seat, number):
            return None
        said = stands(t, seat, number)
        return next(s for v, s in sorted(said.items()) if s.out is not None)
    if judge is None:
        judge = t.lobby.creator if creator is not None and creator not in t.out else next(
            (a for s, a in enumerate(t.seating) if s not in t.out), t.lobby.creator)
    mine = t.seat_of(judge)
    return None if mine is None else stands(t, seat, number).get(mine)


def decided_out(t: Context, seat: int, number: int) -> bool:
    """Whether the judge decided ``seat`` out at step ``number`` (and did not take its
    answer first)."""
    found = stand(t, seat, number)
    return found is not None and found.out is not None and found.relay is None


def carries_answer(t: Context, seat: int, number: int, statement: LogEntry) -> bool:
    """Whether a relay about ``seat`` at step ``number`` carries that seat's own signed
    answer to that step (else it is false)."""
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
    """Once the game has started, halt on a relay that does not carry the answer it speaks
    of: its signer's own entry proves it false (the same at every peer, whenever it
    comes)."""
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
    """How ``seat`` is out at step ``number`` (``at``: the step in words): the *out*
    statements held about it (the judge's among them)."""
    signed = {voter: s.out for voter, s in stands(t, seat, number).items()
              if s.out is not None and s.relay is None}
    return Departure(
        seat,
        number,
        at,
        min(entry.body.waited for entry in signed.values()),
        tuple(sorted(signed)),
        evidence=tuple(signed[voter].signed for voter in sorted(signed)),
    )


def declare_silent(t: Context, waited: float, deadline: int | None) -> bool:
    """The owner's timer, ``waited`` seconds (by its clock) since the step began: past the
    step's ``deadline``, start the rounds on every seat the step still waits for, and decide
    on those started (accept an answer relayed by enough seats, or state the seat out once
    the rounds are over: :func:`condottiere.peer.silence.decide`); True if a statement was
    published."""
    step, seat = t.step, t.seat
    if step is None or seat is None or deadline is None or waited < deadline:
        return False
    if t._quiet or seat in t.out or judge_of(t) != t.me:
        return False
    published = False
    at_table = len(t.seating) - len(t.out)
    round_length = round_seconds(t.spec.deadlines.step)
    for author in step.missing:
        silent = t.seat_of(author)
        if author == t.me or silent is None or silent in t.out:
            continue
        mine = stands(t, silent, step.number).get(seat)
        if mine is None or mine.silent is None:
            if mine is not None and (mine.relay is not None or mine.out is not None):
                continue
            t._publish(log_pb2.Silence(seat=silent, step=step.number, waited=int(waited)))
            published = True
            mine = stands(t, silent, step.number).get(seat)
            assert mine is not None
        if mine.relay is not None or mine.out is not None:
            continue
        held = {voter: s.relay for voter, s in stands(t, silent, step.number).items()
                if voter != seat and voter not in t.out and s.relay is not None}
        decision = decide(waited=waited, deadline=deadline, at_table=at_table,
                          relays=len(held), round_length=round_length)
        if decision is Decision.ANSWERED:
            relay = held[min(held)]
            t._publish(log_pb2.Silence(seat=silent, step=step.number, answered=True,
                                       answer=relay.body.answer))
            published = True
        elif decision is Decision.OUT:
            t._publish(log_pb2.Silence(seat=silent, step=step.number, waited=int(waited),
                                       out=True))
            published = True
    return published


def holding(t: Context, author: bytes, step: Step) -> bool:
    """Whether this fold holds back ``author``'s answer to ``step``: the judge started the
    rounds on it there and has decided nothing yet."""
    seat = t.seat_of(author)
    if seat is None:
        return False
    found = stand(t, seat, step.number)
    return (
        found is not None and found.silent is not None
        and found.relay is None and found.out is None
    )


def answer_statements(t: Context) -> None:
    """Relay every answer this table took before its deadline that another seat started
    the rounds on; and stop where every other seat at the table (two or more) stated this
    seat out at a step it went past (it came back too late)."""
    seat = t.seat
    if seat is None or t._quiet or judge_of(t) != t.me or seat in t.out:
        return
    for (silent, number), said in list(t._statements.items()):
        if silent == seat:
            if (
                t.halt is None
                and number < t._step_number()
                and number != t._reseating  # the creator's seating says who is freed
            ):
                told_out(t, number)
        elif t.me not in said and (silent, number) in t._took and any(
            s.silent is not None for s in stands(t, silent, number).values()
        ):
            answer = t._took[(silent, number)]
            t._publish(log_pb2.Silence(seat=silent, step=number, answered=True, answer=answer))


def told_out(t: Context, number: int) -> None:
    """Stop if every other seat at the table, two or more, stated this seat out at step
    ``number``: its answer did not reach them in time, and they play on without it. (At two
    seats one seat's word is not enough: it may be false.)"""
    seat = t.seat
    assert seat is not None
    others = [s for s in range(len(t.seating)) if s != seat and s not in t.out]
    if len(others) < 2 or not all_others_out(t, seat, number):
        return
    departure = departure_by_silence(t, seat, number, "a step it passed")
    t.out[seat] = departure
    t._halt_own(
        f"this seat was put out: {departure.words(t.who(t.me))}; "
        "the others play on without it",
        seat,
        departure,
    )


def departures(t: Context, step: Step) -> Next | None:
    """Put out every seat ``step`` waits for that the judge decided out there, together (at
    the ready step, free the seats put out: :func:`freeable`); what comes next if one was,
    else None."""
    if step.kind == seating.READY and t.seat_of(t.lobby.creator) not in t.out:
        seats = freeable(t, step.number)
        if seats:
            return reseat(t, step, seats)
    out = []
    for author in step.missing:
        seat = t.seat_of(author)
        if seat is not None and seat not in t.out and decided_out(t, seat, step.number):
            out.append(departure_by_silence(t, seat, step.number, rule_of(step.kind).words))
    return put_out(t, step, out) if out else None


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


def put_out(t: Context, step: Step, departed: Sequence[Departure]) -> Next:
    """The seats of ``departed`` are out at ``step``, together: the game goes on without them
    where it can (see the table's module); what comes next."""
    if step.kind == seating.READY:
        freed = [d.seat for d in departed if frees(t, t.seating[d.seat])]
        if freed:
            return reseat(t, step, freed)
    for departure in departed:
        t.out[departure.seat] = departure
    gone = {t.seating[d.seat] for d in departed}
    remaining = [s for s in range(len(t.seating)) if s not in t.out]
    if step.kind == audit.AUDIT:
        step.authors = tuple(a for a in step.authors if a not in gone)
        for departure in departed:
            name = t.lobby.names.get(t.seating[departure.seat], "?")
            t._say("leave", f"{name} has left: the audit goes on without {name}",
                   departure.seat)
        return step
    game = t.game
    if game is None:
        return without_before_the_deal(t, step, departed)
    dealer = t.dealer
    assert dealer is not None
    for departure in departed:
        if len(remaining) > 1 and not dealer.backups.covered(departure.seat, t.out):
            return abandon(t, departed, departure)
    for departure in departed:
        dealer.drop_seat(departure.seat)
    if step.kind == deal.SHARES and len(remaining) > 1:
        # the deal under way is dealt as the game asked; the others stand in for its
        # shares, and its hand leaves the game once dealt
        step.authors = tuple(a for a in step.authors if a not in gone)
        for departure in departed:
            author = t.seating[departure.seat]
            name = t.lobby.names.get(author, "?")
            t._removing.add(departure.seat)
            t._say("leave", f"{name} has left: the game goes on without {name} "
                   f"({departure.words(t.who(author))})", departure.seat)
        return step
    t._ended.add(step.number)
    for departure in departed:
        author = t.seating[departure.seat]
        name = t.lobby.names.get(author, "?")
        hand = game.remove_seat(departure.seat)
        dealer.drop_hand(hand.seat)
        goes_on = f": the game goes on without {name}" if game.outcome is None else ""
        t._say(
            "leave",
            f"{name} has left{goes_on} ({departure.words(t.who(author))}; its "
            f"{hand.count} hidden cards leave the game unseen)",
            departure.seat,
        )
    return After.GAME


def abandon(t: Context, departed: Sequence[Departure], uncovered: Departure) -> Next:
    """Stop the table: the seats of ``departed`` are out and the backups cannot cover
    ``uncovered`` among them (a second seat gone before the others backed up again, or
    seats gone together); the halt names them all."""
    author = t.seating[uncovered.seat]
    why = ("a second seat gone: the others cannot open cards without both shares"
           if len(departed) == 1 else
           "seats gone together: the others cannot open cards without their shares")
    words = "; ".join(d.words(t.who(t.seating[d.seat])) for d in departed)
    t.halt = Halt(
        f"abandoned: {words} ({why}); the record is kept",
        author,
        uncovered.seat,
        evidence=tuple(e for d in departed for e in d.evidence),
        departure=uncovered,
    )
    t._say("halt", t.halt.detail, uncovered.seat)
    return After.STOPPED


def without_before_the_deal(t: Context, step: Step, departed: Sequence[Departure]) -> Next:
    """Seats out before the game was dealt: nothing secret depends on them yet, so the
    seats still at the table start again without them, from the start (seats out at the
    start) or from the keys (at the keys and the backups of the keys): the decks are keyed
    and their secrets backed up among them alone, and the game is made without them. With
    one seat left, that seat wins by forfeit."""
    told = []
    for departure in departed:
        author = t.seating[departure.seat]
        told.append((departure.seat, t.lobby.names.get(author, "?"),
                     departure.words(t.who(author))))
    t._ended.add(step.number)
    if len(t.seating) - len(t.out) <= 1:
        keys.own_dealer(t)  # the decks as they were: the audit has nothing dealt to check
        for seat, name, words in told:
            t._say("leave", f"{name} has left before the deal ({words})", seat)
        return After.GAME
    t._before_deal.update(d.seat for d in departed)
    t.dealer = None
    t._bad_pieces.clear()
    again = seating.READY if step.kind == seating.READY else keys.KEYS
    for seat, name, words in told:
        t._say(
            "leave",
            f"{name} has left before the deal ({words}): the game goes on without {name}; "
            f"{'the start' if again == seating.READY else 'the keys'} again without {name}",
            seat,
        )
    return step.then(again, t._remaining_authors())


def catch_up(t: Context, step: Step) -> Step | None:
    """The step a seat out still calls for before the game goes on (None when none): the
    others stand in at once for its shares of every card of a deck that still needs them
    (a ``rekey`` step; for a round formed again, its shuffle unfinished, the cards under its
    key with no share of it recorded, before the round is shuffled), and back their own
    secrets up again among themselves (three or more: a ``redealing`` step). From then on a
    second leaver is covered as the first was."""
    dealer = t.dealer
    if dealer is None or not t.out:
        return None
    for index in range(len(dealer.decks)):
        leaver = dealer.rekeys.owed(index)
        if leaver is not None:
            return step.then(REKEY, t._remaining_authors(), deck=index, leaver=leaver)
    for index in range(len(dealer.decks)):
        seats = dealer.backups.redealt(index)
        if seats is not None:
            t._bad_pieces.clear()
            return step.then(keys.REDEALING, t._seat_authors(list(seats)), deck=index)
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
    """Every seat still at the table, right after a seat left (see :func:`catch_up`): its
    parts of the leaver's shares of every card of a deck that still needs them, with
    proofs (then no card needs the leaver again)."""

    kind = REKEY
    words = "the re-keying of a deck"
    doing = "Re-keying a deck"
    about = "the others stand in for the seat that left on every card that needs it"

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
    """The seats put out at the ready step ``number``: every seat at the table (never the
    creator's) that the judge decided out there, or whose player said it leaves, and this
    peer's own seat where every other seat stated it out. Seats silent together are decided
    together, so they are freed together."""
    return tuple(
        seat for seat in range(len(t.seating))
        if seat not in t.out and t.seating[seat] != t.lobby.creator
        and (left(t, seat, number) or decided_out(t, seat, number)
             or (seat == t.seat and all_others_out(t, seat, number)))
    )


def stated_out_by(t: Context, author: bytes, number: int) -> set[int]:
    """The seats ``author`` stated out at a step up to ``number``."""
    return {
        seat for (seat, at), said in t._statements.items()
        if at <= number and said.get(author, _NOTHING).out is not None
    }


def stated_me_out(t: Context, author: bytes, number: int) -> bool:
    """Whether ``author`` stated this seat out at a step up to ``number``: its entries after
    that follow a table without this seat, so this seat holds them (it is told out once every
    other seat said so, or it waits for that author as for any seat) rather than refuse them."""
    return t.seat is not None and t.seat in stated_out_by(t, author, number)


def went_apart(t: Context, author: bytes, number: int) -> bool:
    """Whether ``author`` stated out, at a step up to ``number``, a seat this fold has not put
    out (this seat included): its entries after that follow a table this one is not (its
    statement counts for nothing here), so they are held rather than refused as out of turn.
    The author is put out for its silence as any seat, or this fold reaches the same decision
    and takes them then (an honest seat's decision may reach this peer before its own does)."""
    return any(seat == t.seat or seat not in t.out for seat in stated_out_by(t, author, number))


def all_others_out(t: Context, seat: int, number: int) -> bool:
    """Whether every other seat at the table stated ``seat`` out at step ``number`` (and
    none of them relayed its answer)."""
    said = stands(t, seat, number)
    others = [s for s in range(len(t.seating)) if s != seat and s not in t.out]
    return bool(others) and all(
        s in said and said[s].out is not None and said[s].relay is None for s in others
    )


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
    frees was put out there by the judge's decision (or left; this seat itself, by every
    other seat's); None while a decision is still to come."""
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
    mine = t.seat
    waiting = False
    for seat in freed:
        if left(t, seat, number):
            continue
        if seat == mine:  # this seat is told: every other seat at the table stated it out
            if any(s.relay is not None for s in stands(t, seat, number).values()):
                raise Rejection(Reason.UNEXPECTED, "a new seating frees a seat that was ready")
            waiting = waiting or not all_others_out(t, seat, number)
            continue
        if (
            judge_of(t) == t.me and mine is not None and (seat, number) in t._took
            and not t._quiet and mine not in stands(t, seat, number)
        ):  # this peer holds its ready: it says so
            t._publish(log_pb2.Silence(
                seat=seat, step=number, answered=True, answer=t._took[(seat, number)]))
        found = stand(t, seat, number)
        if found is not None and found.relay is not None:
            raise Rejection(Reason.UNEXPECTED, "a new seating frees a seat that was ready")
        waiting = waiting or not decided_out(t, seat, number)
    if waiting:
        return None
    return [(t.seating[seat], departure_frees(t, seat, number)) for seat in freed]


def departure_frees(t: Context, seat: int, number: int) -> Departure:
    """How a seat a valid new seating frees was put out at the ready step ``number``: its
    leave, or the creator's decision (the seating's author's)."""
    at = rule_of(seating.READY).words
    leave = left(t, seat, number)
    if leave is not None:
        reason = leave.body.reason[:MAX_CHAT]
        return Departure(seat, number, at, None, reason=reason, evidence=(leave.signed,))
    creator = t.seat_of(t.lobby.creator)
    said = stands(t, seat, number).get(creator) if creator is not None else None
    if creator is not None and said is not None and said.out is not None:
        out = said.out  # the seating's author decided: the same words on every peer
        return Departure(seat, number, at, out.body.waited, (creator,), evidence=(out.signed,))
    return departure_by_silence(t, seat, number, at)


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
