"""A peer that serves its own deal entries to every peer but the table's creator, as a program
of its own (``python -m tests.peer.picky_server ARGS``), for ``test_picky_server.py``.

It runs ``condottiere ARGS`` (``bot --join …``, say) with one change to what it serves: its
entries of the deal (keys, shuffles, shares) are left out of the creator's streams, so the
creator can have them only through the other peers. Everything else it plays honestly.

Nothing here is shipped: the command line has no way to cheat.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Sequence

import condottiere.cli.peer_runner
from condottiere.cli.main import main
from condottiere.peer.node import Node

WITHHELD_KINDS = frozenset({"keys", "shuffle", "shares"})


class PickyNode(Node):
    """A node that keeps its deal entries from the creator's streams."""

    def entries_from(self, cursors: dict[bytes, int], skip: bytes) -> AsyncIterator[bytes]:
        served = super().entries_from(cursors, skip)
        table = self.table
        if table is None or skip != table.lobby.creator:
            return served
        return self._without_deal(served)

    async def _without_deal(self, served: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
        async for signed in served:
            table = self.table
            assert table is not None
            withheld = {
                entry.signed for entry in table.logs.log(table.me)
                if entry.kind in WITHHELD_KINDS
            }
            if signed not in withheld:
                yield signed


def run(argv: Sequence[str]) -> int:
    condottiere.cli.peer_runner.Node = PickyNode  # type: ignore[misc]
    return main(argv)


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
