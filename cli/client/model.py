"""What the screen shows of a table, apart from how it is drawn and which keys do what.

A :class:`TableModel` is fed what the seat's :class:`~condottiere.peer.controller.Controller`
publishes (the snapshot, a copy of the seat's own engine, the table's events, the state of the links
to the other peers) and answers the questions the screen asks: what happens now and since
when, each seat's row and strength with its reasons, the hand and what may be played from
it, the board, the log, the end of the game. It also holds the screen's own state (the
choice under the cursor, the row being explained, the help page, the last message).

Everything a peer sent (names, chat) is shown as printable text only; nothing the network
sends can make a question here fail: a table that is not there yet, a seat that never
joined, a halt in the middle of a deal all have an answer.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

from condottiere.games.condottiere import (
    ADJACENT,
    EDITIONS,
    REGIONS,
    Choice,
    Game,
    Move,
    SeatView,
    Step,
)
from condottiere.games.condottiere.board import TEXT_MAP, connected_groups
from condottiere.games.condottiere.summary import rules_summary
from condottiere.peer.controller import Snapshot
from condottiere.peer.driver import TableEvent

__all__ = [
    "Banner",
    "Ending",
    "HandCard",
    "LogLine",
    "Message",
    "RegionMark",
    "RowLine",
    "SeatInfo",
    "TableModel",
    "Tone",
    "capital",
    "printable",
]


def _kinds(hand: Sequence[str]) -> list[tuple[str, int]]:
    """Each kind of card in ``hand``, in order, with its count."""
    kinds: dict[str, int] = {}
    for card in hand:
        kinds[card] = kinds.get(card, 0) + 1
    return list(kinds.items())


def _reading_order(move: Move) -> tuple[int, int, str]:
    """Regions as the map is read (line by line, left to right); other moves as they come."""
    if move.region is not None and move.region in TEXT_MAP:
        line, column = TEXT_MAP[move.region]
        return line, column, ""
    return 99, 0, str(move)


def capital(text: str) -> str:
    """``text`` with its first letter in capitals (and the rest as it was)."""
    return text[:1].upper() + text[1:]


def printable(text: str) -> str:
    """``text`` with anything a terminal could take as a command (escapes, control
    characters, line breaks) replaced by ``?``."""
    return "".join(char if char.isprintable() else "?" for char in text)


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


@dataclass(frozen=True)
class SeatInfo:
    """A seat as the screen names it."""

    seat: int
    name: str
    mark: str
    """One character on the board and beside the row: the initial of the name, or the seat
    number when two names share an initial."""
    you: bool
    link: str | None
    """Why this seat's peer cannot be reached now; None when it can (or it is this one)."""


@dataclass(frozen=True)
class RowLine:
    """One seat's battle row."""

    seat: SeatInfo
    cards: tuple[str, ...]
    strength: int
    hand_size: int
    passed: bool
    to_act: bool


@dataclass(frozen=True)
class HandCard:
    """A kind of card in this seat's hand."""

    card: str
    count: int
    playable: bool
    """A move that plays it is legal now."""
    chosen: bool
    """The choice under the cursor plays it."""
    key: int | None
    """The digit that chooses it, when one does."""


@dataclass(frozen=True)
class RegionMark:
    """One region of the board as the map draws it."""

    name: str
    owner: SeatInfo | None
    favor: bool
    battle: bool
    """The battle is fought there now."""
    choosable: bool
    """This seat may choose it now (to fight there, to place the Favor)."""
    chosen: bool


@dataclass(frozen=True)
class LogLine:
    kind: str
    """The table event's kind (``move battle chat refused halt ...``), or ``note`` for this
    client's own lines."""
    text: str
    seat: int | None


@dataclass(frozen=True)
class Message:
    """The answer to the last thing typed (a refusal, an unknown command)."""

    text: str
    error: bool


@dataclass(frozen=True)
class Ending:
    """The end of the game: who won and how, or why the table stopped; and the record."""

    title: str
    lines: tuple[str, ...]
    record: str | None
    """The record file, once written."""
    record_hash: str


WAITING_WORDS = {
    "battle-choice": ("choose where the next battle is fought", "is choosing where to fight"),
    "battle": ("play a card or pass", "is playing"),
    "favor": ("place the Favor (after your Bishop)", "is placing the Favor"),
    "discard": (
        "discard your hand (it holds no mercenary) or keep it",
        "is deciding whether to discard their hand",
    ),
    "retain": ("keep up to two cards for the next round", "is choosing cards to keep"),
}
"""Per phase of the engine: what this seat must decide, and what another seat is doing."""


class TableModel:
    """The client's state: the table as last published, and the screen's own choices."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.snapshot: Snapshot | None = None
        self.game: Game | None = None
        self.events: Sequence[TableEvent] = ()
        self.links: Mapping[str, str | None] = {}
        self.notes: list[tuple[int | None, str]] = []
        """This client's own log lines, each after the first ``n`` table events (None: after
        the events of the first update, for a note written before it)."""
        self.line = ""
        """The command line's text; when it is one of the :meth:`choices`, that choice is
        under the cursor."""
        self.why: int | None = None
        """The seat whose strength is being explained."""
        self.help = False
        self.scroll = 0
        """Lines scrolled back from the end of the log (or down from the top of the help)."""
        self.message: Message | None = None
        self.record: str | None = None
        self.join_hint = ""
        """The address other players join this table with, when it is open to them."""
        self._seats: tuple[object, tuple[SeatInfo, ...]] = (None, ())
        """The seats as last worked out, and the snapshot and links they come from."""

    # ------------------------------------------------------------------ input

    def update(
        self,
        snapshot: Snapshot,
        game: Game | None,
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

    # ------------------------------------------------------------------ seats

    @property
    def view(self) -> SeatView | None:
        return None if self.snapshot is None else self.snapshot.view

    def seats(self) -> tuple[SeatInfo, ...]:
        """Every seated player, by seat."""
        key = (self.snapshot, tuple(sorted(self.links.items())))
        if self._seats[0] != key:
            self._seats = (key, self._seated())
        return self._seats[1]

    def _seated(self) -> tuple[SeatInfo, ...]:
        snapshot = self.snapshot
        if snapshot is None:
            return ()
        seated = sorted(
            ((p.seat, p) for p in snapshot.players if p.seat is not None), key=lambda sp: sp[0]
        )
        names = [printable(player.name) or "?" for _, player in seated]
        initials = [name[0].upper() for name in names]
        infos = []
        for (seat, player), name, initial in zip(seated, names, initials, strict=True):
            unique = initials.count(initial) == 1 and initial.isalpha()
            you = seat == snapshot.seat
            link = None if you or snapshot.stage == "over" else self.links.get(player.address)
            infos.append(SeatInfo(seat, name, initial if unique else str(seat), you, link))
        return tuple(infos)

    def seat(self, number: int | None) -> SeatInfo | None:
        return next((info for info in self.seats() if info.seat == number), None)

    def who(self, number: int | None) -> str:
        """A seat as a sentence names it: ``you``, or its player's name."""
        info = self.seat(number)
        if info is None:
            return "someone" if number is None else f"seat {number}"
        return "you" if info.you else info.name

    # ------------------------------------------------------------------ now

    def banner(self) -> Banner:
        """What happens now: whose turn and what they must decide, or what the table waits
        for and since when."""
        snapshot = self.snapshot
        if snapshot is None:
            return Banner("Connecting to the table...", "", Tone.WAIT)
        if snapshot.halt is not None:
            halt = snapshot.halt
            detail = (
                "A cheat caught by the peer layer: the signed evidence is in the record."
                if halt.cheat
                else "Nobody can move on without that seat; the record is kept."
            )
            return Banner(f"The table has stopped: {printable(halt.detail)}", detail, Tone.ALERT)
        waiting = snapshot.waiting
        if snapshot.stage == "over" or (self.view is not None and self.view.phase == "over"):
            return self._over_banner()
        if waiting is None:
            return Banner("Waiting for the table...", "", Tone.WAIT)
        names = self._names(waiting.seats)
        since = waiting.since
        if waiting.kind == "seating":
            seated = len(snapshot.players)
            detail = f"Others join with: condottiere play --join {self.join_hint}" if (
                self.join_hint
            ) else "Bots and players are joining."
            return Banner(
                f"Waiting for players to join: {seated} of {snapshot.seats} here", detail,
                Tone.WAIT, since,
            )  # fmt: skip
        if waiting.kind == "ready":
            return Banner(f"Waiting for {names} to be ready", "", Tone.WAIT, since)
        if waiting.kind in ("keys", "shuffle", "shares", "coin_commit", "coin_reveal"):
            return self._protocol_banner(waiting.kind, names, since, snapshot.progress)
        return self._move_banner(since)

    def _names(self, seats: Sequence[int]) -> str:
        names = [self.who(seat) for seat in seats]
        if len(names) > 2:
            return ", ".join(names[:-1]) + " and " + names[-1]
        return " and ".join(names) or "nobody"

    def _protocol_banner(
        self, kind: str, names: str, since: float, progress: tuple[int, int] | None
    ) -> Banner:
        dealing = self.game is not None and self.game.moves_played > 0
        if kind == "keys":
            return Banner(
                "Preparing the deck",
                f"Keys from {names}: a card can be read only with every seat's help",
                Tone.WAIT, since,
            )  # fmt: skip
        if kind == "shuffle":
            return Banner(
                "Shuffling the deck" if not dealing else "Shuffling the deck for new hands",
                f"{capital(names)} re-encrypting and permuting every card (with a proof)",
                Tone.WAIT, since, progress,
            )  # fmt: skip
        if kind == "shares":
            return Banner(
                "Dealing the cards" if not dealing else "Dealing new cards",
                f"Decryption shares from {names} (only each card's owner can read it)",
                Tone.WAIT, since, progress,
            )  # fmt: skip
        purpose = "a fair draw"
        if self.game is not None and isinstance(self.game.chance, Choice):
            purpose = f"a fair draw of the {self.game.chance.purpose}"
        step = "commitments" if kind == "coin_commit" else "reveals"
        return Banner(
            f"Drawing lots: {purpose}", f"Coin {step} from {names}", Tone.WAIT, since
        )

    def _move_banner(self, since: float) -> Banner:
        view = self.view
        snapshot = self.snapshot
        assert snapshot is not None
        waiting = snapshot.waiting
        if view is None or waiting is None:
            return Banner("The table is full: you were not seated", "", Tone.WAIT)
        mine, theirs = WAITING_WORDS.get(view.phase, ("decide", "is deciding"))
        where = self.battle_name()
        if snapshot.my_turn:
            headline = f"Your turn: {mine}"
            if view.phase == "battle" and where:
                headline = f"Your turn in {where}: {mine}"
            return Banner(headline, self._table_line(), Tone.TURN, since)
        actor = waiting.seats[0] if waiting.seats else None
        headline = f"{capital(self.who(actor))} {theirs}"
        if view.phase == "battle" and where:
            headline += f" in {where}"
        info = self.seat(actor)
        detail = self._table_line()
        if info is not None and info.link is not None:
            detail = (
                f"No link to {info.name}'s peer ({printable(info.link)}): gone, or not back"
                " yet; the game goes on when it returns"
            )
        return Banner(headline, detail, Tone.WAIT, since)

    def _over_banner(self) -> Banner:
        snapshot = self.snapshot
        assert snapshot is not None
        winners = snapshot.winners
        if winners:
            names = self._names(winners)
            verb = "win" if len(winners) > 1 or self.who(winners[0]) == "you" else "wins"
            headline = f"Game over: {names} {verb}"
        else:
            headline = "Game over: a draw"
        if not snapshot.audited:
            detail = "Checking the deal: every seat reveals its secrets..."
        elif self.record is None:
            detail = "Audit passed: every shuffle, share and card checks out. Writing the record..."
        else:
            detail = "Audit passed: every shuffle, share and card checks out."
        return Banner(capital(headline), detail, Tone.OVER)

    def battle_name(self) -> str:
        """``the battle for Firenze``, ``the final battle``, ``the battle``; empty when no
        battle is under way (or, once the game is over, was the last)."""
        view = self.view
        if view is None or view.phase not in ("battle", "favor", "over"):
            return ""
        if self.game is not None and self.game.final_battle:
            return "the final battle"
        region = view.battle_region
        return "the battle" if region is None else f"the battle for {region}"

    def _table_line(self) -> str:
        view = self.view
        assert view is not None
        parts = [f"Battle marker: {self._mark_name(view.battle_marker)}"]
        if EDITIONS[view.edition].board:
            parts.append(f"Favor: {view.favor or 'off the board'}")
        piles = view.draw_pile_sizes
        if EDITIONS[view.edition].per_seat_decks:
            parts.append(f"your deck: {piles[view.seat]}")
            parts.append(f"out of the game: {view.out_of_game}")
        else:
            parts.append(f"draw pile: {sum(piles)}")
            parts.append(f"discards: {len(view.discard_pile)}")
        return " · ".join(parts)

    def _mark_name(self, seat: int) -> str:
        info = self.seat(seat)
        if info is None:
            return f"seat {seat}"
        return "you" if info.you else f"{info.mark} {info.name}"

    def waited(self, banner: Banner) -> float | None:
        """Seconds since the banner's wait began."""
        return None if banner.since is None else max(0.0, self.clock() - banner.since)

    # ------------------------------------------------------------------ the table

    def rows(self) -> tuple[RowLine, ...]:
        """Every seat's battle row, strength, hand size and state, by seat."""
        view = self.view
        if view is None:
            return ()
        lines = []
        for info in self.seats():
            seat = info.seat
            if seat >= view.players:
                continue
            lines.append(
                RowLine(
                    seat=info,
                    cards=view.rows[seat],
                    strength=view.strengths[seat],
                    hand_size=view.hand_sizes[seat],
                    passed=view.phase == "battle" and seat in view.passed,
                    to_act=view.to_act == seat,
                )
            )
        return tuple(lines)

    def breakdown(self, seat: int) -> tuple[Step, ...]:
        """How ``seat``'s strength comes about, step by step: the engine's own reasons."""
        if self.game is None or not 0 <= seat < self.game.players:
            return ()
        return self.game.breakdown(seat)

    def regions(self) -> tuple[RegionMark, ...]:
        """Every region of the board with its owner and markers; empty without a board."""
        view = self.view
        if view is None or not EDITIONS[view.edition].board:
            return ()
        choosable = {
            move.region for move in view.legal_moves if move.verb in ("battle", "favor")
        }
        chosen = self.chosen_move()
        chosen_region = None if chosen is None else chosen.region
        return tuple(
            RegionMark(
                name=region,
                owner=self.seat(view.control.get(region)),
                favor=view.favor == region,
                battle=view.battle_region == region,
                choosable=region in choosable,
                chosen=region == chosen_region,
            )
            for region in REGIONS
        )

    def scores(self) -> tuple[tuple[SeatInfo, int], ...]:
        """Per seat: regions controlled (battles won, without a board)."""
        view = self.view
        if view is None:
            return ()
        return tuple(
            (info, view.battles_won[info.seat])
            for info in self.seats()
            if info.seat < len(view.battles_won)
        )

    def goal(self) -> str:
        """What wins the game, in a few words."""
        view = self.view
        if view is None:
            return ""
        edition = EDITIONS[view.edition]
        victory = edition.victory(view.players)
        if not edition.board:
            return f"first to {victory.connected} battles wins"
        total = "" if victory.total is None else f" or {victory.total}"
        return f"win: {victory.connected} connected{total}"

    # ------------------------------------------------------------------ hand and choices

    def hand(self) -> tuple[HandCard, ...]:
        """This seat's cards, one entry per kind of card, in notation order."""
        view = self.view
        if view is None:
            return ()
        playable = {move.card for move in view.legal_moves if move.verb == "play"}
        chosen = self.chosen_move()
        chosen_card = chosen.card if chosen is not None and chosen.verb == "play" else None
        keys = {card: number for number, card in enumerate(self._card_keys(), start=1)}
        return tuple(
            HandCard(card, count, card in playable, card == chosen_card, keys.get(card))
            for card, count in _kinds(view.hand)
        )

    def _card_keys(self) -> list[str]:
        """The kinds of card the number keys choose, in order: those that may be played now
        (in a battle, on this seat's turn)."""
        view = self.view
        if view is None or view.phase != "battle" or not self.choices():
            return []
        playable = {move.card for move in view.legal_moves if move.verb == "play"}
        return [card for card, _ in _kinds(view.hand) if card in playable][:9]

    def choices(self) -> tuple[str, ...]:
        """What the cursor keys choose among, as command-line texts of legal moves: in a
        battle, the cards in the hand's order (a Scarecrow once per mercenary it may take),
        then ``pass``; otherwise every legal move, regions in the map's reading order."""
        view = self.view
        snapshot = self.snapshot
        if view is None or snapshot is None or not snapshot.my_turn:
            return ()
        moves = view.legal_moves
        if view.phase != "battle":
            return tuple(str(move) for move in sorted(moves, key=_reading_order))
        order = {card: index for index, (card, _) in enumerate(_kinds(view.hand))}
        plays = sorted(
            (move for move in moves if move.verb == "play"),
            key=lambda move: order.get(str(move.card), len(order)),
        )
        return tuple(str(move) for move in [*plays, *(m for m in moves if m.verb != "play")])

    def choose_card(self, number: int) -> str | None:
        """Put the cursor on the first move that plays the ``number``-th kind of card the
        number keys choose (1 first); its text, or None when there is none."""
        keys = self._card_keys()
        if not 1 <= number <= len(keys):
            return None
        choices = self.choices()
        for index, text in enumerate(choices):
            if text.split()[:2] == ["play", keys[number - 1]]:
                return self.choose(index)
        return None

    def choose(self, index: int) -> str | None:
        """Put choice ``index`` (wrapping around) on the command line; its text, or None when
        there is nothing to choose."""
        choices = self.choices()
        if not choices:
            return None
        self.line = choices[index % len(choices)]
        return self.line

    def step_choice(self, delta: int) -> str | None:
        """Move the cursor ``delta`` choices on (from the first or last when the line holds
        none)."""
        choices = self.choices()
        if self.line not in choices:
            return self.choose(0 if delta > 0 else -1)
        return self.choose(choices.index(self.line) + delta)

    def suggestion(self) -> str | None:
        """The choice on the command line, if it holds one."""
        return self.line if self.line in self.choices() else None

    def chosen_move(self) -> Move | None:
        text = self.suggestion()
        return None if text is None else Move.parse(text)

    def effect(self, text: str) -> str:
        """What playing ``text`` would do to this seat's row, or what it means, in a few
        words; empty when it says nothing worth adding."""
        game, view = self.game, self.view
        try:
            move = Move.parse(text)
        except ValueError:
            return ""
        if move.verb == "battle" and move.region is not None:
            return "borders " + ", ".join(sorted(ADJACENT[move.region]))
        if game is None or view is None or move not in view.legal_moves:
            return ""
        if move.verb == "pass":
            return "you are out of this battle"
        if move.verb != "play":
            return ""
        after = game.copy()
        try:
            after.play(move)
        except ValueError:
            return ""
        if after.last_battle is not game.last_battle:
            return f"ends the battle: your row {game.strength(view.seat)} at the end"
        changes = [
            f"{'yours' if seat == view.seat else self.who(seat)} {game.strength(seat)} -> "
            f"{after.strength(seat)}"
            for seat in range(view.players)
            if after.strength(seat) != game.strength(seat)
        ]
        return "strength: " + ", ".join(changes) if changes else "no change in strength"

    # ------------------------------------------------------------------ log and help

    def log(self) -> tuple[LogLine, ...]:
        """The table's events in players' words (a seat named by its player alone), with this
        client's own notes among them."""
        lines: list[LogLine] = []
        seated = [] if self.snapshot is None else [
            (f"seat {player.seat} ({player.name})", player.name)
            for player in self.snapshot.players
            if player.seat is not None
        ]  # fmt: skip
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

    def rules(self) -> tuple[str, ...]:
        """The rules summary of the edition being played."""
        snapshot = self.snapshot
        if snapshot is None or snapshot.variant not in EDITIONS:
            return ()
        seats = snapshot.seats
        try:
            return rules_summary(snapshot.variant, seats, self._options())
        except ValueError:
            return rules_summary(snapshot.variant, seats)

    def _options(self) -> tuple[str, ...]:
        game = self.game
        if game is None:
            return ()
        return tuple(game.record().get("options", ()))

    # ------------------------------------------------------------------ the end

    def ending(self) -> Ending | None:
        """Who won and how, or why the table stopped; None while the game goes on."""
        snapshot = self.snapshot
        if snapshot is None:
            return None
        if snapshot.halt is not None:
            halt = snapshot.halt
            lines = [printable(halt.detail)]
            if halt.cheat:
                lines.append(
                    "The peer layer caught it: the signed entries that prove it are kept"
                    " in the record, for anyone to check."
                )
            return Ending("The table has stopped", tuple(lines), self.record,
                          snapshot.record_hash)  # fmt: skip
        view = self.view
        if view is None or view.phase != "over":
            return None
        lines = [self._how_won(seat) for seat in snapshot.winners] or ["Nobody won: a draw."]
        standing = ", ".join(
            f"{info.name if not info.you else 'you'} {count}" for info, count in self.scores()
        )
        board = EDITIONS[view.edition].board
        lines.append(f"{'Regions' if board else 'Battles won'}: {standing}.")
        title = "Game over"
        if self.seat(snapshot.seat) is not None and snapshot.seat in snapshot.winners:
            title = "Game over: you win!"
        return Ending(title, tuple(lines), self.record, snapshot.record_hash)

    def _how_won(self, seat: int) -> str:
        view = self.view
        assert view is not None
        name = self.who(seat)
        edition = EDITIONS[view.edition]
        victory = edition.victory(view.players)
        if not edition.board:
            won = view.battles_won[seat]
            if won >= victory.connected:
                return f"{capital(name)} won {won} battles."
            return f"{capital(name)} won more battles ({won}) when the cards ran out."
        regions = sorted(region for region, owner in view.control.items() if owner == seat)
        listed = ", ".join(regions)
        group = max(connected_groups(regions), key=len, default=frozenset())
        if len(group) >= victory.connected:
            return (
                f"{capital(name)} controlled {len(group)} connected regions:"
                f" {', '.join(sorted(group))}."
            )
        if victory.total is not None and len(regions) >= victory.total:
            return f"{capital(name)} controlled {len(regions)} regions ({listed})."
        if self.game is not None and self.game.final_battle:
            return f"{capital(name)} won the final battle among those tied for most regions."
        return (
            f"{capital(name)} held the most regions ({len(regions)}) when none was left"
            " to fight for."
        )

