"""What every step rule shares: the step kinds, a step, a verdict on an entry, what comes after
a step, and the rule's shape (:class:`StepRule`).

A step rule holds everything about one kind of step: its words and waiting text, its deadline
and progress, how this seat makes its entry, how an entry is checked (a :data:`Verdict`
value), and what comes once the step is complete (:data:`Next`). Each sub-protocol's rules
live in one module of :mod:`condottiere.peer.steps` and see the table through a narrow
context (a :class:`typing.Protocol` of that module), so each can be tested alone.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, NewType, Protocol

from google.protobuf.message import Message

from condottiere.interface import Draw, HandHolds, SearchDeck, ShowHand
from condottiere.peer.coin import Flip
from condottiere.peer.entries import LogEntry, Reason, Rejection
from condottiere.peer.keeper import Keeper
from condottiere.peer.lobby import Deadlines
from condottiere.peer.silence import Departure

MAX_CHAT = 500
"""The longest chat line, or reason to leave, a table keeps."""


@dataclass(frozen=True)
class Refusal:
    """An entry refused; the table went on without it."""

    reason: Reason
    detail: str
    author: bytes | None = field(repr=False)
    seat: int | None
    evidence: tuple[bytes, ...] = field(repr=False)


@dataclass(frozen=True)
class Halt:
    """Why the table stopped for good: a proven cheat (``reason`` set), a seat that left where
    the game cannot go on without it (``departure`` set: the table is abandoned), or this
    peer's own seat that can go no further (its store lost its secrets, or it was put out)."""

    detail: str
    author: bytes | None = field(repr=False)
    seat: int | None
    reason: Reason | None = None
    evidence: tuple[bytes, ...] = field(default=(), repr=False)
    departure: Departure | None = None

    @property
    def cheat(self) -> bool:
        return self.reason is not None

    @property
    def abandoned(self) -> bool:
        return self.departure is not None


@dataclass(frozen=True)
class TableEvent:
    """Something that happened at the table, in players' words."""

    kind: str
    """``join ask seated ready freed shuffle deal coin move result change chat leave
    refused halt over audit`` (``ask``: a joiner the creator's owner must admit or refuse;
    ``freed``: a seat not ready in time, freed for another joiner); ``move``,
    ``result`` and ``change`` are the game's own narration, of its moves and of what it
    learnt from chance (:class:`~condottiere.interface.ToldKind`)."""
    text: str
    seat: int | None = None


class Work(StrEnum):
    """The costly crypto work of a table, reported to ``Table.on_work`` (benchmarks)."""

    MAKE_SHUFFLE = "make_shuffle"
    VERIFY_SHUFFLE = "verify_shuffle"
    MAKE_SHARES = "make_shares"
    CHECK_SHARES = "check_shares"
    MAKE_BLINDING = "make_blinding"
    CHECK_BLINDING = "check_blinding"
    MAKE_OPENING = "make_opening"
    CHECK_OPENING = "check_opening"


StepKind = NewType("StepKind", str)
"""What a step waits for: its value is the kind of entry that answers it (the body's field
name in ``log.proto``). Each rule module declares the kinds of its rules as constants
(``MOVE = StepKind("move")`` in :mod:`~condottiere.peer.steps.moves`); the kinds there are,
are the kinds of the rules registered (:data:`RULES`)."""


@dataclass
class Step:
    """What the table waits for now."""

    number: int
    kind: StepKind
    authors: tuple[bytes, ...]
    answers: dict[bytes, LogEntry] = field(default_factory=dict)
    deck: int = 0
    draws: tuple[Draw, ...] = ()
    flip: Flip | None = None
    leaver: int | None = None
    """The seat a stand-in or re-key step stands in for."""
    complaints: tuple[tuple[int, int, int], ...] = ()
    """(complainer, dealer, deck) of every complaint a step of answers waits for."""
    search: SearchDeck | None = None
    """The search of a draw pile the steps of a search are for."""
    shown: ShowHand | None = None
    """The hand a hand_shown step shows, and to whom."""
    holds: HandHolds | None = None
    """The hand a hand_proof step proves to hold a card of a set, and the set."""

    @property
    def missing(self) -> tuple[bytes, ...]:
        return tuple(author for author in self.authors if author not in self.answers)

    def then(self, kind: StepKind, authors: Sequence[bytes], **data: Any) -> Step:
        """The step that follows this one."""
        return Step(self.number + 1, kind, tuple(authors), **data)


@dataclass(frozen=True)
class Accept:
    """The entry answers the step: it is taken (and applied, for a step of one author)."""


@dataclass(frozen=True)
class Refuse:
    """The entry is refused, for a typed reason (the rejection names whom it blames)."""

    rejection: Rejection


@dataclass(frozen=True)
class NotYet:
    """The entry cannot be judged before other entries come: it is asked again later."""


ACCEPT = Accept()
NOT_YET = NotYet()
Verdict = Accept | Refuse | NotYet
"""A rule's judgement of one entry."""


class After(enum.Enum):
    """What follows a complete step, when it is not a step the rule names itself."""

    GAME = "game"
    """Ask the scheduler for the game's next step (the game is made first, if it is not)."""
    END = "end"
    """Nothing more: the table waits for nothing (the audit is through)."""
    STOPPED = "stopped"
    """The table halted while the step was completed: it goes no further."""


Next = Step | After
"""What comes after a complete step."""


class RuleContext(Protocol):
    """What every rule sees of the table (each module's context adds its own)."""

    me: bytes
    keeper: Keeper
    halt: Halt | None
    out: dict[int, Departure]

    @property
    def _quiet(self) -> bool: ...

    @property
    def seat(self) -> int | None: ...

    @property
    def seating(self) -> tuple[bytes, ...]: ...

    def who(self, author: bytes | None) -> str: ...

    def _seat_authors(self, seats: Sequence[int]) -> tuple[bytes, ...]: ...

    def seat_of(self, author: bytes | None) -> int | None: ...

    def _say(self, kind: str, text: str, seat: int | None = None) -> None: ...

    def _tell_game(self) -> None:
        """Say what the game told since it last did (its own narration)."""
        ...


class StepRule:
    """Everything about one kind of step. Subclasses set :attr:`kind` and :attr:`words` and
    override what differs from the defaults: a step nobody but the table's own seat's
    automatic work answers, checked by kind alone, complete once every author answered."""

    kind: ClassVar[StepKind]
    words: ClassVar[str]
    """The step in a sentence: ``silent at a move``."""
    doing: ClassVar[str]
    """What the table does meanwhile, as a headline: ``Shuffling the deck``."""
    about: ClassVar[str] = ""
    """Why the step is there, for a player who wonders: ``only each card's owner can read
    it``."""
    stage: ClassVar[str | None] = None
    """The stage of the table during the step (see ``Snapshot.stage``): ``lobby`` or
    ``dealing``; None for the stage the game is at (``dealing`` before it is made,
    ``playing`` once it is)."""
    costly: ClassVar[bool] = False
    """Whether this seat's entry is its costliest work (put off by ``Table.defer_costly``)."""
    entry_kind: ClassVar[str | None] = None
    """The kind of entry that answers the step (a body of ``log.proto``'s ``Entry``); None:
    the step kind's own value, as for every rule of the platform."""
    def awaited(self, step: Step) -> str:
        """The kind of entry that answers ``step`` (:attr:`entry_kind`)."""
        return self.entry_kind or step.kind

    answers: ClassVar[tuple[type[Any], ...]] = ()
    """The types of the game's waiting values (``GameState.waiting``: ``SeatToMove``,
    ``Deal``, ...) this rule starts the table's steps for (see :meth:`start`); at most one
    rule answers each type."""

    def start(self, t: Any, step: Step, waiting: Any) -> Step | None:
        """The step that follows ``step`` where the game waits for ``waiting`` (of a type in
        :attr:`answers`); None when the rule resolved it without one (the game is asked what
        it waits for again)."""
        raise NotImplementedError

    def waiting_text(self, t: Any, step: Step, names: str) -> str:
        """What the table waits for, in a sentence (``names``: the authors it waits for)."""
        raise NotImplementedError

    def deadline(self, t: Any, step: Step, deadlines: Deadlines) -> int | None:
        """Seconds the step gives the seats it waits for; None when none can be put out."""
        return deadlines.step

    def progress(self, t: Any, step: Step) -> tuple[int, int] | None:
        """Done and total of the work the step is part of; None when it tells none."""
        return None

    def make(self, t: Any, step: Step) -> Message | None:
        """The body of this seat's entry for ``step`` when it needs no decision; None when
        this seat has none to make now."""
        return None

    def judge(self, t: Any, step: Step, author: bytes, entry: LogEntry) -> Verdict:
        """Check (and apply, for one-author steps) ``author``'s answer to ``step``; may raise
        :class:`Rejection` (then it is refused)."""
        return ACCEPT

    def check(self, t: Any, step: Step, author: bytes, entry: LogEntry) -> Verdict:
        """The verdict on ``author``'s entry for ``step``."""
        try:
            return self.judge(t, step, author, entry)
        except Rejection as rejection:
            return Refuse(rejection)

    def complete(self, t: Any, step: Step) -> Next | None:
        """What comes after ``step`` once every answer it needs is in; None before."""
        if step.missing:
            return None
        return self.finish(t, step)

    def finish(self, t: Any, step: Step) -> Next:
        """Apply the complete step; what comes next."""
        return After.GAME


RULES: dict[StepKind, StepRule] = {}
"""The rule of every step kind (each rule module registers its own)."""
_ANSWERING: dict[type[Any], StepRule] = {}
"""The rule that starts the steps for each type of the game's waiting values."""


class RuleConflict(ValueError):
    """Two rules claim one step kind, or one type of the game's waiting values."""


def register(*rules: StepRule) -> None:
    """Make ``rules`` the rules of their kinds, and of the waiting values they answer;
    :class:`RuleConflict` if another rule has either already."""
    for rule in rules:
        held = RULES.get(rule.kind)
        if held is not None and type(held) is not type(rule):
            raise RuleConflict(f"step kind {rule.kind!r} has a rule already: {held!r}")
        for answered in rule.answers:
            holder = _ANSWERING.get(answered)
            if holder is not None and type(holder) is not type(rule):
                raise RuleConflict(f"{answered.__name__} is answered already by {holder!r}")
    for rule in rules:
        RULES[rule.kind] = rule
        _ANSWERING.update(dict.fromkeys(rule.answers, rule))


def rule_of(kind: StepKind) -> StepRule:
    """The rule of ``kind``."""
    return RULES[kind]


def rule_answering(waiting: object) -> StepRule:
    """The rule that starts the steps for the game's waiting value ``waiting`` (by its type,
    or the nearest base type a rule answers); LookupError if no rule does."""
    for kind in type(waiting).__mro__:
        rule = _ANSWERING.get(kind)
        if rule is not None:
            return rule
    raise LookupError(f"no step rule answers a game waiting for {type(waiting).__name__}")
