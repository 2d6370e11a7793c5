"""Re-keying at the next reshuffle after a seat left, as a fold with no socket: the others
take the leaver's key off the hidden cards that come back (a ``rekey`` step), the new round is
keyed, shuffled and dealt by them alone (no stand-in after it), the audit checks the re-keyed
rounds whole, a wrong part is blamed on its author, and a seat silent at the step is put out
as at any other step."""

from __future__ import annotations

import random
from typing import Any

import pytest
from google.protobuf.message import Message

from condottiere import crypto
from condottiere.crypto import Identity
from condottiere.interface import OutcomeKind
from condottiere.peer.driver import MemoryKeeper, StepKind, Table
from condottiere.peer.entries import Reason, read_entry
from condottiere.peer.record import verify
from condottiere.peer.steps import rule_of
from condottiere.peer.steps.deal import SHARES
from condottiere.peer.steps.leavers import REKEY
from condottiere.peer.steps.moves import MOVE
from condottiere.v1 import log_pb2
from tests.peer.stacked import like_hands
from tests.peer.tables import feed
from tests.peer.test_silence import Departing, waits_for_move_of
from tests.peer.test_stand_in import Forging


def kinds_signed(table: Table) -> list[str]:
    """The kinds of every entry at the table, in each author's order, author by author."""
    return [e.kind for author in table.logs.authors for e in table.logs.log(author)]


def one_game(seats: int, kind: StepKind, seed: int, **kwargs: Any) -> Departing:
    victim = seats - 1
    if kind == MOVE:
        harness = Departing("zman", seats, seed=seed, **kwargs)
        harness.run(until=lambda: waits_for_move_of(harness, victim))
        harness.kill(victim)
    else:
        harness = Departing("zman", seats, seed=seed, doomed=(victim, kind), **kwargs)
        harness.run(until=lambda: bool(harness.dead))
    harness.run()
    return harness


def after_a_leave(
    monkeypatch: pytest.MonkeyPatch, seats: int, kind: StepKind, seed: int, **kwargs: Any
) -> Departing:
    """A game whose last seat goes silent at its first step of ``kind`` (at a move: once it
    is to move), played by the others to its end, its deck stacked (:func:`like_hands`) so
    that a deck is re-keyed after the leave (``kwargs`` for the harness)."""
    like_hands(monkeypatch, seats)
    harness = one_game(seats, kind, seed, **kwargs)
    assert any("rekey" in kinds_signed(table) for table in harness.live()), "no reshuffle"
    return harness


@pytest.mark.parametrize("seats", [3, 4])
@pytest.mark.parametrize("kind", [MOVE, SHARES])
def test_the_next_reshuffle_keys_the_deck_without_the_leaver_and_no_stand_in_follows(
    kind: StepKind, seats: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    victim = seats - 1
    harness = after_a_leave(monkeypatch, seats, kind, seed=seats)
    live = harness.live()
    for table in live:
        assert table.halt is None and not table.refusals, (table.halt, table.refusals)
        assert table.audited and list(table.out) == [victim]
        assert any("is keyed again without" in e.text for e in table.events)
        dealer = table.dealer
        assert dealer is not None
        for deck in dealer.decks:  # the last round of every deck is keyed without the leaver
            assert victim not in deck.members_of(deck.round)
            assert not deck.rekey_owed()
        mine = [e.kind for e in table.logs.log(table.me)]
        first_rekey = mine.index("rekey")
        assert "stand_in" not in mine[first_rekey:], "no stand-in once the deck is re-keyed"
        assert table.rekeyed_cards, "the re-keyed rounds are audited whole"
    assert len({t.record_hash() for t in live}) == 1
    assert len({tuple(sorted(t.rekeyed_cards.items())) for t in live}) == 1
    witness = live[0]
    rekeys = kinds_signed(witness).count("rekey")
    assert rekeys and rekeys % (seats - 1) == 0, "every remaining seat at every re-key"
    signed = [e.signed for a in witness.logs.authors for e in witness.logs.log(a)]
    verdict = verify(signed)
    assert verdict.table.record_hash() == witness.record_hash()
    text = "\n".join(verdict.lines())
    assert f"audit of the decks keyed again without seat {victim} (seat{victim}): every " in (
        text), text
    random.Random(seats).shuffle(signed)  # a watcher fed the entries in any order ends alike
    fresh = Table(Identity.generate(), witness.lobby.definition, MemoryKeeper())
    feed(fresh, signed)
    assert fresh.record_hash() == witness.record_hash()
    assert fresh.rekeyed_cards == witness.rekeyed_cards
    kept = harness.keepers[0]
    restored = Table.restore(witness.identity, kept, list(kept.entries))
    assert restored.record_hash() == witness.record_hash() and restored.audited


class WrongRekeyPart(Forging):
    """Its first re-key batch is made with another piece than its own."""

    kind = log_pb2.Rekey

    def forge(self, body: Any) -> Message:
        dealer = self.dealer
        assert dealer is not None and dealer.index is not None
        deck = dealer.decks[body.deck]
        leaver = dealer.members.index(body.leaver)
        cards = deck.rekey_owed()[leaver]
        context = crypto.Context(deck.table, deck.round, dealer.index)
        wrong = crypto.make_stand_in(12345, leaver, cards, context)
        return log_pb2.Rekey(
            deck=body.deck, round=body.round, leaver=body.leaver, batch=wrong.encode()
        )


def test_a_wrong_rekey_part_is_caught_and_its_author_blamed_on_every_peer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    harness = after_a_leave(monkeypatch, 4, MOVE, seed=4, kinds={1: WrongRekeyPart})
    for table in harness.live():
        halt = table.halt
        assert halt is not None and halt.cheat and halt.reason is Reason.BAD_PROOF, halt
        assert halt.seat == 1 and "re-key" in halt.detail, halt
    witness = harness.tables[0]
    text = "\n".join(
        verify([e.signed for a in witness.logs.authors for e in witness.logs.log(a)]).lines()
    )
    assert "CHEAT" in text and "seat 1 (seat1)" in text, text


def test_a_seat_silent_at_the_rekey_of_a_three_seat_game_leaves_the_last_one_the_winner(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    harness = after_a_leave(monkeypatch, 3, MOVE, seed=3, doomed=(1, REKEY))
    table = harness.tables[0]
    assert table.halt is None and table.audited and sorted(table.out) == [1, 2]
    assert table.out[1].at == rule_of(REKEY).words
    assert table.game is not None and table.game.outcome is not None
    assert table.game.outcome.kind is OutcomeKind.FORFEIT and table.game.outcome.winners == (0,)


def test_a_seat_silent_at_the_rekey_of_a_four_seat_game_abandons_the_table_naming_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    harness = after_a_leave(monkeypatch, 4, MOVE, seed=4, doomed=(2, REKEY))
    live = harness.live()
    for table in live:
        halt = table.halt
        assert halt is not None and halt.abandoned and halt.seat == 2, halt
        assert "silent at the re-keying of a deck" in halt.detail, halt.detail
    assert len({t.record_hash() for t in live}) == 1


def backed_up_again(harness: Departing) -> bool:
    """Every live seat has backed its secret up again (after a re-key), and the game waits for
    seat 2's move."""
    return all(
        "redealing" in [e.kind for e in t.logs.log(t.me)] for t in harness.live()
    ) and waits_for_move_of(harness, 2)


def first_leave_then_backed_up_again(seed: int) -> Departing:
    """A four-seat game whose seat 3 is silent at a move, played until the three others have
    backed their secrets up again and seat 2 is to move (or the game ended before)."""
    harness = Departing("zman", 4, seed=seed)
    harness.run(until=lambda: waits_for_move_of(harness, 3))
    harness.kill(3)
    harness.run(until=lambda: backed_up_again(harness))
    return harness


def test_a_second_leaver_after_the_new_backups_is_covered_and_the_two_others_finish(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    like_hands(monkeypatch, 4)
    harness = first_leave_then_backed_up_again(seed=40)
    assert backed_up_again(harness), "no reshuffle after the first leave"
    for table in harness.live():  # each seat's new dealing is among the three still there
        dealer = table.dealer
        assert dealer is not None and dealer.backups.dealt_among[(0, 0)][0] == (0, 1, 2)
    harness.kill(2)
    harness.run()
    live = harness.live()
    for table in live:
        assert table.halt is None and not table.refusals, (table.halt, table.refusals)
        assert table.audited and sorted(table.out) == [2, 3]
        assert any("seat2 has left: the game goes on" in e.text for e in table.events)
    assert len({t.record_hash() for t in live}) == 1
    witness = live[0]
    text = "\n".join(
        verify([e.signed for a in witness.logs.authors for e in witness.logs.log(a)]).lines()
    )
    assert "left: seat 3 (seat3) silent at a move" in text, text
    assert "left: seat 2 (seat2) silent at a move" in text, text


def test_a_second_leaver_before_the_next_reshuffle_still_abandons_a_four_seat_table() -> None:
    harness = Departing("zman", 4, seed=5)
    harness.run(until=lambda: waits_for_move_of(harness, 3))
    harness.kill(3)
    harness.run(until=lambda: waits_for_move_of(harness, 2))
    if any("rekey" in kinds_signed(t) for t in harness.live()):
        pytest.skip("the deck was re-keyed before seat 2 moved again")
    harness.kill(2)
    harness.run()
    for table in harness.live():
        halt = table.halt
        assert halt is not None and halt.abandoned and halt.seat == 2, halt


class SwappedNewBoxes(Forging):
    """Its new backup after a re-key seals the first two recipients' pieces in each other's
    boxes."""

    kind = log_pb2.Redealing

    def forge(self, body: Any) -> Message:
        dealing = crypto.Dealing.decode(body.dealing, 3)
        swapped = crypto.Dealing(dealing.commitments, dealing.boxes[::-1])
        return log_pb2.Redealing(deck=body.deck, round=body.round, dealing=swapped.encode())


def test_a_bad_piece_in_a_new_backup_is_complained_of_and_its_dealer_blamed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    harness = after_a_leave(monkeypatch, 4, MOVE, seed=50, kinds={0: SwappedNewBoxes})
    for table in harness.live():
        halt = table.halt
        assert halt is not None and halt.reason is Reason.BAD_PROOF and halt.seat == 0, halt
        assert "is not what it sealed" in halt.detail or "sealed for another" in halt.detail
        assert len(halt.evidence) == 3  # the new dealing, the complaint and the answer
        kinds = [read_entry(e).kind for e in halt.evidence]
        assert kinds == ["redealing", "piece_checks", "piece_answers"], kinds
