"""How long a seat's forced moves wait, so that their timing tells nobody they were forced.

A move the rules force (one legal move, such as keeping one's only mercenary) used to be
published at once, while a chosen move takes its player's time: anyone who subscribes to the
table's logs learnt from the timing alone what the forced move says of the hidden hand. So a
node publishes a forced move only once a delay has passed since the move was awaited, drawn
from the same distribution as this seat's own chosen moves: one of the times its last chosen
moves at this table took (:meth:`Pacer.record`), picked uniformly with the operating system's
CSPRNG. As far as a seat's pace is steady, a forced move's delay and a chosen move's are
identically distributed, for a person and for a bot alike; a bot that chooses in milliseconds
plays its forced moves in milliseconds, so bot games stay fast.

Before the seat has chosen any move, the delay is drawn uniformly from a *prior*: a person's
(:data:`PERSON`) or a bot's (:data:`BOT`), whichever plays the seat.

>>> import random
>>> pacer = Pacer(BOT, rng=random.Random(1))
>>> 0 <= pacer.draw() <= BOT[1]
True
>>> pacer.record(0.25); pacer.record(0.5)
>>> {pacer.draw() for _ in range(50)} == {0.25, 0.5}
True
"""

from __future__ import annotations

import random
import secrets
from collections import deque

__all__ = ["BOT", "KEPT", "PERSON", "Pacer"]

PERSON = (2.0, 10.0)
"""A person's forced moves before their first chosen one: 2 to 10 seconds."""
BOT = (0.0, 0.1)
"""A bot's forced moves before its first chosen one: up to a tenth of a second."""
KEPT = 32
"""How many of the latest chosen moves' times a pacer draws from."""


class Pacer:
    """The delays of one seat's forced moves (see the module)."""

    def __init__(self, prior: tuple[float, float], rng: random.Random | None = None) -> None:
        low, high = prior
        if not 0 <= low <= high:
            raise ValueError(f"a prior is a range of seconds, low to high, not {prior}")
        self.prior = prior
        self._times: deque[float] = deque(maxlen=KEPT)
        self._rng = rng if rng is not None else secrets.SystemRandom()

    def record(self, seconds: float) -> None:
        """A chosen move of this seat took ``seconds`` from when it was awaited."""
        self._times.append(max(0.0, seconds))

    def draw(self) -> float:
        """How long the next forced move waits, in seconds, from when it is awaited."""
        if self._times:
            return self._rng.choice(list(self._times))
        return self._rng.uniform(*self.prior)
