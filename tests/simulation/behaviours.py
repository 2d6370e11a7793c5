"""What dishonest seats and strangers do: every entry kind an author can sign, at any moment.

A dishonest seat is an honest peer (it plays its bot's moves and does its part of the crypto)
that also does one thing an honest peer never does (:data:`~.config.BEHAVIOURS`); it signs
with its own key through the table's own signing path, so what it signs is exactly what the
wire lets an author sign. A stranger has no seat (:data:`~.config.STRANGERS`). Each acts once
a tick (:func:`act`); what it does and when comes from the world's seeded generator.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from condottiere.crypto import Identity
from condottiere.peer.driver import Step, Table
from condottiere.peer.entries import make_entry, table_id_of
from condottiere.peer.lobby import TableSpec
from condottiere.v1 import log_pb2

if TYPE_CHECKING:
    from tests.simulation.world import Peer, World

__all__ = ["act", "holds_back", "start_stranger", "table_kind"]

RESEND = 30.0
"""Seconds between two sends of a stranger's joins (it keeps asking)."""


class _Late(Table):
    """A table whose own answers wait while :attr:`holding` says so."""

    holding: bool = False

    def _make(self, step: Step) -> bool:
        if self.holding:
            return False
        return super()._make(step)


class _NeverReady(Table):
    """A joiner that never says it is ready."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs["auto_ready"] = False
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]


def table_kind(peer: Peer) -> type[Table]:
    """The kind of table a peer runs."""
    if peer.behaviour == "late":
        return _Late
    if peer.behaviour == "squatter":
        return _NeverReady
    return Table


def holds_back(world: World, peer: Peer) -> bool:
    """Whether a late seat holds its answers back now."""
    if peer.behaviour != "late" or peer.table is None:
        return False
    if "start" not in peer.state and _due(world, peer):
        peer.state["start"] = world.now
    start = peer.state.get("start", math.inf)
    length = peer.state.setdefault("length", world.rng.uniform(40.0, 400.0))
    holding = start <= world.now < start + length
    assert isinstance(peer.table, _Late)
    if holding != peer.table.holding:
        world.note(f"{peer.name} {'holds its answers back' if holding else 'sends them'}")
    peer.table.holding = holding
    if not holding:
        peer.table._advance()
    return holding


def _due(world: World, peer: Peer) -> bool:
    """Whether the step this behaviour waits for has come: a step number drawn once, from
    the lobby to well into a game of this many seats."""
    table = peer.table
    at = peer.state.setdefault("at", world.rng.randrange(2, 40 * world.config.seats))
    return table is not None and table.step is not None and table.step.number >= at


def act(world: World, peer: Peer) -> None:
    """What a dishonest seat or a stranger does at this tick."""
    table = peer.table
    if table is None:
        return
    {
        "liar": _lie,
        "slanderer": _slander,
        "leaver": _leave,
        "vanisher": _vanish,
        "late": holds_back,
        "equivocator": _equivocate,
        "replayer": _replay,
        "sybil": _sybil_again,
        "squatter": _squat,
    }.get(peer.behaviour or "", lambda world, peer: None)(world, peer)


def _silence(
    world: World, peer: Peer, seat: int, number: int, answered: bool, out: bool = False
) -> None:
    """Sign a statement about ``seat`` at step ``number``: a relay (``answered``, carrying
    nothing), a start, or an *out* decision."""
    table = peer.table
    assert table is not None
    if table.halt is not None or table._quiet:
        return
    waited = 0 if answered else world.rng.randrange(1, 1000)
    table._publish(log_pb2.Silence(seat=seat, step=number, waited=waited, answered=answered,
                                   out=out))
    said = "answered" if answered else "out" if out else "silent"
    world.note(f"{peer.name} states seat {seat} {said} at step {number}")
    table._advance()


def _lie(world: World, peer: Peer) -> None:
    """State *answered* about every seat anyone stated silent, and about every seat the table
    waits for past half its deadline, whether or not it answered."""
    table = peer.table
    assert table is not None
    mine = table.seat
    if mine is None:
        return
    said = peer.state.setdefault("said", set())
    for seat, number in list(table._statements):
        if seat != mine and (seat, number) not in said:
            said.add((seat, number))
            _silence(world, peer, seat, number, answered=True)
    step, deadline = table.step, table.deadline()
    if step is not None and deadline is not None and world.now - peer.since[1] > deadline / 2:
        for author in step.missing:
            seat = table.seat_of(author)
            if seat is not None and seat != mine and (seat, step.number) not in said:
                said.add((seat, step.number))
                _silence(world, peer, seat, step.number, answered=True)


def _slander(world: World, peer: Peer) -> None:
    """Now and then, state silent or out a seat (the creator one time in two) at a step past,
    present or to come."""
    table = peer.table
    assert table is not None
    if table.seat is None or world.rng.random() > 0.02:
        return
    seat = 0 if world.rng.random() < 0.5 else world.rng.randrange(len(table.seating))
    if seat == table.seat:
        return
    number = table.step.number if table.step is not None else 1 << 20
    _silence(world, peer, seat, max(0, number + world.rng.randrange(-30, 4)), answered=False,
             out=world.rng.random() < 0.5)


def _leave(world: World, peer: Peer) -> None:
    table = peer.table
    assert table is not None
    if _due(world, peer) and not peer.state.get("left"):
        peer.state["left"] = True
        world.note(f"{peer.name} says it leaves")
        table.leave("rage")
        world.after(peer)
        world.at(world.now + 5.0, lambda: world.kill(peer, "goes away after its leave"))


def _vanish(world: World, peer: Peer) -> None:
    if _due(world, peer):
        world.kill(peer, "vanishes (its peer dies for good)")


def _equivocate(world: World, peer: Peer) -> None:
    """Once, sign two different chat lines under the next sequence number and send each to
    half the others."""
    table = peer.table
    assert table is not None
    if not _due(world, peer) or peer.state.get("done") or table._quiet:
        return
    peer.state["done"] = True
    log = table.logs.log(peer.me)
    heads = tuple(
        (author, seq, digest)
        for author, (seq, digest) in sorted(table.logs.heads().items())
        if author != peer.me
    )
    versions = [
        make_entry(
            peer.identity, table.table_id, len(log), log[-1].hash if log else b"",
            step=0, heads=heads, body=log_pb2.Chat(text=text),
        )
        for text in ("one thing", "another")
    ]
    world.note(f"{peer.name} signs two entries at sequence number {len(log)}")
    others = [p for p in world.seats() if p is not peer and not p.gone]
    for index, other in enumerate(others):
        world._post(peer, other, versions[index % 2].signed, frozenset())


def _replay(world: World, peer: Peer) -> None:
    """Now and then, send an entry of another table, or sign one of its old answers anew."""
    table = peer.table
    assert table is not None
    if world.rng.random() > 0.02 or table._quiet or table.halt is not None:
        return
    others = [p for p in world.seats() if p is not peer and not p.gone]
    if world.rng.random() < 0.5:
        spec = TableSpec(
            edition=world.spec.edition, seats=world.spec.seats, options=(), name="other",
            player=peer.name, address="", game=world.spec.game,
        )
        body = spec.body()
        other_id = table_id_of(peer.me, body)
        entry = make_entry(peer.identity, other_id, 0, b"", step=1, heads=(), body=body)
        world.note(f"{peer.name} sends an entry of another table")
        for other in others:
            world._post(peer, other, entry.signed, frozenset())
        return
    old = [e for e in table.logs.log(peer.me) if not e.free and e.seq > 0]
    if old:
        entry = world.rng.choice(old)
        world.note(f"{peer.name} signs its {entry.kind} of step {entry.step} anew")
        table._publish(entry.body, entry.step)
        table._advance()


# ---------------------------------------------------------------------- strangers


def start_stranger(world: World, peer: Peer) -> None:
    """A stranger comes to the table."""
    kind = peer.behaviour
    count = int(peer.state["count"])
    if kind == "sybil":
        peer.extra = [Identity(world.rng.randbytes(32)) for _ in range(count)]
        peer.table = Table.from_definition(peer.identity, world.definition, peer.keeper)
        world.note(f"a stranger joins under {count} fresh keys")
        _sybil_send(world, peer)
    elif kind == "squatter":
        peer.table = _NeverReady.from_definition(peer.identity, world.definition, peer.keeper)
        peer.table.join("squatter", f"{peer.source}:5000")
        world.note("a stranger asks for a seat it will never be ready for")
        world.after(peer)
    else:
        world.note(f"a stranger opens {count} {kind} from {peer.source} (modelled)")
        world.wire.open(peer, kind, count)


def _sybil_send(world: World, peer: Peer) -> None:
    definition = world.creator.keeper.entries[0]
    joins = peer.state.setdefault("joins", [
        make_entry(
            identity, definition.entry.table_id, 0, b"", step=0, heads=(),
            body=log_pb2.Join(definition=definition.hash, player=f"sybil{number}",
                              address=f"{peer.source}:{6000 + number}"),
        ).signed
        for number, identity in enumerate(peer.extra)
    ])
    for join in joins:
        for other in world.seats():
            if not other.gone:
                world._post(peer, other, join, frozenset())
    peer.state["sent"] = world.now


def _sybil_again(world: World, peer: Peer) -> None:
    if world.now - float(peer.state.get("sent", 0.0)) >= RESEND:
        _sybil_send(world, peer)


def _squat(world: World, peer: Peer) -> None:
    """Seated or not, now and then state the creator silent at some step."""
    table = peer.table
    assert table is not None
    if world.rng.random() > 0.05 or table._quiet or len(table.logs.log(peer.me)) >= 7:
        return
    number = table.step.number if table.step is not None else 3
    _silence(world, peer, 0, max(0, number + world.rng.randrange(-3, 3)), answered=False,
             out=world.rng.random() < 0.5)
