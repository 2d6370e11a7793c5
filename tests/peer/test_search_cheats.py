"""Cheats at a search of the deck for a named card (Captains' New Contract), as a cheater would
make them: a forged signed entry in its own log, fed to honest tables. Each is caught where
``docs/cheats.md`` says, the cheater's seat is blamed with the signed entry, nothing of the
entry is applied, and ``condottiere verify`` reaches the same verdict."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from google.protobuf.message import Message

from condottiere import crypto
from condottiere.crypto.pet import make_blinding
from condottiere.peer.driver import StepKind
from condottiere.peer.entries import Reason
from condottiere.peer.steps import Next, Step
from condottiere.peer.steps.searches import SEARCH_BLINDING, SEARCH_OPENING
from condottiere.v1 import log_pb2
from tests.peer.cheats import Cheat, CheatHarness, assert_caught
from tests.peer.searches import CAPTAINS, cheat_harness, search_at_once, searches_of


def caught(harness: CheatHarness, halts: bool) -> bool:
    """Whether every witness halted (or refused an entry of the cheater's)."""
    seat = harness.cheater_seat
    if halts:
        return all(w.halt is not None for w in harness.witnesses)
    return all(any(r.seat == seat for r in w.refusals) for w in harness.witnesses)


def caught_cheating(
    monkeypatch: pytest.MonkeyPatch,
    cheat: type[Cheat],
    seed: int,
    *,
    halts: bool,
    searchers: set[int] | None = None,
) -> CheatHarness:
    """A table with ``cheat`` at seat 1, its deck stacked so that the first of ``searchers``
    (seat 0 when None) searches at its first turn, played until every witness caught it."""
    search_at_once(monkeypatch, 3, searcher=min(searchers or {0}))
    harness = cheat_harness(cheat, seat=1, seed=seed, searchers=searchers)
    harness.play(until=lambda: caught(harness, halts))
    assert harness.cheater.cheated, "the cheater never had the chance"
    assert caught(harness, halts)
    return harness


class DoubleExponent(Cheat):
    """Blinds the first card of the pile with one exponent for ``a`` and twice it for
    ``b - M``: its proof no longer holds (a blinding that could make any card pass for
    another)."""

    def forge(self, body: Message, step: int) -> Message | None:
        if not isinstance(body, log_pb2.SearchBlinding):
            return None
        blinding = crypto.SearchBlinding.decode(body.blinding)
        first = blinding.tests[0]
        doubled = crypto.BlindedTest(
            first.blinded_a, crypto.add(first.blinded_b, first.blinded_b), first.proof
        )
        forged = dataclasses.replace(blinding, tests=(doubled, *blinding.tests[1:]))
        return log_pb2.SearchBlinding(
            deck=body.deck, round=body.round, card=body.card, blinding=forged.encode()
        )


class FalseOpening(Cheat):
    """Its opening share of the first card is not ``x·A*`` (it could make a card found look
    absent, or the reverse)."""

    def forge(self, body: Message, step: int) -> Message | None:
        if not isinstance(body, log_pb2.SearchOpening):
            return None
        opening = crypto.SearchOpening.decode(body.opening)
        first = opening.shares[0]
        wrong = dataclasses.replace(first, share=crypto.add(first.share, first.share))
        forged = dataclasses.replace(opening, shares=(wrong, *opening.shares[1:]))
        return log_pb2.SearchOpening(
            deck=body.deck, round=body.round, card=body.card, opening=forged.encode(),
        )


def _other_captain(named: str) -> str:
    return next(captain for captain in CAPTAINS if captain != named)


class BlindsAnotherCard(Cheat):
    """Blinds the pile against another captain's point under the named card's name, so that
    the search would find that other card."""

    def forge(self, body: Message, step: int) -> Message | None:
        if not isinstance(body, log_pb2.SearchBlinding):
            return None
        assert self.dealer is not None and self.seat is not None
        blinding = crypto.SearchBlinding.decode(body.blinding)
        deck = self.dealer.decks[body.deck]
        other = next(c for c in deck.codebook.cards if c.name == _other_captain(body.card))
        items = [(deck.cards[p], deck.codebook.point_of(other)) for p in blinding.positions]
        context = crypto.Context(deck.table, deck.round, self.seat)
        forged = make_blinding(blinding.search, body.card, blinding.positions, items, context)
        return log_pb2.SearchBlinding(
            deck=body.deck, round=body.round, card=body.card, blinding=forged.encode()
        )


class NamesAnotherCard(Cheat):
    """Its blinding is a true one, of a search for another captain than the one named."""

    def forge(self, body: Message, step: int) -> Message | None:
        if not isinstance(body, log_pb2.SearchBlinding):
            return None
        assert self.dealer is not None
        blinding = crypto.SearchBlinding.decode(body.blinding)
        other = _other_captain(body.card)
        deck = self.dealer.decks[body.deck]
        forged = deck.make_search_blinding(blinding.search, other, blinding.positions)
        return log_pb2.SearchBlinding(
            deck=body.deck, round=body.round, card=other, blinding=forged.encode()
        )


class TakesAnotherSlot(Cheat):
    """Its dealer takes another slot of the pile than the one the search found into its hand
    as the captain found; it then puts the captain into play from that slot."""

    taken = ""

    def _complete(self, step: Step) -> Next | None:
        dealer, search = self.dealer, step.search
        if step.kind != SEARCH_OPENING or self.cheated or step.missing:
            return super()._complete(step)
        assert dealer is not None and search is not None
        held = len(dealer.hands[search.seat])
        after = super()._complete(step)
        if len(dealer.hands[search.seat]) > held:  # found: taken into the searcher's hand
            index, slot = card = dealer.hands[search.seat][-1]
            swapped = (index, crypto.Slot(slot.round, dealer.pile_positions(index)[-1]))
            dealer.hands[search.seat][-1] = swapped
            dealer.face_up[swapped] = self.taken = dealer.face_up.pop(card)
            self.cheated = True
        return after

    def _publish(self, body: Message, step: int = 0) -> Any:
        entry = super()._publish(body, step)
        if isinstance(body, log_pb2.MovePlayed) and body.move == f"captain {self.taken}":
            self.forged[entry.hash] = entry.signed
        return entry


@pytest.mark.parametrize(
    ("cheat", "kind"),
    [(DoubleExponent, SEARCH_BLINDING), (FalseOpening, SEARCH_OPENING),
     (BlindsAnotherCard, SEARCH_BLINDING)],
)
def test_a_false_step_of_the_equivalence_test_halts_every_peer_blaming_its_author(
    cheat: type[Cheat], kind: StepKind, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness = caught_cheating(monkeypatch, cheat, 5, halts=True)
    assert_caught(harness, Reason.BAD_PROOF, halts=True, record=tmp_path / "cheat")
    for witness in harness.witnesses:
        assert witness.step is not None and witness.step.kind == kind
        assert not searches_of(witness), "a search resolved from a false step"


def test_a_blinding_for_another_card_than_the_one_named_is_refused_and_the_search_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness = caught_cheating(monkeypatch, NamesAnotherCard, 6, halts=False)
    assert_caught(harness, Reason.UNEXPECTED, halts=False, record=tmp_path / "cheat")
    harness.play(until=lambda: all(searches_of(w) for w in harness.witnesses))
    named = [(seat, card) for seat, card, _ in harness.bots[0].referee.named]  # type: ignore[attr-defined]
    for witness in harness.witnesses:
        assert [(seat, card) for seat, card, _ in searches_of(witness)] == named[:1]


def test_a_seat_that_takes_another_slot_than_the_one_found_is_refused_when_it_shows_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness = caught_cheating(monkeypatch, TakesAnotherSlot, 7, halts=False, searchers={1})
    assert_caught(harness, Reason.ILLEGAL, halts=False, record=tmp_path / "cheat", whole_state=True)
    for witness in harness.witnesses:
        refusal = next(r for r in witness.refusals if r.seat == 1)
        assert "not a face-up card of its hand" in refusal.detail, refusal
