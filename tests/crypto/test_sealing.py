"""Sealed boxes to a seat's box key: libsodium's format, reproducible from the ephemeral
secret, and box keys checked as every received point is."""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nacl.public import PrivateKey, PublicKey, SealedBox

from condottiere.crypto.errors import DecodeError
from condottiere.crypto.sealing import (
    BOX_KEY_BYTES,
    SEAL_OVERHEAD,
    BoxKey,
    BoxSecret,
    seal,
)

P = 2**255 - 19
SMALL_ORDER_U = [
    0,
    1,
    325606250916557431795983626356110631294008115727848805560023387167927233504,
    39382357235489614581723060781553021112529911719440698176882885853963445705823,
    P - 1,
]


@settings(max_examples=30, deadline=None)
@given(
    st.binary(min_size=32, max_size=32),
    st.binary(max_size=200),
    st.binary(min_size=32, max_size=32),
)
def test_a_box_opens_with_its_key_and_with_libsodium_and_is_reproducible(
    secret: bytes, message: bytes, ephemeral: bytes
) -> None:
    me = BoxSecret(secret)
    box = seal(message, me.public, ephemeral)
    assert len(box) == len(message) + SEAL_OVERHEAD
    assert me.open(box) == message
    assert SealedBox(PrivateKey(secret)).decrypt(box) == message
    assert seal(message, me.public, ephemeral) == box


def test_a_box_made_by_libsodium_opens_too() -> None:
    me = BoxSecret.generate()
    box = SealedBox(PublicKey(me.public.encode())).encrypt(b"piece")
    assert me.open(box) == b"piece"


def test_a_restarted_seat_rebuilds_its_box_secret_from_its_bytes() -> None:
    me = BoxSecret.generate()
    box = seal(b"kept", me.public, os.urandom(32))
    again = BoxSecret(me.secret_bytes())
    assert again.public == me.public
    assert again.open(box) == b"kept"


def _altered(box: bytes) -> bytes:
    return box[:-1] + bytes([box[-1] ^ 1])


BAD_BOXES: dict[str, Callable[[BoxSecret, BoxSecret], bytes]] = {
    "sealed-to-another-key": lambda me, other: seal(b"x", other.public, bytes(32)),
    "altered": lambda me, other: _altered(seal(b"x", me.public, bytes(32))),
    "truncated": lambda me, other: b"short",
    "garbage": lambda me, other: os.urandom(80),
}


@pytest.mark.parametrize("kind", BAD_BOXES)
def test_a_box_that_is_not_for_this_key_or_was_altered_does_not_open(kind: str) -> None:
    me, other = BoxSecret.generate(), BoxSecret.generate()
    with pytest.raises(DecodeError, match="does not open"):
        me.open(BAD_BOXES[kind](me, other))


def test_honest_box_keys_decode_and_round_trip() -> None:
    for _ in range(50):
        key = BoxSecret.generate().public
        assert BoxKey.decode(key.encode()) == key
        assert hash(BoxKey(key.raw)) == hash(key)


@pytest.mark.parametrize("u", SMALL_ORDER_U)
def test_small_order_box_keys_are_refused(u: int) -> None:
    with pytest.raises(DecodeError):
        BoxKey(u.to_bytes(BOX_KEY_BYTES, "little"))


def test_non_canonical_and_malformed_box_keys_are_refused() -> None:
    honest = BoxSecret.generate().public.raw
    u = int.from_bytes(honest, "little")
    if u + P < 2**256:
        with pytest.raises(DecodeError):  # the same point, encoded with u + p
            BoxKey((u + P).to_bytes(32, "little"))
    with pytest.raises(DecodeError):  # the top bit, which X25519 ignores
        BoxKey(honest[:31] + bytes([honest[31] | 0x80]))
    for bad in (honest[:31], honest + b"\x00", b""):
        with pytest.raises(DecodeError):
            BoxKey(bad)


def test_box_keys_off_the_prime_order_subgroup_are_refused() -> None:
    """Random u coordinates: about half are off the curve (on its twist), and of those on it
    only one in eight is in the prime-order subgroup; libsodium's honest keys always are."""
    accepted = 0
    for _ in range(400):
        raw = os.urandom(31) + b"\x00"
        try:
            BoxKey(raw)
        except DecodeError:
            continue
        accepted += 1
    assert 0 < accepted < 400 * 0.15


def test_an_ephemeral_secret_of_the_wrong_length_is_refused() -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        seal(b"x", BoxSecret.generate().public, bytes(31))
    with pytest.raises(ValueError, match="32 bytes"):
        BoxSecret(bytes(16))
