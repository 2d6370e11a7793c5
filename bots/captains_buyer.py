"""Scripted Condottieri Captains adversaries that play the greedy strategy but in their
diplomacy phases: the **province buyer**, which offers ducats for a province every time, the
**captain buyer**, which offers ducats for each rival's strongest captain in play, and the
**card buyer**, which looks at a rival's hand whenever it holds a look and buys what it saw.

They are what a friend at a LAN party tries first against bots that weigh a province, or a
captain, in ducats: buy provinces, since they decide the game, or buy the captains that guard
them. They are not command line strategies; the trading benchmark
(``scripts/bench_trading.py``) and the tests seat them, and a tournament can, as
``condottiere.bots.captains_buyer:ProvinceBuyer``, ``...:CaptainBuyer`` or ``...:CardBuyer``.

Each diplomacy phase it offers to every rival with a province to spare, the richest in
provinces first, :data:`OFFER` ducats (or all it has, when less, but at least
:data:`FLOOR`) for one province.

>>> from condottiere.games.captains import Game
>>> game = Game.setup(2, cities=["milan", "pisa"], hands=[[], []], seed=0, deck=["duchy"],
...                   ducats=[30, 5])
>>> for move in ("done", "done"):
...     game.play(move)
>>> str(ProvinceBuyer().choose(game, 0))
'offer 1 give 12d get 1p'
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence

from condottiere.bots.captains_greedy import CaptainsGreedy, greedy_move
from condottiere.bots.captains_intel import by_rule
from condottiere.bots.captains_trade import captain_purchases
from condottiere.games.captains import Bundle, Game, IllegalMoveError, Move, Phase, Verb

__all__ = ["FLOOR", "OFFER", "CaptainBuyer", "CardBuyer", "ProvinceBuyer"]

OFFER = 12
"""Ducats offered for a province."""
FLOOR = 6
"""The least it offers: with fewer ducats it makes no offer."""


class _Buyer(ABC):
    """The greedy strategy but in its diplomacy phases, where it makes its offer to each rival
    at most once a turn."""

    name = ""

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)
        self._asked: tuple[tuple[int, ...], set[int]] = ((), set())

    def choose(self, game: Game, seat: int) -> Move:
        moves = game.legal_moves()
        if game.phase is Phase.DIPLOMACY:
            when, asked = self._asked
            if when != game.turns:
                asked = set()
                self._asked = (game.turns, asked)
            offer = self._next_offer(game, seat, moves, asked)
            if offer is not None:
                return offer
        return greedy_move(game, seat, moves, self._rng)

    @abstractmethod
    def _next_offer(
        self, game: Game, seat: int, moves: Sequence[Move], asked: set[int]
    ) -> Move | None:
        """The next offer to a rival not in ``asked`` this turn (added to it), if any."""


class ProvinceBuyer(_Buyer):
    """Offers ducats for provinces every turn; the greedy strategy otherwise."""

    name = "province-buyer"

    def _next_offer(
        self, game: Game, seat: int, moves: Sequence[Move], asked: set[int]
    ) -> Move | None:
        price = min(OFFER, game.ducats[seat])
        if price < FLOOR:
            return None
        rivals = sorted(
            (s for s in game.in_game if s != seat and s not in asked and game.provinces[s] > 1),
            key=lambda s: (-game.provinces[s], s),
        )
        for other in rivals:
            asked.add(other)
            move = Move(Verb.OFFER, seat=other, give=Bundle(ducats=price),
                        get=Bundle(provinces=1))
            trial = game.copy()
            try:
                trial.play(move)
            except IllegalMoveError:
                continue
            return move
        return None


class CaptainBuyer(_Buyer):
    """Offers, every diplomacy phase, ducats for each rival's strongest captain in play it can
    pay for (at the price :func:`~condottiere.bots.captains_trade.captain_purchases` puts on
    him, a greedy seller's own measure of his worth); the greedy strategy otherwise.

    >>> from condottiere.games.captains import Game
    >>> game = Game.setup(2, cities=["genoa", "pisa"], hands=[[], []], seed=0, deck=["duchy"],
    ...                   ducats=[30, 5], armies=[{}, {"gonzaga": ["pikemen"]}])
    >>> for move in ("done", "done"):
    ...     game.play(move)
    >>> str(CaptainBuyer().choose(game, 0))
    'offer 1 give 13d get gonzaga'
    """

    name = "captain-buyer"

    def _next_offer(
        self, game: Game, seat: int, moves: Sequence[Move], asked: set[int]
    ) -> Move | None:
        for offer in captain_purchases(game, seat, moves):
            if offer.seat is not None and offer.seat not in asked:
                asked.add(offer.seat)
                return offer
        return None


class CardBuyer:
    """The greedy strategy, but playing the search's moves by rule
    (:func:`~condottiere.bots.captains_intel.by_rule`): a look at the hand of the rival who
    hides the most cards whenever it holds a look, then offers for the treachery,
    assassination, captains and looks it saw there, at the price the greedy rules put on a
    card, which they accept.

    >>> from condottiere.games.captains import Game
    >>> game = Game.setup(3, cities=["milan", "pisa", "genoa"], seed=0, deck=["crossbowmen"],
    ...                   hands=[["spies"], ["gonzaga"], ["pikemen"]], ducats=[30, 5, 5])
    >>> buyer = CardBuyer()
    >>> for _ in range(3):
    ...     game.play(buyer.choose(game, 0))
    >>> str(buyer.choose(game, 0))
    'offer 1 give 8d get gonzaga'
    """

    name = "card-buyer"

    def __init__(self, seed: int = 0) -> None:
        self._greedy = CaptainsGreedy(seed)

    def choose(self, game: Game, seat: int) -> Move:
        if game.phase in (Phase.EVENTS, Phase.DIPLOMACY) and game.to_act == seat:
            move = by_rule(game.seen_by(seat), seat, game.legal_moves())
            if move is not None:
                return move
        return self._greedy.choose(game, seat)
