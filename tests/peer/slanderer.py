"""A peer that signs false silence statements, as a program of its own
(``python -m tests.peer.slanderer ARGS``), for ``test_leavers.py``.

It runs ``condottiere ARGS`` (``bot --join …``, say) with one change to its table: the first
time the table waits for another seat's move, it states that seat silent and out there at
once, before any deadline, and its own fold then goes on without that seat (a seat follows
its own decisions). Everything else it plays honestly, through the wire like any peer.

Nothing here is shipped: the command line has no way to cheat.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import condottiere.peer.node
from condottiere.cli.main import main
from condottiere.peer.driver import Table
from condottiere.peer.steps.moves import MOVE
from condottiere.v1 import log_pb2


class Slanderer(Table):
    """The table of a seat that states the first other seat it waits a move of out."""

    slandered = False

    def _advance(self) -> None:
        step = self.step
        if (
            not self.slandered and not self._quiet and self.halt is None
            and step is not None and step.kind == MOVE and self.me not in step.authors
        ):
            silent = self.seat_of(step.authors[0])
            if silent is not None:
                self.slandered = True
                self._publish(log_pb2.Silence(seat=silent, step=step.number, waited=999))
                self._publish(log_pb2.Silence(seat=silent, step=step.number, waited=999,
                                              out=True))
        super()._advance()


def run(argv: Sequence[str]) -> int:
    condottiere.peer.node.Table = Slanderer  # type: ignore[misc]
    return main(list(argv))


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
