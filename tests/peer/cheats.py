"""A cheating peer for tests, and the witnesses that judge it.

A :class:`Cheat` is a :class:`~condottiere.peer.driver.Table` that replaces one entry it publishes
with a forged one (its :meth:`Cheat.forge` picks the entry and makes the forgery), or publishes a
forgery when the test says so (:meth:`Cheat.publish_forged`). Every other seat is a
:class:`Witness`: an honest table that records its game state just before and just after it
judges a forged entry, so a test can check that nothing of a refused entry was applied.
:func:`assert_caught` checks everything the catalogue promises of one cheat.

Nothing here is shipped: the command line has no way to cheat.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from google.protobuf.message import Message

from condottiere.cli.records import run_verify
from condottiere.interface import DEFAULT_GAME
from condottiere.peer.controller import snapshot_of
from condottiere.peer.driver import MemoryKeeper, Step, Table
from condottiere.peer.entries import LogEntry, Reason, make_entry
from condottiere.peer.record import export, load, verify
from condottiere.peer.steps import Next, Verdict
from condottiere.v1 import log_pb2
from tests.peer.mutations import mutate_message
from tests.peer.tables import Harness


def state_of(table: Table) -> Any:
    """Everything of the game a table holds: its step, the engine's record, every deck's
    rounds, shares, owners and cards, the dealer's hands and the coins decided."""
    step = table.step
    game, dealer = table.game, table.dealer
    if dealer is not None and not any(deck._rounds for deck in dealer.decks):
        dealer = None  # made for this seat's own keys: nothing of the game in it yet
    decks = []
    if dealer is not None:
        for deck in dealer.decks:
            rounds = [
                (
                    record.sources,
                    [tuple(cards) for cards in record.steps],
                    dict(record.owners),
                    {position: dict(shares) for position, shares in record.shares.items()},
                    dict(record.opened),
                    dict(record.revealed),
                )
                for record in deck._rounds
            ]
            decks.append((deck.keys, deck.joint_key, rounds, sorted(deck._returned)))
    return (
        None if step is None else (step.number, step.kind),
        None if game is None else json.dumps(game.record(), sort_keys=True),
        None if game is None else (game.phase, game.to_act, game.moves_played),
        decks,
        None
        if dealer is None
        else (
            [list(hand) for hand in dealer.hands],
            dict(dealer.face_up),
            dict(dealer.mine),
            [sorted(out) for out in dealer.out],
            list(dealer.drawn),
            list(dealer.epochs),
            list(dealer.dealt),
        ),
        list(table.flips),
        table.cards,
    )


class Witness(Table):
    """An honest table that records its state around each forged entry it judges."""

    forged: dict[bytes, bytes] = {}  # noqa: RUF012 (replaced by the harness's own)
    """Forged entries by hash (the harness shares one dict among all its tables)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.judged: dict[bytes, tuple[Any, Any]] = {}
        """Forged entry hash -> (state just before it was judged, state just after)."""
        super().__init__(*args, **kwargs)

    def _check(self, step: Step, author: bytes, entry: LogEntry) -> Verdict:
        if entry.hash not in self.forged:
            return super()._check(step, author, entry)
        before = state_of(self)
        try:
            return super()._check(step, author, entry)
        finally:
            self.judged.setdefault(entry.hash, (before, state_of(self)))

    def _complete(self, step: Step) -> Next | None:
        forged = [e.hash for e in step.answers.values() if e.hash in self.forged]
        if not forged:
            return super()._complete(step)
        before = state_of(self)
        try:
            return super()._complete(step)
        finally:
            for digest in forged:
                self.judged[digest] = (before, state_of(self))


class Cheat(Table):
    """A peer that forges one of its entries (see :meth:`forge`)."""

    forged: dict[bytes, bytes] = {}  # noqa: RUF012 (replaced by the harness's own)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.cheated = False
        super().__init__(*args, **kwargs)

    def forge(self, body: Message, step: int) -> Message | None:
        """The forgery to publish instead of ``body`` (answering ``step``); None to publish
        ``body`` itself. Called for every entry until one is forged."""
        return None

    def publish_forged(self, body: Message, step: int = 0) -> LogEntry:
        """Publish ``body`` now, as a forgery (a move out of turn, a replayed body, ...)."""
        entry = super()._publish(body, step)
        self.forged[entry.hash] = entry.signed
        self.cheated = True
        return entry

    def _publish(self, body: Message, step: int = 0) -> LogEntry:
        if not self.cheated:
            forgery = self.forge(body, step)
            if forgery is not None:
                self.cheated = True
                entry = super()._publish(forgery, step)
                self.forged[entry.hash] = entry.signed
                return entry
        return super()._publish(body, step)


class CheatHarness(Harness):
    """A table of :class:`Witness` seats and one :class:`Cheat` (``cheat`` at ``seat``)."""

    def __init__(
        self,
        edition: str,
        seats: int,
        cheat: type[Cheat],
        seat: int,
        seed: int = 0,
        options: Sequence[str] = (),
        game: str = DEFAULT_GAME,
    ) -> None:
        self.forged: dict[bytes, bytes] = {}
        self.cheater_seat = seat
        kinds: dict[int, type[Table]] = {s: Witness for s in range(seats)}
        kinds[seat] = cheat
        super().__init__(edition, seats, options, seed=seed, kinds=kinds, game=game)

    def deliver(self, shuffle: bool = False, duplicate: bool = False) -> int:
        for table in self.tables:
            table.forged = self.forged  # type: ignore[attr-defined]
        return super().deliver(shuffle, duplicate)

    def hand(self, table: Table, entry: LogEntry) -> None:
        if not isinstance(table, Cheat):
            super().hand(table, entry)
            return
        with contextlib.suppress(Exception):  # a liar's own table may trip over its lie
            super().hand(table, entry)

    @property
    def cheater(self) -> Cheat:
        cheater = self.tables[self.cheater_seat]
        assert isinstance(cheater, Cheat)
        return cheater

    @property
    def witnesses(self) -> list[Witness]:
        return [t for t in self.tables if isinstance(t, Witness)]


def stored(evidence: bytes, keeper: MemoryKeeper) -> bool:
    """Whether a piece of evidence is in the store: an entry kept as such, or inside one (an
    ``Evidence`` entry carries the entries it proves a cheat with)."""
    return any(evidence == entry.signed or evidence in entry.signed for entry in keeper.entries)


def entries_of(table: Table) -> list[LogEntry]:
    """What a peer exports: every entry it holds, the definition first."""
    entries = [entry for author in table.logs.authors for entry in table.logs.log(author)]
    return sorted(entries, key=lambda entry: entry.kind != "table")


def assert_caught(
    harness: CheatHarness,
    reason: Reason,
    *,
    halts: bool,
    record: Path,
    whole_state: bool = True,
) -> None:
    """Every witness caught the cheat: blamed the cheater's seat with ``reason``, with the
    signed forged entry among the evidence, shown in its snapshot and events, kept in its
    store; its state was the same just after judging the forged entry as just before
    (``whole_state``); it halted or went on as ``halts`` says; and ``condottiere verify``
    on its exported record reaches the same verdict, and says so."""
    seat = harness.cheater_seat
    forged = set(harness.forged.values())
    assert forged, "the cheat published no forged entry"
    for index, witness in enumerate(harness.witnesses):
        blame = _blame(witness, reason, seat, halts)
        assert forged & set(blame.evidence), f"the evidence lacks the forged entry: {blame}"
        keeper = harness.keepers[harness.tables.index(witness)]
        assert all(stored(item, keeper) for item in blame.evidence), "evidence not stored"
        snapshot = snapshot_of(witness, 0.0)
        if halts:
            assert snapshot.halt is blame and snapshot.stage == "halted"
        else:
            assert blame in snapshot.refusals and witness.halt is None
        kinds = {"halt"} if halts else {"refused"}
        assert any(e.kind in kinds and e.seat == seat for e in witness.events), witness.events
        if whole_state:
            judged = [witness.judged[e.hash] for e in witness.logs.log(harness.cheater.me)
                      if e.hash in witness.judged]
            assert judged, "the witness never judged the forged entry"
            for before, after in judged:
                assert before == after, "a refused entry changed the game"
        path = export(entries_of(witness), record.with_suffix(f".{index}.cdr"))
        verdict = verify(load(path))
        assert not verdict.fair
        _blame(verdict.table, reason, seat, halts)
        said = io.StringIO()
        assert run_verify(path, said) == 1
        assert "CHEAT" in said.getvalue() and f"seat {seat} " in said.getvalue(), said.getvalue()


def _blame(table: Table, reason: Reason, seat: int, halts: bool) -> Any:
    if halts:
        halt = table.halt
        assert halt is not None, f"no halt; refusals: {table.refusals}"
        assert (halt.reason, halt.seat) == (reason, seat), halt
        return halt
    found = [r for r in table.refusals if (r.reason, r.seat) == (reason, seat)]
    assert found, f"no {reason.value} refusal of seat {seat}: {table.refusals}, halt {table.halt}"
    return found[0]


def moves_of(table: Table) -> int:
    return 0 if table.game is None else table.game.moves_played


def forged_move(table: Table, move: str, cards: Sequence[log_pb2.CardShown] = ()) -> Message:
    """A move entry's body for this table's turn, showing ``cards``."""
    assert table.game is not None
    return log_pb2.MovePlayed(turn=table.game.moves_played, move=move, cards=list(cards))


@dataclass
class SeatedFuzz:
    """The figures of :func:`fuzz_seated`."""

    sent: int = 0
    probes: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    """``refused:REASON:KIND``, ``halt:REASON:KIND``, ``door:REASON`` or ``taken:KIND``."""
    problems: list[str] = field(default_factory=list)
    """A crash, or a refusal or halt that changed the game (must stay empty)."""


def fuzz_seated(harness: Harness, messages: int, rng: random.Random) -> SeatedFuzz:
    """Seat 1 of ``harness`` (a game played to its end) turned fuzzer: seat 0's table is
    rebuilt from what it had kept at a random point where it waits for seat 1, and fed
    entries signed by seat 1 in its own log, answering the step awaited, whose bodies are
    mutated copies of the game's real bodies (of the kind awaited, mostly). Each must be
    refused with nothing changed, halt the table with nothing changed, or be a proper entry
    (then, or after a halt, the table is rebuilt at another point); nothing may raise."""
    run = SeatedFuzz()
    witness, cheater, keeper = harness.tables[0], harness.tables[1], harness.keepers[0]
    kept = list(keeper.entries)
    pool = [entry for author in witness.logs.authors for entry in witness.logs.log(author)]
    while run.sent < messages:
        prefix = kept[: rng.randrange(2, len(kept))]
        probe = Table.restore(
            witness.identity,
            MemoryKeeper(list(prefix), dict(keeper.secrets), set(keeper.checked)),
            prefix,
        )
        step = probe.step
        if step is None or probe.halt is not None or cheater.me not in step.missing:
            continue
        run.probes += 1
        while run.sent < messages and _fuzz_once(probe, cheater, pool, rng, run):
            pass
    return run


def _fuzz_once(
    probe: Table,
    cheater: Table,
    pool: Sequence[LogEntry],
    rng: random.Random,
    run: SeatedFuzz,
) -> bool:
    """One fuzzed entry; whether the probe may take another (it refused this one)."""
    step = probe.step
    assert step is not None
    awaited = [entry for entry in pool if entry.kind == step.kind]
    base = rng.choice(awaited if awaited and rng.random() < 0.7 else pool)
    body = type(base.body)()
    body.CopyFrom(base.body)
    mutate_message(rng, body)
    log = probe.logs.log(cheater.me)
    entry = make_entry(
        cheater.identity, probe.table_id, len(log), log[-1].hash,
        step=0 if base.free else step.number, heads=(), body=body,
    )
    before, refusals = state_of(probe), len(probe.refusals)
    run.sent += 1
    try:
        rejection = probe.receive(entry.signed)
    except Exception as error:  # the point of the exercise: none may escape
        run.problems.append(f"{base.kind} at {step.kind}: {type(error).__name__}: {error}")
        return False
    if rejection is not None:
        run.outcomes[f"door:{rejection.reason.value}"] += 1
        return True
    if probe.halt is not None:
        run.outcomes[f"halt:{probe.halt.reason and probe.halt.reason.value}:{entry.kind}"] += 1
        if state_of(probe) != before:
            run.problems.append(f"a halt on a {entry.kind} entry changed the game")
        return False
    if len(probe.refusals) > refusals:
        run.outcomes[f"refused:{probe.refusals[-1].reason.value}:{entry.kind}"] += 1
        if state_of(probe) != before:
            run.problems.append(f"a refused {entry.kind} entry changed the game")
        return True
    run.outcomes[f"taken:{entry.kind}"] += 1
    return False
