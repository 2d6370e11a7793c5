"""The cheat catalogue: every way a peer can try to cheat, each caught by every honest peer at
the offending entry, blamed on the right seat with the signed evidence, shown in the
snapshot, kept in the store, with nothing of it applied; the table goes on where the entry
can simply be refused and halts where it proves a lie; ``condottiere verify`` on an honest
peer's record reaches the same verdict. (The wire-level cheats that need real sockets are in
``test_wire.py``.)"""

from __future__ import annotations

import dataclasses
import os
import random
from pathlib import Path
from typing import Any

import pytest
from google.protobuf.message import Message

import condottiere.peer.logs
from condottiere import crypto
from condottiere.games.condottiere import Game, Move, card_flow
from condottiere.peer.coin import Flip
from condottiere.peer.controller import snapshot_of
from condottiere.peer.controller_service import update_of
from condottiere.peer.driver import Table
from condottiere.peer.entries import MAX_ENTRY_BYTES, LogEntry, Reason, make_entry, read_entry
from condottiere.peer.steps import keys as key_steps
from condottiere.v1 import log_pb2
from tests.peer.cheats import (
    Cheat,
    CheatHarness,
    Witness,
    assert_caught,
    forged_move,
    fuzz_seated,
    moves_of,
    state_of,
    stored,
)
from tests.peer.stacked import first_options, stack_deck
from tests.peer.tables import Harness

# ---------------------------------------------------------------------------------- lobby


class DefinitionChanger(Cheat):
    """The creator publishes another table definition once the table is seated."""

    def forge(self, body: Message, step: int) -> Message | None:
        if isinstance(body, log_pb2.Ready):
            changed = self.spec.body()
            changed.seats, changed.name = 2, "another game"
            self.publish_forged(changed, step=1)
        return None


def test_a_table_definition_changed_after_seating_is_refused_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    harness = CheatHarness("zman", 3, DefinitionChanger, seat=0, seed=1)
    assert_caught(harness, Reason.STALE, halts=False, record=tmp_path / "r", whole_state=False)
    for witness in harness.witnesses:
        assert witness.spec.seats == 3 and witness.step is not None
        assert witness.step.kind == "move"  # the deal went on


def test_a_table_definition_changed_in_place_is_no_definition_of_the_table_and_blames_nobody(
    tmp_path: Path,
) -> None:
    harness = CheatHarness("zman-duel", 2, Cheat, seat=0, seed=2)
    cheater, witness = harness.cheater, harness.witnesses[0]
    changed = log_pb2.TableDefinition()
    changed.CopyFrom(cheater.lobby.definition.body)
    changed.name = "the same table, but not quite"
    second = make_entry(
        cheater.identity, cheater.table_id, 0, b"", step=1, heads=(), body=changed
    )
    before = state_of(witness)
    rejection = witness.receive(second.signed)
    assert rejection is not None and rejection.reason is Reason.WRONG_TABLE
    assert rejection.detail == "the table id is not the hash of its definition"
    assert state_of(witness) == before and witness.halt is None and not witness.refusals
    assert not stored(second.signed, harness.keepers[1])
    harness.play()
    assert all(table.cards is not None for table in harness.tables)  # played and audited


def test_a_table_definition_signed_again_in_another_entry_is_an_equivocation_that_halts(
    tmp_path: Path,
) -> None:
    harness = CheatHarness("zman-duel", 2, Cheat, seat=0, seed=2)
    cheater, witness = harness.cheater, harness.witnesses[0]
    original = cheater.logs.log(cheater.me)[0]
    second = make_entry(  # the same definition, answering another step: another entry 0
        cheater.identity, cheater.table_id, 0, b"", step=7, heads=(), body=original.body
    )
    harness.forged[second.hash] = second.signed
    before = state_of(witness)
    assert witness.receive(second.signed) is None
    assert state_of(witness) == before
    halt = witness.halt
    assert halt is not None and halt.reason is Reason.EQUIVOCATION and halt.seat == 0
    assert set(halt.evidence) == {original.signed, second.signed}
    harness.deliver()
    assert_caught(harness, Reason.EQUIVOCATION, halts=True, record=tmp_path / "r",
                  whole_state=False)


class SecondJoin(Cheat):
    """A seated joiner asks for a seat again, once the table is seated."""

    def forge(self, body: Message, step: int) -> Message | None:
        if isinstance(body, log_pb2.Ready):
            self.publish_forged(
                log_pb2.Join(definition=self.lobby.definition.hash, player="again", address="")
            )
        return None


def test_a_second_join_from_a_seated_player_is_refused_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    harness = CheatHarness("zman-duel", 2, SecondJoin, seat=1, seed=3)
    assert_caught(harness, Reason.UNEXPECTED, halts=False, record=tmp_path / "r",
                  whole_state=False)
    witness = harness.witnesses[0]
    assert witness.lobby.names[harness.cheater.me] == "seat1"
    assert witness.step is not None and witness.step.kind == "move"


def test_a_join_to_a_taken_seat_is_refused_at_the_door_and_changes_nothing() -> None:
    harness = CheatHarness("zman-duel", 2, Cheat, seat=1, seed=4)
    witness = harness.witnesses[0]
    latecomer = crypto.Identity.generate()
    join = log_pb2.Join(definition=witness.lobby.definition.hash, player="late", address="")
    entry = make_entry(latecomer, witness.table_id, 0, b"", step=0, heads=(), body=join)
    before, refusals = state_of(witness), list(witness.refusals)
    rejection = witness.receive(entry.signed)
    assert rejection is not None and rejection.reason is Reason.NOT_SEATED
    assert rejection.author == latecomer.public.raw
    assert state_of(witness) == before and witness.refusals == refusals
    assert latecomer.public.raw not in witness.logs.authors
    assert witness.seating == (witness.me, harness.cheater.me)


class SeatingByJoiner(Cheat):
    """A joiner publishes a seating of its own (only the creator seats the table)."""

    def forge(self, body: Message, step: int) -> Message | None:
        if isinstance(body, log_pb2.Ready):
            self.publish_forged(log_pb2.Seating(authors=list(reversed(self.seating))), step=2)
        return None


def test_a_seating_by_anyone_but_the_creator_is_refused_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    harness = CheatHarness("zman-duel", 2, SeatingByJoiner, seat=1, seed=5)
    assert_caught(harness, Reason.OUT_OF_TURN, halts=False, record=tmp_path / "r",
                  whole_state=False)
    witness = harness.witnesses[0]
    assert witness.seat == 0 and witness.step is not None and witness.step.kind == "move"


class ReadyForAnotherSeating(Cheat):
    """A seat says it is ready for a seating that is not the table's."""

    def forge(self, body: Message, step: int) -> Message | None:
        if isinstance(body, log_pb2.Ready):
            return log_pb2.Ready(seating=bytes(32))
        return None


def test_a_ready_for_another_seating_is_refused_and_the_game_goes_on(tmp_path: Path) -> None:
    harness = CheatHarness("zman-duel", 2, ReadyForAnotherSeating, seat=1, seed=6)
    assert_caught(harness, Reason.UNEXPECTED, halts=False, record=tmp_path / "r")
    assert harness.witnesses[0].step is not None
    assert harness.witnesses[0].step.kind == "move"


# ----------------------------------------------------------------------------------- keys


class KeysCheat(Cheat):
    """A seat that publishes its keys last, once it holds every other seat's."""

    def make_keys(self, others: list[list[crypto.KeyAnnouncement]]) -> list[bytes]:
        raise NotImplementedError

    def _make(self, step: Any) -> bool:
        if step.kind != "keys" or self.cheated:
            return super()._make(step)
        others = [step.answers[a] for a in self.seating if a != self.me and a in step.answers]
        if len(others) < len(self.seating) - 1:
            return False
        keys = [[crypto.KeyAnnouncement.decode(k) for k in e.body.announcements] for e in others]
        backed_up = self.spec.seats >= crypto.MIN_BACKUP_SEATS
        box = key_steps.box(self).public.encode() if backed_up else b""
        body = log_pb2.Keys(announcements=self.make_keys(keys), box_key=box)
        self.publish_forged(body, step.number)
        return True


class RogueKey(KeysCheat):
    """A key chosen to cancel the others' (so the joint key would be its own), with a proof
    made for another key: for every deck, or (``last_deck_only``) for the last one, after
    honest keys for the others."""

    last_deck_only = False

    def make_keys(self, others: list[list[crypto.KeyAnnouncement]]) -> list[bytes]:
        made = key_steps.own_dealer(self).keys.announcements()
        for index in range(len(made)):
            if self.last_deck_only and index != len(made) - 1:
                continue
            chosen = crypto.random_scalar()
            rogue = crypto.sub(crypto.mul_base(chosen), crypto.sum_points(
                seat[index].key for seat in others))
            context = crypto.Context(self.table_id + bytes([index]), 0, len(others))
            proof = crypto.prove_key(chosen, context)
            made[index] = dataclasses.replace(proof, key=rogue).encode()
        return made


class RogueKeyInTheLastDeck(RogueKey):
    last_deck_only = True


@pytest.mark.parametrize(
    ("edition", "cheat"),
    [("zman", RogueKey), ("zman-duel", RogueKeyInTheLastDeck)],
    ids=["one-deck", "last-of-two-decks"],
)
def test_a_rogue_key_halts_every_peer_blaming_its_seat(
    tmp_path: Path, edition: str, cheat: type[RogueKey]
) -> None:
    harness = CheatHarness(edition, 3 if edition == "zman" else 2, cheat, seat=1, seed=7)
    assert_caught(harness, Reason.BAD_PROOF, halts=True, record=tmp_path / "r")


class CopiedKeyProof(KeysCheat):
    """Seat 0's keys and proofs, published as this seat's own."""

    def make_keys(self, others: list[list[crypto.KeyAnnouncement]]) -> list[bytes]:
        return [announcement.encode() for announcement in others[0]]


def test_a_copied_key_proof_halts_every_peer_blaming_the_copier(tmp_path: Path) -> None:
    harness = CheatHarness("zman-duel", 2, CopiedKeyProof, seat=1, seed=8)
    assert_caught(harness, Reason.BAD_PROOF, halts=True, record=tmp_path / "r")


# -------------------------------------------------------------------------------- shuffle


class ShuffleCheat(Cheat):
    """A seat whose first shuffle step is tampered with by :meth:`tamper`."""

    def tamper(self, step: crypto.ShuffleStep, deck: crypto.Deck) -> bytes:
        raise NotImplementedError

    def forge(self, body: Message, step: int) -> Message | None:
        if not isinstance(body, log_pb2.Shuffle):
            return None
        assert self.dealer is not None
        deck = self.dealer.decks[body.deck]
        honest = crypto.ShuffleStep.decode(body.step, len(deck.cards))
        return log_pb2.Shuffle(deck=body.deck, round=body.round, step=self.tamper(honest, deck))


class DropsACard(ShuffleCheat):
    def tamper(self, step: crypto.ShuffleStep, deck: crypto.Deck) -> bytes:
        shorter = crypto.encode_ciphertexts(step.deck[1:])
        return shorter + step.proof.encode()


class DuplicatesACard(ShuffleCheat):
    def tamper(self, step: crypto.ShuffleStep, deck: crypto.Deck) -> bytes:
        assert deck.joint_key is not None
        copy = crypto.rerandomise(step.deck[0], deck.joint_key, crypto.random_scalar())
        return crypto.ShuffleStep((step.deck[0], copy, *step.deck[2:]), step.proof).encode()


class ReplacesACard(ShuffleCheat):
    def tamper(self, step: crypto.ShuffleStep, deck: crypto.Deck) -> bytes:
        assert deck.joint_key is not None
        heroine = deck.codebook.point_of(crypto.PhysicalCard("heroine", 1))
        forged = crypto.encrypt(heroine, deck.joint_key, crypto.random_scalar())
        return crypto.ShuffleStep((forged, *step.deck[1:]), step.proof).encode()


class ShufflesAnotherDeck(ShuffleCheat):
    """A true shuffle, with its valid proof, of the deck as it started: not of the deck the
    seat before it shuffled."""

    def tamper(self, step: crypto.ShuffleStep, deck: crypto.Deck) -> bytes:
        assert deck.joint_key is not None
        start = deck._rounds[-1].steps[0]
        context = crypto.Context(deck.table, deck.round, deck.seat or 0)
        cards, proof = condottiere.crypto.shuffle(start, deck.joint_key, context)
        return crypto.ShuffleStep(tuple(cards), proof).encode()


class PointOutsideTheGroup(ShuffleCheat):
    """A card of the shuffled deck carries an encoding of no group element (a negative field
    element; peers decode a step without checking its points: the verification must refuse
    it)."""

    def tamper(self, step: crypto.ShuffleStep, deck: crypto.Deck) -> bytes:
        odd = (1).to_bytes(32, "little")
        return crypto.ShuffleStep(((odd, step.deck[0][1]), *step.deck[1:]), step.proof).encode()


@pytest.mark.parametrize(
    "cheat",
    [DropsACard, DuplicatesACard, ReplacesACard, ShufflesAnotherDeck, PointOutsideTheGroup],
    ids=[
        "drops-a-card",
        "duplicates-a-card",
        "replaces-a-card",
        "proof-for-another-deck",
        "point-outside-the-group",
    ],
)
def test_a_false_shuffle_halts_every_peer_blaming_the_shuffler(
    tmp_path: Path, cheat: type[ShuffleCheat]
) -> None:
    harness = CheatHarness("zman", 3, cheat, seat=1, seed=9)
    assert_caught(harness, Reason.BAD_PROOF, halts=True, record=tmp_path / "r")


# ----------------------------------------------------------------------------------- deal


class WrongShare(Cheat):
    """The shares of one card of its first deal to the others are those of another card
    (in the first batch, or in the last, after batches that are right)."""

    batch = 0

    def forge(self, body: Message, step: int) -> Message | None:
        if not isinstance(body, log_pb2.Shares) or len(body.batches) < 2:
            return None
        forged = log_pb2.Shares()
        forged.CopyFrom(body)
        batch = crypto.ShareBatch.decode(body.batches[self.batch].batch)
        shares = (batch.shares[1], batch.shares[0], *batch.shares[2:])
        wrong = crypto.ShareBatch(batch.round, batch.owner, batch.positions, shares)
        forged.batches[self.batch].batch = wrong.encode()
        self.victim = batch.owner
        return forged


class WrongShareInTheLastBatch(WrongShare):
    batch = -1


@pytest.mark.parametrize("cheat", [WrongShare, WrongShareInTheLastBatch], ids=["first", "last"])
def test_a_wrong_decryption_share_halts_every_peer_blaming_its_maker(
    tmp_path: Path, cheat: type[WrongShare]
) -> None:
    harness = CheatHarness("zman", 3, cheat, seat=1, seed=10)
    # the card's owner catches it on arrival, with nothing of the entry recorded (not even
    # the batches before the wrong one); the others halt on the owner's evidence
    cheater = harness.cheater
    assert isinstance(cheater, WrongShare)
    owner = harness.tables[cheater.victim]
    assert isinstance(owner, Witness)
    (forged,) = harness.forged
    before, after = owner.judged[forged]
    assert before == after
    assert_caught(harness, Reason.BAD_PROOF, halts=True, record=tmp_path / "r",
                  whole_state=False)


class LeavesOutACard(Cheat):
    """Its first shares entry leaves out the share of one card."""

    def forge(self, body: Message, step: int) -> Message | None:
        if not isinstance(body, log_pb2.Shares) or not body.batches:
            return None
        forged = log_pb2.Shares()
        forged.CopyFrom(body)
        batch = crypto.ShareBatch.decode(body.batches[0].batch)
        shorter = crypto.ShareBatch(
            batch.round, batch.owner, batch.positions[:-1], batch.shares[:-1]
        )
        forged.batches[0].batch = shorter.encode()
        return forged


def test_a_shares_entry_that_leaves_out_a_card_is_refused_and_the_deal_goes_on(
    tmp_path: Path,
) -> None:
    harness = CheatHarness("zman-duel", 2, LeavesOutACard, seat=0, seed=11)
    assert_caught(harness, Reason.UNEXPECTED, halts=False, record=tmp_path / "r")
    assert harness.witnesses[0].step is not None
    assert harness.witnesses[0].step.kind == "move"  # the proper shares came, the deal ended


class WithholdsShares(Cheat):
    """A seat that does not publish its shares (until told to)."""

    withholding = True

    def _entry_body(self, step: Any) -> Any:
        if step.kind == "shares" and self.withholding:
            return None
        return super()._entry_body(step)

    def release(self) -> None:
        """Publish the shares after all (a late peer, not a cheat any more)."""
        self.withholding = False
        self._advance()


def test_withheld_shares_stop_the_deal_with_the_seat_named_and_nothing_else_changes() -> None:
    harness = CheatHarness("zman", 3, WithholdsShares, seat=2, seed=12)
    for witness in harness.witnesses:
        snapshot = snapshot_of(witness, 0.0)
        assert snapshot.waiting is not None and snapshot.waiting.kind == "shares"
        assert snapshot.waiting.seats == (2,) and "seat 2" in snapshot.waiting.text
        assert witness.halt is None and not witness.refusals
    states = [state_of(witness) for witness in harness.witnesses]
    assert harness.deliver() == 0
    assert [state_of(witness) for witness in harness.witnesses] == states
    cheater = harness.cheater
    assert isinstance(cheater, WithholdsShares)
    cheater.release()
    harness.deliver()
    for witness in harness.witnesses:
        assert witness.step is not None and witness.step.kind == "move"


# ----------------------------------------------------------------------------------- coin


class FalseCoinReveal(Cheat):
    """It reveals another value than the one it committed to."""

    def forge(self, body: Message, step: int) -> Message | None:
        if isinstance(body, log_pb2.CoinReveal):
            other = crypto.encode_scalar(crypto.draw_value())
            return log_pb2.CoinReveal(choice=body.choice, attempt=body.attempt, value=other)
        return None


def test_a_coin_reveal_that_does_not_match_its_commitment_halts_every_peer(
    tmp_path: Path,
) -> None:
    harness = CheatHarness("zman", 3, FalseCoinReveal, seat=1, seed=13)
    assert_caught(harness, Reason.BAD_PROOF, halts=True, record=tmp_path / "r")
    for witness in harness.witnesses:
        assert witness.halt is not None
        kinds = {read_entry(e).kind for e in witness.halt.evidence}
        assert kinds == {"coin_commit", "coin_reveal"}  # the commitment it broke, and the lie


class WithholdsCoinReveal(Cheat):
    def _entry_body(self, step: Any) -> Any:
        if step.kind == "coin_reveal":
            return None
        return super()._entry_body(step)


def test_a_withheld_coin_reveal_is_opened_from_its_escrow_and_blamed_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    harness = CheatHarness("zman", 3, WithholdsCoinReveal, seat=2, seed=14)
    for witness in harness.witnesses:
        assert witness.give_up_waiting()
    harness.deliver()
    values = {
        seat: crypto.decode_scalar(keeper.secrets["coin/0/0"])
        for seat, keeper in enumerate(harness.keepers)
    }
    for witness in harness.witnesses:
        flip, chosen = witness.flips[0]
        assert isinstance(flip, Flip) and flip.options == (0, 1, 2)
        assert chosen == flip.outcome(witness.table_id, values)  # the one the values fixed
        blame = [r for r in witness.refusals if r.seat == 2]
        assert blame and blame[0].reason is Reason.BAD_PROOF
        assert "withheld its coin reveal" in blame[0].detail
        closes = [read_entry(e) for e in blame[0].evidence]
        assert {e.kind for e in closes} == {"coin_close"} and len(closes) == 2
        assert all(len(e.body.box_secret) == 32 for e in closes)  # each gave its pieces
        assert blame[0] in snapshot_of(witness, 0.0).refusals
        assert witness.halt is None and witness.step is not None
        assert any("opened from the escrow" in e.text for e in witness.events)


def test_a_coin_reveal_withheld_between_two_seats_stops_the_table_with_the_blame_shown() -> None:
    harness = CheatHarness("zman-duel", 2, WithholdsCoinReveal, seat=1, seed=15)
    witness = harness.witnesses[0]
    assert witness.give_up_waiting()
    harness.deliver()
    waiting = snapshot_of(witness, 0.0).waiting
    assert waiting is not None and waiting.kind == "coin_reveal" and waiting.seats == (1,)
    assert "withheld past the timeout: blamed" in waiting.text
    assert witness.game is not None and witness.game.chance is not None  # nobody was chosen


class BadEscrowThenWithholds(Cheat):
    """It escrows another value than the one it committed to (pieces that cannot open its
    commitment), then withholds its reveal so that the escrow must be opened."""

    def forge(self, body: Message, step: int) -> Message | None:
        if isinstance(body, log_pb2.CoinEscrow):
            flip = self._coins[(body.choice, body.attempt)].flip
            keys = [self._coins[(body.choice, body.attempt)].box_keys[s] for s in flip.committers]
            assert self.seat is not None
            other = crypto.make_dealing(
                crypto.draw_value(), keys, flip.context(self.table_id, self.seat)
            )
            return log_pb2.CoinEscrow(
                choice=body.choice, attempt=body.attempt, dealing=other.encode()
            )
        return None

    def _entry_body(self, step: Any) -> Any:
        if step.kind == "coin_reveal":
            return None
        return super()._entry_body(step)


def test_an_escrow_that_does_not_open_the_commitment_halts_every_peer_blaming_its_dealer(
    tmp_path: Path,
) -> None:
    harness = CheatHarness("zman", 3, BadEscrowThenWithholds, seat=1, seed=16)
    for witness in harness.witnesses:
        assert witness.give_up_waiting()
    harness.deliver()
    assert_caught(harness, Reason.BAD_PROOF, halts=True, record=tmp_path / "r",
                  whole_state=False)
    for witness in harness.witnesses:
        assert witness.halt is not None and "coin escrow" in witness.halt.detail
        kinds = sorted(read_entry(e).kind for e in witness.halt.evidence)
        assert kinds == ["coin_close", "coin_escrow"]  # the bad escrow, the box that shows it


class FalseBoxSecret(Cheat):
    """Once it has revealed, it closes naming another seat as missing, with a box secret that
    is not the one of the box key it published."""

    def _publish(self, body: Message, step: int = 0) -> LogEntry:
        entry = super()._publish(body, step)
        if isinstance(body, log_pb2.CoinReveal) and not self.cheated:
            close = log_pb2.CoinClose(
                choice=body.choice, attempt=body.attempt, missing=[2], box_secret=os.urandom(32)
            )
            self.publish_forged(close)
        return entry


def test_a_close_whose_box_secret_is_not_its_closers_halts_every_peer_blaming_the_closer(
    tmp_path: Path,
) -> None:
    harness = CheatHarness("zman", 3, FalseBoxSecret, seat=1, seed=17)
    harness.deliver()
    assert_caught(harness, Reason.BAD_PROOF, halts=True, record=tmp_path / "r",
                  whole_state=False)
    for witness in harness.witnesses:
        assert witness.halt is not None and "box secret" in witness.halt.detail


# ---------------------------------------------------------------------------------- moves


STRONG_SEAT_1 = [[], ["10", "10", "6", "6", "5", "4", "3", "heroine", "drummer", "spring"]]
"""The first deal of a two-seat game: seat 1 holds the mercenaries that win battles (so it
opens battles as well as plays cards, and holds mercenaries at each discard step)."""


def battle_harness(
    monkeypatch: pytest.MonkeyPatch, cheat: type[Cheat], seed: int, edition: str = "zman"
) -> CheatHarness:
    """Two seats; seat 1 cheats at its first move of the kind its cheat forges. The deck is
    stacked (:data:`STRONG_SEAT_1`) and every fair choice gives its first option, so that
    the game, and the moment of the cheat, are the same every run."""
    contents = Game.new(edition, 2, seed=0).decks[0]
    first_options(monkeypatch)
    stack_deck(monkeypatch, contents, STRONG_SEAT_1, 10)
    harness = CheatHarness(edition, 2, cheat, seat=1, seed=seed)
    cheater = harness.cheater
    harness.play(until=lambda: cheater.cheated)
    harness.deliver()
    assert cheater.cheated, "the moment of the cheat never came"
    return harness


def assert_goes_on(harness: CheatHarness, moves: int = 2) -> None:
    """The honest table takes the cheater's proper move after the refused one, and more."""
    start = [moves_of(witness) for witness in harness.witnesses]
    pairs = list(zip(harness.witnesses, start, strict=True))
    harness.play(until=lambda: all(moves_of(w) >= n + moves for w, n in pairs))
    for witness in harness.witnesses:
        assert witness.halt is None


def test_a_move_out_of_turn_is_refused_and_the_game_goes_on(tmp_path: Path) -> None:
    harness = CheatHarness("zman", 3, Cheat, seat=1, seed=16)
    witness = harness.witnesses[0]
    assert witness.game is not None and witness.step is not None
    if witness.game.to_act == 1:
        harness.play(until=lambda: witness.game is not None and witness.game.to_act != 1)
    step = witness.step
    assert step is not None and step.kind == "move"
    harness.cheater.publish_forged(forged_move(harness.cheater, "pass"), step.number)
    harness.deliver()
    assert_caught(harness, Reason.OUT_OF_TURN, halts=False, record=tmp_path / "r",
                  whole_state=False)
    assert_goes_on(harness)


class IllegalMove(Cheat):
    """It passes where it must open a battle."""

    def forge(self, body: Message, step: int) -> Message | None:
        if isinstance(body, log_pb2.MovePlayed) and body.move.startswith("battle"):
            return log_pb2.MovePlayed(turn=body.turn, move="pass")
        return None


def test_an_illegal_move_is_refused_and_the_game_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness = battle_harness(monkeypatch, IllegalMove, seed=17)
    assert_caught(harness, Reason.ILLEGAL, halts=False, record=tmp_path / "r")
    assert_goes_on(harness)


class AnotherTurn(Cheat):
    """Its move names another turn than the one awaited (a move replayed from elsewhere)."""

    def forge(self, body: Message, step: int) -> Message | None:
        if isinstance(body, log_pb2.MovePlayed):
            forged = log_pb2.MovePlayed()
            forged.CopyFrom(body)
            forged.turn += 3
            return forged
        return None


def test_a_move_for_another_turn_is_refused_and_the_game_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness = battle_harness(monkeypatch, AnotherTurn, seed=18)
    assert_caught(harness, Reason.UNEXPECTED, halts=False, record=tmp_path / "r")
    assert_goes_on(harness)


def first_card_play(body: Message) -> log_pb2.MovePlayed | None:
    """``body`` if it is a move that reveals a card from the hand."""
    if (
        isinstance(body, log_pb2.MovePlayed)
        and body.move.startswith("play")
        and any(card.WhichOneof("shown") == "reveal" for card in body.cards)
    ):
        return body
    return None


class ClaimsAnotherCard(Cheat):
    """It plays a card it does not hold, claiming a card of its hand is that card."""

    def forge(self, body: Message, step: int) -> Message | None:
        honest = first_card_play(body)
        if honest is None:
            return None
        reveal = crypto.Reveal.decode(honest.cards[0].reveal)
        other = "heroine" if reveal.card != "heroine" else "drummer"
        lie = dataclasses.replace(reveal, card=other)
        shown = log_pb2.CardShown(deck=honest.cards[0].deck, reveal=lie.encode())
        return log_pb2.MovePlayed(turn=honest.turn, move=f"play {other}", cards=[shown])


def test_a_card_claimed_but_not_held_halts_every_peer_blaming_the_player(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness = battle_harness(monkeypatch, ClaimsAnotherCard, seed=19)
    assert_caught(harness, Reason.BAD_PROOF, halts=True, record=tmp_path / "r")


class ShowsAnotherSeatsCard(Cheat):
    """It plays a card by showing a slot dealt to the other seat."""

    def forge(self, body: Message, step: int) -> Message | None:
        honest = first_card_play(body)
        if honest is None:
            return None
        assert self.dealer is not None
        deck, slot = next(card for card in self.dealer.hands[0] if card not in self.dealer.face_up)
        reveal = crypto.Reveal.decode(honest.cards[0].reveal)
        stolen = dataclasses.replace(reveal, slot=slot)
        shown = log_pb2.CardShown(deck=deck, reveal=stolen.encode())
        return log_pb2.MovePlayed(turn=honest.turn, move=honest.move, cards=[shown])


def test_a_card_shown_from_another_seats_hand_is_refused_and_the_game_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    harness = battle_harness(monkeypatch, ShowsAnotherSeatsCard, seed=20)
    assert_caught(harness, Reason.ILLEGAL, halts=False, record=tmp_path / "r")
    assert_goes_on(harness)


class PlaysUnseen(Cheat):
    """It plays a card without showing any."""

    def forge(self, body: Message, step: int) -> Message | None:
        honest = first_card_play(body)
        if honest is None:
            return None
        return log_pb2.MovePlayed(turn=honest.turn, move=honest.move)


def test_a_card_played_without_being_shown_is_refused_and_the_game_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    harness = battle_harness(monkeypatch, PlaysUnseen, seed=21)
    assert_caught(harness, Reason.ILLEGAL, halts=False, record=tmp_path / "r")
    assert_goes_on(harness)


class WrongRevealShare(Cheat):
    """It shows its card with a share that is not its own decryption share."""

    def forge(self, body: Message, step: int) -> Message | None:
        honest = first_card_play(body)
        if honest is None:
            return None
        reveal = crypto.Reveal.decode(honest.cards[0].reveal)
        share = dataclasses.replace(reveal.share, share=crypto.mul_base(crypto.random_scalar()))
        wrong = dataclasses.replace(reveal, share=share)
        shown = log_pb2.CardShown(deck=honest.cards[0].deck, reveal=wrong.encode())
        return log_pb2.MovePlayed(turn=honest.turn, move=honest.move, cards=[shown])


def test_a_reveal_with_a_wrong_share_halts_every_peer_blaming_the_player(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness = battle_harness(monkeypatch, WrongRevealShare, seed=22)
    assert_caught(harness, Reason.BAD_PROOF, halts=True, record=tmp_path / "r")


class DiscardsMercenaries(Cheat):
    """Asked to keep a hand that holds mercenaries, it discards it (showing it truly)."""

    def forge(self, body: Message, step: int) -> Message | None:
        if isinstance(body, log_pb2.MovePlayed) and body.move == "keep":
            assert self.dealer is not None and self.game is not None and self.seat is not None
            if not any(card.isdigit() for card in self.game.hand(self.seat)):
                return None
            cards = self.dealer.moves.show(card_flow(Move.parse("discard")))
            return log_pb2.MovePlayed(turn=body.turn, move="discard", cards=cards)
        return None


def test_a_discard_of_a_hand_holding_a_mercenary_is_refused_and_the_game_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    harness = battle_harness(monkeypatch, DiscardsMercenaries, seed=23)
    assert_caught(harness, Reason.ILLEGAL, halts=False, record=tmp_path / "r")
    witness = harness.witnesses[0]
    refusal = next(r for r in witness.refusals if r.reason is Reason.ILLEGAL)
    assert "mercenar" in refusal.detail
    assert_goes_on(harness, moves=1)


# ------------------------------------------------------------------------- logs and wire


def a_chat(cheater: Table, text: str = "hello", *, seq: int | None = None,
           previous: bytes | None = None) -> LogEntry:
    log = cheater.logs.log(cheater.me)
    return make_entry(
        cheater.identity, cheater.table_id, len(log) if seq is None else seq,
        log[-1].hash if previous is None else previous, step=0, heads=(),
        body=log_pb2.Chat(text=text),
    )


def assert_refused_at_the_door(witness: Table, signed: bytes, reason: Reason) -> None:
    """``signed`` is refused before it reaches any log, blaming nobody, changing nothing."""
    before, refusals, held = state_of(witness), list(witness.refusals), len(witness.logs)
    rejection = witness.receive(signed)
    assert rejection is not None and rejection.reason is reason, rejection
    assert rejection.author is None and rejection.seat is None
    assert state_of(witness) == before
    assert witness.refusals == refusals and len(witness.logs) == held and witness.halt is None


def test_an_entry_with_a_forged_signature_is_refused_blaming_nobody() -> None:
    harness = CheatHarness("zman-duel", 2, Cheat, seat=1, seed=24)
    entry = a_chat(harness.cheater)
    envelope = log_pb2.SignedEntry.FromString(entry.signed)
    envelope.signature = bytes(b ^ 0x55 for b in envelope.signature)
    assert_refused_at_the_door(harness.witnesses[0], envelope.SerializeToString(),
                               Reason.BAD_SIGNATURE)


def test_an_entry_in_another_seats_name_is_refused_and_that_seat_is_not_blamed() -> None:
    harness = CheatHarness("zman-duel", 2, Cheat, seat=1, seed=25)
    witness, cheater = harness.witnesses[0], harness.cheater
    victim = witness.me
    log = witness.logs.log(victim)
    entry = log_pb2.Entry(
        table_id=witness.table_id, author=victim, seq=len(log), previous=log[-1].hash,
        chat=log_pb2.Chat(text="I resign"),
    )
    raw = entry.SerializeToString()
    signed = log_pb2.SignedEntry(
        entry=raw, signature=cheater.identity.sign(b"condottiere/v1/entry\x00" + raw)
    ).SerializeToString()
    assert_refused_at_the_door(witness, signed, Reason.BAD_SIGNATURE)


def test_an_oversized_entry_is_refused_before_it_is_read() -> None:
    harness = CheatHarness("zman-duel", 2, Cheat, seat=1, seed=26)
    huge = a_chat(harness.cheater).signed + bytes(MAX_ENTRY_BYTES)
    assert_refused_at_the_door(harness.witnesses[0], huge, Reason.TOO_LARGE)


def test_an_entry_for_another_table_is_refused_blaming_nobody() -> None:
    harness = CheatHarness("zman-duel", 2, Cheat, seat=1, seed=27)
    cheater = harness.cheater
    elsewhere = make_entry(cheater.identity, os.urandom(32), 0, b"", step=0, heads=(),
                           body=log_pb2.Chat(text="wrong table"))
    assert_refused_at_the_door(harness.witnesses[0], elsewhere.signed, Reason.WRONG_TABLE)


def test_a_replayed_entry_changes_nothing_and_a_replayed_answer_is_refused_as_stale(
    tmp_path: Path,
) -> None:
    harness = CheatHarness("zman-duel", 2, Cheat, seat=1, seed=28)
    witness, cheater = harness.witnesses[0], harness.cheater
    before, refusals = state_of(witness), list(witness.refusals)
    for entry in cheater.logs.log(cheater.me):
        assert witness.receive(entry.signed) is None  # the very same bytes: a copy
    assert state_of(witness) == before and witness.refusals == refusals
    ready = next(e for e in cheater.logs.log(cheater.me) if e.kind == "ready")
    cheater.publish_forged(ready.body, ready.step)
    harness.deliver()
    assert_caught(harness, Reason.STALE, halts=False, record=tmp_path / "r",
                  whole_state=False)
    assert_goes_on(harness)


class Equivocates(Cheat):
    """At its first move it signs a second, different move with the same sequence number;
    :class:`EquivocationHarness` shows each version to one of the other peers."""

    def forge(self, body: Message, step: int) -> Message | None:
        if not isinstance(body, log_pb2.MovePlayed) or self.game is None:
            return None
        other = next(str(m) for m in self.game.legal_moves() if str(m) != body.move)
        assert self.dealer is not None
        cards = self.dealer.moves.show(card_flow(Move.parse(other)))
        log = self.logs.log(self.me)
        self.second = make_entry(
            self.identity, self.table_id, len(log), log[-1].hash, step=step, heads=(),
            body=log_pb2.MovePlayed(turn=body.turn, move=other, cards=cards),
        )
        self.forged[self.second.hash] = self.second.signed
        return body


class EquivocationHarness(CheatHarness):
    """Peer 2 gets the cheater's second version where the others get the first; once it has
    cheated, the cheater hears nothing more (so only honest peers can find it out)."""

    def blocked(self, table: Table, entry: LogEntry) -> bool:
        second: LogEntry | None = getattr(self.cheater, "second", None)
        if second is None:
            return False
        if table is self.cheater:
            return True
        if table is self.tables[2] and entry.author == second.author and entry.seq == second.seq:
            if entry.hash != second.hash and not table.logs.log(entry.author)[second.seq:]:
                self.hand(table, second)
            return entry.hash != second.hash
        return False


def test_an_equivocation_halts_every_peer_with_both_signed_entries(tmp_path: Path) -> None:
    harness = EquivocationHarness("zman", 3, Equivocates, seat=1, seed=29)
    harness.play(until=lambda: harness.cheater.cheated)
    harness.deliver()
    second = harness.cheater.second
    first = next(e for e in harness.tables[0].logs.log(second.author) if e.seq == second.seq)
    assert harness.tables[2].logs.log(second.author)[second.seq] == second
    for witness in harness.witnesses:
        witness.chat("next?")  # any later entry carries what its author saw of every log
    harness.deliver()
    for witness in harness.witnesses:
        halt = witness.halt
        assert halt is not None and halt.reason is Reason.EQUIVOCATION and halt.seat == 1
        assert set(halt.evidence) == {first.signed, second.signed}
    assert_caught(harness, Reason.EQUIVOCATION, halts=True, record=tmp_path / "r",
                  whole_state=False)


def test_an_entry_chained_to_another_predecessor_halts_every_peer(tmp_path: Path) -> None:
    harness = CheatHarness("zman-duel", 2, Cheat, seat=1, seed=30)
    witness, cheater = harness.witnesses[0], harness.cheater
    broken = a_chat(cheater, previous=bytes(32))
    harness.forged[broken.hash] = broken.signed
    before = state_of(witness)
    witness.receive(broken.signed)
    assert state_of(witness) == before
    halt = witness.halt
    assert halt is not None and halt.reason is Reason.EQUIVOCATION and halt.seat == 1
    assert broken.signed in halt.evidence
    assert_caught(harness, Reason.EQUIVOCATION, halts=True, record=tmp_path / "r",
                  whole_state=False)


def test_a_seat_that_floods_its_log_is_stopped_at_the_same_entry_and_nothing_more_is_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(condottiere.peer.logs, "MAX_LOG_BYTES", 1 << 20)
    harness = CheatHarness("zman-duel", 2, Cheat, seat=1, seed=35)
    witness, cheater = harness.witnesses[0], harness.cheater
    before = state_of(witness)
    log = list(cheater.logs.log(cheater.me))
    flood = []
    for _ in range(8):
        chat = make_entry(cheater.identity, cheater.table_id, len(log) + len(flood),
                          (flood or log)[-1].hash, step=0, heads=(),
                          body=log_pb2.Chat(text="x" * 200_000))
        flood.append(chat)
    outcomes = [witness.receive(entry.signed) for entry in flood]
    held = witness.logs.log(cheater.me)
    assert sum(len(e.signed) for e in held) <= 1 << 20 and len(held) < len(log) + len(flood)
    refused = [r for r in witness.refusals if r.reason is Reason.TOO_LARGE]
    assert len(refused) == 1 and refused[0].seat == 1  # blamed once, then turned away unheard
    turned_away = [o for o in outcomes if o is not None]
    assert turned_away and all(o.reason is Reason.TOO_LARGE for o in turned_away)
    assert len(held) + 1 + len(turned_away) == len(log) + len(flood)
    assert state_of(witness) == before and witness.halt is None


# -------------------------------------------------------------------------------- evidence


def test_evidence_of_an_equivocation_that_proves_nothing_is_refused(tmp_path: Path) -> None:
    harness = CheatHarness("zman-duel", 2, Cheat, seat=1, seed=31)
    witness, cheater = harness.witnesses[0], harness.cheater
    honest = log_pb2.SignedEntry.FromString(witness.logs.log(witness.me)[-1].signed)
    accusation = log_pb2.Evidence(equivocation=log_pb2.Equivocation(first=honest, second=honest))
    cheater.publish_forged(accusation)
    harness.deliver()
    assert_caught(harness, Reason.UNEXPECTED, halts=False, record=tmp_path / "r",
                  whole_state=False)
    assert witness.halt is None


def test_a_false_accusation_of_a_bad_share_halts_every_peer_blaming_the_accuser(
    tmp_path: Path,
) -> None:
    harness = CheatHarness("zman", 3, Cheat, seat=1, seed=32)
    cheater = harness.cheater
    honest = next(e for e in harness.witnesses[0].logs.log(harness.witnesses[0].me)
                  if e.kind == "shares")
    accusation = log_pb2.BadShare(shares=log_pb2.SignedEntry.FromString(honest.signed))
    cheater.publish_forged(log_pb2.Evidence(bad_share=accusation))
    harness.deliver()
    assert_caught(harness, Reason.BAD_PROOF, halts=True, record=tmp_path / "r",
                  whole_state=False)


# ----------------------------------------------------------------------------------- audit


class FalseAuditSecret(Cheat):
    """At the end it reveals a secret that is not the one behind its key."""

    def forge(self, body: Message, step: int) -> Message | None:
        if isinstance(body, log_pb2.AuditReveal):
            return log_pb2.AuditReveal(
                secrets=[crypto.encode_scalar(crypto.random_scalar()) for _ in body.secrets]
            )
        return None


def test_a_false_audit_secret_halts_every_peer_blaming_its_seat(tmp_path: Path) -> None:
    harness = CheatHarness("zman-duel", 2, FalseAuditSecret, seat=1, seed=33)
    harness.play(until=lambda: harness.cheater.cheated)
    harness.deliver()
    assert_caught(harness, Reason.BAD_PROOF, halts=True, record=tmp_path / "r")
    witness = harness.witnesses[0]
    assert witness.cards is None and witness.game is not None and witness.game.phase == "over"


# ----------------------------------------------------------------- anything else it signs


def test_a_seated_peers_mutated_entries_are_each_refused_or_halt_and_never_crash_a_peer() -> None:
    harness = Harness("zman-duel", 2, seed=34)
    harness.play()
    rng = random.Random(34)
    # The game's cards are dealt by the peers' own randomness, so which points the fuzzer
    # reaches varies: it goes on, in rounds of 400, until it has seen both a refusal and a halt.
    kinds: set[str] = set()
    for _ in range(6):
        run = fuzz_seated(harness, 400, rng)
        assert not run.problems, run.problems
        assert run.sent == 400 and run.probes >= 3  # several points of the game
        kinds |= {outcome.split(":")[0] for outcome in run.outcomes}
        if {"refused", "halt"} <= kinds:
            break
    assert {"refused", "halt"} <= kinds, run.outcomes


# ------------------------------------------------------------------- shown to the owner


def test_a_programs_controller_stream_carries_every_blame_with_its_signed_evidence() -> None:
    halted = CheatHarness("zman-duel", 2, CopiedKeyProof, seat=1, seed=36)
    refused = CheatHarness("zman-duel", 2, ReadyForAnotherSeating, seat=1, seed=37)
    for harness in (halted, refused):
        witness = harness.witnesses[0]
        snapshot = snapshot_of(witness, 0.0)
        update = update_of(snapshot, witness.events, 0.0, snapshot.refusals)
        (forged,) = harness.forged.values()
        if harness is halted:
            assert update.halt.seat == 1 and update.halt.reason == "bad-proof"
            assert forged in update.halt.evidence
        else:
            assert not update.HasField("halt")
            assert [(r.seat, r.reason) for r in update.refusals] == [(1, "unexpected")]
            assert forged in update.refusals[0].evidence
