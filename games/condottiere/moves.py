"""Moves, their text notation, and the two errors a move can raise.

A move is a small frozen value. Its text form is what logs, tests, bots and the
command line use, and it round-trips:

>>> m = Move.parse("play scarecrow 5 2")
>>> m
Move(verb='play', card='scarecrow', target='5', target_seat=2)
>>> str(m), Move.parse(str(m)) == m
('play scarecrow 5 2', True)
>>> str(Move.parse("BATTLE firenze")), str(Move.parse("favor none"))
('battle Firenze', 'favor none')
>>> Move.parse("play 7")
Traceback (most recent call last):
...
condottiere.interface.game.InvalidMoveError: there is no card called '7'
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from condottiere.games.condottiere.board import region_named
from condottiere.games.condottiere.cards import CARD_ORDER, MERCENARY_VALUE
from condottiere.interface.game import CardFlow, IllegalMoveError, InvalidMoveError, MoveError

__all__ = ["CardFlow", "IllegalMoveError", "InvalidMoveError", "Move", "MoveError", "card_flow"]

VERBS = ("battle", "cede", "play", "pass", "favor", "discard", "keep", "retain")


@dataclass(frozen=True, slots=True)
class Move:
    """One move. ``verb`` is one of ``battle cede play pass favor discard keep retain``.

    - ``battle``/``favor``: ``region`` (``favor`` with ``region=None`` is ``favor none``);
    - ``play``: ``card``; for a Scarecrow, ``target`` is the mercenary taken back and
      ``target_seat`` the row it comes from when it is not the player's own (``play scarecrow``
      takes nothing: in the Z-Man editions only when nothing may be taken, in ``ffg`` and
      ``eurogames`` at any time);
    - ``retain``: ``cards``, the (at most two) cards kept.
    """

    verb: str
    card: str | None = None
    target: str | None = None
    target_seat: int | None = None
    region: str | None = None
    cards: tuple[str, ...] = ()

    def __repr__(self) -> str:
        fields = [f"verb={self.verb!r}"]
        for name in ("card", "target", "target_seat", "region"):
            value = getattr(self, name)
            if value is not None:
                fields.append(f"{name}={value!r}")
        if self.cards:
            fields.append(f"cards={self.cards!r}")
        return f"Move({', '.join(fields)})"

    def __str__(self) -> str:
        if self.verb == "battle":
            return f"battle {self.region}"
        if self.verb == "favor":
            return f"favor {self.region or 'none'}"
        if self.verb == "play":
            words = ["play", str(self.card)]
            if self.target is not None:
                words.append(self.target)
                if self.target_seat is not None:
                    words.append(str(self.target_seat))
            return " ".join(words)
        if self.verb == "retain":
            return " ".join(("retain", *self.cards))
        return self.verb

    @classmethod
    def parse(cls, text: str) -> Move:
        """The move ``text`` spells (any case and spacing); :class:`InvalidMoveError` if none."""
        return _parse(" ".join(text.lower().split()))


def card_flow(move: Move) -> CardFlow:
    """What ``move`` does to the cards of the mover's hand.

    >>> card_flow(Move.parse("play scarecrow 5"))
    CardFlow(played=('scarecrow',), shown=(), whole_hand=False, rest_returned=False, taken=('5',))
    >>> card_flow(Move.parse("retain 10 heroine")).shown
    ('10', 'heroine')
    >>> card_flow(Move.parse("discard")).whole_hand
    True
    >>> card_flow(Move.parse("pass")) == CardFlow()
    True
    """
    if move.verb == "play":
        return CardFlow(
            played=(str(move.card),), taken=() if move.target is None else (move.target,)
        )
    if move.verb == "discard":
        return CardFlow(whole_hand=True)
    if move.verb == "retain":
        return CardFlow(shown=move.cards, rest_returned=True)
    return CardFlow()


def _card(word: str) -> str:
    if word not in CARD_ORDER:
        raise InvalidMoveError(f"there is no card called {word!r}")
    return word


@lru_cache(maxsize=4096)
def _parse(text: str) -> Move:
    words = text.split()
    if not words:
        raise InvalidMoveError("an empty text is not a move")
    verb, args = words[0], words[1:]
    if verb not in VERBS:
        raise InvalidMoveError(
            f"{verb!r} is not a move; moves start with one of: {', '.join(VERBS)}"
        )
    if verb in ("cede", "pass", "discard", "keep"):
        if args:
            raise InvalidMoveError(f"'{verb}' takes nothing after it")
        return Move(verb)
    if verb in ("battle", "favor"):
        if len(args) != 1:
            raise InvalidMoveError(f"'{verb}' needs one region, as in '{verb} Firenze'")
        if verb == "favor" and args[0] == "none":
            return Move("favor")
        region = region_named(args[0])
        if region is None:
            raise InvalidMoveError(f"there is no region called {args[0]!r}")
        return Move(verb, region=region)
    if verb == "retain":
        if len(args) > 2:
            raise InvalidMoveError("you may retain at most two cards")
        return Move("retain", cards=tuple(sorted(map(_card, args), key=CARD_ORDER.__getitem__)))
    if not args:
        raise InvalidMoveError("'play' needs a card, as in 'play 10' or 'play drummer'")
    card = _card(args[0])
    if card != "scarecrow":
        if len(args) > 1:
            raise InvalidMoveError(f"'play {card}' takes nothing after the card")
        return Move("play", card=card)
    if len(args) == 1:
        return Move("play", card=card)
    target = args[1]
    if target not in MERCENARY_VALUE:
        raise InvalidMoveError(f"a Scarecrow takes back a mercenary (1 to 10), not {target!r}")
    if len(args) == 2:
        return Move("play", card=card, target=target)
    if len(args) > 3 or not args[2].isdigit():
        raise InvalidMoveError("write 'play scarecrow 5' or 'play scarecrow 5 2' (seat 2's 5)")
    return Move("play", card=card, target=target, target_seat=int(args[2]))
