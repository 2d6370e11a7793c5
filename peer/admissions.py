"""Whom the owner admitted and refused at the table it created, kept in the store so that a
peer taken up again after a restart seats the same joiners."""

from __future__ import annotations

import json

from condottiere.peer.driver import Table

__all__ = ["ADMISSION", "admission_of", "apply_admission"]

ADMISSION = "admission"
"""The store's setting of whom the owner admitted and refused at the table it created."""


def admission_of(table: Table) -> bytes:
    """The table's admissions, as the store keeps them."""
    lobby = table.lobby
    return json.dumps({
        "open": lobby.open,
        "admitted": sorted(a.hex() for a in lobby.admitted),
        "refused": sorted(a.hex() for a in lobby.refused),
    }).encode()


def apply_admission(table: Table, kept: bytes) -> None:
    """Admit and refuse again, at a table taken up from the store, as its owner did."""
    admission = json.loads(kept)
    table.lobby.open = bool(admission["open"])
    for author in admission["refused"]:
        table.refuse(bytes.fromhex(author))
    for author in admission["admitted"]:
        table.admit(bytes.fromhex(author))
