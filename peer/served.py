"""What a peer serves its subscribers: a copy of every author's log as the table appended it,
sent beyond each subscriber's cursors, then each new entry as it comes."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Collection, Iterable

__all__ = ["Served"]


class Served:
    """Every entry this peer serves, by author, and the change each new one is."""

    def __init__(self) -> None:
        self._copies: dict[bytes, list[bytes]] = {}
        self._held: set[bytes] = set()
        self._waiting: dict[asyncio.Event, tuple[dict[bytes, int], bytes]] = {}
        """Every stream open: its wake-up, the next entry it sends of each author, its
        subscriber."""

    def append(self, author: bytes, signed: bytes) -> None:
        """Serve ``signed``, the next entry of ``author``'s log (subscribers hear of it at
        :meth:`notify`)."""
        self._copies.setdefault(author, []).append(signed)
        self._held.add(signed)

    def holds(self, signed: bytes) -> bool:
        """Whether these exact bytes are served: an entry of the table's logs (a copy that
        comes in again changes nothing)."""
        return signed in self._held

    def held(self) -> dict[bytes, int]:
        """How many entries this peer holds of each author."""
        return {author: len(copies) for author, copies in self._copies.items()}

    def count(self, author: bytes) -> int:
        """How many entries of ``author`` this peer holds."""
        return len(self._copies.get(author, ()))

    def keep_only(self, named: Collection[bytes]) -> None:
        """Serve nothing more of the authors not ``named`` (authors with no seat)."""
        for author in [a for a in self._copies if a not in named]:
            self._held.difference_update(self._copies.pop(author))

    def notify(self, authors: Iterable[bytes] | None = None) -> None:
        """Wake the streams that have something new of ``authors`` to send (entries of them
        appended); None: every stream (whether its subscriber may still read changed). A
        stream that skips an author's log (its cursor past the end) or is its subscriber's
        own sleeps on: most streams of a seated table have nothing to send of most entries."""
        if authors is None:
            wakes = list(self._waiting)
        else:
            authors = set(authors)
            wakes = [
                wake
                for wake, (sent, skip) in self._waiting.items()
                if any(
                    author != skip and sent.get(author, 0) < len(self._copies.get(author, ()))
                    for author in authors
                )
            ]
        for wake in wakes:
            wake.set()

    async def entries_from(
        self, cursors: dict[bytes, int], skip: bytes, may_read: Callable[[], bool]
    ) -> AsyncIterator[bytes]:
        """Every entry held beyond ``cursors`` (author -> next sequence number), then each new
        one, while ``may_read()``; ``skip``'s own entries only as far as they are held now (a
        subscriber that lost the end of its own log gets it back), not as they come."""
        sent = dict(cursors)
        held_now = True
        wake = asyncio.Event()
        self._waiting[wake] = (sent, skip)
        try:
            while may_read():
                wake.clear()  # set again by an entry appended from here on
                for author, copies in list(self._copies.items()):
                    start = sent.get(author, 0)
                    if start >= len(copies):
                        continue
                    batch = copies[start:]
                    sent[author] = start + len(batch)  # more may come while these are sent
                    if author == skip and not held_now:
                        continue
                    for signed in batch:
                        yield signed
                held_now = False
                await wake.wait()
        finally:
            del self._waiting[wake]
