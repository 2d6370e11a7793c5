"""A seat that stops answering, as a fold with no socket: deadlines, silence statements, the
verdict every other seat must reach, a seat that comes back in time or too late, a polite
leave, a forfeit, an abandoned table, and what ``verify`` says of each record."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest

from condottiere.crypto import Identity
from condottiere.interface import OutcomeKind
from condottiere.peer.driver import MemoryKeeper, Step, StepKind, Table
from condottiere.peer.entries import LogEntry, read_entry
from condottiere.peer.lobby import Deadlines, TableSpec
from condottiere.peer.record import verify
from condottiere.peer.silence import RELAY_ROUND, Decision, Departure, decide, rounds
from condottiere.peer.steps import RULES, rule_of
from condottiere.peer.steps.audit import AUDIT
from condottiere.peer.steps.coins import COIN_COMMIT
from condottiere.peer.steps.deal import SHARES, SHUFFLE
from condottiere.peer.steps.keys import DEALINGS, KEYS, PIECE_CHECKS
from condottiere.peer.steps.moves import MOVE
from condottiere.v1 import log_pb2
from tests.peer.tables import Harness, all_entries, feed

LATE = 10_000.0
"""Seconds waited, past every deadline."""


class Departing(Harness):
    """A harness in which seats can die: a dead seat's peer takes nothing in any more, and
    whatever it signed that no live peer held yet never leaves it (as with kill -9)."""

    def __init__(
        self,
        *args: object,
        doomed: tuple[int, StepKind] | None = None,
        politely: bool = False,
        together: tuple[int, ...] = (),
        **kwargs: object,
    ) -> None:
        """``doomed``: (seat, step) kills that seat when it is about to sign its first entry
        of a step of that kind (``politely``: once it has signed a leave); the seats of
        ``together`` die the same way at the same kind of step."""
        self.politely = politely
        self.dead: set[int] = set()
        self.sent: set[bytes] = set()
        self.withheld: set[bytes] = set()
        """Entries kept back from everyone, whoever signed them."""
        if doomed is not None:
            kinds = dict(kwargs.get("kinds") or {})  # type: ignore[call-overload]
            for seat in (doomed[0], *together):
                kinds[seat] = self._dying(seat, doomed[1])
            kwargs["kinds"] = kinds
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def _dying(self, seat: int, kind: StepKind) -> type[Table]:
        harness = self

        class Dying(Table):
            def _make(self, step: Step) -> bool:
                if step.kind == kind and seat not in harness.dead:
                    if harness.politely:
                        self._publish(log_pb2.Leave(reason="called away"))
                    harness.kill(seat)
                if seat in harness.dead:
                    return False
                return super()._make(step)

        return Dying

    def kill(self, seat: int) -> None:
        self.sent = {
            entry.hash
            for table in self.live()
            for author in table.logs.authors
            for entry in table.logs.log(author)
        }
        self.dead.add(seat)

    def live(self) -> list[Table]:
        return [t for s, t in enumerate(self.tables) if s not in self.dead]

    def blocked(self, table: Table, entry: LogEntry) -> bool:
        if entry.hash in self.withheld:
            return True
        if self.tables.index(table) in self.dead:
            return True
        authors = [t.me for t in self.tables]
        author = authors.index(entry.author) if entry.author in authors else None
        return author in self.dead and entry.hash not in self.sent

    def run(
        self,
        *,
        patient: Callable[[Table], bool] = lambda table: False,
        until: Callable[[], bool] | None = None,
        rounds: int = 5000,
    ) -> None:
        """Play the live seats' moves; when nothing moves, time passes: every live peer that
        is not ``patient`` states silent whom it waits for."""
        for _ in range(rounds):
            self.deliver()
            if all(t.over for t in self.live()) or (until is not None and until()):
                return
            moved = False
            for seat, table in enumerate(self.tables):
                game, step = table.game, table.step
                if (
                    seat not in self.dead
                    and game is not None
                    and step is not None
                    and step.kind == MOVE
                    and step.missing == (table.me,)
                ):
                    assert table.submit(self.bots[seat].choose(game.copy(), seat)) is None
                    moved = True
            if not moved and self.deliver() == 0:
                stated = [t.declare_silent(LATE) for t in self.live() if not patient(t)]
                if not any(stated) and self.deliver() == 0:
                    raise AssertionError(f"stuck: {[t.waiting() for t in self.live()]}")
        raise AssertionError("the game did not end")


def at_step(kind: StepKind) -> Callable[[Harness], bool]:
    return lambda harness: all(
        t.step is not None and t.step.kind == kind for t in harness.tables
    )


def test_there_is_a_relay_round_for_each_seat_that_could_relay() -> None:
    assert [rounds(n) for n in range(2, 7)] == [0, 1, 2, 3, 4]


def test_at_two_seats_the_deadline_itself_decides() -> None:
    assert decide(waited=60, deadline=60, at_table=2, relays=0) is Decision.OUT


def test_round_k_accepts_an_answer_relayed_by_k_seats_and_the_end_of_the_rounds_puts_out() -> None:
    start = 60
    in_round = [start + (k - 1) * RELAY_ROUND + 1 for k in (1, 2, 3)]
    assert decide(waited=in_round[0], deadline=start, at_table=5, relays=1) is Decision.ANSWERED
    assert decide(waited=in_round[1], deadline=start, at_table=5, relays=1) is None
    assert decide(waited=in_round[1], deadline=start, at_table=5, relays=2) is Decision.ANSWERED
    assert decide(waited=in_round[2], deadline=start, at_table=5, relays=2) is None
    assert decide(waited=in_round[2], deadline=start, at_table=5, relays=3) is Decision.ANSWERED
    end = start + 3 * RELAY_ROUND
    assert decide(waited=end - 1, deadline=start, at_table=5, relays=0) is None
    assert decide(waited=end, deadline=start, at_table=5, relays=0) is Decision.OUT
    assert decide(waited=end + 1, deadline=start, at_table=5, relays=3) is Decision.OUT


def test_each_step_has_the_deadline_the_table_definition_gives_it() -> None:
    harness = Harness("zman", 3, seed=1)
    table = harness.tables[0]
    assert table.spec.deadlines == Deadlines()
    harness.deliver()
    while table.step is not None and table.step.kind != MOVE:
        assert table.deadline() in (Deadlines().step, None)
        harness.deliver()
    assert table.deadline() == Deadlines().move


class BotJoiner(Table):
    """A peer whose seat a program plays: its join says so."""

    def join(self, player: str, address: str, *, bot: bool = False) -> None:
        super().join(player, address, bot=True)


def test_the_deadlines_travel_in_the_definition_and_a_bot_seat_gets_the_bots_for_moves() -> None:
    spec = TableSpec("zman", 2, (), "t", "ada", "", deadlines=Deadlines(90, 5, 3))
    assert TableSpec.from_body(spec.body()).deadlines == Deadlines(90, 5, 3)
    harness = Harness("zman-duel", 2, seed=1, kinds={1: BotJoiner})
    harness.deliver()
    table = harness.tables[0]
    assert table.lobby.bots == {harness.tables[1].me}
    moves = set()
    while table.game is not None and table.game.outcome is None and len(moves) < 2:
        step = table.step
        assert step is not None
        if step.kind == MOVE:
            seat = table.seat_of(step.authors[0])
            assert seat is not None
            moves.add((seat, table.deadline()))
            mover = harness.tables[seat]
            assert mover.game is not None
            assert mover.submit(harness.bots[seat].choose(mover.game.copy(), seat)) is None
        harness.deliver()
    assert moves == {(0, Deadlines().move), (1, Deadlines().bot_move)}


def test_a_statement_before_the_deadline_is_not_signed() -> None:
    harness = Departing("zman-duel", 2, seed=3)
    harness.deliver()
    table = harness.tables[0]
    assert table.deadline() is not None
    assert not table.declare_silent(table.deadline() - 1)  # type: ignore[operator]


def test_a_seat_silent_at_a_move_of_a_two_seat_game_loses_by_forfeit_on_every_peer() -> None:
    harness = Departing("zman-duel", 2, seed=3)
    harness.run(until=lambda: harness.tables[0].game is not None
                and harness.tables[0].game.moves_played >= 3)
    harness.kill(1)
    harness.run()
    table = harness.tables[0]
    game = table.game
    assert game is not None and game.outcome is not None
    assert game.outcome.kind is OutcomeKind.FORFEIT and game.outcome.winners == (0,)
    assert table.halt is None and table.over and not table.refusals
    assert 1 in table.out and table.out[1].signers == (0,)
    assert any("has left" in event.text for event in table.events)
    verdict = verify(all_entries(table))
    assert verdict.table.record_hash() == table.record_hash()
    text = "\n".join(verdict.lines())
    assert "forfeit" in text and "seat 1 (seat1) silent at a move" in text, text


@pytest.mark.parametrize("seats", [3, 4])
@pytest.mark.parametrize("kind", [KEYS, DEALINGS, PIECE_CHECKS])
def test_a_seat_silent_before_the_deal_is_out_and_the_others_key_the_decks_again_and_finish(
    kind: StepKind, seats: int
) -> None:
    victim = seats - 1
    harness = Departing("zman", seats, seed=4, doomed=(victim, kind))
    harness.run(until=lambda: bool(harness.dead))
    first, *others = harness.live()
    assert first.declare_silent(LATE)
    harness.deliver()
    assert list(first.out) == [victim], "each peer puts out by its own decision"
    assert not any(other.out for other in others), "another's decision moves no other fold"
    for other in others:
        assert other.declare_silent(LATE)
    harness.deliver()
    for table in harness.live():
        assert list(table.out) == [victim] and table.halt is None
        assert [e.kind for e in table.logs.log(table.me)].count("keys") == 2, "keyed again"
        assert any("has left before the deal" in e.text for e in table.events)
    harness.run()
    live = harness.live()
    for table in live:
        assert table.halt is None and not table.refusals, (table.halt, table.refusals)
        assert table.audited and table.cards is not None, "every card audited: none was its"
        assert table.dealer is not None and victim not in table.dealer.members
        assert table.game is not None and victim in table.game.departed
        assert not any("stood in for" in e.text for e in table.events)
    assert len({t.record_hash() for t in live}) == 1
    witness = live[0]
    entries = all_entries(witness)
    verdict = verify(entries, witness.me)
    assert verdict.table.record_hash() == witness.record_hash()
    text = "\n".join(verdict.lines())
    assert f"left: seat {victim} (seat{victim}) silent at {rule_of(kind).words} for" in text, text
    assert "signed by seats " + ", ".join(str(s) for s in range(victim)) in text, text
    assert f"verdict: FAIR, played without seat {victim} (seat{victim})" in text, text
    signed = all_entries(witness)
    for seed in range(3):  # a watcher fed every entry at once, in any order, ends alike
        random.Random(seed).shuffle(signed)
        fresh = Table(Identity.generate(), witness.lobby.definition, MemoryKeeper())
        feed(fresh, signed)
        assert fresh.record_hash() == witness.record_hash() and fresh.cards is not None
    kept = harness.keepers[0]
    restored = Table.restore(witness.identity, kept, list(kept.entries))
    assert restored.record_hash() == witness.record_hash() and restored.audited


def test_a_seat_silent_at_the_keys_of_a_two_seat_game_loses_by_forfeit_with_nothing_dealt() -> None:
    harness = Departing("zman-duel", 2, seed=4, doomed=(1, KEYS))
    harness.run()
    table = harness.tables[0]
    assert table.halt is None and table.over and not table.refusals
    assert table.game is not None and table.game.outcome is not None
    assert table.game.outcome.kind is OutcomeKind.FORFEIT and table.game.outcome.winners == (0,)
    assert table.dealer is not None and not table.dealer.dealt
    text = "\n".join(verify([e.signed for a in table.logs.authors
                             for e in table.logs.log(a)]).lines())
    assert "verdict: FORFEIT without seat 1 (seat1): nothing unfair found (no card was dealt)" in (
        text), text


def test_a_second_seat_silent_at_the_keys_again_leaves_the_last_one_the_winner() -> None:
    harnesses: list[Departing] = []

    class SilentAtTheSecondKeys(Table):
        def _make(self, step: Step) -> bool:
            dead = harnesses[0].dead if harnesses else set()
            if step.kind == KEYS and self.out and 1 not in dead:
                harnesses[0].kill(1)
            return 1 not in dead and super()._make(step)

    harness = Departing("zman", 3, seed=5, doomed=(2, KEYS),
                        kinds={1: SilentAtTheSecondKeys})
    harnesses.append(harness)
    harness.run()
    table = harness.tables[0]
    assert table.halt is None and not table.refusals and sorted(table.out) == [1, 2]
    assert table.game is not None and table.game.outcome is not None
    assert table.game.outcome.kind is OutcomeKind.FORFEIT and table.game.outcome.winners == (0,)
    assert "seat 1 (seat1) silent at the keys" in table.out[1].words(table.who(table.seating[1]))


def waits_for_move_of(harness: Harness, seat: int) -> bool:
    table = harness.tables[0]
    step = table.step
    return step is not None and step.kind == MOVE and table.seat_of(
        step.authors[0]) == seat


@pytest.mark.parametrize("seats", [3, 4])
@pytest.mark.parametrize(
    "kind", [SHUFFLE, COIN_COMMIT, SHARES, MOVE]
)
def test_a_game_whose_seat_is_silent_goes_on_without_it_and_ends_alike_on_the_others(
    kind: StepKind, seats: int
) -> None:
    victim = seats - 1
    if kind == MOVE:
        harness = Departing("zman", seats, seed=seats)
        harness.run(until=lambda: waits_for_move_of(harness, victim))
        harness.kill(victim)
    else:
        harness = Departing("zman", seats, seed=seats, doomed=(victim, kind))
        harness.run(until=lambda: bool(harness.dead))
    harness.run()
    live = harness.live()
    for table in live:
        assert table.halt is None and not table.refusals, (table.halt, table.refusals)
        assert table.audited and list(table.out) == [victim]
        assert table.game is not None and victim in table.game.departed
        assert any("has left: the game goes on" in e.text for e in table.events)
    assert len({t.record_hash() for t in live}) == 1
    assert len({t.game.outcome for t in live}) == 1  # type: ignore[union-attr]
    if kind == SHARES:
        assert any("stood in for" in e.text for e in live[0].events)
    witness = live[0]
    entries = all_entries(witness)
    verdict = verify(entries)
    assert verdict.table.record_hash() == witness.record_hash()
    text = "\n".join(verdict.lines())
    assert f"left: seat {victim} (seat{victim}) silent at" in text, text
    assert re.search(f"verdict: (FINISHED|FORFEIT) without seat {victim}", text), text


def mover_of(harness: Harness) -> int:
    """The seat whose move every table waits for."""
    harness.run(until=lambda: at_step(MOVE)(harness))
    seat = harness.tables[0].seat_of(harness.tables[0].step.authors[0])  # type: ignore[union-attr]
    assert seat is not None
    return seat


def play(harness: Harness, seat: int) -> LogEntry:
    """``seat`` plays its move (sent nowhere yet); its entry."""
    table = harness.tables[seat]
    game = table.game
    assert game is not None
    assert table.submit(harness.bots[seat].choose(game.copy(), seat)) is None
    return table.logs.log(table.me)[-1]


def test_an_answer_taken_before_the_deadline_is_relayed_and_taken_in_the_first_round() -> None:
    harness = Departing("zman", 3, seed=6)
    seat = mover_of(harness)
    voter, other = harness.tables[(seat + 1) % 3], harness.tables[(seat + 2) % 3]
    deadline = voter.deadline()
    assert deadline is not None
    number = voter.step.number  # type: ignore[union-attr]
    assert voter.declare_silent(deadline)  # the start: no decision yet
    move = play(harness, seat)
    other.receive(move.signed)  # before the other's deadline: taken
    voter.receive(move.signed)  # after the voter's: held back
    assert voter.step is not None and voter.step.number == number
    assert other.step is not None and other.step.number > number
    harness.deliver()  # the voter's start reaches the other, which relays the move
    assert voter.step is not None and voter.step.number == number, "held until its timer"
    assert voter.declare_silent(deadline + 1)  # round 1, one relay: accepted, relayed
    assert voter.step is not None and voter.step.number > number
    harness.run(patient=lambda table: True)
    for table in harness.tables:
        assert table.halt is None and not table.out and table.cards is not None
    assert len({table.record_hash() for table in harness.tables}) == 1
    relays = [e for t in harness.tables for e in t.logs.log(t.me)
              if e.kind == "silence" and e.body.answered]
    assert {harness.tables.index(t) for t in harness.tables
            for e in t.logs.log(t.me) if e in relays} == {(seat + 1) % 3, (seat + 2) % 3}
    for relay in relays:
        carried = read_entry(relay.body.answer)
        assert carried.author == harness.tables[relay.body.seat].me
        assert carried.step == relay.body.step == number


def test_an_answer_that_reaches_one_peer_after_its_deadline_is_out_for_every_peer() -> None:
    """The late seat sends its answer to one peer only, after that peer's deadline: nobody
    relays what it did not accept, so every peer's rounds end without it."""
    harness = Departing("zman", 4, seed=14)
    seat = mover_of(harness)
    others = [t for s, t in enumerate(harness.tables) if s != seat]
    deadline = others[0].deadline()
    assert deadline is not None
    for table in others:
        assert table.declare_silent(deadline)
    harness.deliver()
    harness.kill(seat)
    others[0].receive(play(harness, seat).signed)
    for table in others:  # the first round: no relay
        table.declare_silent(deadline + RELAY_ROUND)
    harness.deliver()
    assert not any(table.out for table in others)
    for table in others:  # the end of the last round
        assert table.declare_silent(deadline + rounds(4) * RELAY_ROUND)
    harness.deliver()
    for table in others:
        assert list(table.out) == [seat] and table.halt is None
    harness.run()
    assert len({t.record_hash() for t in others}) == 1


def test_a_seat_that_states_nothing_does_not_keep_a_gone_seat_in() -> None:
    harness = Departing("zman", 4, seed=14)
    harness.run(until=lambda: waits_for_move_of(harness, 3))
    harness.kill(3)
    mute = harness.tables[2]
    harness.run(patient=lambda table: table is mute,
                until=lambda: all(3 in t.out for t in harness.tables[:2]))
    assert not any(e.kind == "silence" for e in mute.logs.log(mute.me))
    assert all(3 in t.out and t.halt is None for t in harness.tables[:2])


def test_a_false_answered_statement_about_a_seat_gone_halts_the_table_naming_its_signer() -> None:
    """A seat that is gone cannot be kept waited for by a statement that it answered: the
    statement must carry the seat's signed answer, and one that does not proves its signer
    false, the same on every peer."""
    harness = Departing("zman", 3, seed=7, doomed=(2, MOVE))
    harness.run(until=lambda: bool(harness.dead))
    liar = harness.tables[1]
    step = liar.step
    assert step is not None and harness.tables[2].me in step.missing
    liar._publish(log_pb2.Silence(seat=2, step=step.number, answered=True))
    liar._advance()
    harness.run()
    for table in harness.live():
        assert table.halt is not None and table.halt.cheat and table.halt.seat == 1
        assert "without carrying its answer" in table.halt.detail


def test_at_two_seats_the_other_seats_word_alone_does_not_stop_a_seat() -> None:
    """A late seat and a false statement look alike to the seat named: with one other seat,
    its word is not enough, and the seat plays on (the other's decision is its own)."""
    harness = Departing("zman-duel", 2, seed=7)
    seat = mover_of(harness)
    named, other = harness.tables[seat], harness.tables[1 - seat]
    number = other.step.number  # type: ignore[union-attr]
    other._publish(log_pb2.Silence(seat=seat, step=number, waited=999))
    other._publish(log_pb2.Silence(seat=seat, step=number, waited=999, out=True))
    named.receive(play(harness, seat).signed)
    harness.deliver()
    assert seat in other.out
    assert named.halt is None and seat not in named.out


def test_a_seat_every_other_seat_stated_out_at_a_step_it_passed_stops_itself() -> None:
    harness = Departing("zman", 3, seed=7)
    seat = mover_of(harness)
    late = harness.tables[seat]
    waiting = [t for t in harness.tables if t is not late]
    for table in waiting:
        assert table.declare_silent(LATE)
    move = play(harness, seat)
    harness.deliver()
    for table in waiting:
        assert seat in table.out and not table.refusals
        table.receive(move.signed)
        assert not table.refusals, "an answer to a step a departure ended is nobody's fault"
    assert late.halt is not None and "this seat was put out" in late.halt.detail


def test_a_polite_leave_is_read_where_the_seats_answer_is_awaited() -> None:
    harness = Departing("zman-duel", 2, seed=8)
    harness.run(until=lambda: at_step(MOVE)(harness))
    harness.tables[1].leave("dinner")
    harness.deliver()
    assert any(e.kind == "leave" and "seat1" in e.text for e in harness.tables[0].events)
    harness.kill(1)
    harness.run(patient=lambda table: True)  # nobody states anything: the leave is enough
    table = harness.tables[0]
    assert table.game is not None and table.game.outcome is not None
    assert table.game.outcome.kind is OutcomeKind.FORFEIT
    assert table.out[1].waited is None and table.out[1].reason == "dinner"
    assert not table.refusals


def test_a_seat_silent_at_the_audit_leaves_the_outcome_as_it_was() -> None:
    harness = Departing("zman", 3, seed=9, doomed=(2, AUDIT))
    harness.run()
    outcome = harness.tables[2].game.outcome  # type: ignore[union-attr]
    assert outcome is not None
    for table in harness.live():
        assert table.over and table.halt is None and 2 in table.out and not table.refusals
        assert table.game is not None and table.game.outcome == outcome
        assert any("audit passed for the seats that stayed" in e.text for e in table.events)
    assert len({t.record_hash() for t in harness.live()}) == 1


def test_a_departure_names_the_seat_the_step_and_the_signers() -> None:
    departure = Departure(2, 40, "a move", 120, (0, 1, 3))
    assert departure.words("seat 2 (bob)") == (
        "seat 2 (bob) silent at a move for 120 s; signed by seats 0, 1, 3"
    )


def test_a_polite_leave_at_four_seats_lets_the_three_others_finish_alike() -> None:
    harness = Departing("zman", 4, seed=14)
    harness.run(until=lambda: waits_for_move_of(harness, 1))
    harness.tables[3].leave("rage")
    harness.deliver()
    harness.kill(3)
    harness.run(patient=lambda table: True)  # nobody states anything: the leave is enough
    live = harness.live()
    for table in live:
        assert table.halt is None and table.audited and not table.refusals
        assert table.out[3].waited is None and table.out[3].reason == "rage"
    assert len({t.record_hash() for t in live}) == 1


def test_at_five_seats_each_peer_puts_a_gone_seat_out_by_its_own_decision() -> None:
    harness = Departing("zman", 5, seed=15)
    harness.run(until=lambda: waits_for_move_of(harness, 4))
    harness.kill(4)
    for decided, table in enumerate(harness.live(), 1):
        assert table.declare_silent(LATE)
        harness.deliver()
        out = [4 in t.out for t in harness.live()]
        assert out == [True] * decided + [False] * (4 - decided), (decided, out)
    harness.run()
    assert len({t.record_hash() for t in harness.live()}) == 1


def test_seats_silent_together_before_the_deal_are_put_out_together() -> None:
    harness = Departing("zman", 5, seed=4, doomed=(4, KEYS), together=(3,))
    harness.run(until=lambda: len(harness.dead) == 2)
    harness.run()
    live = harness.live()
    for table in live:
        assert table.halt is None and table.audited and not table.refusals
        assert sorted(table.out) == [3, 4]
        assert table.out[3].step == table.out[4].step, "out at one step"
        assert table.dealer is not None and table.dealer.members == (0, 1, 2)
    assert len({t.record_hash() for t in live}) == 1


def test_seats_silent_together_mid_game_abandon_the_table_naming_them_both() -> None:
    """Two seats gone at one deal's shares, at four seats: the backups (among three or
    more) cannot cover both, so every peer ends the same way, naming them, never a wait."""
    harness = Departing("zman", 4, seed=4, doomed=(3, SHARES), together=(2,))
    harness.run(until=lambda: len(harness.dead) == 2)
    harness.run(until=lambda: all(t.halt is not None for t in harness.live()))
    for table in harness.live():
        assert table.halt is not None and table.halt.abandoned
        assert sorted(table.out) == [2, 3]
        assert "seat 2" in table.halt.detail and "seat 3" in table.halt.detail


def test_a_polite_leave_at_the_backups_needs_no_statement_and_the_others_start_again() -> None:
    harness = Departing("zman", 4, seed=9, doomed=(3, DEALINGS), politely=True)
    harness.run(patient=lambda table: table.game is None)  # no statement before the deal
    live = harness.live()
    for table in live:
        assert table.halt is None and table.audited and table.cards is not None
        assert table.out[3].waited is None and table.out[3].reason == "called away"
        assert table.dealer is not None and table.dealer.members == (0, 1, 2)
    assert len({t.record_hash() for t in live}) == 1


@pytest.mark.parametrize("kind", sorted(RULES))
def test_every_step_a_seat_can_be_silent_at_is_told_in_words(kind: StepKind) -> None:
    assert rule_of(kind).words and not rule_of(kind).words.startswith("StepKind")


def test_the_creator_gone_mid_game_leaves_a_record_that_verifies_as_finished_and_counts() -> None:
    from condottiere.cli.standings import GameFacts, facts_of

    harness = Departing("zman", 3, seed=11, doomed=(0, MOVE))
    harness.run()
    witness = harness.tables[1]
    assert 0 in witness.out and witness.game is not None and witness.game.outcome is not None
    verdict = verify(all_entries(witness))
    assert verdict.finished and verdict.audited_without_leavers, verdict.lines()
    assert verdict.table.record_hash() == witness.record_hash()
    facts = facts_of(verdict)
    assert isinstance(facts, GameFacts) and facts.outcome == witness.game.outcome


def test_a_false_statement_about_the_creator_neither_stops_the_game_nor_erases_it() -> None:
    from condottiere.cli.standings import GameFacts, facts_of

    harness = Departing("zman", 3, seed=12)  # (at two seats one statement is every other's)
    harness.run(until=lambda: harness.tables[1].game is not None
                and harness.tables[1].game.moves_played >= 4)
    slanderer = harness.tables[1]
    slanderer._publish(log_pb2.Silence(seat=0, step=3, waited=999))
    slanderer._advance()
    harness.run()
    for table in harness.tables:
        assert table.halt is None and table.audited and not table.out
    creator = harness.tables[0]
    verdict = verify(all_entries(creator),
                     creator.me)
    assert verdict.fair, verdict.lines()
    assert verdict.table.record_hash() == creator.record_hash()
    assert isinstance(facts_of(verdict), GameFacts)
