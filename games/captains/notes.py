"""What the rules tell as they go: each rule that changes something public leaves a note,
and the narration (:mod:`.narration`) reads the notes a move left.

Notes are kept as a chain of immutable links, so that a copy of a game shares them and a new
note costs one small tuple.

>>> from condottiere.interface.game import ToldKind
>>> chain = add(None, Note(ToldKind.CHANGE, "{0} gains 3 ducats", (1,)))
>>> [note.words(["ann", "bob"]) for note in since(chain, 1)]
['bob gains 3 ducats']
"""

from __future__ import annotations

from dataclasses import dataclass

from condottiere.interface.game import ToldKind

__all__ = ["Chain", "Note", "add", "since"]


@dataclass(frozen=True, slots=True)
class Note:
    """One sentence: ``text`` with ``{0}``, ``{1}``, ... standing for the seats of ``seats``;
    ``about`` is the seat the sentence is about (the winner of a result)."""

    kind: ToldKind
    text: str
    seats: tuple[int, ...] = ()
    about: int | None = None

    def words(self, names: list[str] | tuple[str, ...]) -> str:
        return self.text.format(*(names[seat] for seat in self.seats))


Chain = tuple[Note, "Chain", int] | None
"""A note, the chain before it, and how many notes the chain holds."""


def add(chain: Chain, note: Note) -> Chain:
    return (note, chain, 1 if chain is None else chain[2] + 1)


def length(chain: Chain) -> int:
    return 0 if chain is None else chain[2]


def since(chain: Chain, count: int) -> list[Note]:
    """The last ``count`` notes of ``chain``, oldest first."""
    notes = []
    while count > 0 and chain is not None:
        notes.append(chain[0])
        chain = chain[1]
        count -= 1
    notes.reverse()
    return notes
