"""What the screen shows of a table, apart from how it is drawn and which keys do what.

A :class:`TableModel` is fed what the seat's :class:`~condottiere.peer.controller.Controller`
publishes (the snapshot, a copy of the seat's own game, the table's events, the state of the
links to the other peers) and answers the questions the screen asks: what happens now and
since when, the seats, the choices and what each would do, the log, the end of the game. It
also holds the screen's own state (the choice under the cursor, the row being explained, the
help page, the last message).

It knows no game: the game's part of the screen is its
:class:`~condottiere.interface.screen.GameScreen`, found by the table's game name in the
registry, and drawn from the :class:`~condottiere.interface.screen.Scene` this model gives it.

Everything a peer sent (names, chat) is shown as printable text only; nothing the network
sends can make a question here fail: a table that is not there yet, a seat that never
joined, a halt in the middle of a deal all have an answer.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from condottiere.interface import (
    GameState,
    OutcomeKind,
    SeatView,
    TableRules,
    game_named,
)
from condottiere.interface.screen import Choices, GameScreen, Scene, Seats, SeatShown
from condottiere.peer.controller import Snapshot, starved
from condottiere.peer.driver import TableEvent
from condottiere.peer.readers import REFUSED_A_SEAT
from condottiere.peer.steps import rule_of
from condottiere.peer.steps.moves import MOVE
from condottiere.peer.steps.seating import READY, SEATING

__all__ = [
    "Answer",
    "Banner",
    "Ending",
    "Lobby",
    "LobbyRow",
    "LogLine",
    "Message",
    "Presence",
    "TableModel",
    "Tone",
    "capital",
    "distinct_names",
    "printable",
    "seat_marks",
]


def capital(text: str) -> str:
    """``text`` with its first letter in capitals (and the rest as it was)."""
    return text[:1].upper() + text[1:]


def printable(text: str) -> str:
    """``text`` with anything a terminal could take as a command (escapes, control
    characters, line breaks) replaced by ``?``."""
    return "".join(char if char.isprintable() else "?" for char in text)


def distinct_names(names: Sequence[str]) -> list[str]:
    """``names`` (seat by seat) with a name two seats share told apart by a number, so that
    every seat has a name of its own.

    >>> distinct_names(["bot", "ada", "bot", "bot"])
    ['bot', 'ada', 'bot 2', 'bot 3']
    """
    seen: dict[str, int] = {}
    told: list[str] = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        told.append(name if seen[name] == 1 else f"{name} {seen[name]}")
    return told


def seat_marks(names: Sequence[str]) -> list[str]:
    """A distinct letter for each seat, seat by seat: the first letter of its name that no
    earlier seat took, else the first letter of the alphabet left (digits only past 26
    seats).

    >>> seat_marks(["bea", "botty", "ada", "Bob"])
    ['B', 'O', 'A', 'C']
    >>> seat_marks(["42", "bb"])
    ['A', 'B']
    """
    taken: list[str] = []
    spare = [chr(code) for code in range(ord("A"), ord("Z") + 1)]
    for name in names:
        letters = [char.upper() for char in name if "A" <= char.upper() <= "Z"]
        free = [letter for letter in (*letters, *spare) if letter not in taken]
        taken.append(free[0] if free else str(len(taken) % 10))
    return taken


class Tone(Enum):
    """How urgent the banner is."""

    TURN = "turn"
    """This seat must decide."""
    WAIT = "wait"
    """The table waits for someone else, or for the protocol."""
    ALERT = "alert"
    """The table stopped: a cheat caught, a seat that left."""
    OVER = "over"
    """The game is over (and being checked, then recorded)."""


@dataclass(frozen=True)
class Banner:
    """What happens now, in one headline and one line of detail."""

    headline: str
    detail: str
    tone: Tone
    since: float | None = None
    """``time.monotonic()`` when the table began waiting for what the headline says."""
    progress: tuple[int, int] | None = None
    """Done and total of a shuffle chain or a deal."""
    deadline: int | None = None
    """Seconds from :attr:`since` the seats waited for have, after which the others state
    them silent and may put them out (the table definition's deadline)."""


@dataclass(frozen=True)
class LogLine:
    kind: str
    """The table event's kind (``move result change chat refused halt ...``), or ``note``
    for this client's own lines."""
    text: str
    seat: int | None


@dataclass(frozen=True)
class Message:
    """The answer to the last thing typed (a refusal, an unknown command)."""

    text: str
    error: bool
    move: bool = False
    """A move the rules refused: it goes once the table moves on to another step."""


@dataclass(frozen=True)
class Ending:
    """The end of the game: who won and how, or why the table stopped; and the record."""

    title: str
    lines: tuple[str, ...]
    record: str | None
    """The record file, once written."""
    record_hash: str


class Presence(Enum):
    """Where a player stands in the lobby."""

    JOINED = "joined"
    """At the table, which waits for its other seats to fill."""
    NOT_READY = "not ready"
    """Seated; the table waits for this seat to say it is ready."""
    READY = "ready"
    """Seated and ready."""
    ASKING = "asks for a seat"
    """A joiner this player (the table's creator) is to admit or refuse."""
    WAITING = "waits for the host"
    """A joiner not seated yet, on a joiner's screen: the host has not let them in (whom the
    host admits or refuses is known only at its peer)."""
    LET_IN = "waiting to be let in"
    """This player, a joiner the host has not seated yet."""
    REFUSED = "refused by the host"
    """This player, a joiner the table's creator refused."""


@dataclass(frozen=True)
class LobbyRow:
    """One player at a table that is filling: a seat (once the table is seated), a name,
    the key's fingerprint (for people to compare aloud), and where they stand."""

    seat: int | None
    name: str
    fingerprint: str
    presence: Presence
    you: bool


@dataclass(frozen=True)
class Lobby:
    """A table that is filling, as its screen shows it."""

    title: str
    """The table's name, its game and seats."""
    rules: str
    """The edition and the house rules."""
    rows: tuple[LobbyRow, ...]
    free: int
    """Seats nobody has joined (or been admitted) for yet."""
    join: tuple[tuple[str, str], ...]
    """How others join, and the command: by the table's name (when it is advertised on the
    LAN), by this peer's address."""
    freed: tuple[str, ...] = ()
    """Each seat freed for another player (not ready in time, or left before the start), and
    why."""

    @property
    def asking(self) -> tuple[LobbyRow, ...]:
        """The joiners waiting for this player to admit or refuse them, in the order they
        came."""
        return tuple(row for row in self.rows if row.presence is Presence.ASKING)


class Answer(Enum):
    """What the table's creator says to a joiner who asks for a seat."""

    ADMIT = "admit"
    REFUSE = "refuse"

    def line(self, row: LobbyRow) -> str:
        """The command that says it to ``row``'s joiner (named by the fingerprint, which two
        joiners never share).

        >>> Answer.REFUSE.line(LobbyRow(None, "bob", "aaaa-bbbb", Presence.ASKING, False))
        'refuse aaaa-bbbb'
        """
        return f"{self.value} {row.fingerprint}"


FORCED_WAIT = (
    "It is sent after about as long as you take to choose, so that its timing tells nobody"
    " it was forced"
)
"""Why this seat's forced move waits (:mod:`condottiere.peer.pacing`)."""
NUMBER_KEYS = 9
"""The number keys, 1 to 9."""
SEAT_NAMED = re.compile(r"\bseat (\d+)(?: \([^)]*\))?")
"""A seat named by its number in the rules' or the table's words (and its player's name)."""
LEAVE_UNSEATED = "Ctrl-C leaves (the table goes on without you)"
OTHERS_PLAY_ON = "The others play on without you."
OUT_CAN_ONLY = (
    "This peer follows the table no further: press q to leave (the record of the game so far"
    " is kept)."
)


class TableModel:
    """The client's state: the table as last published, and the screen's own choices."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.snapshot: Snapshot | None = None
        self.game: GameState[Any] | None = None
        self.events: Sequence[TableEvent] = ()
        self.links: Mapping[str, str | None] = {}
        self.notes: list[tuple[int | None, str]] = []
        """This client's own log lines, each after the first ``n`` table events (None: after
        the events of the first update, for a note written before it)."""
        self.line = ""
        """The command line's text; when it is one of the :meth:`choices`, that choice is
        under the cursor."""
        self.why: int | None = None
        """The seat whose row is being explained."""
        self.help = False
        self.scroll = 0
        """Lines scrolled back from the end of the log (or down from the top of the help)."""
        self.message: Message | None = None
        self.record: str | None = None
        self.on_lan = False
        """The table is advertised on the LAN: others may join it by its name."""
        self.address = ""
        """This peer's address (``HOST:PORT``): others may join the table through it."""
        self.fingerprint = ""
        """This peer's key's fingerprint (which row of the lobby is this player's)."""
        self.hint: str | None = None
        """The keys to show in place of the game's, when this is no seat's screen (a
        replay)."""
        self._seats: tuple[object, Seats] = (None, Seats())
        self._keys: tuple[str, tuple[str, ...]] = ("", ())
        """The headline and the number keys' choices of this seat's last turn
        (:meth:`_keep_keys`)."""
        self._watched: tuple[object, SeatView | None] = (None, None)
        """A spectator's game as last fed, and its public view."""
        """The seats as last worked out, and the snapshot and links they come from."""

    # ------------------------------------------------------------------ input

    def update(
        self,
        snapshot: Snapshot,
        game: GameState[Any] | None,
        events: Sequence[TableEvent],
        links: Mapping[str, str | None],
    ) -> None:
        """Take in what the controller published."""
        self.snapshot, self.game, self.events, self.links = snapshot, game, events, links
        self.notes = [(len(events) if at is None else at, text) for at, text in self.notes]
        if self.why is not None and not 0 <= self.why < snapshot.seats:
            self.why = None

    def note(self, text: str) -> None:
        """Add a line of this client's own to the log (after the table's events so far)."""
        self.notes.append((len(self.events) if self.snapshot is not None else None, text))

    # ------------------------------------------------------------------ the game's screen

    @property
    def watching(self) -> bool:
        """This client follows the table without a seat (a spectator)."""
        snapshot = self.snapshot
        return snapshot is not None and snapshot.seat is None and snapshot.stage != "lobby"

    @property
    def view(self) -> SeatView | None:
        """This seat's view, of the game's own type; None before the game begins. A
        spectator's is the public state seen from seat 0's chair, with no hand (see
        :meth:`GameState.view`)."""
        if self.snapshot is None:
            return None
        if self.snapshot.view is not None or not self.watching or self.game is None:
            return self.snapshot.view
        game = self.game
        if self._watched[0] is not game:
            try:
                self._watched = (game, game.view(0))
            except ValueError:  # a game whose spectators cannot see its board
                self._watched = (game, None)
        return self._watched[1]

    @property
    def my_turn(self) -> bool:
        """This seat must choose a move now."""
        return self.snapshot is not None and self.snapshot.my_turn

    def screen(self) -> GameScreen | None:
        """The screen of the table's game; None before the table is known."""
        return None if self.snapshot is None else game_named(self.snapshot.game).screen()

    def scene(self) -> Scene | None:
        """What the game's screen draws from; None before the game begins (and for a player
        who was not seated)."""
        view = self.view
        if view is None:
            return None
        choices = self.choices()
        chosen = self.line if self.line in choices.moves else None
        return Scene(view, self.game, self.seats(), self.my_turn, choices, chosen)

    def verbs(self) -> tuple[str, ...]:
        """The words a move starts with (none before the table's game is known)."""
        screen = self.screen()
        return () if screen is None else screen.verbs

    # ------------------------------------------------------------------ seats

    def seats(self) -> Seats:
        """Every seated player, by seat."""
        key = (self.snapshot, tuple(sorted(self.links.items())))
        if self._seats[0] != key:
            self._seats = (key, self._seated())
        return self._seats[1]

    def _seated(self) -> Seats:
        snapshot = self.snapshot
        if snapshot is None:
            return Seats()
        seated = sorted(
            ((p.seat, p) for p in snapshot.players if p.seat is not None), key=lambda sp: sp[0]
        )
        names = distinct_names([printable(player.name) or "?" for _, player in seated])
        marks = seat_marks(names)
        shown = []
        for (seat, player), name, mark in zip(seated, names, marks, strict=True):
            you = seat == snapshot.seat
            link = None if you or snapshot.stage == "over" else self.links.get(player.address)
            shown.append(SeatShown(seat, name, mark, you, link))
        return Seats(tuple(shown))

    def seat(self, number: int | None) -> SeatShown | None:
        """Seat ``number`` as the screen shows it; None when nobody sits there."""
        return self.seats().get(number)

    def who(self, number: int | None) -> str:
        """A seat as a sentence names it: ``you``, or its player's name."""
        return self.seats().who(number)

    def in_words(self, text: str) -> str:
        """``text`` (a refusal's reason, in the rules' words) with each seat it names by
        number (``seat 0``, ``seat 0 (ada)``) named as the screen names it (``you``).

        >>> TableModel().in_words("seat 0 must play a card or pass")
        'seat 0 must play a card or pass'
        """
        seats = self.seats()
        return SEAT_NAMED.sub(lambda found: seats.who(int(found.group(1))), text)

    # ------------------------------------------------------------------ the lobby

    def lobby(self) -> Lobby | None:
        """The table while it fills: who is at it and how to join it; None before the table
        is known, and once the game begins."""
        snapshot = self.snapshot
        if snapshot is None or snapshot.view is not None or snapshot.stage not in (
                "lobby", "dealing"):
            return None
        rules = game_named(snapshot.game)
        offered = rules.editions.get(snapshot.edition)
        edition = f"{offered.title} ({snapshot.edition})" if offered else snapshot.edition
        options = ", ".join(snapshot.options) or "none"
        title = f"Table {printable(snapshot.table_name)!r} · {rules.title} · {snapshot.seats} seats"
        told = f"Edition {edition} · house rules: {options}"
        waiting = snapshot.waiting
        ready = waiting is not None and waiting.kind == READY
        not_ready = set(waiting.seats) if waiting is not None and ready else set()
        names = distinct_names([printable(player.name) or "?" for player in snapshot.players])
        rows = []
        joining = self.joining
        for index, (player, name) in enumerate(zip(snapshot.players, names, strict=True)):
            you = bool(self.fingerprint) and player.fingerprint == self.fingerprint
            if player.asking:
                presence = Presence.ASKING
            elif player.seat is None and joining and index > 0:  # the creator is the first
                presence = Presence.WAITING
                if you:
                    presence = Presence.REFUSED if self.refused_seat else Presence.LET_IN
            elif player.seat is None:
                presence = Presence.JOINED
            else:
                presence = Presence.NOT_READY if player.seat in not_ready else Presence.READY
            rows.append(LobbyRow(player.seat, name, printable(player.fingerprint), presence, you))
        join = []
        if self.on_lan:
            join.append(("by name", f"condottiere play --join {printable(snapshot.table_name)}"))
        if self.address:
            join.append(("by address", f"condottiere play --join {self.address}"))
        free = max(0, snapshot.seats - self._here(snapshot))
        freed = tuple(printable(words) for words in snapshot.freed)
        return Lobby(title, told, tuple(rows), free, tuple(join), freed)

    @property
    def joining(self) -> bool:
        """This player asked for a seat at another's table and is not seated yet (the
        table's creator, who admits or refuses joiners, is the first player listed)."""
        snapshot = self.snapshot
        return (
            snapshot is not None and snapshot.seat is None and bool(self.fingerprint)
            and bool(snapshot.players) and snapshot.players[0].fingerprint != self.fingerprint
            and any(player.fingerprint == self.fingerprint for player in snapshot.players)
        )

    @property
    def refused_seat(self) -> bool:
        """The table's creator refused this player a seat (its peer said so)."""
        return self.joining and any(why == REFUSED_A_SEAT for why in self.links.values())

    def _here(self, snapshot: Snapshot) -> int:
        """The players at the table: all but those who ask this player for a seat; on a
        joiner's screen, the creator and the seated (the others wait to be let in)."""
        if self.joining:
            return max(1, sum(1 for player in snapshot.players if player.seat is not None))
        return sum(1 for player in snapshot.players if not player.asking)

    def asking(self) -> tuple[LobbyRow, ...]:
        """The joiners waiting for this player (the table's creator) to admit or refuse
        them; none elsewhere."""
        lobby = self.lobby()
        return () if lobby is None else lobby.asking

    def answers(self) -> tuple[str, ...]:
        """Every line the keys may put on the command line for the joiners who ask: admit,
        then refuse, of each."""
        return tuple(answer.line(row) for row in self.asking() for answer in Answer)

    def answering(self) -> tuple[Answer, LobbyRow] | None:
        """The answer on the command line and the joiner it is for, if the line holds one
        the keys put there."""
        for row in self.asking():
            for answer in Answer:
                if self.line == answer.line(row):
                    return answer, row
        return None

    def step_asking(self, delta: int) -> str | None:
        """Put the answer to the joiner ``delta`` rows on from the one on the command line
        (the first or last when it holds none) on the line, keeping the answer (admit at
        first); its text, or None when nobody asks."""
        rows = self.asking()
        if not rows:
            return None
        held = self.answering()
        if held is None:
            answer, index = Answer.ADMIT, 0 if delta > 0 else -1
        else:
            answer, index = held[0], rows.index(held[1]) + delta
        self.line = answer.line(rows[index % len(rows)])
        return self.line

    def other_answer(self) -> str | None:
        """Turn the answer on the command line into the other one (admit, refuse) to the
        same joiner; its text, or None when the line holds no answer."""
        held = self.answering()
        if held is None:
            return None
        answer = Answer.REFUSE if held[0] is Answer.ADMIT else Answer.ADMIT
        self.line = answer.line(held[1])
        return self.line

    def joiner(self, who: str) -> LobbyRow | None:
        """The one joiner who asks that ``who`` names (its name, whatever the case, or its
        key's fingerprint); None when none or several do."""
        wanted = who.strip().casefold()
        named = [row for row in self.asking()
                 if wanted in (row.name.casefold(), row.fingerprint)]
        return named[0] if len(named) == 1 else None

    @property
    def put_out(self) -> bool:
        """This player's own seat is out of the game (the others put it out, or its peer can
        play it no further), while the others play on."""
        snapshot = self.snapshot
        if snapshot is None or snapshot.halt is None or snapshot.seat is None:
            return False
        halt = snapshot.halt
        abandoned = halt.detail.startswith("abandoned")  # the others cannot go on either
        return not halt.cheat and not abandoned and halt.seat == snapshot.seat

    # ------------------------------------------------------------------ now

    def banner(self) -> Banner:
        """What happens now: whose turn and what they must decide, or what the table waits
        for, since when and until when."""
        banner = self._banner()
        waiting = None if self.snapshot is None else self.snapshot.waiting
        if waiting is not None and banner.since is not None and waiting.deadline is not None:
            return replace(banner, deadline=waiting.deadline)
        return banner

    def _banner(self) -> Banner:
        snapshot = self.snapshot
        if snapshot is None:
            return Banner("Connecting to the table...", "", Tone.WAIT)
        if snapshot.halt is not None:
            halt = snapshot.halt
            if self.put_out:
                return Banner(f"You are out of the game: {printable(halt.detail)}",
                              f"{OTHERS_PLAY_ON} {OUT_CAN_ONLY}", Tone.ALERT)
            detail = (
                "A cheat caught by the peer layer: the signed evidence is in the record."
                if halt.cheat
                else "The game cannot go on without that seat; the record is kept."
            )
            return Banner(f"The table has stopped: {printable(halt.detail)}", detail, Tone.ALERT)
        if snapshot.stage == "over" or snapshot.outcome is not None:
            return self._over_banner()
        waiting = snapshot.waiting
        if waiting is None:
            return Banner("Waiting for the table...", "", Tone.WAIT)
        names = self.seats().listed(waiting.seats)
        since = waiting.since
        cut_off = starved(snapshot, self.links)
        others = set(waiting.seats) - {snapshot.seat}
        asks_people = waiting.kind in (SEATING, MOVE)
        if cut_off and not asks_people and set(cut_off) >= others:
            why = "; ".join(sorted(set(cut_off.values())))
            return Banner(
                f"Waiting on the link to {names}: this peer cannot reach them",
                f"{printable(why)}; they may have answered already", Tone.WAIT, since,
            )
        if waiting.kind == SEATING:
            asking = sum(1 for player in snapshot.players if player.asking)
            here = f"{self._here(snapshot)} of {snapshot.seats} here"
            if self.refused_seat:
                return Banner(
                    "The host refused you a seat at this table",
                    f"You will not be seated here: {LEAVE_UNSEATED}", Tone.ALERT,
                )
            if self.joining:
                return Banner(
                    f"Waiting for the host to let you in ({here})",
                    "Read your key's fingerprint aloud: the host's screen must show the same",
                    Tone.WAIT, since,
                )
            detail = (
                "Compare each key's fingerprint aloud with the one its player's screen shows"
            )
            if asking:
                who = "1 player asks" if asking == 1 else f"{asking} players ask"
                return Banner(
                    f"{who} for a seat ({here}): admit or refuse them",
                    "Compare the fingerprint aloud; 'admit NAME' or 'refuse NAME', or ↑↓ ←→ Enter",
                    Tone.TURN, since,
                )
            return Banner(f"Waiting for players to join: {here}", detail, Tone.WAIT, since)
        if waiting.kind == READY:
            ready = snapshot.deadlines.ready
            return Banner(
                f"Waiting for {names} to be ready",
                f"A seat not ready within {ready} s is freed for the next player who asks",
                Tone.WAIT, since,
            )
        if waiting.kind is None or waiting.kind == MOVE:
            return self._move_banner(waiting.seats, since)
        rule = rule_of(waiting.kind)
        detail = f"{capital(waiting.text)}: {rule.about}" if rule.about else capital(waiting.text)
        return Banner(rule.doing, detail, Tone.WAIT, since, snapshot.progress)

    def _move_banner(self, waited_for: Sequence[int], since: float) -> Banner:
        scene, screen = self.scene(), self.screen()
        if scene is None or screen is None:
            return Banner("The table is full: you were not seated", "", Tone.WAIT)
        actor = waited_for[0] if waited_for else None
        headline = screen.headline(scene, actor)
        if self.my_turn:
            return Banner(headline, screen.status(scene), Tone.TURN, since)
        shown = self.seat(actor)
        detail = screen.status(scene)
        if self.snapshot is not None and self.snapshot.forced and shown is not None and shown.you:
            detail = FORCED_WAIT
        if shown is not None and shown.link is not None:
            detail = (
                f"No link to {shown.name}'s peer ({printable(shown.link)}): gone, or not back"
                " yet; the game goes on when it returns"
            )
        return Banner(headline, detail, Tone.WAIT, since)

    def _over_banner(self) -> Banner:
        snapshot = self.snapshot
        assert snapshot is not None
        winners = snapshot.winners
        if winners:
            verb = "win" if len(winners) > 1 or self.who(winners[0]) == "you" else "wins"
            headline = f"Game over: {self.seats().listed(winners)} {verb}"
        else:
            headline = "Game over: a draw"
        if not snapshot.audited:
            detail = "Checking the deal: every seat reveals its secrets..."
        elif self.record is None:
            detail = "Audit passed: every shuffle, share and card checks out. Writing the record..."
        else:
            detail = "Audit passed: every shuffle, share and card checks out."
        return Banner(capital(headline), detail, Tone.OVER)

    def waited(self, banner: Banner) -> float | None:
        """Seconds since the banner's wait began."""
        return None if banner.since is None else max(0.0, self.clock() - banner.since)

    # ------------------------------------------------------------------ choices

    def choices(self) -> Choices:
        """What the keys choose among: the game's choices on this seat's turn, else none."""
        view, screen = self.view, self.screen()
        if view is None or screen is None or not self.my_turn:
            return Choices()
        choices = screen.choices(view)
        bare = Scene(view, self.game, self.seats(), True, Choices(), None)
        turn = screen.headline(bare, view.seat)  # the phase, and where (a battle's region)
        return replace(choices, numbered=self._keep_keys(turn, choices.numbered))

    def _keep_keys(self, turn: str, numbered: tuple[str, ...]) -> tuple[str, ...]:
        """``numbered`` with each choice on the key it had at this seat's turns before, as
        long as they are turns of the same ``turn`` (the headline of this seat's turn: the
        phase, and where, such as a battle's region): a card played leaves its key unused ("")
        rather than moving the cards after it down one, and a new choice takes the key after
        the last. Numbered afresh for another ``turn``, or when the keys would run past 9."""
        if not numbered:
            return numbered
        kept, (phase, before) = numbered, self._keys
        if phase == turn:
            slots = [choice if choice in numbered else "" for choice in before]
            slots += [choice for choice in numbered if choice not in slots]
            while slots and not slots[-1]:
                slots.pop()
            if len(slots) <= NUMBER_KEYS:
                kept = tuple(slots)
        self._keys = (turn, kept)
        return kept

    def choose(self, index: int) -> str | None:
        """Put choice ``index`` (wrapping around) on the command line; its text, or None when
        there is nothing to choose."""
        moves = self.choices().moves
        if not moves:
            return None
        self.line = moves[index % len(moves)]
        return self.line

    def choose_move(self, move: str | None) -> str | None:
        """Put ``move`` (one of the choices) on the command line; its text, or None when it is
        not one (the key that asked for it chooses nothing now)."""
        moves = self.choices().moves
        return None if move not in moves else self.choose(moves.index(move))

    def choose_numbered(self, number: int) -> str | None:
        """Put the choice the number key ``number`` picks (1 first) on the command line; its
        text, or None when that key picks nothing."""
        numbered = self.choices().numbered
        return self.choose_move(numbered[number - 1]) if 1 <= number <= len(numbered) else None

    def step_choice(self, delta: int) -> str | None:
        """Move the cursor ``delta`` choices on (from the first or last when the line holds
        none)."""
        moves = self.choices().moves
        if self.line not in moves:
            return self.choose(0 if delta > 0 else -1)
        return self.choose(moves.index(self.line) + delta)

    def suggestion(self) -> str | None:
        """The choice on the command line, if it holds one."""
        return self.line if self.line in self.choices().moves else None

    def effect(self, move: str) -> str:
        """What playing ``move`` would do, in the game's words; empty when there is nothing
        worth saying."""
        scene, screen = self.scene(), self.screen()
        return "" if scene is None or screen is None else screen.effect(scene, move)

    # ------------------------------------------------------------------ log and help

    def log(self) -> tuple[LogLine, ...]:
        """The table's events (moves and their consequences in the game's own narration) in
        players' words (a seat named by its player alone), with this client's own notes among
        them."""
        lines: list[LogLine] = []
        names = {shown.seat: shown.name for shown in self.seats()}
        seated = [] if self.snapshot is None else [
            (f"seat {player.seat} ({player.name})", names.get(player.seat, player.name))
            for player in self.snapshot.players
            if player.seat is not None
        ]
        placed = [(at or 0, text) for at, text in self.notes]
        notes = iter(sorted(placed, key=lambda note: note[0]))
        note = next(notes, None)
        for index, event in enumerate(self.events):
            while note is not None and note[0] <= index:
                lines.append(LogLine("note", note[1], None))
                note = next(notes, None)
            text = event.text
            for long, short in seated:
                text = text.replace(long, short)
            lines.append(LogLine(event.kind, printable(text), event.seat))
        while note is not None:
            lines.append(LogLine("note", note[1], None))
            note = next(notes, None)
        return tuple(lines)

    def game_help(self) -> tuple[str, ...]:
        """The game's part of the help page (its moves, its screen, its rules)."""
        snapshot, screen = self.snapshot, self.screen()
        if snapshot is None or screen is None:
            return ()
        table = TableRules(snapshot.game, snapshot.edition, snapshot.seats)
        return screen.help(table, self.game)

    # ------------------------------------------------------------------ the end

    def ending(self) -> Ending | None:
        """Who won and how, or why the table stopped; None while the game goes on."""
        snapshot = self.snapshot
        if snapshot is None:
            return None
        if snapshot.halt is not None:
            halt = snapshot.halt
            lines = [printable(halt.detail)]
            if self.put_out:
                return Ending("You are out of the game", (*lines, OTHERS_PLAY_ON, OUT_CAN_ONLY),
                              self.record, snapshot.record_hash)
            if halt.cheat:
                lines.append(
                    "The peer layer caught it: the signed entries that prove it are kept"
                    " in the record, for anyone to check."
                )
            return Ending("The table has stopped", tuple(lines), self.record,
                          snapshot.record_hash)
        outcome, scene, screen = snapshot.outcome, self.scene(), self.screen()
        if outcome is None or scene is None or screen is None:
            return None
        if outcome.kind is OutcomeKind.DRAW:
            told = f"A draw: {outcome.how}."
        else:
            told = f"{capital(self.seats().listed(outcome.winners))} won: {outcome.how}."
        title = "Game over"
        if self.seat(snapshot.seat) is not None and snapshot.seat in outcome.winners:
            title = "Game over: you win!"
        return Ending(title, (told, *screen.standing(scene)), self.record, snapshot.record_hash)
