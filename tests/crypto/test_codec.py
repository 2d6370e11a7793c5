"""Canonical encodings: round trips, and refusal of every malformed byte string."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from condottiere.crypto.codec import (
    CIPHERTEXT_BYTES,
    Reader,
    decode_ciphertext,
    decode_ciphertexts,
    decode_point,
    decode_scalar,
    encode_bytes,
    encode_ciphertext,
    encode_ciphertexts,
    encode_scalar,
    encode_text,
    encode_u8,
    encode_u16,
    encode_u32,
)
from condottiere.crypto.errors import DecodeError
from condottiere.crypto.group import BASE, IDENTITY, L, is_point, mul_base

scalars = st.integers(min_value=1, max_value=L - 1)
points = scalars.map(mul_base)
ciphertexts = st.tuples(points, points)


@given(st.lists(ciphertexts, max_size=8))
def test_ciphertext_list_round_trips(deck: list[tuple[bytes, bytes]]) -> None:
    data = encode_ciphertexts(deck)
    assert len(data) == CIPHERTEXT_BYTES * len(deck)
    assert decode_ciphertexts(data, len(deck)) == deck


@given(st.lists(ciphertexts, min_size=1, max_size=4), st.data())
def test_truncated_or_extended_ciphertext_list_is_refused(
    deck: list[tuple[bytes, bytes]], data: st.DataObject
) -> None:
    encoded = encode_ciphertexts(deck)
    cut = data.draw(st.integers(min_value=0, max_value=len(encoded) - 1))
    with pytest.raises(DecodeError):
        decode_ciphertexts(encoded[:cut], len(deck))
    with pytest.raises(DecodeError):
        decode_ciphertexts(encoded + data.draw(st.binary(min_size=1, max_size=64)), len(deck))


@given(ciphertexts, st.integers(min_value=0, max_value=CIPHERTEXT_BYTES * 8 - 1))
def test_flipping_a_bit_of_a_ciphertext_either_is_refused_or_gives_another_valid_one(
    c: tuple[bytes, bytes], bit: int
) -> None:
    data = bytearray(encode_ciphertext(c))
    data[bit // 8] ^= 1 << (bit % 8)
    flipped = bytes(data)
    if is_point(flipped[:32]) and is_point(flipped[32:]):
        assert decode_ciphertext(flipped) != c
    else:
        with pytest.raises(DecodeError):
            decode_ciphertext(flipped)


@given(st.binary(min_size=32, max_size=32))
def test_random_32_bytes_decode_only_when_they_are_a_valid_point(data: bytes) -> None:
    if is_point(data):
        assert decode_point(data) == data
    else:
        with pytest.raises(DecodeError):
            decode_point(data)


@given(st.binary().filter(lambda b: len(b) != 32))
def test_point_of_wrong_length_is_refused(data: bytes) -> None:
    with pytest.raises(DecodeError):
        decode_point(data)


@given(st.integers(min_value=0, max_value=L - 1))
def test_scalar_round_trips(k: int) -> None:
    assert decode_scalar(encode_scalar(k)) == k


@given(st.integers(min_value=L, max_value=2**256 - 1))
def test_scalar_at_or_above_the_group_order_is_refused(k: int) -> None:
    with pytest.raises(DecodeError):
        decode_scalar(k.to_bytes(32, "little"))


def test_identity_is_refused_as_a_point() -> None:
    with pytest.raises(DecodeError):
        decode_point(IDENTITY)


@given(st.integers(0, 255), st.integers(0, 2**16 - 1), st.integers(0, 2**32 - 1),
       st.binary(max_size=40), st.text(max_size=20))
def test_reader_reads_back_every_field_kind(
    u8: int, u16: int, u32: int, blob: bytes, text: str
) -> None:
    data = (encode_u8(u8) + encode_u16(u16) + encode_u32(u32) + encode_bytes(blob)
            + encode_text(text) + BASE + encode_scalar(u32))
    reader = Reader(data)
    assert (reader.u8(), reader.u16(), reader.u32(), reader.blob(), reader.text()) == (
        u8, u16, u32, blob, text)
    assert (reader.point(), reader.scalar()) == (BASE, u32)
    reader.finish()


def test_reader_refuses_trailing_bytes() -> None:
    reader = Reader(encode_u32(1) + b"\x00")
    reader.u32()
    with pytest.raises(DecodeError, match="trailing"):
        reader.finish()


def test_reader_refuses_a_length_prefix_longer_than_the_data() -> None:
    with pytest.raises(DecodeError, match="truncated"):
        Reader(encode_u32(10) + b"abc").blob()


def test_reader_refuses_text_that_is_not_utf8() -> None:
    with pytest.raises(DecodeError, match="UTF-8"):
        Reader(encode_bytes(b"\xc0\xaf")).text()


def test_reader_refuses_what_is_not_bytes() -> None:
    with pytest.raises(DecodeError):
        Reader("text")  # type: ignore[arg-type]
