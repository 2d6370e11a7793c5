"""Captains tables with no socket, played so that a seat searches the deck for a named card.

A :class:`Seeker` plays every seat: it plays New Contract as soon as it holds it and a captain
of the kind the test wants can be named (one still in the draw pile, or one hidden in another
seat's hand), and otherwise keeps clear of what would end the game or ask the table for more
than deals, fair choices and searches (no attack, no trade, no look at a hand), so that the
table plays on until the searches the test waits for have happened. It peeks at every seat's
hand to know where a captain is: it is the test's referee, not a player.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from condottiere.bots import make_bot
from condottiere.games.captains.cards import CAPTAINS, CARDS, Effect
from condottiere.games.captains.legality import searchable
from condottiere.games.captains.moves import Move, Verb
from condottiere.peer.driver import Table
from tests.peer.captains import stack_captains
from tests.peer.cheats import Cheat, CheatHarness
from tests.peer.test_silence import Departing

GAME = "captains"
EDITION = "standard"
SEARCH = next(card for card, kind in CARDS.items() if kind.effect is Effect.SEARCH)
"""New Contract: the event that searches the deck for a captain."""
OPTIONS = ("all-draw",)
"""Every seat draws at each turn: the cards go round faster (New Contract among them), and the
draw pile is formed again during the game."""
_AVOIDED_EFFECTS = frozenset({Effect.LOOK, Effect.MUST_ATTACK})


class Referee:
    """Knows where each captain is, from every seat's own hand (a dead seat's as it was when
    it died): which searches a :class:`Seeker` plays, and what each should find."""

    def __init__(self, tables: list[Table], found: bool, searchers: set[int]) -> None:
        self.tables = tables
        self.found = found
        self.searchers = searchers
        self.named: list[tuple[int, str, bool]] = []
        """Each search played: the seat, the captain named, and whether it was in the draw
        pile."""

    def holders(self, captain: str) -> list[int]:
        """The seats whose hand holds ``captain``."""
        return [
            seat
            for seat, table in enumerate(self.tables)
            if table.game is not None and captain in table.game.hand(seat)
        ]

    def in_pile(self, seat: int, captain: str) -> bool:
        """Whether ``captain`` is in the draw pile: in no hand, and nowhere in sight of
        ``seat``."""
        game = self.tables[seat].game
        assert game is not None
        return not self.holders(captain) and captain in searchable(game, seat)

    def wanted(self, seat: int, captain: str) -> bool:
        """Whether ``seat`` searches for ``captain`` now."""
        if captain not in CAPTAINS or seat not in self.searchers:
            return False
        if self.found:
            return self.in_pile(seat, captain)
        return any(holder != seat for holder in self.holders(captain))


class Seeker:
    """The strategy of every seat of a table searched (see the module); a captain it found
    goes into play at its first chance."""

    name = "seeker"

    def __init__(self, referee: Referee, seed: int) -> None:
        self.referee = referee
        self.rng = random.Random(seed)
        self.greedy = make_bot("greedy", seed=seed)

    def choose(self, game: Any, seat: int) -> str:
        legal: list[Move] = list(game.legal_moves())
        searches = [
            move
            for move in legal
            if move.verb is Verb.EVENT
            and move.card == SEARCH
            and move.captain is not None
            and self.referee.wanted(seat, move.captain)
        ]
        if searches:
            chosen = self.rng.choice(searches)
            assert chosen.captain is not None
            in_pile = self.referee.in_pile(seat, chosen.captain)
            self.referee.named.append((seat, chosen.captain, in_pile))
            return str(chosen)
        found = {card for searcher, card, in_pile in self.referee.named if searcher == seat}
        recruits = [m for m in legal if m.verb is Verb.CAPTAIN and m.card in found]
        if recruits:  # the captain found goes into play: shown from the slot the search took
            return str(recruits[0])
        allowed = [move for move in legal if _keeps_the_table_going(move)]
        greedy = self.greedy.choose(game, seat)
        if greedy in allowed or not allowed:
            return str(greedy)
        if any(move.verb is Verb.DONE for move in allowed):
            return "done"
        return str(self.rng.choice(allowed))


def _keeps_the_table_going(move: Move) -> bool:
    if move.verb in (Verb.ATTACK, Verb.OFFER, Verb.ACCEPT):
        return False
    if move.verb is Verb.DISCARD and move.card == SEARCH:
        return False
    if move.verb is Verb.EVENT and move.card is not None:
        effect = CARDS[move.card].effect
        return effect not in _AVOIDED_EFFECTS and move.card != SEARCH
    return True


class SearchHarness(Departing):
    """Captains tables whose seats search the deck (see :class:`Referee`); seats may die as in
    :class:`Departing`."""

    def __init__(
        self,
        seats: int,
        *,
        found: bool,
        seed: int = 0,
        searchers: set[int] | None = None,
        **kwargs: Any,
    ) -> None:
        """``searchers``: the seats that search (every seat when None)."""
        super().__init__(EDITION, seats, OPTIONS, seed=seed, game=GAME, **kwargs)
        self.referee = Referee(self.tables, found, searchers or set(range(seats)))
        self.bots = [Seeker(self.referee, seed + seat) for seat in range(seats)]  # type: ignore[misc]

    def play_search(self) -> bool:
        """Play until every live table has resolved a search (True), or the game is over
        without one (False: New Contract never reached a seat that could play it)."""
        self.run(until=lambda: all(searches_of(t) for t in self.live()))
        return all(searches_of(t) for t in self.live())


def search_at_once(monkeypatch: pytest.MonkeyPatch, seats: int, searcher: int = 0) -> None:
    """Stack the next game so that a search comes at ``searcher``'s first turn: seat 0 plays
    first, ``searcher`` is dealt New Contract, and every seat's opening hand holds a captain
    (so that none takes a mulligan, and a captain is hidden in each other seat's hand)."""
    stack_captains(monkeypatch, seats, {searcher: SEARCH})


def searched(
    monkeypatch: pytest.MonkeyPatch, seats: int, *, found: bool, seed: int, **kwargs: Any
) -> SearchHarness:
    """A table played until a search resolved on every live peer, its deck stacked so that
    seat 0 searches at once (:func:`search_at_once`)."""
    search_at_once(monkeypatch, seats)
    harness = SearchHarness(seats, found=found, seed=seed, **kwargs)
    assert harness.play_search(), "no search"
    return harness


def searches_of(table: Table) -> list[tuple[int, str, bool]]:
    """The searches a table's game resolved: (seat, card, found)."""
    if table.game is None:
        return []
    return [
        (event[1], event[2], event[3])
        for event in table.game.record()["events"]
        if event[0] == "search"
    ]


def cheat_harness(
    cheat: type[Cheat], seat: int = 1, seed: int = 0, searchers: set[int] | None = None
) -> CheatHarness:
    """Three Captains seats, ``cheat`` at ``seat``, :class:`~tests.peer.cheats.Witness` tables
    at the others; ``searchers`` (every seat when None) search for captains in the pile."""
    harness = CheatHarness(EDITION, 3, cheat, seat, seed=seed, options=OPTIONS, game=GAME)
    referee = Referee(harness.tables, True, {0, 1, 2} if searchers is None else searchers)
    harness.bots = [Seeker(referee, seed + s) for s in range(3)]  # type: ignore[misc]
    return harness
