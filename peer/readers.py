"""Who may read a table's logs (``Subscribe``): a table setting.

By default only the table's players may: its seated authors, and, while it fills, anyone who
proves a key (a player who asks for a seat follows the table before its ``Join`` reaches
everyone; nothing of a game is in a filling table's logs). A table defined with
``spectators`` (``host --spectators``) may be read by anyone, a watcher with no seat
included: what its logs show is what every seat sees of the others (never a hand).

A subscriber proves its key by signing its request: the table's id, its key and when it
signed (Unix milliseconds), under a domain of its own (so that no other signature of the key
can pass for one). A request signed more than :data:`SKEW_MS` from the reader's clock is
refused (clocks of a LAN differ; a request replayed later than that is refused too).

This keeps a stranger on the LAN out of a table's logs (and of what their timing tells).
It cannot keep out someone who sees the LAN's traffic: the logs travel in clear, as the
design says (every entry is signed, none is secret).

>>> from condottiere.crypto import Identity
>>> ada, stranger = Identity.generate(), Identity.generate()
>>> table = b"T" * 32
>>> issued, proof = sign_subscription(ada, table, at_ms=1_000)
>>> refusal(table, ada.public.raw, issued, proof, readers=[ada.public.raw], open_to_all=False,
...         at_ms=2_000) is None
True
>>> refusal(table, stranger.public.raw, *sign_subscription(stranger, table, at_ms=1_000),
...         readers=[ada.public.raw], open_to_all=False, at_ms=2_000)
'only the seated players may follow this table (it admits no spectators)'
>>> refusal(table, ada.public.raw, issued, b"x" * 64, readers=None, open_to_all=False,
...         at_ms=2_000)
'the subscription is not signed by the key it names'
"""

from __future__ import annotations

import time
from collections.abc import Collection

from condottiere.crypto import Identity, PublicIdentity
from condottiere.crypto.errors import DecodeError, VerificationError

__all__ = ["SKEW_MS", "now_ms", "refusal", "sign_subscription"]

SKEW_MS = 3_600_000
"""How far (an hour) a subscription's signing time may be from the reader's clock."""
_DOMAIN = b"condottiere/v1/subscribe\x00"


def now_ms() -> int:
    """The clock subscriptions are signed and checked by: Unix time in milliseconds."""
    return time.time_ns() // 1_000_000


def _signed(table_id: bytes, subscriber: bytes, issued_ms: int) -> bytes:
    return _DOMAIN + table_id + subscriber + issued_ms.to_bytes(8, "big")


def sign_subscription(
    identity: Identity, table_id: bytes, at_ms: int | None = None
) -> tuple[int, bytes]:
    """When (``at_ms``, default now) ``identity`` asks to read ``table_id``'s logs, and its
    signature of the request."""
    issued = now_ms() if at_ms is None else at_ms
    return issued, identity.sign(_signed(table_id, identity.public.raw, issued))


def refusal(
    table_id: bytes,
    subscriber: bytes,
    issued_ms: int,
    proof: bytes,
    *,
    readers: Collection[bytes] | None,
    open_to_all: bool,
    at_ms: int,
) -> str | None:
    """Why the subscriber may not read the table's logs; None when it may. ``readers``: the
    seated authors (None while the table fills: any key that proves itself may read);
    ``open_to_all``: the table admits spectators (anyone may read, proof or not); ``at_ms``:
    the reader's clock (:func:`now_ms`)."""
    if open_to_all:
        return None
    try:
        PublicIdentity(subscriber).verify(_signed(table_id, subscriber, issued_ms), proof, -1)
    except (DecodeError, VerificationError, ValueError):
        return "the subscription is not signed by the key it names"
    if abs(at_ms - issued_ms) > SKEW_MS:
        return "the subscription was signed too long ago (or this clock is far off)"
    if readers is not None and subscriber not in readers:
        return "only the seated players may follow this table (it admits no spectators)"
    return None
