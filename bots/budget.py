"""How long a searching bot thinks per move (:class:`Budget`), apart from the search itself so
that naming a budget (the command line, :class:`~condottiere.bots.named.NamedBot`) does not
import the search and every game's policies."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Budget"]


@dataclass(frozen=True)
class Budget:
    """How long the bot thinks per move: ``iterations`` (reproducible for a seed), or
    ``seconds`` of wall clock, or ``cpu_seconds`` of this process's CPU time (what a move
    costs whatever else the machine runs), or several (whichever runs out first)."""

    iterations: int | None = None
    seconds: float | None = None
    cpu_seconds: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None and self.cpu_seconds is None:
            raise ValueError("a budget needs iterations, seconds or CPU seconds")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError("iterations must be 1 or more")
        for limit in (self.seconds, self.cpu_seconds):
            if limit is not None and not limit > 0:
                raise ValueError("seconds must be more than 0")
