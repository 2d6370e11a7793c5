"""Long-term peer identities: Ed25519 signatures (pyca ``cryptography``) and fingerprints.

A peer's identity signs the canonical bytes of everything it publishes. Its
public key travels as 32 bytes; a decoded key must be a valid element of the
prime-order group (honest keys always are), which refuses small-order and
non-canonical keys for which a signature could be valid for many messages.
People compare fingerprints: the first 80 bits of SHA-256 over the public
key, written as five groups of four hex digits.

>>> me = Identity.generate()
>>> signature = me.sign(b"entry")
>>> me.public.verify(b"entry", signature, seat=0)
>>> me.public.verifies(b"other entry", signature)
False
>>> len(me.public.fingerprint())
24
"""

from __future__ import annotations

import hashlib

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from nacl import bindings as _na

from condottiere.crypto.errors import DecodeError, VerificationError

__all__ = ["PUBLIC_KEY_BYTES", "SECRET_KEY_BYTES", "SIGNATURE_BYTES", "Identity", "PublicIdentity"]

PUBLIC_KEY_BYTES = 32
SECRET_KEY_BYTES = 32
SIGNATURE_BYTES = 64

_FINGERPRINT_DOMAIN = b"condottiere/v1/fingerprint"
_FINGERPRINT_GROUPS = 5


class PublicIdentity:
    """A peer's public Ed25519 key: verifies its signatures and names it for people."""

    __slots__ = ("_key", "raw")

    def __init__(self, raw: bytes) -> None:
        """Wrap the raw 32-byte key; :class:`DecodeError` unless it is a valid, canonical point."""
        raw = bytes(raw)
        if len(raw) != PUBLIC_KEY_BYTES:
            raise DecodeError(f"an identity key is {PUBLIC_KEY_BYTES} bytes, got {len(raw)}")
        if not _na.crypto_core_ed25519_is_valid_point(raw):
            raise DecodeError("identity key is not a canonical point of the prime-order subgroup")
        self.raw = raw
        self._key = Ed25519PublicKey.from_public_bytes(raw)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PublicIdentity) and self.raw == other.raw

    def __hash__(self) -> int:
        return hash(self.raw)

    def __repr__(self) -> str:
        return f"PublicIdentity({self.fingerprint()})"

    def encode(self) -> bytes:
        """The raw 32-byte key."""
        return self.raw

    @classmethod
    def decode(cls, data: bytes) -> PublicIdentity:
        """The identity ``data`` encodes; :class:`DecodeError` if malformed."""
        return cls(data)

    def verifies(self, message: bytes, signature: bytes) -> bool:
        """True when ``signature`` is this key's signature of ``message``."""
        if len(signature) != SIGNATURE_BYTES:
            return False
        try:
            self._key.verify(bytes(signature), bytes(message))
        except InvalidSignature:
            return False
        return True

    def verify(self, message: bytes, signature: bytes, seat: int) -> None:
        """Check a signature by ``seat`` (whose key this is); :class:`VerificationError` if bad."""
        if not self.verifies(message, signature):
            raise VerificationError(seat, "signature does not verify")

    def fingerprint(self) -> str:
        """Five groups of four hex digits from SHA-256 of the key, for people to compare."""
        digest = hashlib.sha256(_FINGERPRINT_DOMAIN + self.raw).hexdigest()
        return "-".join(digest[4 * i : 4 * i + 4] for i in range(_FINGERPRINT_GROUPS))


class Identity:
    """A peer's long-term Ed25519 signing key."""

    __slots__ = ("_key", "public")

    def __init__(self, secret: bytes) -> None:
        """The identity whose 32-byte RFC 8032 secret key (seed) is ``secret``."""
        if len(secret) != SECRET_KEY_BYTES:
            raise DecodeError(f"an identity secret is {SECRET_KEY_BYTES} bytes, got {len(secret)}")
        self._key = Ed25519PrivateKey.from_private_bytes(bytes(secret))
        self.public = PublicIdentity(self._key.public_key().public_bytes_raw())

    @classmethod
    def generate(cls) -> Identity:
        """A fresh identity from the operating system's generator."""
        return cls(Ed25519PrivateKey.generate().private_bytes_raw())

    def secret_bytes(self) -> bytes:
        """The 32-byte secret key, to store (keep it private)."""
        return self._key.private_bytes_raw()

    def sign(self, message: bytes) -> bytes:
        """The 64-byte Ed25519 signature of ``message``."""
        return self._key.sign(bytes(message))
