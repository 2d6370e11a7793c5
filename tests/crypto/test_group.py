"""The group module against RFC 9496's published values for ristretto255.

Known answers: the encodings of ``[0]B .. [15]B`` (RFC 9496 appendix A.1), encodings
every decoder must refuse (non-canonical or negative field elements, appendix A.2's
kinds), the element derivation from 64 uniform bytes (appendix A.3), and the group order
(section 4). Hypothesis checks that libsodium's arithmetic is that of a group of order
``L``: multiplication distributes over addition of scalars and of points.
"""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from condottiere.crypto import sodium
from condottiere.crypto.group import (
    BASE,
    IDENTITY,
    GroupError,
    L,
    add,
    decode_point,
    hash_to_point,
    is_point,
    mul,
    mul_base,
    multi_mul,
    neg,
    sub,
    sum_points,
)

SMALL_MULTIPLES = [
    "0000000000000000000000000000000000000000000000000000000000000000",
    "e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76",
    "6a493210f7499cd17fecb510ae0cea23a110e8d5b901f8acadd3095c73a3b919",
    "94741f5d5d52755ece4f23f044ee27d5d1ea1e2bd196b462166b16152a9d0259",
    "da80862773358b466ffadfe0b3293ab3d9fd53c5ea6c955358f568322daf6a57",
    "e882b131016b52c1d3337080187cf768423efccbb517bb495ab812c4160ff44e",
    "f64746d3c92b13050ed8d80236a7f0007c3b3f962f5ba793d19a601ebb1df403",
    "44f53520926ec81fbd5a387845beb7df85a96a24ece18738bdcfa6a7822a176d",
    "903293d8f2287ebe10e2374dc1a53e0bc887e592699f02d077d5263cdd55601c",
    "02622ace8f7303a31cafc63f8fc48fdc16e1c8c8d234b2f0d6685282a9076031",
    "20706fd788b2720a1ed2a5dad4952b01f413bcf0e7564de8cdc816689e2db95f",
    "bce83f8ba5dd2fa572864c24ba1810f9522bc6004afe95877ac73241cafdab42",
    "e4549ee16b9aa03099ca208c67adafcafa4c3f3e4e5303de6026e3ca8ff84460",
    "aa52e000df2e16f55fb1032fc33bc42742dad6bd5a8fc0be0167436c5948501f",
    "46376b80f409b29dc2b5f6f0c52591990896e5716f41477cd30085ab7f10301e",
    "e0c418f7c8d9c4cdd7395b93ea124f3ad99021bb681dfc3302a9d99a2e53e64e",
]
"""RFC 9496 appendix A.1: the encodings of ``[0]B, [1]B, ..., [15]B``."""

FIELD = 2**255 - 19

REFUSED_ENCODINGS = {
    "s = p": FIELD.to_bytes(32, "little"),
    "s = p + 1": (FIELD + 1).to_bytes(32, "little"),
    "s = 2^255 - 1": (2**255 - 1).to_bytes(32, "little"),
    "high bit set": (2**255 + 2).to_bytes(32, "little"),
    "s = 1 (negative)": (1).to_bytes(32, "little"),
    "s = p - 2 (negative)": (FIELD - 2).to_bytes(32, "little"),
    "s = -1 (y = 0)": (FIELD - 1).to_bytes(32, "little"),
    "[1]B made odd": bytes([0xE3]) + bytes.fromhex(SMALL_MULTIPLES[1])[1:],
}
"""Encodings RFC 9496's decoding refuses: field elements at least ``p`` and odd ("negative")
field elements (appendix A.2's two kinds)."""

ELEMENT_DERIVATION = [
    (
        "5d1be09e3d0c82fc538112490e35701979d99e06ca3e2b5b54bffe8b4dc772c1"
        "4d98b696a1bbfb5ca32c436cc61c16563790306c79eaca7705668b47dffe5bb6",
        "3066f82a1a747d45120d1740f14358531a8f04bbffe6a819f86dfe50f44a0a46",
    ),
    (
        "f116b34b8f17ceb56e8732a60d913dd10cce47a6d53bee9204be8b44f6678b27"
        "0102a56902e2488c46120e9276cfe54638286b9e4b3cdb470b542d46c2068d38",
        "f26e5b6f7d362d2d2a94c5d0e7602cb4773c95a2e5c31a64f133189fa76ed61b",
    ),
]
"""RFC 9496 appendix A.3: 64 uniform bytes and the element they derive."""


def test_base_point_has_its_rfc9496_encoding() -> None:
    assert BASE.hex() == SMALL_MULTIPLES[1]


def test_identity_has_its_rfc9496_encoding_and_is_no_point() -> None:
    assert IDENTITY.hex() == SMALL_MULTIPLES[0]
    assert sodium.crypto_core_ristretto255_is_valid_point(IDENTITY)
    assert not is_point(IDENTITY)
    with pytest.raises(GroupError):
        decode_point(IDENTITY)


@pytest.mark.parametrize("k", range(1, 16))
def test_small_multiples_of_the_base_have_their_rfc9496_encodings(k: int) -> None:
    assert mul_base(k).hex() == SMALL_MULTIPLES[k]
    assert mul(k, BASE).hex() == SMALL_MULTIPLES[k]
    assert decode_point(bytes.fromhex(SMALL_MULTIPLES[k])) == mul_base(k)


def test_adding_the_base_walks_the_rfc9496_multiples() -> None:
    point = BASE
    for k in range(2, 16):
        point = add(point, BASE)
        assert point.hex() == SMALL_MULTIPLES[k]


def test_group_order_is_the_rfc9496_prime() -> None:
    assert L == 2**252 + 27742317777372353535851937790883648493
    assert mul_base(L - 1) == neg(BASE)
    with pytest.raises(GroupError):
        mul_base(L)
    with pytest.raises(GroupError):
        mul(L, BASE)


@pytest.mark.parametrize("encoding", REFUSED_ENCODINGS.values(), ids=REFUSED_ENCODINGS.keys())
def test_non_canonical_and_negative_encodings_are_refused(encoding: bytes) -> None:
    assert not sodium.crypto_core_ristretto255_is_valid_point(encoding)
    assert not is_point(encoding)
    with pytest.raises(GroupError):
        decode_point(encoding)


@pytest.mark.parametrize(("uniform", "element"), ELEMENT_DERIVATION)
def test_element_derivation_matches_rfc9496(uniform: str, element: str) -> None:
    assert sodium.crypto_core_ristretto255_from_hash(bytes.fromhex(uniform)).hex() == element


def test_rfc9496_derivation_of_a_hashed_label() -> None:
    digest = hashlib.sha512(b"Ristretto is traditionally a short shot of espresso coffee")
    assert sodium.crypto_core_ristretto255_from_hash(digest.digest()).hex() == (
        ELEMENT_DERIVATION[0][1]
    )


def test_wrong_lengths_are_refused_before_libsodium_reads_them() -> None:
    with pytest.raises(sodium.SodiumError):
        sodium.crypto_core_ristretto255_add(BASE, BASE[:31])
    with pytest.raises(sodium.SodiumError):
        sodium.crypto_core_ristretto255_from_hash(bytes(63))
    with pytest.raises(GroupError):
        decode_point(BASE + b"\x00")


def test_a_sum_that_vanishes_is_the_identity_and_mul_of_zero_is_refused() -> None:
    assert sub(BASE, BASE) == IDENTITY
    assert add(BASE, neg(BASE)) == IDENTITY
    with pytest.raises(GroupError):
        mul(0, BASE)
    with pytest.raises(GroupError):
        mul_base(0)


@settings(max_examples=25, deadline=None)
@given(st.integers(1, L - 1), st.integers(1, L - 1))
def test_multiplication_distributes_over_scalars_and_points(j: int, k: int) -> None:
    if (j + k) % L:
        assert add(mul_base(j), mul_base(k)) == mul_base((j + k) % L)
    if j != k:
        assert sub(mul_base(j), mul_base(k)) == mul_base((j - k) % L)
    assert mul(k, mul_base(j)) == mul_base(j * k % L)
    point = hash_to_point(b"test", j.to_bytes(32, "little"))
    assert mul(k, add(point, BASE)) == add(mul(k, point), mul_base(k))
    assert multi_mul([j, k], [point, BASE]) == sum_points([mul(j, point), mul_base(k)])


@given(st.binary(max_size=16))
def test_hashed_points_are_valid_group_elements(label: bytes) -> None:
    assert is_point(hash_to_point(b"test", label))


def test_hash_to_point_is_the_rfc9496_map_of_a_framed_sha512_digest() -> None:
    framed = b"".join(
        len(part).to_bytes(8, "little") + part
        for part in (b"condottiere/v5/ristretto255/card", b"10#1")
    )
    digest = hashlib.sha512(framed + bytes(4)).digest()
    assert hash_to_point(b"card", b"10#1") == sodium.crypto_core_ristretto255_from_hash(digest)
