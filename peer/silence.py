"""A seat that stops answering: deadlines, relay rounds, and when a seat is out.

Every step that waits for a seat has a deadline the table definition fixes
(:class:`~condottiere.peer.lobby.Deadlines`). Whether seat L answered step s is then a
question every honest peer must answer the same way, whatever the other seats sign or
withhold: an **authenticated broadcast** with L as the sender (Dolev and Strong, 1983), run only
when a deadline passes. Its messages are :class:`~condottiere.v1.log_pb2.Silence` statements,
signed entries of each peer's own log:

- *silent* (the start): "my deadline for (L, s) passed and I hold no answer of L to s". From
  then on, the author takes L's answer to s only by the rounds below, never straight from L.
- *relay* (``answered``, carrying L's own signed answer): "I hold L's answer": signed by a
  peer that took it before its deadline as soon as it hears of another's start, and by a peer
  that accepts it in a round.
- *out*: "the rounds are over and I accepted no answer": L is out at s for its author.

**The rounds.** Round k (k = 1, 2, ...) is the k-th relay round (:func:`round_seconds`) after
the author's deadline. In round k a peer that started accepts L's answer when it holds relays
of it from k distinct seats (neither L nor itself, all still at the table); it then relays it
itself.
There are as many rounds as seats that could relay (every seat at the table but L and the
peer: :func:`rounds`); a peer that accepted nothing by the end of the last one states L out.
Why this agrees (every honest peer reaches the same verdict, whatever the others do): an
honest peer that accepts in round k < last relays at once, and the k relays it held come
with its own (a peer serves every log it holds), so every honest peer holds k + 1 relays
within one round; one that accepts in the last round holds a relay of every other seat, an
honest one among them if there is one, which accepted earlier and was followed by all. A
peer that took L's answer before its deadline relays it once it hears of a start, which is
within the first round of the peer that started. No statement can fake an answer (a relay
must carry L's signature) or hold the verdict back (each peer decides at the end of its own
rounds, whatever the others sign). A round is long enough for an entry to go and come back
between peers whose steps began apart: twice the promised delivery bound, and a timer's tick.

**A peer follows its own decisions** (the *judge*, :func:`~condottiere.peer.steps.leavers.
stand`): its fold puts L out at s where its own log says *out*, takes L's answer where it
says *relay*, and holds it back between its start and its decision. Other seats' statements
never move its fold: a relay of another only counts towards a round, and a decision of
another only tells the seat it names that it was put out. Seats silent together at one step
are decided together, and so put out together. ``verify`` folds a record as its owner did
live, from the owner's statements (:func:`condottiere.peer.record.verify`).

**A seat told it is out.** A peer whose seat every other seat at the table (two or more)
stated *out* at a step it went past was late there (its answer did not reach the others in
time): it stops, and the others play on without it. At two seats the other seat's word alone
is not enough (it may be false): the seat plays on, and the other's later entries, that do
not fit, are refused.

At the ready step (before anything is dealt) the seats put out are *freed* for other joiners:
the creator's new seating says which, and every peer checks it against its own decisions.

A seat that says it leaves (a ``Leave`` entry) needs no statements: the table reads the leave
where that seat's next answer would be, the same on every peer. After either, the seat may
watch but no longer plays: its later entries are read by nobody.

>>> rounds(2), rounds(6)
(0, 4)
>>> decide(waited=60, deadline=60, at_table=2, relays=0)
<Decision.OUT: 'out'>
>>> decide(waited=70, deadline=60, at_table=4, relays=1)
<Decision.ANSWERED: 'answered'>
>>> decide(waited=60 + RELAY_ROUND + 1, deadline=60, at_table=4, relays=1) is None
True
>>> decide(waited=60 + 2 * RELAY_ROUND, deadline=60, at_table=4, relays=1)
<Decision.OUT: 'out'>
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import StrEnum

__all__ = ["RELAY_ROUND", "Decision", "Departure", "decide", "round_seconds", "rounds"]

RELAY_ROUND = 25
"""Seconds of one relay round, at most: twice the delivery bound between honest peers that
the promises assume (``TIMELY``, 10 s: docs/promises.md), and a timer's tick. A relay sent by
an honest peer in one round reaches every honest peer before the end of its next round, even
where their steps began up to the delivery bound apart. A table whose protocol steps have a
shorter deadline (a protocol step is itself an exchange between peers) has rounds that long:
:func:`round_seconds`."""


def round_seconds(step_deadline: int) -> int:
    """The relay round of a table whose protocol steps have ``step_deadline`` seconds.

    >>> round_seconds(30), round_seconds(4)
    (25, 4)
    """
    return max(1, min(RELAY_ROUND, step_deadline))


class Decision(StrEnum):
    """What a peer decides about a (seat, step) it started the rounds for."""

    OUT = "out"
    """The rounds are over and it accepted no answer."""
    ANSWERED = "answered"
    """It accepted the seat's answer in a round (and relays it)."""


def rounds(at_table: int) -> int:
    """How many relay rounds follow a deadline at a table of ``at_table`` seats (the silent
    seat included): one for each seat that could relay, every seat but the silent one and
    the deciding one."""
    return max(0, at_table - 2)


def decide(
    *, waited: float, deadline: int, at_table: int, relays: int, round_length: int = RELAY_ROUND
) -> Decision | None:
    """What a peer that started the rounds for a seat decides after ``waited`` seconds (by its
    clock, since the step began) past a step's ``deadline``, holding relays of the seat's
    answer from ``relays`` distinct seats (neither the silent seat nor itself), with rounds of
    ``round_length`` seconds; None while undecided. In round k it accepts with k relays;
    after the last round the seat is out.
    """
    last = rounds(at_table)
    round_now = max(1, math.ceil((waited - deadline) / round_length))
    if round_now <= last and relays >= round_now:
        return Decision.ANSWERED
    if waited >= deadline + last * round_length:
        return Decision.OUT
    return None


@dataclass(frozen=True)
class Departure:
    """How a seat left the table, with what shows it."""

    seat: int
    step: int
    """The number of the step at which it was put out."""
    at: str
    """That step in words (``a move``, ``the shares``)."""
    waited: int | None
    """Seconds the others waited (the least any signer stated); None for a seat that said it
    was leaving."""
    signers: tuple[int, ...] = ()
    reason: str = ""
    """What a seat that left said."""
    evidence: tuple[bytes, ...] = field(default=(), repr=False)
    """The signed statements (or the signed leave)."""

    def words(self, who: str) -> str:
        """``seat 2 (bob) silent at a move for 120 s; signed by seats 0, 1, 3``, or ``seat 2
        (bob) left at a move (rage)``.

        >>> Departure(2, 40, "a move", 120, (0, 1, 3)).words("seat 2 (bob)")
        'seat 2 (bob) silent at a move for 120 s; signed by seats 0, 1, 3'
        """
        if self.waited is None:
            said = f" ({self.reason})" if self.reason else ""
            return f"{who} left at {self.at}{said}"
        plural = "seat" if len(self.signers) == 1 else "seats"
        signers = ", ".join(str(s) for s in self.signers)
        return f"{who} silent at {self.at} for {self.waited} s; signed by {plural} {signers}"
