"""One simulated game, as a value: what is played, which faults and which behaviours are on.

A seed draws a configuration (:meth:`Config.draw`: swarm testing, each seed turns on its own
subset of faults and behaviours) and drives every choice of the run; the configuration's text
form round-trips, so a failure is replayed from one line.

>>> config = Config.draw(7)
>>> Config.parse(str(config)) == config
True
>>> print(Config(3, "condottiere", "zman", 3, frozenset({"drop"}), 4, ((1, "liar"),), ()))
seed=3 game=condottiere edition=zman seats=3 faults=drop budget=4 seats_do=1:liar strangers=- \
open=1
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

__all__ = ["BEHAVIOURS", "FAULTS", "STRANGERS", "Config"]

FAULTS = ("delay", "drop", "dup", "cut", "crash", "slow")
"""Network and process faults: ``delay`` reorders entries (each link's delay drawn anew for
every entry), ``drop`` loses copies (a follower asks again later), ``dup`` hands copies twice,
``cut`` cuts a link for a while, ``crash`` stops a peer and restores it from its keeper,
``slow`` makes one link slow for a while (past a deadline: its seat may then be put out)."""

BEHAVIOURS = (
    "liar",  # states every seat it hears stated silent, and every seat it waits for, answered
    "mute",  # plays, but never states anyone silent and never closes a coin
    "slanderer",  # states silent random seats at random steps, past, present and future
    "leaver",  # says it leaves at a random moment
    "vanisher",  # its peer dies for good at a random moment (a dead laptop)
    "late",  # holds its answers back past the deadline once, then sends them
    "equivocator",  # signs two different entries under one sequence number
    "replayer",  # sends entries of another table and copies of its old entries anew
)
"""What a dishonest seat does (the seat is honest in everything else)."""

STRANGERS = (
    "sybil",  # one source joins under many fresh keys before the friends ask
    "squatter",  # a stranger seated at an open table, never ready, slandering the creator
    "connections",  # a thousand idle connections from one source (modelled)
    "streams",  # a stream opened in the lobby under a fresh key (modelled)
)


COUNTS = {"sybil": (1, 8, 70, 100), "connections": (1, 8, 70, 1000)}
"""How many keys a sybil joins under, how many connections a flood opens (one drawn)."""


def _items(text: str) -> list[str]:
    return [] if text == "-" else text.split(",")


@dataclass(frozen=True)
class Config:
    """What one simulated game is."""

    seed: int
    game: str
    edition: str
    seats: int
    faults: frozenset[str]
    budget: int
    """How many fault windows (cuts, crashes, slow links) the run may open."""
    behaviours: tuple[tuple[int, str], ...]
    """(seat, behaviour) of each dishonest seat."""
    strangers: tuple[tuple[str, int], ...]
    """(kind, how many keys or connections) of each stranger."""
    open: bool = True
    """An open table seats the first joiners it hears of; else the creator's owner admits
    the friends by fingerprint and refuses everyone else."""

    @classmethod
    def draw(
        cls,
        seed: int,
        games: tuple[str, ...] = ("condottiere", "captains"),
        max_seats: int = 6,
        min_seats: int = 2,
        behaviours: tuple[str, ...] = BEHAVIOURS,
        strangers: tuple[str, ...] = STRANGERS,
        faults: tuple[str, ...] = FAULTS,
    ) -> Config:
        """The configuration ``seed`` draws from the given choices: each fault, behaviour and
        stranger kind is on for this seed with probability one half, and each seat is
        dishonest with a probability drawn for the seed."""
        rng = random.Random(f"config {seed}")
        game = rng.choice(games)
        weights = [35, 35, 15, 10, 5][min_seats - 2 : max_seats - 1]
        seats = rng.choices(range(min_seats, max_seats + 1), weights)[0]
        if game == "captains":
            edition = "standard"
        else:
            edition = "zman-duel" if seats == 2 and rng.random() < 0.5 else "zman"
        on_faults = frozenset(f for f in faults if rng.random() < 0.5)
        on_behaviours = [b for b in behaviours if rng.random() < 0.5]
        dishonest = rng.random() * 0.6
        chosen = tuple(
            (seat, rng.choice(on_behaviours))
            for seat in range(seats)
            if on_behaviours and rng.random() < dishonest
        )
        kinds = tuple(
            (kind, rng.choice(COUNTS[kind]) if kind in COUNTS else 1)
            for kind in strangers
            if rng.random() < 0.3
        )
        return cls(seed, game, edition, seats, on_faults, rng.randrange(1, 6), chosen, kinds,
                   open=rng.random() < 0.5)

    def __str__(self) -> str:
        faults = ",".join(sorted(self.faults)) or "-"
        seats_do = ",".join(f"{s}:{b}" for s, b in self.behaviours) or "-"
        strangers = ",".join(f"{k}:{n}" for k, n in self.strangers) or "-"
        return (
            f"seed={self.seed} game={self.game} edition={self.edition} seats={self.seats}"
            f" faults={faults} budget={self.budget} seats_do={seats_do}"
            f" strangers={strangers} open={int(self.open)}"
        )

    @classmethod
    def parse(cls, text: str) -> Config:
        """The configuration a text form gives (:meth:`__str__`)."""
        fields = dict(item.split("=", 1) for item in text.split())
        behaviours = []
        for item in _items(fields["seats_do"]):
            seat, name = item.split(":")
            behaviours.append((int(seat), name))
        strangers = []
        for item in _items(fields["strangers"]):
            kind, count = item.split(":")
            strangers.append((kind, int(count)))
        return cls(
            int(fields["seed"]), fields["game"], fields["edition"], int(fields["seats"]),
            frozenset(_items(fields["faults"])), int(fields["budget"]), tuple(behaviours),
            tuple(strangers), fields.get("open", "1") == "1",
        )

    def simpler(self) -> list[Config]:
        """Configurations one step simpler (for shrinking): a fault, a behaviour or a
        stranger fewer, a smaller budget, fewer seats (with the behaviours of the seats kept),
        a smaller count of a stranger."""
        out: list[Config] = []
        for fault in sorted(self.faults):
            out.append(replace(self, faults=self.faults - {fault}))
        for index in range(len(self.behaviours)):
            kept = self.behaviours[:index] + self.behaviours[index + 1 :]
            out.append(replace(self, behaviours=kept))
        for index, (kind, count) in enumerate(self.strangers):
            before, after = self.strangers[:index], self.strangers[index + 1 :]
            out.append(replace(self, strangers=before + after))
            if count > 1:
                out.append(replace(self, strangers=(*before, (kind, max(1, count // 4)), *after)))
        if self.budget > 0:
            out.append(replace(self, budget=self.budget - 1))
        if self.seats > 2:
            behaviours = tuple((s, b) for s, b in self.behaviours if s < self.seats - 1)
            edition = self.edition
            out.append(replace(self, seats=self.seats - 1, behaviours=behaviours, edition=edition))
        if self.edition == "zman" and self.seats == 2:
            out.append(replace(self, edition="zman-duel"))
        return out

    @property
    def size(self) -> int:
        """How much the configuration turns on (what shrinking makes smaller)."""
        return (
            len(self.faults) + self.budget + 2 * len(self.behaviours) + self.seats
            + sum(1 + count.bit_length() for _, count in self.strangers)
        )
