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
from condottiere.peer.silence import Departure, Verdict, silence_verdict
from condottiere.peer.steps import RULES, rule_of
from condottiere.peer.steps.audit import AUDIT
from condottiere.peer.steps.coins import COIN_COMMIT
from condottiere.peer.steps.deal import SHARES, SHUFFLE
from condottiere.peer.steps.keys import DEALINGS, KEYS, PIECE_CHECKS
from condottiere.peer.steps.moves import MOVE
from condottiere.v1 import log_pb2
from tests.peer.tables import Harness, feed

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
        **kwargs: object,
    ) -> None:
        """``doomed``: (seat, step) kills that seat when it is about to sign its first entry
        of a step of that kind (``politely``: once it has signed a leave)."""
        self.politely = politely
        self.dead: set[int] = set()
        self.sent: set[bytes] = set()
        self.withheld: set[bytes] = set()
        """Entries kept back from everyone, whoever signed them."""
        if doomed is not None:
            kinds = dict(kwargs.get("kinds") or {})  # type: ignore[call-overload]
            kinds[doomed[0]] = self._dying(doomed[0], doomed[1])
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


def test_the_verdict_needs_every_other_seat_and_one_answered_vote_cancels_it() -> None:
    assert silence_verdict(1, {0, 2}, {0: False}) is None
    assert silence_verdict(1, {0, 2}, {0: False, 2: False}) is Verdict.OUT
    assert silence_verdict(1, {0, 2}, {0: False, 2: True}) is Verdict.ANSWERED
    assert silence_verdict(1, {0}, {}) is None


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
    verdict = verify([e.signed for a in table.logs.authors for e in table.logs.log(a)])
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
    assert first.halt is None and not first.out, "one statement is not every other seat's"
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
    entries = [e.signed for a in witness.logs.authors for e in witness.logs.log(a)]
    verdict = verify(entries)
    assert verdict.table.record_hash() == witness.record_hash()
    text = "\n".join(verdict.lines())
    assert f"left: seat {victim} (seat{victim}) silent at {rule_of(kind).words} for" in text, text
    assert "signed by seats " + ", ".join(str(s) for s in range(victim)) in text, text
    assert f"verdict: FAIR, played without seat {victim} (seat{victim})" in text, text
    signed = [e.signed for a in witness.logs.authors for e in witness.logs.log(a)]
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
    entries = [e.signed for a in witness.logs.authors for e in witness.logs.log(a)]
    verdict = verify(entries)
    assert verdict.table.record_hash() == witness.record_hash()
    text = "\n".join(verdict.lines())
    assert f"left: seat {victim} (seat{victim}) silent at" in text, text
    assert re.search(f"verdict: (FINISHED|FORFEIT) without seat {victim}", text), text


def test_a_seat_that_comes_back_before_every_statement_is_in_is_not_out() -> None:
    harness = Departing("zman", 3, seed=6)
    harness.run(until=lambda: at_step(MOVE)(harness))
    mover = harness.tables[0].step.authors[0]  # type: ignore[union-attr]
    seat = harness.tables[0].seat_of(mover)
    assert seat is not None
    voter = harness.tables[(seat + 1) % 3]
    assert voter.declare_silent(LATE)
    harness.deliver()
    harness.run(patient=lambda table: table is not voter)  # the mover plays on; nobody else
    for table in harness.tables:
        assert table.halt is None and not table.out and table.cards is not None
    assert len({table.record_hash() for table in harness.tables}) == 1
    answered = [
        e for t in harness.tables for e in t.logs.log(t.me)
        if e.kind == "silence" and e.body.answered
    ]
    assert answered, "the seat that took the move said so"


def test_an_answered_statement_carries_the_answer_it_took() -> None:
    harness = Departing("zman", 3, seed=6)
    harness.run(until=lambda: at_step(MOVE)(harness))
    mover = harness.tables[0].step.authors[0]  # type: ignore[union-attr]
    seat = harness.tables[0].seat_of(mover)
    assert seat is not None
    harness.tables[(seat + 1) % 3].declare_silent(LATE)
    harness.run(patient=lambda table: True)
    answered = [
        e for t in harness.tables for e in t.logs.log(t.me)
        if e.kind == "silence" and e.body.answered
    ]
    assert answered
    for statement in answered:
        carried = read_entry(statement.body.answer)
        assert carried.author == harness.tables[statement.body.seat].me
        assert carried.step == statement.body.step


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


def test_a_peer_that_stated_silence_holds_the_late_answer_until_a_verdict() -> None:
    harness = Departing("zman", 3, seed=6)
    harness.run(until=lambda: at_step(MOVE)(harness))
    step = harness.tables[0].step
    assert step is not None
    seat = harness.tables[0].seat_of(step.authors[0])
    assert seat is not None
    voter, other = harness.tables[(seat + 1) % 3], harness.tables[(seat + 2) % 3]
    assert voter.declare_silent(LATE)
    mover = harness.tables[seat]
    game = mover.game
    assert game is not None
    assert mover.submit(harness.bots[seat].choose(game.copy(), seat)) is None
    move = mover.logs.log(mover.me)[-1]
    for table in (voter, other):  # the move reaches both; the statement has not left
        table.receive(move.signed)
    assert voter.step is not None and voter.step.number == step.number  # held back
    assert other.step is not None and other.step.number > step.number  # taken
    harness.deliver()  # the statement, then the other's answered vote
    assert voter.step is not None and voter.step.number > step.number
    assert not voter.out and voter.halt is None


def test_a_late_answer_after_the_verdict_is_ignored_and_the_late_seat_stops_itself() -> None:
    harness = Departing("zman-duel", 2, seed=7)
    harness.run(until=lambda: at_step(MOVE)(harness))
    step = harness.tables[0].step
    assert step is not None
    seat = harness.tables[0].seat_of(step.authors[0])
    assert seat is not None
    late, waiting = harness.tables[seat], harness.tables[1 - seat]
    assert waiting.declare_silent(LATE)
    game = late.game
    assert game is not None
    assert late.submit(harness.bots[seat].choose(game.copy(), seat)) is None
    harness.deliver()
    assert seat in waiting.out and not waiting.refusals
    assert waiting.game is not None and waiting.game.outcome is not None
    assert waiting.game.outcome.winners == (1 - seat,)
    assert late.halt is not None and "this seat was put out" in late.halt.detail
    assert late.submit("pass") is not None


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


def test_at_five_seats_a_seat_is_out_only_once_every_other_seat_stated_it_silent() -> None:
    harness = Departing("zman", 5, seed=15)
    harness.run(until=lambda: waits_for_move_of(harness, 4))
    harness.kill(4)
    for voters, table in enumerate(harness.live(), 1):
        assert table.declare_silent(LATE)
        harness.deliver()
        out = [4 in t.out for t in harness.live()]
        assert out == [voters == 4] * 4, (voters, out)  # a majority of 3 is not enough
    harness.run()
    assert len({t.record_hash() for t in harness.live()}) == 1


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
    verdict = verify([e.signed for a in witness.logs.authors for e in witness.logs.log(a)])
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
    verdict = verify([e.signed for a in creator.logs.authors for e in creator.logs.log(a)])
    assert verdict.fair, verdict.lines()
    assert verdict.table.record_hash() == creator.record_hash()
    assert isinstance(facts_of(verdict), GameFacts)
