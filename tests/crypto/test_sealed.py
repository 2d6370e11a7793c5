"""A card shown to one seat, or handed to it: the sealed part, its proof, and the deck that follows
the card (looks, hand-overs, chains of them, reveals by the new holder, audit)."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from condottiere.crypto.context import Context
from condottiere.crypto.deck import Claim, Reveal, Slot
from condottiere.crypto.elgamal import encrypt
from condottiere.crypto.errors import DecodeError, VerificationError
from condottiere.crypto.group import BASE, IDENTITY, L, add, hash_to_point, mul, mul_base, sub
from condottiere.crypto.linear import LinearProof
from condottiere.crypto.sealed import (
    Holding,
    SealedShare,
    make_opening,
    seal_share,
    unseal,
    verify_opening,
    verify_sealed,
)
from condottiere.crypto.shares import DecryptionShare, make_share

from .dealt import Table, unique_names

scalars = st.integers(min_value=1, max_value=L - 1)
CARD = hash_to_point(b"test", b"card")
OTHER = hash_to_point(b"test", b"other")


def sealed_setup(x_holder: int, x_viewer: int, r: int) -> tuple[SealedShare, Holding, tuple]:
    ciphertext = encrypt(CARD, mul_base(x_holder + x_viewer), r)
    holding = Holding.dealt(ciphertext)
    share = seal_share(
        x_holder, holding, ciphertext, Slot(0, 3), 1, mul_base(x_viewer), Context(b"t", 0, 0)
    )
    return share, holding, ciphertext


# -- the sealed part alone ---------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(scalars, scalars, scalars, scalars)
def test_a_sealed_part_opens_only_with_the_viewers_key(
    x_holder: int, x_viewer: int, x_other: int, r: int
) -> None:
    assume((x_holder + x_viewer) % L)  # a joint key of zero: no table accepts it
    share, holding, ciphertext = sealed_setup(x_holder, x_viewer, r)
    verify_sealed(share, mul_base(x_holder), holding, ciphertext, mul_base(x_viewer),
                  Context(b"t", 0, 0))
    hidden = mul(x_holder, ciphertext[0])
    assert unseal(share, x_viewer) == hidden
    if x_other != x_viewer:
        assert unseal(share, x_other) != hidden
    # the pair alone is all a bystander has: it is not the part itself
    assert hidden not in (share.ephemeral, share.sealed)


@settings(max_examples=20, deadline=None)
@given(scalars, scalars, scalars)
def test_a_sealed_share_round_trips_through_its_encoding(x_h: int, x_v: int, r: int) -> None:
    assume((x_h + x_v) % L)  # a joint key of zero: no table accepts it
    share, _, _ = sealed_setup(x_h, x_v, r)
    data = share.encode()
    assert len(data) == SealedShare.ENCODED_BYTES
    assert SealedShare.decode(data) == share


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2 * SealedShare.ENCODED_BYTES))
def test_junk_decodes_as_no_sealed_share_or_as_one_that_encodes_back(data: bytes) -> None:
    try:
        share = SealedShare.decode(data)
    except DecodeError:
        return
    assert share.encode() == data


def test_a_sealed_share_with_an_identity_point_or_a_non_canonical_scalar_does_not_decode() -> None:
    share, _, _ = sealed_setup(5, 7, 11)
    data = share.encode()
    identity = IDENTITY
    with pytest.raises(DecodeError):
        SealedShare.decode(data[:12] + identity + data[44:])
    with pytest.raises(DecodeError):
        SealedShare.decode(data[:44] + identity + data[76:])
    with pytest.raises(DecodeError):
        SealedShare.decode(data[:-32] + L.to_bytes(32, "little"))
    with pytest.raises(DecodeError):
        SealedShare.decode(data + b"\x00")
    with pytest.raises(DecodeError):
        SealedShare.decode(data[:-1])


def test_a_share_of_another_part_than_the_holders_is_refused_naming_the_sealer() -> None:
    x_h, x_v = 5, 7
    ciphertext = encrypt(CARD, mul_base(x_h + x_v), 3)
    elsewhere = encrypt(OTHER, mul_base(x_h + x_v), 4)
    ctx = Context(b"t", 0, 0)
    wrong = seal_share(x_h, Holding.dealt(elsewhere), elsewhere, Slot(0, 3), 1, mul_base(x_v), ctx)
    with pytest.raises(VerificationError) as err:
        verify_sealed(wrong, mul_base(x_h), Holding.dealt(ciphertext), ciphertext, mul_base(x_v),
                      ctx)
    assert err.value.seat == 0


def test_a_share_made_with_a_wrong_offset_is_refused() -> None:
    x_o, x_h, x_v = 5, 7, 9
    ciphertext = encrypt(CARD, mul_base(x_o + x_h + x_v), 3)
    first = seal_share(x_o, Holding.dealt(ciphertext), ciphertext, Slot(0, 3), 1, mul_base(x_h),
                       Context(b"t", 0, 0))
    received = Holding.received(first)
    shifted = dataclasses.replace(received, offset=add(received.offset or BASE, BASE))
    ctx = Context(b"t", 0, 1)
    wrong = seal_share(x_h, shifted, ciphertext, Slot(0, 3), 2, mul_base(x_v), ctx)
    with pytest.raises(VerificationError, match="does not verify"):
        verify_sealed(wrong, mul_base(x_h), received, ciphertext, mul_base(x_v), ctx)
    right = seal_share(x_h, received, ciphertext, Slot(0, 3), 2, mul_base(x_v), ctx)
    verify_sealed(right, mul_base(x_h), received, ciphertext, mul_base(x_v), ctx)
    assert unseal(right, x_v) == mul(x_o, ciphertext[0])


def test_a_share_checked_against_another_viewer_slot_round_or_table_does_not_verify() -> None:
    share, holding, ciphertext = sealed_setup(5, 7, 11)
    key, viewer_key, ctx = mul_base(5), mul_base(7), Context(b"t", 0, 0)
    editions = [
        (dataclasses.replace(share, viewer=2), viewer_key, ctx),
        (share, mul_base(8), ctx),
        (dataclasses.replace(share, slot=Slot(0, 4)), viewer_key, ctx),
        (share, viewer_key, Context(b"u", 0, 0)),
        (share, viewer_key, Context(b"t", 0, 1)),
        (dataclasses.replace(share, slot=Slot(1, 3)), viewer_key, Context(b"t", 1, 0)),
    ]
    for candidate, vkey, context in editions:
        with pytest.raises(VerificationError) as err:
            verify_sealed(candidate, key, holding, ciphertext, vkey, context)
        assert err.value.seat == context.seat


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2), st.integers(1, L - 1))
def test_a_forged_proof_is_refused(which: int, delta: int) -> None:
    share, holding, ciphertext = sealed_setup(5, 7, 11)
    scalars_ = [share.proof.challenge, *share.proof.responses]
    scalars_[which] = (scalars_[which] + delta) % L
    forged = dataclasses.replace(share, proof=LinearProof(scalars_[0], tuple(scalars_[1:])))
    with pytest.raises(VerificationError):
        verify_sealed(forged, mul_base(5), holding, ciphertext, mul_base(7), Context(b"t", 0, 0))


def test_a_proof_with_a_non_canonical_scalar_or_the_wrong_shape_is_refused() -> None:
    share, holding, ciphertext = sealed_setup(5, 7, 11)
    c, (s1, s2) = share.proof.challenge, share.proof.responses
    proofs = [LinearProof(c, (s1 + L, s2)), LinearProof(c, (s1,)), LinearProof(c + L, (s1, s2))]
    for proof in proofs:
        with pytest.raises(VerificationError):
            verify_sealed(dataclasses.replace(share, proof=proof), mul_base(5), holding,
                          ciphertext, mul_base(7), Context(b"t", 0, 0))


def test_an_opening_makes_the_part_public_and_a_wrong_one_is_refused() -> None:
    share, _, ciphertext = sealed_setup(5, 7, 11)
    ctx = Context(b"t", 0, 1)
    opening = make_opening(7, share, ctx)
    assert verify_opening(opening, mul_base(7), share, ctx) == mul(5, ciphertext[0])
    wrong = DecryptionShare(mul(8, share.ephemeral), opening.challenge, opening.response)
    with pytest.raises(VerificationError) as err:
        verify_opening(wrong, mul_base(7), share, ctx)
    assert err.value.seat == 1
    with pytest.raises(VerificationError):
        verify_opening(opening, mul_base(7), share, Context(b"t", 0, 2))


# -- through the deck --------------------------------------------------------------------------


def dealt_table(seats: int = 3, size: int = 12, *, verify: bool = True) -> tuple[Table, list]:
    table = Table.shuffled(seats, unique_names(size))
    hands = [table.deal(seat, [seat * 3 + i for i in range(3)], verify=verify)
             for seat in range(seats)]
    for seat, hand in enumerate(hands):
        for slot in hand:
            table.decks[seat].open(slot)
    return table, hands


def test_a_look_shows_the_card_to_the_viewer_alone_and_the_holder_keeps_it() -> None:
    table, hands = dealt_table()
    slot = hands[0][1]
    card = table.decks[0].known_card(slot)
    said = table.seal(0, slot, 2, handed=False)
    assert said == [None, None, card]
    assert [deck.known_card(slot) for deck in table.decks] == [card, None, card]
    assert [deck.owner_of(slot) for deck in table.decks] == [0, 0, 0]
    revealed = table.reveal(0, slot)
    assert revealed == [card] * 3


def test_no_seat_but_the_viewer_can_take_the_part_out() -> None:
    table, hands = dealt_table(4)
    slot = hands[1][0]
    share = table.decks[1].make_sealed_share(slot, 3)
    hidden = mul(table.decks[1].secret, table.decks[0].cards[slot.position][0])
    assert unseal(share, table.decks[3].secret) == hidden
    for seat in (0, 1, 2):
        assert unseal(share, table.decks[seat].secret) != hidden


def test_a_hand_over_moves_the_card_and_its_new_holder_reveals_it_like_a_dealt_card() -> None:
    table, hands = dealt_table()
    slot = hands[0][0]
    card = table.decks[0].known_card(slot)
    assert table.seal(0, slot, 1, handed=True) == [None, card, None]
    assert {deck.owner_of(slot) for deck in table.decks} == {1}
    assert table.decks[1].open(slot) == card
    reveal = table.decks[1].make_reveal(slot)
    assert Reveal.decode(reveal.encode()) == reveal
    for deck in table.decks:
        assert deck.check_reveal(1, reveal) == card
    assert table.reveal(1, slot) == [card] * 3
    assert table.truth()[slot] == card
    table.decks[0].audit(table.secrets(), [Claim(1, slot, card)])


@settings(max_examples=8, deadline=None)
@given(st.data())
def test_a_chain_of_transfers_still_opens_on_each_receiver_and_reveals_correctly(
    data: st.DataObject,
) -> None:
    seats = data.draw(st.integers(3, 4), label="seats")
    table, hands = dealt_table(seats, 3 * seats + 2)
    first = data.draw(st.integers(0, seats - 1), label="dealt to")
    slot = hands[first][data.draw(st.integers(0, 2), label="card")]
    card = table.decks[first].known_card(slot)
    holder = first
    for _ in range(data.draw(st.integers(2, 4), label="transfers")):
        viewer = data.draw(st.sampled_from([s for s in range(seats) if s != holder]))
        said = table.seal(holder, slot, viewer, handed=True)
        assert said == [card if seat == viewer else None for seat in range(seats)]
        holder = viewer
        assert {deck.owner_of(slot) for deck in table.decks} == {holder}
    assert table.reveal(holder, slot) == [card] * seats
    assert table.truth()[slot] == card


def test_a_look_after_a_hand_over_is_made_by_the_new_holder() -> None:
    table, hands = dealt_table()
    slot = hands[2][2]
    card = table.decks[2].known_card(slot)
    table.seal(2, slot, 0, handed=True)
    assert table.seal(0, slot, 1, handed=False) == [None, card, None]
    assert {deck.owner_of(slot) for deck in table.decks} == {0}


def test_the_old_holder_can_no_longer_seal_or_reveal_a_card_it_handed_on() -> None:
    table, hands = dealt_table()
    slot = hands[0][0]
    before = table.decks[0].make_sealed_share(slot, 2)
    old_reveal = table.decks[0].make_reveal(slot)
    table.seal(0, slot, 1, handed=True)
    with pytest.raises(ValueError, match="does not hold"):
        table.decks[0].make_sealed_share(slot, 2)
    with pytest.raises(ValueError, match="does not hold"):
        table.decks[0].make_reveal(slot)
    for deck in table.decks[1:]:
        with pytest.raises(VerificationError) as err:
            deck.accept_sealed_share(0, before, handed=False)
        assert err.value.seat == 0
        with pytest.raises(VerificationError) as err:
            deck.accept_reveal(0, old_reveal)
        assert err.value.seat == 0


def test_a_share_replayed_after_the_card_came_back_is_refused() -> None:
    table, hands = dealt_table()
    slot = hands[0][0]
    old = table.decks[0].make_sealed_share(slot, 2)
    table.seal(0, slot, 1, handed=True)
    table.seal(1, slot, 0, handed=True)
    assert {deck.owner_of(slot) for deck in table.decks} == {0}
    with pytest.raises(VerificationError, match="does not verify") as err:
        table.decks[2].accept_sealed_share(0, old, handed=False)
    assert err.value.seat == 0
    assert table.seal(0, slot, 2, handed=False)[2] == table.decks[0].known_card(slot)


def test_a_seats_own_hand_over_replayed_after_the_card_came_back_is_refused_on_its_deck_too(
) -> None:
    table, hands = dealt_table()
    slot = hands[0][0]
    give = table.decks[0].make_sealed_share(slot, 1)
    for deck in table.decks:
        deck.accept_sealed_share(0, give, handed=True)
    table.seal(1, slot, 0, handed=True)
    for deck in table.decks:
        with pytest.raises(VerificationError, match="does not verify") as err:
            deck.accept_sealed_share(0, give, handed=True)
        assert err.value.seat == 0
        assert deck.owner_of(slot) == 0


def test_a_share_sealed_by_a_seat_that_does_not_hold_the_card_is_refused_naming_it() -> None:
    table, hands = dealt_table()
    slot = hands[0][0]
    thief = table.decks[1]
    ciphertext = thief.cards[slot.position]
    forged = seal_share(thief.secret, Holding.dealt(ciphertext), ciphertext, slot, 2,
                        thief.keys[2], Context(thief.table, slot.round, 1))
    for deck in table.decks:
        with pytest.raises(VerificationError, match="does not hold") as err:
            deck.accept_sealed_share(1, forged, handed=True)
        assert err.value.seat == 1
        assert deck.owner_of(slot) == 0


def test_a_wrong_part_sealed_to_the_viewer_is_refused_naming_the_sealer() -> None:
    table, hands = dealt_table()
    slot, other = hands[0][0], hands[0][1]
    cheat = table.decks[0]
    elsewhere = cheat.cards[other.position]
    forged = seal_share(cheat.secret, Holding.dealt(elsewhere), elsewhere, slot, 2,
                        cheat.keys[2], Context(cheat.table, slot.round, 0))
    for deck in table.decks:
        with pytest.raises(VerificationError, match="does not verify") as err:
            deck.accept_sealed_share(0, forged, handed=False)
        assert err.value.seat == 0
    assert table.decks[2].known_card(slot) is None


def test_a_share_sealed_to_another_viewer_than_it_names_is_refused() -> None:
    table, hands = dealt_table()
    slot = hands[0][0]
    share = table.decks[0].make_sealed_share(slot, 2)
    relabelled = dataclasses.replace(share, viewer=1)
    for deck in table.decks:
        with pytest.raises(VerificationError) as err:
            deck.accept_sealed_share(0, relabelled, handed=True)
        assert err.value.seat == 0
        assert deck.owner_of(slot) == 0


def test_a_reveal_of_a_handed_card_with_a_wrong_opening_or_card_is_refused() -> None:
    table, hands = dealt_table()
    slot = hands[0][0]
    table.seal(0, slot, 1, handed=True)
    reveal = table.decks[1].make_reveal(slot)
    wrong_share = dataclasses.replace(
        reveal, share=dataclasses.replace(reveal.share, share=mul(2, reveal.share.share))
    )
    other_name = next(n for n in table.names if n != reveal.card)
    holder = table.decks[1]
    ciphertext = holder.cards[slot.position]
    # the kind of share a dealt card is revealed with: right for the deck, not for this card
    dealt_kind = make_share(holder.secret, holder.keys[1], ciphertext, slot.position,
                            Context(holder.table, slot.round, 1))
    forgeries = [wrong_share, dataclasses.replace(reveal, card=other_name),
                 dataclasses.replace(reveal, share=dealt_kind)]
    for forged in forgeries:
        for deck in (table.decks[0], table.decks[2]):
            with pytest.raises(VerificationError) as err:
                deck.accept_reveal(1, forged)
            assert err.value.seat == 1
    assert table.decks[2].known_card(slot) is None


def test_the_viewer_checks_the_cards_public_shares_before_it_trusts_the_card() -> None:
    table = Table.shuffled(3, unique_names(9))
    table.deal(0, [0, 1, 2], verify=False)
    # seat 1 gives its share of position 1 for position 0 as well (recorded unverified)
    good = table.decks[1].make_shares(0, [0, 1])
    bad = dataclasses.replace(good, shares=(good.shares[1], good.shares[1]))
    for deck in table.decks:
        deck.accept_shares(1, bad, verify=False)
    table.decks[0].open(Slot(0, 2))
    share = table.decks[0].make_sealed_share(Slot(0, 0), 2)
    with pytest.raises(VerificationError) as err:
        table.decks[2].accept_sealed_share(0, share, handed=False)
    assert err.value.seat == 1
    assert table.decks[2].known_card(Slot(0, 0)) is None
    # the others do not need those shares, and record the look
    assert table.decks[1].accept_sealed_share(0, share, handed=False) is None


def test_check_records_nothing_and_accept_after_it_gives_the_card() -> None:
    table, hands = dealt_table()
    slot = hands[0][0]
    card = table.decks[0].known_card(slot)
    share = table.decks[0].make_sealed_share(slot, 1)
    table.decks[1].check_sealed_share(0, share)
    assert table.decks[1].known_card(slot) is None
    assert table.decks[1].owner_of(slot) == 0
    assert table.decks[1].accept_sealed_share(0, share, handed=True) == card
    assert table.decks[1].owner_of(slot) == 1


def test_a_share_checked_before_the_table_changed_is_checked_again_when_accepted() -> None:
    table, hands = dealt_table()
    slot = hands[0][0]
    look = table.decks[0].make_sealed_share(slot, 2)
    table.decks[1].check_sealed_share(0, look)
    table.decks[1].drop_seat(2)
    with pytest.raises(VerificationError, match="left") as err:
        table.decks[1].accept_sealed_share(0, look, handed=False)
    assert err.value.seat == 0


def test_a_reveal_checked_before_its_card_was_handed_on_is_refused_when_accepted() -> None:
    table, hands = dealt_table()
    slot = hands[0][0]
    reveal = table.decks[0].make_reveal(slot)
    table.decks[2].check_reveal(0, reveal)
    table.seal(0, slot, 1, handed=True)
    with pytest.raises(VerificationError, match="handed on") as err:
        table.decks[2].accept_reveal(0, reveal)
    assert err.value.seat == 0


@pytest.mark.parametrize(
    ("slot", "viewer", "why"),
    [
        (Slot(0, 0), 0, "holds"),
        (Slot(0, 0), 5, "no seat"),
        (Slot(0, 10), 1, "does not hold"),
        (Slot(1, 0), 1, "no round"),
    ],
)
def test_a_share_that_cannot_be_made_is_refused_to_its_maker(
    slot: Slot, viewer: int, why: str
) -> None:
    table, _ = dealt_table()
    with pytest.raises(ValueError, match=why):
        table.decks[0].make_sealed_share(slot, viewer)


def test_a_share_for_a_seat_that_left_or_by_one_is_refused() -> None:
    table, hands = dealt_table()
    share = table.decks[1].make_sealed_share(hands[1][0], 2)
    for deck in table.decks:
        deck.drop_seat(2)
    with pytest.raises(ValueError, match="left"):
        table.decks[0].make_sealed_share(hands[0][0], 2)
    with pytest.raises(VerificationError, match="left") as err:
        table.decks[0].accept_sealed_share(1, share, handed=True)
    assert err.value.seat == 1
    to_one = table.decks[2].make_sealed_share(hands[2][0], 1)
    with pytest.raises(VerificationError, match="left") as err:
        table.decks[0].accept_sealed_share(2, to_one, handed=False)
    assert err.value.seat == 2


def test_a_card_back_in_the_deck_is_sealed_by_nobody() -> None:
    table, hands = dealt_table()
    slot = hands[0][0]
    share = table.decks[0].make_sealed_share(slot, 1)
    for deck in table.decks:
        deck.reshuffle([slot, *(Slot(0, p) for p in range(9, 12))], [])
    with pytest.raises(ValueError, match="back into the deck"):
        table.decks[0].make_sealed_share(slot, 1)
    with pytest.raises(VerificationError, match="back into the deck"):
        table.decks[1].accept_sealed_share(0, share, handed=False)


def test_the_audit_checks_every_sealed_part_and_lets_the_new_holder_claim_the_card() -> None:
    table, hands = dealt_table()
    slot = hands[0][0]
    card = table.decks[0].known_card(slot)
    table.seal(0, slot, 1, handed=True)
    table.seal(1, slot, 2, handed=False)
    table.decks[2].audit(table.secrets(), [Claim(1, slot, card), Claim(0, slot, card)])
    with pytest.raises(VerificationError, match="dealt to seat 0") as err:
        table.decks[2].audit(table.secrets(), [Claim(2, slot, card)])
    assert err.value.seat == 2


def test_the_audit_blames_a_sealer_whose_part_was_wrong() -> None:
    table, hands = dealt_table()
    slot = hands[0][0]
    share = table.decks[0].make_sealed_share(slot, 1)
    table.decks[2].accept_sealed_share(0, share, handed=False)
    # what an audit sees if the recorded pair does not hide x_owner·a (state written directly:
    # no proof lets a wrong pair be accepted)
    record = table.decks[2]._rounds[0]
    seat, recorded, handed = record.sealed[-1]
    record.sealed[-1] = (seat, dataclasses.replace(recorded, sealed=add(recorded.sealed, BASE)),
                         handed)
    with pytest.raises(VerificationError, match="sealed a wrong share") as err:
        table.decks[2].audit(table.secrets())
    assert err.value.seat == 0


def test_a_sealed_part_is_the_holders_share_and_opens_to_the_card() -> None:
    table, hands = dealt_table()
    slot = hands[1][1]
    deck = table.decks[2]
    share = table.decks[1].make_sealed_share(slot, 2)
    hidden = unseal(share, deck.secret)
    ciphertext = deck.cards[slot.position]
    public = [mul(table.decks[s].secret, ciphertext[0]) for s in (0, 2)]
    point = sub(sub(sub(ciphertext[1], public[0]), public[1]), hidden)
    assert deck.codebook.name_of(point) == table.decks[1].known_card(slot)
