"""The rules core: one :class:`Game` class runs every edition, omniscient or as one seat.

A game is a state machine. It is always in one phase:

=================  =====================================================================
``battle-choice``  the battle-marker holder opens a battle (``battle Firenze``) or cedes
``battle``         the seat ``to_act`` plays a card or passes
``favor``          the seat that played a Bishop places the Favor marker
``discard``        after a battle, seats holding cards decide to ``discard`` or ``keep``
``retain``         FFG: the last seat with cards keeps up to two of them
``chance``         waiting to be told a chance outcome (see
:mod:`condottiere.games.condottiere.chance`) ``over``           ``winners`` holds the winning seats
(empty for a drawn duel)
=================  =====================================================================

Chance never happens inside the rules: :attr:`Game.chance` names the node the game
waits for and :meth:`Game.resolve` answers it. :meth:`Game.new` and :meth:`Game.setup`
answer from a seed; :meth:`Game.observe` builds the engine one seat runs on the
network, which knows only its own cards.

>>> g = Game.new("zman", players=3, seed=1)
>>> g.phase, g.to_act == g.battle_marker, [g.hand_size(s) for s in range(3)]
('battle-choice', True, [10, 10, 10])
>>> g.play("battle Firenze")
>>> g.phase, g.battle_region
('battle', 'Firenze')

Rule decisions taken where the rulebooks and the design are silent are listed in
``engine/RULES.md``.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import chain, compress, repeat
from typing import Any, NamedTuple, TypeVar

from condottiere.games.condottiere.board import REGIONS, largest_group, region_named
from condottiere.games.condottiere.cards import (
    CARD_ORDER,
    CARDS,
    MERCENARIES,
    MERCENARY_VALUE,
    SEASONS,
    card_name,
    sort_cards,
)
from condottiere.games.condottiere.chance import ChanceNode, Choice, Deal, Draw, SeededChance
from condottiere.games.condottiere.editions import EDITIONS, Edition
from condottiere.games.condottiere.moves import (
    CardFlow,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    card_flow,
)
from condottiere.games.condottiere.outcome import outcome_of
from condottiere.games.condottiere.strength import (
    Step,
    breakdown,
    highest_mercenary,
    strength,
    strengths,
)
from condottiere.games.interface import Outcome, SeatToMove, Waiting

__all__ = ["BattleResult", "Game", "SeatView"]

_T = TypeVar("_T")

RECORD_FORMAT = 1
SPECTATOR = -1
"""The ``observer`` of an engine that knows no seat's hand (:meth:`Game.spectate`)."""

_PASS = Move("pass")
_CEDE = Move("cede")
_DISCARD = Move("discard")
_KEEP = Move("keep")
_FAVOR_NONE = Move("favor")


_ATTEMPTS = {
    "battle": "open a battle",
    "cede": "cede the battle marker",
    "play": "play a card",
    "pass": "pass",
    "favor": "place the Favor",
    "discard": "discard your hand",
    "keep": "keep your hand",
    "retain": "retain cards",
}


@cache
def _play(card: str, target: str | None = None, target_seat: int | None = None) -> Move:
    return Move("play", card=card, target=target, target_seat=target_seat)


_SCARECROW_ALONE = _play("scarecrow")
_CLOCKWISE = {
    players: tuple(
        tuple((start + i) % players for i in range(players)) for start in range(2 * players)
    )
    for players in range(1, max(edition.max_players for edition in EDITIONS.values()) + 1)
}
"""By table size, every seat once clockwise from each start seat (up to twice the table size,
so that ``seat + 1`` needs no modulo)."""
_REGION_BIT: dict[str | None, int] = {region: 1 << i for i, region in enumerate(REGIONS)}
_REGIONS_SPLIT = len(REGIONS) // 2
_REGIONS_LOW_MASK = (1 << _REGIONS_SPLIT) - 1
_REGIONS_HIGH_MASK = (1 << (len(REGIONS) - _REGIONS_SPLIT)) - 1
_BATTLE_IN = {region: Move("battle", region=region) for region in REGIONS}
_FAVOR_ON = {region: Move("favor", region=region) for region in REGIONS}


@dataclass(frozen=True)
class SeatView:
    """Everything one seat may know, and nothing more."""

    seat: int
    edition: str
    players: int
    phase: str
    to_act: int | None
    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    rows: tuple[tuple[str, ...], ...]
    strengths: tuple[int, ...]
    season: str | None
    control: Mapping[str, int]
    favor: str | None
    battle_region: str | None
    battle_marker: int
    passed: frozenset[int]
    discard_pile: tuple[str, ...]
    out_of_game: int
    draw_pile_sizes: tuple[int, ...]
    battles_won: tuple[int, ...]
    winners: tuple[int, ...]
    legal_moves: tuple[Move, ...]
    breakdowns: tuple[tuple[Step, ...], ...] = ()
    """Each seat's strength step by step (:meth:`Game.breakdown`), in seat order."""


_BattleEnd = tuple[
    str | None,
    tuple[list[str], ...],
    str | None,
    tuple[list[str], ...],
    tuple[int, ...],
    int | None,
    str,
    bool,
]
"""A :class:`BattleResult`'s fields as the end of a battle leaves them, with the rows' lists
themselves (never changed again: the next battle starts with new lists). Most battles' results
are never read (random playouts): the result is built from these the first time it is."""


class BattleResult(NamedTuple):
    """How a battle ended, kept after its cards have left the table (a named tuple: one is
    made at the end of every battle, and a frozen dataclass cost several times as much)."""

    region: str | None
    rows: tuple[tuple[str, ...], ...]
    season: str | None
    bishop_removed: tuple[tuple[str, ...], ...]
    strengths: tuple[int, ...]
    winner: int | None
    ended_by: str
    """``"passes"``, ``"bishop"`` (a classic Bishop), or the card that ended it
    (``"turncoat"``, ``"surrender"``)."""
    cards_played: bool
    """False when nobody played a card in the battle."""

    def breakdown(self, seat: int) -> tuple[Step, ...]:
        """``seat``'s strength step by step, as it stood when the battle ended."""
        return breakdown(
            self.rows[seat], self.season, highest_mercenary(self.rows), self.bishop_removed[seat]
        )


class Game:
    """One game of Condottiere. Build it with :meth:`new`, :meth:`setup`, :meth:`replay` or
    :meth:`observe`; drive it with :meth:`play` (and :meth:`resolve` when chance is manual)."""

    # ------------------------------------------------------------------ construction

    def __init__(
        self,
        header: Mapping[str, Any],
        *,
        observer: int | None = None,
        chance: SeededChance | None = None,
    ) -> None:
        """Build a game from a record header; prefer :meth:`new`, :meth:`setup`, :meth:`observe`."""
        name = header["edition"]
        if name not in EDITIONS:
            raise ValueError(f"unknown edition {name!r}; choose one of {', '.join(EDITIONS)}")
        edition = EDITIONS[name]
        players = int(header["players"])
        if not edition.min_players <= players <= edition.max_players:
            span = (
                f"{edition.min_players} to {edition.max_players}"
                if edition.min_players != edition.max_players
                else f"exactly {edition.min_players}"
            )
            raise ValueError(f"{name} is played by {span} players, not {players}")
        options = frozenset(header.get("options", ()))
        edition = edition.with_options(options)
        if observer is not None and observer != SPECTATOR and not 0 <= observer < players:
            raise ValueError(f"seat {observer} is not at a table of {players}")
        self.edition: Edition = edition
        self.players = players
        self._victory = edition.victory(players)
        self.options = options
        self.observer = observer
        self._header = {
            "format": RECORD_FORMAT,
            "edition": name,
            "players": players,
            "options": sorted(options),
            "seed": header.get("seed"),
            "setup": header.get("setup"),
        }
        self._chance_source = chance
        self._events: list[tuple[Any, ...]] = []
        """Every move and chance outcome, as immutable tuples (see :meth:`record`)."""
        self._sampled = False
        decks = 2 if edition.per_seat_decks else 1
        self._deck_total = edition.deck_counter()
        self._deck_order = _in_notation_order(self._deck_total)
        self._hands: list[Counter[str]] = [Counter() for _ in range(players)]
        self._held = [0] * players
        """Per seat, the kinds of card in ``_hands`` as a bit mask (see :func:`_kinds_of`)."""
        self._unknown = [0] * players
        self._sizes = [0] * players
        self._pile_taken: list[list[str]] = [[] for _ in range(decks)]
        """Per draw pile, the cards dealt from it since its epoch began (omniscient games)."""
        self._pile_sizes = [0] * decks
        self._pile_epoch = [0] * decks
        self._pile_start: list[tuple[str, ...]] = [() for _ in range(decks)]
        self._pile_dealt = [0] * decks
        self._discard: list[str] = []
        self._out: list[list[str]] = [[] for _ in range(decks)]
        """Per deck, the cards that have left the game (``zman-duel``)."""
        self._rows: list[list[str]] = [[] for _ in range(players)]
        self._row_mercenaries = [0] * players
        """Per seat, the kinds of mercenary in its row as a bit mask (:func:`_mercenary_kinds`)."""
        self._bishop_removed: list[list[str]] = [[] for _ in range(players)]
        self._season_cards: list[tuple[str, int]] = []
        self._control: dict[str, int] = {}
        self._regions_of = [0] * players
        """Per seat, the regions it controls (``_control``) as a bit mask, one bit a region in
        board order (see :meth:`_take_control`)."""
        self._favor: str | None = None
        self._battle_region: str | None = None
        self._marker = 0
        self._phase = "chance"
        self._to_act: int | None = None
        self._passed: set[int] = set()
        self._played: set[int] = set()
        self._defender: int | None = None
        self._battles_won = [0] * players
        self._winners: tuple[int, ...] = ()
        self._last_battle: BattleResult | _BattleEnd | None = None
        self._final_battle = False
        self._participants: tuple[int, ...] = tuple(range(players))
        self.chance: ChanceNode | None = None
        """The chance node the game waits for, or None."""
        self._chance_queue: list[ChanceNode] = []
        self._after_chance = ""
        self._choices_made = 0
        self._moves_played = 0
        self._next_region: str | None = None
        self._choosing_after_battle = False
        self._cedes = 0
        self._discard_queue: list[int] = []
        self._after_discard = ""
        self._favor_seat = 0
        self._legal: Sequence[Move] | None = None
        setup = self._header["setup"]
        if setup is None:
            self._start_new()
        else:
            self._start_setup(setup)
        self._settle()

    @classmethod
    def new(cls, edition: str, players: int, seed: int, options: Iterable[str] = ()) -> Game:
        """A fresh game with every chance outcome answered from ``seed``."""
        header = {"edition": edition, "players": players, "options": list(options), "seed": seed}
        return cls(header, chance=SeededChance(seed))

    @classmethod
    def setup(
        cls,
        edition: str,
        players: int,
        *,
        hands: Sequence[Sequence[str] | None] | None = None,
        deck: Sequence[str] | Sequence[Sequence[str]] | None = None,
        first: int = 0,
        control: Mapping[str, int] | None = None,
        favor: str | None = None,
        battle: str | None = None,
        seed: int = 0,
        options: Iterable[str] = (),
    ) -> Game:
        """A scenario. ``hands[s]`` is seat s's hand (None: dealt from the seed); ``deck`` the
        draw pile, top first (None: the rest of the edition's deck shuffled from the seed; with
        a deck, cards in neither hands nor deck start in the discard pile; ``zman-duel`` takes
        one deck per seat); ``first`` holds the battle marker; ``battle`` opens the battle in
        that region at once. Chance is answered from ``seed``, as in :meth:`new`.
        """
        spec: dict[str, Any] = {
            "hands": None if hands is None else [None if h is None else list(h) for h in hands],
            "deck": None if deck is None else _deck_lists(edition, deck),
            "first": first,
            "control": dict(control or {}),
            "favor": favor,
            "battle": battle,
        }
        header = {
            "edition": edition,
            "players": players,
            "options": list(options),
            "seed": seed,
            "setup": spec,
        }
        explicit = None if spec["deck"] is None else dict(enumerate(spec["deck"]))
        return cls(header, chance=SeededChance(seed, explicit))

    @classmethod
    def observe(cls, record: Mapping[str, Any], seat: int) -> Game:
        """The engine seat ``seat`` runs on the network: it knows only its own cards.

        ``record`` is a record (its events are ignored) or a record header. Chance is
        manual: a deal to another seat is resolved with ``None`` (only its hand size grows);
        other seats' moves are checked against what they could hold.
        """
        return cls(record, observer=seat)

    @classmethod
    def spectate(cls, record: Mapping[str, Any]) -> Game:
        """An engine that knows no hand at all: what anyone may check of a game from outside.

        Every deal is resolved with ``None`` and every move is checked as in a seat-view
        engine. ``condottiere verify`` folds a game's signed record through one.

        >>> g = Game.spectate({"edition": "zman-duel", "players": 2})
        >>> g.resolve(1)                      # the first battle marker goes to seat 1
        >>> g.resolve(None); g.resolve(None)  # eight cards to each seat, unseen
        >>> g.phase, g.to_act, [g.hand_size(s) for s in range(2)]
        ('battle', 1, [8, 8])
        """
        return cls(record, observer=SPECTATOR)

    @classmethod
    def replay(cls, record: Mapping[str, Any]) -> Game:
        """Rebuild a game from :meth:`record`, move by move and outcome by outcome.

        A record with a seed goes on from its seed, as the original game would have, when the
        seed deals what the record has dealt so far; a record whose deals the seed does not
        give (one made by an engine that shuffled differently) waits for chance outcomes
        instead, so that no card is dealt twice. Raises ValueError when the record does not
        replay to itself.
        """
        if record.get("format") != RECORD_FORMAT:
            raise ValueError(f"not a game record of format {RECORD_FORMAT}")
        game = cls(record)
        for event in record["events"]:
            kind = event[0]
            if kind == "auto":
                continue
            if kind == "move":
                game.play(event[2], reveal=event[3] if len(event) > 3 else None)
            elif kind == "deal":
                game.resolve(event[2])
            elif kind == "choice":
                game.resolve(event[3])
            else:
                raise ValueError(f"unknown event {event!r}")
        if game.record() != _jsonable(record):
            raise ValueError("the record does not replay to the same game")
        seed = record.get("seed")
        if seed is not None:
            setup = record.get("setup")
            deck = None if setup is None else setup.get("deck")
            source = SeededChance(seed, None if deck is None else dict(enumerate(deck)))
            if game._dealt_so_far_by(source):
                game._chance_source = source
                game._settle()
        return game

    def _dealt_so_far_by(self, source: SeededChance) -> bool:
        """Whether ``source`` deals the cards each draw pile has dealt in its epoch so far."""
        for pile, taken in enumerate(self._pile_taken):
            if taken:
                epoch, start = self._pile_epoch[pile], self._pile_start[pile]
                dealt = source.deal(
                    Deal(pile, len(taken)), pile=pile, epoch=epoch, contents=start, dealt=0
                )
                if dealt != tuple(taken):
                    return False
        return True

    # ------------------------------------------------------------------ public state

    @property
    def to_act(self) -> int | None:
        """The seat that must act now; None while chance is pending and when the game is over."""
        return self._to_act

    @property
    def phase(self) -> str:
        return self._phase

    @property
    def control(self) -> dict[str, int]:
        """Control markers on the board: region -> seat."""
        return dict(self._control)

    @property
    def battle_region(self) -> str | None:
        return self._battle_region

    @property
    def battle_marker(self) -> int:
        """The seat holding the battle marker (the Condottiere token)."""
        return self._marker

    @property
    def favor(self) -> str | None:
        """The region holding the Favor marker, or None."""
        return self._favor

    @property
    def season(self) -> str | None:
        """``"winter"``, ``"spring"`` or None: the season card in play."""
        return self._season_cards[-1][0] if self._season_cards else None

    @property
    def season_cards(self) -> tuple[str, ...]:
        """The season cards in play (several Winters may lie together in ``ffg``)."""
        return tuple(card for card, _ in self._season_cards)

    @property
    def passed(self) -> frozenset[int]:
        return frozenset(self._passed)

    @property
    def winners(self) -> tuple[int, ...]:
        return self._winners

    @property
    def last_battle(self) -> BattleResult | None:
        """How the most recent battle ended (rows, strengths, winner), None before the first."""
        ended = self._last_battle
        if ended is None or ended.__class__ is BattleResult:
            return ended
        region, rows, season, removed, scores, winner, ended_by, cards_played = ended
        result = self._last_battle = BattleResult(
            region,
            tuple(map(tuple, rows)),
            season,
            tuple(map(tuple, removed)),
            scores,
            winner,
            ended_by,
            cards_played,
        )
        return result

    @property
    def final_battle(self) -> bool:
        """True during an FFG final battle among the players tied for most regions."""
        return self._final_battle

    @property
    def moves_played(self) -> int:
        """How many moves have been played: the same count in every seat's engine (a forced
        ``keep`` the omniscient table plays itself counts too)."""
        return self._moves_played

    @property
    def choices_made(self) -> int:
        """How many fair random choices have been resolved; the next one has this index."""
        return self._choices_made

    @property
    def waiting(self) -> Waiting:
        """What the game waits for next: a chance node, a seat's move, or None once over."""
        if self.chance is not None:
            return self.chance
        return None if self._to_act is None else SeatToMove(self._to_act)

    @property
    def outcome(self) -> Outcome | None:
        """Who won and how, once the game is over (see :mod:`.outcome`)."""
        return outcome_of(self)

    @staticmethod
    def parse_move(text: str) -> Move:
        """The move ``text`` spells (:meth:`Move.parse`)."""
        return Move.parse(text)

    @staticmethod
    def card_flow(move: Move) -> CardFlow:
        """What ``move`` does to the mover's hidden cards (:func:`.moves.card_flow`)."""
        return card_flow(move)

    @property
    def decks(self) -> tuple[tuple[str, ...], ...]:
        """Every card of each physical deck (one, or one per seat in ``zman-duel``), in
        notation order: draw pile ``p`` is only ever formed from ``decks[p]``.

        A draw pile re-formed at a new epoch (see :meth:`pending_draws`) holds every card
        of its deck that is in no hand.

        >>> [len(deck) for deck in Game.spectate({"edition": "zman-duel", "players": 2}).decks]
        [23, 23]
        """
        return tuple(self._deck_order for _ in self._pile_start)

    def pending_draws(self) -> tuple[Draw, ...]:
        """Where the pending deal and the deals queued behind it take their cards from.

        Empty unless :attr:`chance` is a :class:`Deal`. A dealer outside the rules (the
        mental-poker deck) uses it to know which positions of which shuffled pile to deal.

        >>> g = Game.spectate({"edition": "zman", "players": 3})
        >>> g.resolve(0)
        >>> [(d.deal.seat, d.pile, d.epoch, d.start) for d in g.pending_draws()]
        [(0, 0, 0, 0), (1, 0, 0, 10), (2, 0, 0, 20)]
        """
        if not isinstance(self.chance, Deal):
            return ()
        dealt = list(self._pile_dealt)
        draws = []
        for deal in (self.chance, *self._chance_queue):
            assert isinstance(deal, Deal)  # a deal round queues deals only
            pile = self._deck_of(deal.seat)
            draws.append(Draw(deal, pile, self._pile_epoch[pile], dealt[pile]))
            dealt[pile] += deal.count
        return tuple(draws)

    @property
    def discard_pile(self) -> tuple[str, ...]:
        return sort_cards(self._discard)

    @property
    def out_of_game(self) -> tuple[str, ...]:
        """Cards that have left the game (``zman-duel``: every played card)."""
        return sort_cards(chain.from_iterable(self._out))

    @property
    def draw_piles(self) -> tuple[tuple[str, ...], ...]:
        """The contents of each draw pile (sorted, not in order). Omniscient games only."""
        self._require_omniscient("the draw pile")
        piles = range(len(self._pile_start))
        return tuple(sort_cards(self._pile_contents(pile).elements()) for pile in piles)

    @property
    def draw_pile_sizes(self) -> tuple[int, ...]:
        return tuple(self._pile_sizes)

    @property
    def battles_won(self) -> tuple[int, ...]:
        """Per seat: battles won (``zman-duel``) or regions controlled (the other editions)."""
        if not self.edition.board:
            return tuple(self._battles_won)
        return tuple(map(int.bit_count, self._regions_of))

    def hand(self, seat: int) -> tuple[str, ...]:
        """``seat``'s hand in notation order (a seat-view engine knows only its own)."""
        if self._unknown[seat]:
            raise ValueError(f"{self._observer_name()} cannot see seat {seat}'s hand")
        return sort_cards(self._hands[seat].elements())

    def hand_size(self, seat: int) -> int:
        return self._sizes[seat]

    def row(self, seat: int) -> tuple[str, ...]:
        """The cards in ``seat``'s battle line, in the order they were played."""
        return tuple(self._rows[seat])

    def strength(self, seat: int) -> int:
        return strength(self._rows[seat], self.season, highest_mercenary(self._rows))

    def breakdown(self, seat: int) -> tuple[Step, ...]:
        """How ``seat``'s strength comes about, step by step (Bishop, Winter, Drummer, Spring,
        then Heroine/Spy/Courtesan); the last step's total is :meth:`strength`."""
        return breakdown(
            self._rows[seat], self.season, highest_mercenary(self._rows), self._bishop_removed[seat]
        )

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know: its own hand, and the public state."""
        own = self._unknown[seat] == 0 and (self.observer is None or self.observer == seat)
        if not own:
            raise ValueError(f"this engine does not know seat {seat}'s hand")
        return SeatView(
            seat=seat,
            edition=self.edition.name,
            players=self.players,
            phase=self._phase,
            to_act=self._to_act,
            hand=self.hand(seat),
            hand_sizes=tuple(self._sizes),
            rows=tuple(map(tuple, self._rows)),
            strengths=tuple(self.strength(s) for s in range(self.players)),
            season=self.season,
            control=dict(self._control),
            favor=self._favor,
            battle_region=self._battle_region,
            battle_marker=self._marker,
            passed=frozenset(self._passed),
            discard_pile=self.discard_pile,
            out_of_game=sum(map(len, self._out)),
            draw_pile_sizes=tuple(self._pile_sizes),
            battles_won=self.battles_won,
            winners=self._winners,
            legal_moves=tuple(self.legal_moves()) if self._to_act == seat else (),
            breakdowns=tuple(map(self.breakdown, range(self.players))),
        )

    def record(self) -> dict[str, Any]:
        """The game as plain JSON-serialisable data: its header and every event so far.

        A :meth:`determinise` sample has none: its hidden cards were sampled, not dealt.
        """
        if self._sampled:
            raise ValueError("a determinised sample has no record: its hidden cards were sampled")
        return {**self._header, "events": [_event_json(event) for event in self._events]}

    def copy(self) -> Game:
        """An independent copy (for bots that look ahead)."""
        _ = self.last_battle  # built here once, so that the copy shares it (compared by identity)
        other = object.__new__(Game)
        other.__dict__.update(self.__dict__)
        other._events = list(self._events)
        other._hands = [_copied(hand) for hand in self._hands]
        other._held = list(self._held)
        other._unknown = list(self._unknown)
        other._sizes = list(self._sizes)
        other._pile_taken = [list(taken) for taken in self._pile_taken]
        other._pile_sizes = list(self._pile_sizes)
        other._pile_epoch = list(self._pile_epoch)
        other._pile_start = list(self._pile_start)
        other._pile_dealt = list(self._pile_dealt)
        other._discard = list(self._discard)
        other._out = [list(out) for out in self._out]
        other._rows = [list(row) for row in self._rows]
        other._row_mercenaries = list(self._row_mercenaries)
        other._bishop_removed = [list(row) for row in self._bishop_removed]
        other._season_cards = list(self._season_cards)
        other._control = dict(self._control)
        other._regions_of = list(self._regions_of)
        other._passed = set(self._passed)
        other._played = set(self._played)
        other._battles_won = list(self._battles_won)
        other._chance_queue = list(self._chance_queue)
        other._discard_queue = list(self._discard_queue)
        other._legal = None
        return other

    # ------------------------------------------------------------------ knowledge and samples

    def follow(self, events: Iterable[Sequence[Any]]) -> None:
        """Fold in ``events`` of a record that saw more (the open table's), as this engine's
        observer is told them: another seat's dealt cards become a count, and a forced ``keep``
        the open table played itself is played here.

        >>> table = Game.new("zman", players=3, seed=2)
        >>> view = Game.observe(table.record(), seat=1)
        >>> view.follow(table.record()["events"])
        >>> view.hand(1) == table.hand(1), view.hand_size(0)
        (True, 10)
        """
        for event in events:
            kind = event[0]
            if kind == "choice":
                self.resolve(event[3])
            elif kind == "deal":
                self.resolve(event[2] if self._knows_hand(event[1]) else None)
            elif kind == "move":
                self.play(event[2], reveal=event[3] if len(event) > 3 else None)
            elif kind == "auto":
                if self.observer is not None:
                    self.play(event[2])
            else:
                raise ValueError(f"unknown event {event!r}")

    def seen_by(self, seat: int) -> Game:
        """The engine ``seat`` would be running now (as on the network): this game's record
        folded through :meth:`observe` and :meth:`follow`. It knows ``seat``'s hand, the
        public state, and the cards shown to everyone; nothing else.

        >>> table = Game.new("zman-duel", players=2, seed=4)
        >>> view = table.seen_by(0)
        >>> view.observer, view.hand(0) == table.hand(0), view.legal_moves() == table.legal_moves()
        (0, True, True)
        """
        record = self.record()
        view = Game.observe(record, seat)
        view.follow(record["events"])
        return view

    def unseen_cards(self, pile: int = 0) -> tuple[str, ...]:
        """The cards of draw pile ``pile``'s deck this engine has seen nowhere, in notation
        order: what the draw pile and the hidden part of every hand dealt from it are made of.

        >>> g = Game.setup("zman-duel", players=2, hands=[["10", "10"], ["1"]],
        ...                deck=[["6", "5"], ["2"]])
        >>> g.seen_by(0).unseen_cards(0), g.seen_by(1).unseen_cards(0)
        (('5', '6'), ('5', '6', '10', '10'))
        """
        deck = self._deck_total
        seen = self._seen_in(pile)
        return tuple(
            card for card in sort_cards(deck) for _ in range(deck[card] - seen.get(card, 0))
        )

    def known_cards(self, seat: int) -> tuple[str, ...]:
        """The cards this engine knows to be in ``seat``'s hand, in notation order: all of them
        for a hand it sees; for another seat's, those shown to everyone (a mercenary a
        Scarecrow took back, FFG's retained cards). :meth:`hidden_count` counts the rest.

        >>> g = Game.setup("zman", 2, hands=[["10", "scarecrow"], ["2"]], battle="Firenze")
        >>> g.play("play 10"); g.play("pass"); g.play("play scarecrow 10")
        >>> view = g.seen_by(1)
        >>> view.known_cards(0), view.hidden_count(0), view.hidden_count(1)
        (('10',), 0, 0)
        """
        return sort_cards(self._hands[seat].elements())

    def hidden_count(self, seat: int) -> int:
        """How many of ``seat``'s cards this engine does not know (0 for a hand it sees)."""
        return self._unknown[seat]

    def determinise(self, rng: random.Random) -> Game:
        """A complete open-table game consistent with everything this engine knows, sampled
        with ``rng``: the unseen cards of each deck (:meth:`unseen_cards`) are shuffled and
        dealt into the hidden part of every hand (cards known to be in a hand stay there), the
        rest form the draw pile, and later chance (deals, fair choices) is answered from a seed
        drawn from ``rng``. Every consistent deal is equally likely.

        Run on a seat's engine (:meth:`observe`, :meth:`seen_by`), it is what that seat may
        imagine; on an open table it keeps every hand and reshuffles the draw pile. The sample
        is for looking ahead: it has no :meth:`record`, and :meth:`pending_draws` count from
        the sample's own shuffle.

        >>> import random
        >>> view = Game.new("zman", players=3, seed=8).seen_by(2)
        >>> sample = view.determinise(random.Random(1))
        >>> sample.observer, sample.hand(2) == view.hand(2), len(sample.hand(0))
        (None, True, 10)
        """
        sample = self.copy()
        sample.observer = None
        sample._sampled = True
        sample._events = []
        sample._chance_source = SeededChance(rng.getrandbits(64))
        for pile in range(len(self._pile_start)):
            pool = list(self.unseen_cards(pile))
            rng.shuffle(pool)
            taken = 0
            for seat in self._seats_drawing_from(pile):
                hidden = self._unknown[seat]
                if hidden:
                    sample._hands[seat].update(pool[taken : taken + hidden])
                    sample._held[seat] = _kinds_of(sample._hands[seat])
                    sample._unknown[seat] = 0
                    taken += hidden
            rest = pool[taken:]
            if len(rest) != self._pile_sizes[pile]:
                raise AssertionError(
                    f"{len(pool)} unseen cards for {taken} hidden ones and a draw pile of "
                    f"{self._pile_sizes[pile]}: this engine has lost track of its cards"
                )
            sample._pile_taken[pile] = []
            sample._pile_start[pile] = sort_cards(rest)
            sample._pile_dealt[pile] = 0
        if sample.chance is not None:
            sample._settle()
        # else the sample stands where this engine stands, even before a `keep` that its
        # dealt hand forces (an open table plays those itself once play resumes)
        return sample

    def _seats_drawing_from(self, pile: int) -> range:
        return range(pile, pile + 1) if self.edition.per_seat_decks else range(self.players)

    def _seen_in(self, pile: int) -> Counter[str]:
        """Every card of pile ``pile``'s deck this engine has seen, wherever it lies now."""
        seen = Counter(self._out[pile])
        if not self.edition.per_seat_decks:
            seen.update(self._discard)
        for seat in self._seats_drawing_from(pile):
            seen.update(self._hands[seat])
            seen.update(self._rows[seat])
        seen.update(
            card for card, owner in self._season_cards if owner in self._seats_drawing_from(pile)
        )
        return seen

    def __repr__(self) -> str:
        return (
            f"<Game {self.edition.name} players={self.players} phase={self._phase} "
            f"to_act={self._to_act} events={len(self._events)}>"
        )

    # ------------------------------------------------------------------ moves

    def legal_moves(self) -> list[Move]:
        """The moves ``to_act`` may play now (as far as this engine can know them)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate_moves()
        return list(legal)

    def play(self, move: str | Move, *, reveal: Sequence[str] | None = None) -> None:
        """Play ``move`` for :attr:`to_act`.

        ``reveal`` gives the cards of a hand another seat discards (seat-view engines only).
        Raises :class:`InvalidMoveError` for text that is not a move and
        :class:`IllegalMoveError` for a move not legal now; the state is unchanged after either.
        """
        if move.__class__ is not Move:
            if isinstance(move, str):
                move = Move.parse(move)
            elif not isinstance(move, Move):
                raise InvalidMoveError(f"{move!r} is not a move")
        seat = self._to_act
        if seat is None:
            raise IllegalMoveError(
                "the game is over"
                if self._phase == "over"
                else "the game waits for a chance outcome"
            )
        if move.target_seat == seat and move.verb == "play":
            move = _play(str(move.card), move.target)
        if self.observer is None or self.observer == seat:
            legal = self._legal
            if legal is None:
                legal = self._legal = self._generate_moves()
            # The moves legal_moves() handed out are these very objects: try identity first.
            for candidate in legal:
                if candidate is move:
                    break
            else:
                if move not in legal:
                    raise IllegalMoveError(self._why_illegal(move, seat))
            revealed = sort_cards(self._hands[seat].elements()) if move.verb == "discard" else None
        else:
            revealed = self._check_hidden_move(move, seat, reveal)
        self._legal = None
        self._moves_played += 1
        self._events.append(
            ("move", seat, move) if revealed is None else ("move", seat, move, revealed)
        )
        if move.verb == "play":
            self._play_card(seat, move)
        else:
            self._apply(move, seat, revealed)
        if self.chance is not None:
            self._settle()

    def resolve(self, outcome: Sequence[str] | int | None) -> None:
        """Answer the pending chance node: the dealt cards (None for a deal to another seat in
        a seat-view engine), or the chosen seat."""
        node = self.chance
        if node is None:
            raise ValueError("no chance outcome is awaited")
        if isinstance(node, Choice):
            if not isinstance(outcome, int) or outcome not in node.seats:
                raise ValueError(f"the {node.purpose} must be one of seats {node.seats}")
            self._choose(node, outcome)
        else:
            self._deal(node, self._check_deal(node, outcome))
        self._settle()

    def _choose(self, node: Choice, seat: int) -> None:
        """Apply a checked fair choice."""
        self._choices_made += 1
        self._events.append(("choice", node.purpose, node.seats, seat))
        self._next_chance()
        self._continue(seat)
        self._legal = None

    def _deal(self, node: Deal, cards: tuple[str, ...] | None) -> None:
        """Apply a checked deal (None: cards this engine may not see)."""
        self._events.append(("deal", node.seat, node.count if cards is None else cards))
        self._give(node.seat, self._deck_of(node.seat), node.count, cards)
        self._next_chance()
        if self.chance is None:
            self._continue(None)
        self._legal = None

    # ------------------------------------------------------------------ start

    def _start_new(self) -> None:
        for pile in range(len(self._pile_start)):
            self._fill_pile(pile, self._deck_order)
        self._ask_choice(tuple(range(self.players)), "first battle marker", "_first_marker")

    def _first_marker(self, seat: int) -> None:
        self._marker = seat
        self._deal_round("_round_dealt")

    def _round_dealt(self, _: object = None) -> None:
        if self.edition.board:
            self._open_choice()
        else:
            self._begin_battle(None)

    def _start_setup(self, spec: Mapping[str, Any]) -> None:
        edition = self.edition
        n = self.players
        hands = spec.get("hands") or [None] * n
        if len(hands) != n:
            raise ValueError(f"give {n} hands (None for a hand dealt from the seed)")
        decks = spec.get("deck")
        per_deck = [Counter(self._deck_total) for _ in self._pile_start]
        for seat, hand in enumerate(hands):
            if hand is None:
                continue
            cards = Counter(_checked_cards(hand))
            if self.observer is None or self.observer == seat:
                self._hands[seat] = cards
                self._held[seat] = _kinds_of(cards)
            else:
                self._unknown[seat] = cards.total()
            self._sizes[seat] = cards.total()
            self._subtract(
                per_deck[seat if edition.per_seat_decks else 0], cards, f"seat {seat}'s hand"
            )
        for pile, rest in enumerate(per_deck):
            if decks is None:
                self._fill_pile(pile, _in_notation_order(rest))
                continue
            if len(decks) != len(per_deck):
                raise ValueError(
                    "zman-duel takes one deck per seat"
                    if edition.per_seat_decks
                    else "give one deck"
                )
            deck = Counter(_checked_cards(decks[pile]))
            self._subtract(rest, deck, "the deck")
            self._fill_pile(pile, _in_notation_order(deck))
            (self._out[pile] if edition.per_seat_decks else self._discard).extend(rest.elements())
        first = spec.get("first", 0)
        if not (isinstance(first, int) and 0 <= first < n):
            raise ValueError(f"first must be a seat from 0 to {n - 1}")
        self._marker = first
        for region, seat in (spec.get("control") or {}).items():
            name = self._region(region)
            if not (isinstance(seat, int) and 0 <= seat < n):
                raise ValueError(f"{name} cannot be controlled by seat {seat}")
            self._take_control(name, seat)
        if spec.get("favor") is not None:
            self._favor = self._region(spec["favor"])
            if self.edition.favor == "none":
                raise ValueError(
                    f"{self.edition.name} has no Favor marker: its Bishop never places it"
                )
            if self._favor in self._control:
                holder = self._control[self._favor]
                raise ValueError(
                    f"the Favor cannot lie on {self._favor}: it is held by seat {holder}"
                )
        if spec.get("battle") is not None:
            region = self._region(spec["battle"])
            if region not in self._battle_sites():
                raise ValueError(f"no battle may be fought in {region} now")
            self._next_region = region
        deals = [
            Deal(seat, edition.hand_size + edition.bonus_per_region * self.battles_won[seat])
            for seat, hand in enumerate(hands)
            if hand is None
        ]
        self._ask_deals(deals, "_setup_dealt")

    def _setup_dealt(self, _: object = None) -> None:
        if self._next_region is not None:
            self._begin_chosen_battle()
        else:
            self._round_dealt()

    def _region(self, name: str) -> str:
        if not self.edition.board:
            raise ValueError(f"{self.edition.name} has no board")
        region = region_named(name)
        if region is None:
            raise ValueError(f"there is no region called {name!r}")
        return region

    @staticmethod
    def _subtract(available: Counter[str], cards: Counter[str], what: str) -> None:
        for card, count in cards.items():
            if available[card] < count:
                raise ValueError(f"{what} holds more {card_name(card)} cards than the deck has")
        available.subtract(cards)

    # ------------------------------------------------------------------ chance plumbing

    def _ask_choice(self, seats: tuple[int, ...], purpose: str, then: str) -> None:
        if len(seats) == 1:
            getattr(self, then)(seats[0])
            return
        self._chance_queue = [Choice(seats, purpose)]
        self._after_chance = then
        self._next_chance()

    def _ask_deals(self, deals: list[Deal], then: str) -> None:
        self._chance_queue = [deal for deal in deals if deal.count > 0]
        self._after_chance = then
        if not self._chance_queue:
            getattr(self, then)(None)
            return
        self._next_chance()

    def _next_chance(self) -> None:
        if self._chance_queue:
            self.chance = self._chance_queue.pop(0)
            self._phase = "chance"
            self._to_act = None
        else:
            self.chance = None

    def _continue(self, outcome: object) -> None:
        then, self._after_chance = self._after_chance, ""
        getattr(self, then)(outcome)

    def _settle(self) -> None:
        """Answer chance from the seed, if the game has one."""
        if self._chance_source is None:
            return
        while self.chance is not None:
            self._answer_from_seed(self.chance)

    def _answer_from_seed(self, node: ChanceNode) -> None:
        source = self._chance_source
        assert source is not None
        # The seeded source deals from this engine's own draw pile: its answers need no check.
        if isinstance(node, Choice):
            self._choose(node, source.choose(node, index=self._choices_made))
            return
        pile = self._deck_of(node.seat)
        cards = source.deal(
            node,
            pile=pile,
            epoch=self._pile_epoch[pile],
            contents=self._pile_start[pile],
            dealt=self._pile_dealt[pile],
        )
        self._deal(node, cards)

    def _check_deal(self, node: Deal, outcome: object) -> tuple[str, ...] | None:
        pile = self._deck_of(node.seat)
        if node.count > self._pile_sizes[pile]:
            raise ValueError("the draw pile is too small for this deal")
        if outcome is None:
            if self._knows_hand(node.seat):
                raise ValueError(f"a deal to seat {node.seat} needs its cards")
            return None
        if isinstance(outcome, str | int) or len(outcome) != node.count:  # type: ignore[arg-type]
            raise ValueError(f"deal {node.count} cards to seat {node.seat}")
        cards = tuple(_checked_cards(outcome))  # type: ignore[arg-type]
        if self.observer is None:
            in_pile = self._pile_contents(pile)
            if any(in_pile[c] < k for c, k in Counter(cards).items()):
                raise ValueError("those cards are not in the draw pile")
        elif not self._knows_hand(node.seat):
            raise ValueError(f"{self._observer_name()} may not see seat {node.seat}'s cards")
        else:
            for card, count in Counter(cards).items():
                if self._unseen(card, pile) < count:
                    raise ValueError(f"no {card_name(card)} can be left in the draw pile")
        return cards

    def _fill_pile(self, pile: int, cards: tuple[str, ...]) -> None:
        """Re-form draw pile ``pile`` from ``cards``, in notation order."""
        if self.observer is None:
            self._pile_start[pile] = cards
            self._pile_taken[pile] = []
        self._pile_sizes[pile] = len(cards)
        self._pile_dealt[pile] = 0

    def _give(self, seat: int, pile: int, count: int, cards: Sequence[str] | None) -> None:
        self._pile_sizes[pile] -= count
        self._pile_dealt[pile] += count
        self._sizes[seat] += count
        if cards is None:
            self._unknown[seat] += count
            return
        hand = self._hands[seat]
        hand.update(cards)
        self._held[seat] = _kinds_of(hand)
        if self.observer is None:
            self._pile_taken[pile] += cards

    def _pile_contents(self, pile: int) -> Counter[str]:
        """What draw pile ``pile`` holds now (omniscient games): its cards when its epoch began
        but those dealt since."""
        contents = Counter(self._pile_start[pile])
        contents.subtract(self._pile_taken[pile])
        return +contents

    def _gather(self, *, keep_hands: bool) -> None:
        """Every card not in a hand goes back into the (single) draw pile, reshuffled."""
        if not keep_hands:
            for seat in range(self.players):
                self._hands[seat].clear()
                self._held[seat] = 0
                self._unknown[seat] = 0
                self._sizes[seat] = 0
        self._discard.clear()
        if self.observer is None:
            if any(self._sizes):
                rest = Counter(self._deck_total)
                for hand in self._hands:
                    rest.subtract(hand)
                self._fill_pile(0, _in_notation_order(rest))
            else:
                self._fill_pile(0, self._deck_order)
        else:
            self._pile_sizes[0] = self.edition.deck_size - sum(self._sizes)
            self._pile_dealt[0] = 0
        self._pile_epoch[0] += 1

    def _deal_round(self, then: str) -> None:
        edition = self.edition
        regions = self.battles_won
        deals = []
        for seat in range(self.players):
            if edition.per_seat_decks:
                count = min(edition.hand_size - self._sizes[seat], self._pile_sizes[seat])
            elif self._final_battle and seat not in self._participants:
                count = 0
            else:
                count = (
                    edition.hand_size + edition.bonus_per_region * regions[seat] - self._sizes[seat]
                )
            deals.append(Deal(seat, max(count, 0)))
        self._ask_deals(deals, then)

    # ------------------------------------------------------------------ battle

    def _battle_sites(self) -> tuple[str, ...]:
        if self.edition.battle_in_owned:
            return _regions_but(_REGION_BIT.get(self._favor, 0))
        return _regions_but(_REGION_BIT.get(self._favor, 0) | sum(self._regions_of))

    def _open_choice(self) -> None:
        sites = self._battle_sites()
        if not sites:
            self._no_region_left()
            return
        self._cedes = 0
        if len(sites) == 1 and not self._may_cede():
            self._open_battle(sites[0])
            return
        self._phase = "battle-choice"
        self._to_act = self._marker

    def _open_battle(self, region: str) -> None:
        if self._choosing_after_battle:
            self._choosing_after_battle = False
            self._next_region = region
            self._clear_battle()
            self._start_discard_step("_ffg_round_end")
        else:
            self._begin_battle(region)

    def _begin_battle(self, region: str | None, first: int | None = None) -> None:
        self._phase = "battle"
        self._battle_region = region
        participants = self._participants
        self._passed = (
            set()
            if len(participants) == self.players
            else {seat for seat in range(self.players) if seat not in participants}
        )
        self._played = set()
        self._defender = None
        if region is not None and self.edition.owner_defends:
            self._defender = self._control.get(region)
        self._next_turn(self._marker if first is None else first)

    def _next_turn(self, start: int) -> None:
        passed = self._passed
        sizes = self._sizes
        for seat in _CLOCKWISE[self.players][start]:
            if seat in passed:
                continue
            if not sizes[seat]:
                passed.add(seat)
                continue
            self._phase = "battle"
            self._to_act = seat
            return
        self._end_battle("passes")

    def _apply(self, move: Move, seat: int, revealed: Sequence[str] | None) -> None:
        """Apply a checked move other than ``play`` (see :meth:`_play_card`)."""
        verb = move.verb
        if verb == "pass":
            self._pass(seat)
        elif verb == "battle":
            self._open_battle(str(move.region))
        elif verb == "cede":
            self._cedes += 1
            self._marker = (self._marker + 1) % self.players
            self._to_act = self._marker
        elif verb == "favor":
            self._favor = move.region
            self._next_turn(self._favor_seat + 1)
        elif verb == "discard":
            self._discard_hand(seat, revealed or ())
            self._continue_discard()
        elif verb == "keep":
            self._continue_discard()
        elif verb == "retain":
            self._retain(seat, move.cards)

    def _deck_of(self, seat: int) -> int:
        return seat if self.edition.per_seat_decks else 0

    def _throw_away(self, card: str, owner: int) -> None:
        """A card leaves the table: to the discard pile, or out of the game in ``zman-duel``."""
        if self.edition.per_seat_decks:
            self._out[owner].append(card)
        else:
            self._discard.append(card)

    def _play_card(self, seat: int, move: Move) -> None:
        card: str = move.card  # type: ignore[assignment]
        edition = self.edition
        hand = self._hands[seat]
        count = hand.get(card, 0)
        if count > 1:
            hand[card] = count - 1
        elif count:
            hand.pop(card)
            self._held[seat] ^= _CARD_BIT[card]
        else:
            self._unknown[seat] -= 1
        self._sizes[seat] -= 1
        self._played.add(seat)
        if card in MERCENARY_VALUE:
            self._rows[seat].append(card)
            self._row_mercenaries[seat] |= _CARD_BIT[card]
        elif card in SEASONS:
            kept = []
            for season_card, owner in self._season_cards:
                if edition.seasons_replace or season_card != card:
                    self._throw_away(season_card, owner)
                else:
                    kept.append((season_card, owner))
            self._season_cards = [*kept, (card, seat)]
        elif card == "bishop":
            self._rows[seat].append(card)
            if edition.bishop == "ends-battle":
                self._end_battle("bishop")
                return
            self._bishop_discards()
            if not edition.specials_stay_in_row:
                self._rows[seat].pop()
                self._throw_away(card, seat)
            if self._ask_favor(seat):
                return
        elif card == "scarecrow":
            if move.target is not None:
                source = seat if move.target_seat is None else move.target_seat
                row = self._rows[source]
                row.remove(move.target)
                self._row_mercenaries[source] = _mercenary_kinds(row)
                self._hands[seat][move.target] += 1
                self._held[seat] |= _CARD_BIT[move.target]
                self._sizes[seat] += 1
            if edition.specials_stay_in_row:
                self._rows[seat].append(card)
            else:
                self._throw_away(card, seat)
        else:
            self._rows[seat].append(card)
            if card == edition.ends_battle:
                self._end_battle(card)
                return
        self._next_turn(seat + 1)

    def _bishop_discards(self) -> None:
        highest = highest_mercenary(self._rows)
        if not highest:
            return
        for owner, row in enumerate(self._rows):
            removed = [card for card in row if MERCENARY_VALUE.get(card) == highest]
            if removed:
                row[:] = [card for card in row if MERCENARY_VALUE.get(card) != highest]
                self._row_mercenaries[owner] = _mercenary_kinds(row)
                self._bishop_removed[owner] = [*self._bishop_removed[owner], *removed]
                for card in removed:
                    self._throw_away(card, owner)

    def _favor_sites(self) -> tuple[str, ...]:
        return _regions_but(_REGION_BIT.get(self._battle_region, 0) | sum(self._regions_of))

    def _ask_favor(self, seat: int) -> bool:
        """Take the Favor up and have ``seat`` place it; False when nobody needs to be asked."""
        favor = self.edition.favor
        if favor == "none" or self._final_battle:
            return False
        self._favor = None
        sites = self._favor_sites()
        choices = len(sites) + (favor == "uncontrolled-or-off")
        if choices == 0:
            return False
        if choices == 1:
            self._favor = sites[0] if sites else None
            return False
        self._phase = "favor"
        self._to_act = seat
        self._favor_seat = seat
        return True

    def _pass(self, seat: int) -> None:
        if seat == self._defender and seat not in self._played:
            if not any(
                other != seat and other not in self._passed and self._sizes[other] > 0
                for other in range(self.players)
            ):
                self._end_battle("passes")
                return
        else:
            self._passed.add(seat)
        self._next_turn(seat + 1)

    # ------------------------------------------------------------------ end of battle

    def _end_battle(self, ended_by: str) -> None:
        edition = self.edition
        self._to_act = None
        region = self._battle_region
        bishop = ended_by == "bishop"
        season = self.season
        scores = strengths(self._rows, season)
        winner: int | None = None
        tied: tuple[int, ...] = ()
        if not bishop:
            participants = self._participants
            contested = list(map(scores.__getitem__, participants))
            best = max(contested)
            tied = tuple(compress(participants, map(best.__eq__, contested)))
            if len(tied) == 1:
                winner = tied[0]
        self._last_battle = (
            region,
            tuple(self._rows),
            season,
            tuple(self._bishop_removed),
            scores,
            winner,
            ended_by,
            bool(self._played),
        )
        if self._final_battle:
            self._finish(tied)
            return
        if winner is not None:
            if region is not None:
                self._take_control(region, winner)
            if not edition.board:
                self._battles_won[winner] += 1
            if self._has_won(winner):
                self._finish((winner,))
                return
        majority = self._marker_majority()
        if majority is not None:
            self._marker_settled(majority)
        elif winner is not None:
            self._marker_settled(winner)
        elif edition.tie_marker == "next-clockwise":
            self._marker_settled((self._marker + 1) % self.players)
        elif edition.tie_marker == "holder-or-owner":
            owner = None if region is None else self._control.get(region)
            self._marker_settled(self._marker if owner is None else owner)
        elif bishop:
            self._ask_choice(
                tuple(range(self.players)), "battle marker after a Bishop", "_marker_settled"
            )
        else:
            self._ask_choice(tied, "battle marker after a tie", "_marker_settled")

    def _marker_majority(self) -> int | None:
        card = self.edition.marker_card
        if card is None:
            return None
        counts = list(map(list.count, self._rows, repeat(card)))
        best = max(counts)
        if best == 0 or counts.count(best) > 1:
            return None
        return counts.index(best)

    def _has_won(self, seat: int) -> bool:
        victory = self._victory
        if not self.edition.board:
            return self._battles_won[seat] >= victory.connected
        regions = self._regions_of[seat]
        held = regions.bit_count()
        if victory.total is not None and held >= victory.total:
            return True
        return held >= victory.connected and _largest_group(regions) >= victory.connected

    def _take_control(self, region: str, seat: int) -> None:
        """``seat`` takes control of ``region``, from whoever held it."""
        bit = _REGION_BIT[region]
        previous = self._control.get(region)
        if previous is not None:
            self._regions_of[previous] &= ~bit
        self._control[region] = seat
        self._regions_of[seat] |= bit

    def _finish(self, winners: Iterable[int]) -> None:
        self._winners = tuple(sorted(winners))
        self._phase = "over"
        self._to_act = None

    def _marker_settled(self, seat: int) -> None:
        self._marker = seat
        if self.edition.choice_after_compare:
            self._choosing_after_battle = True
            self._open_choice()
            return
        self._clear_battle()
        if self.edition.per_seat_decks:
            self._deal_round("_duel_drawn")
        else:
            self._start_discard_step("_round_end")

    def _clear_battle(self) -> None:
        rows = self._rows
        if self.edition.per_seat_decks:
            for out, row in zip(self._out, rows, strict=True):
                out += row
        else:
            self._discard.extend(chain.from_iterable(rows))
        self._rows = [[] for _ in rows]
        self._row_mercenaries = [0] * self.players
        for card, owner in self._season_cards:
            self._throw_away(card, owner)
        self._season_cards = []
        if any(self._bishop_removed):
            self._bishop_removed = [[] for _ in range(self.players)]
        self._battle_region = None
        self._passed = set()
        self._played = set()
        self._defender = None

    def _duel_drawn(self, _: object = None) -> None:
        out_of_cards = [
            seat for seat in range(self.players) if not self._sizes[seat] + self._pile_sizes[seat]
        ]
        ended = self._last_battle  # its last field, in both forms, is cards_played
        stalled = ended is not None and not ended[-1]
        if len(out_of_cards) == self.players or stalled:
            leaders = _most(self._battles_won)
            self._finish(leaders if len(leaders) == 1 else ())
            return
        self._begin_battle(None)

    def _no_region_left(self) -> None:
        tied = _most(self.battles_won)
        if self.edition.no_region_left == "final-battle" and len(tied) > 1:
            self._clear_battle()
            self._final_battle = True
            self._participants = tied
            self._gather(keep_hands=False)
            self._deal_round("_final_dealt")
            return
        self._finish(tied)

    def _final_dealt(self, _: object = None) -> None:
        left = _CLOCKWISE[self.players][self._marker + 1]
        self._begin_battle(None, next(seat for seat in left if seat in self._participants))

    # ------------------------------------------------------------------ hands and rounds

    def _start_discard_step(self, then: str) -> None:
        self._discard_queue = list(_CLOCKWISE[self.players][self._marker])
        self._after_discard = then
        self._continue_discard()

    def _continue_discard(self) -> None:
        """Ask the next seat of the discard step, keeping a known hand with a mercenary (it has
        no choice) without asking."""
        queue = self._discard_queue
        sizes = self._sizes
        if len(sizes) - sizes.count(0) >= 2:  # else nobody is asked (no hand changes here)
            held = self._held if self.observer is None else None
            while queue:
                seat = queue.pop(0)
                if not sizes[seat]:
                    continue
                if held is None or not held[seat] & _MERCENARY_BITS:
                    self._phase = "discard"
                    self._to_act = seat
                    return
                self._events.append(("auto", seat, "keep"))
                self._moves_played += 1
        self._discard_queue = []
        self._to_act = None
        then, self._after_discard = self._after_discard, ""
        getattr(self, then)()

    def _discard_hand(self, seat: int, cards: Sequence[str]) -> None:
        self._discard += cards
        self._hands[seat].clear()
        self._held[seat] = 0
        self._unknown[seat] = 0
        self._sizes[seat] = 0

    def _round_end(self) -> None:
        if len(self._sizes) - self._sizes.count(0) <= 1:
            self._gather(keep_hands=False)
            self._deal_round("_round_dealt")
        else:
            self._open_choice()

    def _ffg_round_end(self) -> None:
        holders = [seat for seat in range(self.players) if self._sizes[seat]]
        if len(holders) == 1:
            self._phase = "retain"
            self._to_act = holders[0]
        elif not holders:
            self._ffg_refill()
        else:
            self._begin_chosen_battle()

    def _retain(self, seat: int, cards: Sequence[str]) -> None:
        self._hands[seat] = Counter(cards)
        self._held[seat] = _kinds_of(cards)
        self._unknown[seat] = 0
        self._sizes[seat] = len(cards)
        self._ffg_refill()

    def _ffg_refill(self) -> None:
        self._to_act = None
        self._gather(keep_hands=True)
        self._deal_round("_begin_chosen_battle")

    def _begin_chosen_battle(self, _: object = None) -> None:
        region, self._next_region = self._next_region, None
        self._begin_battle(region)

    # ------------------------------------------------------------------ knowledge

    def _knows_hand(self, seat: int) -> bool:
        return self.observer is None or self.observer == seat

    def _require_omniscient(self, what: str) -> None:
        if self.observer is not None:
            raise ValueError(f"{self._observer_name()} cannot see {what}")

    def _observer_name(self) -> str:
        return "a spectator" if self.observer == SPECTATOR else f"seat {self.observer}"

    def _has_mercenary(self, seat: int) -> bool:
        return bool(self._held[seat] & _MERCENARY_BITS)

    def _unseen(self, card: str, deck: int) -> int:
        """How many copies of ``card`` of deck ``deck`` this engine has not seen anywhere."""
        per_seat = self.edition.per_seat_decks
        seen = self._out[deck].count(card)
        if not per_seat:
            seen += self._discard.count(card)
        for seat in range(self.players):
            if per_seat and seat != deck:
                continue
            seen += self._hands[seat][card] + self._rows[seat].count(card)
        seen += sum(
            1
            for season_card, owner in self._season_cards
            if season_card == card and (not per_seat or owner == deck)
        )
        return self._deck_total[card] - seen

    def _could_hold(self, seat: int, card: str, count: int = 1) -> bool:
        known = self._hands[seat][card]
        if known >= count:
            return True
        missing = count - known
        return self._unknown[seat] >= missing and self._unseen(card, self._deck_of(seat)) >= missing

    # ------------------------------------------------------------------ move generation

    def _generate_moves(self) -> Sequence[Move]:
        seat = self._to_act
        if seat is None:
            return []
        phase = self._phase
        if phase == "battle":
            observer = self.observer
            held = (
                self._held[seat]
                if observer is None or observer == seat
                else _kinds_of(self._holdable(seat))
            )
            before = (
                _PLAYS_LOW[held & _LOW_MASK] + _PLAYS_MIDDLE[held >> _MIDDLE_SHIFT & _MIDDLE_MASK]
            )
            after = _PLAYS_HIGH[held >> _HIGH_SHIFT]
            if held & _SCARECROW_BIT:
                return [*before, *self._scarecrow_moves(seat), *after]
            return before + after
        if phase == "battle-choice":
            moves = list(map(_BATTLE_IN.__getitem__, self._battle_sites()))
            if self._may_cede():
                moves.append(_CEDE)
            return moves
        if phase == "favor":
            moves = list(map(_FAVOR_ON.__getitem__, self._favor_sites()))
            if self.edition.favor == "uncontrolled-or-off":
                moves.append(_FAVOR_NONE)
            return moves
        if phase == "discard":
            if self._knows_hand(seat) and self._has_mercenary(seat):
                return [_KEEP]
            return [_DISCARD, _KEEP]
        if phase == "retain":
            return self._retain_moves(seat)
        return []

    def _may_cede(self) -> bool:
        return self.edition.may_cede and self._cedes < self.players - 1

    def _holdable(self, seat: int) -> list[str]:
        if self._knows_hand(seat):
            return sort_cards(self._hands[seat])  # type: ignore[return-value]
        return list(sort_cards(card for card in self._deck_total if self._could_hold(seat, card)))

    def _scarecrow_moves(self, seat: int) -> list[Move]:
        edition = self.edition
        kinds = self._row_mercenaries
        if edition.scarecrow_any_row:
            moves = [_SCARECROW_ALONE]
            for owner, mercenaries in enumerate(kinds):
                if mercenaries:
                    moves += _SCARECROW_TAKES[None if owner == seat else owner][mercenaries]
        else:
            moves = [_SCARECROW_ALONE, *_SCARECROW_TAKES[None][kinds[seat]]]
        if len(moves) > 1 and not edition.scarecrow_may_take_nothing:
            del moves[0]
        return moves

    def _retain_moves(self, seat: int) -> list[Move]:
        cards = self._holdable(seat)
        moves = [Move("retain")]
        for i, first in enumerate(cards):
            moves.append(Move("retain", cards=(first,)))
            for second in cards[i:]:
                if second != first or self._could_hold(seat, first, 2):
                    moves.append(Move("retain", cards=(first, second)))
        return moves

    def _check_hidden_move(
        self, move: Move, seat: int, reveal: Sequence[str] | None
    ) -> tuple[str, ...] | None:
        """Check a move of a seat whose hand this engine does not know; the revealed cards."""
        if move.verb == "discard" and self._phase == "discard":
            if reveal is None:
                raise IllegalMoveError(f"seat {seat} must show the hand it discards")
            cards = tuple(_checked_cards(reveal))
            counts = Counter(cards)
            if len(cards) != self._sizes[seat]:
                raise IllegalMoveError(
                    f"seat {seat} holds {self._sizes[seat]} cards, not {len(cards)}"
                )
            mercenaries = [card for card in cards if card in MERCENARY_VALUE]
            if mercenaries:
                raise IllegalMoveError(
                    f"seat {seat} may not discard a hand holding mercenaries ({mercenaries[0]})"
                )
            if any(not self._could_hold(seat, card, k) for card, k in counts.items()):
                raise IllegalMoveError(f"seat {seat} cannot hold those cards")
            return sort_cards(cards)
        if move.verb in ("play", "retain") and self._phase in ("battle", "retain"):
            needed = Counter([move.card] if move.verb == "play" else move.cards)
            for card, count in needed.items():
                if not self._could_hold(seat, str(card), count):
                    raise IllegalMoveError(
                        f"seat {seat} cannot hold {count} {card_name(str(card))}"
                    )
        if self._legal is None:
            self._legal = self._generate_moves()
        if move not in self._legal:
            raise IllegalMoveError(self._why_illegal(move, seat))
        return None

    def _why_illegal(self, move: Move, seat: int) -> str:
        phase = self._phase
        expected = {
            "battle-choice": f"seat {seat} must open a battle (as in 'battle Firenze')",
            "battle": f"seat {seat} must play a card or pass",
            "favor": f"seat {seat} must place the Favor (as in 'favor Roma')",
            "discard": f"seat {seat} must 'discard' or 'keep' its hand",
            "retain": f"seat {seat} must retain up to two cards (as in 'retain 10 heroine')",
        }
        verbs = {
            "battle-choice": ("battle", "cede"),
            "battle": ("play", "pass"),
            "favor": ("favor",),
            "discard": ("discard", "keep"),
            "retain": ("retain",),
        }
        if move.verb not in verbs.get(phase, ()):
            tried = _ATTEMPTS[move.verb]
            return f"you cannot {tried} now: {expected.get(phase, 'nobody may move')}"
        if move.verb == "battle":
            region = str(move.region)
            if region == self._favor:
                return f"the Favor marker is on {region}: no battle may be fought there"
            return f"{region} is held by seat {self._control.get(region)}"
        if move.verb == "cede":
            if not self.edition.may_cede:
                return "you may not cede the battle marker without the 'cede' option"
            return "the battle marker has gone round the table: you must choose a battle"
        if move.verb == "favor":
            if move.region is None:
                return "the Favor must be placed on the board in this edition"
            region = move.region
            if region == self._battle_region:
                return f"the battle is being fought in {region}: place the Favor elsewhere"
            holder = self._control.get(region)
            return f"{region} is held by seat {holder}: the Favor needs a free region"
        if move.verb == "discard":
            return "you hold mercenaries, so you must keep your hand"
        if move.verb == "retain":
            return f"you do not hold {' and '.join(map(card_name, move.cards))}"
        card = str(move.card)
        if not self._could_hold(seat, card):
            return f"you have no {card_name(card)} in hand"
        if card == "scarecrow":
            if move.target is None:
                return "say which mercenary the Scarecrow takes back, as in 'play scarecrow 5'"
            if move.target_seat is not None and not self.edition.scarecrow_any_row:
                return "a Scarecrow takes back a mercenary from your own row only"
            if move.target_seat is not None and not 0 <= move.target_seat < self.players:
                return f"there is no seat {move.target_seat}"
            whose = "your row" if move.target_seat is None else f"seat {move.target_seat}'s row"
            return f"there is no {move.target} in {whose} to take back"
        return f"you cannot play {card_name(card)} now"


_CARD_BIT = {card: 1 << order for card, order in CARD_ORDER.items()}
_SCARECROW_BIT = _CARD_BIT["scarecrow"]
_MERCENARY_BITS = sum(map(_CARD_BIT.__getitem__, MERCENARIES))


def _kinds_of(cards: Iterable[str]) -> int:
    """The kinds of card among ``cards`` as a bit mask, one bit a kind in notation order.

    >>> _kinds_of(["2", "10", "10"]) == _CARD_BIT["2"] | _CARD_BIT["10"]
    True
    """
    return sum(map(_CARD_BIT.__getitem__, set(cards)))


def _mercenary_kinds(row: Iterable[str]) -> int:
    """The kinds of mercenary in ``row`` as a bit mask (:func:`_kinds_of`'s bits).

    >>> _mercenary_kinds(["10", "heroine", "10"]) == _CARD_BIT["10"]
    True
    """
    return _kinds_of(row) & _MERCENARY_BITS


def _by_bits(items: Sequence[_T]) -> tuple[tuple[_T, ...], ...]:
    """For every subset of ``items``, indexed by its bit mask (bit i: ``items[i]``), the items
    in it, in order. Long masks are split and their tables' tuples added up: a table for all
    17 regions or kinds of card would hold 2**17 tuples.

    >>> _by_bits("ab")
    ((), ('a',), ('b',), ('a', 'b'))
    """
    return tuple(
        tuple(item for i, item in enumerate(items) if subset >> i & 1)
        for subset in range(1 << len(items))
    )


def _plays_table(cards: Sequence[str], then: tuple[Move, ...] = ()) -> tuple[tuple[Move, ...], ...]:
    """:func:`_by_bits` of the ``play`` moves of ``cards`` (a run of notation order), each
    followed by ``then``."""
    return tuple((*moves, *then) for moves in _by_bits([_play(card) for card in cards]))


# A hand's battle moves are read from three tables by slices of its held-kinds bits: the
# mercenaries, the cards from there to the Scarecrow, and the cards after it with `pass`. The
# Scarecrow's moves, which depend on the rows, go between the second and the third.
_MIDDLE_SHIFT = len(MERCENARIES)
_HIGH_SHIFT = CARD_ORDER["scarecrow"] + 1
_LOW_MASK = (1 << _MIDDLE_SHIFT) - 1
_MIDDLE_MASK = (1 << (_HIGH_SHIFT - 1 - _MIDDLE_SHIFT)) - 1
_PLAYS_LOW = _plays_table(CARDS[:_MIDDLE_SHIFT])
_PLAYS_MIDDLE = _plays_table(CARDS[_MIDDLE_SHIFT : _HIGH_SHIFT - 1])
_PLAYS_HIGH = _plays_table(CARDS[_HIGH_SHIFT:], then=(_PASS,))


_SCARECROW_TAKES = {
    whose: _by_bits([_play("scarecrow", card, whose) for card in MERCENARIES])
    for whose in (None, *range(max(edition.max_players for edition in EDITIONS.values())))
}
"""By the row's seat (None: one's own) and the kinds of mercenary in it as bits, a Scarecrow
taking back each of them (the mercenaries are the first cards of notation order)."""


@lru_cache(maxsize=1 << 12)
def _largest_group(regions: int) -> int:
    """The size of the largest connected group among the regions whose bits (board order) are
    set in ``regions``.

    >>> _largest_group(_REGION_BIT["Roma"] | _REGION_BIT["Napoli"] | _REGION_BIT["Torino"])
    2
    """
    return largest_group(region for i, region in enumerate(REGIONS) if regions >> i & 1)


_REGIONS_LOW = _by_bits(REGIONS[:_REGIONS_SPLIT])
_REGIONS_HIGH = _by_bits(REGIONS[_REGIONS_SPLIT:])


def _regions_but(barred: int) -> tuple[str, ...]:
    """The regions of the board, in board order, but those whose bits are set in ``barred``.

    >>> _regions_but(sum(_REGION_BIT[region] for region in REGIONS[1:])) == REGIONS[:1]
    True
    """
    free = ~barred
    return (
        _REGIONS_LOW[free & _REGIONS_LOW_MASK]
        + _REGIONS_HIGH[free >> _REGIONS_SPLIT & _REGIONS_HIGH_MASK]
    )


def _in_notation_order(counter: Counter[str]) -> tuple[str, ...]:
    """The cards ``counter`` counts, in notation order.

    >>> _in_notation_order(Counter({"spy": 1, "10": 2, "2": 1}))
    ('2', '10', '10', 'spy')
    """
    cards: list[str] = []
    for card in CARDS:
        count = counter.get(card)
        if count:
            cards += [card] * count
    return tuple(cards)


def _copied(counter: Counter[str]) -> Counter[str]:
    """A copy of ``counter``, without the cost of ``Counter.__init__`` (several times faster)."""
    copy: Counter[str] = Counter.__new__(Counter)
    dict.update(copy, counter)
    return copy


def _most(counts: Sequence[int]) -> tuple[int, ...]:
    """The seats with the highest count."""
    best = max(counts)
    return tuple(seat for seat, count in enumerate(counts) if count == best)


def _checked_cards(cards: Iterable[str]) -> list[str]:
    result = []
    for card in cards:
        if not isinstance(card, str) or card.lower() not in CARD_ORDER:
            raise ValueError(f"there is no card called {card!r}")
        result.append(card.lower())
    return result


def _deck_lists(edition: str, deck: Sequence[str] | Sequence[Sequence[str]]) -> list[list[str]]:
    if EDITIONS.get(edition) is not None and EDITIONS[edition].per_seat_decks:
        return [_checked_cards(d) for d in deck]
    return [_checked_cards(deck)]  # type: ignore[arg-type]


def _event_json(event: tuple[Any, ...]) -> list[Any]:
    """An event as a record holds it: moves as text, card and seat lists as lists."""
    return [
        str(item) if isinstance(item, Move) else list(item) if isinstance(item, tuple) else item
        for item in event
    ]


def _jsonable(record: Mapping[str, Any]) -> dict[str, Any]:
    return dict(json.loads(json.dumps(record)))
