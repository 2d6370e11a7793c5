"""The crypto's randomness, drawn from a seed for the length of one simulated run.

The mental-poker library draws its secrets from the operating system (``os.urandom``, the
``secrets`` module, the dealer's ``SystemRandom``): right for a peer, but a simulated run must
be a function of its seed to be replayed. :func:`seeded` replaces those sources with one
seeded generator while a run lasts and puts them back after (Ed25519 signatures are already
deterministic). Runs in one process are therefore not thread-safe, which they never are here.
"""

from __future__ import annotations

import contextlib
import os
import random
import secrets
from collections.abc import Iterator

from condottiere.peer.dealing import moves as dealer_moves

__all__ = ["seeded"]


@contextlib.contextmanager
def seeded(seed: int) -> Iterator[random.Random]:
    """Within the block, the crypto's randomness comes from ``random.Random(seed)``."""
    rng = random.Random(f"entropy {seed}")
    saved = (
        os.urandom, secrets.randbelow, secrets.token_bytes, secrets.token_hex, dealer_moves._RANDOM
    )

    def urandom(size: int) -> bytes:
        return rng.randbytes(size)

    os.urandom = urandom
    secrets.randbelow = rng.randrange
    secrets.token_bytes = lambda size=32: rng.randbytes(size or 32)
    secrets.token_hex = lambda size=32: rng.randbytes(size or 32).hex()
    dealer_moves._RANDOM = rng  # type: ignore[assignment]
    try:
        yield rng
    finally:
        os.urandom, secrets.randbelow, secrets.token_bytes, secrets.token_hex = saved[:4]
        dealer_moves._RANDOM = saved[4]
