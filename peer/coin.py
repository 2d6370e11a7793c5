"""Fair random choices on the table: commit-reveal, and what happens to a withheld reveal.

The engine asks for a fair choice among some seats (who holds the battle marker first, who
takes it after a tie). Every *committer* (every seat, less those blamed in an earlier attempt
of the same choice) publishes a commitment to a fresh nonce, then, once all commitments are
in, its nonce. The outcome comes from all nonces (``crypto.outcome``). Each attempt of each
choice has its own label, so a commitment made for one flip is worth nothing for another.

**A withheld reveal never pays.** The outcome is fixed by the commitments: the last seat to
reveal sees it first, but cannot change it; it can only keep its nonce back. So every
committer *closes* each attempt with one signed entry (``CoinClose``): as soon as it holds
every reveal (``missing`` empty), or when its timeout expires first, naming the seats whose
reveals it never received. The attempt is

- **settled** once every reveal is in and a strict majority of committers closed it with
  nothing missing;
- **abandoned**, blaming the seats ``W``, once a strict majority of the committers, namely
  every committer outside ``W``, closed it naming exactly ``W`` as missing. The choice is
  then made again among the options left, by the committers left (one option left is taken
  without a flip; none left stops the table). A withholder only ever loses its chance.

Each committer closes once, and two strict majorities share a committer, so the two verdicts
exclude each other and no two peers can reach different verdicts, whatever order the entries
come in; a verdict, once reached, stays. When no majority can form (two committers, or half
the table withholding, or a reveal timed to split the others) the table waits, with the blame
shown: the withholder stops the game, as leaving would, and gains nothing else.

>>> flip = Flip(choice=0, attempt=0, purpose="first battle marker", options=(0, 1, 2),
...             committers=(0, 1, 2))
>>> verdict(flip, reveals={0, 1, 2}, closes={0: frozenset(), 1: frozenset()})
Settled()
>>> verdict(flip, reveals={0, 1}, closes={0: frozenset({2}), 1: frozenset({2})})
Abandoned(blamed=(2,))
>>> verdict(flip, reveals={0, 1, 2}, closes={0: frozenset({2}), 1: frozenset()}) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from dataclasses import dataclass

from condottiere import crypto

__all__ = ["Abandoned", "Flip", "Settled", "Verdict", "verdict"]


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
    flip: Flip, reveals: Set[int], closes: Mapping[int, frozenset[int]]
) -> Verdict | None:
    """The verdict on ``flip``, or None while it cannot be known yet.

    ``reveals``: the committers whose reveal is in. ``closes``: committer -> the seats its
    first close names as missing (see the module).
    """
    committers = set(flip.committers)
    majority = len(committers) // 2 + 1
    closes = {
        seat: missing
        for seat, missing in closes.items()
        if seat in committers and missing <= committers - {seat}
    }
    if committers <= set(reveals) and sum(not m for m in closes.values()) >= majority:
        return Settled()
    for blamed in {missing for missing in closes.values() if missing}:
        voters = [seat for seat in committers - blamed if closes.get(seat) == blamed]
        if len(voters) == len(committers - blamed) and len(voters) >= majority:
            return Abandoned(tuple(sorted(blamed)))
    return None
