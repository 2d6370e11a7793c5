"""Moves: frozen values with a text form that round-trips, and the errors of a move.

>>> move = Move.parse("attach heavy-cavalry francesco-sforza")
>>> move.verb, move.card, move.captain, Move.parse(str(move)) == move
(<Verb.ATTACH: 'attach'>, 'heavy-cavalry', 'francesco-sforza', True)
>>> str(Move.parse("OFFER 2 give heavy-cavalry 3d get 1p"))
'offer 2 give 3d heavy-cavalry get 1p'
>>> str(Move.parse("event spies 1")), str(Move.parse("event assassination gonzaga"))
('event spies 1', 'event assassination gonzaga')
>>> Move.parse("attack 2 gonzaga")
Traceback (most recent call last):
...
condottiere.interface.game.InvalidMoveError: 'attack 2 gonzaga': 2 is not a captain
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from condottiere.games.captains.cards import CAPTAINS, CARDS, sort_cards
from condottiere.games.captains.cities import CITIES
from condottiere.interface.game import IllegalMoveError, InvalidMoveError, MoveError

__all__ = ["Bundle", "IllegalMoveError", "InvalidMoveError", "Move", "MoveError", "Verb"]


class Verb(Enum):
    """What a move does; its value is the move's first word."""

    CITY = "city"
    KEEP = "keep"
    MULLIGAN = "mulligan"
    CAPTAIN = "captain"
    EMERGENCY = "emergency"
    ATTACH = "attach"
    REVENUE = "revenue"
    DISMISS = "dismiss"
    DISBAND = "disband"
    PAY = "pay"
    EVENT = "event"
    ATTACK = "attack"
    BLOCK = "block"
    NO_BLOCK = "no-block"
    PLAY = "play"
    PASS = "pass"
    OFFER = "offer"
    ACCEPT = "accept"
    REFUSE = "refuse"
    DISCARD = "discard"
    DONE = "done"


_VERBS = {verb.value: verb for verb in Verb}
_CAPTAINS = frozenset(CAPTAINS)


@dataclass(frozen=True, slots=True)
class Bundle:
    """One side of an offer: ducats, provinces, and cards (of the hand, or captains in play
    with what is attached to them), cards in notation order.

    >>> Bundle.parse(["1p", "pikemen", "2d"])
    Bundle(ducats=2, provinces=1, cards=('pikemen',))
    >>> str(Bundle()), Bundle.parse(["nothing"]).empty
    ('nothing', True)
    """

    ducats: int = 0
    provinces: int = 0
    cards: tuple[str, ...] = ()

    @property
    def empty(self) -> bool:
        return not (self.ducats or self.provinces or self.cards)

    @classmethod
    def parse(cls, words: list[str]) -> Bundle:
        """The bundle ``words`` spell; ValueError if they spell none."""
        if words == ["nothing"]:
            return cls()
        ducats = provinces = 0
        cards = []
        for word in words:
            if word[:-1].isdigit() and word[-1] in "dp":
                if word[-1] == "d":
                    ducats += int(word[:-1])
                else:
                    provinces += int(word[:-1])
            elif word in CARDS:
                cards.append(word)
            else:
                raise ValueError(f"{word} is neither ducats (3d), provinces (1p) nor a card")
        if not words:
            raise ValueError("say what is given, or 'nothing'")
        return cls(ducats, provinces, sort_cards(cards))

    def __str__(self) -> str:
        words = [f"{self.ducats}d"] if self.ducats else []
        if self.provinces:
            words.append(f"{self.provinces}p")
        return " ".join((*words, *self.cards)) or "nothing"


@dataclass(frozen=True, slots=True)
class Move:
    """A move: its verb and what it names (see the table in ``moves_help``)."""

    verb: Verb
    card: str | None = None
    """The card played or named (a city state's id for ``city``)."""
    captain: str | None = None
    """The captain the move is about (attached to, attacking, blocking, targeted)."""
    seat: int | None = None
    """The seat the move is about (attacked, targeted, offered to)."""
    give: Bundle | None = None
    get: Bundle | None = None

    @staticmethod
    def parse(text: str) -> Move:
        """The move ``text`` spells (case-insensitive); :class:`InvalidMoveError` if none."""
        return _parse(" ".join(text.lower().split()))

    def __str__(self) -> str:
        verb = self.verb
        if verb is Verb.OFFER:
            return f"offer {self.seat} give {self.give} get {self.get}"
        words = [verb.value]
        if self.card is not None:
            words.append(self.card)
        if self.captain is not None:
            words.append(self.captain)
        if self.seat is not None:
            words.append(str(self.seat))
        return " ".join(words)


_BARE = frozenset(
    {
        Verb.KEEP,
        Verb.MULLIGAN,
        Verb.PAY,
        Verb.NO_BLOCK,
        Verb.PASS,
        Verb.ACCEPT,
        Verb.REFUSE,
        Verb.DONE,
    }
)
_ONE_CARD = frozenset({Verb.CAPTAIN, Verb.EMERGENCY, Verb.REVENUE, Verb.PLAY, Verb.DISCARD})
_ONE_CAPTAIN = frozenset({Verb.DISBAND, Verb.BLOCK})
_CARD_AND_CAPTAIN = frozenset({Verb.ATTACH, Verb.DISMISS})


@lru_cache(maxsize=4096)
def _parse(text: str) -> Move:
    words = text.split()
    if not words or words[0] not in _VERBS:
        known = ", ".join(_VERBS)
        raise InvalidMoveError(f"{text!r} is not a move (moves begin with one of: {known})")
    verb = _VERBS[words[0]]
    args = words[1:]
    try:
        return _with_args(verb, args)
    except ValueError as error:
        raise InvalidMoveError(f"{text!r}: {error}") from None


def _card(word: str) -> str:
    if word not in CARDS:
        raise ValueError(f"{word} is not a card")
    return word


def _captain(word: str) -> str:
    if word not in _CAPTAINS:
        raise ValueError(f"{word} is not a captain")
    return word


def _seat(word: str) -> int:
    if not word.isdigit():
        raise ValueError(f"{word} is not a seat number")
    return int(word)


def _count(args: list[str], count: int) -> None:
    if len(args) != count:
        raise ValueError(f"takes {count} word{'s' if count != 1 else ''} after the verb")


def _with_args(verb: Verb, args: list[str]) -> Move:
    if verb in _BARE:
        _count(args, 0)
        return Move(verb)
    if verb is Verb.CITY:
        _count(args, 1)
        if args[0] not in CITIES:
            raise ValueError(f"{args[0]} is not a city state ({', '.join(CITIES)})")
        return Move(verb, args[0])
    if verb in _ONE_CARD:
        _count(args, 1)
        return Move(verb, _card(args[0]))
    if verb in _ONE_CAPTAIN:
        _count(args, 1)
        return Move(verb, captain=_captain(args[0]))
    if verb in _CARD_AND_CAPTAIN:
        _count(args, 2)
        return Move(verb, _card(args[0]), _captain(args[1]))
    if verb is Verb.ATTACK:
        _count(args, 2)
        return Move(verb, captain=_captain(args[0]), seat=_seat(args[1]))
    if verb is Verb.EVENT:
        _count(args, 2)
        target = args[1]
        if target.isdigit():
            return Move(verb, _card(args[0]), seat=int(target))
        return Move(verb, _card(args[0]), captain=_captain(target))
    # Verb.OFFER
    if len(args) < 5 or args[1] != "give" or "get" not in args:
        raise ValueError("write offer SEAT give ITEMS get ITEMS")
    split = args.index("get")
    return Move(
        verb,
        seat=_seat(args[0]),
        give=Bundle.parse(args[2:split]),
        get=Bundle.parse(args[split + 1 :]),
    )
