"""Re-keying right after a seat left, as a fold with no socket: the others stand in at once
for the leaver's shares of every card still in play that needs them (a ``rekey`` step), back
their own secrets up again among themselves (a ``redealing`` step), and the next reshuffle
keys the deck without the leaver (no stand-in after it). A second leaver is then covered as
the first was, down to two seats; the audit checks the re-keyed rounds whole, a wrong part is
blamed on its author, and a seat silent at the step is put out as at any other step."""

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
from condottiere.peer.steps.deal import SHARES, SHUFFLE
from condottiere.peer.steps.leavers import REKEY
from condottiere.peer.steps.moves import MOVE
from condottiere.v1 import log_pb2
from tests.peer.stacked import like_hands
from tests.peer.tables import all_entries, feed
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
    signed = all_entries(witness)
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
        cards = deck.rekey_owed().get(leaver) or deck.unshared(leaver)
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
        verify(all_entries(witness)).lines()
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
        verify(all_entries(witness)).lines()
    )
    assert "left: seat 3 (seat3) silent at a move" in text, text
    assert "left: seat 2 (seat2) silent at a move" in text, text


def caught_up(harness: Departing) -> bool:
    """Every live seat has stood in at once for every seat out (no card of any deck needs
    one) and backed its secrets up again among the seats still there."""
    for table in harness.live():
        dealer = table.dealer
        assert dealer is not None
        for index in range(len(dealer.decks)):
            if dealer.rekeys.owed(index) is not None or dealer.backups.redealt(index):
                return False
    return True


def leaves_at_its_move(harness: Departing, seat: int) -> None:
    """Play until ``seat`` is to move, kill it there, and play until the others have caught
    up with its leave (:func:`caught_up`)."""
    harness.run(until=lambda: waits_for_move_of(harness, seat))
    assert waits_for_move_of(harness, seat), f"seat {seat} never moved again"
    harness.kill(seat)
    harness.run(until=lambda: caught_up(harness) and all(
        "rekey" in [e.kind for e in t.logs.log(t.me)] for t in harness.live()))
    assert caught_up(harness), [t.step for t in harness.live()]


def test_a_leave_mid_round_rekeys_the_cards_in_hands_and_the_deck_at_once_and_play_goes_on(
) -> None:
    """Seat 3 of four is killed at its move: before anything else the three others stand in
    for its shares of every card of the deck (the pile; the hands dealt had its shares) and
    back their secrets up again, with no reshuffle; the game goes on and every card opens."""
    harness = Departing("zman", 4, seed=7)
    leaves_at_its_move(harness, 3)
    for table in harness.live():
        dealer = table.dealer
        assert dealer is not None and table.halt is None
        deck = dealer.decks[0]
        assert deck.round == 0, "re-keyed before any reshuffle"
        assert deck.unshared(3) == {} and len(dealer.pile_positions(0)) > 0
        held = [slot for seat in (0, 1, 2) for _, slot in dealer.hands[seat]]
        assert held and all(deck.shared(slot, 3) for slot in held)
        assert dealer.backups.dealt_among[(0, 0)][0] == (0, 1, 2)
        mine = [e.kind for e in table.logs.log(table.me)]
        assert mine.index("rekey") < mine.index("redealing")
        assert "stand_in" not in mine[mine.index("rekey"):], "the deals need no stand-in"
    harness.run()
    live = harness.live()
    for table in live:
        assert table.halt is None and not table.refusals, (table.halt, table.refusals)
        assert table.audited and list(table.out) == [3]
        assert table.game is not None and table.game.outcome is not None
    assert len({t.record_hash() for t in live}) == 1
    witness = live[0]
    verdict = verify(all_entries(witness))
    assert verdict.table.record_hash() == witness.record_hash()
    assert "verdict: FINISHED without seat 3 (seat3)" in "\n".join(verdict.lines())


def test_a_second_leaver_right_after_the_first_ones_rekey_is_covered_at_five_seats() -> None:
    harness = Departing("zman", 5, seed=11)
    leaves_at_its_move(harness, 4)
    harness.run(until=lambda: waits_for_move_of(harness, 3))
    assert waits_for_move_of(harness, 3)
    harness.kill(3)
    harness.run()
    live = harness.live()
    for table in live:
        assert table.halt is None and not table.refusals, (table.halt, table.refusals)
        assert table.audited and sorted(table.out) == [3, 4]
        assert any("seat3 has left: the game goes on" in e.text for e in table.events)
    assert len({t.record_hash() for t in live}) == 1
    witness = live[0]
    text = "\n".join(
        verify(all_entries(witness)).lines()
    )
    assert "verdict: FINISHED without seat 3 (seat3) and seat 4 (seat4)" in text, text
    assert "abandoned" not in text, text


def test_successive_leavers_down_to_two_seats_leave_the_last_two_to_finish() -> None:
    """Seats 4, 3 and 2 of five are killed one after another, each at its move once the
    others caught up with the one before: the last two finish the game alike."""
    harness = Departing("zman", 5, seed=12)
    leaves_at_its_move(harness, 4)
    leaves_at_its_move(harness, 3)
    harness.run(until=lambda: waits_for_move_of(harness, 2))
    assert waits_for_move_of(harness, 2)
    harness.kill(2)
    harness.run()
    live = harness.live()
    for table in live:
        assert table.halt is None and not table.refusals, (table.halt, table.refusals)
        assert table.audited and sorted(table.out) == [2, 3, 4]
        assert table.game is not None and table.game.outcome is not None
    assert len({t.record_hash() for t in live}) == 1
    text = "\n".join(
        verify([e.signed for a in live[0].logs.authors for e in live[0].logs.log(a)]).lines()
    )
    gone = "seat 2 (seat2) and seat 3 (seat3) and seat 4 (seat4)"
    assert "abandoned" not in text and f"verdict: FINISHED without {gone}" in text, text


def test_two_seats_silent_one_after_the_other_in_a_shuffle_chain_leave_the_three_others_to_finish(
) -> None:
    """At five seats, seat 3 is silent at its first shuffle, then seat 4 at its first shuffle
    of the chain formed again without seat 3 (the chain seat 3 left unfinished starts again
    from its starting cards, keyed by the four others): both are covered, one after the
    other, and the three others finish alike."""
    harness = Departing("zman", 5, seed=13, doomed=(3, SHUFFLE), together=(4,))
    harness.run()
    live = harness.live()
    for table in live:
        assert table.halt is None and not table.refusals, (table.halt, table.refusals)
        assert table.audited and sorted(table.out) == [3, 4]
        assert table.out[3].step != table.out[4].step, "one after the other"
        assert table.out[3].at == table.out[4].at == rule_of(SHUFFLE).words
    assert len({t.record_hash() for t in live}) == 1


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
