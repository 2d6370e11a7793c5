"""Who may read a table's logs (``Subscribe``): a table setting.

By default only the table's players may: its seated authors, and, while it fills, anyone who
proves a key (a player who asks for a seat follows the table before its ``Join`` reaches
everyone; nothing of a game is in a filling table's logs). A table defined with
``spectators`` (``host --spectators``) may be read by anyone, a watcher with no seat
included: what its logs show is what every seat sees of the others (never a hand).

A subscriber proves its key by signing the table's id and the challenge the peer sent in its
``Hello`` reply (:func:`condottiere.peer.service.subscription_proof`): a proof made for one
peer's run passes at no other peer, and at no later run of that peer.

This keeps a stranger on the LAN out of a table's logs (and of what their timing tells).
It cannot keep out someone who sees the LAN's traffic: the logs travel in clear, as the
design says (every entry is signed, none is secret).

>>> ada, stranger = b"A" * 32, b"S" * 32
>>> refusal(ada, proven=True, readers=[ada], open_to_all=False) is None
True
>>> refusal(stranger, proven=True, readers=[ada], open_to_all=False)
'only the seated players may follow this table (it admits no spectators)'
>>> refusal(ada, proven=False, readers=None, open_to_all=False)
"the subscription is not signed by the key it names for this peer's challenge"
>>> refusal(stranger, proven=False, readers=[ada], open_to_all=True) is None
True
>>> refusal(stranger, proven=True, readers=None, open_to_all=True, refused=[stranger])
"the table's creator refused you a seat"
"""

from __future__ import annotations

from collections.abc import Collection

__all__ = ["REFUSED_A_SEAT", "refusal"]

REFUSED_A_SEAT = "the table's creator refused you a seat"
"""Why the creator's peer ends the stream of a joiner its owner refused, and refuses its
later subscriptions: the refused joiner learns it so (the refusal is in no log)."""


def refusal(
    subscriber: bytes,
    *,
    proven: bool,
    readers: Collection[bytes] | None,
    open_to_all: bool,
    refused: Collection[bytes] = (),
) -> str | None:
    """Why ``subscriber`` may not read the table's logs; None when it may. ``proven``: it
    signed this peer's challenge with its key; ``readers``: the seated authors (None while
    the table fills: any key that proves itself may read); ``open_to_all``: the table admits
    spectators (anyone may read, proof or not); ``refused``: the joiners the creator's owner
    refused a seat (told so once they prove their key)."""
    if proven and subscriber in refused:
        return REFUSED_A_SEAT
    if open_to_all:
        return None
    if not proven:
        return "the subscription is not signed by the key it names for this peer's challenge"
    if readers is not None and subscriber not in readers:
        return "only the seated players may follow this table (it admits no spectators)"
    return None
