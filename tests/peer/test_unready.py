"""A seat not ready in time is freed for another joiner, as a fold with no socket: every
peer frees the same seat and seats the same joiner in its place, in whatever order the
entries come; a creator cannot free a seat that was ready or move a seat it keeps; and what
an author without a seat can make a peer keep is bounded."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from condottiere.bots import make_bot
from condottiere.crypto import Identity
from condottiere.peer.controller import snapshot_of
from condottiere.peer.driver import (
    LOBBY_ENTRIES,
    MAX_JOINERS,
    UNSEATED_BYTES,
    UNSEATED_ENTRIES,
    MemoryKeeper,
    Step,
    Table,
)
from condottiere.peer.entries import Reason, make_entry, read_entry
from condottiere.peer.lobby import Deadlines
from condottiere.peer.record import verify
from condottiere.peer.steps.moves import MOVE
from condottiere.peer.steps.seating import READY, SEATING, UNSEATED_PER_SOURCE
from condottiere.v1 import log_pb2
from tests.peer.stacked import like_hands
from tests.peer.tables import Harness, all_entries, feed

LATE = 10_000.0


class Unready(Table):
    """A seated peer that never says it is ready (its owner walked away), but still runs:
    it takes entries in and states silent whom it waits for."""

    def _make(self, step: Step) -> bool:
        if step.kind == READY:
            return False
        return super()._make(step)


class Lobby(Harness):
    """A harness whose later peers join while the table waits (they are not seats yet, so
    they are told apart from the seats by their key, not by their place in ``tables``)."""

    def add_joiner(self, name: str, kind: type[Table] = Table) -> Table:
        definition = self.tables[0].lobby.definition.signed
        joiner = kind.from_definition(Identity.generate(), definition, MemoryKeeper())
        self.tables.append(joiner)
        joiner.join(name, "")
        self.deliver()
        return joiner

    def state_silent(self, *, but: Callable[[Table], bool] = lambda table: False) -> None:
        """Time passes: every seated peer but those of ``but`` states silent whom it waits
        for."""
        for table in self.tables:
            if table.seat is not None and not but(table):
                table.declare_silent(LATE)
        self.deliver()

    def play_on(self, tables: list[Table], rounds: int = 20_000) -> None:
        """Let ``tables``' bots move until each is over."""
        bots = [make_bot("greedy", seed=index) for index in range(len(tables))]
        for _ in range(rounds):
            self.deliver()
            if all(t.over for t in tables):
                return
            moved = False
            for bot, table in zip(bots, tables, strict=True):
                game, step, seat = table.game, table.step, table.seat
                if (
                    game is not None and seat is not None and step is not None
                    and step.kind == MOVE and step.missing == (table.me,)
                ):
                    assert table.submit(bot.choose(game.copy(), seat)) is None
                    moved = True
            if not moved and self.deliver() == 0:
                raise AssertionError(f"stuck: {[t.waiting() for t in tables]}")
        raise AssertionError("the game did not end")


def test_the_ready_deadline_travels_in_the_definition_and_times_the_ready_step() -> None:
    harness = Lobby("zman", 3, seed=1, kinds={2: Unready})
    table = harness.tables[0]
    assert table.step is not None and table.step.kind == READY
    assert table.deadline() == Deadlines().ready
    assert not table.declare_silent(Deadlines().ready - 1)


def test_a_seat_not_ready_in_time_goes_to_the_joiner_waiting_and_the_game_ends_alike() -> None:
    harness = Lobby("zman", 3, seed=2, kinds={2: Unready})
    creator, seat1, unready = harness.tables
    carol = harness.add_joiner("carol")  # asks while the table waits for seat 2 to be ready
    assert creator.step is not None and creator.step.kind == READY
    harness.state_silent(but=lambda table: table is unready)
    seated = (creator.me, seat1.me, carol.me)
    for table in (creator, seat1, carol):
        assert table.seating == seated, "the freed seat goes to carol, the others stay"
        assert [name for name, _ in table.freed] == ["seat2"]
        departure = table.freed[0][1]
        assert departure.seat == 2 and departure.signers == (0,)
        assert any(
            e.kind == "freed" and "carol takes the seat freed from seat2" in e.text
            for e in table.events
        ), [e.text for e in table.events]
        assert unready.me in table.logs.authors, "a seating names it: its join is kept"
    assert unready.halt is not None and "this seat was freed" in unready.halt.detail
    assert unready.submit("pass") is not None
    harness.play_on([creator, seat1, carol])
    for table in (creator, seat1, carol):
        assert table.audited and table.halt is None and not table.out
        assert not [r for r in table.refusals if r.author != unready.me], table.refusals
    assert len({t.record_hash() for t in (creator, seat1, carol)}) == 1
    verdict = verify(all_entries(creator))
    assert verdict.table.record_hash() == creator.record_hash()
    text = "\n".join(verdict.lines())
    assert "freed: seat 2 (seat2) silent at the start for" in text, text
    assert "verdict: FAIR" in text, text


def test_with_nobody_waiting_the_table_waits_for_a_joiner_to_take_the_freed_seat() -> None:
    harness = Lobby("zman-duel", 2, seed=3, kinds={1: Unready})
    creator, unready = harness.tables
    harness.state_silent(but=lambda table: table is unready)
    assert creator.step is not None and creator.step.kind == SEATING
    waiting = creator.waiting()
    assert waiting is not None and "a player to take the freed seat" in waiting[2]
    assert any(e.kind == "freed" and "seat1's seat is freed" in e.text for e in creator.events)
    players = snapshot_of(creator, 0.0).players
    assert [p.name for p in players] == ["seat0"], "the seat being freed is shown free"
    dave = harness.add_joiner("dave")
    assert creator.seating == dave.seating == (creator.me, dave.me)
    harness.play_on([creator, dave])
    assert creator.record_hash() == dave.record_hash() and creator.audited


def test_every_peer_and_every_order_of_the_entries_frees_the_seats_the_creator_frees() -> None:
    """Two seats not ready at once (both still running and voting): the creator's new
    seating says which are freed, and every peer, and a watcher fed the entries in any
    order, agrees."""
    harness = Lobby("zman", 4, seed=4, kinds={2: Unready, 3: Unready})
    creator, seat1, late2, late3 = harness.tables
    carol, dave = harness.add_joiner("carol"), harness.add_joiner("dave")
    for table in harness.tables:
        if table.seat is not None:
            table.declare_silent(LATE)
    harness.deliver(shuffle=True)
    seating = creator.seating
    assert seating[:2] == (creator.me, seat1.me)
    assert set(seating[2:]) <= {late2.me, late3.me, carol.me, dave.me}
    assert set(seating[2:]) & {carol.me, dave.me}, "a freed seat went to a joiner"
    for table in (creator, seat1, carol, dave):
        if table.me in seating:
            assert table.seating == seating and table.halt is None
    for late in (late2, late3):
        assert (late.me in seating) == (late.halt is None)
    entries = all_entries(creator)
    for seed in range(3):
        random.Random(seed).shuffle(entries)
        watcher = Table(Identity.generate(), creator.lobby.definition, MemoryKeeper())
        feed(watcher, entries)
        assert watcher.seating == seating and watcher.freed == creator.freed


class Grabbing(Table):
    """A creator whose first new seating frees a seat that said it was ready (seat 1) as
    well."""

    grabbed = False

    def _make(self, step: Step) -> bool:
        if step.kind == SEATING and self.seating and not self.grabbed:
            self.grabbed = True
            joiners = [a for a in self.lobby.joins if a not in self.seating]
            authors = [self.seating[0], *joiners][: self.spec.seats]
            self._publish(log_pb2.Seating(authors=authors), step.number)
            return True
        return super()._make(step)


def test_a_new_seating_that_frees_a_seat_that_was_ready_is_refused_everywhere() -> None:
    harness = Lobby("zman", 3, seed=5, kinds={0: Grabbing, 2: Unready})
    creator, seat1, unready = harness.tables
    harness.add_joiner("carol")
    harness.add_joiner("dave")
    harness.state_silent(but=lambda table: table is unready)
    for table in (creator, seat1):
        assert table.seating[1] == seat1.me and table.halt is None, "seat 1 keeps its seat"
        assert table.seating[2] != unready.me
    assert any(
        r.reason is Reason.UNEXPECTED and "frees a seat that was ready" in r.detail
        for r in seat1.refusals
    ), seat1.refusals


def test_a_seat_whose_player_leaves_before_the_start_is_freed_without_statements() -> None:
    harness = Lobby("zman-duel", 2, seed=6, kinds={1: Unready})
    creator, leaver = harness.tables
    erin = harness.add_joiner("erin")
    leaver.leave("no time after all")
    harness.deliver()
    assert creator.seating == (creator.me, erin.me)
    assert creator.freed[0][1].waited is None
    assert creator.freed[0][1].reason == "no time after all"


def test_an_author_without_a_seat_is_kept_only_to_the_bound_and_only_while_the_table_fills(
) -> None:
    harness = Lobby("zman", 3, seed=7, kinds={2: Unready})
    creator = harness.tables[0]
    carol = harness.add_joiner("carol")  # first in line for a freed seat
    stranger = Identity.generate()
    previous = b""
    refused = []
    for seq in range(UNSEATED_ENTRIES + 10):
        body: log_pb2.Join | log_pb2.Chat = (
            log_pb2.Join(definition=creator.lobby.definition.hash, player="mallory")
            if seq == 0 else log_pb2.Chat(text="x" * 400)
        )
        entry = make_entry(stranger, creator.table_id, seq, previous, step=0, heads=(), body=body)
        previous = entry.hash
        rejection = creator.receive(entry.signed)
        if rejection is not None:
            refused.append(rejection)
    count, size = creator.logs.kept(stranger.public.raw)
    assert count <= UNSEATED_ENTRIES and size <= UNSEATED_BYTES
    assert refused and all(r.reason is Reason.TOO_LARGE for r in refused)
    assert stranger.public.raw in creator.lobby.joins, "its join is heard: it may wait"
    harness.state_silent(but=lambda table: table is harness.tables[2])
    for table in harness.tables:
        table.ready()
    harness.deliver()
    assert creator.lobby.closed and carol.me in creator.seating
    assert stranger.public.raw not in creator.logs.kept_authors, "forgotten once it started"


def test_held_entries_of_many_strangers_count_against_the_lobby_bound() -> None:
    """Entries from ahead of a gap (no first entry) are kept too: they count as an author."""
    harness = Lobby("zman", 3, seed=8, kinds={2: Unready})
    creator = harness.tables[0]
    kept = 0
    for _ in range(MAX_JOINERS + 20):
        stranger = Identity.generate()
        entry = make_entry(stranger, creator.table_id, 1, b"p" * 32, step=0, heads=(),
                           body=log_pb2.Chat(text="y" * 400))
        if creator.receive(entry.signed) is None:
            kept += 1
    assert len(creator.logs.kept_authors) <= MAX_JOINERS + 1
    assert kept < MAX_JOINERS + 20


def test_a_player_without_a_seat_signs_only_a_few_entries() -> None:
    harness = Lobby("zman", 3, seed=9, kinds={2: Unready})
    waiting = harness.add_joiner("frank")
    said = 0
    try:
        for _ in range(50):
            waiting.chat("hello")
            said += 1
    except ValueError as error:
        assert "at most" in str(error)
    assert said > 0 and len(waiting.logs.log(waiting.me)) <= LOBBY_ENTRIES


def test_a_seats_entries_turned_away_before_its_seating_came_are_asked_for_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A fold that gets a seat's log before the creator's: past the bound, the seat's entries
    are turned away; once the seating names it, the table asks for every log again (a node
    follows its peers anew) and takes them then."""
    like_hands(monkeypatch, 3)  # a game of more than one round: seat 1 signs past the bound
    harness = Harness("zman", 3, seed=10)
    harness.play()
    witness = harness.tables[0]
    seat1, seat2 = ([e.signed for e in witness.logs.log(t.me)] for t in harness.tables[1:])
    creator = [e.signed for e in witness.logs.log(witness.me)]
    assert len(seat1) > UNSEATED_ENTRIES
    fresh = Table(Identity.generate(), witness.lobby.definition, MemoryKeeper())
    refused = [fresh.receive(signed) for signed in seat1]
    assert any(r is not None and r.reason is Reason.TOO_LARGE for r in refused)
    assert fresh.logs.kept(harness.tables[1].me)[0] <= UNSEATED_ENTRIES
    assert not fresh.ask_again
    for signed in [seat2[0], *creator]:  # seat 2's join, then the creator's log
        fresh.receive(signed)
    assert fresh.seating == witness.seating and fresh.ask_again
    feed(fresh, seat1 + seat2 + creator)
    assert fresh.record_hash() == witness.record_hash() and fresh.audited


class Moving(Table):
    """A creator whose first new seating gives the freed seat to a joiner but moves the seat
    it keeps (seat 1 to seat 2)."""

    moved = False

    def _make(self, step: Step) -> bool:
        if step.kind == SEATING and self.seating and not self.moved:
            self.moved = True
            joiner = next(a for a in self.lobby.joins if a not in self.seating)
            authors = [self.seating[0], joiner, self.seating[1]]
            self._publish(log_pb2.Seating(authors=authors), step.number)
            return True
        return super()._make(step)


def test_a_new_seating_that_moves_a_seat_it_keeps_is_refused_and_a_proper_one_taken() -> None:
    harness = Lobby("zman", 3, seed=11, kinds={0: Moving, 2: Unready})
    creator, seat1, unready = harness.tables
    carol = harness.add_joiner("carol")
    harness.state_silent(but=lambda table: table is unready)
    for table in (creator, seat1, carol):
        assert table.seating == (creator.me, seat1.me, carol.me)
        assert any("keeps every seat it does not free in place" in r.detail
                   for r in table.refusals), table.refusals


def test_a_joiner_who_left_while_waiting_is_not_given_the_freed_seat() -> None:
    harness = Lobby("zman-duel", 2, seed=12, kinds={1: Unready})
    creator, unready = harness.tables
    gone = harness.add_joiner("gone")
    gone.leave("tired of waiting")
    harness.deliver()
    erin = harness.add_joiner("erin")
    harness.state_silent(but=lambda table: table is unready)
    assert creator.seating == erin.seating == (creator.me, erin.me)


def test_two_seats_never_ready_whose_peers_are_gone_are_both_freed_and_the_game_ends_alike(
) -> None:
    """Nobody states the other silent when both peers are gone: the seats still at the table
    free both together (a seat silent at a later step would wait, as the silence rule says)."""
    harness = Lobby("zman", 4, seed=13, kinds={2: Unready, 3: Unready})
    creator, seat1, gone2, gone3 = harness.tables
    carol, dave = harness.add_joiner("carol"), harness.add_joiner("dave")
    harness.state_silent(but=lambda table: table in (gone2, gone3))
    players = (creator, seat1, carol, dave)
    for table in players:
        assert table.seating == (creator.me, seat1.me, carol.me, dave.me)
        assert sorted(d.seat for _, d in table.freed) == [2, 3]
        assert all(d.signers == (0,) for _, d in table.freed)
    harness.play_on(list(players))
    assert len({t.record_hash() for t in players}) == 1 and creator.audited


def test_a_record_in_the_order_of_its_authors_folds_to_its_end_in_one_pass() -> None:
    """As a record is written (every author's log whole, the creator's first): the seats'
    logs come before the seating is taken (its joins are on their way), and each seat's
    goodbye before the ready step is folded; neither a seat's log past the lobby's bound is
    turned away, nor a seat that was ready and left at the end is taken for one that left at
    the start."""
    harness = Harness("zman", 3, seed=14)
    harness.play()
    for table in harness.tables:
        table.finish()
    harness.deliver()
    witness = harness.tables[0]
    assert all(any(e.kind == "leave" for e in witness.logs.log(t.me)) for t in harness.tables)
    fresh = Table(Identity.generate(), witness.lobby.definition, MemoryKeeper())
    for signed in all_entries(witness):
        assert fresh.receive(signed) is None
    assert not fresh.freed and fresh.audited
    assert fresh.record_hash() == witness.record_hash()


def test_throw_away_keys_keep_no_admitted_friend_from_a_seat() -> None:
    """A stranger joins under more fresh keys than the lobby hears of before the friend asks:
    the friend the creator's owner admitted by fingerprint is let in and seated all the same,
    and the keys the owner refuses leave the lobby's count at once."""
    from tests.peer.tables import spec

    creator = Table.create(Identity.generate(), spec("zman-duel", 2), MemoryKeeper())
    creator.lobby.open = False
    friend = Identity.generate()
    creator.admit(friend.public.raw)
    definition = creator.logs.log(creator.me)[0]
    for number in range(MAX_JOINERS + 6):
        sybil = Identity.generate()
        body = log_pb2.Join(definition=definition.hash, player=f"s{number}")
        join = make_entry(sybil, creator.table_id, 0, b"", step=0, heads=(), body=body)
        creator.receive(join.signed)
    assert len(creator.logs.kept_authors) == MAX_JOINERS + 1
    joiner = Table.from_definition(friend, definition.signed, MemoryKeeper())
    joiner.join("friend", "")
    feed(creator, [e.signed for e in joiner.logs.log(joiner.me)])
    assert creator.seating == (creator.me, friend.public.raw)
    for author in creator.lobby.pending:
        creator.refuse(author)
    assert set(creator.logs.kept_authors) == {creator.me, friend.public.raw}


def _join_of(author: Identity, creator: Table, address: str, name: str = "s") -> bytes:
    definition = creator.logs.log(creator.me)[0]
    body = log_pb2.Join(definition=definition.hash, player=name, address=address)
    return make_entry(author, creator.table_id, 0, b"", step=0, heads=(), body=body).signed


def test_one_source_makes_a_peer_keep_a_few_authors_without_a_seat_and_the_loopback_any() -> None:
    from tests.peer.tables import spec

    creator = Table.create(Identity.generate(), spec("zman", 6), MemoryKeeper())
    refusals = [
        creator.receive(_join_of(Identity.generate(), creator, f"10.0.0.9:{6000 + n}"),
                        "10.0.0.9")
        for n in range(UNSEATED_PER_SOURCE + 3)
    ]
    assert refusals[:UNSEATED_PER_SOURCE] == [None] * UNSEATED_PER_SOURCE
    for refused in refusals[UNSEATED_PER_SOURCE:]:
        assert refused is not None and refused.reason is Reason.NOT_SEATED
        assert f"{UNSEATED_PER_SOURCE} authors without a seat from 10.0.0.9" in refused.detail
    assert creator.receive(_join_of(Identity.generate(), creator, "10.0.0.2:5000"),
                           "10.0.0.2") is None, "another source is heard"
    for n in range(UNSEATED_PER_SOURCE + 1):  # this machine's own processes
        assert creator.receive(_join_of(Identity.generate(), creator, f"127.0.0.1:{n + 1}"),
                               "localhost") is None
    assert len(creator.lobby.joins) == 2 * UNSEATED_PER_SOURCE + 2


def test_a_new_author_without_a_seat_is_taken_from_the_host_its_join_names_join_first() -> None:
    from tests.peer.tables import spec

    creator = Table.create(Identity.generate(), spec("zman", 6), MemoryKeeper())
    stranger = Identity.generate()
    join = _join_of(stranger, creator, "10.0.0.9:6000")
    relayed = creator.receive(join, "10.0.0.2")
    assert relayed is not None and relayed.reason is Reason.NOT_SEATED
    chat = make_entry(stranger, creator.table_id, 1, read_entry(join).hash, step=0, heads=(),
                      body=log_pb2.Chat(text="hi"))
    ahead = creator.receive(chat.signed, "10.0.0.9")
    assert ahead is not None and "join first" in ahead.detail
    assert stranger.public.raw not in creator.logs.kept_authors
    assert creator.receive(join, "10.0.0.9") is None
    assert creator.receive(chat.signed, "10.0.0.2") is None, "once heard, relays are taken"
    assert stranger.public.raw in creator.lobby.joins


def test_an_open_table_gives_a_freed_seat_to_a_source_given_none_before_a_first_sources_keys(
) -> None:
    """Four keys of one source ask for the one free seat before a friend does: the first is
    seated, never ready and freed; the seat then goes to the friend, not to the next key."""
    from tests.peer.tables import spec

    creator = Table.create(Identity.generate(), spec("zman-duel", 2), MemoryKeeper())
    keys = [Identity.generate() for _ in range(UNSEATED_PER_SOURCE)]
    for number, key in enumerate(keys):
        assert creator.receive(_join_of(key, creator, f"10.0.0.9:{6000 + number}"),
                               "10.0.0.9") is None
    assert creator.seating == (creator.me, keys[0].public.raw)
    friend = Table.from_definition(
        Identity.generate(), creator.logs.log(creator.me)[0].signed, MemoryKeeper()
    )
    friend.join("friend", "10.0.0.2:5000")
    for signed in [e.signed for e in friend.logs.log(friend.me)]:
        assert creator.receive(signed, "10.0.0.2") is None
    creator.declare_silent(LATE)
    assert [name for name, _ in creator.freed] == ["s"]
    assert creator.seating == (creator.me, friend.me)
    assert creator.lobby.given == {"10.0.0.9": 1, "10.0.0.2": 1}
