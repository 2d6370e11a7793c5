"""A seat that stops answering: deadlines, silence statements, and when a seat is out.

Every step that waits for a seat has a deadline the table definition fixes
(:class:`~condottiere.peer.lobby.Deadlines`). When a seat misses it, every other seat's peer
signs a :class:`~condottiere.v1.log_pb2.Silence` statement naming the seat, the step (by its
number) and how long it waited. Each author's *first* statement about a (seat, step) is its
vote, and there are two kinds:

- *silent*: "I waited past the deadline and hold no answer of that seat to that step";
- *answered*: "I hold its answer": a peer that took the seat's answer before it heard of any
  statement signs this as soon as it holds one (it has moved on; it never votes silent).

**The rule.** The seat is **out** at that step once *every other seat still at the table*
voted it silent; a single *answered* vote cancels the statements (the seat came back in
time), and the peers that voted silent then take its answer. A peer that voted silent takes
no answer of that seat to that step until one of the two verdicts is reached.

Why every other seat, and not a strict majority: the fold takes an answer the moment it
holds it (a round of acknowledgements on every answer would double every step's latency),
so a peer may take a late answer before it holds anyone's statement. Such a peer never votes
silent, so with every other seat needed the seat is out only where no peer took its answer,
and every peer reaches the same verdict in whatever order the entries come. A strict
majority short of every other seat (five or six seats) would let the others put the seat
out while that peer went on with its answer. At two, three and four seats every other seat
*is* the strict majority of the seats. The cost: two seats silent at once at a step that
waits for both are never put out (each would need the other's vote); the table waits, with
both named. A dishonest seat cannot put anyone out alone (it needs every other vote), only
delay a verdict by voting *answered* falsely, which its log shows.

At the ready step (before anything is dealt) the seats put out are *freed* for other joiners,
and seats silent together are put out together: the largest set of seats each of which every
seat outside the set stated silent (``freeable`` in :mod:`condottiere.peer.steps.leavers`;
the creator's new seating says which are freed, :mod:`condottiere.peer.lobby`).

A seat that says it leaves (a ``Leave`` entry) needs no statements: the table reads the leave
where that seat's next answer would be, the same on every peer. After either, the seat may
watch but no longer plays: its later entries are read by nobody.

>>> silence_verdict(2, {0, 1, 3}, {0: False, 1: False})
>>> silence_verdict(2, {0, 1, 3}, {0: False, 1: False, 3: False})
<Verdict.OUT: 'out'>
>>> silence_verdict(2, {0, 1, 3}, {0: False, 1: True})
<Verdict.ANSWERED: 'answered'>
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from dataclasses import dataclass, field
from enum import StrEnum

__all__ = ["Departure", "Verdict", "silence_verdict"]


class Verdict(StrEnum):
    """What the statements about a (seat, step) decide."""

    OUT = "out"
    """Every other seat still at the table voted it silent."""
    ANSWERED = "answered"
    """A seat holds its answer: the statements are cancelled."""


def silence_verdict(seat: int, voters: Set[int], votes: Mapping[int, bool]) -> Verdict | None:
    """The verdict on ``seat`` at one step, or None while there is none yet.

    ``voters``: every other seat still at the table. ``votes``: voter -> whether its first
    statement says it holds the seat's answer (``answered``).
    """
    if any(answered for voter, answered in votes.items() if voter != seat):
        return Verdict.ANSWERED
    if voters and all(voter in votes for voter in voters):
        return Verdict.OUT
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
