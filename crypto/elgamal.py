"""ElGamal encryption of group elements under a joint key.

A ciphertext of the message point ``M`` under key ``Y`` is the pair
``(a, b) = (r·G, M + r·Y)``. Re-randomising adds an encryption of the identity,
which leaves ``M`` unchanged; decryption subtracts ``x·a`` for every share of
the key.

>>> from condottiere.crypto.group import mul_base, hash_to_point
>>> x = 7; Y = mul_base(x); M = hash_to_point(b"doc", b"m")
>>> c = encrypt(M, Y, 11)
>>> decrypt(rerandomise(c, Y, 13), x) == M
True
"""

from __future__ import annotations

from condottiere.crypto.group import BASE, Point, add, mul, mul_base, sub

__all__ = ["Ciphertext", "decrypt", "encrypt", "rerandomise", "trivial"]

Ciphertext = tuple[Point, Point]
"""``(a, b)`` with ``a = r·G`` and ``b = M + r·Y``."""


def trivial(message: Point, key: Point) -> Ciphertext:
    """The public starting encryption ``(G, M + Y)`` (randomness 1), as the deck begins."""
    return (BASE, add(message, key))


def encrypt(message: Point, key: Point, r: int) -> Ciphertext:
    """``(r·G, M + r·Y)``."""
    return (mul_base(r), add(message, mul(r, key)))


def rerandomise(c: Ciphertext, key: Point, r: int) -> Ciphertext:
    """``c`` plus an encryption of the identity with randomness ``r``."""
    return (add(c[0], mul_base(r)), add(c[1], mul(r, key)))


def decrypt(c: Ciphertext, secret: int) -> Point:
    """``b - x·a``: the message, when ``secret`` is the whole key."""
    return sub(c[1], mul(secret, c[0]))
