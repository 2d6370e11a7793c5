"""The whole deal through the deck API: keys, shuffle chain, deal, reveal, reshuffle, audit."""

from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Sequence

import pytest

from condottiere import crypto
from condottiere.crypto import codec
from condottiere.crypto.deck import Claim, Deck, Reveal, ShareBatch, ShuffleStep, Slot
from condottiere.crypto.errors import DecodeError, VerificationError
from condottiere.crypto.keys import KeyAnnouncement

NAMES = ["1", "2", "3", "4", "5", "6", "10", "heroine", "spy", "drummer", "winter", "bishop"]


def deck_names(size: int) -> list[str]:
    """A deck with many identical cards, as the real editions have."""
    return [NAMES[i % len(NAMES)] for i in range(size)]


class Table:
    """Every seat's deck, with each message passed through its encoding to every seat."""

    def __init__(self, seats: int, names: Sequence[str], table: bytes = b"table-1") -> None:
        self.names = list(names)
        self.decks = [Deck(table, seats, seat, names) for seat in range(seats)]
        announcements = [
            KeyAnnouncement.decode(d.announcement.encode()) for d in self.decks
        ]
        for deck in self.decks:
            deck.accept_keys(announcements)

    def shuffle_all(self) -> None:
        for seat, maker in enumerate(self.decks):
            assert maker.next_shuffler == seat
            step = maker.make_shuffle()
            wire = step.encode()
            for deck in self.decks:
                received = step if deck is maker else ShuffleStep.decode(wire, len(deck.cards))
                deck.accept_shuffle(seat, received)
        assert all(deck.ready for deck in self.decks)

    def deal(self, owner: int, positions: Sequence[int]) -> list[Slot]:
        for maker in self.decks:
            if maker.seat != owner:
                wire = maker.make_shares(owner, positions).encode()
                for deck in self.decks:
                    deck.accept_shares(maker.seat, ShareBatch.decode(wire))
        round_ = self.decks[0].round
        return [Slot(round_, p) for p in positions]

    def reveal(self, owner: int, slot: Slot) -> list[str]:
        wire = self.decks[owner].make_reveal(slot).encode()
        return [deck.accept_reveal(owner, Reveal.decode(wire)) for deck in self.decks]

    def audit(self, claims: Sequence[Claim] = ()) -> dict[Slot, str]:
        secrets = [deck.secret for deck in self.decks]
        first, last = (deck.audit(secrets, claims) for deck in (self.decks[0], self.decks[-1]))
        assert first == last
        return first


def deal_round_robin(table: Table, count: int) -> dict[int, list[Slot]]:
    seats = len(table.decks)
    hands = {
        seat: table.deal(seat, [p for p in range(count) if p % seats == seat])
        for seat in range(seats)
    }
    return hands


CASES = [(seats, 23) for seats in range(2, 7)] + [(3, 96), (6, 110)]


@pytest.mark.parametrize(("seats", "size"), CASES)
def test_every_seat_opens_exactly_its_own_cards_and_together_they_are_the_deck(
    seats: int, size: int
) -> None:
    table = Table(seats, deck_names(size))
    table.shuffle_all()
    hands = deal_round_robin(table, size)
    opened: Counter[str] = Counter()
    for seat, slots in hands.items():
        deck = table.decks[seat]
        opened.update(deck.open(slot) for slot in slots)
        other = table.decks[(seat + 1) % seats]
        with pytest.raises(ValueError, match="not dealt to"):
            other.open(slots[0])
    assert opened == Counter(deck_names(size))
    for seat, slots in hands.items():
        names = table.reveal(seat, slots[0])
        assert names == [table.decks[seat].known_card(slots[0])] * seats
    cards = table.audit()
    assert Counter(cards.values()) == Counter(deck_names(size))


def test_shuffle_chain_runs_seat_by_seat_and_moves_the_cards() -> None:
    table = Table(3, deck_names(12))
    start = table.decks[0].cards
    assert [d.next_shuffler for d in table.decks] == [0, 0, 0]
    with pytest.raises(ValueError, match="not the one to shuffle"):
        table.decks[1].make_shuffle()
    table.shuffle_all()
    assert table.decks[0].next_shuffler is None
    assert not set(start) & set(table.decks[0].cards)
    assert len({d.cards for d in table.decks}) == 1


def test_cards_cannot_be_dealt_before_every_seat_has_shuffled() -> None:
    table = Table(2, deck_names(5))
    with pytest.raises(ValueError, match="shuffled"):
        table.decks[0].make_shares(1, [0])


def test_a_seat_never_makes_shares_of_its_own_cards() -> None:
    table = Table(2, deck_names(5))
    table.shuffle_all()
    with pytest.raises(ValueError, match="own cards"):
        table.decks[0].make_shares(0, [0])


def test_opening_waits_for_every_other_seats_share() -> None:
    table = Table(3, deck_names(6))
    table.shuffle_all()
    wire = table.decks[1].make_shares(0, [2]).encode()
    table.decks[0].accept_shares(1, ShareBatch.decode(wire))
    assert table.decks[0].missing_shares(Slot(0, 2)) == [2]
    with pytest.raises(ValueError, match=r"needs shares from seats \[2\]"):
        table.decks[0].open(Slot(0, 2))


def test_partial_reshuffle_keeps_kept_cards_out_and_loses_nothing() -> None:
    names = deck_names(24)
    table = Table(3, names)
    table.shuffle_all()
    hands = {seat: table.deal(seat, range(4 * seat, 4 * seat + 4)) for seat in range(3)}
    for deck in table.decks:
        for slot in hands[deck.seat]:
            deck.open(slot)
    face_up = [hands[0][0], hands[1][0]]
    for slot, seat in zip(face_up, (0, 1), strict=True):
        table.reveal(seat, slot)
    kept = hands[0][1:] + hands[1][1:]
    discarded_hidden = hands[2]
    undealt = [Slot(0, p) for p in range(12, 24)]
    hidden = undealt + discarded_hidden
    old_ciphertexts = [table.decks[0].cards[slot.position] for slot in hidden]
    for deck in table.decks:
        deck.reshuffle(hidden, face_up)
        assert deck.round == 1 and deck.next_shuffler == 0
        # Hidden cards go back as the very ciphertexts they were: nothing is decrypted.
        assert list(deck.cards[: len(hidden)]) == old_ciphertexts
    table.shuffle_all()
    size = len(hidden) + len(face_up)
    new_hands = {seat: table.deal(seat, range(seat, size, 3)) for seat in range(3)}
    new_cards: Counter[str] = Counter()
    for seat, slots in new_hands.items():
        new_cards.update(table.decks[seat].open(slot) for slot in slots)
    kept_cards = Counter(table.decks[s.position // 4].known_card(s) for s in kept)
    assert new_cards + kept_cards == Counter(names)
    cards = table.audit()
    assert Counter(cards[s] for s in kept) == kept_cards
    assert Counter(cards[Slot(1, p)] for p in range(size)) == new_cards


def test_a_card_goes_back_into_the_deck_only_once() -> None:
    table = Table(2, deck_names(6))
    table.shuffle_all()
    table.decks[0].reshuffle([Slot(0, 0), Slot(0, 1)], [])
    with pytest.raises(ValueError, match="only once"):
        table.decks[1].reshuffle([Slot(0, 0), Slot(0, 0)], [])
    table.decks[1].reshuffle([Slot(0, 0), Slot(0, 1)], [])
    table.shuffle_all()
    with pytest.raises(ValueError, match="already went back"):
        table.decks[0].reshuffle([Slot(0, 1)], [])


def test_only_a_revealed_card_comes_back_face_up() -> None:
    table = Table(2, deck_names(6))
    table.shuffle_all()
    with pytest.raises(ValueError, match="never revealed"):
        table.decks[0].reshuffle([], [Slot(0, 0)])


def test_audit_returns_every_card_and_checks_claims() -> None:
    table = Table(3, deck_names(9))
    table.shuffle_all()
    slots = table.deal(2, [4, 5])
    card = table.decks[2].open(slots[0])
    cards = table.audit([Claim(2, slots[0], card)])
    assert len(cards) == 9 and cards[slots[0]] == card


def test_decoding_refuses_malformed_deck_messages() -> None:
    table = Table(2, deck_names(4))
    table.shuffle_all()
    batch = table.decks[0].make_shares(1, [1, 3]).encode()
    step_len = len(table.decks[0].cards)
    for bad in (batch[:-1], batch + b"\x00", batch[:12] + batch[16:20] + batch[12:16] + batch[20:]):
        with pytest.raises(DecodeError):
            ShareBatch.decode(bad)
    with pytest.raises(DecodeError):
        ShuffleStep.decode(b"\x00" * 10, step_len)
    table.deal(1, [1])
    reveal = table.decks[1].make_reveal(Slot(0, 1)).encode()
    assert Reveal.decode(reveal).encode() == reveal
    for bad in (reveal[:-1], reveal + b"\x00"):
        with pytest.raises(DecodeError):
            Reveal.decode(bad)


def test_audit_blames_a_seat_whose_revealed_secret_is_not_its_key() -> None:
    table = Table(3, deck_names(5))
    table.shuffle_all()
    secrets = [deck.secret for deck in table.decks]
    secrets[1] += 1
    with pytest.raises(VerificationError) as err:
        table.decks[0].audit(secrets)
    assert err.value.seat == 1


def test_package_exports_every_public_name_of_every_crypto_module() -> None:
    modules = ["cards", "codec", "coin", "context", "deck", "elgamal", "errors", "group",
               "identity", "keys", "shares", "shuffle"]
    for name in modules:
        module = importlib.import_module(f"crypto.{name}")
        assert set(module.__all__) <= set(crypto.__all__), name
    assert all(hasattr(crypto, name) for name in crypto.__all__)
    assert crypto.decode_point is codec.decode_point


def _tamper(batch: ShareBatch, index: int) -> ShareBatch:
    """The batch with the ``index``-th share replaced by another position's share."""
    shares = list(batch.shares)
    shares[index] = shares[(index + 1) % len(shares)]
    return ShareBatch(batch.round, batch.owner, batch.positions, tuple(shares))


def test_shares_recorded_unverified_are_checked_when_their_card_is_opened() -> None:
    table = Table(3, deck_names(12))
    table.shuffle_all()
    owner, positions = 0, [0, 1, 2]
    for maker in table.decks[1:]:
        batch = maker.make_shares(owner, positions)
        if maker.seat == 2:
            batch = _tamper(batch, 1)
        for deck in table.decks:
            deck.accept_shares(maker.seat, batch, verify=False)  # nothing checked yet
    table.decks[owner].open(Slot(0, 0))  # its shares verify
    with pytest.raises(VerificationError) as caught:
        table.decks[owner].open(Slot(0, 1))
    assert caught.value.seat == 2


def test_unverified_shares_are_checked_before_their_card_is_shown_and_blame_their_maker() -> None:
    table = Table(3, deck_names(12))
    table.shuffle_all()
    for maker in table.decks[1:]:
        batch = maker.make_shares(0, [4, 5])
        for deck in table.decks:
            deck.accept_shares(
                maker.seat, _tamper(batch, 0) if maker.seat == 1 else batch, verify=False
            )
    with pytest.raises(VerificationError) as caught:  # the owner cannot even open it
        table.decks[0].make_reveal(Slot(0, 4))
    assert caught.value.seat == 1
    other = table.decks[2]
    honest_card = Reveal(Slot(0, 4), "1", table.decks[1].make_shares(2, [9]).shares[0])
    with pytest.raises(VerificationError) as caught:  # another seat checks them before a reveal
        other.check_reveal(0, honest_card)
    assert caught.value.seat == 1


def test_check_reveal_records_nothing_and_accept_reveal_records_the_card() -> None:
    table = Table(2, deck_names(6))
    table.shuffle_all()
    slot = table.deal(0, [3])[0]
    wire = table.decks[0].make_reveal(slot).encode()
    watcher = table.decks[1]
    card = watcher.check_reveal(0, Reveal.decode(wire))
    assert watcher.known_card(slot) is None
    assert watcher.accept_reveal(0, Reveal.decode(wire)) == card == watcher.known_card(slot)


def test_a_watching_deck_checks_everything_and_audits_the_game() -> None:
    names = deck_names(8)
    table = Table(3, names)
    watcher = Deck.watch(b"table-1", 3, names)
    watcher.accept_keys([deck.announcement for deck in table.decks])
    for seat, maker in enumerate(table.decks):
        step = maker.make_shuffle()
        for deck in [*table.decks, watcher]:
            deck.accept_shuffle(seat, step)
    for maker in table.decks[1:]:
        batch = maker.make_shares(0, [0, 1])
        for deck in [*table.decks, watcher]:
            deck.accept_shares(maker.seat, batch, verify=deck is not watcher)
    reveal = table.decks[0].make_reveal(Slot(0, 1))
    assert watcher.accept_reveal(0, reveal) == reveal.card
    cards = watcher.audit([deck.secret for deck in table.decks])
    assert Counter(cards.values()) == Counter(names)
    for make in (watcher.make_shuffle, lambda: watcher.make_shares(0, [2])):
        with pytest.raises(ValueError, match="only watches"):
            make()
    with pytest.raises(ValueError, match="only watches"):
        _ = watcher.secret


def test_a_step_already_verified_can_be_accepted_again_without_its_proof() -> None:
    names = deck_names(6)
    table = Table(2, names)
    steps = []
    for seat, maker in enumerate(table.decks):
        steps.append(maker.make_shuffle())
        for deck in table.decks:
            deck.accept_shuffle(seat, steps[-1])
    restarted = Deck(b"table-1", 2, 0, names, secret=table.decks[0].secret)
    restarted.accept_keys([deck.announcement for deck in table.decks])
    for seat, step in enumerate(steps):
        restarted.accept_shuffle(seat, step, verify=False)
    assert restarted.cards == table.decks[0].cards


def test_a_step_made_ahead_becomes_the_seats_step_and_verifies_for_every_seat() -> None:
    table = Table(3, deck_names(6))
    first = table.decks[0].make_shuffle()
    wire = first.encode()
    ahead = table.decks[1].make_shuffle_ahead(ShuffleStep.decode(wire, 6))
    for deck in table.decks:
        deck.accept_shuffle(0, first if deck is table.decks[0] else ShuffleStep.decode(wire, 6))
    assert table.decks[1].make_shuffle() is ahead
    for deck in (table.decks[0], table.decks[2]):
        deck.accept_shuffle(1, ShuffleStep.decode(ahead.encode(), 6))
    assert table.decks[0].cards == table.decks[2].cards == ahead.deck


def test_a_step_made_ahead_of_a_step_that_is_refused_is_never_used() -> None:
    table = Table(3, deck_names(6))
    honest = table.decks[0].make_shuffle()
    forged = ShuffleStep((honest.deck[1], honest.deck[0], *honest.deck[2:]), honest.proof)
    ahead = table.decks[1].make_shuffle_ahead(forged)
    with pytest.raises(VerificationError):
        table.decks[1].accept_shuffle(0, forged)
    assert table.decks[1].next_shuffler == 0  # the forged step changed nothing
    table.decks[1].accept_shuffle(0, honest)
    mine = table.decks[1].make_shuffle()
    assert mine is not ahead and mine.deck != ahead.deck
    table.decks[2].accept_shuffle(0, honest)
    table.decks[2].accept_shuffle(1, mine)
