"""Where a table keeps what it must not lose: every entry, and its own secrets.

A node keeps them in its store (:mod:`condottiere.peer.store`); tests, and peers that need not
survive a crash, in memory (:class:`MemoryKeeper`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from condottiere.peer.entries import LogEntry, SigningConflict

__all__ = ["Keeper", "MemoryKeeper"]


class Keeper(Protocol):
    """Where a table keeps what it must not lose: every entry, and its own secrets.

    ``keep_secret`` and ``keep_own`` must be durable when they return: the entry that depends
    on a secret, and an entry of the table's own, are published only afterwards.
    """

    def keep(self, entry: LogEntry) -> None: ...

    def keep_own(self, entry: LogEntry) -> None:
        """Keep an entry the table's own key signed; :class:`SigningConflict` (and nothing
        kept) if another entry of that key holds its sequence number."""
        ...

    def keep_secret(self, name: str, value: bytes) -> None: ...

    def secret(self, name: str) -> bytes | None: ...

    def mark_verified(self, entry: LogEntry) -> None: ...

    def verified(self) -> set[bytes]:
        """The hashes of entries whose proofs were verified before."""
        ...


@dataclass
class MemoryKeeper:
    """A keeper in memory (tests, and peers that need not survive a crash)."""

    entries: list[LogEntry] = field(default_factory=list)
    secrets: dict[str, bytes] = field(default_factory=dict)
    checked: set[bytes] = field(default_factory=set)

    def keep(self, entry: LogEntry) -> None:
        self.entries.append(entry)

    def keep_own(self, entry: LogEntry) -> None:
        for kept in self.entries:
            if (kept.author, kept.seq) == (entry.author, entry.seq):
                if kept.hash != entry.hash:
                    raise SigningConflict(kept, entry)
                return
        self.entries.append(entry)

    def keep_secret(self, name: str, value: bytes) -> None:
        self.secrets[name] = value

    def secret(self, name: str) -> bytes | None:
        return self.secrets.get(name)

    def mark_verified(self, entry: LogEntry) -> None:
        self.checked.add(entry.hash)

    def verified(self) -> set[bytes]:
        return set(self.checked)
