"""Seat keys with Schnorr proofs of knowledge, and the joint key."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from condottiere.crypto.context import Context
from condottiere.crypto.errors import DecodeError, VerificationError
from condottiere.crypto.group import L, is_point, mul_base, random_scalar, sub, sum_points
from condottiere.crypto.keys import KeyAnnouncement, generate_key, joint_key, prove_key, verify_key

CTX = Context(b"table-7", 0, 0)


def seat_keys(seats: int, ctx: Context = CTX) -> tuple[list[int], list[KeyAnnouncement]]:
    pairs = [generate_key(ctx.for_seat(seat)) for seat in range(seats)]
    return [s for s, _ in pairs], [a for _, a in pairs]


@pytest.mark.parametrize("seats", range(1, 7))
def test_joint_key_is_the_sum_of_every_seat_key(seats: int) -> None:
    secrets, announcements = seat_keys(seats)
    assert joint_key(announcements, CTX) == mul_base(sum(secrets) % L)


def test_tampered_key_proof_is_blamed_on_its_seat() -> None:
    _, announcements = seat_keys(4)
    bad = announcements[2]
    announcements[2] = dataclasses.replace(bad, response=(bad.response + 1) % L)
    with pytest.raises(VerificationError) as err:
        joint_key(announcements, CTX)
    assert err.value.seat == 2


@pytest.mark.parametrize(
    "other", [Context(b"table-8", 0, 1), Context(b"table-7", 1, 1), Context(b"table-7", 0, 2)]
)
def test_key_proof_bound_to_another_table_round_or_seat_is_refused(other: Context) -> None:
    secret = random_scalar()
    announcement = prove_key(secret, other)
    verify_key(announcement, other)
    with pytest.raises(VerificationError) as err:
        verify_key(announcement, CTX.for_seat(1))
    assert err.value.seat == 1


def test_key_proof_copied_from_another_seat_is_blamed_on_the_copier() -> None:
    _, announcements = seat_keys(3)
    announcements[2] = announcements[1]
    with pytest.raises(VerificationError) as err:
        joint_key(announcements, CTX)
    assert err.value.seat == 2


def test_rogue_key_cancelling_the_others_is_caught_for_want_of_a_proof() -> None:
    _, announcements = seat_keys(3)
    chosen = random_scalar()
    rogue_key = sub(mul_base(chosen), sum_points(a.key for a in announcements[:2]))
    # Were the rogue key accepted, its author alone would know the joint key's secret.
    assert sum_points([announcements[0].key, announcements[1].key, rogue_key]) == mul_base(chosen)
    # Its author's best effort: a valid proof for a key it knows, relabelled.
    honest_proof = prove_key(chosen, CTX.for_seat(2))
    announcements[2] = dataclasses.replace(honest_proof, key=rogue_key)
    with pytest.raises(VerificationError) as err:
        joint_key(announcements, CTX)
    assert err.value.seat == 2


def test_joint_key_equal_to_the_identity_is_refused() -> None:
    secret = random_scalar()
    announcements = [prove_key(secret, CTX.for_seat(0)), prove_key(L - secret, CTX.for_seat(1))]
    with pytest.raises(VerificationError, match="identity") as err:
        joint_key(announcements, CTX)
    assert err.value.seat == 1


def test_key_that_is_not_a_group_element_is_refused() -> None:
    announcement = dataclasses.replace(prove_key(5, CTX), key=bytes(32))
    assert not is_point(announcement.key)
    with pytest.raises(VerificationError):
        verify_key(announcement, CTX)


@settings(max_examples=20)
@given(st.integers(1, L - 1))
def test_key_announcement_round_trips_and_still_verifies(secret: int) -> None:
    announcement = prove_key(secret, CTX)
    decoded = KeyAnnouncement.decode(announcement.encode())
    assert decoded == announcement
    verify_key(decoded, CTX)


@given(st.binary(max_size=120))
def test_malformed_key_announcement_bytes_are_refused_or_exact(data: bytes) -> None:
    try:
        decoded = KeyAnnouncement.decode(data)
    except DecodeError:
        return
    assert decoded.encode() == data


@given(st.integers(0, KeyAnnouncement.ENCODED_BYTES * 8 - 1))
def test_flipped_bit_in_a_key_announcement_is_refused_or_fails_verification(bit: int) -> None:
    data = bytearray(prove_key(12345, CTX).encode())
    data[bit // 8] ^= 1 << (bit % 8)
    try:
        decoded = KeyAnnouncement.decode(bytes(data))
    except DecodeError:
        return
    with pytest.raises(VerificationError):
        verify_key(decoded, CTX)


def test_scalar_at_the_group_order_in_a_key_announcement_is_refused() -> None:
    good = prove_key(7, CTX).encode()
    with pytest.raises(DecodeError):
        KeyAnnouncement.decode(good[:64] + L.to_bytes(32, "little"))
