"""The game interface: what the platform (peer, dealer, record, client shell, bot harness)
may ask of a game, and nothing more.

In OpenSpiel's shape: a game is made for one seat (it knows that seat's hand), for a
spectator (it knows no hand) or omnisciently (offline: tests, bots' simulations, the audit
of a record); it says what it waits for next (:class:`SeatToMove`, or a chance event the
platform resolves: a :class:`Deal` of cards, a fair :class:`Choice` of a seat, a hand
shown to one seat (:class:`ShowHand`), a named card searched for in the deck
(:class:`SearchDeck`), a hidden hand proved to hold a card of a set (:class:`HandHolds`)); it
lists
the legal moves and plays one with the cards it shows; it tells the dealer what a move does
to the hidden cards (:class:`CardFlow`); it gives its decks as card lists; it says who won
and how (:class:`Outcome`); it goes on without a seat that leaves the table, as its rules
say, until one seat is left and wins by forfeit (:meth:`GameState.remove_seat`); it tells
its events as values read by name (:mod:`condottiere.interface.events`), why a move is
not legal (:meth:`GameState.why_illegal`), and its own narration as it is played
(:class:`Sentence` values, named into :class:`Told` sentences: one narration for the log,
the client, the demo, replays and the bots);
and it gives a seat's view as a structured value (and as the per-game part of the
controller's wire ``View``).

A game is a :class:`GameRules` value registered under the name a table definition's
``game`` field carries (:mod:`condottiere.interface.registry`). The platform never imports a
game's module: it holds a :class:`GameRules` and the :class:`GameState` values it makes.

>>> Deal(seat=1, count=3), Choice((0, 2), "first battle marker")
(Deal(seat=1, count=3), Choice(seats=(0, 2), purpose='first battle marker'))
>>> Draw(Deal(0, 3), pile=0, epoch=1, start=10).positions
range(10, 13)
>>> TableRules("condottiere", "zman", 4, ("cede",))
TableRules(game='condottiere', edition='zman', seats=4, options=('cede',))
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any, Protocol, Self, TypeVar

from google.protobuf.message import Message

from condottiere.interface.events import RecordEvent

if TYPE_CHECKING:
    from condottiere.interface.screen import GameScreen

__all__ = [
    "CardFlow",
    "CardStep",
    "ChanceNode",
    "Choice",
    "Deal",
    "Draw",
    "Edition",
    "FigureNames",
    "GameRules",
    "GameState",
    "HandHolds",
    "HandOutOfGame",
    "Handed",
    "IllegalMoveError",
    "InvalidMoveError",
    "MoveError",
    "Outcome",
    "OutcomeKind",
    "SearchDeck",
    "SeatToMove",
    "SeatView",
    "Sentence",
    "ShowHand",
    "TableRules",
    "Told",
    "ToldKind",
    "Waiting",
]


class MoveError(ValueError):
    """A move that cannot be played; the message says why in a player's words."""


class InvalidMoveError(MoveError):
    """Text that is not a move at all."""


class IllegalMoveError(MoveError):
    """A well-formed move that is not legal now."""


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance: ``count`` cards from the top of a draw pile go to ``seat``."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class Choice:
    """Chance: a fair random choice of one of ``seats``; ``purpose`` says what it decides."""

    seats: tuple[int, ...]
    purpose: str


@dataclass(frozen=True, slots=True)
class ShowHand:
    """Chance: the whole hand of ``seat`` (``count`` cards) is shown to ``viewer`` alone (a
    look at an opponent's hand); with ``handed`` the cards then go into ``viewer``'s hand
    (a conquered seat's hand goes to its conqueror).

    A table that may see the cards (the omniscient table, ``seat``'s own, ``viewer``'s)
    resolves it with the cards; any other table with None. Nobody else learns a card: the
    platform opens each card to ``viewer`` only (DESIGN 6b)."""

    seat: int
    viewer: int
    count: int
    handed: bool = False


@dataclass(frozen=True, slots=True)
class SearchDeck:
    """Chance: draw pile ``pile`` is searched for the named ``card``; if it is there, that
    card leaves the pile face up into ``seat``'s hand.

    Every table resolves it alike: with ``(card,)`` when it was found, ``()`` when not. The
    order of the rest of the pile stays secret and is not reshuffled: the positions of later
    :class:`Draw` values of the same epoch count only the cards still in the pile."""

    seat: int
    card: str
    pile: int = 0


@dataclass(frozen=True, slots=True)
class HandHolds:
    """Chance: ``seat`` proves that its hand holds a card named in ``cards``, showing none.

    The platform answers it with a proof that every peer checks without learning which card
    of the hand it is (DESIGN 6b; a hand one of whose face-up cards is named needs none); a
    seat that cannot prove it is blamed as for any bad proof. Every table resolves it alike,
    with None, once the proof is checked; a table that sees the hand (the omniscient one, the
    seat's own) refuses to resolve it when the hand holds no such card."""

    seat: int
    cards: tuple[str, ...]


ChanceNode = Deal | Choice
"""The chance every game of cards asks: deals and fair choices."""

CardStep = ShowHand | SearchDeck | HandHolds
"""Chance a game may also ask: a hand shown to one seat, a named card taken from the deck, a
hidden hand proved to hold a card of a set."""


@dataclass(frozen=True, slots=True)
class Draw:
    """Where a pending :class:`Deal` takes its cards from, for a dealer outside the rules.

    Draw pile ``pile`` is re-formed (shuffled afresh) at each ``epoch``; the deal takes
    positions ``start`` to ``start + deal.count - 1`` of that epoch's order, an order from
    which the cards a :class:`SearchDeck` took out are left out.
    """

    deal: Deal
    pile: int
    epoch: int
    start: int
    kept_out: tuple[str, ...] = ()
    """The face-up cards out of every hand that stay out when this epoch forms the pile
    (cards in play on the table), by name; every other card out of the hands goes back in."""

    @property
    def positions(self) -> range:
        """The positions of the epoch's order this deal takes."""
        return range(self.start, self.start + self.deal.count)


@dataclass(frozen=True, slots=True)
class SeatToMove:
    """The game waits for a move from ``seat``."""

    seat: int


Waiting = ChanceNode | CardStep | SeatToMove | None
"""What a game waits for next: chance, a seat's move, or nothing (the game is over)."""


@dataclass(frozen=True, slots=True)
class CardFlow:
    """What a move does to the cards of the mover's hand, for a dealer that tracks each card.

    A mental-poker dealer must know which cards of a hand a move shows (each is revealed)
    and where every card goes; the rules, not the dealer, know that.
    """

    played: tuple[str, ...] = ()
    """Cards that leave the hand face up (to the table)."""
    shown: tuple[str, ...] = ()
    """Cards shown face up that stay in the hand."""
    whole_hand: bool = False
    """The whole hand is shown and leaves it."""
    rest_returned: bool = False
    """Every card of the hand not ``shown`` leaves it face down, unseen."""
    taken: tuple[str, ...] = ()
    """Face-up cards that come from the table into the hand."""
    handed: tuple[Handed, ...] = field(default=(), repr=False)
    """Cards shown face up that go from one seat's hand into another's (a trade); the
    mover may be either seat. (Left out of the repr, which stays that of a one-hand flow.)"""


@dataclass(frozen=True, slots=True)
class Handed:
    """A card shown face up that goes from ``giver``'s hand into ``receiver``'s."""

    giver: int
    receiver: int
    card: str


@dataclass(frozen=True, slots=True)
class HandOutOfGame:
    """What a seat's leaving does to the hidden cards, for a dealer that tracks each card:
    the whole hand of ``seat`` (``count`` cards) leaves the game face down, unseen by anyone,
    and no later draw pile holds those cards."""

    seat: int
    count: int


class OutcomeKind(Enum):
    """How a game ended."""

    VICTORY = "victory"
    """One seat won."""
    SHARED = "shared"
    """Several seats share the victory."""
    DRAW = "draw"
    """Nobody won."""
    FORFEIT = "forfeit"
    """Every other seat left: the one seat still at the table wins by forfeit."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """Who won a finished game, and how, in words (``how`` names no seat: a screen puts
    its own names to ``winners``)."""

    kind: OutcomeKind
    winners: tuple[int, ...]
    how: str


class ToldKind(Enum):
    """What a sentence of a narration tells."""

    MOVE = "move"
    """The move itself."""
    RESULT = "result"
    """A contest the move decided (a battle won or lost); its seat is the winner's (None:
    nobody won it)."""
    CHANGE = "change"
    """Anything else the move changed (a region taken, a marker moved, a new battle)."""
    DETAIL = "detail"
    """The figures behind a result (each seat's strength, step by step)."""


@dataclass(frozen=True, slots=True)
class Told:
    """One sentence of a move's narration; ``seat`` is the seat it is about (None: none)."""

    kind: ToldKind
    text: str
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Sentence:
    """One sentence of a game's narration as the game keeps it, its seats not yet named:
    ``{0}``, ``{1}``, ... in ``text`` stand for the names of seats 0, 1, ...; ``seat`` is the
    seat it is about (None: none).

    >>> Sentence(ToldKind.CHANGE, "{1} takes Milano", 1).told(["ann", "bob"])
    Told(kind=<ToldKind.CHANGE: 'change'>, text='bob takes Milano', seat=1)
    """

    kind: ToldKind
    text: str
    seat: int | None = None

    def told(self, names: Sequence[str]) -> Told:
        """The sentence with each seat called by ``names``."""
        return Told(self.kind, self.text.format(*names), self.seat)


@dataclass(frozen=True, slots=True)
class TableRules:
    """What a table's definition says about the game: which game, which edition,
    how many seats, which house-rule options."""

    game: str
    edition: str
    seats: int
    options: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Edition:
    """One edition of a game (the rules it is played by: Condottiere's ``zman``, ``ffg`` ...),
    as a lobby offers it."""

    name: str
    title: str
    min_seats: int
    max_seats: int
    default_seats: int


@dataclass(frozen=True, slots=True)
class FigureNames:
    """What a game calls its two figures per seat, in a tournament's column headings."""

    results: str
    """The contests a seat won: the narration's :attr:`ToldKind.RESULT` sentences about it
    (Condottiere: ``battles won``)."""
    standings: str
    """What :meth:`GameRules.standings` counts (Condottiere: ``regions held``)."""


class SeatView(Protocol):
    """The part of every game's seat view the platform reads; a game's own view type adds
    its public state and the seat's hand."""

    @property
    def seat(self) -> int: ...

    @property
    def phase(self) -> str:
        """The game's own name for what happens now (e.g. ``battle``)."""
        ...

    @property
    def to_act(self) -> int | None: ...

    @property
    def legal_moves(self) -> tuple[Hashable, ...]: ...


MoveT = TypeVar("MoveT", bound=Hashable)


class GameState(Protocol[MoveT]):
    """A game under way, as one seat, a spectator or an omniscient table knows it."""

    @property
    def players(self) -> int: ...

    @property
    def to_act(self) -> int | None:
        """The seat that must move now; None while chance is pending and once it is over."""
        ...

    @property
    def waiting(self) -> Waiting:
        """What the game waits for next."""
        ...

    @property
    def moves_played(self) -> int:
        """Moves played so far: the same count on every peer."""
        ...

    @property
    def choices_made(self) -> int:
        """Fair choices resolved so far; the next one has this index."""
        ...

    @property
    def outcome(self) -> Outcome | None:
        """Who won and how, once the game is over; None before."""
        ...

    @property
    def decks(self) -> tuple[tuple[str, ...], ...]:
        """Every card of each physical deck, in a fixed order (the dealer's card lists)."""
        ...

    def pending_draws(self) -> tuple[Draw, ...]:
        """Where the pending deal (and the deals queued behind it) take their cards from."""
        ...

    @property
    def departed(self) -> frozenset[int]:
        """The seats that have left the table (:meth:`remove_seat`)."""
        ...

    def hand_size(self, seat: int) -> int: ...

    def hand(self, seat: int) -> tuple[str, ...]:
        """The cards of ``seat``'s hand; ValueError where this table cannot see them."""
        ...

    def legal_moves(self) -> Sequence[MoveT]: ...

    def why_illegal(self, move: MoveT) -> str | None:
        """Why :attr:`to_act` may not play ``move`` now, in a player's words (the reason
        :meth:`play` would give with its :class:`IllegalMoveError`); None when it may. Asks
        nothing of a copy: the rules say it."""
        ...

    def parse_move(self, text: str) -> MoveT:
        """The move ``text`` spells; :class:`InvalidMoveError` if none."""
        ...

    def card_flow(self, move: MoveT) -> CardFlow:
        """What ``move`` does to the mover's hidden cards."""
        ...

    def play(self, move: MoveT, *, reveal: Sequence[str] | None = None) -> None:
        """Play ``move`` for :attr:`to_act`; ``reveal`` names the cards a move shows that
        this table could not see before (a hand shown face up). Raises
        :class:`IllegalMoveError` and changes nothing when the move is not legal."""
        ...

    def resolve(self, outcome: Sequence[str] | int | None) -> None:
        """Resolve the pending chance node: the cards dealt (None: hidden from this table)
        or the seat chosen."""
        ...

    def remove_seat(self, seat: int) -> HandOutOfGame:
        """``seat`` leaves the table for good; the game goes on without it, as the game's rules
        say (Condottiere: its ``RULES.md``, "A seat that leaves"), and once a single seat is
        left that seat wins by forfeit (:attr:`OutcomeKind.FORFEIT`).

        What the platform may rely on: the leave is an event of the record, so it must be
        applied at the same point of the game (between the same two events) on every peer's
        engine, seat view, spectator and omniscient alike; then every engine stays in step,
        :meth:`record` holds the leave and :meth:`GameRules.replay` reproduces it. It is
        allowed whatever the game waits for, chance included (a pending choice or deal may
        change: read :attr:`waiting` and :meth:`pending_draws` again). The value returned
        says which hidden cards left the game, for the dealer. Raises ValueError, changing
        nothing, for a seat that is not at the table or once the game is over."""
        ...

    def copy(self) -> Self: ...

    @property
    def events(self) -> Sequence[RecordEvent]:
        """Every event of the game so far, oldest first (:mod:`condottiere.interface.events`):
        what :meth:`record` stores, as values read by name."""
        ...

    @property
    def narration_length(self) -> int:
        """How many sentences :meth:`narration` holds (where the next one will start)."""
        ...

    def narration(self, start: int = 0) -> Sequence[Sentence]:
        """The game's own narration from its ``start``-th sentence on: each move, what it
        decided and changed, and what the game learnt when chance was resolved (a card found
        in the draw pile, a hand shown to one seat), told as it happened, in the same words
        wherever the game is played (offline, at a table, in a replay). It tells only what
        everyone may know. A game made for a table (:class:`GameRules`) tells; a game built
        for looking ahead may keep no narration (then it is empty)."""
        ...

    def record(self) -> dict[str, Any]:
        """The game as JSON-serialisable data (setup and every event)."""
        ...

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know (this table must know ``seat``'s hand); a spectator's game
        (:meth:`GameRules.for_spectator`) answers with the public state seen from ``seat``'s
        chair, an empty hand and no moves (what a watcher's screen draws). ValueError when
        the game cannot."""
        ...


class GameRules(Protocol):
    """A game, as the registry holds it: everything the platform needs to host it."""

    @property
    def name(self) -> str:
        """The name a table definition's ``game`` field carries."""
        ...

    @property
    def title(self) -> str: ...

    @property
    def editions(self) -> Mapping[str, Edition]: ...

    @property
    def default_edition(self) -> str: ...

    @property
    def options(self) -> Mapping[str, str]:
        """House-rule options, by name, with what each does."""
        ...

    def check(self, table: TableRules) -> None:
        """Nothing if the game can be played so; ValueError saying why not."""
        ...

    def for_seat(self, table: TableRules, seat: int) -> GameState[Any]:
        """The game as ``seat`` knows it: its own hand only."""
        ...

    def for_spectator(self, table: TableRules) -> GameState[Any]:
        """The game as a spectator knows it: no hand."""
        ...

    def omniscient(self, table: TableRules) -> GameState[Any]:
        """The game knowing every card (chance answered by :meth:`GameState.resolve`)."""
        ...

    def offline(self, table: TableRules, seed: int) -> GameState[Any]:
        """An omniscient game whose chance is answered from ``seed`` (demo, tournaments)."""
        ...

    def replay(self, record: Mapping[str, Any]) -> GameState[Any]:
        """The game a record (:meth:`GameState.record`) rebuilds."""
        ...

    def view_message(self, view: SeatView) -> Message:
        """A seat's view as the game's part of the controller's wire ``View``."""
        ...

    def summary(self, table: TableRules) -> tuple[str, ...]:
        """The rules of the table in a few sentences (the client's help)."""
        ...

    def safe_move(self, legal: Sequence[Any]) -> Any:
        """Of ``legal`` (not empty), the move that risks least: what a seat plays for a bot
        that failed to choose."""
        ...

    def hand_words(self, view: SeatView) -> str:
        """The seat's hand in a player's words (a plain-text screen)."""
        ...

    def table_words(self, game: GameState[Any], names: Sequence[str]) -> str:
        """What everyone sees of the table now (the board, the markers, the score), in one
        line of a plain-text screen, each seat called by ``names``."""
        ...

    def standings(self, game: GameState[Any]) -> tuple[int, ...]:
        """Per seat, how far it has come towards victory, in the game's own count (what a
        tournament averages)."""
        ...

    def figure_names(self, edition: str) -> FigureNames:
        """What the tournament's columns call the contests a seat won and its
        :meth:`standings`, in ``edition``."""
        ...

    @property
    def bots(self) -> Mapping[str, str]:
        """The strategies that play this game, by the name a player gives them (``greedy``):
        each the ``module:attribute`` of a class taking ``seed`` (and ``budget``, for one that
        searches), which the bot harness loads when it plays this game."""
        ...

    def plays(self, state: object) -> bool:
        """Whether ``state`` is a game of these rules (how the bot harness finds the game of
        the state it is asked to move in)."""
        ...

    @property
    def move_examples(self) -> tuple[str, ...]:
        """A few moves in the game's notation, to show how moves are written."""
        ...

    def public_state(self, view: SeatView) -> dict[str, Any]:
        """What every seat sees alike in ``view`` (nothing only that seat knows, such as its
        hand), as JSON-serialisable data: at the end of a game, the same on every peer of
        the table."""
        ...

    def screen(self) -> GameScreen:
        """How the client's shell draws the game (:mod:`condottiere.interface.screen`)."""
        ...
