"""Searching the pile for a named card: the plaintext equivalence test, its proofs, and the deck
that takes the card found out of the pile (after a seat left, the others stood in for its
shares of the pile)."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from condottiere.crypto import linear
from condottiere.crypto.context import Context
from condottiere.crypto.deck import Slot
from condottiere.crypto.errors import DecodeError, VerificationError
from condottiere.crypto.group import IDENTITY, L, mul, random_scalar, sub
from condottiere.crypto.pet import (
    BlindedTest,
    SearchBlinding,
    SearchOpening,
    search_header,
)
from condottiere.crypto.sealing import BoxSecret
from condottiere.crypto.shares import DecryptionShare
from condottiere.crypto.standin import combine_stand_in, make_stand_in, verify_stand_in
from condottiere.crypto.vss import make_dealing, open_piece, verification_key

from .dealt import NAMES, Table, unique_names


def blinding_domain_proof(
    table: Table, seat: int, search: int, card: str, positions: tuple[int, ...],
    exponents: tuple[int, int],
) -> SearchBlinding:
    """A cheater's blinding of one position: ``z_a`` on ``a``, ``z_b`` on ``b - M``, with the
    best proof it can make (one exponent, ``z_a``, for both)."""
    deck = table.decks[seat]
    header = search_header(search, card, positions)
    tests = []
    copies = [c for c in deck.codebook.cards if c.name == card]
    index = 0
    for position in positions:
        for copy in copies:
            ciphertext = deck.cards[position]
            target = deck.codebook.point_of(copy)
            shifted = sub(ciphertext[1], target)
            z_a, z_b = exponents
            blinded_a, blinded_b = mul(z_a, ciphertext[0]), mul(z_b, shifted)
            statement = (header, index.to_bytes(4, "little"),
                         ciphertext[0] + ciphertext[1], target, blinded_a, blinded_b)
            proof = linear.prove(
                (z_a,), [(blinded_a, (ciphertext[0],)), (blinded_b, (shifted,))],
                b"search-blinding", Context(deck.table, deck.round, seat), statement,
            )
            tests.append(BlindedTest(blinded_a, blinded_b, proof))
            index += 1
    return SearchBlinding(search, deck.round, card, positions, tuple(tests))


def dealt(seats: int, size: int, dealt_each: int, names: list[str] | None = None) -> Table:
    table = Table.shuffled(seats, names or unique_names(size))
    for seat in range(seats):
        table.deal(seat, [seat * dealt_each + i for i in range(dealt_each)])
    return table


# -- finding -----------------------------------------------------------------------------------


@settings(max_examples=10, deadline=None)
@given(st.data())
def test_a_search_finds_exactly_where_the_named_card_lies_in_a_random_pile(
    data: st.DataObject,
) -> None:
    seats = data.draw(st.integers(2, 3), label="seats")
    size = data.draw(st.integers(seats + 2, 12), label="size")
    table = dealt(seats, size, 1)
    truth = table.truth()
    card = data.draw(st.sampled_from(table.names), label="card")
    pile = table.decks[0].undealt()
    found = table.search(1, card, pile)
    expected = tuple(p for p in pile if truth[Slot(0, p)] == card)
    assert found == expected
    assert len(found) == (0 if any(truth[Slot(0, p)] == card for p in range(seats)) else 1)


def test_a_search_for_a_card_in_a_hand_finds_nothing() -> None:
    table = dealt(3, 10, 2)
    in_hand = table.decks[1].open(Slot(0, 2))
    assert table.search(7, in_hand) == ()
    with pytest.raises(ValueError, match="found nothing"):
        table.decks[0].take_out(7, table.decks[0].undealt()[0])


def test_a_search_for_a_name_with_copies_finds_every_copy_in_the_pile() -> None:
    names = [NAMES[i % 4] for i in range(12)]
    table = dealt(2, 12, 2, names)
    truth = table.truth()
    pile = table.decks[0].undealt()
    found = table.search(3, NAMES[0], pile)
    assert found == tuple(p for p in pile if truth[Slot(0, p)] == NAMES[0])


def test_the_card_taken_out_is_face_up_everywhere_and_out_of_every_later_deal() -> None:
    table = dealt(3, 12, 2)
    truth = table.truth()
    pile = table.decks[0].undealt()
    card = truth[Slot(0, pile[3])]
    (position,) = table.search(1, card)
    assert position == pile[3]
    assert {deck.take_out(1, position) for deck in table.decks} == {card}
    assert {deck.known_card(Slot(0, position)) for deck in table.decks} == {card}
    assert all(position not in deck.undealt() for deck in table.decks)
    order = table.decks[0].pile_positions()
    assert position not in order and len(order) == 11
    with pytest.raises(ValueError, match="taken out"):
        table.decks[0].make_shares(1, [position])
    honest = table.decks[1].make_shares(0, [pile[0]])
    forged = dataclasses.replace(honest, positions=(position,))
    with pytest.raises(VerificationError, match="taken out") as err:
        table.decks[2].accept_shares(1, forged)
    assert err.value.seat == 1
    with pytest.raises(ValueError, match="already out"):
        table.decks[0].take_out(1, position)
    # the rest of the pile deals and opens as before
    rest = [p for p in pile if p != position][:2]
    for slot in table.deal(2, rest):
        assert table.decks[2].open(slot) == truth[slot]
    table.decks[0].audit(table.secrets())


def test_a_search_cannot_look_at_dealt_or_taken_positions() -> None:
    table = dealt(2, 8, 2)
    with pytest.raises(ValueError, match="dealt to seat 0"):
        table.decks[0].make_search_blinding(1, "card-0", [0, 5])
    with pytest.raises(ValueError, match="no card"):
        table.decks[0].make_search_blinding(1, "nothing", [5])
    with pytest.raises(ValueError, match="no position"):
        table.decks[0].make_search_blinding(1, "card-0", [8])
    with pytest.raises(ValueError, match="at least one"):
        table.decks[0].make_search_blinding(1, "card-0", [])


# -- encodings ---------------------------------------------------------------------------------


def test_blindings_and_openings_round_trip_through_their_encodings() -> None:
    table = dealt(2, 8, 2)
    blinding = table.decks[0].make_search_blinding(4, "card-3", table.decks[0].undealt())
    assert SearchBlinding.decode(blinding.encode()) == blinding
    table.blind(4, "card-3", table.decks[0].undealt(), [0, 1])
    opening = table.decks[1].make_search_opening(4)
    assert SearchOpening.decode(opening.encode()) == opening
    assert len(opening.shares) == len(blinding.tests) == 4


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400))
def test_junk_decodes_as_no_blinding_or_as_one_that_encodes_back(data: bytes) -> None:
    for kind in (SearchBlinding, SearchOpening):
        try:
            value = kind.decode(data)
        except DecodeError:
            continue
        assert value.encode() == data


def test_a_blinding_or_opening_with_an_identity_point_or_bad_framing_does_not_decode() -> None:
    table = dealt(2, 6, 2)
    blinding = table.decks[0].make_search_blinding(1, "card-5", [4, 5])
    data = blinding.encode()
    head = len(data) - 2 * BlindedTest.ENCODED_BYTES
    identity = IDENTITY
    with pytest.raises(DecodeError):
        SearchBlinding.decode(data[:head] + identity + data[head + 32 :])
    with pytest.raises(DecodeError):
        SearchBlinding.decode(data[: head + 32] + identity + data[head + 64 :])
    with pytest.raises(DecodeError):
        SearchBlinding.decode(data + bytes(BlindedTest.ENCODED_BYTES))
    swapped = data.replace((4).to_bytes(4, "little") + (5).to_bytes(4, "little"),
                           (5).to_bytes(4, "little") + (4).to_bytes(4, "little"), 1)
    with pytest.raises(DecodeError, match="increasing"):
        SearchBlinding.decode(swapped)
    table.blind(1, "card-5", [4, 5], [0, 1])
    opening = table.decks[0].make_search_opening(1).encode()
    with pytest.raises(DecodeError):
        SearchOpening.decode(opening[:12] + identity + opening[44:])
    with pytest.raises(DecodeError):
        SearchOpening.decode(opening[:-1])
    with pytest.raises(DecodeError, match="at least one"):
        SearchOpening.decode(opening[:8] + bytes(4))


# -- cheats ------------------------------------------------------------------------------------


def test_a_blinding_with_different_exponents_on_the_two_points_is_refused_naming_the_seat() -> None:
    table = dealt(3, 9, 2)
    pile = table.decks[0].undealt()
    forged = blinding_domain_proof(table, 2, 1, "card-4", pile, (random_scalar(), random_scalar()))
    for deck in table.decks:
        with pytest.raises(VerificationError, match="does not verify") as err:
            deck.accept_search_blinding(2, forged)
        assert err.value.seat == 2
    # the same cheater with one exponent is a proper blinding
    z = random_scalar()
    honest = blinding_domain_proof(table, 2, 1, "card-4", pile, (z, z))
    for deck in table.decks:
        deck.accept_search_blinding(2, honest)


def test_a_blinding_with_an_identity_output_is_refused_naming_the_seat() -> None:
    table = dealt(2, 6, 2)
    blinding = table.decks[1].make_search_blinding(1, "card-4", [4, 5])
    identity = IDENTITY
    first = blinding.tests[0]
    for forged_test in (dataclasses.replace(first, blinded_a=identity),
                        dataclasses.replace(first, blinded_b=identity)):
        forged = dataclasses.replace(blinding, tests=(forged_test, blinding.tests[1]))
        with pytest.raises(VerificationError, match="identity") as err:
            table.decks[0].accept_search_blinding(1, forged)
        assert err.value.seat == 1


def test_a_blinding_that_cancels_the_others_cannot_be_proved() -> None:
    """The last seat to blind sets its A to minus the others' sum: it knows no exponent."""
    table = dealt(2, 6, 2)
    first = table.decks[0].make_search_blinding(1, "card-4", [4, 5])
    for deck in table.decks:
        deck.accept_search_blinding(0, first)
    own = table.decks[1].make_search_blinding(1, "card-4", [4, 5])
    cancelling = tuple(
        dataclasses.replace(mine, blinded_a=mul(L - 1, theirs.blinded_a))
        for mine, theirs in zip(own.tests, first.tests, strict=True)
    )
    forged = dataclasses.replace(own, tests=cancelling)
    with pytest.raises(VerificationError) as err:
        table.decks[0].accept_search_blinding(1, forged)
    assert err.value.seat == 1


def test_a_false_opening_share_is_refused_naming_the_seat() -> None:
    table = dealt(3, 9, 2)
    pile = table.decks[0].undealt()
    table.blind(1, "card-7", pile, range(3))
    opening = table.decks[1].make_search_opening(1)
    wrong = dataclasses.replace(
        opening.shares[0], share=mul(2, opening.shares[0].share)
    )
    forged = dataclasses.replace(opening, shares=(wrong, *opening.shares[1:]))
    tweaked = DecryptionShare(opening.shares[-1].share, opening.shares[-1].challenge,
                              (opening.shares[-1].response + 1) % L)
    for candidate in (forged, dataclasses.replace(opening, shares=(*opening.shares[:-1], tweaked))):
        for deck in table.decks:
            with pytest.raises(VerificationError, match="does not verify") as err:
                deck.accept_search_opening(1, candidate)
            assert err.value.seat == 1
    short = dataclasses.replace(opening, shares=opening.shares[:-1])
    with pytest.raises(VerificationError, match="tests") as err:
        table.decks[0].accept_search_opening(1, short)
    assert err.value.seat == 1


def test_an_opening_made_with_another_seats_key_is_refused() -> None:
    table = dealt(3, 9, 2)
    table.blind(1, "card-7", table.decks[0].undealt(), range(3))
    opening = table.decks[2].make_search_opening(1)
    with pytest.raises(VerificationError) as err:
        table.decks[0].accept_search_opening(1, opening)
    assert err.value.seat == 1


def test_a_step_replayed_into_another_search_or_round_is_refused() -> None:
    table = dealt(2, 10, 2)
    pile = table.decks[0].undealt()
    blinding = table.decks[1].make_search_blinding(1, "card-8", pile)
    replayed = dataclasses.replace(blinding, search=2)
    with pytest.raises(VerificationError, match="does not verify") as err:
        table.decks[0].accept_search_blinding(1, replayed)
    assert err.value.seat == 1
    as_other_seat = blinding
    with pytest.raises(VerificationError) as err:
        table.decks[1].accept_search_blinding(0, as_other_seat)
    assert err.value.seat == 0
    # an opening of search 1 replayed as search 2's (same card, same positions)
    table.search(1, "card-8", pile)
    table.blind(2, "card-8", pile, [0, 1])
    old = table.decks[1].make_search_opening(1)
    with pytest.raises(VerificationError, match="twice"):
        table.decks[0].accept_search_opening(1, old)
    with pytest.raises(VerificationError, match="does not verify") as err:
        table.decks[0].accept_search_opening(1, dataclasses.replace(old, search=2))
    assert err.value.seat == 1
    # a new round: the same pile positions, the old search's steps are worthless
    for deck in table.decks:
        deck.reshuffle([Slot(0, p) for p in pile], [])
    table.shuffle_all()
    with pytest.raises(VerificationError, match="round") as err:
        table.decks[0].accept_search_blinding(1, blinding)
    assert err.value.seat == 1
    relabelled = dataclasses.replace(
        blinding, search=3, round=1, positions=tuple(range(len(pile)))
    )
    with pytest.raises(VerificationError, match="does not verify") as err:
        table.decks[0].accept_search_blinding(1, relabelled)
    assert err.value.seat == 1


def test_a_blinding_for_another_card_or_pile_than_the_search_asked_is_refused() -> None:
    table = dealt(3, 12, 2)
    pile = table.decks[0].undealt()
    first = table.decks[0].make_search_blinding(1, "card-9", pile)
    # seat 1's cheats, made before it saw the search start (its deck refuses them after)
    other_card = table.decks[1].make_search_blinding(1, "card-10", pile)
    fewer = table.decks[1].make_search_blinding(1, "card-9", pile[1:])
    for deck in table.decks:
        deck.accept_search_blinding(0, first, card="card-9", positions=pile)
    with pytest.raises(ValueError, match="another card"):
        table.decks[1].make_search_blinding(1, "card-10", pile)
    for forged, why in ((other_card, "another card"), (fewer, "other positions")):
        with pytest.raises(VerificationError, match=why) as err:
            table.decks[2].accept_search_blinding(1, forged)
        assert err.value.seat == 1
    with pytest.raises(VerificationError, match="named") as err:
        table.decks[2].accept_search_blinding(1, other_card, card="card-9")
    assert err.value.seat == 1
    with pytest.raises(VerificationError, match="pile") as err:
        table.decks[2].accept_search_blinding(1, fewer, positions=pile)
    assert err.value.seat == 1
    with pytest.raises(VerificationError, match="twice") as err:
        table.decks[2].accept_search_blinding(0, first)
    assert err.value.seat == 0
    dealt_position = table.decks[1].make_search_blinding(2, "card-9", pile)
    reaching = dataclasses.replace(dealt_position, positions=(0, *pile[1:]))
    with pytest.raises(VerificationError, match="dealt") as err:
        table.decks[2].accept_search_blinding(1, reaching)
    assert err.value.seat == 1


def test_every_step_waits_for_the_one_before() -> None:
    table = dealt(3, 9, 2)
    pile = table.decks[0].undealt()
    table.blind(1, "card-6", pile, [0, 1])
    assert table.decks[0].missing_blindings(1) == [2]
    with pytest.raises(ValueError, match="blindings from seats \\[2\\]"):
        table.decks[0].make_search_opening(1)
    late = table.decks[2].make_search_blinding(1, "card-6", pile)
    table.blind(1, "card-6", pile, [2])
    table.open_search(1, [0, 2])
    assert table.decks[1].missing_openings(1) == [1]
    with pytest.raises(ValueError, match="openings from seats \\[1\\]"):
        table.decks[1].search_result(1)
    with pytest.raises(ValueError, match="no result"):
        table.decks[1].take_out(1, pile[0])
    with pytest.raises(ValueError, match="past its blinding"):
        table.decks[1].make_search_blinding(1, "card-6", pile)
    with pytest.raises(VerificationError, match="after its openings"):
        table.decks[1].accept_search_blinding(2, late)
    with pytest.raises(VerificationError, match="never started"):
        table.decks[1].accept_search_opening(0, dataclasses.replace(
            table.decks[0].make_search_opening(1), search=9))


# -- a seat that left --------------------------------------------------------------------------


def stand_in_for(table: Table, leaver: int) -> None:
    """The others stand in for ``leaver``'s shares of every card of the pile at once, from the
    backup it dealt (each remaining seat's parts, verified, then combined), and record them."""
    seats = len(table.decks)
    deck = table.decks[0]
    boxes = [BoxSecret.generate() for _ in range(seats)]
    dealt_by = Context(deck.table, 0, leaver)
    dealing = make_dealing(table.decks[leaver].secret, [b.public for b in boxes], dealt_by)
    key = deck.keys[leaver]
    cards = deck.unshared(leaver)
    batches = {}
    for j in range(seats):
        if j == leaver:
            continue
        piece = open_piece(dealing, key, boxes[j], j, dealt_by)
        context = Context(deck.table, deck.round, j)
        batch = make_stand_in(piece, leaver, cards, context)
        verify_stand_in(batch, leaver, verification_key(dealing, key, j), cards, context)
        batches[j] = batch
    shares = combine_stand_in(batches, seats)
    for live in table.decks:  # every peer records them (the leaver's own, gone, would too)
        live.record_stand_in(leaver, shares, {})


def test_a_search_after_a_seat_left_needs_nobody_that_left_and_still_finds_the_card() -> None:
    """Seat 2 of three leaves: a search needs its shares of the pile until the others stood
    in for them; then the two others alone blind and open it, and it finds the card."""
    table = dealt(3, 12, 2)
    truth = table.truth()
    pile = table.decks[0].undealt()
    card = truth[Slot(0, random.choice(pile))]
    for deck in table.decks:
        deck.drop_seat(2)
    with pytest.raises(ValueError, match="still needs the share of seat 2"):
        table.decks[0].make_search_blinding(5, card, pile)
    stand_in_for(table, 2)
    table.blind(5, card, pile, [0, 1])
    with pytest.raises(VerificationError, match="left") as err:
        table.decks[0].accept_search_opening(2, table.decks[2].make_search_opening(5))
    assert err.value.seat == 2
    table.open_search(5, [0, 1])
    assert table.decks[0].missing_openings(5) == []
    found = table.decks[0].search_result(5)
    assert found == tuple(p for p in pile if truth[Slot(0, p)] == card)
    assert len(found) == 1
    assert table.decks[1].search_result(5) == found


def test_a_search_blinded_by_a_seat_that_left_since_is_begun_again() -> None:
    table = dealt(3, 12, 2)
    pile = table.decks[0].undealt()
    table.blind(5, table.truth()[Slot(0, pile[0])], pile, [0, 1, 2])
    for deck in table.decks:
        deck.drop_seat(2)
    with pytest.raises(ValueError, match="begin again"):
        table.decks[0].make_search_opening(5)


@settings(max_examples=6, deadline=None)
@given(st.data())
def test_searches_take_out_cards_one_after_another_and_deals_skip_them_across_rounds(
    data: st.DataObject,
) -> None:
    """Searches, take-outs and deals interleaved, then a reshuffle and a search of the new
    round: every search finds the truth, every deal through the pile order opens the card the
    audit says, and no position is dealt twice."""
    table = Table.shuffled(2, unique_names(10))
    truth = table.truth()
    number = 0
    for _ in range(data.draw(st.integers(1, 3), label="searches")):
        pile = table.decks[0].undealt()
        if not pile:
            break
        card = data.draw(st.sampled_from(table.names), label="card")
        number += 1
        found = table.search(number, card)
        assert found == tuple(p for p in pile if truth[Slot(0, p)] == card)
        for position in found:
            assert {deck.take_out(number, position) for deck in table.decks} == {card}
        order = table.decks[0].pile_positions()
        free = [p for p in order if p in table.decks[0].undealt()]
        if free:
            (slot,) = table.deal(number % 2, free[:1])
            assert table.decks[number % 2].open(slot) == truth[slot]
    taken = [p for p in range(10) if p not in table.decks[0].pile_positions()]
    hidden = [Slot(0, p) for p in table.decks[0].undealt()]
    face_up = [Slot(0, p) for p in taken]
    for deck in table.decks:
        deck.reshuffle(hidden, face_up)
    table.shuffle_all()
    again = table.truth()
    names = [again[Slot(1, p)] for p in range(len(hidden) + len(face_up))]
    card = data.draw(st.sampled_from(names), label="card of round 1")
    found = table.search(number + 1, card)
    assert found == tuple(p for p in range(len(names)) if names[p] == card)
