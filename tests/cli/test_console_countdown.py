"""The plain-text peer tells the deadline of the step the table waits for."""

from __future__ import annotations

import io

from condottiere.cli.console import Countdown
from condottiere.peer.controller import Snapshot, Waiting


def waiting_for_bob(deadline: int | None, step: int = 7) -> Snapshot:
    return Snapshot(
        table_name="t", game="condottiere", edition="zman", seats=3, seat=0, players=(),
        stage="playing", view=None,
        waiting=Waiting("move", (2,), "seat 2 (bob) to move", 100.0, deadline),
        progress=None, halt=None, refusals=(), outcome=None, audited=False, record_hash="",
        step=step,
    )


def test_the_countdown_tells_the_start_ten_seconds_left_and_the_end_once_each() -> None:
    out = io.StringIO()
    countdown = Countdown(out)
    snapshot = waiting_for_bob(120)
    countdown.tell(snapshot, 100.0)
    assert countdown.next_in(100.0) == 110.0
    for now in (150.0, 210.0, 211.0, 220.0, 221.0, 300.0):
        countdown.tell(snapshot, now)
    assert out.getvalue().splitlines() == [
        "seat 2 (bob) to move: 120 s before the others may state it silent",
        "seat 2 (bob) to move: 10 s left",
        "seat 2 (bob) to move: the deadline has passed",
    ]
    assert countdown.next_in(300.0) is None


def test_a_new_step_is_told_again_and_a_step_without_a_deadline_not_at_all() -> None:
    out = io.StringIO()
    countdown = Countdown(out)
    countdown.tell(waiting_for_bob(None), 100.0)
    assert out.getvalue() == ""
    countdown.tell(waiting_for_bob(5, step=8), 100.0)
    countdown.tell(waiting_for_bob(5, step=9), 100.0)
    assert out.getvalue().count("5 s before the others") == 2
