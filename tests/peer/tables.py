"""Tables of several peers in one process, with no socket: entries are handed over by hand."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from condottiere.bots import make_bot
from condottiere.crypto import Identity
from condottiere.peer.driver import MemoryKeeper, Table
from condottiere.peer.entries import LogEntry
from condottiere.peer.lobby import TableSpec
from condottiere.peer.logs import Suspicion


def spec(
    edition: str, seats: int, options: Sequence[str] = (), address: str = "",
    game: str = "condottiere",
) -> TableSpec:
    return TableSpec(
        edition=edition, seats=seats, options=tuple(sorted(options)), name="test",
        player="seat0", address=address, game=game,
    )


def feed(table: Table, signed: Sequence[bytes]) -> None:
    """Offer ``table`` every entry of ``signed``, in that order, and again until it takes
    nothing new: as a node asks its peers again for what its table turned away (a seat's
    entries that came before the seating that names it, past what is kept of an author
    without a seat)."""
    while True:
        held = len(table.logs)
        for data in signed:
            table.receive(data)
        if len(table.logs) == held:
            return


def address_of(seat: int) -> str:
    """The address a seat of an ``addressed`` harness signs as its own."""
    return f"127.0.0.1:{5000 + seat}"


class Harness:
    """``seats`` peers at one table; :meth:`deliver` hands every new entry to every peer."""

    def __init__(
        self,
        edition: str,
        seats: int,
        options: Sequence[str] = (),
        seed: int = 0,
        kinds: dict[int, type[Table]] | None = None,
        addressed: bool = False,
        game: str = "condottiere",
    ) -> None:
        """``kinds`` gives a seat a Table subclass (a peer that misbehaves); with
        ``addressed``, each seat signs an address (:func:`address_of`), as peers do;
        ``game`` names the game the table plays."""
        kinds = kinds or {}
        self.rng = random.Random(seed)
        self.identities = [Identity.generate() for _ in range(seats)]
        self.keepers = [MemoryKeeper() for _ in range(seats)]
        address = address_of if addressed else (lambda seat: "")
        creator = kinds.get(0, Table).create(
            self.identities[0], spec(edition, seats, options, address(0), game), self.keepers[0]
        )
        definition = creator.logs.log(creator.me)[0].signed
        self.tables = [creator]
        for seat in range(1, seats):
            table = kinds.get(seat, Table).from_definition(
                self.identities[seat], definition, self.keepers[seat]
            )
            self.tables.append(table)
            table.join(f"seat{seat}", address(seat))
            self.deliver()  # joins reach the creator in seat order
        self.bots = [make_bot("greedy", seed=seed + seat) for seat in range(seats)]

    def deliver(self, shuffle: bool = False, duplicate: bool = False) -> int:
        """Hand every entry any peer holds to every peer that lacks it (all of them again, with
        ``duplicate``; in a random order, with ``shuffle``); how many were new to someone."""
        handed = 0
        while True:
            everything: dict[bytes, LogEntry] = {}
            suspicions = []
            for table in self.tables:
                suspicions += [(table, suspicion) for suspicion in table.drain()[1]]
                for author in table.logs.authors:
                    for entry in table.logs.log(author):
                        everything.setdefault(entry.hash, entry)
            new = 0
            for table in self.tables:
                entries = [
                    entry
                    for entry in everything.values()
                    if duplicate or entry.seq >= len(table.logs.log(entry.author))
                ]
                if shuffle:
                    self.rng.shuffle(entries)
                else:
                    entries.sort(key=lambda entry: entry.seq)
                for entry in entries:
                    if self.blocked(table, entry):
                        continue
                    before = len(table.logs)
                    self.hand(table, entry)
                    new += len(table.logs) > before
            new += self._fetch_other_versions(suspicions)
            handed += new
            if new == 0:
                return handed

    def _fetch_other_versions(self, suspicions: list[tuple[Table, Suspicion]]) -> int:
        """As a node does: ask the witness of a disagreeing head for its version of the entry;
        how many such versions were handed over."""
        handed = 0
        for table, suspicion in suspicions:
            for witness in self.tables:
                log = witness.logs.log(suspicion.author)
                if witness.me == suspicion.witness and suspicion.seq < len(log):
                    other = log[suspicion.seq]
                    if other.hash == suspicion.claimed and not self.blocked(table, other):
                        self.hand(table, other)
                        handed += 1
        return handed

    def blocked(self, table: Table, entry: LogEntry) -> bool:
        """Whether ``entry`` is kept from ``table`` (a test may override it)."""
        return False

    def hand(self, table: Table, entry: LogEntry) -> None:
        """Hand one entry to one table (a test may override it to watch)."""
        table.receive(entry.signed)

    def play(
        self,
        max_rounds: int = 20_000,
        before_each: Callable[[], None] | None = None,
        until: Callable[[], bool] | None = None,
    ) -> None:
        """Deliver and let every seat's bot move until every table is over (or ``until()``)."""
        for _ in range(max_rounds):
            self.deliver()
            if all(table.over for table in self.tables) or (until is not None and until()):
                return
            if before_each is not None:
                before_each()
            moved = False
            for seat, table in enumerate(self.tables):
                game = table.game
                if (
                    game is not None
                    and game.to_act == seat
                    and table.step is not None
                    and table.step.kind == "move"
                    and table.step.missing == (table.me,)
                ):
                    move = self.bots[seat].choose(game.copy(), seat)
                    reason = table.submit(move)
                    assert reason is None, reason
                    moved = True
            if not moved and self.deliver() == 0:
                raise AssertionError(
                    f"stuck: {[(t.step and t.step.kind, t.waiting()) for t in self.tables]}"
                )
        raise AssertionError("the game did not end")


def all_entries(table: Table) -> list[bytes]:
    """Every signed entry ``table`` holds, author by author (what ``verify`` reads)."""
    return [e.signed for a in table.logs.authors for e in table.logs.log(a)]
