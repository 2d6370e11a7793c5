"""Canonical, length-checked byte encodings for everything the crypto library sends.

Every encoding is fixed-width or explicitly length-prefixed, so each value has
exactly one encoding, and every decoder refuses with :class:`DecodeError`
anything that is not that encoding: a wrong length, trailing bytes, a point
that is not a canonical encoding of a non-identity element of the prime-order
group (small-order points, ``y >= p`` encodings, points off the curve), or a
scalar ``>= L``.

Integers are unsigned little-endian (``u8``, ``u16``, ``u32``); byte strings
and text are a ``u32`` length then the bytes (text is UTF-8); points are 32
bytes; scalars are 32 bytes; a ciphertext ``(a, b)`` is ``a ‖ b`` (64 bytes).

>>> from condottiere.crypto.group import mul_base
>>> deck = [(mul_base(1), mul_base(2)), (mul_base(3), mul_base(4))]
>>> data = encode_ciphertexts(deck)
>>> len(data), decode_ciphertexts(data, 2) == deck
(128, True)
>>> decode_ciphertexts(data + b"\\x00", 2)
Traceback (most recent call last):
...
condottiere.crypto.errors.DecodeError: 2 ciphertexts are 128 bytes, got 129
"""

from __future__ import annotations

from collections.abc import Sequence

from condottiere.crypto.elgamal import Ciphertext
from condottiere.crypto.errors import DecodeError
from condottiere.crypto.group import POINT_BYTES, SCALAR_BYTES, GroupError, Point
from condottiere.crypto.group import decode_point as _group_decode_point
from condottiere.crypto.group import decode_scalar as _group_decode_scalar
from condottiere.crypto.group import encode_scalar as _group_encode_scalar

__all__ = [
    "CIPHERTEXT_BYTES",
    "Reader",
    "decode_ciphertext",
    "decode_ciphertexts",
    "decode_point",
    "decode_scalar",
    "encode_bytes",
    "encode_ciphertext",
    "encode_ciphertexts",
    "encode_scalar",
    "encode_text",
    "encode_u8",
    "encode_u16",
    "encode_u32",
]

CIPHERTEXT_BYTES = 2 * POINT_BYTES


def decode_point(data: bytes) -> Point:
    """The group element ``data`` encodes; :class:`DecodeError` unless it is valid and canonical.

    >>> decode_point(b"\\x01" + bytes(31))
    Traceback (most recent call last):
    ...
    condottiere.crypto.errors.DecodeError: not a canonical encoding of a ristretto255 element
    """
    try:
        return _group_decode_point(data)
    except GroupError as exc:
        raise DecodeError(str(exc)) from None


def encode_scalar(k: int) -> bytes:
    """The 32-byte little-endian encoding of a scalar in ``[0, L)``."""
    return _group_encode_scalar(k)


def decode_scalar(data: bytes) -> int:
    """The scalar ``data`` encodes; :class:`DecodeError` for a wrong length or a value ``>= L``."""
    try:
        return _group_decode_scalar(bytes(data))
    except GroupError as exc:
        raise DecodeError(str(exc)) from None


def encode_ciphertext(c: Ciphertext) -> bytes:
    """``a ‖ b``, 64 bytes."""
    return c[0] + c[1]


def decode_ciphertext(data: bytes) -> Ciphertext:
    """The ciphertext ``data`` encodes; both halves must be valid points."""
    if len(data) != CIPHERTEXT_BYTES:
        raise DecodeError(f"a ciphertext is {CIPHERTEXT_BYTES} bytes, got {len(data)}")
    return (decode_point(data[:POINT_BYTES]), decode_point(data[POINT_BYTES:]))


def encode_ciphertexts(deck: Sequence[Ciphertext]) -> bytes:
    """The ciphertexts one after the other (the count travels elsewhere: the deck size)."""
    return b"".join(encode_ciphertext(c) for c in deck)


def decode_ciphertexts(data: bytes, n: int) -> list[Ciphertext]:
    """Exactly ``n`` ciphertexts; :class:`DecodeError` for any other length or an invalid point."""
    reader = Reader(data)
    if len(data) != n * CIPHERTEXT_BYTES:
        raise DecodeError(f"{n} ciphertexts are {n * CIPHERTEXT_BYTES} bytes, got {len(data)}")
    deck = [reader.ciphertext() for _ in range(n)]
    reader.finish()
    return deck


def encode_u8(value: int) -> bytes:
    """One byte."""
    return value.to_bytes(1, "little")


def encode_u16(value: int) -> bytes:
    """Two bytes, little-endian."""
    return value.to_bytes(2, "little")


def encode_u32(value: int) -> bytes:
    """Four bytes, little-endian."""
    return value.to_bytes(4, "little")


def encode_bytes(value: bytes) -> bytes:
    """A ``u32`` length, then the bytes."""
    return encode_u32(len(value)) + value


def encode_text(value: str) -> bytes:
    """A ``u32`` length, then the UTF-8 bytes."""
    return encode_bytes(value.encode("utf-8"))


class Reader:
    """Reads canonical fields from the front of a byte string, refusing anything malformed.

    Call :meth:`finish` once every field is read: it refuses trailing bytes.

    >>> r = Reader(encode_u32(7) + encode_text("heroine"))
    >>> r.u32(), r.text()
    (7, 'heroine')
    >>> r.finish()
    >>> Reader(b"\\x01\\x02").u32()
    Traceback (most recent call last):
    ...
    condottiere.crypto.errors.DecodeError: truncated: wanted 4 bytes at offset 0, 2 left
    """

    __slots__ = ("_data", "_offset")

    def __init__(self, data: bytes) -> None:
        if not isinstance(data, bytes | bytearray | memoryview):
            raise DecodeError(f"expected bytes, got {type(data).__name__}")
        self._data = bytes(data)
        self._offset = 0

    @property
    def remaining(self) -> int:
        """How many bytes are left unread."""
        return len(self._data) - self._offset

    def take(self, n: int) -> bytes:
        """The next ``n`` bytes."""
        if n > self.remaining:
            raise DecodeError(
                f"truncated: wanted {n} bytes at offset {self._offset}, {self.remaining} left"
            )
        chunk = self._data[self._offset : self._offset + n]
        self._offset += n
        return chunk

    def u8(self) -> int:
        """An unsigned byte."""
        return self.take(1)[0]

    def u16(self) -> int:
        """An unsigned 16-bit little-endian integer."""
        return int.from_bytes(self.take(2), "little")

    def u32(self) -> int:
        """An unsigned 32-bit little-endian integer."""
        return int.from_bytes(self.take(4), "little")

    def blob(self) -> bytes:
        """A ``u32``-length-prefixed byte string."""
        return self.take(self.u32())

    def text(self) -> str:
        """A ``u32``-length-prefixed UTF-8 string."""
        try:
            return self.blob().decode("utf-8")
        except UnicodeDecodeError as exc:
            raise DecodeError(f"text is not UTF-8: {exc.reason}") from None

    def point(self) -> Point:
        """A valid, canonical, non-identity group element."""
        return decode_point(self.take(POINT_BYTES))

    def scalar(self) -> int:
        """A canonical scalar (``< L``)."""
        return decode_scalar(self.take(SCALAR_BYTES))

    def ciphertext(self) -> Ciphertext:
        """Two points."""
        return (self.point(), self.point())

    def finish(self) -> None:
        """Refuse trailing bytes."""
        if self.remaining:
            raise DecodeError(f"{self.remaining} trailing bytes")
