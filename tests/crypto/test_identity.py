"""Peer identities: RFC 8032 section 7.1 vectors, verification, fingerprints."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from condottiere.crypto.errors import DecodeError, VerificationError
from condottiere.crypto.identity import Identity, PublicIdentity

# RFC 8032 section 7.1, Ed25519 TEST 1, TEST 2, TEST 3: secret key, public key, message, signature.
RFC8032_VECTORS = [
    (
        "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
        "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
        "",
        "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
    ),
    (
        "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
        "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
        "72",
        "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00",
    ),
    (
        "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
        "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
        "af82",
        "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a",
    ),
]


@pytest.mark.parametrize(("secret", "public", "message", "signature"), RFC8032_VECTORS)
def test_rfc8032_vectors_give_the_published_key_and_signature(
    secret: str, public: str, message: str, signature: str
) -> None:
    me = Identity(bytes.fromhex(secret))
    assert me.public.raw.hex() == public
    assert me.sign(bytes.fromhex(message)).hex() == signature
    PublicIdentity.decode(bytes.fromhex(public)).verify(
        bytes.fromhex(message), bytes.fromhex(signature), seat=0
    )


@pytest.mark.parametrize(("secret", "public", "message", "signature"), RFC8032_VECTORS)
def test_rfc8032_signature_fails_for_another_message(
    secret: str, public: str, message: str, signature: str
) -> None:
    key = PublicIdentity.decode(bytes.fromhex(public))
    with pytest.raises(VerificationError) as err:
        key.verify(bytes.fromhex(message) + b"!", bytes.fromhex(signature), seat=3)
    assert err.value.seat == 3


_ME = Identity.generate()


@given(st.binary(max_size=64), st.integers(0, 64 * 8 - 1))
def test_flipped_signature_bit_fails(message: bytes, bit: int) -> None:
    signature = bytearray(_ME.sign(message))
    signature[bit // 8] ^= 1 << (bit % 8)
    assert _ME.public.verifies(message, _ME.sign(message))
    assert not _ME.public.verifies(message, bytes(signature))


def test_signature_of_the_wrong_length_fails() -> None:
    assert not _ME.public.verifies(b"m", _ME.sign(b"m")[:-1])


def test_identity_survives_storing_its_secret() -> None:
    again = Identity(_ME.secret_bytes())
    assert again.public == _ME.public
    assert _ME.public.verifies(b"entry", again.sign(b"entry"))


@pytest.mark.parametrize(
    "raw",
    [
        "0100000000000000000000000000000000000000000000000000000000000000",
        "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
        "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f70751",
    ],
)
def test_small_order_non_canonical_or_short_identity_keys_are_refused(raw: str) -> None:
    with pytest.raises(DecodeError):
        PublicIdentity.decode(bytes.fromhex(raw))


def test_fingerprint_is_five_groups_of_four_hex_digits_and_differs_between_keys() -> None:
    fingerprint = _ME.public.fingerprint()
    groups = fingerprint.split("-")
    assert [len(g) for g in groups] == [4] * 5
    assert all(c in "0123456789abcdef" for g in groups for c in g)
    assert Identity.generate().public.fingerprint() != fingerprint
    assert PublicIdentity.decode(_ME.public.encode()).fingerprint() == fingerprint
