"""Decryption for a seat that left: the remaining seats' parts, their proofs, whom a bad part
blames, and the combined share that opens a real card of the deck."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from condottiere.crypto.context import Context
from condottiere.crypto.deck import Deck, ShareBatch, Slot
from condottiere.crypto.elgamal import Ciphertext, encrypt
from condottiere.crypto.errors import DecodeError, VerificationError
from condottiere.crypto.group import (
    IDENTITY,
    L,
    Point,
    hash_to_point,
    mul,
    mul_base,
    multi_mul,
    random_scalar,
    sub,
)
from condottiere.crypto.sealing import BoxSecret
from condottiere.crypto.shares import make_share, share_point, unblind
from condottiere.crypto.standin import (
    StandInBatch,
    StandInPart,
    combine_stand_in,
    make_stand_in,
    verify_stand_in,
)
from condottiere.crypto.vss import (
    Dealing,
    evaluation_point,
    lagrange_at_zero,
    make_dealing,
    open_piece,
    verification_key,
)
from tests.crypto.test_vss import Seats

ROUND = 3


class Leaver:
    """A table whose seat ``leaver`` dealt its backup and left: the remaining seats' pieces,
    their verification keys, and each step of the stand-in, through the bytes."""

    def __init__(self, n: int, leaver: int) -> None:
        self.seats = Seats(n)
        self.n, self.leaver = n, leaver
        self.dealing = self.seats.deal(leaver)
        self.remaining = self.seats.others(leaver)
        self.pieces = {j: self.seats.open(self.dealing, leaver, j) for j in self.remaining}
        self.keys = {
            j: verification_key(self.dealing, self.seats.keys[leaver], j) for j in self.remaining
        }

    @property
    def secret(self) -> int:
        return self.seats.secrets[self.leaver]

    def context(self, seat: int, round_: int = ROUND) -> Context:
        return Context(self.seats.table, round_, seat)

    def make(self, seat: int, cards: dict[int, Ciphertext]) -> StandInBatch:
        made = make_stand_in(self.pieces[seat], self.leaver, cards, self.context(seat))
        return StandInBatch.decode(made.encode())

    def verify(self, seat: int, batch: StandInBatch, cards: dict[int, Ciphertext]) -> None:
        verify_stand_in(batch, self.leaver, self.keys[seat], cards, self.context(seat))

    def stand_in(self, cards: dict[int, Ciphertext]) -> dict[int, Point]:
        batches = {}
        for seat in self.remaining:
            batch = self.make(seat, cards)
            self.verify(seat, batch, cards)
            batches[seat] = batch
        return combine_stand_in(batches, self.n)


def some_cards(count: int, key: Point | None = None) -> dict[int, Ciphertext]:
    key = key or mul_base(random_scalar())
    return {
        5 * i + 1: encrypt(hash_to_point(b"test-card", bytes([i])), key, random_scalar())
        for i in range(count)
    }


def blamed(action: Callable[[], object]) -> VerificationError:
    with pytest.raises(VerificationError) as err:
        action()
    return err.value


# -- the combined share is the leaver's share ------------------------------------------------


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_the_combined_share_is_exactly_the_leavers_share(n: int) -> None:
    for leaver in range(n):
        table = Leaver(n, leaver)
        cards = some_cards(3)
        shares = table.stand_in(cards)
        assert shares == {p: share_point(table.secret, c) for p, c in cards.items()}


@settings(max_examples=20, deadline=None)
@given(st.integers(3, 6), st.data())
def test_the_combined_share_is_the_leavers_share_for_any_card(n: int, data: st.DataObject) -> None:
    table = Leaver(n, data.draw(st.integers(0, n - 1)))
    position = data.draw(st.integers(0, 2**32 - 1))
    a = mul_base(data.draw(st.integers(1, L - 1)))
    card = (a, mul_base(data.draw(st.integers(1, L - 1))))
    assert table.stand_in({position: card}) == {position: mul(table.secret, a)}


def test_a_card_of_a_real_deck_opens_with_the_stand_in_share_instead_of_the_leavers() -> None:
    """Three seats shuffle a real deck; each deals its backup; a card is dealt to seat 0 and
    seat 1 gives its share, but seat 2 leaves first: seats 0 and 1 stand in for it, and seat
    0 opens its card from seat 1's share, its own, and the combined stand-in share."""
    names = ["1", "2", "3", "10", "heroine", "spy", "drummer", "winter"] * 2
    table = b"standin-deck"
    decks = [Deck(table, 3, seat, names) for seat in range(3)]
    for deck in decks:
        deck.accept_keys([d.announcement for d in decks])
    for seat, maker in enumerate(decks):
        step = maker.make_shuffle()
        for deck in decks:
            deck.accept_shuffle(seat, step)
    boxes = [BoxSecret.generate() for _ in range(3)]
    box_keys = [b.public for b in boxes]
    leaver, owner, position = 2, 0, 4
    dealing = Dealing.decode(
        make_dealing(decks[leaver].secret, box_keys, Context(table, 0, leaver)).encode(), 3
    )
    pieces = {
        j: open_piece(dealing, decks[j].keys[leaver], boxes[j], j, Context(table, 0, leaver))
        for j in (0, 1)
    }

    batch = ShareBatch.decode(decks[1].make_shares(owner, [position]).encode())
    for deck in decks[:2]:
        deck.accept_shares(1, batch)
    slot = Slot(decks[0].round, position)
    assert decks[0].missing_shares(slot) == [leaver]

    ciphertext = decks[0].cards[position]
    stand_ins = {}
    for j in (0, 1):
        context = Context(table, slot.round, j)
        made = StandInBatch.decode(
            make_stand_in(pieces[j], leaver, {position: ciphertext}, context).encode()
        )
        key = verification_key(dealing, decks[0].keys[leaver], j)
        for deck in decks[:2]:  # every remaining seat checks every part
            verify_stand_in(made, leaver, key, {position: deck.cards[position]}, context)
        stand_ins[j] = made
    stand_in = combine_stand_in(stand_ins, 3)[position]

    point = unblind(
        ciphertext,
        [batch.shares[0].share, share_point(decks[owner].secret, ciphertext), stand_in],
    )
    name = decks[owner].codebook.name_of(point)
    assert name is not None
    secrets = [deck.secret for deck in decks]
    assert decks[0].audit(secrets)[slot] == name  # the card the whole key decrypts
    assert stand_in == share_point(decks[leaver].secret, ciphertext)


# -- bad parts are blamed on their author ------------------------------------------------------


def _replace_part(batch: StandInBatch, index: int, **changes: Any) -> StandInBatch:
    parts = list(batch.parts)
    parts[index] = dataclasses.replace(parts[index], **changes)
    return dataclasses.replace(batch, parts=tuple(parts))


def test_a_part_for_a_wrong_scalar_is_refused_even_with_an_honest_proof_for_it() -> None:
    table = Leaver(4, 1)
    cards = some_cards(2)
    liar = table.remaining[1]
    wrong = make_stand_in(table.pieces[liar] + 1, 1, cards, table.context(liar))
    assert blamed(lambda: table.verify(liar, wrong, cards)).seat == liar
    swapped = _replace_part(
        table.make(liar, cards), 0, part=mul(table.pieces[liar] + 1, cards[1][0])
    )
    assert blamed(lambda: table.verify(liar, swapped, cards)).seat == liar


def test_a_part_for_another_card_is_refused() -> None:
    table = Leaver(3, 0)
    cards = some_cards(2)
    seat = table.remaining[0]
    batch = table.make(seat, cards)
    first, second = sorted(cards)
    moved = {first: cards[second], second: cards[first]}  # the same positions, other cards
    assert blamed(lambda: table.verify(seat, batch, moved)).seat == seat
    other = {first: some_cards(1)[1], second: cards[second]}
    assert blamed(lambda: table.verify(seat, batch, other)).seat == seat
    shifted = dataclasses.replace(batch, positions=(first + 1, second))
    shifted_cards = {first + 1: cards[first], second: cards[second]}
    assert blamed(lambda: table.verify(seat, shifted, shifted_cards)).seat == seat


@pytest.mark.parametrize(
    "forge",
    [
        pytest.param(lambda p: {"challenge": random_scalar()}, id="random-challenge"),
        pytest.param(lambda p: {"response": random_scalar()}, id="random-response"),
        pytest.param(lambda p: {"challenge": p.challenge + L}, id="challenge-plus-L"),
        pytest.param(lambda p: {"response": p.response + L}, id="response-plus-L"),
        pytest.param(lambda p: {"response": 0}, id="zero-response"),
        pytest.param(lambda p: {"challenge": 0}, id="zero-challenge"),
        pytest.param(lambda p: {"part": IDENTITY}, id="identity-part"),
        pytest.param(lambda p: {"part": bytes(32)}, id="not-a-point"),
    ],
)
def test_a_forged_or_malformed_proof_is_refused(
    forge: Callable[[StandInPart], dict[str, Any]],
) -> None:
    table = Leaver(4, 3)
    cards = some_cards(1)
    seat = table.remaining[2]
    batch = table.make(seat, cards)
    bad = _replace_part(batch, 0, **forge(batch.parts[0]))
    assert blamed(lambda: table.verify(seat, bad, cards)).seat == seat


def test_a_proof_with_a_made_up_key_does_not_pass_for_the_seats_piece() -> None:
    """A seat without its piece picks any scalar, with a valid proof for *that* key: the
    verifier uses the key computed from the leaver's commitments, so it fails."""
    table = Leaver(3, 1)
    cards = some_cards(1)
    seat = table.remaining[0]
    made_up = make_stand_in(random_scalar(), 1, cards, table.context(seat))
    assert blamed(lambda: table.verify(seat, made_up, cards)).seat == seat


@pytest.mark.parametrize(
    "elsewhere",
    [
        pytest.param(lambda c: dataclasses.replace(c, round=c.round + 1), id="another-round"),
        pytest.param(lambda c: dataclasses.replace(c, table=b"elsewhere"), id="another-table"),
        pytest.param(lambda c: c.for_seat(c.seat ^ 1), id="another-seat"),
    ],
)
def test_a_part_replayed_from_another_context_is_refused(
    elsewhere: Callable[[Context], Context],
) -> None:
    table = Leaver(4, 2)
    cards = some_cards(2)
    seat = 0
    made = make_stand_in(table.pieces[seat], 2, cards, elsewhere(table.context(seat)))
    replayed = dataclasses.replace(made, round=ROUND)
    assert blamed(lambda: table.verify(seat, replayed, cards)).seat == seat


def test_a_part_made_with_another_seats_piece_and_context_does_not_pass_as_ones_own() -> None:
    table = Leaver(4, 0)
    cards = some_cards(1)
    honest = table.make(1, cards)
    assert blamed(lambda: table.verify(2, honest, cards)).seat == 2


def test_a_decryption_share_does_not_pass_for_a_stand_in_part() -> None:
    table = Leaver(3, 2)
    cards = some_cards(1)
    (position, card), seat = next(iter(cards.items())), 1
    share = make_share(table.pieces[seat], table.keys[seat], card, position, table.context(seat))
    as_part = StandInPart(share.share, share.challenge, share.response)
    batch = StandInBatch(ROUND, 2, (position,), (as_part,))
    assert blamed(lambda: table.verify(seat, batch, cards)).seat == seat


def test_parts_for_other_cards_than_those_asked_for_are_refused() -> None:
    """Parts for a card that does not need the leaver's share (its own hidden card, say), or
    missing one that does, are blamed: a seat stands in for exactly the cards asked for."""
    table = Leaver(4, 1)
    cards = some_cards(3)
    seat = table.remaining[0]
    asked = dict(itertools.islice(cards.items(), 2))
    too_many = table.make(seat, cards)
    too_few = table.make(seat, dict(itertools.islice(cards.items(), 1)))
    for batch in (too_many, too_few):
        with pytest.raises(VerificationError, match="other cards") as err:
            table.verify(seat, batch, asked)
        assert err.value.seat == seat


def test_a_batch_for_another_leaver_or_round_is_refused() -> None:
    table = Leaver(4, 1)
    cards = some_cards(1)
    seat = 2
    batch = table.make(seat, cards)
    wrong_round = dataclasses.replace(batch, round=ROUND + 1)
    assert blamed(lambda: table.verify(seat, wrong_round, cards)).seat == seat
    for_present = make_stand_in(table.pieces[seat], 3, cards, table.context(seat))
    assert blamed(lambda: table.verify(seat, for_present, cards)).seat == seat
    for_itself = dataclasses.replace(batch, leaver=seat)
    err = blamed(
        lambda: verify_stand_in(for_itself, seat, table.keys[seat], cards, table.context(seat))
    )
    assert err.seat == seat


def test_a_seat_whose_piece_is_void_is_blamed_for_not_having_complained() -> None:
    """Commitments whose verification key for a seat is the identity admit no valid piece; a
    seat that let such a dealing pass cannot stand in, and is the one blamed."""
    table = Leaver(3, 0)
    cards = some_cards(1)
    batch = table.make(1, cards)
    err = blamed(lambda: verify_stand_in(batch, 0, IDENTITY, cards, table.context(1)))
    assert err.seat == 1
    assert "did not complain" in err.reason


def test_the_first_bad_part_of_a_long_batch_is_found_on_threads() -> None:
    table = Leaver(4, 0)
    cards = some_cards(40)
    seat = 3
    batch = table.make(seat, cards)
    table.verify(seat, batch, cards)
    for index in (0, 17, 39):
        bad = _replace_part(batch, index, response=(batch.parts[index].response + 1) % L)
        with pytest.raises(VerificationError, match=f"position {batch.positions[index]} ") as err:
            table.verify(seat, bad, cards)
        assert err.value.seat == seat


# -- no fewer than all remaining seats ---------------------------------------------------------


@pytest.mark.parametrize("n", [3, 4, 5])
def test_fewer_than_all_remaining_seats_cannot_combine(n: int) -> None:
    """The parts of a coalition short of one remaining seat, interpolated as if they were all,
    do not give the leaver's share; and the missing seat's part could be anything: for every
    target T there is a part that completes the others' to T."""
    table = Leaver(n, 0)
    cards = some_cards(1)
    (card,) = cards.values()
    batches = {seat: table.make(seat, cards) for seat in table.remaining}
    truth = share_point(table.secret, card)
    for coalition in itertools.combinations(table.remaining, n - 2):
        points = [evaluation_point(j) for j in coalition]
        parts = [batches[j].parts[0].part for j in coalition]
        assert multi_mul(lagrange_at_zero(points), parts) != truth
        with pytest.raises(ValueError, match="every other seat"):
            combine_stand_in({j: batches[j] for j in coalition}, n)
    missing = table.remaining[-1]
    others = table.remaining[:-1]
    coefficients = lagrange_at_zero([evaluation_point(j) for j in table.remaining])
    lam = dict(zip(table.remaining, coefficients, strict=True))
    target = mul_base(random_scalar())
    known = multi_mul([lam[j] for j in others], [batches[j].parts[0].part for j in others])
    completion = mul(pow(lam[missing], -1, L), sub(target, known))
    assert (
        multi_mul(
            [lam[j] for j in table.remaining],
            [*(batches[j].parts[0].part for j in others), completion],
        )
        == target
    )


def test_batches_that_do_not_fit_together_are_not_combined() -> None:
    table = Leaver(3, 1)
    cards = some_cards(2)
    a, b = table.make(0, cards), table.make(2, cards)
    with pytest.raises(ValueError, match="different"):
        combine_stand_in({0: a, 2: dataclasses.replace(b, round=ROUND + 1)}, 3)
    with pytest.raises(ValueError, match="every other seat"):
        combine_stand_in({0: a, 2: b}, 4)
    with pytest.raises(ValueError):
        combine_stand_in({}, 3)


# -- encodings and misuse ----------------------------------------------------------------------


def test_batches_round_trip_and_malformed_bytes_are_refused() -> None:
    table = Leaver(3, 0)
    batch = make_stand_in(table.pieces[1], 0, some_cards(3), table.context(1))
    data = batch.encode()
    assert StandInBatch.decode(data) == batch
    for bad in (data[:-1], data + b"\x00", data[:8]):
        with pytest.raises(DecodeError):
            StandInBatch.decode(bad)
    swapped = data[:12] + data[16:20] + data[12:16] + data[20:]  # positions out of order
    with pytest.raises(DecodeError, match="increasing"):
        StandInBatch.decode(swapped)
    part = data[24 : 24 + StandInPart.ENCODED_BYTES]
    assert StandInPart.decode(part) == batch.parts[0]
    with pytest.raises(DecodeError):
        StandInPart.decode(bytes(32) + part[32:])


def test_a_seat_does_not_stand_in_for_itself_and_positions_fit_a_deck() -> None:
    table = Leaver(3, 0)
    with pytest.raises(ValueError):
        make_stand_in(table.pieces[1], 1, some_cards(1), table.context(1))
    with pytest.raises(ValueError):
        make_stand_in(0, 0, some_cards(1), table.context(1))
    card = next(iter(some_cards(1).values()))
    with pytest.raises(ValueError):
        make_stand_in(table.pieces[1], 0, {2**32: card}, table.context(1))
    with pytest.raises(ValueError):
        StandInBatch(0, 0, (1, 2), ())
