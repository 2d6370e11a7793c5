"""libsodium's ristretto255 functions (RFC 9496), loaded into the process without a file.

PyNaCl's libsodium is linked without its ristretto255 functions, so the group
(:mod:`condottiere.crypto.group`) takes them from the libsodium that the ``rbcl`` wheel
ships (1.0.18, built by its maintainers for each platform). That wheel keeps the
shared library hex-encoded inside its module ``rbcl/_sodium.py``, and importing ``rbcl``
writes it to a new temporary file that is never deleted (2.8 MB for every process). This
module never imports ``rbcl``: it reads the hex from the installed file, hands the bytes
to the dynamic loader through an anonymous memory file (``memfd_create``: nothing is
written to any file system), or, where the system has none (macOS), through a temporary
file unlinked as soon as it is loaded (Windows refuses to unlink a loaded library, so there
the file stays). The library stays mapped for the life of the process.

Each function below is the libsodium function of the same name, taking and returning
``bytes``; the ones that can fail raise :class:`SodiumError` where libsodium returns -1.
Scalars are 32-byte little-endian strings; the scalar multiplications are libsodium's
constant-time ones (``ge25519_scalarmult``, ``ge25519_scalarmult_base``).

>>> crypto_core_ristretto255_is_valid_point(bytes(32))
True
>>> five = crypto_scalarmult_ristretto255_base((5).to_bytes(32, "little"))
>>> crypto_scalarmult_ristretto255((2).to_bytes(32, "little"), five) == (
...     crypto_core_ristretto255_add(five, five))
True
"""

from __future__ import annotations

import binascii
import contextlib
import ctypes
import importlib.util
import os
import tempfile
from pathlib import Path

__all__ = [
    "HASH_BYTES",
    "POINT_BYTES",
    "SCALAR_BYTES",
    "SodiumError",
    "crypto_core_ristretto255_add",
    "crypto_core_ristretto255_from_hash",
    "crypto_core_ristretto255_is_valid_point",
    "crypto_core_ristretto255_sub",
    "crypto_scalarmult_ristretto255",
    "crypto_scalarmult_ristretto255_base",
    "version",
]

POINT_BYTES = 32
SCALAR_BYTES = 32
HASH_BYTES = 64


class SodiumError(RuntimeError):
    """libsodium refused an operation (a scalar multiplication gave the identity, or an
    input is not the encoding of a group element)."""


class LoadError(ImportError):
    """The ``rbcl`` wheel's libsodium could not be found or loaded."""


def _library_bytes() -> bytes:
    """The shared library that the installed ``rbcl`` wheel carries, decoded from its hex."""
    spec = importlib.util.find_spec("rbcl")
    if spec is None or not spec.submodule_search_locations:
        raise LoadError("the package rbcl (libsodium with ristretto255) is not installed")
    source = Path(next(iter(spec.submodule_search_locations)), "_sodium.py").read_bytes()
    marker = b"bytes.fromhex('"
    start = source.find(marker)
    end = source.find(b"'", start + len(marker))
    if start < 0 or end < 0:
        raise LoadError("rbcl/_sodium.py does not carry libsodium as expected")
    return binascii.a2b_hex(memoryview(source)[start + len(marker) : end])


def _load() -> ctypes.CDLL:
    """libsodium, loaded from memory where the system allows it, else from a file unlinked
    at once."""
    image = _library_bytes()
    if hasattr(os, "memfd_create"):
        fd = os.memfd_create("libsodium-ristretto255", os.MFD_CLOEXEC)
        try:
            os.write(fd, image)
            library = ctypes.CDLL(f"/proc/self/fd/{fd}")
        finally:
            os.close(fd)
    else:
        fd, name = tempfile.mkstemp(suffix=".so")
        try:
            with os.fdopen(fd, "wb") as file:
                file.write(image)
            library = ctypes.CDLL(name)
        finally:
            with contextlib.suppress(OSError):  # Windows keeps a loaded library's file
                os.unlink(name)
    if library.sodium_init() < 0:
        raise LoadError("libsodium failed to initialise")
    return library


_lib = _load()
_lib.sodium_version_string.restype = ctypes.c_char_p
_buffer = ctypes.create_string_buffer
_is_valid = _lib.crypto_core_ristretto255_is_valid_point
_from_hash = _lib.crypto_core_ristretto255_from_hash
_add = _lib.crypto_core_ristretto255_add
_sub = _lib.crypto_core_ristretto255_sub
_mul = _lib.crypto_scalarmult_ristretto255
_mul_base = _lib.crypto_scalarmult_ristretto255_base


def _bad(data: object, size: int = POINT_BYTES) -> bool:
    """True unless ``data`` is ``bytes`` of ``size`` (libsodium reads exactly that many)."""
    return type(data) is not bytes or len(data) != size


def version() -> str:
    """The loaded libsodium's version, e.g. ``'1.0.18'``."""
    return str(_lib.sodium_version_string().decode("ascii"))


def crypto_core_ristretto255_is_valid_point(p: bytes) -> bool:
    """True when ``p`` is the canonical encoding of a group element (the identity included)."""
    return not _bad(p) and _is_valid(p) == 1


def crypto_core_ristretto255_from_hash(h: bytes) -> bytes:
    """The element RFC 9496's one-way map gives for a 64-byte uniformly random string."""
    if _bad(h, HASH_BYTES):
        raise SodiumError(f"the map takes {HASH_BYTES} bytes")
    out = _buffer(POINT_BYTES)
    _from_hash(out, h)
    return out.raw


def crypto_core_ristretto255_add(p: bytes, q: bytes) -> bytes:
    """``p + q``; :class:`SodiumError` unless both are valid encodings."""
    out = _buffer(POINT_BYTES)
    if _bad(p) or _bad(q) or _add(out, p, q):
        raise SodiumError("adding something that is not a ristretto255 element")
    return out.raw


def crypto_core_ristretto255_sub(p: bytes, q: bytes) -> bytes:
    """``p - q``; :class:`SodiumError` unless both are valid encodings."""
    out = _buffer(POINT_BYTES)
    if _bad(p) or _bad(q) or _sub(out, p, q):
        raise SodiumError("subtracting something that is not a ristretto255 element")
    return out.raw


def crypto_scalarmult_ristretto255(n: bytes, p: bytes) -> bytes:
    """``n * p`` (constant time in ``n``); :class:`SodiumError` if ``p`` is not a valid
    encoding or the product is the identity."""
    out = _buffer(POINT_BYTES)
    if _bad(n, SCALAR_BYTES) or _bad(p) or _mul(out, n, p):
        raise SodiumError("scalar multiplication gave the identity or took a non-element")
    return out.raw


def crypto_scalarmult_ristretto255_base(n: bytes) -> bytes:
    """``n * B`` for the standard generator ``B`` (constant time in ``n``); :class:`SodiumError`
    if the product is the identity."""
    out = _buffer(POINT_BYTES)
    if _bad(n, SCALAR_BYTES) or _mul_base(out, n):
        raise SodiumError("scalar multiplication gave the identity")
    return out.raw
