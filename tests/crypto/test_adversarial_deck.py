"""Cheats at the deck level: each is caught, and blamed on the seat that cheated."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from condottiere.crypto.cards import PhysicalCard, card_point
from condottiere.crypto.context import Context
from condottiere.crypto.deck import Claim, Deck, Reveal, ShareBatch, ShuffleStep, Slot
from condottiere.crypto.elgamal import encrypt, rerandomise
from condottiere.crypto.errors import DecodeError, VerificationError
from condottiere.crypto.group import BASE, L, mul_base, random_scalar, sub, sum_points
from condottiere.crypto.keys import KeyAnnouncement, prove_key
from condottiere.crypto.shares import DecryptionShare, make_share, share_point
from tests.crypto.test_deck import Table, deck_names

SEATS, SIZE = 3, 12

IDENTITY_OR_NO_ELEMENT = [
    "0000000000000000000000000000000000000000000000000000000000000000",  # the identity
    "0100000000000000000000000000000000000000000000000000000000000000",  # s = 1, negative
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # s = -1
    "e3f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76",  # the base, made odd
    "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # s = p
    "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # s = p + 1
    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",  # high bit set
]
"""Encodings that are not an element of ristretto255 other than the identity (RFC 9496)."""


@pytest.fixture
def table() -> Table:
    shuffled = Table(SEATS, deck_names(SIZE))
    shuffled.shuffle_all()
    return shuffled


def blamed(error: pytest.ExceptionInfo[VerificationError]) -> int:
    return error.value.seat


# -- keys -----------------------------------------------------------------------------------------


def fresh_decks(table_id: bytes = b"table-1") -> list[Deck]:
    return [Deck(table_id, SEATS, seat, deck_names(SIZE)) for seat in range(SEATS)]


def test_rogue_key_cancelling_the_others_is_blamed_on_its_author() -> None:
    decks = fresh_decks()
    announcements = [d.announcement for d in decks]
    chosen = random_scalar()
    rogue = sub(mul_base(chosen), sum_points(a.key for a in announcements[:2]))
    announcements[2] = dataclasses.replace(prove_key(chosen, Context(b"table-1", 0, 2)), key=rogue)
    with pytest.raises(VerificationError) as err:
        decks[0].accept_keys(announcements)
    assert blamed(err) == 2


def test_key_proof_copied_from_another_seat_is_blamed_on_the_copier() -> None:
    decks = fresh_decks()
    announcements = [d.announcement for d in decks]
    announcements[1] = announcements[0]
    with pytest.raises(VerificationError) as err:
        decks[2].accept_keys(announcements)
    assert blamed(err) == 1


@pytest.mark.parametrize("other", [Context(b"table-2", 0, 1), Context(b"table-1", 1, 1),
                                   Context(b"table-1", 0, 2)])
def test_key_proof_bound_to_another_table_round_or_seat_is_blamed(other: Context) -> None:
    decks = fresh_decks()
    announcements = [d.announcement for d in decks]
    announcements[1] = prove_key(decks[1].secret, other)
    with pytest.raises(VerificationError) as err:
        decks[0].accept_keys(announcements)
    assert blamed(err) == 1


@pytest.mark.parametrize("encoding", IDENTITY_OR_NO_ELEMENT)
def test_key_announcement_with_a_bad_point_is_refused(encoding: str) -> None:
    good = fresh_decks()[0].announcement.encode()
    with pytest.raises(DecodeError):
        KeyAnnouncement.decode(bytes.fromhex(encoding) + good[32:])


# -- shuffle --------------------------------------------------------------------------------------


def test_shuffle_that_replaces_a_card_is_blamed_on_the_shuffler() -> None:
    table = Table(SEATS, deck_names(SIZE))
    step = table.decks[0].make_shuffle()
    deck = list(step.deck)
    key = table.decks[0].joint_key
    assert key is not None
    deck[3] = encrypt(card_point(PhysicalCard("10", 1)), key, random_scalar())
    for verifier in table.decks[1:]:
        with pytest.raises(VerificationError) as err:
            verifier.accept_shuffle(0, dataclasses.replace(step, deck=tuple(deck)))
        assert blamed(err) == 0


def test_shuffle_that_duplicates_a_card_is_blamed_on_the_shuffler() -> None:
    table = Table(SEATS, deck_names(SIZE))
    step = table.decks[0].make_shuffle()
    key = table.decks[0].joint_key
    assert key is not None
    deck = list(step.deck)
    deck[1] = rerandomise(deck[0], key, random_scalar())
    with pytest.raises(VerificationError) as err:
        table.decks[1].accept_shuffle(0, dataclasses.replace(step, deck=tuple(deck)))
    assert blamed(err) == 0


def test_shuffle_step_replayed_from_another_seat_is_blamed_on_the_replayer() -> None:
    table = Table(SEATS, deck_names(SIZE))
    step = table.decks[0].make_shuffle()
    for deck in table.decks:
        deck.accept_shuffle(0, step)
    replay = ShuffleStep(step.deck, step.proof)
    with pytest.raises(VerificationError) as err:
        table.decks[2].accept_shuffle(1, replay)
    assert blamed(err) == 1


def test_shuffle_out_of_turn_is_blamed() -> None:
    table = Table(SEATS, deck_names(SIZE))
    step = table.decks[0].make_shuffle()
    with pytest.raises(VerificationError) as err:
        table.decks[1].accept_shuffle(2, step)
    assert blamed(err) == 2


def test_tampered_ciphertext_in_a_shuffle_step_is_blamed_on_the_shuffler() -> None:
    table = Table(SEATS, deck_names(SIZE))
    step = table.decks[0].make_shuffle()
    deck = list(step.deck)
    deck[5] = (deck[5][0], sub(deck[5][1], BASE))
    with pytest.raises(VerificationError) as err:
        table.decks[2].accept_shuffle(0, dataclasses.replace(step, deck=tuple(deck)))
    assert blamed(err) == 0


@pytest.mark.parametrize("encoding", IDENTITY_OR_NO_ELEMENT)
def test_shuffle_step_with_a_bad_point_is_refused(encoding: str) -> None:
    fresh = Table(SEATS, deck_names(SIZE))
    wire = fresh.decks[0].make_shuffle().encode()
    with pytest.raises(DecodeError):
        ShuffleStep.decode(wire[:32] + bytes.fromhex(encoding) + wire[64:], SIZE)


@pytest.mark.parametrize("encoding", IDENTITY_OR_NO_ELEMENT)
@pytest.mark.parametrize("where", [32, SIZE * 64 + 32 * 3, SIZE * 64 + 32 * (SIZE + 2)])
def test_shuffle_step_with_a_bad_point_decoded_unchecked_is_blamed_by_its_verification(
    encoding: str, where: int
) -> None:
    # a card of the deck, a permutation commitment, a chain element: a peer decodes a step
    # without checking its points (the verification multiplies every one of them)
    fresh = Table(SEATS, deck_names(SIZE))
    wire = fresh.decks[0].make_shuffle().encode()
    cheat = wire[:where] + bytes.fromhex(encoding) + wire[where + 32 :]
    step = ShuffleStep.decode(cheat, SIZE, check_points=False)
    with pytest.raises(VerificationError) as err:
        fresh.decks[1].accept_shuffle(0, step)
    assert blamed(err) == 0
    assert fresh.decks[1].next_shuffler == 0  # nothing of the step was applied


def test_shuffle_step_decoded_with_or_without_point_checks_is_the_same_step() -> None:
    fresh = Table(SEATS, deck_names(SIZE))
    wire = fresh.decks[0].make_shuffle().encode()
    assert ShuffleStep.decode(wire, SIZE, check_points=False) == ShuffleStep.decode(wire, SIZE)


# -- deal -----------------------------------------------------------------------------------------


def test_wrong_decryption_share_is_blamed_on_its_seat(table: Table) -> None:
    batch = table.decks[1].make_shares(0, [2, 3])
    ciphertext = table.decks[1].cards[3]
    wrong = dataclasses.replace(batch.shares[1], share=share_point(random_scalar(), ciphertext))
    cheat = dataclasses.replace(batch, shares=(batch.shares[0], wrong))
    for verifier in table.decks:
        with pytest.raises(VerificationError) as err:
            verifier.accept_shares(1, cheat)
        assert blamed(err) == 1


def test_share_proof_replayed_for_another_card_is_blamed(table: Table) -> None:
    batch = table.decks[2].make_shares(0, [4])
    replay = dataclasses.replace(batch, positions=(5,))
    with pytest.raises(VerificationError) as err:
        table.decks[0].accept_shares(2, replay)
    assert blamed(err) == 2


def test_share_batch_replayed_in_a_later_round_is_blamed(table: Table) -> None:
    batch = table.decks[2].make_shares(0, [0])
    for deck in table.decks:
        deck.reshuffle([Slot(0, p) for p in range(SIZE)], [])
    table.shuffle_all()
    with pytest.raises(VerificationError) as err:
        table.decks[0].accept_shares(2, dataclasses.replace(batch, round=1))
    assert blamed(err) == 2


def test_share_made_on_a_tampered_ciphertext_is_blamed_on_its_maker(table: Table) -> None:
    maker = table.decks[1]
    real = maker.cards[7]
    key = maker.joint_key
    assert key is not None
    tampered = rerandomise(real, key, random_scalar())
    share = make_share(maker.secret, maker.keys[1], tampered, 7, Context(b"table-1", 0, 1))
    cheat = ShareBatch(0, 0, (7,), (share,))
    with pytest.raises(VerificationError) as err:
        table.decks[0].accept_shares(1, cheat)
    assert blamed(err) == 1


def test_shares_of_a_seats_own_card_or_for_another_owner_are_blamed(table: Table) -> None:
    honest = table.decks[1].make_shares(0, [1])
    with pytest.raises(VerificationError) as err:
        table.decks[2].accept_shares(0, dataclasses.replace(honest, owner=0))
    assert blamed(err) == 0
    table.decks[2].accept_shares(1, honest)
    other_owner = table.decks[0].make_shares(2, [1])
    with pytest.raises(VerificationError, match="dealt to seat 0") as err:
        table.decks[2].accept_shares(0, other_owner)
    assert blamed(err) == 0


@pytest.mark.parametrize("encoding", IDENTITY_OR_NO_ELEMENT)
def test_share_batch_with_a_bad_point_is_refused(table: Table, encoding: str) -> None:
    wire = table.decks[1].make_shares(0, [0]).encode()
    header = 4 * 4
    with pytest.raises(DecodeError):
        ShareBatch.decode(wire[:header] + bytes.fromhex(encoding) + wire[header + 32 :])


def test_share_batch_with_a_scalar_at_the_group_order_is_refused(table: Table) -> None:
    wire = table.decks[1].make_shares(0, [0]).encode()
    with pytest.raises(DecodeError):
        ShareBatch.decode(wire[:-32] + L.to_bytes(32, "little"))


# -- face up --------------------------------------------------------------------------------------


def test_public_reveal_claiming_another_card_is_blamed_on_the_revealer(table: Table) -> None:
    (slot,) = table.deal(0, [6])
    reveal = table.decks[0].make_reveal(slot)
    other_name = next(n for n in deck_names(SIZE) if n != reveal.card)
    lie = dataclasses.replace(reveal, card=other_name)
    for verifier in table.decks:
        with pytest.raises(VerificationError, match="claims") as err:
            verifier.accept_reveal(0, Reveal.decode(lie.encode()))
        assert blamed(err) == 0


def test_reveal_with_a_wrong_share_is_blamed(table: Table) -> None:
    (slot,) = table.deal(0, [6])
    reveal = table.decks[0].make_reveal(slot)
    wrong = dataclasses.replace(reveal.share, share=mul_base(random_scalar()))
    with pytest.raises(VerificationError) as err:
        table.decks[1].accept_reveal(0, dataclasses.replace(reveal, share=wrong))
    assert blamed(err) == 0


def test_reveal_of_a_card_dealt_to_another_seat_is_blamed(table: Table) -> None:
    (slot,) = table.deal(0, [6])
    table.deal(1, [7])
    stolen = dataclasses.replace(table.decks[1].make_reveal(Slot(0, 7)), slot=slot)
    with pytest.raises(VerificationError, match="not dealt to it") as err:
        table.decks[2].accept_reveal(1, stolen)
    assert blamed(err) == 1


def test_reveal_of_a_card_that_went_back_into_the_deck_is_blamed(table: Table) -> None:
    (slot,) = table.deal(0, [6])
    reveal = table.decks[0].make_reveal(slot)
    table.decks[1].reshuffle([slot], [])
    with pytest.raises(VerificationError, match="went back") as err:
        table.decks[1].accept_reveal(0, reveal)
    assert blamed(err) == 0


# -- audit ----------------------------------------------------------------------------------------


def test_false_claim_at_the_end_is_blamed_on_the_claimer(table: Table) -> None:
    (slot,) = table.deal(2, [9])
    card = table.decks[2].open(slot)
    other_name = next(n for n in deck_names(SIZE) if n != card)
    secrets = [deck.secret for deck in table.decks]
    with pytest.raises(VerificationError) as err:
        table.decks[0].audit(secrets, [Claim(2, slot, other_name)])
    assert blamed(err) == 2
    with pytest.raises(VerificationError, match="dealt to seat 2") as err:
        table.decks[0].audit(secrets, [Claim(1, slot, card)])
    assert blamed(err) == 1


def test_audit_refuses_a_secret_that_does_not_match_the_key(table: Table) -> None:
    secrets = [deck.secret for deck in table.decks]
    secrets[2] = (secrets[2] * 2) % L
    with pytest.raises(VerificationError) as err:
        table.decks[0].audit(secrets)
    assert blamed(err) == 2


@pytest.mark.parametrize("encoding", IDENTITY_OR_NO_ELEMENT)
def test_reveal_with_a_bad_point_is_refused(table: Table, encoding: str) -> None:
    (slot,) = table.deal(0, [6])
    wire = table.decks[0].make_reveal(slot).encode()
    share_at = len(wire) - DecryptionShare.ENCODED_BYTES
    with pytest.raises(DecodeError):
        Reveal.decode(wire[:share_at] + bytes.fromhex(encoding) + wire[share_at + 32 :])


@given(st.binary(max_size=300))
def test_random_bytes_are_never_a_share_batch_or_reveal_unless_exactly_encoded(
    data: bytes,
) -> None:
    for kind in (ShareBatch, Reveal):
        try:
            decoded = kind.decode(data)
        except DecodeError:
            continue
        assert decoded.encode() == data


def test_audit_catches_a_forged_shuffle_that_its_own_seat_trusted() -> None:
    table = Table(SEATS, deck_names(SIZE))
    cheater = table.decks[0]
    key = cheater.joint_key
    assert key is not None
    honest = cheater.make_shuffle()
    deck = list(honest.deck)
    # A second "10": the deck of 12 holds one, so the cards are no longer the deck's.
    deck[0] = encrypt(card_point(PhysicalCard("10", 2)), key, random_scalar())
    forged = dataclasses.replace(honest, deck=tuple(deck))
    cheater._made_step = forged  # as if its own storage had been tampered with
    cheater.accept_shuffle(0, forged)
    secrets = [d.secret for d in table.decks]
    with pytest.raises(VerificationError, match="changed the cards") as err:
        cheater.audit(secrets)
    assert blamed(err) == 0
