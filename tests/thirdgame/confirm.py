"""A step kind added in one module, with no edit of the platform: every seat still at the
table confirms the seating it plays under, where a game asks for it (a :class:`Confirm`).

The module declares the kind (:data:`CONFIRM`), its rule (whom it waits for, its words, the
entry this seat makes, how an entry is checked, what comes once it is complete) and the game's
waiting value it answers; importing it registers the rule. A step kind shipped with the
platform would carry a body of its own in ``log.proto``; one defined in the tests answers with
an existing body (a ``Ready`` naming the seating), which ``StepRule.entry_kind`` says.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from google.protobuf.message import Message

from condottiere.peer.entries import LogEntry, Reason, Rejection
from condottiere.peer.steps import ACCEPT, After, Next, Step, StepKind, StepRule, Verdict, register
from condottiere.v1 import log_pb2

__all__ = ["CONFIRM", "Confirm", "ConfirmRule"]


@dataclass(frozen=True)
class Confirm:
    """The game waits for every seat still at the table to confirm the seating."""


CONFIRM = StepKind("confirm")
"""The confirm step: every seat still at the table confirms the seating it plays under."""


class ConfirmRule(StepRule):
    """Every seat still at the table confirms the seating (a ``Ready`` naming its hash)."""

    kind = CONFIRM
    entry_kind = "ready"
    answers = (Confirm,)
    words = "confirming the seating"
    doing = "Confirming the seating"
    about = "every seat says it plays under this seating"

    def waiting_text(self, t: Any, step: Step, names: str) -> str:
        return f"{names} to confirm the seating"

    def start(self, t: Any, step: Step, waiting: Confirm) -> Step | None:
        seats = [seat for seat in range(len(t.seating)) if seat not in t.out]
        return step.then(CONFIRM, t._seat_authors(seats))

    def make(self, t: Any, step: Step) -> Message | None:
        return log_pb2.Ready(seating=t.lobby.seating_hash)

    def judge(self, t: Any, step: Step, author: bytes, entry: LogEntry) -> Verdict:
        if entry.body.seating != t.lobby.seating_hash:
            raise Rejection(Reason.UNEXPECTED, "a confirmation of another seating")
        return ACCEPT

    def finish(self, t: Any, step: Step) -> Next:
        t.game.resolve(None)
        t._say("confirm", "every seat confirmed the seating")
        return After.GAME


register(ConfirmRule())
