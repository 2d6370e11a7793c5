"""The cheats of a Captains table that the catalogue (``docs/cheats.md``) lists for a hand
shown to one seat and for trades, each played by a :class:`~tests.peer.cheats.Cheat` table
that signs its forgery and hands it to the others as any entry, each judged by every honest
peer and by ``condottiere verify`` on its record."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from google.protobuf.message import Message

from condottiere import crypto
from condottiere.crypto.group import BASE, L, add, mul, sub
from condottiere.games.captains.cards import CAPTAINS
from condottiere.games.captains.phase import Phase
from condottiere.peer.driver import Step, Table
from condottiere.peer.entries import LogEntry, Reason
from condottiere.peer.steps.moves import HAND_SHOWN, MOVE
from condottiere.v1 import log_pb2
from tests.peer.captains import LOOK, CaptainsHarness, in_phase, stack_captains
from tests.peer.cheats import Cheat, CheatHarness, Witness, assert_caught, forged_move, moves_of


class CaptainsCheats(CaptainsHarness, CheatHarness):
    """A Captains table of :class:`Witness` seats and one :class:`Cheat` (``cheat`` at
    ``seat``), every seat played by a bot that looks at hands (and never searches the deck)."""

    def __init__(self, seats: int, cheat: type[Cheat], seat: int, seed: int, **kw: Any) -> None:
        self.forged: dict[bytes, bytes] = {}
        self.cheater_seat = seat
        kinds: dict[int, type[Table]] = {s: Witness for s in range(seats)}
        kinds[seat] = cheat
        CaptainsHarness.__init__(self, seats, seed, searches=False, kinds=kinds, **kw)


def until_cheated(
    monkeypatch: pytest.MonkeyPatch,
    cheat: type[Cheat],
    seats: int,
    seed: int,
    looker: int = 0,
    **kw: Any,
) -> CaptainsCheats:
    """A game played until the cheater (seat 1) has cheated, its deck stacked so that
    ``looker`` holds Spies and looks at another seat's hand at its first turn."""
    stack_captains(monkeypatch, seats, {looker: LOOK})
    harness = CaptainsCheats(seats, cheat, 1, seed, **kw)
    cheater = harness.cheater
    harness.play(until=lambda: cheater.cheated)
    harness.deliver()
    assert cheater.cheated, "the cheat never came"
    return harness


def assert_goes_on(harness: CaptainsCheats, moves: int = 3) -> None:
    """The honest tables go on past the refused entry: more moves, no halt."""
    pairs = [(witness, moves_of(witness)) for witness in harness.witnesses]
    harness.play(until=lambda: all(moves_of(w) >= n + moves or w.over for w, n in pairs))
    for witness in harness.witnesses:
        assert witness.halt is None


# ---------------------------------------------------------------------------- a hand shown


class SealsAWrongPart(Cheat):
    """Showing its hand to one seat, it seals to the viewer a wrong part for a hidden card
    (the true part plus G: the viewer would open another card), with a proof made for that
    wrong part."""

    def forge(self, body: Message, step: int) -> Message | None:
        if not isinstance(body, log_pb2.HandShown) or not body.sealed:
            return None
        assert self.dealer is not None
        item = body.sealed[0]
        honest = crypto.SealedShare.decode(item.share)
        deck = self.dealer.decks[item.deck]
        holding = deck._holding(honest.slot)
        assert holding is not None
        true = holding[1]
        wrong = crypto.Holding(true.base, BASE if true.offset is None else add(true.offset, BASE))
        context = crypto.Context(deck.table, honest.slot.round, deck.seat or 0)
        ciphertext = deck._round_of(honest.slot).deck[honest.slot.position]
        lie = crypto.seal_share(deck.secret, wrong, ciphertext, honest.slot, honest.viewer,
                                deck.keys[honest.viewer], context)
        forged = log_pb2.HandShown()
        forged.CopyFrom(body)
        forged.sealed[0].share = lie.encode()
        return forged


def test_a_wrong_part_sealed_to_the_viewer_halts_every_peer_blaming_the_seat_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness = until_cheated(monkeypatch, SealsAWrongPart, 2, seed=31)
    assert_caught(harness, Reason.BAD_PROOF, halts=True, record=tmp_path / "r")


class ShowsAnotherSeatsCard(Cheat):
    """Showing its hand, it names a card of another seat's hand among its own."""

    def forge(self, body: Message, step: int) -> Message | None:
        if not isinstance(body, log_pb2.HandShown):
            return None
        assert self.dealer is not None and self.seat is not None
        others = [c for s, hand in enumerate(self.dealer.hands) if s != self.seat for c in hand]
        deck, slot = others[0]
        forged = log_pb2.HandShown()
        forged.CopyFrom(body)
        at = log_pb2.CardSlot(round=slot.round, position=slot.position)
        forged.face_up.append(log_pb2.FaceUpCard(deck=deck, slot=at))
        return forged


def test_a_hand_shown_with_a_card_not_of_the_hand_is_refused_and_the_game_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness = until_cheated(monkeypatch, ShowsAnotherSeatsCard, 2, seed=32)
    assert_caught(harness, Reason.ILLEGAL, halts=False, record=tmp_path / "r")
    assert_goes_on(harness)


class HidesACard(Cheat):
    """Showing its hand, it leaves a card out (the viewer would not learn the whole hand, or
    a conqueror not get it)."""

    def forge(self, body: Message, step: int) -> Message | None:
        if not isinstance(body, log_pb2.HandShown) or not body.sealed:
            return None
        forged = log_pb2.HandShown()
        forged.CopyFrom(body)
        del forged.sealed[0]
        return forged


def test_a_hand_shown_without_one_of_its_cards_is_refused_and_the_game_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness = until_cheated(monkeypatch, HidesACard, 2, seed=33)
    assert_caught(harness, Reason.ILLEGAL, halts=False, record=tmp_path / "r")
    assert_goes_on(harness)


class GivesAHandItDidNotLose(Cheat):
    """While the table waits for another seat to show (or hand over) its hand, it answers
    that step itself with its own hand sealed to the viewer."""

    def _advance(self) -> None:
        super()._advance()
        step, dealer = self.step, self.dealer
        if self.cheated or step is None or step.kind != HAND_SHOWN:
            return
        assert step.shown is not None and dealer is not None
        if self.me in step.authors or step.shown.viewer == self.seat:
            return
        self.publish_forged(dealer.shown_hands.show(step.shown.viewer), step.number)


def test_a_hand_given_by_a_seat_that_did_not_lose_it_is_refused_and_the_game_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness = until_cheated(monkeypatch, GivesAHandItDidNotLose, 3, seed=34, looker=2)
    assert_caught(harness, Reason.OUT_OF_TURN, halts=False, record=tmp_path / "r",
                  whole_state=False)
    assert_goes_on(harness)


# ---------------------------------------------------------------------------- trades


class AcceptsItsOwnOffer(Cheat):
    """Its offer made, it signs the acceptance itself instead of the seat offered (taking
    that seat's card, which it shows as it can: not at all)."""

    def _advance(self) -> None:
        super()._advance()
        step, game = self.step, self.game
        if self.cheated or step is None or step.kind != MOVE or game is None:
            return
        if in_phase(self, Phase.ANSWER) and self.me not in step.authors:
            self.publish_forged(forged_move(self, "accept"), step.number)


def offering_script(table: Table, seat: int) -> str | None:
    """Seat 1 plays no event, and at its first diplomacy offers a ducat for a province."""
    if seat != 1 or table.game is None:
        return None
    if in_phase(table, Phase.EVENTS):
        return "done"
    if in_phase(table, Phase.DIPLOMACY) and not getattr(table, "offered", False):
        table.offered = True  # type: ignore[attr-defined]
        return f"offer {1 - seat} give 1d get 1p"
    return None


def test_a_trade_nobody_accepted_is_refused_and_nothing_changes_hands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness = until_cheated(monkeypatch, AcceptsItsOwnOffer, 2, seed=35, script=offering_script)
    witness = harness.witnesses[0]
    assert_caught(harness, Reason.OUT_OF_TURN, halts=False, record=tmp_path / "r",
                  whole_state=False)
    # the offer still waits for the seat offered: nothing changed hands
    assert witness.game is not None and in_phase(witness, Phase.ANSWER)
    assert witness.game.to_act == 0 and witness.step is not None
    assert witness.step.missing == (witness.me,)
    assert_goes_on(harness)


class GivesAnotherCard(Cheat):
    """Accepting an offer that asks for a card of its hand, it reveals another card of its
    hand instead (keeping the one asked for)."""

    def forge(self, body: Message, step: int) -> Message | None:
        if not isinstance(body, log_pb2.MovePlayed) or body.move != "accept":
            return None
        assert self.dealer is not None and self.game is not None and self.seat is not None
        asked = {c.deck: c for c in body.cards}
        other = next(
            card for card in self.dealer.hands[self.seat]
            if card not in self.dealer.face_up and self.dealer.mine.get(card) not in
            {crypto.Reveal.decode(c.reveal).card for c in asked.values() if c.reveal}
        )
        reveal = self.dealer.decks[other[0]].make_reveal(other[1])
        shown = log_pb2.CardShown(deck=other[0], reveal=reveal.encode())
        return log_pb2.MovePlayed(turn=body.turn, move=body.move, cards=[shown])


class AsksForACard:
    """Seat 0 plays no event and at its first diplomacy offers a ducat for the first card of
    seat 1's hand; seat 1 accepts."""

    def __init__(self) -> None:
        self.harness: CaptainsHarness | None = None
        self.offered = False

    def __call__(self, table: Table, seat: int) -> str | None:
        if in_phase(table, Phase.ANSWER) and seat == 1:
            return "accept"
        if self.offered or seat != 0:
            return "done" if in_phase(table, Phase.EVENTS) else None
        if in_phase(table, Phase.EVENTS):
            return "done"
        if in_phase(table, Phase.DIPLOMACY):
            assert self.harness is not None
            theirs = self.harness.tables[1].game
            assert theirs is not None
            self.offered = True
            return f"offer 1 give 1d get {theirs.hand(1)[0]}"
        return None


def test_an_acceptance_that_shows_another_card_than_the_one_asked_for_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stack_captains(monkeypatch, 2)
    script = AsksForACard()
    harness = CaptainsCheats(2, GivesAnotherCard, 1, 36, script=script)
    script.harness = harness
    cheater = harness.cheater
    harness.play(until=lambda: cheater.cheated)
    harness.deliver()
    assert cheater.cheated, "seat 1 was never asked for a card"
    assert_caught(harness, Reason.ILLEGAL, halts=False, record=tmp_path / "r")
    assert_goes_on(harness)


# ---------------------------------------------------------------------------- a hand kept


class KeepsWithoutACaptain(Cheat):
    """The last to shuffle, it arranges the deck so that the first 77 cards hold no captain
    (knowing every card, as luck could have dealt it: the test lends it the other seat's
    secret; its shuffle is a proper one, with a proof that verifies), so that its first hand
    holds none. It keeps that hand all the same, and answers the proof the table then asks
    for with the best a seat without a captain can make: every branch simulated."""

    secrets: list[int] = []  # noqa: RUF012 (set by the test: every seat's deck secret)
    proof_due: int | None = None
    """The step of the proof the table asks for once this seat has kept its hand."""

    def forge(self, body: Message, step: int) -> Message | None:
        if isinstance(body, log_pb2.Shuffle):
            return self._arranged(body)
        if not isinstance(body, log_pb2.MovePlayed) or body.move != "mulligan":
            return None
        assert self.game is not None and self.seat is not None
        assert not set(self.game.hand(self.seat)) & set(CAPTAINS)
        self.proof_due = step + 1
        return forged_move(self, "keep")

    def _arranged(self, body: log_pb2.Shuffle) -> log_pb2.Shuffle:
        assert self.dealer is not None
        deck = self.dealer.decks[body.deck]
        whole = sum(self.secrets) % L
        cards = deck.cards
        names = [deck.codebook.name_of(sub(b, mul(whole, a))) for a, b in cards]
        order = sorted(range(len(cards)), key=lambda n: names[n] in CAPTAINS)
        context = crypto.Context(deck.table, deck.round, 1)
        randomness = [crypto.random_scalar() for _ in cards]
        out, proof = crypto.shuffle_with(cards, deck._round_key(), context, order, randomness)
        return log_pb2.Shuffle(
            deck=body.deck, round=body.round, step=crypto.ShuffleStep(tuple(out), proof).encode()
        )

    def _work(self, step: Step) -> bool:
        """Once its hand is kept and its proof published, it does nothing more (its own table
        refused its keep)."""
        return self.proof_due is None and super()._work(step)

    def _publish(self, body: Message, step: int = 0) -> LogEntry:
        entry = super()._publish(body, step)
        if isinstance(body, log_pb2.Shuffle):  # a proper shuffle: the cheat is still to come
            self.cheated = False
            self.forged.pop(entry.hash, None)
        elif self.proof_due is not None:
            dealer, seat = self.dealer, self.seat
            assert dealer is not None and seat is not None
            statement = dealer.hand_proofs.statement(seat, CAPTAINS)
            assert statement is not None
            _, known, points = statement
            proof = _simulated_only(len(known) * len(points))
            self.publish_forged(log_pb2.HandProof(proof=proof.encode()), self.proof_due)
        return entry


def _simulated_only(branches: int) -> crypto.HoldsProof:
    """A proof every branch of which is simulated, the best a hand with no card of the set
    can make: its challenges add up to a random value, not to the hash of its commitments."""
    return crypto.HoldsProof(
        tuple(crypto.random_scalar() for _ in range(branches)),
        tuple(crypto.random_scalar() for _ in range(branches)),
    )


def test_a_seat_that_keeps_a_hand_with_no_captain_is_caught_by_its_proof(
    tmp_path: Path,
) -> None:
    harness = CaptainsCheats(2, KeepsWithoutACaptain, 1, seed=37)
    KeepsWithoutACaptain.secrets = [table.dealer.decks[0].secret for table in harness.tables]
    harness.play(until=lambda: all(w.halt is not None for w in harness.witnesses))
    assert_caught(
        harness, Reason.BAD_PROOF, halts=True, record=tmp_path / "r", whole_state=False
    )
    for witness in harness.witnesses:
        assert witness.halt is not None and "hand" in witness.halt.detail
        assert witness.game is not None and witness.game.hidden_count(1) == 7
