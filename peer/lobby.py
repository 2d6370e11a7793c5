"""The lobby: the table's definition, the joins, the seating and who is ready.

A table is created by the first entry of its creator's log (``TableDefinition``): the game
(a name the registry knows, :mod:`condottiere.interface`), its edition (for Condottiere, the
edition), the number of seats, house-rule options, a name and a fresh random nonce; the
table's id is the hash of that definition and its creator's key
(:func:`~condottiere.peer.entries.table_id_of`), so every new table has an id of its own.
The definition also fixes the :class:`Deadlines` of every step that waits for a seat. A
peer that wants to play publishes ``Join``, naming the definition's hash, as the first entry
of its own log. The creator seats joiners in one ``Seating`` entry (seat i is the i-th
author): at an open table the first joiners it hears of, round their sources (a source's
many keys cannot take every seat: :meth:`Lobby.fair_order`), otherwise only those its owner
admitted (:meth:`Lobby.admit`; a joiner refused, :meth:`Lobby.refuse`, is forgotten), in the
order they came. That choice is the creator's alone and not in any log: the others check only
that every seated author asked for a seat. From then on the creator has no more authority
than any other seat: every seated author publishes ``Ready`` naming that seating, and the
game starts once all are ready.

A seat that is not ready within the definition's ready deadline is *freed*: once every seat
outside the seats not ready has stated it silent (the same statements as at any step,
:mod:`condottiere.peer.silence`), its author is never seated at this table again
(:meth:`Lobby.free`): the creator seats the next joiner in its place in a new ``Seating``
that keeps every other seat where it was (or waits for one to ask). Until the game starts
(:meth:`Lobby.close`) the lobby keeps hearing joins, so that a joiner may wait for a freed
seat.

>>> spec = TableSpec(edition="zman", seats=3, options=(), name="Friday", player="ada",
...                  address="127.0.0.1:5000", spectators=True)
>>> TableSpec.from_body(spec.body()) == spec
True
>>> TableSpec(edition="zman", seats=9, options=(), name="x", player="y", address="").check()
Traceback (most recent call last):
...
ValueError: zman is played by 2 to 6 players, not 9
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from condottiere.interface import DEFAULT_GAME, GameRules, TableRules, game_named
from condottiere.peer.entries import LogEntry, Reason, Rejection
from condottiere.peer.limits import host_of, source_named, valid_address
from condottiere.v1 import log_pb2

__all__ = ["NONCE_BYTES", "PROTOCOL", "Deadlines", "Lobby", "TableSpec", "check_text"]

PROTOCOL = log_pb2.PROTOCOL_VERSION_CURRENT
NONCE_BYTES = 32
"""The size of the random nonce in every table definition, which makes every new table's id
new."""
MAX_NAME = 40
MAX_ADDRESS = 255
MAX_DEADLINE = 24 * 3600
"""The longest deadline a table may give (a day: longer is no deadline a player would
notice)."""


def check_text(text: str, what: str, limit: int = MAX_NAME) -> str:
    """``text`` if it is a short printable name; ValueError saying what is wrong otherwise."""
    if not 0 < len(text) <= limit:
        raise ValueError(f"{what} must have 1 to {limit} characters")
    if not text.isprintable():
        raise ValueError(f"{what} may only hold printable characters")
    return text


@dataclass(frozen=True)
class Deadlines:
    """How many seconds each step that waits for a seat gives it before the others may state
    that it is silent (see :mod:`condottiere.peer.silence`).

    >>> print(Deadlines().words())
    a move 120 s (a bot's 15 s), a protocol step 30 s, being ready 60 s
    >>> Deadlines(move=0).check()
    Traceback (most recent call last):
    ...
    ValueError: a move's deadline must be 1 to 86400 seconds, not 0
    """

    move: int = 120
    """A person's move: generous, a person thinks, reads the board, talks."""
    step: int = 30
    """A protocol step (keys, a shuffle, shares, a coin, the audit): a peer does it by
    itself in a second or two, so a short deadline."""
    bot_move: int = 15
    """A program's move: bots think within a few seconds."""
    ready: int = 60
    """Saying ready once seated (a peer does it by itself unless its owner holds it back):
    past it the seat is freed for another joiner."""

    def check(self) -> Deadlines:
        for what, value in (
            ("a move", self.move),
            ("a protocol step", self.step),
            ("a bot's move", self.bot_move),
            ("being ready", self.ready),
        ):
            if not 1 <= value <= MAX_DEADLINE:
                raise ValueError(
                    f"{what}'s deadline must be 1 to {MAX_DEADLINE} seconds, not {value}"
                )
        return self

    def words(self) -> str:
        """The deadlines as a lobby shows them."""
        return (
            f"a move {self.move} s (a bot's {self.bot_move} s), a protocol step {self.step} s,"
            f" being ready {self.ready} s"
        )


@dataclass(frozen=True)
class TableSpec:
    """What a table definition says."""

    edition: str
    seats: int
    options: tuple[str, ...]
    name: str
    player: str
    address: str
    game: str = DEFAULT_GAME
    deadlines: Deadlines = Deadlines()
    creator_bot: bool = False
    """The creator's seat is played by a program (its moves get the bots' deadline)."""
    spectators: bool = False
    """Anyone may follow the table's logs (watch it); else only its seated players (and,
    while it fills, those who ask for a seat) may (see :mod:`condottiere.peer.readers`)."""

    @property
    def rules(self) -> TableRules:
        """What the definition says about the game (for the game's :class:`GameRules`)."""
        return TableRules(self.game, self.edition, self.seats, self.options)

    @property
    def game_rules(self) -> GameRules:
        """The game this table plays (ValueError if this peer cannot play it)."""
        return game_named(self.game)

    def check(self) -> TableSpec:
        """This spec, if this peer can play it; ValueError saying why not."""
        self.game_rules.check(self.rules)
        check_text(self.name, "a table name")
        check_text(self.player, "a player name")
        if len(self.address) > MAX_ADDRESS:
            raise ValueError("the address is too long")
        self.deadlines.check()
        return self

    def body(self) -> log_pb2.TableDefinition:
        """The definition of a new table with this spec: each call draws a fresh nonce, so
        no two tables ever share an id."""
        return log_pb2.TableDefinition(
            protocol=PROTOCOL,
            game=self.game,
            edition=self.edition,
            seats=self.seats,
            options=list(self.options),
            name=self.name,
            player=self.player,
            address=self.address,
            nonce=os.urandom(NONCE_BYTES),
            move_deadline=self.deadlines.move,
            step_deadline=self.deadlines.step,
            bot_move_deadline=self.deadlines.bot_move,
            ready_deadline=self.deadlines.ready,
            creator_bot=self.creator_bot,
            spectators=self.spectators,
        )

    @classmethod
    def from_body(cls, body: log_pb2.TableDefinition) -> TableSpec:
        """The spec of a received definition; ValueError if this peer cannot play it."""
        if body.protocol != PROTOCOL:
            raise ValueError(f"the table speaks protocol {body.protocol}, this peer {PROTOCOL}")
        if len(body.nonce) != NONCE_BYTES:
            raise ValueError(f"a table definition holds a nonce of {NONCE_BYTES} bytes")
        return cls(
            edition=body.edition,
            seats=body.seats,
            options=tuple(body.options),
            name=body.name,
            player=body.player,
            address=body.address,
            game=body.game,
            deadlines=Deadlines(
                body.move_deadline,
                body.step_deadline,
                body.bot_move_deadline,
                body.ready_deadline or body.move_deadline,
            ),
            creator_bot=body.creator_bot,
            spectators=body.spectators,
        ).check()


class Lobby:
    """The table's definition, the joins heard of, and (once published) the seating."""

    def __init__(self, definition: LogEntry) -> None:
        if definition.kind != "table" or definition.seq != 0:
            raise Rejection(Reason.UNEXPECTED, "a table starts with its definition")
        try:
            self.spec = TableSpec.from_body(definition.body)
        except ValueError as exc:
            raise Rejection(Reason.UNEXPECTED, f"the table cannot be played: {exc}") from None
        self.definition = definition
        self.creator = definition.author
        self.joins: dict[bytes, log_pb2.Join] = {}
        """Every author that asked for a seat, in the order they were heard of."""
        self.seating: tuple[bytes, ...] = ()
        self.seating_hash = b""
        self.names: dict[bytes, str] = {self.creator: self.spec.player}
        self.addresses: dict[bytes, str] = {self.creator: self.spec.address}
        self.bots: set[bytes] = {self.creator} if self.spec.creator_bot else set()
        """The authors whose seats programs play (their moves get the bots' deadline)."""
        self.open = True
        """Seat the first joiners heard of (else only those admitted)."""
        self.admitted: set[bytes] = set()
        self.refused: set[bytes] = set()
        """Joiners the creator's owner refused: never seated, their join forgotten."""
        self.freed: set[bytes] = set()
        """Authors whose seat was freed (not ready in time): never seated here again."""
        self.left: set[bytes] = set()
        """Joiners who said they leave before they were seated: the creator seats them no
        more (a seating that names one all the same is valid: its leave frees the seat)."""
        self.closed = False
        """The game has started: no joiner is heard of or seated any more."""
        self.heard_from: dict[bytes, str] = {}
        """The source (host) each author without a seat was first heard of from: the host
        its join names (see :func:`condottiere.peer.steps.seating.door`)."""
        self.given: Counter[str] = Counter()
        """Seats given so far to the joiners of each source, seats since freed included: at
        an open table a free seat goes to a joiner of the source given fewest."""

    @property
    def pending(self) -> tuple[bytes, ...]:
        """Joiners waiting for the creator's owner to admit or refuse them (none at an open
        table), in the order they came."""
        if self.open or self.closed:
            return ()
        return tuple(a for a in self.joins if a not in self.admitted and a not in self.seating)

    def admit(self, author: bytes) -> None:
        """Let ``author`` be seated (also before its join is heard of: a bot of the owner's)."""
        self.refused.discard(author)
        self.admitted.add(author)

    def refuse(self, author: bytes) -> None:
        """Never seat ``author``; forget its join."""
        self.admitted.discard(author)
        self.refused.add(author)
        if author in self.joins:
            del self.joins[author]
            self.names.pop(author, None)
            self.addresses.pop(author, None)

    def free(self, author: bytes) -> None:
        """``author``'s seat was freed (it was not ready in time): it is never seated here
        again."""
        self.freed.add(author)
        self.admitted.discard(author)
        self.joins.pop(author, None)

    def close(self) -> None:
        """The game starts: nobody else is seated from now on."""
        self.closed = True

    @property
    def seated(self) -> bool:
        return bool(self.seating)

    def seat_of(self, author: bytes) -> int | None:
        return self.seating.index(author) if author in self.seating else None

    def add_join(self, entry: LogEntry) -> None:
        """Take in a join; :class:`Rejection` if it is not a proper join of this table."""
        body: log_pb2.Join = entry.body
        if entry.seq != 0:
            raise Rejection(Reason.UNEXPECTED, "a join opens its author's log", author=entry.author)
        if entry.author == self.creator:
            raise Rejection(Reason.UNEXPECTED, "the creator cannot join", author=entry.author)
        if body.definition != self.definition.hash:
            raise Rejection(
                Reason.UNEXPECTED, "the join names another table definition", author=entry.author
            )
        try:
            check_text(body.player, "a player name")
        except ValueError as exc:
            raise Rejection(Reason.UNEXPECTED, str(exc), author=entry.author) from None
        if body.address and not valid_address(body.address):
            raise Rejection(
                Reason.UNEXPECTED, "the address is not HOST:PORT", author=entry.author
            )
        if entry.author in self.refused or entry.author in self.freed:
            return
        self.joins[entry.author] = body
        self.names[entry.author] = body.player
        self.addresses[entry.author] = body.address
        if body.bot:
            self.bots.add(entry.author)

    def source(self, author: bytes) -> str:
        """The source of a joiner: the host its join names (a join is taken from there only,
        see :func:`condottiere.peer.steps.seating.door`)."""
        return source_named(host_of(self.addresses.get(author, "")))

    def seating_for(self, freeing: Collection[bytes] = ()) -> tuple[bytes, ...] | None:
        """The creator's choice of seats once enough joiners are heard of (admitted ones,
        unless the table is open): itself, then the first in the order they came; None while
        seats are still free. At a table seated already, the seats of ``freeing`` go to the
        next joiners and every other seat stays where it is. At an open table the joiners the
        owner admitted (its own bots) come first, and the other seats go round the joiners'
        sources (:meth:`fair_order`): one source's many keys cannot take every seat while
        others wait."""
        kept: tuple[bytes | None, ...] = (self.creator, *([None] * (self.spec.seats - 1)))
        if self.seating:
            kept = tuple(None if a in freeing else a for a in self.seating)
        joiners = [
            a for a in self.joins
            if (self.open or a in self.admitted) and a not in kept and a not in freeing
            and a not in self.left
        ]
        free = [seat for seat, author in enumerate(kept) if author is None]
        if len(joiners) < len(free):
            return None
        if self.open:  # the owner's own (admitted) first, then round the sources
            admitted = [a for a in joiners if a in self.admitted]
            others = [a for a in joiners if a not in self.admitted]
            joiners = admitted + self.fair_order(others, len(free) - len(admitted))
        seating = list(kept)
        for seat, joiner in zip(free, joiners, strict=False):
            seating[seat] = joiner
        return tuple(a for a in seating if a is not None)

    def fair_order(self, joiners: Iterable[bytes], seats: int) -> list[bytes]:
        """The ``seats`` joiners of ``joiners`` (in the order they came) an open table seats:
        each seat in turn to the first joiner of the source given fewest seats so far (this
        one's picks included). A source whose keys were seated and freed waits behind every
        source not served yet.

        >>> lobby = Lobby.__new__(Lobby)
        >>> lobby.given = Counter({"10.0.0.9": 1})
        >>> lobby.addresses = {b"s1": "10.0.0.9:1", b"s2": "10.0.0.9:2",
        ...                    b"ada": "10.0.0.2:5", b"bob": "10.0.0.3:5"}
        >>> lobby.fair_order([b"s1", b"s2", b"ada", b"bob"], 3)
        [b'ada', b'bob', b's1']
        """
        given = Counter(self.given)
        waiting = list(joiners)
        chosen: list[bytes] = []
        while waiting and len(chosen) < seats:
            pick = min(waiting, key=lambda author: given[self.source(author)])
            waiting.remove(pick)
            chosen.append(pick)
            given[self.source(pick)] += 1
        return chosen

    def missing_joins(self, body: log_pb2.Seating) -> list[bytes]:
        """The seated authors whose join has not been heard of yet."""
        return [a for a in body.authors if a != self.creator and a not in self.joins]

    def check_seating(self, entry: LogEntry) -> tuple[bytes, ...]:
        """The seats a seating entry gives; :class:`Rejection` if it is not a valid seating."""
        authors = tuple(entry.body.authors)
        if len(authors) != self.spec.seats or len(set(authors)) != len(authors):
            raise Rejection(
                Reason.UNEXPECTED,
                f"a seating names {self.spec.seats} different authors",
                author=entry.author,
            )
        if self.freed & set(authors):
            raise Rejection(
                Reason.UNEXPECTED, "a seating names an author whose seat was freed",
                author=entry.author,
            )
        return authors

    def seat(self, entry: LogEntry, authors: tuple[bytes, ...]) -> None:
        for author in authors:
            if author != self.creator and author not in self.seating:
                self.given[self.source(author)] += 1
        self.seating = authors
        self.seating_hash = entry.hash
