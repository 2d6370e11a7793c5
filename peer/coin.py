"""Fair random choices on the table: commit-reveal, and what happens to a withheld reveal.

The engine asks for a fair choice among some seats (who holds the battle marker first, who
takes it after a tie). Every *committer* (every seat, less those blamed in an earlier attempt
of the same choice) publishes a commitment to a fresh nonce, then, once all commitments are
in, its nonce. The outcome comes from all nonces (``crypto.outcome``). Each attempt of each
choice has its own purpose string, so a commitment made for one flip is worth nothing for
another.

**A withheld reveal never pays.** The last seat to reveal sees the outcome first; if it could
stop the table or make the flip start again by keeping its nonce back, it could steer the
outcome. So:

- a seat that waits too long for the reveals publishes a *timeout vote* (``CoinTimeout``);
  its entry's heads say which reveals it had seen;
- a vote *counts* when it misses at least one reveal (its heads are below that reveal);
- the attempt is **abandoned** once every seat that revealed has a counting vote; the seats
  whose reveal some counting vote missed are **blamed**, and the choice is made again among
  the options left, by the committers left. One option left is taken without a flip; none
  left halts the table with the blame shown. A withholder thus only ever loses its chance.
- the attempt is **settled normally** once every reveal is in and some committer saw them
  all before voting: an entry of its own log, at or after its reveal, whose heads cover every
  other reveal, with no vote before it (a peer counts itself while it has not voted).

The two cannot both happen: a witness's later vote would cover every reveal, so it would not
count. Every peer reads the same logs, so every peer reaches the same verdict, whatever order
the entries came in. (Rule decided here; see ``docs/protocol.md``.)

>>> flip = Flip(choice=0, attempt=0, purpose="first battle marker", options=(0, 1, 2),
...             committers=(0, 1, 2))
>>> verdict(flip, reveals={0: 5, 1: 7, 2: 4}, votes={}, witnessed=True)
Settled()
>>> verdict(flip, reveals={0: 5, 1: 7}, votes={0: {1: 7, 2: 3}, 1: {0: 5, 2: 3}}, witnessed=False)
Abandoned(blamed=(2,))
>>> verdict(flip, reveals={0: 5, 1: 7}, votes={0: {1: 7, 2: 3}}, witnessed=False) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import crypto

__all__ = ["Abandoned", "Flip", "Settled", "Verdict", "covers", "verdict"]


@dataclass(frozen=True)
class Flip:
    """One attempt of one fair choice."""

    choice: int
    """The engine's count of choices made before this one."""
    attempt: int
    purpose: str
    options: tuple[int, ...]
    """The seats among which the choice is made."""
    committers: tuple[int, ...]

    @property
    def label(self) -> bytes:
        """What the commitments of this flip, and no other, are bound to."""
        return f"choice {self.choice}, attempt {self.attempt}: {self.purpose}".encode()

    def outcome(
        self, table_id: bytes, commitments: Mapping[int, bytes], nonces: Mapping[int, bytes]
    ) -> int:
        """The chosen seat; ``crypto.VerificationError`` (naming the position in
        :attr:`committers`) when a nonce does not match its commitment."""
        index = crypto.outcome(
            table_id,
            self.label,
            len(self.options),
            [commitments[seat] for seat in self.committers],
            {i: nonces[seat] for i, seat in enumerate(self.committers) if seat in nonces},
        )
        return self.options[index]

    def again(self, blamed: tuple[int, ...]) -> Flip | int | None:
        """After an abandoned attempt: the next attempt without the blamed seats, the only
        seat left, or None when no option is left."""
        options = tuple(seat for seat in self.options if seat not in blamed)
        if len(options) <= 1:
            return options[0] if options else None
        committers = tuple(seat for seat in self.committers if seat not in blamed)
        return Flip(self.choice, self.attempt + 1, self.purpose, options, committers)


@dataclass(frozen=True)
class Settled:
    """Every reveal is in and was seen by a committer before any vote of its own."""


@dataclass(frozen=True)
class Abandoned:
    """Every revealer gave up waiting; ``blamed`` withheld their reveal from someone."""

    blamed: tuple[int, ...]


Verdict = Settled | Abandoned


def verdict(
    flip: Flip,
    reveals: Mapping[int, int],
    votes: Mapping[int, Mapping[int, int]],
    witnessed: bool,
) -> Verdict | None:
    """The verdict on ``flip``'s reveals, or None while it cannot be known yet.

    ``reveals``: committer -> the sequence number of its reveal in its log, for the reveals
    in. ``votes``: committer -> the heads of its first vote on this flip (seat -> highest
    sequence number it had seen of that seat). ``witnessed``: some committer saw every
    reveal before voting (see the module).
    """
    if len(reveals) == len(flip.committers) and witnessed:
        return Settled()
    missed = {
        voter: {
            seat
            for seat in flip.committers
            if seat != voter and heads.get(seat, -1) < reveals.get(seat, 1 << 64)
        }
        for voter, heads in votes.items()
    }
    counting = {voter for voter, seats in missed.items() if seats}
    if reveals and set(reveals) <= counting:
        blamed = set().union(*(missed[voter] for voter in counting))
        return Abandoned(tuple(sorted(blamed)))
    return None


def covers(heads: Mapping[int, int], reveals: Mapping[int, int], seat: int) -> bool:
    """Whether an entry of ``seat`` with ``heads`` had seen every other reveal."""
    return all(heads.get(other, -1) >= seq for other, seq in reveals.items() if other != seat)
