"""Decryption shares with DLEQ proofs: correctness, binding, and blame."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from condottiere.crypto.context import Context
from condottiere.crypto.elgamal import Ciphertext, encrypt
from condottiere.crypto.errors import DecodeError, VerificationError
from condottiere.crypto.group import L, hash_to_point, mul_base, random_scalar
from condottiere.crypto.shares import (
    DecryptionShare,
    ShareCheck,
    make_share,
    make_shares,
    share_point,
    unblind,
    verify_share,
    verify_shares,
)

CTX = Context(b"table-3", 2, 0)
secrets_st = st.lists(st.integers(1, L - 1), min_size=2, max_size=5)


def deal(secrets: list[int], label: bytes, r: int) -> tuple[bytes, Ciphertext]:
    card = hash_to_point(b"test-card", label)
    return card, encrypt(card, mul_base(sum(secrets) % L), r)


@settings(max_examples=15, deadline=None)
@given(secrets_st, st.binary(max_size=8), st.integers(1, L - 1), st.integers(0, 109))
def test_owner_opens_its_card_from_verified_shares_and_its_own_secret(
    secrets: list[int], label: bytes, r: int, position: int
) -> None:
    assume(sum(secrets) % L != 0)  # an identity joint key is refused when keys are joined
    card, c = deal(secrets, label, r)
    others = []
    for seat, secret in enumerate(secrets[1:], start=1):
        share = make_share(secret, mul_base(secret), c, position, CTX.for_seat(seat))
        verify_share(share, mul_base(secret), c, position, CTX.for_seat(seat))
        others.append(share.share)
    assert unblind(c, [*others, share_point(secrets[0], c)]) == card
    assert unblind(c, others) != card


def _one_share() -> tuple[int, bytes, Ciphertext, DecryptionShare]:
    secret = random_scalar()
    key = mul_base(secret)
    _, c = deal([secret, random_scalar()], b"spy#1", random_scalar())
    return secret, key, c, make_share(secret, key, c, 4, CTX.for_seat(1))


def test_wrong_share_is_blamed_on_its_seat() -> None:
    secret, key, c, share = _one_share()
    liar = dataclasses.replace(share, share=share_point(secret + 1, c))
    with pytest.raises(VerificationError) as err:
        verify_share(liar, key, c, 4, CTX.for_seat(1))
    assert err.value.seat == 1


def test_share_with_an_honest_proof_for_another_secret_is_refused() -> None:
    _, key, c, _ = _one_share()
    impostor = make_share(random_scalar(), key, c, 4, CTX.for_seat(1))
    with pytest.raises(VerificationError):
        verify_share(impostor, key, c, 4, CTX.for_seat(1))


def test_share_proof_replayed_for_another_card_is_refused() -> None:
    secret, key, _, share = _one_share()
    _, other_card = deal([secret, random_scalar()], b"spy#2", random_scalar())
    with pytest.raises(VerificationError):
        verify_share(share, key, other_card, 4, CTX.for_seat(1))


def test_share_proof_replayed_for_the_same_ciphertext_at_another_position_is_refused() -> None:
    _, key, c, share = _one_share()
    with pytest.raises(VerificationError):
        verify_share(share, key, c, 5, CTX.for_seat(1))


@pytest.mark.parametrize(
    "other", [Context(b"table-4", 2, 1), Context(b"table-3", 3, 1), Context(b"table-3", 2, 2)]
)
def test_share_proof_bound_to_another_table_round_or_seat_is_refused(other: Context) -> None:
    _, key, c, share = _one_share()
    with pytest.raises(VerificationError) as err:
        verify_share(share, key, c, 4, other)
    assert err.value.seat == other.seat


def test_share_that_is_not_a_group_element_is_refused() -> None:
    _, key, c, share = _one_share()
    with pytest.raises(VerificationError, match="not a group element"):
        verify_share(dataclasses.replace(share, share=bytes(32)), key, c, 4, CTX.for_seat(1))


@pytest.mark.parametrize("count", [5, 80])
def test_batch_verification_blames_the_first_bad_share_in_order(count: int) -> None:
    secrets = [random_scalar() for _ in range(3)]
    keys = [mul_base(x) for x in secrets]
    checks = []
    for position in range(count):
        _, c = deal(secrets, position.to_bytes(2, "little"), random_scalar())
        seat = 1 + position % 2
        share = make_share(secrets[seat], keys[seat], c, position, CTX.for_seat(seat))
        checks.append(ShareCheck(share, keys[seat], c, position, CTX.for_seat(seat)))
    verify_shares(checks)
    for bad in (count - 1, count - 2):
        checks[bad] = dataclasses.replace(checks[bad], position=checks[bad].position + 1000)
    with pytest.raises(VerificationError) as err:
        verify_shares(checks)
    assert err.value.seat == checks[count - 2].context.seat


@settings(max_examples=10)
@given(st.integers(1, L - 1))
def test_share_round_trips_and_still_verifies(r: int) -> None:
    secret = random_scalar()
    key = mul_base(secret)
    c = encrypt(hash_to_point(b"test-card", b"x"), mul_base(7), r)
    share = make_share(secret, key, c, 0, CTX)
    decoded = DecryptionShare.decode(share.encode())
    assert decoded == share
    verify_share(decoded, key, c, 0, CTX)


_FIXED = _one_share()


@given(st.integers(0, DecryptionShare.ENCODED_BYTES * 8 - 1))
def test_flipped_bit_in_a_share_is_refused_or_fails_verification(bit: int) -> None:
    _, key, c, share = _FIXED
    data = bytearray(share.encode())
    data[bit // 8] ^= 1 << (bit % 8)
    try:
        decoded = DecryptionShare.decode(bytes(data))
    except DecodeError:
        return
    with pytest.raises(VerificationError):
        verify_share(decoded, key, c, 4, CTX.for_seat(1))


@given(st.binary(max_size=100))
def test_random_bytes_are_refused_or_decode_exactly(data: bytes) -> None:
    try:
        decoded = DecryptionShare.decode(data)
    except DecodeError:
        return
    assert decoded.encode() == data


def test_truncated_extended_or_overflowing_share_bytes_are_refused() -> None:
    encoded = _FIXED[3].encode()
    for bad in (encoded[:-1], encoded + b"\x00", encoded[:64] + L.to_bytes(32, "little")):
        with pytest.raises(DecodeError):
            DecryptionShare.decode(bad)


@settings(max_examples=10, deadline=None)
@given(st.integers(1, L - 1), st.integers(0, 40))
def test_shares_made_together_on_threads_are_each_the_share_of_their_card_in_order(
    secret: int, count: int
) -> None:
    key = mul_base(secret)
    items = [(deal([secret, 7], bytes([i]), 1000 + i)[1], 3 * i) for i in range(count)]
    made = make_shares(secret, key, items, CTX)
    assert len(made) == count
    for share, (ciphertext, position) in zip(made, items, strict=True):
        assert share.share == share_point(secret, ciphertext)
        verify_share(share, key, ciphertext, position, CTX)
