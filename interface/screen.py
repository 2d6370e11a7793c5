"""The seam between the client's shell and a game's screen.

The full-screen client (``condottiere play``) is a shell that knows no game: it draws what
happens now, the lobby, the log and the chat, the end, the help and the command line, and
asks the game's :class:`GameScreen` (``GameRules.screen()``) for the rest: the board, each
seat's row, the hand, the choices the keys move along and what each would do, why a seat's
row is worth what it is, the standing at the end, and the game's part of the help.

A game's screen answers in plain data, never in a terminal library's types, so that a game
needs no terminal library and its drawing is tested as text: a line is a list of
``(style, text)`` fragments (the shape prompt_toolkit draws), its width measured in terminal
cells by :func:`cells`; the shell cuts whatever is wider or longer than the room it gave.
A style is made of class names of the shell's palette and text attributes (``bold``):

==================  ==========================================================
``class:seat.N``    seat N's colour (always drawn with the seat's mark too)
``class:title``     a panel's title
``class:detail``    secondary text
``class:empty``     a place nobody holds
``class:frame``     brackets around what is marked
``class:marker``    a marker of the game on its board
``class:contest``   where the current contest is fought
``class:choosable`` what this seat may choose now
``class:chosen``    the choice under the cursor
``class:card``      a card of the hand; ``class:playable``: one that may be played now
``class:key``       the key that chooses what follows it
``class:turn``      the mark of whose turn it is
``class:you``       this seat
``class:strength``  a figure of a seat's row
``class:alert``     something wrong (a seat whose peer is out of reach)
==================  ==========================================================

>>> seats = Seats((SeatShown(0, "ada", "A", True, None), SeatShown(1, "bob", "B", False, None)))
>>> seats.who(0), seats.who(1), seats.who(5), seats.listed((1, 0))
('you', 'bob', 'seat 5', 'bob and you')
>>> cells("漢字"), fit("Firenze", 5), crop([("", "Firenze"), ("class:title", " Roma")], 9)
(4, 'Fire…', [('', 'Firenze'), ('class:title', ' …')])
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol

from condottiere.interface.game import GameState, SeatView, TableRules

__all__ = [
    "Choices",
    "Explanation",
    "GameScreen",
    "Line",
    "Scene",
    "SeatShown",
    "Seats",
    "cells",
    "crop",
    "fit",
    "flow",
]

Line = list[tuple[str, str]]
"""One line of the screen: ``(style, text)`` fragments."""


@cache
def _char_cells(char: str) -> int:
    if char == "\u00ad":  # a soft hyphen is drawn
        return 1
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def cells(text: str) -> int:
    """The terminal cells ``text`` takes (wide characters two, combining marks none)."""
    return sum(map(_char_cells, text))


def fit(text: str, width: int) -> str:
    """``text`` cut to ``width`` cells, ending in ``…`` when it was longer."""
    if cells(text) <= width:
        return text
    if width <= 0:
        return ""
    cut, used = "", 0
    for char in text:
        used += _char_cells(char)
        if used > width - 1:
            break
        cut += char
    return cut + "…"


def crop(line: Line, width: int) -> Line:
    """``line`` cut to ``width`` cells (the fragment cut short ends in ``…``)."""
    cropped: Line = []
    left = width
    for style, text in line:
        if left <= 0:
            break
        part = fit(text, left)
        cropped.append((style, part))
        left -= cells(part)
    return cropped


def flow(line: Line, width: int) -> list[Line]:
    """``line`` broken into lines of ``width`` cells between its fragments, a key and what
    follows it kept together: the first fragment, then pairs (a hand's title, then each
    card's key and name); each line after the first starts with a space.

    >>> flow([("", "Hand"), ("k", "1"), ("", " ten"), ("k", "2"), ("", " six")], 11)
    [[('', 'Hand'), ('k', '1'), ('', ' ten')], [('', ' '), ('k', '2'), ('', ' six')]]
    """
    lines: list[Line] = [[]]
    used = 0
    pairs = [line[:1], *(line[index : index + 2] for index in range(1, len(line), 2))]
    for pair in pairs:
        size = sum(cells(text) for _, text in pair)
        if used + size > width and lines[-1]:
            lines.append([("", " ")])
            used = 1
        lines[-1].extend(pair)
        used += size
    return lines


@dataclass(frozen=True)
class SeatShown:
    """A seat as the screen shows it."""

    seat: int
    name: str
    """The player's name, printable characters only."""
    mark: str
    """One letter on the board and beside the row, no other seat's: the name's initial, or
    another of its letters when an earlier seat took that one."""
    you: bool
    """The seat of this client's player."""
    link: str | None
    """Why this seat's peer cannot be reached now; None when it can (or it is this one)."""


@dataclass(frozen=True)
class Seats:
    """Every seated player, by seat, and how a sentence names each."""

    shown: tuple[SeatShown, ...] = ()

    def __iter__(self) -> Iterator[SeatShown]:
        return iter(self.shown)

    def get(self, number: int | None) -> SeatShown | None:
        """Seat ``number``, or None when nobody sits there."""
        return next((seat for seat in self.shown if seat.seat == number), None)

    def who(self, number: int | None) -> str:
        """A seat as a sentence names it: ``you``, or its player's name."""
        seat = self.get(number)
        if seat is None:
            return "someone" if number is None else f"seat {number}"
        return "you" if seat.you else seat.name

    def listed(self, numbers: Iterable[int]) -> str:
        """Seats named in a sentence: ``ada, bob and you``; ``nobody`` for none."""
        names = [self.who(number) for number in numbers]
        if len(names) > 2:
            return ", ".join(names[:-1]) + " and " + names[-1]
        return " and ".join(names) or "nobody"


@dataclass(frozen=True)
class Choices:
    """What the keys choose among on a seat's turn, each a move as the command line spells it."""

    moves: tuple[str, ...] = ()
    """Every legal move, in the order ← and → step along them."""
    numbered: tuple[str, ...] = ()
    """What the keys 1 to 9 choose, in order (each one of :attr:`moves`; on a screen, ""
    for a key that chooses nothing now: the client keeps a card's key while it plays the
    phase)."""
    space: str | None = None
    """What Space chooses (one of :attr:`moves`), if anything."""


@dataclass(frozen=True)
class Scene:
    """What a game's screen draws from: the seat's view and game, the seats, and the choice
    under the cursor."""

    view: SeatView
    """The seat's view, of the game's own type."""
    game: GameState[Any] | None
    """A copy of the seat's own game (for what a move would do); None until it is fetched."""
    seats: Seats
    my_turn: bool
    """This seat must choose a move now."""
    choices: Choices
    """What the keys choose among now (nothing when it is not this seat's turn)."""
    chosen: str | None
    """The choice on the command line, if it holds one."""


@dataclass(frozen=True)
class Explanation:
    """Why a seat's row is worth what it is."""

    title: str
    lines: tuple[Line, ...]


class GameScreen(Protocol):
    """What the client's shell asks of a game to draw it. Every drawing gives at most
    ``height`` lines, each meant to take at most ``width`` cells."""

    @property
    def board_size(self) -> tuple[int, int]:
        """The cells wide and lines high the board takes (the rows take the rest)."""
        ...

    @property
    def verbs(self) -> tuple[str, ...]:
        """The words a move starts with: a line typed that starts with one goes to the table
        as a move."""
        ...

    def choices(self, view: SeatView) -> Choices:
        """What the keys choose among when it is ``view``'s seat's turn."""
        ...

    def effect(self, scene: Scene, move: str) -> str:
        """What playing ``move`` would do, or what it means, in a few words; empty when
        there is nothing worth saying (or ``move`` is no move)."""
        ...

    def headline(self, scene: Scene, actor: int | None) -> str:
        """What seat ``actor`` must decide now (``Your turn: ...`` when it is this seat),
        while the table waits for its move."""
        ...

    def status(self, scene: Scene) -> str:
        """The state of the table in one line, under the headline."""
        ...

    def board(self, scene: Scene, width: int, height: int) -> list[Line]:
        """The board, and what wins the game."""
        ...

    def rows(self, scene: Scene, width: int, height: int) -> list[Line]:
        """Every seat's part of the table (whose turn it is marked with ``class:turn``)."""
        ...

    def hand(self, scene: Scene, width: int, height: int) -> list[Line]:
        """This seat's hand: what may be played now, and the keys that choose it."""
        ...

    def explain(self, scene: Scene, seat: int, width: int) -> Explanation:
        """Why ``seat``'s row is worth what it is, step by step."""
        ...

    def standing(self, scene: Scene) -> tuple[str, ...]:
        """Once the game is over: where each seat stands, in sentences (the shell says who
        won and how, from the game's outcome)."""
        ...

    def help(self, table: TableRules, game: GameState[Any] | None) -> tuple[str, ...]:
        """The game's part of the help page, one paragraph a line: a title unindented, its
        paragraphs indented by two spaces; the rules of ``table`` among them. ``table`` is
        as the client knows it, without its options; ``game`` knows them once dealt."""
        ...
