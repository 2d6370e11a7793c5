"""The state of a game of Condottieri Captains and its public face: construction, what anyone
may read, moves played and chance answered, records and replays, seat views, copies and
samples.

>>> g = Game.new(players=3, seed=2)
>>> g.phase, g.to_act is not None, [str(m) for m in g.legal_moves()][:2]
(<Phase.CITY: 'city'>, True, ['city milan', 'city venice'])

The rules are functions of the game, one topic a module, in the order a game goes:

- :mod:`.setup`: the first player, the city states, the deal and the mulligan;
- :mod:`.turn`: a player's turn, its seven phases and its end (recruit and upkeep included);
- :mod:`.events`: the event cards;
- :mod:`.battle`: attacks, blocks, emergency defence, battle cards and their outcome;
- :mod:`.diplomacy`: offers and acceptances, and the hand limit;
- :mod:`.ending`: defeat, victory, the outcome, and a seat that leaves;
- :mod:`.legality`: the legal moves, and why a move is not legal;
- :mod:`.hands`: where the cards are, what this engine knows of them, and chance.

Every decision the seed leaves open is in ``RULES.md``, beside this module.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from condottiere.games.captains.cards import CARDS, DECK, Kind, captain_force, sort_cards
from condottiere.games.captains.cities import CITIES
from condottiere.games.captains.hands import (
    AfterChoice,
    Node,
    Then,
    resolve,
    settle,
    unseen_cards,
)
from condottiere.games.captains.legality import check_revealed, legal_moves, offer_ok, why_illegal
from condottiere.games.captains.moves import InvalidMoveError, Move, Verb
from condottiere.games.captains.phase import Battle, Phase
from condottiere.games.captains.rules import VERB_RULES
from condottiere.interface.bookkeeping import SPECTATOR, CardGame, seat_placeholders
from condottiere.interface.game import (
    CardFlow,
    Deal,
    Draw,
    Handed,
    HandOutOfGame,
    Outcome,
    Sentence,
    ToldKind,
)

__all__ = [
    "GAME_NAME",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "OPTIONS",
    "TURNS",
    "Battle",
    "Game",
    "SeatView",
]

GAME_NAME = "captains"
RECORD_FORMAT = 1
MIN_PLAYERS, MAX_PLAYERS = 2, 8
TURNS = 10
"""Seed: "Play ends after everyone has had 10 turns"."""
OPTIONS = {
    "all-draw": "every seat in the game draws a card in each opportunity phase (RULES.md 10)",
    "spoils": "a blocked attack won by the attacker also takes a province (RULES.md 39)",
}


@dataclass(frozen=True)
class SeatView:
    """Everything one seat may know, and nothing more."""

    seat: int
    players: int
    phase: Phase
    to_act: int | None
    hand: tuple[str, ...]
    known: tuple[tuple[str, ...], ...]
    """Per seat, the cards this seat knows to be in that hand (all of its own)."""
    hand_sizes: tuple[int, ...]
    cities: tuple[str | None, ...]
    ducats: tuple[int, ...]
    provinces: tuple[int, ...]
    revenues: tuple[tuple[str, ...], ...]
    armies: tuple[tuple[tuple[str, tuple[str, ...]], ...], ...]
    """Per seat, its captains in play, each with its attached cards."""
    turns: tuple[int, ...]
    active: int | None
    battle: Battle | None
    offer: Move | None
    discard_pile: tuple[str, ...]
    draw_pile_size: int
    defeated: frozenset[int]
    departed: frozenset[int]
    winners: tuple[int, ...]
    legal_moves: tuple[Move, ...]


class Game(CardGame[Move]):
    """One game of Condottieri Captains; build it with :meth:`new`, :meth:`setup`,
    :meth:`observe`, :meth:`spectate` or :meth:`replay`; drive it with :meth:`play` and
    :meth:`resolve`."""

    _phase: Phase

    def __init__(
        self,
        header: Mapping[str, Any],
        *,
        observer: int | None = None,
        seed: int | None = None,
        narrated: bool = False,
    ) -> None:
        players = int(header["players"])
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(
                f"Captains is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}"
            )
        options = tuple(header.get("options", ()))
        unknown = [option for option in options if option not in OPTIONS]
        if unknown:
            raise ValueError(f"unknown option {unknown[0]!r}; choose among {', '.join(OPTIONS)}")
        self.options = frozenset(options)
        setup = header.get("setup")
        record_header = {
            "format": RECORD_FORMAT,
            "game": GAME_NAME,
            "players": players,
            "options": sorted(self.options),
            "seed": header.get("seed"),
            "setup": None if setup is None else json.loads(json.dumps(setup)),
        }
        self._start_books(record_header, players, observer, narrated)
        self._seed_source = seed
        # cards (see .hands)
        self._pile: Counter[str] | None = Counter(DECK) if observer is None else None
        self._order: list[str] | None = None
        self._pile_size = len(DECK)
        self._epoch = 0
        self._epoch_taken = 0
        self._top: tuple[str, ...] = ()
        """A scenario's given top of the draw pile, top first (epoch 0 only)."""
        self._out: list[str] = []
        self._out_unseen = 0
        # the table
        self._city: list[str | None] = [None] * players
        self._ducats = [0] * players
        self._provinces = [0] * players
        self._revenues: list[list[str]] = [[] for _ in range(players)]
        self._army: list[dict[str, list[str]]] = [{} for _ in range(players)]
        self._turns = [0] * players
        self._defeated: frozenset[int] = frozenset()
        self._in_game: tuple[int, ...] | None = None
        """The seats neither defeated nor departed, once computed (see :attr:`in_game`)."""
        self._first: int | None = None
        self._active: int | None = None
        self._forfeit = False
        # the setup (see .setup)
        self._to_pick: tuple[int, ...] = ()
        self._to_deal: tuple[int, ...] = ()
        self._mulligans = 0
        # the turn (see .turn, .events, .battle, .diplomacy)
        self._recruited = False
        self._attacked: frozenset[str] = frozenset()
        self._must_block: frozenset[str] = frozenset()
        self._must_attack: frozenset[str] = frozenset()
        self._ordered: frozenset[str] = frozenset()
        """The captains under an order to attack in this turn's battle phase."""
        self._no_attack: frozenset[int] = frozenset()
        self._draws_left: tuple[int, ...] = ()
        self._battle: Battle | None = None
        self._offers = 0
        self._offer: Move | None = None
        self._over_limit: tuple[int, ...] = ()
        # what the game waits for
        self._phase = Phase.CHANCE
        self.chance: Node | None = None
        self._then: Then | None = None
        self._after_choice: AfterChoice | None = None
        self._chosen: int | None = None
        self._found = False
        self._searched = ""
        from condottiere.games.captains.setup import start, start_scenario

        if self._header["setup"] is None:
            start(self)
        else:
            start_scenario(self, self._header["setup"])
        settle(self)

    @classmethod
    def new(
        cls, players: int, seed: int, options: Iterable[str] = (), *, narrated: bool = False
    ) -> Game:
        """A fresh game with every chance outcome answered from ``seed``; ``narrated``: it
        keeps its narration (:meth:`narration`)."""
        header = {"players": players, "options": sorted(options), "seed": seed}
        return cls(header, seed=seed, narrated=narrated)

    @classmethod
    def setup(
        cls,
        players: int,
        *,
        cities: Sequence[str],
        hands: Sequence[Sequence[str]],
        first: int = 0,
        ducats: Sequence[int] | None = None,
        provinces: Sequence[int] | None = None,
        armies: Sequence[Mapping[str, Sequence[str]]] | None = None,
        revenues: Sequence[Sequence[str]] | None = None,
        turns: Sequence[int] | None = None,
        deck: Sequence[str] = (),
        seed: int = 0,
        options: Iterable[str] = (),
        narrated: bool = False,
    ) -> Game:
        """A scenario that begins with ``first``'s turn: each seat's city state and hand,
        and optionally ducats, provinces, captains in play with their cards, revenue cards
        and turns already taken (default: the city's start, none taken); ``deck`` the top
        cards of the draw pile, top first. Every other card is in the draw pile below them,
        shuffled from ``seed``."""
        spec = {
            "cities": list(cities),
            "hands": [list(hand) for hand in hands],
            "first": first,
            "ducats": None if ducats is None else list(ducats),
            "provinces": None if provinces is None else list(provinces),
            "armies": None
            if armies is None
            else [{c: list(a) for c, a in army.items()} for army in armies],
            "revenues": None if revenues is None else [list(r) for r in revenues],
            "turns": None if turns is None else list(turns),
            "deck": list(deck),
        }
        header = {"players": players, "options": sorted(options), "seed": seed, "setup": spec}
        return cls(header, seed=seed, narrated=narrated)

    @classmethod
    def replay(cls, record: Mapping[str, Any], *, narrated: bool = False) -> Game:
        """Rebuild a game from :meth:`record` (telling it, with ``narrated``); ValueError
        when it does not replay to itself.

        A record with a seed replays from the seed (its chance events must be the seed's); one
        without resolves every chance event as recorded."""
        if record.get("format") != RECORD_FORMAT or record.get("game") != GAME_NAME:
            raise ValueError(f"not a {GAME_NAME} record of format {RECORD_FORMAT}")
        seed = record.get("seed")
        game = cls(record, seed=seed, narrated=narrated)
        game.follow(record["events"], chance=seed is None)
        if game.record() != json.loads(json.dumps(record)):
            raise ValueError("the record does not replay to the same game")
        return game

    # ------------------------------------------------------------------ public state

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def outcome(self) -> Outcome | None:
        from condottiere.games.captains.ending import outcome_of

        return outcome_of(self)

    @property
    def defeated(self) -> frozenset[int]:
        return self._defeated

    @property
    def in_game(self) -> tuple[int, ...]:
        """The seats still in the game, in seat order."""
        seats = self._in_game
        if seats is None:
            gone = self._defeated | self._departed
            seats = self._in_game = tuple(s for s in range(self.players) if s not in gone)
        return seats

    @property
    def active(self) -> int | None:
        """The seat whose turn it is (None before the first turn)."""
        return self._active

    @property
    def cities(self) -> tuple[str | None, ...]:
        return tuple(self._city)

    @property
    def ducats(self) -> tuple[int, ...]:
        return tuple(self._ducats)

    @property
    def provinces(self) -> tuple[int, ...]:
        return tuple(self._provinces)

    def revenues(self, seat: int) -> tuple[str, ...]:
        """The revenue cards attached to ``seat``'s provinces."""
        return tuple(self._revenues[seat])

    def army(self, seat: int) -> dict[str, tuple[str, ...]]:
        """``seat``'s captains in play, each with its attached cards."""
        return {captain: tuple(cards) for captain, cards in self._army[seat].items()}

    def controller(self, captain: str) -> int | None:
        """The seat that controls ``captain`` in play, or None."""
        for seat, army in enumerate(self._army):
            if captain in army:
                return seat
        return None

    def tfr(self, captain: str) -> int:
        """A captain's Total Force Rating: his level and his cards' forces (RULES.md 16)."""
        seat = self.controller(captain)
        return captain_force(captain, () if seat is None else self._army[seat][captain])

    @property
    def turns(self) -> tuple[int, ...]:
        """Turns each seat has begun."""
        return tuple(self._turns)

    @property
    def battle(self) -> Battle | None:
        return self._battle

    @property
    def offer(self) -> Move | None:
        """The offer waiting for an answer."""
        return self._offer

    @property
    def draw_pile_size(self) -> int:
        return self._pile_size

    @property
    def draw_pile(self) -> tuple[str, ...]:
        """The draw pile's cards in notation order (the omniscient table only)."""
        if self._pile is None:
            raise ValueError("this engine cannot see the draw pile")
        return sort_cards(self._pile.elements())

    @property
    def out_of_game(self) -> int:
        """Cards that left the game with a seat that left the table."""
        return len(self._out) + self._out_unseen

    @property
    def decks(self) -> tuple[tuple[str, ...], ...]:
        """The one deck every seat draws from, in notation order."""
        return (DECK,)

    def pending_draws(self) -> tuple[Draw, ...]:
        """Where the pending deal takes its cards from (positions of this epoch's order), and
        the cards in play, which a new epoch's pile leaves out."""
        node = self.chance
        if not isinstance(node, Deal):
            return ()
        in_play = [
            card
            for army, revenues in zip(self._army, self._revenues, strict=True)
            for card in (*army, *(c for attached in army.values() for c in attached), *revenues)
        ]
        return (Draw(node, 0, self._epoch, self._epoch_taken, sort_cards(in_play)),)

    def hand_limit(self, seat: int) -> int:
        city = self._city[seat]
        return CITIES[city].hand_limit if city else CITIES["milan"].hand_limit

    # ------------------------------------------------------------------ moves and chance

    @staticmethod
    def parse_move(text: str) -> Move:
        return Move.parse(text)

    def card_flow(self, move: Move) -> CardFlow:
        """What ``move`` does to the hidden cards of the mover's hand (and, for an accepted
        offer, the offering seat's): an offer shows the cards of the hand it gives, so that
        at the acceptance only the accepting seat's cards are still to be shown."""
        verb = move.verb
        if verb is Verb.MULLIGAN:
            return CardFlow(whole_hand=True)
        if verb in _PLAYED_CARD:
            assert move.card is not None
            return CardFlow(played=(move.card,))
        if verb is Verb.OFFER:
            seat = self._to_act
            assert move.give is not None
            if seat is None:
                return CardFlow()
            # an offer names the cards of the hand it gives, and so shows them (RULES.md 41)
            return CardFlow(shown=tuple(c for c in move.give.cards if c not in self._army[seat]))
        if verb is Verb.ACCEPT:
            offer, seat = self._offer, self._to_act
            if offer is None or seat is None or self._active is None:
                return CardFlow()
            assert offer.give is not None and offer.get is not None
            handed = [
                Handed(self._active, seat, card)
                for card in offer.give.cards
                if CARDS[card].kind is not Kind.CAPTAIN or self.controller(card) is None
            ]
            handed += [
                Handed(seat, self._active, card)
                for card in offer.get.cards
                if CARDS[card].kind is not Kind.CAPTAIN or self.controller(card) is None
            ]
            return CardFlow(handed=tuple(handed))
        return CardFlow()

    _sort_cards = staticmethod(sort_cards)

    def _move_of(self, move: Move | str) -> Move:
        if isinstance(move, str):
            return Move.parse(move)
        if not isinstance(move, Move):
            raise InvalidMoveError(f"{move!r} is not a move")
        return move

    # The rules' own functions serve as the hooks (no extra call per move).
    _list_legal = legal_moves
    _reason = why_illegal
    _verb_rules = VERB_RULES

    def _also_legal(self, move: Move, seat: int) -> bool:
        return move.verb is Verb.OFFER and offer_ok(self, seat, move)

    def _no_move_reason(self) -> str:
        return "the game is over" if self._phase is Phase.OVER else "the game waits for chance"

    def _shown_hand(self, move: Move, seat: int, reveal: Sequence[str] | None) -> tuple[str, ...]:
        """The hand a mulligan shows (checked against ``reveal`` where this engine does not
        see it)."""
        if not self._unknown[seat]:
            return self.hand(seat)
        return check_revealed(self, seat, reveal)

    _settle = settle

    def _before_move(self, seat: int, move: Move, revealed: tuple[str, ...] | None) -> None:
        """The move is told before it is applied: its notes follow it."""
        from condottiere.games.captains.narration import move_words

        words = move_words(self, seat, move, revealed or (), seat_placeholders(self.players))
        self.tell(Sentence(ToldKind.MOVE, words, seat))

    def resolve(self, outcome: Sequence[str] | int | None) -> None:
        """Answer the pending chance node: the cards (None where this engine may not see
        them), the seat chosen, or the card found (``()`` if not)."""
        resolve(self, outcome)
        settle(self)

    def remove_seat(self, seat: int) -> HandOutOfGame:
        """``seat`` leaves the table for good (RULES.md 45)."""
        from condottiere.games.captains.ending import remove_seat

        return remove_seat(self, seat)

    # ------------------------------------------------------------------ records, copies, views

    def _copy_into(self, other: Game) -> None:
        other._pile = None if self._pile is None else Counter(self._pile)
        other._order = None if self._order is None else list(self._order)
        other._out = list(self._out)
        other._city = list(self._city)
        other._ducats = list(self._ducats)
        other._provinces = list(self._provinces)
        other._revenues = [list(r) for r in self._revenues]
        other._army = [{c: list(a) for c, a in army.items()} for army in self._army]
        other._turns = list(self._turns)
        if self._battle is not None:
            other._battle = replace(self._battle)

    def determinise(self, rng: random.Random) -> Game:
        """An open table consistent with everything this engine knows, sampled with ``rng``:
        the unseen cards dealt into the hidden part of every hand, the cards gone unseen and
        the draw pile (in a random order); later chance answered from a seed drawn from
        ``rng``. For looking ahead: it has no record."""
        sample = self.copy()
        sample.observer = None
        sample._sampled = True
        sample._events = []
        sample._narrated, sample._tale = False, None
        sample._seed_source = rng.getrandbits(64)
        pool = unseen_cards(self) if self._pile is None else list(self._pile.elements())
        rng.shuffle(pool)
        at = self._out_unseen
        sample._out.extend(pool[:at])
        sample._out_unseen = 0
        for seat in range(self.players):
            hidden = self._unknown[seat]
            if hidden:
                sample._hands[seat].update(pool[at : at + hidden])
                sample._unknown[seat] = 0
                at += hidden
        rest = pool[at:]
        if len(rest) != self._pile_size:
            raise AssertionError(
                f"{len(pool)} unseen cards for {at} hidden and a draw pile of {self._pile_size}"
            )
        sample._pile = Counter(rest)
        rest.reverse()
        sample._order = rest
        sample._legal = None
        settle(sample)
        return sample

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know: its own hand, the public state, and the cards it saw. A
        spectator's engine (:meth:`spectate`) gives the public state from ``seat``'s chair,
        with no hand and no moves.

        >>> watched = Game.spectate({"players": 2, "options": []})
        >>> watched.resolve(1)
        >>> view = watched.view(0)
        >>> view.hand, view.to_act, view.legal_moves
        ((), 0, ())
        """
        if self.observer == SPECTATOR:
            if not 0 <= seat < self.players:
                raise ValueError(f"seat {seat} is not at a table of {self.players}")
            return self._view(seat, own=False)
        if self._unknown[seat] or (self.observer is not None and self.observer != seat):
            raise ValueError(f"this engine does not know seat {seat}'s hand")
        if self._sampled:
            raise ValueError("a determinised sample has no seat view: its hands were sampled")
        if self.observer is None:
            return self.seen_by(seat)._view(seat)
        return self._view(seat)

    def _view(self, seat: int, *, own: bool = True) -> SeatView:
        return SeatView(
            seat=seat,
            players=self.players,
            phase=self._phase,
            to_act=self._to_act,
            hand=self.hand(seat) if own else (),
            known=tuple(self.known_cards(other) for other in range(self.players)),
            hand_sizes=tuple(self._sizes),
            cities=tuple(self._city),
            ducats=tuple(self._ducats),
            provinces=tuple(self._provinces),
            revenues=tuple(tuple(r) for r in self._revenues),
            armies=tuple(
                tuple((captain, tuple(cards)) for captain, cards in army.items())
                for army in self._army
            ),
            turns=tuple(self._turns),
            active=self._active,
            battle=None if self._battle is None else replace(self._battle),
            offer=self._offer,
            discard_pile=self.discard_pile,
            draw_pile_size=self._pile_size,
            defeated=self._defeated,
            departed=self._departed,
            winners=self._winners,
            legal_moves=tuple(self.legal_moves()) if own and self._to_act == seat else (),
        )


_PLAYED_CARD = frozenset(
    {
        Verb.CAPTAIN,
        Verb.EMERGENCY,
        Verb.ATTACH,
        Verb.REVENUE,
        Verb.EVENT,
        Verb.PLAY,
        Verb.DISCARD,
    }
)
