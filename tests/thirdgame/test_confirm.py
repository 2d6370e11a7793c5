"""A step kind defined in one module of the tests (:mod:`tests.thirdgame.confirm`) goes
through the table's fold as the platform's own do: High Card, made to ask every seat to
confirm the seating once the hands are dealt, is played by tables that wait for the new step,
say what they wait for in its words, make and check its entries, refuse a bad one, and play on
to an audited end; the record verifies."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest

from condottiere.interface import SeatToMove, TableRules
from condottiere.peer import lobby
from condottiere.peer.driver import Table
from condottiere.peer.entries import Reason
from condottiere.peer.record import verify
from condottiere.peer.steps import rule_answering, rule_of
from condottiere.v1 import log_pb2
from tests.peer.tables import Harness
from tests.thirdgame.confirm import CONFIRM, Confirm, ConfirmRule

HERE = Path(__file__).parent


class FirstMove:
    """Plays the first legal move."""

    def choose(self, game: Any, seat: int) -> Any:
        return game.legal_moves()[0]


@pytest.fixture
def confirming(monkeypatch: pytest.MonkeyPatch) -> None:
    """The game ``highcard`` is High Card whose seats confirm the seating before the first
    trick (its game waits for a :class:`Confirm` once the hands are dealt)."""
    monkeypatch.syspath_prepend(str(HERE))
    game_module = importlib.import_module("highcard.game")
    plugin = importlib.import_module("highcard.plugin")

    class ConfirmedGame(game_module.Game):  # type: ignore[misc,name-defined]
        confirmed = False

        @property
        def waiting(self) -> Any:
            waiting = super().waiting
            return Confirm() if isinstance(waiting, SeatToMove) and not self.confirmed else waiting

        def resolve(self, outcome: Any) -> None:
            if isinstance(self.waiting, Confirm):
                self.confirmed = True
            else:
                super().resolve(outcome)

    class ConfirmedRules(plugin.HighCardRules):  # type: ignore[misc,name-defined]
        def for_seat(self, table: TableRules, seat: int) -> Any:
            return ConfirmedGame({"players": table.seats}, seat)

        def for_spectator(self, table: TableRules) -> Any:
            return ConfirmedGame({"players": table.seats}, game_module.SPECTATOR)

    rules = ConfirmedRules()
    monkeypatch.setattr(lobby, "game_named", lambda name: rules)


def harness(kinds: dict[int, type[Table]] | None = None) -> Harness:
    played = Harness("standard", 2, game="highcard", kinds=kinds)
    played.bots = [FirstMove(), FirstMove()]  # type: ignore[list-item]
    return played


def test_the_new_kind_is_known_from_its_rule_and_answers_its_waiting_value() -> None:
    assert isinstance(rule_of(CONFIRM), ConfirmRule)
    assert rule_answering(Confirm()) is rule_of(CONFIRM)


class Hesitates(Table):
    """Makes its confirmation only once :attr:`hesitating` is cleared."""

    hesitating = True

    def _entry_body(self, step: Any) -> Any:
        if step.kind == CONFIRM and self.hesitating:
            return None
        return super()._entry_body(step)


@pytest.mark.usefixtures("confirming")
def test_a_step_kind_defined_in_one_module_is_waited_for_made_checked_and_played_through() -> None:
    played = harness({1: Hesitates})
    first, second = played.tables
    played.play(until=lambda: first.step is not None and first.step.kind == CONFIRM)
    assert first.waiting() == (CONFIRM, (1,), "seat 1 (seat1) to confirm the seating")
    assert isinstance(second, Hesitates)
    second.hesitating = False
    second.resume()
    played.play()
    for table in played.tables:
        assert table.halt is None and not table.refusals and table.audited
        assert any(event.text == "every seat confirmed the seating" for event in table.events)
        confirmations = [e for e in table.logs.log(table.me) if e.kind == "ready"]
        assert len(confirmations) == 2  # the lobby's ready, then the confirmation
    entries = [e.signed for a in first.logs.authors for e in first.logs.log(a)]
    assert verify(entries).table.record_hash() == first.record_hash()


class Misconfirms(Table):
    """Confirms another seating first, then the right one."""

    lied = False

    def _entry_body(self, step: Any) -> Any:
        if step.kind == CONFIRM and not self.lied:
            self.lied = True
            return log_pb2.Ready(seating=b"\x00" * 32)
        return super()._entry_body(step)


@pytest.mark.usefixtures("confirming")
def test_a_bad_answer_to_the_new_step_is_refused_by_its_rule_and_the_table_goes_on() -> None:
    played = harness({1: Misconfirms})
    played.play()
    honest = played.tables[0]
    assert honest.halt is None and honest.audited
    assert [(r.reason, r.seat, r.detail) for r in honest.refusals] == [
        (Reason.UNEXPECTED, 1, "a confirmation of another seating")
    ]
