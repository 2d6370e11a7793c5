"""The table's promises (docs/promises.md), checked after every change of a peer's table
(:func:`check_step`), at every tick (:func:`check_tick`) and at the end of a game
(:func:`check_end`). Each broken promise is a :class:`Broken` naming the promise and saying
what was seen."""

from __future__ import annotations

import math
import resource
from dataclasses import dataclass
from typing import TYPE_CHECKING

from condottiere.cli.standings import GameFacts, facts_of
from condottiere.peer.driver import Table
from condottiere.peer.lobby import Deadlines
from condottiere.peer.readers import refusal
from condottiere.peer.record import verify
from condottiere.peer.silence import RELAY_ROUND, rounds
from condottiere.peer.steps import rule_of
from condottiere.peer.steps.coins import COIN_REVEAL
from condottiere.peer.steps.keys import PIECE_CHECKS, REDEALING
from condottiere.peer.steps.leavers import REKEY, STAND_IN
from condottiere.peer.steps.seating import SEATING

if TYPE_CHECKING:
    from tests.simulation.world import Peer, World

__all__ = ["PROMISES", "Broken", "WireModel", "check_end", "check_step", "check_tick"]

PROMISES = (
    "agreement", "no framing", "liveness", "lobby", "verify", "secrecy", "no crash"
)

STEPS_PER_WAIT = 4
"""Liveness: no honest peer waits at one step longer than this many times the step's
deadline, plus the relay rounds (:func:`~condottiere.peer.silence.rounds`), plus the longest
fault window twice (:data:`~.world.WINDOW`)."""
OWN_FILES = 64
"""Files a peer holds open by itself (its store, its log, the friends' connections)."""


@dataclass(frozen=True)
class Broken:
    """A broken promise."""

    promise: str
    detail: str

    def __str__(self) -> str:
        return f"{self.promise}: {self.detail}"


def _peer_of(world: World, author: bytes | None) -> Peer | None:
    return next((p for p in world.peers if p.me == author), None)


def _covered(peer: Peer | None) -> bool:
    """Whether the promises cover this seat: honest, and timely while it ran."""
    return peer is not None and peer.honest and not peer.untimely


def _view_covered(peer: Peer, table: Table) -> bool:
    """Whether the promises cover what this peer's table shows: an honest peer's, except an
    untimely one's at two seats, which has only the other seat's word that it was put out
    and must not take it (docs/promises.md, "Who is covered")."""
    return peer.honest and not (peer.untimely and len(table.seating) - len(table.out) <= 2)


def check_step(world: World, peer: Peer) -> None:
    """No framing, as ``peer`` sees the table now: no covered seat put out, blamed (an entry
    of it refused) or named in a halt."""
    table = peer.table
    if table is None or not _view_covered(peer, table):
        return
    for seat, departure in table.out.items():
        other = _peer_of(world, table.seating[seat]) if seat < len(table.seating) else None
        if _covered(other) and (seat, "out") not in peer.state.setdefault("seen", set()):
            assert other is not None
            peer.state["seen"].add((seat, "out"))
            world.broken.append(Broken(
                "no framing",
                f"{peer.name} put out honest {other.name}: {departure.words(other.name)}"))
    taken = int(peer.state.get("refusals", 0))
    for refused in table.refusals[taken:]:
        other = _peer_of(world, refused.author)
        if _covered(other) and other is not peer:
            assert other is not None
            world.broken.append(Broken(
                "no framing", f"{peer.name} refused an entry of honest {other.name}: "
                f"{refused.reason} ({refused.detail})"))
    peer.state["refusals"] = len(table.refusals)
    halt = table.halt
    if halt is not None and not peer.state.get("halt seen"):
        peer.state["halt seen"] = True
        named = _peer_of(world, halt.author)
        if _covered(named) and not (named is peer and table.seat in table.out):
            assert named is not None
            world.broken.append(Broken(
                "no framing", f"{peer.name}'s table halted naming honest {named.name}: "
                f"{halt.detail}"))


def _wait_bound(world: World, table: Table) -> float:
    from tests.simulation.world import COIN_TIMEOUT, WINDOW

    step = table.step
    if step is None or step.kind == SEATING:
        return math.inf  # a table waiting for joiners: the lobby promise covers them
    deadline = table.deadline()
    if deadline is None:
        deadline = COIN_TIMEOUT if step.kind == COIN_REVEAL else Deadlines().step
    at_table = len(table.seating) - len(table.out)
    return STEPS_PER_WAIT * deadline + rounds(at_table) * RELAY_ROUND + 2 * WINDOW[1]


def lobby_bound(world: World) -> float:
    """How long an honest joiner may wait for a free seat: at a table whose owner admits it,
    two ready deadlines and the fault windows; at an open table, also a round of freeing
    (a ready deadline twice and the relay rounds) for the strangers seated when it asks, and
    one for each of the strangers' sources the free seats can hold (a source given a seat
    waits behind every source given none: :meth:`~condottiere.peer.lobby.Lobby.fair_order`)."""
    from tests.simulation.world import WINDOW

    ready = Deadlines().ready
    base = 2 * ready + 2 * WINDOW[1]
    sources = sum(1 for kind, _ in world.config.strangers if kind in ("sybil", "squatter"))
    if not world.config.open or not sources:
        return base
    free = max(1, world.config.seats - 1)
    freeing = 2 * ready + rounds(world.config.seats) * RELAY_ROUND
    return base + freeing * (1 + math.ceil(sources / free))


def check_tick(world: World) -> None:
    """Liveness and the lobby, as time passes: no honest peer waits at one step past its
    bound, and every honest joiner is seated within :func:`lobby_bound` of its join at a
    table whose creator is honest (the creator alone seats)."""
    for peer in world.honest():
        table = peer.table
        if table is None or not peer.live or table.over:
            continue
        waited = world.now - peer.since[1]
        bound = _wait_bound(world, table)
        if waited > bound and peer.seated_at is not None:
            waiting = table.waiting()
            world.broken.append(Broken(
                "liveness", f"{peer.name} waited {waited:.0f} s (bound {bound:.0f} s) for "
                f"{waiting[2] if waiting else 'nothing'}"))
            return
        asked = peer.joined_at
        if (
            asked is not None and peer.seated_at is None and world.creator.honest
            and world.now - asked > lobby_bound(world)
        ):
            world.broken.append(Broken(
                "lobby", f"{peer.name} asked for a seat at t={asked:.0f} and is not seated "
                f"{world.now - asked:.0f} s later (bound {lobby_bound(world):.0f} s)"))
            return


def check_end(world: World) -> None:
    """Agreement, verify and standings, secrecy and the end itself, once every honest peer's
    table is over."""
    ends = [p for p in world.honest() if p.table is not None and p.table.seat not in p.table.out
            and _view_covered(p, p.table)]
    ends = [p for p in ends if not _put_out_with_a_seat_it_holds(p, ends)]
    if not ends:
        return
    first = ends[0]
    assert first.table is not None
    for peer in ends[1:]:
        assert peer.table is not None
        mine, theirs = _end_of(first.table), _end_of(peer.table)
        if mine != theirs:
            world.broken.append(Broken(
                "agreement", f"{first.name} ended {mine}, {peer.name} ended {theirs}"))
            return
    for peer in ends:
        _check_abandonment(world, peer)
        _check_secrecy(world, peer)
    _check_verify(world, world.rng.choice(ends))


def _put_out_with_a_seat_it_holds(peer: Peer, ends: list[Peer]) -> bool:
    """Whether a timely honest peer put ``peer``'s seat out, untimely then, at a step where
    it put out another seat too that ``peer``'s own fold holds in (docs/promises.md, "Who is
    covered": such a seat cannot tell the others' word from two liars')."""
    mine = peer.table
    if not peer.untimely or mine is None or mine.seat is None:
        return False
    for other in ends:
        table = other.table
        if other.untimely or table is None or mine.seat not in table.out:
            continue
        step = table.out[mine.seat].step
        if any(d.step == step and s != mine.seat and s not in mine.out
               for s, d in table.out.items()):
            return True
    return False


def _end_of(table: Table) -> tuple[object, ...]:
    """What honest peers agree on at the end: the record hash, the seats out and the halt; at
    a table halted on a proven cheat, only that it halted so (each peer halts where the first
    proof reaches it: with several cheats, peers may name different ones, and
    :func:`check_step` sees that each names a seat that did cheat)."""
    halt = table.halt
    if halt is not None and halt.cheat:
        return ("cheat",)
    return (
        table.record_hash(),
        None if halt is None else ("cheat" if halt.cheat else "abandoned" if halt.abandoned
                                   else "stopped", halt.seat),
        tuple(sorted(table.out)),
    )


CATCHING_UP = frozenset(
    rule_of(kind).words for kind in (STAND_IN, REKEY, REDEALING, PIECE_CHECKS)
)
"""The steps right after a leave that make the next leaver coverable (the stand-in of a deal
under way, the re-key, the new backups): a seat gone at one of them left before the others
could act without the one before, so the two left together."""


def _check_abandonment(world: World, peer: Peer) -> None:
    """A table is abandoned only where seats left together (at one step, or one at the
    re-key and new backups that follow the other's verdict) that the backups do not cover:
    seats that leave one after another are each covered, down to two seats."""
    table = peer.table
    assert table is not None
    halt = table.halt
    if halt is None or halt.departure is None:
        return
    last = halt.departure
    together = [s for s, d in table.out.items() if d.step == last.step and s != last.seat]
    if not together and not (last.at in CATCHING_UP and len(table.out) > 1):
        world.broken.append(Broken(
            "liveness", f"{peer.name}'s table abandoned at a leave one after another: "
            + "; ".join(d.words(f"seat {s}") for s, d in sorted(table.out.items()))))


def _check_secrecy(world: World, peer: Peer) -> None:
    """No deck of an honest peer opened a card of a position another seat holds, nor holds
    the share of a hidden card's owner as a public one (its hidden part, which would open
    the card to every seat)."""
    table = peer.table
    assert table is not None
    dealer = table.dealer
    if dealer is None or table.seat is None or table.seat not in dealer.members:
        return
    member = dealer.at(table.seat)  # a deck numbers the members, not the table's seats
    for index, deck in enumerate(dealer.decks):
        for round_number, record in enumerate(deck._rounds):
            for position, owner in record.owners.items():
                if owner in record.shares.get(position, {}) and position not in record.revealed:
                    world.broken.append(Broken(
                        "secrecy", f"{peer.name} (seat {table.seat}) holds as public the "
                        f"hidden part of position {position} of deck {index} round "
                        f"{round_number}, dealt to seat {dealer.members[owner]}"))
                    return
            for position in record.opened:
                owner = record.owners.get(position)
                if owner is not None and owner != member:
                    world.broken.append(Broken(
                        "secrecy", f"{peer.name} (seat {table.seat}) opened position {position} "
                        f"of deck {index} round {round_number}, held by seat "
                        f"{dealer.members[owner]}"))
                    return


def _check_verify(world: World, peer: Peer) -> None:
    """``verify`` on the peer's record reaches the table's end, and ``standings`` counts a
    game the table saw finish."""
    from tests.simulation.world import entries_of

    table = peer.table
    assert table is not None
    verdict = verify([entry.signed for entry in entries_of(table)], peer.me)
    seen = verdict.table
    if table.halt is not None and table.halt.cheat:  # a cheat named, wherever it stops
        named = None if seen.halt is None else _peer_of(world, seen.halt.author)
        agrees = seen.halt is not None and seen.halt.cheat and (
            seen.halt.seat == table.halt.seat or (named is not None and not named.honest)
        )  # with several proofs in the record, verify names the first in the record's order
    else:
        agrees = (seen.halt is None) == (table.halt is None)
        agrees = agrees and seen.record_hash() == table.record_hash()
    if not agrees:
        world.broken.append(Broken(
            "verify", f"{peer.name}'s record verifies as {verdict.verdict_words()!r} "
            f"({'; '.join(verdict.lines()[-3:])}) where the table ended "
            f"{'halted: ' + table.halt.detail if table.halt else 'finished'}"))
        return
    game = table.game
    if table.halt is None and game is not None and game.outcome is not None:
        facts = facts_of(verdict)
        if verdict.refusals and not isinstance(facts, GameFacts):
            return  # the record shows a cheat: standings name it rather than count the game
        if not isinstance(facts, GameFacts) or facts.outcome != game.outcome:
            world.broken.append(Broken(
                "verify", f"standings do not count {peer.name}'s finished game: {facts}"))


class WireModel:
    """The floods a stranger sends to the node's network side, modelled (no socket is
    opened): idle connections from one source against the peer's open files, and a stream
    opened in the lobby under a fresh key at a table that admits no spectators."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.streams: list[Peer] = []

    def open(self, stranger: Peer, kind: str, count: int) -> None:
        if kind == "connections":
            held = count  # gRPC gives no hook to refuse a source's connections at accept
            budget = _open_files()
            if held + OWN_FILES > budget:
                self.world.broken.append(Broken(
                    "lobby", f"{count} idle connections from {stranger.source} hold {held} of "
                    f"the peer's {budget} open files: a friend's connection is refused"))
        elif kind == "streams":
            self.streams.append(stranger)

    def tick(self) -> None:
        check_tick(self.world)
        creator = self.world.creator.table
        if not self.streams or creator is None or not creator.lobby.closed:
            return
        seating = self.world.creator.table
        assert seating is not None
        for stranger in list(self.streams):
            self.streams.remove(stranger)
            if _stream_goes_on(stranger.me, seating):
                self.world.broken.append(Broken(
                    "lobby", f"the stream {stranger.name} opened in the lobby under a fresh "
                    "key goes on past the seating at a table that admits no spectators"))


def _open_files() -> int:
    """The open files a peer has, modelled: the soft limit it runs with once started
    (:func:`~condottiere.peer.limits.raise_open_file_limit` raises a desktop's common 1024 to
    the hard limit; the hard limit is this machine's)."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return hard if hard != resource.RLIM_INFINITY else 1 << 20


def _stream_goes_on(subscriber: bytes, table: Table) -> bool:
    """Whether a stream ``subscriber`` opened in the lobby goes on once ``table`` is seated,
    as :meth:`~condottiere.peer.node.Node.entries_from` decides at every new entry (checked
    between processes in tests/peer/test_node.py)."""
    return refusal(
        subscriber, proven=True, readers=table.seating if table.lobby.closed else None,
        open_to_all=table.spec.spectators,
    ) is None
