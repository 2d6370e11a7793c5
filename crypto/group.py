"""The prime-order group: ristretto255 (RFC 9496), through libsodium.

ristretto255 is a group of prime order ``L`` built on Curve25519: every canonical
encoding is an element, and no element has a small order, so a received element needs
only its decoding checked (no subgroup check inside every multiplication, as the
prime-order subgroup of Ed25519 needed). The functions are libsodium's
(:mod:`condottiere.crypto.sodium`); signing identities stay Ed25519
(:mod:`condottiere.crypto.identity`).

This is the only module that touches the group. Points are their canonical
32-byte encodings (``bytes``); scalars are Python ``int`` in ``[0, L)``. Every
point that arrives from outside goes through :func:`decode_point` and every
scalar through :func:`decode_scalar`; both refuse anything but a canonical
encoding of an element of the group other than the identity, so the rest of the
library can trust the values it holds. Swapping the group means rewriting this
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

from condottiere.crypto import sodium as _sodium

__all__ = [
    "BASE",
    "IDENTITY",
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

BASE: Point = _sodium.crypto_scalarmult_ristretto255_base((1).to_bytes(32, "little"))
"""The standard generator of the group (RFC 9496's)."""

IDENTITY: Point = bytes(POINT_BYTES)
"""The identity's canonical encoding (32 zero bytes); never a valid point for a caller."""

_DOMAIN = b"condottiere/v5/ristretto255/"


class GroupError(ValueError):
    """A byte string is not a valid group element or scalar, or an operation left the group."""


def is_point(data: bytes) -> bool:
    """True when ``data`` canonically encodes an element of the group other than the identity.

    libsodium's check refuses every non-canonical encoding (RFC 9496's decoding); the
    identity, which decodes, is refused here.

    >>> is_point(BASE), is_point(IDENTITY), is_point(b"\\x01" + bytes(31))
    (True, False, False)
    """
    return (
        isinstance(data, bytes)
        and len(data) == POINT_BYTES
        and data != IDENTITY
        and _sodium.crypto_core_ristretto255_is_valid_point(data)
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
    if data == IDENTITY:
        raise GroupError("the identity is not allowed here")
    if not _sodium.crypto_core_ristretto255_is_valid_point(data):
        raise GroupError("not a canonical encoding of a ristretto255 element")
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

    RFC 9496's hash-to-group: a 64-byte SHA-512 digest of the framed domain and label,
    mapped by ``crypto_core_ristretto255_from_hash``. A counter is framed in as well and
    raised should a digest map to the identity (no known input does).

    >>> hash_to_point(b"card", b"10#1") != hash_to_point(b"card", b"10#2")
    True
    """
    counter = 0
    while True:
        digest = hashlib.sha512(
            _frame(_DOMAIN + domain) + _frame(label) + counter.to_bytes(4, "little")
        ).digest()
        point = _sodium.crypto_core_ristretto255_from_hash(digest)
        if point != IDENTITY:
            return point
        counter += 1


def add(p: Point, q: Point) -> Point:
    """``p + q``; :class:`GroupError` if either is not an element's encoding."""
    try:
        return _sodium.crypto_core_ristretto255_add(p, q)
    except _sodium.SodiumError as exc:
        raise GroupError(str(exc)) from exc


def sub(p: Point, q: Point) -> Point:
    """``p - q``; :class:`GroupError` if either is not an element's encoding."""
    try:
        return _sodium.crypto_core_ristretto255_sub(p, q)
    except _sodium.SodiumError as exc:
        raise GroupError(str(exc)) from exc


def neg(p: Point) -> Point:
    """``-p``."""
    return _sodium.crypto_core_ristretto255_sub(IDENTITY, p)


def mul(k: int, p: Point) -> Point:
    """``k * p`` for a non-zero scalar ``k``; :class:`GroupError` if the result is the identity."""
    try:
        return _sodium.crypto_scalarmult_ristretto255(k.to_bytes(32, "little"), p)
    except (_sodium.SodiumError, OverflowError, AttributeError) as exc:
        raise GroupError("scalar multiplication left the group (zero scalar?)") from exc


def mul_base(k: int) -> Point:
    """``k * BASE`` for a non-zero scalar ``k``."""
    try:
        return _sodium.crypto_scalarmult_ristretto255_base(k.to_bytes(32, "little"))
    except (_sodium.SodiumError, OverflowError, AttributeError) as exc:
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
        total = add(total, p)
    return total


def _frame(part: bytes) -> bytes:
    return len(part).to_bytes(8, "little") + part
