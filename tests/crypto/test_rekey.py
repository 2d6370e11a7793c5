"""Re-keying a deck after a seat left: right away the others stand in for the leaver's shares
of every card still in the pile (each with its stand-in part and proof, combined by
Lagrange), and at the next reshuffle the leaver's key comes off every hidden card that comes
back, by its recorded share (or, for a card with none, by the others' parts then); the new
round is keyed, shuffled, dealt and audited by them alone."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from condottiere.crypto import (
    BoxSecret,
    Context,
    Dealing,
    SealedShare,
    StandInBatch,
    VerificationError,
    combine_stand_in,
    make_dealing,
    make_stand_in,
    open_piece,
    verification_key,
    verify_stand_in,
)
from condottiere.crypto.deck import Deck, ShareBatch, ShuffleStep, Slot
from condottiere.crypto.group import mul
from tests.crypto.test_deck import Table, deck_names


class Backed(Table):
    """A table whose seats backed their deck secrets up among the others (Feldman VSS)."""

    def __init__(self, seats: int, names: Sequence[str]) -> None:
        super().__init__(seats, names)
        boxes = [BoxSecret(bytes([seat + 1]) * 32) for seat in range(seats)]
        keys = [box.public for box in boxes]
        self.dealings: list[Dealing] = [
            make_dealing(deck.secret, keys, Context(deck.table, 0, seat))
            for seat, deck in enumerate(self.decks)
        ]
        self.pieces = {
            (dealer, seat): open_piece(
                self.dealings[dealer], self.decks[0].keys[dealer], boxes[seat], seat,
                Context(self.decks[0].table, 0, dealer),
            )
            for dealer in range(seats)
            for seat in range(seats)
            if seat != dealer
        }

    def shuffle_chain(self, chain: Sequence[int]) -> None:
        for seat in chain:
            maker = self.decks[seat]
            step = maker.make_shuffle()
            for deck in (d for d in self.decks if d.round == maker.round):
                deck.accept_shuffle(seat, ShuffleStep.decode(step.encode(), len(deck.cards)))

    def live(self, members: Sequence[int]) -> list[Deck]:
        return [self.decks[seat] for seat in members]

    def parts(self, leaver: int, members: Sequence[int]) -> dict[int, StandInBatch]:
        """Every remaining seat's stand-in batch for the cards the new round owes ``leaver``."""
        deck = self.decks[members[0]]
        cards = deck.rekey_owed()[leaver]
        return {
            seat: make_stand_in(
                self.pieces[(leaver, seat)], leaver, cards, Context(deck.table, deck.round, seat)
            )
            for seat in members
        }

    def check(self, leaver: int, seat: int, batch: StandInBatch) -> None:
        deck = self.decks[seat if seat != leaver else 0]
        key = verification_key(self.dealings[leaver], deck.keys[leaver], seat)
        context = Context(deck.table, deck.round, seat)
        verify_stand_in(batch, leaver, key, deck.rekey_owed()[leaver], context)

    def rekey(self, leaver: int, members: Sequence[int]) -> None:
        batches = self.parts(leaver, members)
        for seat, batch in batches.items():
            self.check(leaver, seat, StandInBatch.decode(batch.encode()))
        shares = combine_stand_in(batches, len(self.decks))
        for deck in self.live(members):
            deck.rekey(leaver, shares)


def reshuffle_after(table: Backed, leaver: int, dealt: int) -> tuple[list[int], list[Slot]]:
    """Deal ``dealt`` cards round robin to the others, reveal one, then put every card but
    the leaver's hand back (the revealed one face up) once the leaver is gone."""
    seats = len(table.decks)
    members = [seat for seat in range(seats) if seat != leaver]
    table.shuffle_all()
    hands = {seat: table.deal(seat, [p for p in range(dealt) if p % seats == seat])
             for seat in range(seats)}
    shown = hands[members[0]][0]
    table.reveal(members[0], shown)
    for deck in table.decks:
        deck.drop_seat(leaver)
    size = len(table.decks[0].cards)
    hidden = [Slot(0, p) for p in range(size) if p >= dealt or (p % seats not in (leaver,)
                                                                and Slot(0, p) != shown)]
    for deck in table.live(members):
        deck.reshuffle(hidden, [shown])
    return members, hidden


def shared_to_its_owner(table: Backed, members: list[int], position: int) -> int:
    """The member who owns ``position`` (the members in turn), once every other member made
    its share of that card for it and every member accepted them; that owner."""
    owner = members[position % len(members)]
    for maker in members:
        if maker != owner:
            wire = table.decks[maker].make_shares(owner, [position]).encode()
            for seat in members:
                table.decks[seat].accept_shares(maker, ShareBatch.decode(wire))
    return owner


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.integers(3, 5), data=st.data())
def test_a_rekeyed_deck_opens_with_the_remaining_keys_only(seats: int, data: st.DataObject) -> None:
    leaver = data.draw(st.integers(0, seats - 1), label="leaver")
    names = deck_names(3 * seats + 4)
    table = Backed(seats, names)
    members, hidden = reshuffle_after(table, leaver, dealt=2 * seats)
    deck = table.decks[members[0]]
    # the cards dealt to the others came back with the leaver's key off (its shares of them
    # are recorded); the cards never dealt wait for the others' parts
    assert sorted(deck.rekey_owed()) == [leaver]
    assert len(deck.rekey_owed()[leaver]) == len([s for s in hidden if s.position >= 2 * seats])
    with pytest.raises(ValueError, match="keyed out"):
        deck.make_shuffle()
    table.rekey(leaver, members)
    assert deck.rekey_owed() == {} and deck.members_of(1) == tuple(members)
    table.shuffle_chain(members)
    assert all(table.decks[seat].ready for seat in members)
    # every card of the new round, dealt to each remaining seat in turn, opens with the
    # shares of the other remaining seats alone: nobody asks the leaver for anything
    size = len(deck.cards)
    opened: Counter[str] = Counter()
    for position in range(size):
        owner = shared_to_its_owner(table, members, position)
        assert table.decks[owner].missing_shares(Slot(1, position)) == []
        opened[table.decks[owner].open(Slot(1, position))] += 1
    # the audit with the remaining secrets alone checks the re-keyed round whole, and
    # names its cards as the audit with every secret (the leaver's too) does
    secrets = {seat: table.decks[seat].secret for seat in members}
    cards = deck.audit_rekeyed(secrets)
    everyone = deck.audit([d.secret for d in table.decks])
    assert {slot: everyone[slot] for slot in cards} == cards
    assert Counter(cards[Slot(1, p)] for p in range(size)) == opened


def test_a_rekeyed_round_keeps_exactly_the_cards_that_came_back() -> None:
    names = deck_names(14)
    table = Backed(4, names)
    members, hidden = reshuffle_after(table, 3, dealt=8)
    table.rekey(3, members)
    table.shuffle_chain(members)
    # every secret, the leaver's too: the whole game checks out
    everyone = table.decks[0].audit([deck.secret for deck in table.decks])
    back = Counter(everyone[slot] for slot in hidden) + Counter([everyone[Slot(0, 0)]])
    assert Counter(everyone[Slot(1, p)] for p in range(len(hidden) + 1)) == back


def test_a_wrong_rekey_part_is_blamed_on_its_seat() -> None:
    table = Backed(4, deck_names(14))
    members, _ = reshuffle_after(table, 1, dealt=8)
    batches = table.parts(1, members)
    deck = table.decks[0]
    wrong = make_stand_in(12345, 1, deck.rekey_owed()[1], Context(deck.table, deck.round, 2))
    with pytest.raises(VerificationError) as err:
        table.check(1, 2, wrong)
    assert err.value.seat == 2
    for seat, batch in batches.items():
        table.check(1, seat, batch)  # the honest ones pass


def test_parts_for_the_cards_of_another_round_do_not_rekey() -> None:
    table = Backed(3, deck_names(10))
    reshuffle_after(table, 2, dealt=3)
    deck = table.decks[0]
    cards = deck.rekey_owed()[2]
    stale = make_stand_in(table.pieces[(2, 1)], 2, cards, Context(deck.table, 0, 1))
    with pytest.raises(VerificationError) as err:
        table.check(2, 1, stale)
    assert err.value.seat == 1


def test_rekey_takes_the_shares_of_exactly_the_cards_owed() -> None:
    table = Backed(3, deck_names(10))
    reshuffle_after(table, 0, dealt=3)
    deck = table.decks[1]
    owed = deck.rekey_owed()[0]
    some = dict(list({p: mul(7, c[0]) for p, c in owed.items()}.items())[1:])
    with pytest.raises(ValueError, match="exactly positions"):
        deck.rekey(0, some)
    with pytest.raises(ValueError, match="owes nothing"):
        deck.rekey(1, some)
    assert deck.rekey_owed() == {0: owed}


def test_a_shuffle_of_a_rekeyed_round_that_changes_a_card_is_blamed_by_the_partial_audit() -> (
    None
):
    table = Backed(4, deck_names(14))
    members, _ = reshuffle_after(table, 3, dealt=8)
    table.rekey(3, members)
    table.shuffle_chain(members[:1])
    deck = table.decks[0]
    # a peer took the second shuffler's step unverified (as it does for a step it verified
    # before): the step swapped a card for a copy of another one
    step = table.decks[members[1]].make_shuffle()
    forged = list(step.deck)
    forged[0] = forged[1]
    deck.accept_shuffle(members[1], ShuffleStep(tuple(forged), step.proof), verify=False)
    secrets = {seat: table.decks[seat].secret for seat in members}
    with pytest.raises(VerificationError) as err:
        deck.audit_rekeyed(secrets)
    assert err.value.seat == members[1]


def test_the_pile_stood_in_for_at_once_comes_back_keyed_without_the_leaver() -> None:
    """Right after seat 1 of 4 leaves, the others stand in for its shares of every card of
    the round that still needs one (the cards in the pile: those dealt have its share, its
    own leave the game): the next reshuffle owes it nothing, and the new round opens and
    audits with the remaining secrets alone."""
    table = Backed(4, deck_names(14))
    members = [0, 2, 3]
    table.shuffle_all()
    dealt = {seat: table.deal(seat, [p for p in range(8) if p % 4 == seat]) for seat in range(4)}
    for deck in table.decks:
        deck.drop_seat(1)
    deck = table.decks[0]
    unshared = deck.unshared(1)
    assert sorted(unshared) == list(range(8, 14))
    assert deck.shared(dealt[2][0], 1) and deck.shared(dealt[1][0], 1)
    assert not deck.shared(Slot(0, 8), 1) and not deck.shared(Slot(0, 8), 0)
    batches = {
        seat: make_stand_in(table.pieces[(1, seat)], 1, unshared, Context(deck.table, 0, seat))
        for seat in members
    }
    for seat, batch in batches.items():
        key = verification_key(table.dealings[1], deck.keys[1], seat)
        verify_stand_in(batch, 1, key, unshared, Context(deck.table, 0, seat))
    shares = combine_stand_in(batches, 4)
    for live in table.live(members):
        live.record_stand_in(1, shares, {})
        assert live.unshared(1) == {}
    hidden = [Slot(0, p) for p in range(14) if p % 4 != 1 or p >= 8]
    for live in table.live(members):
        live.reshuffle(hidden, [])
    assert deck.rekey_owed() == {} and deck.members_of(1) == tuple(members)
    table.shuffle_chain(members)
    opened: Counter[str] = Counter()
    for position in range(len(hidden)):
        owner = shared_to_its_owner(table, members, position)
        opened[table.decks[owner].open(Slot(1, position))] += 1
    everyone = deck.audit([d.secret for d in table.decks])
    assert opened == Counter(everyone[slot] for slot in hidden)
    cards = deck.audit_rekeyed({seat: table.decks[seat].secret for seat in members})
    assert {slot: everyone[slot] for slot in cards} == cards and len(cards) == len(hidden)


def test_a_card_the_leaver_handed_on_is_not_stood_in_for_and_its_holder_still_shows_it() -> (
    None
):
    """Seat 1 of 4 hands a card dealt to it over to seat 2, then leaves: its share of that
    card is the card's hidden part, now seat 2's, so the others stand in for the pile alone
    (standing in for it too would show seat 2's card to everyone, and count the hidden part
    twice), and seat 2's reveal of it still checks out on every deck."""
    table = Backed(4, deck_names(14))
    table.shuffle_all()
    dealt = {seat: table.deal(seat, [p for p in range(8) if p % 4 == seat]) for seat in range(4)}
    handed = dealt[1][0]
    card = table.decks[1].open(handed)
    wire = table.decks[1].make_sealed_share(handed, 2).encode()
    for deck in table.decks:
        deck.accept_sealed_share(1, SealedShare.decode(wire), handed=True)
    for deck in table.decks:
        deck.drop_seat(1)
    deck = table.decks[0]
    assert deck.owner_of(handed) == 2 and deck.shared(handed, 1)
    assert sorted(deck.unshared(1)) == list(range(8, 14))
    assert table.reveal(2, handed) == [card] * 4


@pytest.mark.parametrize("reshuffled", [False, True])
def test_a_round_whose_shuffle_a_seat_leaves_unfinished_is_formed_again_without_it(
    reshuffled: bool,
) -> None:
    """Seat 3 of four leaves after seat 0 shuffled a round (the first, or one formed again
    after a deal): the round starts again from its starting cards keyed by the three others
    (the cards dealt before come back by seat 3's recorded shares, the undealt ones once the
    others' parts take its key off), they alone shuffle it, and it deals and audits with
    their secrets alone: no card of it needs seat 3, so a second leaver is covered."""
    table = Backed(4, deck_names(14))
    members = [0, 1, 2]
    back: list[Slot] = []
    if reshuffled:
        table.shuffle_all()
        for seat in range(4):
            table.deal(seat, [p for p in range(8) if p % 4 == seat])
        back = [Slot(0, p) for p in range(14) if p % 4 != 3 or p >= 8]
        for deck in table.live(members):  # (the leaver's own deck stops here)
            deck.reshuffle(back, [])
    table.shuffle_chain([0])
    for deck in table.decks:
        deck.drop_seat(3)
    deck = table.decks[0]
    assert deck.next_shuffler == 0 and len(deck.cards) == (len(back) if reshuffled else 14)
    assert deck.members_of(deck.round) == (0, 1, 2)
    if reshuffled:
        assert sorted(deck.rekey_owed()[3]) == [p for p, s in enumerate(back) if s.position >= 8]
        table.rekey(3, members)
    assert deck.rekey_owed() == {}
    table.shuffle_chain(members)
    size = len(deck.cards)
    opened: Counter[str] = Counter()
    for position in range(size):
        owner = shared_to_its_owner(table, members, position)
        assert table.decks[owner].missing_shares(Slot(deck.round, position)) == []
        opened[table.decks[owner].open(Slot(deck.round, position))] += 1
    cards = deck.audit_rekeyed({seat: table.decks[seat].secret for seat in members})
    assert Counter(cards[Slot(deck.round, p)] for p in range(size)) == opened
    everyone = deck.audit([d.secret for d in table.decks])
    assert {slot: everyone[slot] for slot in cards} == cards
