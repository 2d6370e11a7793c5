"""The bookkeeping every card game of the platform shares, as one base class for a game's
state: who is to act and what the game waits for, the moves played and the choices made,
each hand as the cards this engine knows in it and a count of hidden ones, the discard
pile, the seats that left and the winners; the record (:mod:`.events`) and following one;
a move checked and played; why a move is not legal; the game's own narration; copies and
the engines of one seat or of a spectator.

A game subclasses :class:`CardGame` and keeps its rules in its own modules; it fills in the
hooks (the methods that raise :class:`NotImplementedError` here): how its moves are parsed and
listed, why one is not legal, how a checked move is told, and how chance is resolved and
settled; and it declares, per verb, the rule that applies a checked move and whether the
move shows the mover's hand (:func:`verb_rule`), so that a move costs one call of its rule.

The narration is kept as a chain of immutable links, so that a copy of a game shares it and
a new sentence costs one small tuple; a game made with ``narrated=False`` (the default of
the games' own constructors, for bots and benchmarks) keeps none.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from condottiere.interface.events import (
    Chosen,
    Dealt,
    ForcedMove,
    HandProved,
    HandShown,
    MovePlayed,
    RecordEvent,
    SeatLeft,
    event_from_json,
)
from condottiere.interface.game import (
    CardStep,
    ChanceNode,
    IllegalMoveError,
    InvalidMoveError,
    SeatToMove,
    Sentence,
    Waiting,
)

__all__ = [
    "SPECTATOR",
    "CardGame",
    "Rule",
    "Tale",
    "Unbuilt",
    "VerbMove",
    "VerbRule",
    "seat_placeholders",
    "verb_rule",
]

SPECTATOR = -1
"""The observer of an engine that knows no hand (:meth:`CardGame.spectate`)."""


class VerbMove(Hashable, Protocol):
    """What a game's move value offers the base: its verb (a key of
    :attr:`CardGame._verb_rules`)."""

    @property
    def verb(self) -> Hashable: ...


MoveT = TypeVar("MoveT", bound=VerbMove)


Rule = Callable[[Any, int, Any, tuple[str, ...] | None], None]
"""``rule(game, seat, move, revealed)``: the rule that answers a checked ``move`` of ``seat``
(``revealed``: the hand it showed, or None)."""

VerbRule = tuple[Rule, bool]
"""How a game applies the checked moves of one verb (:attr:`CardGame._verb_rules`): its
rule, and whether such a move shows the mover's hand face up (:meth:`CardGame._shown_hand`
names the cards). Built by :func:`verb_rule`."""


def verb_rule(rule: Rule, *, shows_hand: bool = False) -> VerbRule:
    """The :data:`VerbRule` of a verb: a plain tuple, which :meth:`CardGame.play` unpacks
    for every move (a named tuple unpacks several times slower)."""
    return (rule, shows_hand)


Unbuilt = tuple[Any, ...]
"""An event a game writes as a plain tuple of its type and its fields, ``(Dealt, seat,
cards)``, built when the record is read: a named tuple costs several times a plain one to
build and to free, and the events of every move, deal and forced move are written by every
game a bot imagines or a benchmark plays (:attr:`CardGame._events`)."""

Tale = tuple[Sentence, "Tale", int] | None
"""A game's narration: its last sentence, the narration before it, and how many sentences
it holds."""


def seat_placeholders(players: int) -> tuple[str, ...]:
    """The names that leave each seat to be named later in a :class:`Sentence`: ``{0}``,
    ``{1}``, ...

    >>> seat_placeholders(2)
    ('{0}', '{1}')
    """
    return tuple(f"{{{seat}}}" for seat in range(players))


class CardGame(Generic[MoveT]):
    """The shared state and public face of a card game; see the module's docstring.

    A subclass's ``__init__`` calls :meth:`_start_books` before its own state, then starts
    the game."""

    players: int
    observer: int | None
    """The seat whose engine this is; None: the omniscient table; :data:`SPECTATOR`."""
    chance: ChanceNode | CardStep | None
    """The chance node the game waits for, or None."""
    _phase: Any
    """The game's own phase value (equal to its text)."""

    def _start_books(
        self, header: Mapping[str, Any], players: int, observer: int | None, narrated: bool
    ) -> None:
        """The shared state of a game that has not begun: ``header`` is its record's, JSON
        data built for this game alone (kept, not copied)."""
        if observer is not None and observer != SPECTATOR and not 0 <= observer < players:
            raise ValueError(f"seat {observer} is not at a table of {players}")
        self.players = players
        self.observer = observer
        self._header: dict[str, Any] = dict(header)
        self._events: list[RecordEvent | Unbuilt] = []
        """Every move, chance outcome and leave, oldest first, each as an event or as an
        :data:`Unbuilt` one (built when read: :attr:`events`, :meth:`record`)."""
        self._sampled = False
        """A determinised sample (no record: its hidden cards were sampled, not dealt)."""
        self._narrated = narrated
        self._tale: Tale = None
        self._hands: list[Counter[str]] = [Counter() for _ in range(players)]
        """Per seat, the cards this engine knows to be in its hand."""
        self._unknown = [0] * players
        """Per seat, how many more cards its hand holds that this engine does not know."""
        self._sizes = [0] * players
        self._discard: list[str] = []
        self._departed: frozenset[int] = frozenset()
        self._winners: tuple[int, ...] = ()
        self._to_act: int | None = None
        self.chance = None
        self._moves_played = 0
        self._choices_made = 0
        self._legal: Sequence[MoveT] | None = None
        """The legal moves, once listed, until the next move or chance answer."""
        # The two hooks every move reaches, held by the game itself: Python finds an
        # attribute of a game's own several times faster than one of its class.
        self._lister: Callable[[Any], Sequence[MoveT]] = type(self)._list_legal
        self._rules: Mapping[Hashable, VerbRule] = self._verb_rules

    # ------------------------------------------------------------------ the engines of a record

    @classmethod
    def observe(cls, record: Mapping[str, Any], seat: int, *, narrated: bool = False) -> Self:
        """The engine seat ``seat`` runs on the network: it knows only what ``seat`` may know.
        ``record`` is a record (its events are ignored) or a record header; chance is
        answered from outside (:meth:`resolve`)."""
        return cls(record, observer=seat, narrated=narrated)  # type: ignore[call-arg]

    @classmethod
    def spectate(cls, record: Mapping[str, Any], *, narrated: bool = False) -> Self:
        """An engine that knows no hand at all: what anyone may check of a game from outside
        (``condottiere verify`` folds a record through one)."""
        return cls(record, observer=SPECTATOR, narrated=narrated)  # type: ignore[call-arg]

    def follow(self, events: Iterable[RecordEvent | Sequence[Any]], *, chance: bool = True) -> None:
        """Fold in ``events`` of a record that saw more (the open table's), as this engine
        may see them: cards dealt or shown to a seat it does not see become a count, and a
        move the open table played by itself is played here by a seat's engine.
        ``chance=False`` skips the chance events (a game answering chance from its seed)."""
        for raw in events:
            event = event_from_json(raw)
            if isinstance(event, MovePlayed):
                self.play(event.move, reveal=event.revealed)  # type: ignore[arg-type]
            elif isinstance(event, ForcedMove):
                if self.observer is not None:
                    self.play(event.move)
            elif isinstance(event, SeatLeft):
                self.remove_seat(event.seat)
            elif not chance:
                continue
            elif isinstance(event, Chosen):
                self.resolve(event.seat)
            elif isinstance(event, Dealt):
                self.resolve(event.cards if self.knows_hand(event.seat) else None)
            elif isinstance(event, HandShown):
                sees = self.observer is None or self.observer in (event.seat, event.viewer)
                self.resolve(event.cards if sees else None)
            elif isinstance(event, HandProved):
                self.resolve(None)
            else:
                self.resolve((event.card,) if event.found else ())

    def seen_by(self, seat: int) -> Self:
        """The engine ``seat`` would be running now (as on the network): this game's record
        folded through :meth:`observe` and :meth:`follow`. It knows what ``seat`` may know and
        nothing else."""
        view = type(self).observe(self._header, seat)
        view.follow(self.events)
        return view

    # ------------------------------------------------------------------ public state

    @property
    def to_act(self) -> int | None:
        """The seat that must act now; None while chance is pending and when the game is over."""
        return self._to_act

    @property
    def waiting(self) -> Waiting:
        """What the game waits for next: a chance node, a seat's move, or None once over."""
        if self.chance is not None:
            return self.chance
        return None if self._to_act is None else SeatToMove(self._to_act)

    @property
    def moves_played(self) -> int:
        """How many moves have been played: the same count in every seat's engine."""
        return self._moves_played

    @property
    def choices_made(self) -> int:
        """How many fair random choices have been resolved; the next one has this index."""
        return self._choices_made

    @property
    def winners(self) -> tuple[int, ...]:
        return self._winners

    @property
    def departed(self) -> frozenset[int]:
        """The seats that have left the table (:meth:`remove_seat`)."""
        return self._departed

    @property
    def discard_pile(self) -> tuple[str, ...]:
        return self._sort_cards(self._discard)

    def knows_hand(self, seat: int) -> bool:
        """Whether this engine sees every card ``seat`` is dealt."""
        return self.observer is None or self.observer == seat

    def observer_words(self) -> str:
        """Whose engine this is, in words (for error messages)."""
        if self.observer is None:
            return "the open table"
        return "a spectator" if self.observer == SPECTATOR else f"seat {self.observer}"

    def hand(self, seat: int) -> tuple[str, ...]:
        """``seat``'s hand in notation order (a seat's engine knows only its own)."""
        if self._unknown[seat]:
            raise ValueError(f"{self.observer_words()} cannot see seat {seat}'s hand")
        return self._sort_cards(self._hands[seat].elements())

    def hand_size(self, seat: int) -> int:
        return self._sizes[seat]

    def known_cards(self, seat: int) -> tuple[str, ...]:
        """The cards this engine knows to be in ``seat``'s hand, in notation order: all of
        them for a hand it sees; for another seat's, those shown to everyone (or to this
        seat). :meth:`hidden_count` counts the rest."""
        return self._sort_cards(self._hands[seat].elements())

    def hidden_count(self, seat: int) -> int:
        """How many of ``seat``'s cards this engine does not know (0 for a hand it sees)."""
        return self._unknown[seat]

    # ------------------------------------------------------------------ moves

    def legal_moves(self) -> list[MoveT]:
        """The moves :attr:`to_act` may play now (as far as this engine can know them)."""
        legal = self._legal
        if legal is None:
            lister = self._lister
            legal = self._legal = lister(self)
        return list(legal)

    def play(self, move: MoveT | str, *, reveal: Sequence[str] | None = None) -> None:
        """Play ``move`` (or its text) for :attr:`to_act`; ``reveal`` gives the cards of a
        hand a move shows face up that this engine could not see. Raises
        :class:`InvalidMoveError` for what is not a move and :class:`IllegalMoveError` for a
        move not legal now; the state is unchanged after either."""
        seat = self._to_act
        observer = self.observer
        checked: MoveT
        if seat is not None and (observer is None or observer == seat or not self._hidden_checked):
            legal = self._legal
            if legal is None:
                lister = self._lister
                legal = self._legal = lister(self)
            # The moves legal_moves() handed out are these very objects: try identity first
            # (such a move needs no parsing either).
            for checked in legal:
                if checked is move:
                    break
            else:
                checked = self._move_of(move)
                if checked not in legal and not self._also_legal(checked, seat):
                    raise IllegalMoveError(self._reason(checked, seat))
            rule, shows_hand = self._rules[checked.verb]
            revealed = self._shown_hand(checked, seat, reveal) if shows_hand else None
        else:
            checked = self._move_of(move)
            if seat is None:
                raise IllegalMoveError(self._no_move_reason())
            revealed = self._hidden_move(checked, seat, reveal)
            rule = self._rules[checked.verb][0]
        narrated = self._narrated
        before = self._before_move(seat, checked, revealed) if narrated else None
        self._legal = None
        self._moves_played += 1
        self._events.append((MovePlayed, seat, checked, revealed))
        rule(self, seat, checked, revealed)
        if self.chance is not None:
            self._settle()
        if narrated:
            self._after_move(before, seat, checked, revealed)

    def why_illegal(self, move: MoveT | str) -> str | None:
        """Why :attr:`to_act` may not play ``move`` now, in a player's words (what
        :meth:`play` would raise); None when it may. Nothing changes.

        A move that shows a hand this engine cannot see is checked as if shown rightly."""
        try:
            checked = self._move_of(move)
        except InvalidMoveError as exc:
            return str(exc)
        seat = self._to_act
        if seat is None:
            return self._no_move_reason()
        try:
            self._checked(checked, seat, None)
        except IllegalMoveError as exc:
            if self.knows_hand(seat) or checked not in self.legal_moves():
                return str(exc)
        return None

    def _checked(
        self, move: MoveT, seat: int, reveal: Sequence[str] | None
    ) -> tuple[str, ...] | None:
        """The cards ``move`` shows of ``seat``'s hand (None: no hand shown);
        :class:`IllegalMoveError` when it is not legal. A game that lists no
        legal moves for a seat whose hand it does not see checks such a move by
        :meth:`_hidden_move`."""
        if self._hidden_checked and self.observer is not None and self.observer != seat:
            return self._hidden_move(move, seat, reveal)
        legal = self._legal
        if legal is None:
            legal = self._legal = self._list_legal()
        # The moves legal_moves() handed out are these very objects: try identity first.
        for candidate in legal:
            if candidate is move:
                break
        else:
            if move not in legal and not self._also_legal(move, seat):
                raise IllegalMoveError(self._reason(move, seat))
        if self._verb_rules[move.verb][1]:
            return self._shown_hand(move, seat, reveal)
        return None

    _hidden_checked = False
    """Whether a move of a seat whose hand this engine does not see is checked by
    :meth:`_hidden_move` (else against the legal moves, as any other)."""

    def _hidden_move(
        self, move: MoveT, seat: int, reveal: Sequence[str] | None
    ) -> tuple[str, ...] | None:
        """Check a move of a seat whose hand this engine does not see against the cards it
        could hold; the cards it shows of the hand (``reveal``, checked), or None."""
        raise NotImplementedError

    def _also_legal(self, move: MoveT, seat: int) -> bool:
        """Whether ``move``, not in the listed legal moves, is legal all the same (moves too
        many to list, such as offers)."""
        return False

    def _shown_hand(self, move: MoveT, seat: int, reveal: Sequence[str] | None) -> tuple[str, ...]:
        """The cards of ``seat``'s hand that legal ``move``, of a verb that shows a hand
        (:data:`VerbRule`), shows face up, checked against ``reveal`` where this
        engine does not see them."""
        raise NotImplementedError

    # ------------------------------------------------------------------ chance and leavers

    def resolve(self, outcome: Sequence[str] | int | None) -> None:
        """Answer the pending chance node: the cards dealt or shown (None where this engine
        may not see them), the seat chosen, or the card found (``()`` if not)."""
        raise NotImplementedError

    def remove_seat(self, seat: int) -> Any:
        raise NotImplementedError

    # ------------------------------------------------------------------ the record

    @property
    def events(self) -> tuple[RecordEvent, ...]:
        """Every event of the game so far, oldest first."""
        return tuple(map(_typed, self._events))

    def record(self) -> dict[str, Any]:
        """The game as JSON-serialisable data: its header and every event so far.

        A :meth:`determinise` sample has none: its hidden cards were sampled, not dealt."""
        if self._sampled:
            raise ValueError("a determinised sample has no record: its hidden cards were sampled")
        return {**self._header, "events": [event.to_json() for event in self.events]}

    # ------------------------------------------------------------------ narration

    def narration(self, start: int = 0) -> tuple[Sentence, ...]:
        """The game's own narration from its ``start``-th sentence on (none where it is not
        ``narrated``)."""
        tale, count = self._tale, (0 if self._tale is None else self._tale[2]) - start
        sentences = []
        while count > 0 and tale is not None:
            sentences.append(tale[0])
            tale = tale[1]
            count -= 1
        sentences.reverse()
        return tuple(sentences)

    @property
    def narration_length(self) -> int:
        """How many sentences the narration holds (where the next one will start)."""
        return 0 if self._tale is None else self._tale[2]

    @property
    def narrated(self) -> bool:
        """Whether this game keeps its narration."""
        return self._narrated

    def tell(self, sentence: Sentence) -> None:
        """Add ``sentence`` to the narration (nothing where the game is not narrated)."""
        if self._narrated:
            tale = self._tale
            self._tale = (sentence, tale, 1 if tale is None else tale[2] + 1)

    # ------------------------------------------------------------------ copies

    def copy(self) -> Self:
        """An independent copy (for bots that look ahead): the shared state copied here, a
        game's own by :meth:`_copy_into`."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._events = list(self._events)
        other._hands = [_copied(hand) for hand in self._hands]
        other._unknown = list(self._unknown)
        other._sizes = list(self._sizes)
        other._discard = list(self._discard)
        other._legal = None
        self._copy_into(other)
        return other

    def _copy_into(self, other: Self) -> None:
        """Copy this game's own mutable state into ``other``, a shallow copy of it."""

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} players={self.players} phase={self._phase} "
            f"to_act={self._to_act} events={len(self._events)}>"
        )

    # ------------------------------------------------------------------ the game's part

    _sort_cards: Callable[[Iterable[str]], tuple[str, ...]]
    """The game's notation order of cards (a static function of the subclass)."""

    _verb_rules: ClassVar[Mapping[Hashable, VerbRule]]
    """Per verb of the game's moves, how a checked move of it is applied (:data:`VerbRule`):
    :meth:`play` calls the rule itself, with no hook between."""

    def _move_of(self, move: MoveT | str) -> MoveT:
        """The move ``move`` is (its text parsed); :class:`InvalidMoveError` if none."""
        raise NotImplementedError

    def _list_legal(self) -> Sequence[MoveT]:
        raise NotImplementedError

    def _reason(self, move: MoveT, seat: int) -> str:
        """Why ``move``, not among the legal moves, is not legal for ``seat`` now."""
        raise NotImplementedError

    def _no_move_reason(self) -> str:
        """Why no seat may move now (the game is over, or waits for chance)."""
        raise NotImplementedError

    def _settle(self) -> None:
        """Answer pending chance from the game's own seed, where it has one."""
        raise NotImplementedError

    def _before_move(self, seat: int, move: MoveT, revealed: tuple[str, ...] | None) -> Any:
        """What the narration of ``move`` needs of the game before it (a narrated game)."""
        return None

    def _after_move(
        self, before: Any, seat: int, move: MoveT, revealed: tuple[str, ...] | None
    ) -> None:
        """Tell ``move`` (played on the game ``before`` describes) and what it changed."""


def _typed(event: RecordEvent | Unbuilt) -> RecordEvent:
    """The event ``event`` of :attr:`CardGame._events` stands for."""
    if isinstance(event, RecordEvent):
        return event
    built: RecordEvent = tuple.__new__(event[0], event[1:])
    return built


def _copied(counter: Counter[str]) -> Counter[str]:
    """A copy of ``counter``, without the cost of ``Counter.__init__`` (several times faster)."""
    copy: Counter[str] = Counter.__new__(Counter)
    dict.update(copy, counter)
    return copy
