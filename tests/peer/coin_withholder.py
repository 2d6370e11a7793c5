"""A peer that withholds its coin reveals, as a program of its own
(``python -m tests.peer.coin_withholder ARGS``), for the tests of ``test_coin_lan.py``.

It runs ``condottiere ARGS`` (``bot --join …``, say) with one change to its table: at each
fair choice it waits until it holds every other committer's reveal, works the outcome out,
and reveals its own value only when the outcome is the seat it wants (``--wants SEAT``,
taken out of ARGS; without it, it never reveals). With ``--late`` it reveals instead just
after two other seats have closed the choice naming it, so that the closes split: those two
name it, the seats whose timeouts are longer get its reveal in time and name nobody.
Everything else it plays honestly, through the wire like any peer.

Nothing here is shipped: the command line has no way to cheat.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import condottiere.peer.node
from condottiere.cli.main import main
from condottiere.peer.driver import Table
from condottiere.peer.steps import coins

WANTED: int | None = None
LATE = False


class Withholder(Table):
    """The table of a seat that keeps back every reveal whose outcome it does not want."""

    def _entry_body(self, step: Any) -> Any:
        if step.kind != "coin_reveal":
            return super()._entry_body(step)
        flip = step.flip
        if LATE:
            named = sum(self.seat in missing for missing in coins.closes_of(self, flip).values())
            return super()._entry_body(step) if named >= 2 else None
        values = {}
        for seat in flip.committers:
            author = self.seating[seat]
            if author == self.me:
                continue
            reveals = [
                entry for entry in self.logs.log(author)
                if entry.kind == "coin_reveal" and entry.body.choice == flip.choice
            ]
            if not reveals:
                return None  # not the last to reveal yet: wait and see
            values[seat] = int.from_bytes(reveals[0].body.value, "little")
        kept = coins.kept_coin_value(self, flip)
        if kept is None or WANTED is None:
            return None
        values[self.seat] = kept
        if flip.outcome(self.table_id, values) != WANTED:
            return None
        return super()._entry_body(step)


def run(argv: Sequence[str]) -> int:
    global WANTED, LATE
    args = list(argv)
    if "--late" in args:
        LATE = True
        args.remove("--late")
    if "--wants" in args:
        at = args.index("--wants")
        WANTED = int(args[at + 1])
        del args[at : at + 2]
    condottiere.peer.node.Table = Withholder  # type: ignore[misc]
    return main(args)


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
