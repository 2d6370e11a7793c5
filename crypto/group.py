"""The prime-order group: the subgroup of order L of Ed25519, through libsodium.

This is the only module that touches the curve. Points are their canonical
32-byte encodings (``bytes``); scalars are Python ``int`` in ``[0, L)``. Every
point that arrives from outside goes through :func:`decode_point` and every
scalar through :func:`decode_scalar`; both refuse anything but a canonical
encoding of an element of the group, so the rest of the library can trust the
values it holds. Swapping the backend (ristretto255, say) means rewriting this
module only.

>>> P = mul_base(5)
>>> add(mul_base(2), mul_base(3)) == P
True
>>> decode_point(P) == P
True
>>> decode_scalar(encode_scalar(L - 1)) == L - 1
True
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Sequence

from nacl import bindings as _na
from nacl.exceptions import RuntimeError as _NaclRuntimeError

__all__ = [
    "BASE",
    "POINT_BYTES",
    "SCALAR_BYTES",
    "GroupError",
    "L",
    "Point",
    "add",
    "decode_point",
    "decode_scalar",
    "encode_scalar",
    "hash_to_point",
    "hash_to_scalar",
    "is_point",
    "is_scalar",
    "mul",
    "mul_base",
    "multi_mul",
    "neg",
    "random_scalar",
    "sub",
    "sum_points",
]

L = 2**252 + 27742317777372353535851937790883648493
"""The order of the group."""

POINT_BYTES = 32
SCALAR_BYTES = 32

Point = bytes
"""A group element, as its canonical 32-byte encoding."""

BASE: Point = _na.crypto_scalarmult_ed25519_base_noclamp((1).to_bytes(32, "little"))
"""The standard generator of the group."""

_IDENTITY = b"\x01" + bytes(31)
_DOMAIN = b"condottiere/v1/"


class GroupError(ValueError):
    """A byte string is not a valid group element or scalar, or an operation left the group."""


def is_point(data: bytes) -> bool:
    """True when ``data`` canonically encodes an element of the group other than the identity.

    libsodium's check refuses non-canonical encodings, points off the curve,
    points of small order (the identity among them) and points outside the
    prime-order subgroup.

    >>> is_point(BASE), is_point(bytes(32)), is_point(b"\\x01" + bytes(31))
    (True, False, False)
    """
    return (
        isinstance(data, bytes)
        and len(data) == POINT_BYTES
        and bool(_na.crypto_core_ed25519_is_valid_point(data))
    )


def is_scalar(k: object) -> bool:
    """True when ``k`` is a canonical scalar: an ``int`` in ``[0, L)``.

    A proof's responses must be canonical: ``s`` and ``s + L`` act alike on every point of
    the group, so accepting both would let anyone alter a proof and keep it valid.

    >>> is_scalar(L - 1), is_scalar(L), is_scalar(-1), is_scalar(True)
    (True, False, False, False)
    """
    return type(k) is int and 0 <= k < L


def decode_point(data: bytes) -> Point:
    """The point ``data`` encodes; :class:`GroupError` unless a valid, non-identity element."""
    if not isinstance(data, bytes | bytearray | memoryview):
        raise GroupError(f"a point is {POINT_BYTES} bytes, not {type(data).__name__}")
    data = bytes(data)
    if len(data) != POINT_BYTES:
        raise GroupError(f"a point is {POINT_BYTES} bytes, got {len(data)}")
    if data == _IDENTITY:
        raise GroupError("the identity is not allowed here")
    if not _na.crypto_core_ed25519_is_valid_point(data):
        raise GroupError("not a canonical encoding of a point of the prime-order subgroup")
    return data


def encode_scalar(k: int) -> bytes:
    """The canonical 32-byte little-endian encoding of ``k`` (which must be in ``[0, L)``)."""
    if not 0 <= k < L:
        raise GroupError("a scalar must be in [0, L)")
    return k.to_bytes(SCALAR_BYTES, "little")


def decode_scalar(data: bytes) -> int:
    """The scalar that ``data`` encodes; :class:`GroupError` for a wrong length or a value >= L.

    >>> decode_scalar(L.to_bytes(32, "little"))
    Traceback (most recent call last):
    ...
    condottiere.crypto.group.GroupError: scalar is not canonical (>= L)
    """
    if len(data) != SCALAR_BYTES:
        raise GroupError(f"a scalar is {SCALAR_BYTES} bytes, got {len(data)}")
    k = int.from_bytes(data, "little")
    if k >= L:
        raise GroupError("scalar is not canonical (>= L)")
    return k


def random_scalar() -> int:
    """A uniformly random non-zero scalar from the operating system's generator."""
    while True:
        k = int.from_bytes(os.urandom(64), "little") % L
        if k:
            return k


def hash_to_scalar(domain: bytes, *parts: bytes) -> int:
    """A scalar derived from a domain tag and length-prefixed parts (SHA-512, reduced mod L)."""
    h = hashlib.sha512()
    h.update(_frame(_DOMAIN + domain))
    for part in parts:
        h.update(_frame(part))
    return int.from_bytes(h.digest(), "little") % L


def hash_to_point(domain: bytes, label: bytes) -> Point:
    """A point nobody knows the discrete logarithm of, derived from a domain tag and a label.

    >>> hash_to_point(b"card", b"10#1") != hash_to_point(b"card", b"10#2")
    True
    """
    counter = 0
    while True:
        digest = hashlib.sha512(
            _frame(_DOMAIN + domain) + _frame(label) + counter.to_bytes(4, "little")
        ).digest()
        point = _na.crypto_core_ed25519_from_uniform(digest[:32])
        if point != _IDENTITY and _na.crypto_core_ed25519_is_valid_point(point):
            return point
        counter += 1


def add(p: Point, q: Point) -> Point:
    """``p + q``."""
    return _na.crypto_core_ed25519_add(p, q)


def sub(p: Point, q: Point) -> Point:
    """``p - q``."""
    return _na.crypto_core_ed25519_sub(p, q)


def neg(p: Point) -> Point:
    """``-p``."""
    return _na.crypto_core_ed25519_sub(_IDENTITY, p)


def mul(k: int, p: Point) -> Point:
    """``k * p`` for a non-zero scalar ``k``; :class:`GroupError` if the result is the identity."""
    try:
        return _na.crypto_scalarmult_ed25519_noclamp(k.to_bytes(32, "little"), p)
    except (_NaclRuntimeError, ValueError, TypeError) as exc:
        raise GroupError("scalar multiplication left the group (zero scalar?)") from exc


def mul_base(k: int) -> Point:
    """``k * BASE`` for a non-zero scalar ``k``."""
    try:
        return _na.crypto_scalarmult_ed25519_base_noclamp(k.to_bytes(32, "little"))
    except (_NaclRuntimeError, ValueError, TypeError) as exc:
        raise GroupError("scalar multiplication left the group (zero scalar?)") from exc


def multi_mul(scalars: Sequence[int], points: Sequence[Point]) -> Point:
    """``sum(k_i * P_i)``, skipping zero scalars; :class:`GroupError` if every term vanishes."""
    if len(scalars) != len(points):
        raise GroupError("multi_mul needs as many scalars as points")
    terms = [mul(k, p) for k, p in zip(scalars, points, strict=True) if k % L]
    if not terms:
        raise GroupError("multi_mul of nothing")
    return sum_points(terms)


def sum_points(points: Iterable[Point]) -> Point:
    """The sum of one or more points."""
    it = iter(points)
    try:
        total = next(it)
    except StopIteration:
        raise GroupError("sum of no points") from None
    for p in it:
        total = _na.crypto_core_ed25519_add(total, p)
    return total


def _frame(part: bytes) -> bytes:
    return len(part).to_bytes(8, "little") + part
