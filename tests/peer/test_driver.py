"""The table as a fold, with no socket: whole games, arrival order, restarts, and the cheats
the peer layer must catch first (a withheld coin reveal, an equivocation, a move out of turn).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from condottiere import crypto
from condottiere.games.condottiere import BattleResult, Game
from condottiere.peer.driver import MemoryKeeper, Table
from condottiere.peer.entries import LogEntry, Reason, make_entry
from condottiere.peer.record import omniscient_record
from condottiere.v1 import log_pb2
from tests.peer.tables import Harness, feed

EDITIONS = ["zman", "zman-classic", "zman-duel", "ffg", "eurogames"]


def final_state(table: Table) -> tuple[Any, ...]:
    game = table.game
    assert game is not None
    return (
        game.phase,
        game.winners,
        tuple(sorted(game.control.items())),
        game.favor,
        game.battles_won,
        game.discard_pile,
        tuple(game.hand_size(s) for s in range(game.players)),
        table.record_hash(),
    )


def assert_same_end(harness: Harness) -> None:
    for table in harness.tables:
        assert table.halt is None, table.halt
        assert not table.refusals, table.refusals
        assert table.cards is not None, "the audit did not run"
    states = {final_state(table) for table in harness.tables}
    assert len(states) == 1, states


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_whole_game_ends_the_same_on_every_peer_and_passes_the_audit(edition: str) -> None:
    harness = Harness(edition, 2, seed=11)
    harness.play()
    assert_same_end(harness)


def test_a_four_seat_game_with_house_rules_ends_the_same_on_every_peer() -> None:
    harness = Harness("ffg", 4, options=("cede", "sieges"), seed=3)
    harness.play()
    assert_same_end(harness)


class Deferring(Harness):
    """Peers that put their shuffles off until what they appended is drained, and resume them
    after, as a node does (so a move that ends a round goes out before its mover shuffles)."""

    resumed = 0

    def deliver(self, shuffle: bool = False, duplicate: bool = False) -> int:
        for table in self.tables:
            table.defer_costly = True
        handed = super().deliver(shuffle, duplicate)
        while any(table.deferred for table in self.tables):
            for table in self.tables:
                if table.deferred:
                    table.drain()
                    table.resume()
                    self.resumed += 1
            handed += super().deliver(shuffle, duplicate)
        return handed


@pytest.mark.parametrize("edition", ["zman", "zman-duel"])
def test_shuffles_put_off_until_the_move_before_is_out_give_the_same_game(edition: str) -> None:
    harness = Deferring(edition, 3 if edition == "zman" else 2, seed=5)
    harness.play()
    assert_same_end(harness)
    assert harness.resumed > 0


class Shuffled(Harness):
    """Every entry handed over in a random order, and again and again."""

    def deliver(self, shuffle: bool = False, duplicate: bool = False) -> int:
        return super().deliver(shuffle=True, duplicate=self.rng.random() < 0.3)


def test_entries_in_any_order_and_duplicated_give_the_same_game_on_every_peer() -> None:
    shuffled = Shuffled("zman", 3, seed=4)
    shuffled.play()
    assert_same_end(shuffled)


def test_a_table_fed_every_entry_at_once_in_a_random_order_reaches_the_same_end() -> None:
    harness = Harness("zman-duel", 2, seed=8)
    harness.play()
    witness = harness.tables[0]
    entries = [e for author in witness.logs.authors for e in witness.logs.log(author)]
    for seed in range(3):
        random.Random(seed).shuffle(entries)
        fresh = Table(crypto.Identity.generate(), witness.lobby.definition, MemoryKeeper())
        feed(fresh, [entry.signed for entry in entries + entries[: len(entries) // 2]])
        assert fresh.cards is not None
        assert fresh.record_hash() == witness.record_hash()


def test_a_table_rebuilt_from_what_it_kept_takes_up_the_game_where_it_stopped() -> None:
    harness = Harness("zman", 3, seed=21)
    rng = random.Random(21)
    restarts = 0

    def maybe_restart() -> None:
        nonlocal restarts
        if rng.random() < 0.25:
            seat = rng.randrange(3)
            old = harness.tables[seat]
            keeper = harness.keepers[seat]
            harness.tables[seat] = Table.restore(old.identity, keeper, list(keeper.entries))
            assert harness.tables[seat].step is not None or harness.tables[seat].over
            assert (harness.tables[seat].step and harness.tables[seat].step.number) == (
                old.step and old.step.number
            )
            restarts += 1

    harness.play(before_each=maybe_restart)
    assert restarts >= 3
    assert_same_end(harness)


class Withholding(Table):
    """A seat that never reveals its coin value."""

    def _entry_body(self, step: Any) -> Any:
        if step.kind == "coin_reveal":
            return None
        return super()._entry_body(step)


def kept_values(harness: Harness, choice: int = 0) -> dict[int, int]:
    """Every seat's value for a coin flip, from its keeper (what each committed to)."""
    return {
        seat: crypto.decode_scalar(keeper.secrets[f"coin/{choice}/0"])
        for seat, keeper in enumerate(harness.keepers)
    }


def test_a_withheld_coin_reveal_is_opened_from_its_escrow_and_the_withholder_blamed() -> None:
    harness = Harness("zman", 3, seed=2, kinds={2: Withholding})
    for table in harness.tables:
        assert table.step is not None and table.step.kind == "coin_reveal"
    for table in harness.tables[:2]:
        assert table.give_up_waiting()

    def give_up_on_later_flips() -> None:  # the withholder keeps back every reveal
        for table in harness.tables[:2]:
            if table.step is not None and table.step.kind == "coin_reveal":
                table.give_up_waiting()

    harness.play(before_each=give_up_on_later_flips)
    values = kept_values(harness)
    for table in harness.tables:
        flip, chosen = table.flips[0]
        assert flip.attempt == 0 and flip.options == (0, 1, 2)
        assert chosen == flip.outcome(table.table_id, values)  # what the commitments fixed
        blame = [r for r in table.refusals if r.seat == 2]
        assert blame and "withheld its coin reveal" in blame[0].detail
        assert table.halt is None and table.cards is not None
    assert len({table.record_hash() for table in harness.tables}) == 1


def test_a_withheld_reveal_between_two_seats_stops_the_table_with_the_blame_shown() -> None:
    harness = Harness("zman-duel", 2, seed=2, kinds={1: Withholding})
    honest = harness.tables[0]
    assert honest.give_up_waiting()
    harness.deliver()
    waiting = honest.waiting()
    assert waiting is not None and waiting[0] == "coin_reveal" and waiting[1] == (1,)
    assert "withheld past the timeout: blamed" in waiting[2]
    assert honest.game is not None and honest.game.chance is not None  # nobody chosen


def test_a_close_after_every_reveal_changes_nothing() -> None:
    harness = Harness("zman", 2, seed=6)
    harness.deliver()
    table = harness.tables[0]
    assert table.step is not None and table.step.kind != "coin_reveal"  # settled at once
    assert not table.give_up_waiting()
    harness.play()
    assert_same_end(harness)


def test_an_equivocation_halts_every_peer_with_both_signed_entries() -> None:
    harness = Harness("zman", 3, seed=5)
    harness.deliver()
    cheat = harness.tables[1]
    log = cheat.logs.log(cheat.me)
    seq, previous = len(log), log[-1].hash

    def chat(text: str) -> LogEntry:
        return make_entry(
            cheat.identity, cheat.table_id, seq, previous, step=0,
            heads=(), body=log_pb2.Chat(text=text),
        )

    harness.tables[0].receive(chat("to seat 0").signed)
    harness.tables[2].receive(chat("to seat 2").signed)
    harness.deliver()
    for table in (harness.tables[0], harness.tables[2]):
        assert table.halt is not None and table.halt.reason is Reason.EQUIVOCATION
        assert table.halt.seat == 1 and len(table.halt.evidence) == 2


def test_a_move_out_of_turn_is_refused_and_the_table_goes_on() -> None:
    harness = Harness("zman", 3, seed=9)
    harness.deliver()  # keys, shuffles, the first coin and the deal: now a seat must move
    step = harness.tables[0].step
    assert step is not None and step.kind == "move"
    game = harness.tables[0].game
    assert game is not None and game.to_act is not None
    intruder = harness.tables[(game.to_act + 1) % 3]
    intruder._publish(
        log_pb2.MovePlayed(turn=game.moves_played, move="pass"), step.number
    )  # what a modified peer would publish
    harness.deliver()
    for table in harness.tables:
        if table is intruder:
            continue
        refused = [r for r in table.refusals if r.reason is Reason.OUT_OF_TURN]
        assert refused and refused[0].seat == (game.to_act + 1) % 3
        assert table.halt is None
    harness.play()
    assert all(table.cards is not None for table in harness.tables)


def test_no_peer_ever_holds_an_owners_share_of_a_card_in_another_hand() -> None:
    """The owner's share ``x_owner · a`` of a card in its hand appears in no entry, no store
    and no deck of any other peer, except in the owner's own reveal when the card is shown."""
    harness = Harness("zman", 3, seed=13)
    harness.play()
    witness = harness.tables[0]
    assert witness.dealer is not None and witness.cards is not None
    secrets = [table.dealer.keys.secrets() for table in harness.tables]  # type: ignore[union-attr]
    reveals: dict[bytes, bytes] = {}  # share point -> the signed reveal entry that shows it
    owners_shares = []
    for index, deck in enumerate(witness.dealer.decks):
        for record in deck._rounds:
            for position, owner in record.owners.items():
                point = crypto.share_point(secrets[owner][index], record.deck[position])
                owners_shares.append((owner, point))
    for table in harness.tables:
        for author in table.logs.authors:
            for entry in table.logs.log(author):
                for owner, point in owners_shares:
                    if point in entry.signed:
                        assert entry.kind == "move" and entry.author == harness.tables[owner].me
                        reveals[point] = entry.signed
    for seat, table in enumerate(harness.tables):
        assert table.dealer is not None
        for deck in table.dealer.decks:
            for record in deck._rounds:
                for position, shares in record.shares.items():
                    owner = record.owners[position]
                    assert owner not in shares  # only the others' shares are ever recorded
        kept = b"".join(entry.signed for entry in harness.keepers[seat].entries)
        for owner, point in owners_shares:
            if owner != seat and point in kept:
                assert point in reveals
    assert reveals, "some card was shown face up"


@pytest.mark.parametrize("edition", ["zman", "zman-duel"])
def test_every_battle_ends_with_an_event_naming_its_winner_and_the_strengths(
    edition: str,
) -> None:
    harness = Harness(edition, 2, seed=5)
    harness.play()
    told = [[(e.seat, e.text) for e in t.events if e.kind == "result"] for t in harness.tables]
    assert all(events == told[0] for events in told), "every peer tells the same battles"
    offline = Game.replay(omniscient_record(harness.tables[0]))
    battles = battles_of(offline.record())
    assert [seat for seat, _ in told[0]] == [result.winner for result in battles]
    for (_, text), result in zip(told[0], battles, strict=True):
        if result.winner is not None:
            assert f"wins the battle{' for ' + result.region if result.region else ''}" in text
            assert f"with {result.strengths[result.winner]} (against " in text
        else:
            assert text.startswith(("nobody", "the Bishop ends"))


def battles_of(record: dict[str, Any]) -> list[BattleResult]:
    """Every battle of a recorded game, in order, replayed move by move."""
    game = Game(record)
    results = []
    for event in record["events"]:
        before = game.last_battle
        if event[0] == "move":
            game.play(event[2], reveal=event[3] if len(event) > 3 else None)
        elif event[0] == "deal":
            game.resolve(event[2])
        elif event[0] == "choice":
            game.resolve(event[3])
        if game.last_battle is not before and game.last_battle is not None:
            results.append(game.last_battle)
    return results


class BadSharer(Table):
    """A seat whose shares for the first card it deals to another seat are another card's."""

    def _entry_body(self, step: Any) -> Any:
        body = super()._entry_body(step)
        if step.kind == "shares" and body.batches:
            batch = crypto.ShareBatch.decode(body.batches[0].batch)
            shares = (batch.shares[1], batch.shares[0], *batch.shares[2:])
            bad = crypto.ShareBatch(batch.round, batch.owner, batch.positions, shares)
            body.batches[0].batch = bad.encode()
        return body


def test_a_wrong_decryption_share_halts_every_peer_blaming_its_maker() -> None:
    harness = Harness("zman", 3, seed=12, kinds={1: BadSharer})
    harness.deliver()
    for table in (harness.tables[0], harness.tables[2]):
        assert table.halt is not None and table.halt.reason is Reason.BAD_PROOF
        assert table.halt.seat == 1, table.halt
