"""Condottieri Captains at a table, as a fold with no socket: hands shown to one seat (a
look, a conquest), cards that change hands in a trade, and a seat silent when its hand is to
be shown."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from condottiere import crypto
from condottiere.games.captains.phase import Phase
from condottiere.peer.driver import Table
from condottiere.peer.record import verify
from condottiere.peer.steps import rule_of
from condottiere.peer.steps.moves import HAND_SHOWN
from condottiere.v1 import log_pb2
from tests.peer.captains import LOOK, CaptainsHarness, Looker, dealt_to, in_phase, stack_captains
from tests.peer.test_silence import Departing


def assert_same_end(harness: CaptainsHarness) -> None:
    for table in harness.tables:
        assert table.halt is None and not table.refusals, (table.halt, table.refusals)
        assert table.audited
    assert len({table.record_hash() for table in harness.tables}) == 1
    assert len({str(table.dealer and table.dealer.hands) for table in harness.tables}) == 1


def bodies(table: Table, kind: str) -> list[tuple[int, log_pb2.HandShown]]:
    """Every entry of ``kind`` in the seats' logs at ``table``: (its author's seat, its body)."""
    found = []
    for author in table.seating:
        seat = table.seat_of(author)
        assert seat is not None
        found += [(seat, e.body) for e in table.logs.log(author) if e.kind == kind]
    return found


def records(table: Table) -> list[bytes]:
    return [entry.signed for author in table.logs.authors for entry in table.logs.log(author)]


@pytest.mark.parametrize(("seats", "seed"), [(2, 1), (3, 2), (5, 3)])
def test_a_whole_captains_game_with_hands_shown_to_one_seat_ends_the_same_and_verifies(
    seats: int, seed: int
) -> None:
    harness = CaptainsHarness(seats, seed, searches=False)
    harness.play()
    assert_same_end(harness)
    table = harness.tables[0]
    assert bodies(table, "hand_shown"), "no hand was shown"
    verdict = verify(records(table))
    assert verdict.fair, verdict.lines()
    assert verdict.table.record_hash() == table.record_hash()


def test_a_hand_shown_to_one_seat_is_opened_by_the_viewer_and_its_holder_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stack_captains(monkeypatch, 3, {0: LOOK})  # seat 0 holds Spies from the first deal
    harness = CaptainsHarness(3, seed=5, searches=False)
    harness.play(until=lambda: bool(bodies(harness.tables[0], "hand_shown")))
    harness.deliver()
    giver, body = bodies(harness.tables[0], "hand_shown")[0]
    hidden = [crypto.SealedShare.decode(item.share) for item in body.sealed]
    assert hidden, "a hand shown holds hidden cards"
    for seat, table in enumerate(harness.tables):
        assert table.dealer is not None
        known = [table.dealer.decks[0].known_card(share.slot) for share in hidden]
        if seat in (giver, body.viewer):
            assert None not in known
        else:
            assert known == [None] * len(known), "a third seat learned a card shown to one"
    viewer = harness.tables[body.viewer]
    assert viewer.game is not None and viewer.dealer is not None
    (shown, *_) = [event for event in viewer.game.record()["events"] if event[0] == "show"]
    opened = [viewer.dealer.decks[0].known_card(share.slot) for share in hidden]
    assert set(opened) <= set(shown[3])
    public = harness.tables[3 - giver - body.viewer].public_record()
    assert ["show", giver, body.viewer, len(shown[3]), shown[4]] in public["events"]


@dataclass
class Trade:
    """Seat 0 plays no event before its first diplomacy, where it offers seat 1 the first
    card of its hand for the first of seat 1's; seat 1 makes no offer before it, and accepts
    (or refuses)."""

    accepts: bool
    harness: CaptainsHarness | None = None
    offered: list[str] = field(default_factory=list)

    def __call__(self, table: Table, seat: int) -> str | None:
        if self.offered:
            if not in_phase(table, Phase.ANSWER):
                return None
            return "accept" if self.accepts else "refuse"
        if in_phase(table, Phase.EVENTS):
            return "done"
        if seat == 0 and in_phase(table, Phase.DIPLOMACY):
            assert self.harness is not None and table.game is not None
            theirs = self.harness.tables[1].game
            assert theirs is not None
            self.offered.append(f"offer 1 give {table.game.hand(0)[0]} get {theirs.hand(1)[0]}")
            return self.offered[0]
        if in_phase(table, Phase.DIPLOMACY):  # seat 1's bot, which trades, offers nothing first
            return "done"
        return None


def traded(seed: int, *, accepts: bool) -> tuple[CaptainsHarness, Trade]:
    trade = Trade(accepts)
    harness = trade.harness = CaptainsHarness(2, seed, searches=False, script=trade)
    harness.play(until=lambda: bool(trade.offered) and not any(
        in_phase(t, Phase.ANSWER) for t in harness.tables))
    harness.deliver()
    return harness, trade


def moves_named(table: Table, verb: str) -> list[log_pb2.MovePlayed]:
    return [body for _, body in bodies(table, "move") if body.move.split()[0] == verb]


def test_an_accepted_offer_moves_the_cards_it_shows_between_hands_on_every_peer() -> None:
    harness, trade = traded(seed=7, accepts=True)
    _, _, _, give, _, get = trade.offered[0].split()
    for table in harness.tables:
        (offer,) = moves_named(table, "offer")
        (accept,) = moves_named(table, "accept")
        assert [c.WhichOneof("shown") for c in offer.cards] in (["reveal"], ["known"])
        assert [c.WhichOneof("shown") for c in accept.cards] in (["reveal"], ["known"])
        dealer = table.dealer
        assert dealer is not None
        names = [[dealer.face_up.get(card) for card in hand] for hand in dealer.hands]
        assert give in names[1] and get in names[0], names
    tables = harness.tables
    assert tables[0].game is not None and tables[1].game is not None
    assert give in tables[1].game.hand(1) and get in tables[0].game.hand(0)
    harness.play()
    assert_same_end(harness)
    assert verify(records(harness.tables[0])).fair


def test_a_refused_offer_leaves_the_offered_card_face_up_in_the_offerers_hand() -> None:
    harness, trade = traded(seed=8, accepts=False)
    give = trade.offered[0].split()[3]
    for table in harness.tables:
        dealer = table.dealer
        assert dealer is not None
        assert give in [dealer.face_up.get(card) for card in dealer.hands[0]]
        assert not moves_named(table, "accept")
    harness.play()
    assert_same_end(harness)


def test_a_seat_silent_when_its_hand_is_to_be_shown_is_put_out_and_the_game_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stack_captains(monkeypatch, 3, {0: LOOK})  # seat 0 looks at seat 1's hand at once
    harness = Departing("standard", 3, seed=40, game="captains", doomed=(1, HAND_SHOWN))
    harness.bots = [Looker(40 + seat, searches=False) for seat in range(3)]  # type: ignore[misc]
    harness.run()
    assert harness.dead == {1}, "seat 1's hand was never to be shown"
    live = harness.live()
    for table in live:
        assert table.halt is None and table.over, (table.halt, table.waiting())
        assert table.game is not None and table.game.outcome is not None
        assert 1 in table.out and table.out[1].at == rule_of(HAND_SHOWN).words
    assert len({table.record_hash() for table in live}) == 1
    text = "\n".join(verify(records(live[0])).lines())
    assert "seat 1 (seat1) silent at showing a hand" in text, text


def handed_reveals(table: Table) -> int:
    """How many cards were played face up by a seat they were handed to (not dealt to)."""
    dealt = dealt_to(table)
    count = 0
    for seat, body in bodies(table, "move"):
        for card in body.cards:
            if card.WhichOneof("shown") == "reveal":
                count += dealt[(card.deck, crypto.Reveal.decode(card.reveal).slot)] != seat
    return count


def test_a_card_handed_to_a_conqueror_is_later_played_face_up_with_an_ordinary_reveal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stack_captains(monkeypatch, 4)
    harness = CaptainsHarness(4, 0, searches=False)
    harness.play()
    assert handed_reveals(harness.tables[0]), "no handed card was played face up"
    assert any(body.viewer != seat for seat, body in bodies(harness.tables[0], "hand_shown"))
    assert_same_end(harness)
    assert verify(records(harness.tables[0])).fair


def test_a_pile_formed_again_leaves_the_cards_in_play_on_the_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stack_captains(monkeypatch, 5)  # every seat draws at each turn: the pile runs out
    harness = CaptainsHarness(5, 70, searches=False, options=("all-draw",))
    harness.play()
    dealer = harness.tables[0].dealer
    assert dealer is not None
    assert dealer.decks[0].round > 0, "no game formed the pile again"
    for table in harness.tables:  # the deck's pile holds what the game's does, no card in play
        assert table.dealer is not None and table.game is not None
        assert len(table.dealer.pile_positions(0)) == table.game.draw_pile_size  # type: ignore[attr-defined]
    assert_same_end(harness)
    assert verify(records(harness.tables[0])).fair
