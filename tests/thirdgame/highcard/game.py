"""High Card: a tiny trick-taking game with hidden hands, the test suite's third game.

Twelve cards, ``1`` to ``12``, one of each. Every seat is dealt three (by the platform's
mental-poker deck on the network), then three tricks are played: the leader (seat 0 for the
first trick, then the winner of the last one) plays a card face up, then each other seat in
turn; the highest card wins the trick and its seat leads the next. The most tricks wins;
seats level on the most share the victory. A seat that leaves takes its hand out of the game
unseen and plays no more; once one seat is left, it wins by forfeit.

A move is ``play N``. The engine is made for one seat (it knows only that seat's hand), for a
spectator (no hand) or omnisciently (every hand); it never draws a card itself except
offline, where chance is answered from a seed.

>>> game = Game.new(2, seed=1)
>>> game.waiting, game.to_act, len(game.hand(0))
(SeatToMove(seat=0), 0, 3)
>>> game.play(game.legal_moves()[0]); game.to_act
1
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from condottiere.interface import (
    CardFlow,
    Deal,
    Dealt,
    Draw,
    HandOutOfGame,
    IllegalMoveError,
    InvalidMoveError,
    MovePlayed,
    Outcome,
    OutcomeKind,
    RecordEvent,
    SeatLeft,
    SeatToMove,
    Sentence,
    ToldKind,
    Waiting,
    event_from_json,
)

GAME_NAME = "highcard"
RECORD_FORMAT = "highcard-1"
CARDS = tuple(str(rank) for rank in range(1, 13))
HAND = 3
MIN_SEATS, MAX_SEATS = 2, 4
OMNISCIENT = None
SPECTATOR = -1


@dataclass(frozen=True)
class SeatView:
    """What one seat may know: the public table and its own hand (empty for a spectator)."""

    seat: int
    phase: str
    to_act: int | None
    legal_moves: tuple[str, ...]
    hand: tuple[str, ...]
    trick: tuple[tuple[int, str], ...]
    """The cards played to the trick under way: (seat, card), in order."""
    leader: int
    tricks_won: tuple[int, ...]
    hand_sizes: tuple[int, ...]


class Game:
    """A game of High Card as one seat, a spectator or an omniscient table knows it."""

    def __init__(self, header: Mapping[str, Any], observer: int | None = OMNISCIENT) -> None:
        players = int(header["players"])
        if not MIN_SEATS <= players <= MAX_SEATS:
            raise ValueError(f"High Card is played by {MIN_SEATS} to {MAX_SEATS}, not {players}")
        self._header = {"format": RECORD_FORMAT, "game": GAME_NAME, "players": players}
        self.observer = observer
        self._players = players
        self._hands: list[list[str] | None] = [
            [] if self._sees(seat) else None for seat in range(players)
        ]
        self._sizes = [0] * players
        self._dealt = 0
        """Seats dealt to (or skipped, having left) times the hand's size."""
        self._drawn = 0
        """Cards dealt from the deck's order so far."""
        self._trick: list[tuple[int, str]] = []
        self._leader = 0
        self._won = [0] * players
        self._departed: set[int] = set()
        self._played: set[str] = set()
        self._moves = 0
        self._events: list[RecordEvent] = []
        self._told: list[Sentence] = []
        self._order: list[str] | None = None
        """Offline only: the shuffled deck chance deals from."""

    # ------------------------------------------------------------------ making one

    @classmethod
    def new(cls, players: int, seed: int) -> Game:
        """An omniscient game whose deals come from a deck shuffled with ``seed``."""
        game = cls({"players": players})
        order = list(CARDS)
        random.Random(seed).shuffle(order)
        game._order = order
        game._deal_from_order()
        return game

    @classmethod
    def replay(cls, record: Mapping[str, Any]) -> Game:
        """The game ``record`` rebuilds (a spectator's when a deal in it is only a count)."""
        if record.get("format") != RECORD_FORMAT:
            raise ValueError(f"not a High Card record of format {RECORD_FORMAT}")
        events = [event_from_json(event) for event in record["events"]]
        counted = any(isinstance(e, Dealt) and isinstance(e.cards, int) for e in events)
        game = cls(record, SPECTATOR if counted else OMNISCIENT)
        for event in events:
            if isinstance(event, Dealt):
                game.resolve(None if isinstance(event.cards, int) else event.cards)
            elif isinstance(event, MovePlayed):
                game.play(str(event.move))
            elif isinstance(event, SeatLeft):
                game.remove_seat(event.seat)
            else:
                raise ValueError(f"High Card has no event {event}")
        return game

    def _sees(self, seat: int) -> bool:
        return self.observer is OMNISCIENT or self.observer == seat

    def _deal_from_order(self) -> None:
        while self._order is not None and isinstance(self.waiting, Deal):
            self.resolve(self._order[self._drawn : self._drawn + HAND])

    # ------------------------------------------------------------------ the state

    @property
    def players(self) -> int:
        return self._players

    @property
    def departed(self) -> frozenset[int]:
        return frozenset(self._departed)

    @property
    def moves_played(self) -> int:
        return self._moves

    @property
    def choices_made(self) -> int:
        return 0

    @property
    def decks(self) -> tuple[tuple[str, ...], ...]:
        return (CARDS,)

    def _seated(self) -> list[int]:
        return [seat for seat in range(self._players) if seat not in self._departed]

    def _next_deal(self) -> int | None:
        seat = self._dealt // HAND
        while seat < self._players and seat in self._departed:
            seat += 1
        return seat if seat < self._players and self._dealt < self._players * HAND else None

    @property
    def waiting(self) -> Waiting:
        if len(self._seated()) < 2 and self._departed:
            return None
        dealing = self._next_deal()
        if dealing is not None:
            return Deal(dealing, HAND)
        if not any(self._sizes[seat] for seat in self._seated()):
            return None
        return SeatToMove(self._to_play())

    def _to_play(self) -> int:
        played = {seat for seat, _ in self._trick}
        seat = self._leader
        for _ in range(self._players):
            if seat not in self._departed and seat not in played:
                return seat
            seat = (seat + 1) % self._players
        raise AssertionError("a trick with every seat played is settled at once")

    @property
    def to_act(self) -> int | None:
        waiting = self.waiting
        return waiting.seat if isinstance(waiting, SeatToMove) else None

    @property
    def phase(self) -> str:
        waiting = self.waiting
        return "deal" if isinstance(waiting, Deal) else "over" if waiting is None else "trick"

    @property
    def outcome(self) -> Outcome | None:
        if self.waiting is not None:
            return None
        seated = self._seated()
        if len(seated) == 1:
            return Outcome(OutcomeKind.FORFEIT, (seated[0],), "every other seat left")
        best = max(self._won[seat] for seat in seated)
        winners = tuple(seat for seat in seated if self._won[seat] == best)
        kind = OutcomeKind.VICTORY if len(winners) == 1 else OutcomeKind.SHARED
        return Outcome(kind, winners, f"{best} tricks")

    def pending_draws(self) -> tuple[Draw, ...]:
        dealing = self._next_deal()
        if dealing is None:
            return ()
        draws, start = [], self._drawn
        for seat in range(dealing, self._players):
            if seat not in self._departed:
                draws.append(Draw(Deal(seat, HAND), pile=0, epoch=0, start=start))
                start += HAND
        return tuple(draws)

    def hand_size(self, seat: int) -> int:
        return self._sizes[seat]

    def hand(self, seat: int) -> tuple[str, ...]:
        cards = self._hands[seat]
        if cards is None:
            raise ValueError(f"this table cannot see seat {seat}'s hand")
        return tuple(sorted(cards, key=int))

    def legal_moves(self) -> list[str]:
        seat = self.to_act
        if seat is None or self._hands[seat] is None:
            return []
        return [f"play {card}" for card in self.hand(seat)]

    @property
    def trick(self) -> tuple[tuple[int, str], ...]:
        return tuple(self._trick)

    @property
    def tricks_won(self) -> tuple[int, ...]:
        return tuple(self._won)

    # ------------------------------------------------------------------ changing it

    def parse_move(self, text: str) -> str:
        words = str(text).split()
        if len(words) != 2 or words[0] != "play" or words[1] not in CARDS:
            raise InvalidMoveError(f"{text!r} is not a move: play a card, e.g. 'play 7'")
        return f"play {words[1]}"

    def card_flow(self, move: str) -> CardFlow:
        return CardFlow(played=(self.parse_move(move).split()[1],))

    def why_illegal(self, move: str) -> str | None:
        move = self.parse_move(move)
        seat = self.to_act
        if seat is None:
            return "nobody is to play now"
        card = move.split()[1]
        cards = self._hands[seat]
        if cards is not None and card not in cards:
            return f"{card} is not in the hand of seat {seat}"
        if cards is None and (card in self._played or self._sizes[seat] == 0 or self._mine(card)):
            return f"seat {seat} cannot hold {card}"
        return None

    def play(self, move: str, *, reveal: Sequence[str] | None = None) -> None:
        move = self.parse_move(move)
        refused = self.why_illegal(move)
        if refused is not None:
            raise IllegalMoveError(refused)
        seat = self.to_act
        assert seat is not None
        card = move.split()[1]
        cards = self._hands[seat]
        if cards is not None:
            cards.remove(card)
        self._sizes[seat] -= 1
        self._played.add(card)
        self._trick.append((seat, card))
        self._moves += 1
        self._events.append(MovePlayed(seat, move))
        self._told.append(Sentence(ToldKind.MOVE, f"{{{seat}}} plays {card}", seat))
        self._settle()

    def _mine(self, card: str) -> bool:
        return any(cards is not None and card in cards for cards in self._hands)

    def _settle(self) -> None:
        """Close the trick once every seat at the table has played to it."""
        played = {seat for seat, _ in self._trick}
        if self._trick and all(seat in played for seat in self._seated()):
            winner, _ = max(self._trick, key=lambda pair: int(pair[1]))
            self._told.append(Sentence(ToldKind.RESULT, f"{{{winner}}} wins the trick", winner))
            self._won[winner] += 1
            self._leader = winner
            self._trick = []

    def resolve(self, outcome: Sequence[str] | int | None) -> None:
        waiting = self.waiting
        if not isinstance(waiting, Deal):
            raise ValueError("no deal is awaited")
        seat = waiting.seat
        if outcome is None:
            if self._sees(seat):
                raise ValueError(f"this table must see the cards dealt to seat {seat}")
            self._events.append(Dealt(seat, HAND))
        else:
            if isinstance(outcome, int) or len(outcome) != HAND:
                raise ValueError(f"a deal is {HAND} cards")
            cards = [str(card) for card in outcome]
            if any(card not in CARDS or card in self._played or self._mine(card) for card in cards):
                raise ValueError(f"{cards} cannot be dealt")
            hand = self._hands[seat]
            if hand is None:
                raise ValueError(f"this table cannot see seat {seat}'s hand")
            hand.extend(cards)
            self._events.append(Dealt(seat, tuple(cards)))
        self._sizes[seat] = HAND
        self._dealt = (seat + 1) * HAND
        self._drawn += HAND

    def remove_seat(self, seat: int) -> HandOutOfGame:
        if seat in self._departed or not 0 <= seat < self._players or self.waiting is None:
            raise ValueError(f"seat {seat} is not at the table, or the game is over")
        count = self._sizes[seat]
        self._departed.add(seat)
        self._sizes[seat] = 0
        if self._hands[seat] is not None:
            self._hands[seat] = []
        self._events.append(SeatLeft(seat))
        self._settle()
        self._deal_from_order()
        return HandOutOfGame(seat, count)

    def copy(self) -> Game:
        other = object.__new__(Game)
        other.__dict__.update(self.__dict__)
        other._hands = [None if h is None else list(h) for h in self._hands]
        other._sizes, other._won = list(self._sizes), list(self._won)
        other._trick, other._events = list(self._trick), list(self._events)
        other._told = list(self._told)
        other._departed, other._played = set(self._departed), set(self._played)
        return other

    def record(self) -> dict[str, Any]:
        return {**self._header, "events": [event.to_json() for event in self._events]}

    @property
    def events(self) -> tuple[RecordEvent, ...]:
        return tuple(self._events)

    @property
    def narration_length(self) -> int:
        return len(self._told)

    def narration(self, start: int = 0) -> tuple[Sentence, ...]:
        return tuple(self._told[start:])

    def view(self, seat: int) -> SeatView:
        spectating = self._hands[seat] is None
        if spectating and self.observer != SPECTATOR:
            raise ValueError(f"this table cannot see seat {seat}'s hand")
        return SeatView(
            seat=seat,
            phase=self.phase,
            to_act=self.to_act,
            legal_moves=() if spectating or self.to_act != seat else tuple(self.legal_moves()),
            hand=() if spectating else self.hand(seat),
            trick=self.trick,
            leader=self._leader,
            tricks_won=self.tricks_won,
            hand_sizes=tuple(self._sizes),
        )
