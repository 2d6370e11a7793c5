"""The shortest configuration that still breaks the same promise (greedy, one step at a time:
:meth:`~.config.Config.simpler`), and the schedule its run produces."""

from __future__ import annotations

from collections.abc import Callable

from tests.simulation.config import Config
from tests.simulation.world import Run, run

__all__ = ["HOLES", "hole_of", "shrink"]

HOLES = {
    1: "a false 'answered' statement (or a seat that never states) freezes the table",
    2: "the creator gone: the winners' record does not verify as finished",
    3: "one false statement about the creator erases a finished game",
    4: "throw-away keys shut the lobby",
    5: "idle connections from one source exhaust the open files",
    6: "a stranger's lobby stream outlives the seating",
    7: "a second leaver abandons the table",
}
"""The holes of issue 29 the simulator was built to find (docs/promises.md)."""


def hole_of(result: Run) -> int | None:
    """Which of :data:`HOLES` a run's first broken promise shows, if one (0: another)."""
    if not result.broken:
        return None
    broken = result.broken[0]
    config = result.config
    doing = {behaviour for _, behaviour in config.behaviours}
    strangers = {kind for kind, _ in config.strangers}
    creator_gone = any(s == 0 and b in ("vanisher", "leaver") for s, b in config.behaviours)
    if broken.promise == "liveness" and "abandoned at a leave" in broken.detail:
        return 7
    if broken.promise == "liveness" and doing & {"liar", "mute"}:
        return 1
    if broken.promise == "verify" and "not finished" in broken.detail:
        if doing & {"slanderer"} or "squatter" in strangers:
            return 3
        if creator_gone or "crash" in config.faults:
            return 2
    if broken.promise == "lobby":
        if "connections" in broken.detail:
            return 5
        if "stream" in broken.detail:
            return 6
        if "sybil" in strangers or "squatter" in strangers:
            return 4
    return 0


def shrink(
    failing: Run, tries: int = 40, runner: Callable[[Config], Run] = run
) -> Run:
    """A run of a configuration no larger than ``failing``'s that breaks the same promise
    (the first broken one), found by trying simpler configurations (at most ``tries`` runs)."""
    promise = failing.broken[0].promise
    best = failing
    improved = True
    while improved and tries > 0:
        improved = False
        for candidate in sorted(best.config.simpler(), key=lambda c: c.size):
            if tries <= 0:
                break
            tries -= 1
            attempt = runner(candidate)
            if attempt.broken and attempt.broken[0].promise == promise:
                best = attempt
                improved = True
                break
    return best
