"""Card encoding: one distinct point per physical card, and the lookup back."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from condottiere.crypto.cards import Codebook, PhysicalCard, card_point
from condottiere.crypto.codec import encode_text, encode_u32
from condottiere.crypto.errors import DecodeError
from condottiere.crypto.group import BASE, is_point

NAMES = ["1", "2", "3", "4", "5", "6", "10", "heroine", "spy", "drummer", "winter", "bishop"]
card_names = st.sampled_from(NAMES)


def test_a_deck_of_110_with_identical_cards_has_110_distinct_valid_points() -> None:
    names = ["10"] * 8 + [NAMES[i % len(NAMES)] for i in range(102)]
    book = Codebook(names)
    assert len(book) == 110
    assert len(set(book.points)) == 110
    assert all(is_point(p) for p in book.points)
    assert [book.name_of(p) for p in book.points] == names


def test_copies_are_numbered_from_one_in_deck_order() -> None:
    book = Codebook(["10", "spy", "10", "10"])
    assert book.cards == (
        PhysicalCard("10", 1), PhysicalCard("spy", 1), PhysicalCard("10", 2), PhysicalCard("10", 3)
    )
    assert book.card_of(book.points[3]) == PhysicalCard("10", 3)
    assert book.point_of(PhysicalCard("10", 2)) == book.points[2]


def test_card_points_do_not_depend_on_the_deck_they_are_in() -> None:
    assert Codebook(["spy", "10"]).points[1] == Codebook(["10"]).points[0]
    assert card_point(PhysicalCard("10", 1)) != card_point(PhysicalCard("10", 2))


def test_a_point_of_no_card_is_looked_up_as_none() -> None:
    book = Codebook(["10", "spy"])
    assert book.card_of(BASE) is None and book.name_of(BASE) is None
    with pytest.raises(KeyError):
        book.point_of(PhysicalCard("10", 2))


@pytest.mark.parametrize("name", ["", "10#2", "#"])
def test_names_that_would_make_labels_ambiguous_are_refused(name: str) -> None:
    with pytest.raises(ValueError):
        Codebook([name])


@given(st.lists(card_names, max_size=30))
def test_codebook_encoding_round_trips(names: list[str]) -> None:
    book = Codebook(names)
    assert Codebook.decode(book.encode()) == book


@given(st.lists(card_names, min_size=1, max_size=10), st.data())
def test_truncated_or_extended_codebook_encoding_is_refused(
    names: list[str], data: st.DataObject
) -> None:
    encoded = Codebook(names).encode()
    cut = data.draw(st.integers(0, len(encoded) - 1))
    with pytest.raises(DecodeError):
        Codebook.decode(encoded[:cut])
    with pytest.raises(DecodeError):
        Codebook.decode(encoded + b"\x00")


def test_codebook_with_an_invalid_name_or_huge_count_is_refused() -> None:
    with pytest.raises(DecodeError, match="#"):
        Codebook.decode(encode_u32(1) + encode_text("10#1"))
    with pytest.raises(DecodeError, match="cannot fit"):
        Codebook.decode(encode_u32(2**32 - 1))
