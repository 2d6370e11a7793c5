"""Holes found in review of the deck, share, key and audit paths, each closed: a share that
would decrypt a card returned face down, shares for a round that is over, proofs with scalars
that are not canonical or not scalars at all, and a shuffle whose cards decode to nothing."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from condottiere.crypto.context import Context
from condottiere.crypto.deck import Slot
from condottiere.crypto.elgamal import Ciphertext
from condottiere.crypto.errors import VerificationError
from condottiere.crypto.group import L, mul_base, random_scalar
from condottiere.crypto.keys import KeyAnnouncement, prove_key, verify_key
from condottiere.crypto.shares import DecryptionShare, make_share, verify_share
from tests.crypto.test_deck import Table, deck_names

SEATS, SIZE = 3, 12

NOT_CANONICAL = [
    pytest.param(lambda k: k + L, id="plus-L"),
    pytest.param(lambda k: 2**256 - 1, id="max-32-bytes"),
    pytest.param(lambda k: 2**300, id="beyond-32-bytes"),
    pytest.param(lambda k: -1, id="negative"),
    pytest.param(lambda k: float(k), id="not-an-int"),
]


@pytest.fixture
def table() -> Table:
    shuffled = Table(SEATS, deck_names(SIZE))
    shuffled.shuffle_all()
    return shuffled


def test_no_reveal_is_made_of_a_card_that_went_back_into_the_deck(table: Table) -> None:
    (slot,) = table.deal(0, [6])
    for deck in table.decks:
        deck.reshuffle([slot], [])
    with pytest.raises(ValueError, match="went back into the deck"):
        table.decks[0].make_reveal(slot)


def test_shares_for_a_round_that_is_over_are_blamed_on_their_maker(table: Table) -> None:
    early = table.decks[2].make_shares(0, [0])  # made, never published in round 0
    for deck in table.decks:
        deck.reshuffle([Slot(0, p) for p in range(SIZE)], [])
    table.shuffle_all()
    with pytest.raises(VerificationError, match="round 0") as err:
        table.decks[0].accept_shares(2, early)
    assert err.value.seat == 2
    assert table.decks[0].owner_of(Slot(0, 0)) is None  # nothing was recorded


def _share() -> tuple[DecryptionShare, bytes, Ciphertext, Context]:
    secret = random_scalar()
    key = mul_base(secret)
    ciphertext = (mul_base(random_scalar()), mul_base(random_scalar()))
    context = Context(b"table-h", 0, 1)
    return make_share(secret, key, ciphertext, 4, context), key, ciphertext, context


@pytest.mark.parametrize("field", ["challenge", "response"])
@pytest.mark.parametrize("bad", NOT_CANONICAL)
def test_a_share_proof_with_a_scalar_that_is_not_canonical_is_blamed(field: str, bad: Any) -> None:
    share, key, ciphertext, context = _share()
    forged = dataclasses.replace(share, **{field: bad(getattr(share, field))})
    with pytest.raises(VerificationError, match="not a canonical scalar") as err:
        verify_share(forged, key, ciphertext, 4, context)
    assert err.value.seat == 1


@pytest.mark.parametrize(
    "forge",
    [
        pytest.param(lambda s: dataclasses.replace(s, share=None), id="share-none"),
        pytest.param(lambda s: dataclasses.replace(s, share="point"), id="share-text"),
        pytest.param(lambda s: dataclasses.replace(s, share=b"\x05" * 31), id="share-short"),
    ],
)
def test_a_malformed_share_is_blamed_on_its_seat(forge: Any) -> None:
    share, key, ciphertext, context = _share()
    with pytest.raises(VerificationError) as err:
        verify_share(forge(share), key, ciphertext, 4, context)
    assert err.value.seat == 1


@pytest.mark.parametrize("position", [-1, 2**32])
def test_a_share_for_a_position_no_deck_has_is_blamed(position: int) -> None:
    share, key, ciphertext, context = _share()
    with pytest.raises(VerificationError, match="position") as err:
        verify_share(share, key, ciphertext, position, context)
    assert err.value.seat == 1


@pytest.mark.parametrize("field", ["challenge", "response"])
@pytest.mark.parametrize("bad", NOT_CANONICAL)
def test_a_key_proof_with_a_scalar_that_is_not_canonical_is_blamed(field: str, bad: Any) -> None:
    context = Context(b"table-h", 0, 2)
    announcement = prove_key(random_scalar(), context)
    forged = dataclasses.replace(announcement, **{field: bad(getattr(announcement, field))})
    with pytest.raises(VerificationError, match="not a canonical scalar") as err:
        verify_key(forged, context)
    assert err.value.seat == 2


@pytest.mark.parametrize("key", [None, "key", b"\x07" * 5])
def test_a_key_that_is_not_bytes_of_a_point_is_blamed(key: Any) -> None:
    context = Context(b"table-h", 0, 2)
    announcement = prove_key(random_scalar(), context)
    forged: KeyAnnouncement = dataclasses.replace(announcement, key=key)
    with pytest.raises(VerificationError) as err:
        verify_key(forged, context)
    assert err.value.seat == 2


def test_an_audit_names_the_shuffler_whose_trusted_step_holds_no_card_of_the_deck() -> None:
    table = Table(SEATS, deck_names(SIZE))
    cheater = table.decks[0]
    honest = cheater.make_shuffle()
    deck = list(honest.deck)
    deck[4] = (bytes(32), deck[4][1])  # not a point at all: it decrypts to nothing
    forged = dataclasses.replace(honest, deck=tuple(deck))
    cheater._made_step = forged  # as if its own storage had been tampered with
    cheater.accept_shuffle(0, forged)
    with pytest.raises(VerificationError, match="no card of the deck") as err:
        cheater.audit([d.secret for d in table.decks])
    assert err.value.seat == 0
