"""Sealing bytes to one seat: libsodium sealed boxes to a box key the seat published.

A seat draws a :class:`BoxSecret` (32 bytes, stored so that a restarted peer
opens what was sealed to it before) and publishes its :class:`BoxKey`, the
X25519 public key, inside a signed entry of its log. Anyone can then seal bytes
that only that seat opens (:meth:`BoxSecret.open`).

The box is libsodium's sealed box exactly (``crypto_box_seal``: an ephemeral
X25519 key ``epk``, then XSalsa20-Poly1305 under ``X25519(esk, pk)`` with the
nonce ``BLAKE2b-192(epk ‖ pk)``), so libsodium's ``crypto_box_seal_open``
opens it. The one difference is that :func:`seal` takes the ephemeral secret
``esk`` from its caller instead of drawing it, which makes a box reproducible:
whoever is told ``esk`` can seal the same message again and compare, byte for
byte, so a sealer can prove in public what a box it sent holds
(:mod:`condottiere.crypto.vss` settles complaints so). An ephemeral secret must
be unpredictable and used for one box only; telling it tells the message.

What the box key's announcement relies on: the signature of the entry that
carries it binds it to its seat, and nothing more is needed. There is no proof
of possession: a seat that announces a key it cannot open (another seat's, or
a random one) only loses what is sealed to it, and what is sealed to it is what
it could have handed to that key's owner anyway. A decoded box key must be a
canonical point of the prime-order subgroup of Curve25519 (honest keys always
are): small-order keys, for which every box would be readable by anyone, and
keys off the curve are refused.

>>> alice = BoxSecret(bytes(range(32)))
>>> box = seal(b"for alice", alice.public, bytes(32 * [7]))
>>> alice.open(box), len(box) == SEAL_OVERHEAD + len(b"for alice")
(b'for alice', True)
>>> box == seal(b"for alice", alice.public, bytes(32 * [7]))
True
>>> BoxKey(bytes(32))
Traceback (most recent call last):
...
condottiere.crypto.errors.DecodeError: a box key is a point of the prime-order subgroup ...
"""

from __future__ import annotations

import hashlib
import os

from nacl import bindings as _na
from nacl.exceptions import CryptoError as _NaclCryptoError

from condottiere.crypto.errors import DecodeError

__all__ = [
    "BOX_KEY_BYTES",
    "BOX_SECRET_BYTES",
    "EPHEMERAL_BYTES",
    "SEAL_OVERHEAD",
    "BoxKey",
    "BoxSecret",
    "seal",
]

BOX_KEY_BYTES = 32
BOX_SECRET_BYTES = 32
EPHEMERAL_BYTES = 32
SEAL_OVERHEAD = 48
"""A box is this much longer than its message: the ephemeral key (32) and the tag (16)."""

_P = 2**255 - 19
_NONCE_BYTES = 24


def _on_prime_order_subgroup(raw: bytes) -> bool:
    """True when ``raw`` is a canonical Curve25519 ``u`` of a point of the prime-order subgroup.

    The birational map ``y = (u - 1) / (u + 1)`` takes the point to Ed25519, whose
    checks (canonical, on the curve, not of small order, in the subgroup) libsodium's
    ``crypto_core_ed25519_is_valid_point`` makes; the sign of ``x``, lost by the map, does
    not change the subgroup.
    """
    u = int.from_bytes(raw, "little")
    if u >= _P or u == _P - 1:
        return False
    y = (u - 1) * pow(u + 1, _P - 2, _P) % _P
    return bool(_na.crypto_core_ed25519_is_valid_point(y.to_bytes(32, "little")))


class BoxKey:
    """A seat's public box key: 32 bytes, the ``u`` coordinate of an X25519 public key."""

    __slots__ = ("raw",)

    def __init__(self, raw: bytes) -> None:
        """Wrap the 32-byte key; :class:`DecodeError` unless it is a valid, canonical key."""
        if not isinstance(raw, bytes | bytearray | memoryview):
            raise DecodeError(f"a box key is bytes, not {type(raw).__name__}")
        raw = bytes(raw)
        if len(raw) != BOX_KEY_BYTES:
            raise DecodeError(f"a box key is {BOX_KEY_BYTES} bytes, got {len(raw)}")
        if not _on_prime_order_subgroup(raw):
            raise DecodeError(
                "a box key is a point of the prime-order subgroup of Curve25519, canonically"
            )
        self.raw = raw

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BoxKey) and self.raw == other.raw

    def __hash__(self) -> int:
        return hash(self.raw)

    def __repr__(self) -> str:
        return f"BoxKey({self.raw.hex()})"

    def encode(self) -> bytes:
        """The raw 32-byte key."""
        return self.raw

    @classmethod
    def decode(cls, data: bytes) -> BoxKey:
        """The key ``data`` encodes; :class:`DecodeError` if malformed."""
        return cls(data)


class BoxSecret:
    """A seat's box secret: opens every box sealed to its :attr:`public` key."""

    __slots__ = ("_secret", "public")

    def __init__(self, secret: bytes) -> None:
        """The box secret whose 32 bytes are ``secret`` (any 32 bytes; X25519 clamps them)."""
        if len(secret) != BOX_SECRET_BYTES:
            raise ValueError(f"a box secret is {BOX_SECRET_BYTES} bytes, got {len(secret)}")
        self._secret = bytes(secret)
        self.public = BoxKey(_na.crypto_scalarmult_base(self._secret))

    @classmethod
    def generate(cls) -> BoxSecret:
        """A fresh box secret from the operating system's generator."""
        return cls(os.urandom(BOX_SECRET_BYTES))

    def secret_bytes(self) -> bytes:
        """The 32 secret bytes, to store (keep them private)."""
        return self._secret

    def open(self, box: bytes) -> bytes:
        """The message sealed in ``box``; :class:`DecodeError` if it was not sealed to this key
        or was altered."""
        try:
            return _na.crypto_box_seal_open(bytes(box), self.public.raw, self._secret)
        except (_NaclCryptoError, ValueError, TypeError):
            raise DecodeError("the box does not open with this box key") from None


def seal(message: bytes, recipient: BoxKey, ephemeral: bytes) -> bytes:
    """``message`` sealed to ``recipient`` with the ephemeral secret ``ephemeral`` (32 bytes).

    The same three arguments always give the same box, and only the holder of
    ``recipient``'s secret, or of ``ephemeral``, can open it.
    """
    if len(ephemeral) != EPHEMERAL_BYTES:
        raise ValueError(f"an ephemeral secret is {EPHEMERAL_BYTES} bytes, got {len(ephemeral)}")
    ephemeral_key = _na.crypto_scalarmult_base(bytes(ephemeral))
    nonce = hashlib.blake2b(ephemeral_key + recipient.raw, digest_size=_NONCE_BYTES).digest()
    return ephemeral_key + _na.crypto_box(bytes(message), nonce, recipient.raw, bytes(ephemeral))
