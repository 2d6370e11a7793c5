"""The rules core: one :class:`Game` class runs every edition, omniscient or as one seat.

A game is a state machine: it is always in one :class:`.phase.Phase` (a battle to choose, a
battle under way, the Favor to place, the discard step, FFG's retain, chance, over), and
waits either for a seat's move (:meth:`Game.play`) or for a chance outcome
(:meth:`Game.resolve`). Chance never happens inside the rules: :attr:`Game.chance` names the
node the game waits for; :meth:`Game.new` and :meth:`Game.setup` answer from a seed;
:meth:`Game.observe` builds the engine one seat runs on the network, which knows only its own
cards.

>>> g = Game.new("zman", players=3, seed=1)
>>> g.phase, g.to_act == g.battle_marker, [g.hand_size(s) for s in range(3)]
('battle-choice', True, [10, 10, 10])
>>> g.play("battle Firenze")
>>> g.phase, g.battle_region
('battle', 'Firenze')

This module holds the game's state and its public face (construction, what anyone may read,
records, seat views, copies and samples, playing a move). The rules themselves are functions
of the game, one topic a module, in the order a battle goes:

- :mod:`.start`: a new game or a scenario begins;
- :mod:`.next_battle`: the choice of the next battle;
- :mod:`.battle`: the battle, card by card;
- :mod:`.battle_end`: the end of a battle and its scoring (:mod:`.battle_result`: how it ended);
- :mod:`.round_end`: the discard step, the end of a round and the deal;
- :mod:`.victory`: control of the regions, victory, and the end of the game;
- :mod:`.leaver`: a seat that leaves the table for good;
- :mod:`.legality`: the legal moves, and why a move is not legal;
- :mod:`.chance_asked`: asking for chance and going on once answered;
- :mod:`.phase`: the phases and the pending questions with their continuations;
- :mod:`.piles` and :mod:`.knowledge`: where the cards are, and what an engine knows of them;
- :mod:`.tables`: the precomputed tables that keep all this fast.

Rule decisions taken where the rulebooks and the design are silent are listed in
``RULES.md``, beside this module.
"""

from __future__ import annotations

import json
import random
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any, ClassVar

from condottiere.games.condottiere.battle import pass_turn, place_favor, play_card
from condottiere.games.condottiere.battle_result import BattleEnd, BattleResult
from condottiere.games.condottiere.cards import sort_cards
from condottiere.games.condottiere.chance import ChanceNode, Choice, Deal, Draw, SeededChance
from condottiere.games.condottiere.chance_asked import (
    answer_choice,
    answer_deal,
    check_deal,
    settle,
)
from condottiere.games.condottiere.editions import EDITIONS, Edition
from condottiere.games.condottiere.knowledge import (
    SPECTATOR,
    checked_cards,
    require_omniscient,
    seats_drawing_from,
    seen_in,
)
from condottiere.games.condottiere.leaver import remove_seat
from condottiere.games.condottiere.legality import check_hidden_move, legal_moves, why_illegal
from condottiere.games.condottiere.moves import (
    CardFlow,
    InvalidMoveError,
    Move,
    card_flow,
)
from condottiere.games.condottiere.narration import Before, battle_begins, before_move, tell_move
from condottiere.games.condottiere.next_battle import cede, open_battle
from condottiere.games.condottiere.outcome import outcome_of
from condottiere.games.condottiere.phase import CHANCE, OVER, AfterChoice, Phase, Then
from condottiere.games.condottiere.piles import deck_of, in_notation_order, pile_contents
from condottiere.games.condottiere.round_end import answer_discard_step, retain
from condottiere.games.condottiere.start import start_new, start_setup
from condottiere.games.condottiere.strength import Step, breakdown, highest_mercenary, strength
from condottiere.games.condottiere.tables import kinds_of, play_move
from condottiere.interface.bookkeeping import CardGame, VerbRule, verb_rule
from condottiere.interface.game import HandOutOfGame, Outcome

__all__ = ["BattleResult", "Game", "Phase", "SeatView"]

RECORD_FORMAT = 1


@dataclass(frozen=True)
class SeatView:
    """Everything one seat may know, and nothing more."""

    seat: int
    edition: str
    players: int
    phase: Phase
    to_act: int | None
    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    rows: tuple[tuple[str, ...], ...]
    strengths: tuple[int, ...]
    breakdowns: tuple[tuple[Step, ...], ...]
    """Each seat's strength step by step (:meth:`Game.breakdown`), in seat order."""
    season: str | None
    control: Mapping[str, int]
    favor: str | None
    battle_region: str | None
    battle_marker: int
    passed: frozenset[int]
    discard_pile: tuple[str, ...]
    out_of_game: int
    """How many cards have left the game (``zman-duel``'s played cards, leavers' hands)."""
    draw_pile_sizes: tuple[int, ...]
    battles_won: tuple[int, ...]
    winners: tuple[int, ...]
    legal_moves: tuple[Move, ...]
    departed: frozenset[int]
    """The seats that have left the table."""


# A verb's rule in the shape Game._verb_rules calls it, where the rule takes other arguments.


def _battle(game: Game, seat: int, move: Move, revealed: tuple[str, ...] | None) -> None:
    open_battle(game, str(move.region))


def _cede(game: Game, seat: int, move: Move, revealed: tuple[str, ...] | None) -> None:
    cede(game)


def _favor(game: Game, seat: int, move: Move, revealed: tuple[str, ...] | None) -> None:
    place_favor(game, seat, move.region)


def _discard(game: Game, seat: int, move: Move, revealed: tuple[str, ...] | None) -> None:
    answer_discard_step(game, seat, revealed or ())


def _keep(game: Game, seat: int, move: Move, revealed: tuple[str, ...] | None) -> None:
    answer_discard_step(game, seat, None)


def _retain(game: Game, seat: int, move: Move, revealed: tuple[str, ...] | None) -> None:
    retain(game, seat, move.cards)


class Game(CardGame[Move]):
    """One game of Condottiere. Build it with :meth:`new`, :meth:`setup`, :meth:`replay` or
    :meth:`observe`; drive it with :meth:`play` (and :meth:`resolve` when chance is manual)."""

    _phase: Phase

    # ------------------------------------------------------------------ construction

    def __init__(
        self,
        header: Mapping[str, Any],
        *,
        observer: int | None = None,
        chance: SeededChance | None = None,
        narrated: bool = False,
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
        setup = header.get("setup")
        record_header = {
            "format": RECORD_FORMAT,
            "edition": name,
            "players": players,
            "options": sorted(options),
            "seed": header.get("seed"),
            "setup": None if setup is None else json.loads(json.dumps(setup)),
        }
        self._start_books(record_header, players, observer, narrated)
        self.edition: Edition = edition
        self._victory = edition.victory(players)
        self.options = options
        self._chance_source = chance
        # The cards, wherever they are (see .piles and .knowledge).
        decks = 2 if edition.per_seat_decks else 1
        self._deck_total = edition.deck_counter()
        self._deck_order = in_notation_order(self._deck_total)
        self._held = [0] * players
        """Per seat, the kinds of card in ``_hands`` as a bit mask (:func:`.tables.kinds_of`)."""
        self._pile_taken: list[list[str]] = [[] for _ in range(decks)]
        """Per draw pile, the cards dealt from it since its epoch began (omniscient games)."""
        self._pile_sizes = [0] * decks
        self._pile_epoch = [0] * decks
        self._pile_start: list[tuple[str, ...]] = [() for _ in range(decks)]
        self._pile_dealt = [0] * decks
        self._out: list[list[str]] = [[] for _ in range(decks)]
        """Per deck, the cards this engine saw leave the game (``zman-duel``'s played cards,
        the cards it saw in the hand of a seat that left)."""
        self._out_unseen = [0] * decks
        """Per deck, how many cards left the game in a leaver's hand unseen by this engine."""
        # The battle (see .battle and .battle_end).
        self._rows: list[list[str]] = [[] for _ in range(players)]
        self._row_mercenaries = [0] * players
        """Per seat, the kinds of mercenary in its row as a bit mask
        (:func:`.tables.mercenary_kinds`)."""
        self._bishop_removed: list[list[str]] = [[] for _ in range(players)]
        self._season_cards: list[tuple[str, int]] = []
        self._battle_region: str | None = None
        self._passed: set[int] = set()
        self._played: set[int] = set()
        self._defender: int | None = None
        self._final_battle = False
        self._participants: tuple[int, ...] = tuple(range(players))
        """The seats that take part in battles: those at the table (in FFG's final battle,
        those tied for most regions)."""
        self._seated: tuple[int, ...] = tuple(range(players))
        """The seats still at the table, in seat order (see :mod:`.leaver`)."""
        self._left_of = tuple((seat + 1) % players for seat in range(players))
        """Per seat, the first seat still at the table clockwise from its left."""
        self._last_battle: BattleResult | BattleEnd | None = None
        self._battles_begun = 0
        """How many battles have begun (a battle that begins is told: :mod:`.narration`)."""
        # The board and the score (see .victory).
        self._control: dict[str, int] = {}
        self._regions_of = [0] * players
        """Per seat, the regions it controls (``_control``) as a bit mask, one bit a region in
        board order (see :func:`.victory.take_control`)."""
        self._favor: str | None = None
        self._marker = 0
        self._battles_won = [0] * players
        # What the game waits for, and where the rules go on once it is answered (see .phase).
        self._phase = CHANCE
        self.chance: ChanceNode | None = None
        self._deals_queued: tuple[Deal, ...] = ()
        """The deals of the round asked behind :attr:`chance`, in seat order."""
        self._after_choice: AfterChoice | None = None
        """Where the rules go on with the seat the pending fair choice chooses."""
        self._after_deals: Then | None = None
        """Where the rules go on once the pending deals are dealt."""
        self._cedes = 0
        """How many times the battle marker was ceded since the battle choice opened."""
        self._choice_after_compare = False
        """FFG order: the battle being chosen begins only once the battle lines are cleared,
        the discard step and the round's end are over (:mod:`.next_battle`)."""
        self._next_region: str | None = None
        """The region of a battle chosen to begin after the round's end (or by a scenario)."""
        self._after_discard_step: Then | None = None
        """Where the rules go on once the discard step is over."""
        setup = self._header["setup"]
        if setup is None:
            start_new(self)
        else:
            start_setup(self, setup)
        settle(self)

    @classmethod
    def new(
        cls,
        edition: str,
        players: int,
        seed: int,
        options: Iterable[str] = (),
        *,
        narrated: bool = False,
    ) -> Game:
        """A fresh game with every chance outcome answered from ``seed``; ``narrated``: it
        keeps its narration (:meth:`narration`)."""
        header = {"edition": edition, "players": players, "options": list(options), "seed": seed}
        return cls(header, chance=SeededChance(seed), narrated=narrated)

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
        narrated: bool = False,
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
        return cls(header, chance=SeededChance(seed, explicit), narrated=narrated)

    @classmethod
    def replay(cls, record: Mapping[str, Any], *, narrated: bool = False) -> Game:
        """Rebuild a game from :meth:`record`, move by move and outcome by outcome (telling
        them, with ``narrated``).

        A record with a seed goes on from its seed, as the original game would have, when the
        seed deals what the record has dealt so far; a record whose deals the seed does not
        give (one made by an engine that shuffled differently) waits for chance outcomes
        instead, so that no card is dealt twice. Raises ValueError when the record does not
        replay to itself.
        """
        if record.get("format") != RECORD_FORMAT:
            raise ValueError(f"not a game record of format {RECORD_FORMAT}")
        game = cls(record, narrated=narrated)
        game.follow(record["events"])
        if game.record() != _jsonable(record):
            raise ValueError("the record does not replay to the same game")
        seed = record.get("seed")
        if seed is not None:
            setup = record.get("setup")
            deck = None if setup is None else setup.get("deck")
            source = SeededChance(seed, None if deck is None else dict(enumerate(deck)))
            if game._dealt_so_far_by(source):
                game._chance_source = source
                settle(game)
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
    def phase(self) -> Phase:
        """What the game waits for (:class:`.phase.Phase`; equal to its text, ``"battle"``)."""
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
    def last_battle(self) -> BattleResult | None:
        """How the most recent battle ended (rows, strengths, winner), None before the first."""
        ended = self._last_battle
        if ended is None or isinstance(ended, BattleResult):
            return ended
        result = self._last_battle = BattleResult.of(ended)
        return result

    @property
    def final_battle(self) -> bool:
        """True during an FFG final battle among the players tied for most regions."""
        return self._final_battle

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
        of its deck that is in no hand and has not left the game (:meth:`remove_seat`).

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
        for deal in (self.chance, *self._deals_queued):
            pile = deck_of(self, deal.seat)
            draws.append(Draw(deal, pile, self._pile_epoch[pile], dealt[pile]))
            dealt[pile] += deal.count
        return tuple(draws)

    @property
    def out_of_game(self) -> tuple[str, ...]:
        """Cards this engine saw leave the game (``zman-duel``: every played card; the hand
        of a seat that left, as far as this engine saw it)."""
        return sort_cards(chain.from_iterable(self._out))

    @property
    def draw_piles(self) -> tuple[tuple[str, ...], ...]:
        """The contents of each draw pile (sorted, not in order). Omniscient games only."""
        require_omniscient(self, "the draw pile")
        piles = range(len(self._pile_start))
        return tuple(sort_cards(pile_contents(self, pile).elements()) for pile in piles)

    @property
    def draw_pile_sizes(self) -> tuple[int, ...]:
        return tuple(self._pile_sizes)

    @property
    def battles_won(self) -> tuple[int, ...]:
        """Per seat: battles won (``zman-duel``) or regions controlled (the other editions)."""
        if not self.edition.board:
            return tuple(self._battles_won)
        return tuple(map(int.bit_count, self._regions_of))

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
        """What ``seat`` may know: its own hand, and the public state. A spectator's engine
        (:meth:`spectate`) gives the public state from ``seat``'s chair, with no hand and no
        moves.

        >>> watched = Game.spectate({"edition": "zman-duel", "players": 2})
        >>> watched.resolve(1); watched.resolve(None); watched.resolve(None)
        >>> view = watched.view(0)
        >>> view.hand, view.hand_sizes, view.to_act, view.legal_moves
        ((), (8, 8), 1, ())
        """
        own = self._unknown[seat] == 0 and (self.observer is None or self.observer == seat)
        if not own and self.observer != SPECTATOR:
            raise ValueError(f"this engine does not know seat {seat}'s hand")
        return SeatView(
            seat=seat,
            edition=self.edition.name,
            players=self.players,
            phase=self._phase,
            to_act=self._to_act,
            hand=self.hand(seat) if own else (),
            hand_sizes=tuple(self._sizes),
            rows=tuple(map(tuple, self._rows)),
            strengths=tuple(self.strength(s) for s in range(self.players)),
            breakdowns=tuple(self.breakdown(s) for s in range(self.players)),
            season=self.season,
            control=dict(self._control),
            favor=self._favor,
            battle_region=self._battle_region,
            battle_marker=self._marker,
            passed=frozenset(self._passed),
            discard_pile=self.discard_pile,
            out_of_game=sum(map(len, self._out)) + sum(self._out_unseen),
            draw_pile_sizes=tuple(self._pile_sizes),
            battles_won=self.battles_won,
            winners=self._winners,
            legal_moves=tuple(self.legal_moves()) if own and self._to_act == seat else (),
            departed=self._departed,
        )

    def copy(self) -> Game:
        """An independent copy (for bots that look ahead)."""
        _ = self.last_battle  # built here once, so that the copy shares it (compared by identity)
        return super().copy()

    def _copy_into(self, other: Game) -> None:
        other._held = list(self._held)
        other._pile_taken = [list(taken) for taken in self._pile_taken]
        other._pile_sizes = list(self._pile_sizes)
        other._pile_epoch = list(self._pile_epoch)
        other._pile_start = list(self._pile_start)
        other._pile_dealt = list(self._pile_dealt)
        other._out = [list(out) for out in self._out]
        other._out_unseen = list(self._out_unseen)
        other._rows = [list(row) for row in self._rows]
        other._row_mercenaries = list(self._row_mercenaries)
        other._bishop_removed = [list(row) for row in self._bishop_removed]
        other._season_cards = list(self._season_cards)
        other._control = dict(self._control)
        other._regions_of = list(self._regions_of)
        other._passed = set(self._passed)
        other._played = set(self._played)
        other._battles_won = list(self._battles_won)

    # ------------------------------------------------------------------ knowledge and samples

    def unseen_cards(self, pile: int = 0) -> tuple[str, ...]:
        """The cards of draw pile ``pile``'s deck this engine has seen nowhere, in notation
        order: what the draw pile, the hidden part of every hand dealt from it and the cards
        that left the game unseen with a leaver's hand are made of.

        >>> g = Game.setup("zman-duel", players=2, hands=[["10", "10"], ["1"]],
        ...                deck=[["6", "5"], ["2"]])
        >>> g.seen_by(0).unseen_cards(0), g.seen_by(1).unseen_cards(0)
        (('5', '6'), ('5', '6', '10', '10'))
        """
        deck = self._deck_total
        seen = seen_in(self, pile)
        return tuple(
            card for card in sort_cards(deck) for _ in range(deck[card] - seen.get(card, 0))
        )

    def determinise(self, rng: random.Random) -> Game:
        """A complete open-table game consistent with everything this engine knows, sampled
        with ``rng``: the unseen cards of each deck (:meth:`unseen_cards`) are shuffled and
        dealt into the cards that left the game unseen with a leaver's hand and the hidden
        part of every hand (cards known to be in a hand stay there), the rest form the draw
        pile, and later chance (deals, fair choices) is answered from a seed
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
        sample._narrated, sample._tale = False, None
        sample._chance_source = SeededChance(rng.getrandbits(64))
        for pile in range(len(self._pile_start)):
            pool = list(self.unseen_cards(pile))
            rng.shuffle(pool)
            taken = self._out_unseen[pile]
            sample._out[pile] += pool[:taken]
            sample._out_unseen[pile] = 0
            for seat in seats_drawing_from(self, pile):
                hidden = self._unknown[seat]
                if hidden:
                    sample._hands[seat].update(pool[taken : taken + hidden])
                    sample._held[seat] = kinds_of(sample._hands[seat])
                    sample._unknown[seat] = 0
                    taken += hidden
            rest = pool[taken:]
            if len(rest) != self._pile_sizes[pile]:
                raise AssertionError(
                    f"{len(pool)} unseen cards for {taken} hidden or gone and a draw pile of "
                    f"{self._pile_sizes[pile]}: this engine has lost track of its cards"
                )
            sample._pile_taken[pile] = []
            sample._pile_start[pile] = sort_cards(rest)
            sample._pile_dealt[pile] = 0
        if sample.chance is not None:
            settle(sample)
        # else the sample stands where this engine stands, even before a `keep` that its
        # dealt hand forces (an open table plays those itself once play resumes)
        return sample

    # ------------------------------------------------------------------ moves

    _sort_cards = staticmethod(sort_cards)

    def _move_of(self, move: Move | str) -> Move:
        """The move (its text parsed); a ``play`` that takes a card back from the mover's own
        row is the one ``play`` of that card and target."""
        if move.__class__ is not Move:
            if isinstance(move, str):
                move = Move.parse(move)
            elif not isinstance(move, Move):
                raise InvalidMoveError(f"{move!r} is not a move")
        assert isinstance(move, Move)
        target = move.target_seat
        if target is not None and target == self._to_act and move.verb == "play":
            return play_move(str(move.card), move.target)
        return move

    # The rules' own functions serve as the hooks (no extra call per move).
    _list_legal = legal_moves
    _reason = why_illegal

    _verb_rules: ClassVar[Mapping[Hashable, VerbRule]] = {
        "play": verb_rule(play_card),
        "pass": verb_rule(pass_turn),
        "battle": verb_rule(_battle),
        "cede": verb_rule(_cede),
        "favor": verb_rule(_favor),
        "discard": verb_rule(_discard, shows_hand=True),
        "keep": verb_rule(_keep),
        "retain": verb_rule(_retain),
    }
    """Each verb goes to the rule it answers (:mod:`.battle`, :mod:`.next_battle`,
    :mod:`.round_end`); a ``play`` or a ``pass``, the most frequent moves, to the rule
    itself."""

    def _no_move_reason(self) -> str:
        return "the game is over" if self._phase is OVER else "the game waits for a chance outcome"

    _hidden_checked = True

    _hidden_move = check_hidden_move

    def _shown_hand(self, move: Move, seat: int, reveal: Sequence[str] | None) -> tuple[str, ...]:
        return sort_cards(self._hands[seat].elements())

    _settle = settle

    def _before_move(self, seat: int, move: Move, revealed: tuple[str, ...] | None) -> Before:
        return before_move(self, seat)

    def _after_move(
        self, before: Before, seat: int, move: Move, revealed: tuple[str, ...] | None
    ) -> None:
        during = self.narration(before.told)
        tale = self._tale
        for _ in during:  # told again below, after the move that set them off
            assert tale is not None
            tale = tale[1]
        self._tale = tale
        for sentence in tell_move(before, self, move, revealed or (), during):
            self.tell(sentence)

    def resolve(self, outcome: Sequence[str] | int | None) -> None:
        """Answer the pending chance node: the dealt cards (None for a deal to another seat in
        a seat-view engine), or the chosen seat."""
        node = self.chance
        if node is None:
            raise ValueError("no chance outcome is awaited")
        begun = self._battles_begun
        if isinstance(node, Choice):
            if not isinstance(outcome, int) or outcome not in node.seats:
                raise ValueError(f"the {node.purpose} must be one of seats {node.seats}")
            answer_choice(self, node, outcome)
        else:
            answer_deal(self, node, check_deal(self, node, outcome))
        settle(self)
        if self._narrated and self._battles_begun != begun and self._phase == "battle":
            self.tell(battle_begins(self))

    def remove_seat(self, seat: int) -> HandOutOfGame:
        """``seat`` leaves the table for good, an event of the record (:mod:`.leaver`): its
        hand leaves the game unseen (the value returned says how many cards), its regions
        count for nobody, it takes no further part and cannot win; once one seat is left, it
        wins by forfeit. ValueError, changing nothing, for a seat not at the table or a game
        that is over.

        >>> g = Game.new("zman", players=3, seed=1)
        >>> g.remove_seat(g.battle_marker).count
        10
        >>> g.phase, g.to_act == g.battle_marker, len(g.departed)
        ('battle-choice', True, 1)
        """
        return remove_seat(self, seat)


def _deck_lists(edition: str, deck: Sequence[str] | Sequence[Sequence[str]]) -> list[list[str]]:
    if EDITIONS.get(edition) is not None and EDITIONS[edition].per_seat_decks:
        return [checked_cards(d) for d in deck]
    return [checked_cards(deck)]  # type: ignore[arg-type]


def _jsonable(record: Mapping[str, Any]) -> dict[str, Any]:
    return dict(json.loads(json.dumps(record)))
