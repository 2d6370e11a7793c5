"""The group module against published values and an independent pure-Python curve.

Known answers: the base point's encoding and the group order (RFC 8032 section
5.1), and the encodings libsodium itself refuses as small-order or non-canonical
(the blocklist of ``ge25519_has_small_order``). The pure-Python Edwards
arithmetic below is slow but obviously correct; it checks that the refused
encodings really are 8-torsion points and that libsodium's results agree with it.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from condottiere.crypto.group import (
    BASE,
    GroupError,
    L,
    add,
    decode_point,
    hash_to_point,
    is_point,
    mul,
    mul_base,
    neg,
    sub,
)

FIELD = 2**255 - 19
CURVE_D = -121665 * pow(121666, -1, FIELD) % FIELD
SQRT_MINUS_ONE = pow(2, (FIELD - 1) // 4, FIELD)
AffinePoint = tuple[int, int]
NEUTRAL: AffinePoint = (0, 1)


def ref_decode(data: bytes) -> AffinePoint | None:
    """The affine point an encoding names, accepting non-canonical y (as a lax decoder would)."""
    y = int.from_bytes(data, "little") & ((1 << 255) - 1)
    sign = data[31] >> 7
    y %= FIELD
    x2 = (y * y - 1) * pow(CURVE_D * y * y + 1, -1, FIELD) % FIELD
    x = pow(x2, (FIELD + 3) // 8, FIELD)
    if (x * x - x2) % FIELD:
        x = x * SQRT_MINUS_ONE % FIELD
    if (x * x - x2) % FIELD:
        return None
    if x & 1 != sign:
        x = (FIELD - x) % FIELD
    return (x, y)


def ref_encode(point: AffinePoint) -> bytes:
    x, y = point
    return (y | ((x & 1) << 255)).to_bytes(32, "little")


def ref_add(p: AffinePoint, q: AffinePoint) -> AffinePoint:
    (x1, y1), (x2, y2) = p, q
    t = CURVE_D * x1 * x2 * y1 * y2 % FIELD
    x3 = (x1 * y2 + x2 * y1) * pow(1 + t, -1, FIELD) % FIELD
    y3 = (y1 * y2 + x1 * x2) * pow(1 - t, -1, FIELD) % FIELD
    return (x3, y3)


def ref_mul(k: int, p: AffinePoint) -> AffinePoint:
    result = NEUTRAL
    while k:
        if k & 1:
            result = ref_add(result, p)
        p = ref_add(p, p)
        k >>= 1
    return result


REF_BASE = ref_decode(bytes.fromhex("58" + "66" * 31))

SMALL_ORDER_ENCODINGS = [
    "0100000000000000000000000000000000000000000000000000000000000000",  # identity, order 1
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # order 2
    "0000000000000000000000000000000000000000000000000000000000000000",  # order 4
    "0000000000000000000000000000000000000000000000000000000000000080",  # order 4, x negated
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",  # order 8
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",  # order 8
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",  # order 8
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",  # order 8
]

NON_CANONICAL_ENCODINGS = [
    "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # y = p (0)
    "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # y = p + 1 (identity)
    "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",  # y = p + 1, sign set
    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",  # y = 2^255 - 1
]


def test_base_point_has_its_rfc8032_encoding() -> None:
    assert BASE.hex() == "58" + "66" * 31


def test_group_order_is_the_rfc8032_prime() -> None:
    assert L == 7237005577332262213973186563042994240857116359379907606001950938285454250989
    assert mul_base(L - 1) == neg(BASE)
    with pytest.raises(GroupError):
        mul_base(L)


@pytest.mark.parametrize("encoding", SMALL_ORDER_ENCODINGS)
def test_small_order_points_are_8_torsion_and_refused(encoding: str) -> None:
    data = bytes.fromhex(encoding)
    point = ref_decode(data)
    assert point is not None and ref_mul(8, point) == NEUTRAL
    assert not is_point(data)
    with pytest.raises(GroupError):
        decode_point(data)


@pytest.mark.parametrize("encoding", NON_CANONICAL_ENCODINGS)
def test_encodings_with_y_at_least_p_are_refused(encoding: str) -> None:
    with pytest.raises(GroupError):
        decode_point(bytes.fromhex(encoding))


@pytest.mark.parametrize("offset", range(19))
@pytest.mark.parametrize("sign", [0, 1])
def test_every_y_from_p_up_is_refused(offset: int, sign: int) -> None:
    data = ((FIELD + offset) | (sign << 255)).to_bytes(32, "little")
    assert not is_point(data)


def test_point_outside_the_prime_order_subgroup_is_refused() -> None:
    assert REF_BASE is not None
    torsion = ref_decode(bytes.fromhex(SMALL_ORDER_ENCODINGS[4]))
    assert torsion is not None
    mixed = ref_encode(ref_add(ref_mul(5, REF_BASE), torsion))
    assert ref_decode(mixed) is not None
    with pytest.raises(GroupError):
        decode_point(mixed)


@settings(max_examples=10, deadline=None)
@given(st.integers(1, L - 1), st.integers(1, L - 1))
def test_libsodium_arithmetic_agrees_with_the_reference_curve(j: int, k: int) -> None:
    assume(j != k)
    assert REF_BASE is not None
    ref_j, ref_k = ref_mul(j, REF_BASE), ref_mul(k, REF_BASE)
    assert mul_base(j) == ref_encode(ref_j)
    assert add(mul_base(j), mul_base(k)) == ref_encode(ref_add(ref_j, ref_k))
    assert mul(k, mul_base(j)) == ref_encode(ref_mul(k, ref_j))
    assert sub(mul_base(j), mul_base(k)) == mul_base((j - k) % L)


@given(st.binary(max_size=16))
def test_hashed_points_are_valid_group_elements(label: bytes) -> None:
    assert is_point(hash_to_point(b"test", label))
