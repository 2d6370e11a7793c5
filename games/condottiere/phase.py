"""What the engine waits for: the phase it is in, and the types of the continuations that go
on once a pending question is answered.

The phase says who answers next, and how:

=================  ==================================================================
``battle-choice``  the battle-marker holder opens a battle (``battle Firenze``) or cedes
``battle``         the seat ``to_act`` plays a card or passes
``favor``          the seat that played a Bishop places the Favor marker
``discard``        after a battle, seats holding cards decide to ``discard`` or ``keep``
``retain``         FFG: the last seat with cards keeps up to two of them
``chance``         chance answers (:meth:`Game.resolve`): a fair choice of a seat, or a deal
``over``           the game is over; ``winners`` holds the winning seats
=================  ==================================================================

A phase is a string enum: it equals, hashes and prints as its text, so ``game.phase ==
"over"`` holds and a record or a screen shows ``over`` as before.

>>> Phase.OVER == "over", f"{Phase.BATTLE_CHOICE}", Phase("favor")
(True, 'battle-choice', 'favor')

The rest of a pending question is typed state of the game beside the phase: the seat to
act, the chance node (:attr:`Game.chance`) and the deals queued behind it, and where the rules
go on once it is answered. Those continuations are plain functions of the game (:data:`Then`,
:data:`AfterChoice`; never bound methods, which a copy of the game would not share): mypy
checks their signatures, and a search for a continuation's name finds where it is asked.

The rules name the phases by the module constants below (:data:`BATTLE` is
``Phase.BATTLE``): they set and test the phase on every move, and Python 3.11 reads a member
off an enum class through its metaclass's ``__getattr__`` hook, about ten times as slow as a
global.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from condottiere.games.condottiere.game import Game

__all__ = [
    "BATTLE",
    "BATTLE_CHOICE",
    "CHANCE",
    "DISCARD",
    "FAVOR",
    "OVER",
    "RETAIN",
    "AfterChoice",
    "Phase",
    "Then",
]


class Phase(StrEnum):
    """What kind of answer the game waits for (see the module's table)."""

    BATTLE_CHOICE = "battle-choice"
    BATTLE = "battle"
    FAVOR = "favor"
    DISCARD = "discard"
    RETAIN = "retain"
    CHANCE = "chance"
    OVER = "over"

    def __repr__(self) -> str:
        """As its text (``'over'``), as the phase read before it was an enum."""
        return repr(self.value)


BATTLE_CHOICE = Phase.BATTLE_CHOICE
BATTLE = Phase.BATTLE
FAVOR = Phase.FAVOR
DISCARD = Phase.DISCARD
RETAIN = Phase.RETAIN
CHANCE = Phase.CHANCE
OVER = Phase.OVER

Then = Callable[["Game"], None]
"""A continuation: where the rules go on once a question is answered."""
AfterChoice = Callable[["Game", int], None]
"""A continuation that goes on with the seat a fair choice chose."""
