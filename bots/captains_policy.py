"""Condottieri Captains' playouts for the search (:mod:`condottiere.bots.ismcts`): the greedy
strategy's move with a little randomness, for :data:`PLAYOUT_MOVES` moves (about a round of a
three-seat table), then scored by an estimate of each seat's chances fitted to who wins in
greedy games: provinces, armies, cards in hand, ducats and the provinces a seat with no captain
(or a single one) is open to lose, weighed by the stage of the game (:func:`rewards`,
:func:`standing`); the greedy move
(but no offer in diplomacy) as the search's default (:func:`default_move`), and the moves
worth searching (:func:`candidates`).
The search compares these moves on common samples rather than growing a tree
(:attr:`~condottiere.bots.policies.Policy.compare_at_root`).

>>> from condottiere.games.captains import Game
>>> game = Game.setup(2, cities=["naples", "pisa"], hands=[[], []], seed=0, deck=["duchy"])
>>> [round(r, 2) for r in rewards(game)]
[0.65, 0.35]
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from condottiere.bots.captains_greedy import greedy_move
from condottiere.bots.captains_trade import accepts, offers
from condottiere.bots.fitting import shares, weighed
from condottiere.games.captains import Game, Move, Phase, Verb
from condottiere.games.captains.cards import CAPTAINS
from condottiere.games.captains.turn import neighbours
from condottiere.interface.events import HandProved, MovePlayed

__all__ = [
    "ITERATIONS",
    "PLAYOUT_MOVES",
    "STAGES",
    "STANDING_FEATURES",
    "STANDING_WEIGHTS",
    "candidates",
    "captain_holders",
    "default_move",
    "playout_move",
    "rewards",
    "sampler",
    "stage",
    "standing",
    "standing_features",
]

PLAYOUT_MOVES = 30
"""A playout is cut after this many moves (about one round of a three-seat table) and scored
where it stands. A game between greedy players runs 130 to 300 moves and ends, more often
than not, in one seat conquering the others, which seat depending much on the cards drawn: a
playout to the end says little about the move at its root. Cut short, a playout is cheaper
(more playouts for the same time) and its score answers the question that matters a round
ahead, who holds the provinces and who is open to losing them (:func:`standing`)."""
ITERATIONS = 120
"""The search's playouts a move when it is given no budget (a seed then replays a game)."""
EXPLORE_IN_PLAYOUT = 0.05
"""The share of playout moves chosen uniformly among the legal ones."""
STANDING_FEATURES = (
    "provinces",
    "force",
    "cards",
    "ducats",
    "exposed",
    "captains",
    "best captain",
    "captains in hand",
    "thin",
    "revenue cards",
)
"""What the estimate knows of a seat (:func:`standing_features`, in this order): its
provinces; the force (TFR) of its captains in play, summed; the cards in its hand; its ducats;
with no captain in play, the provinces it is open to lose (a province for each captain its
neighbours could attack it with, at most all it holds), else 0; its captains in play; the
force of its strongest; the captains in its hand (known to the sample the search plays on;
on a seat's own engine, those it has seen); with exactly one captain in play, the provinces it
would be open to lose if that one went (bought, assassinated, beaten with no troop), else 0;
the revenue cards on its provinces."""
STAGES = (2, 5, 10)
"""The last round of each stage of the game the estimate weighs on its own (a round is done
when every seat in the game has had that many turns): the opening, the middle, the end."""
STANDING_WEIGHTS: tuple[tuple[float, ...], ...] = (
    (0.3560, 0.1400, 0.2073, 0.0085, -0.2847, -0.3818, 0.0522, 0.1618, -0.1539, 0.1146),
    (0.3466, 0.0520, 0.1568, 0.0098, -0.5856, 0.0744, 0.1583, 0.0813, -0.1718, 0.1258),
    (0.7337, 0.0965, 0.0565, 0.0205, -0.8329, 0.0151, 0.0643, 0.3373, -0.2326, 0.0357),
)
"""Each stage's weight of each of :data:`STANDING_FEATURES`, fitted to who wins by
``scripts/fit_captains_standing.py`` (a conditional logit over the seats, from positions of
6,000 three-seat games of greedy bots, seeds 100000 on): the weights under which the
victories that followed those positions were most likely (the figures are in the docstring
of :func:`standing`)."""


def playout_move(game: Game, seat: int, legal: Sequence[Move], rng: random.Random) -> Move:
    """The greedy move, or now and then a random one."""
    if len(legal) == 1:
        return legal[0]
    if rng.random() < EXPLORE_IN_PLAYOUT:
        return rng.choice(list(legal))
    return greedy_move(game, seat, legal, rng)


def default_move(game: Game, seat: int, legal: Sequence[Move]) -> Move:
    """The greedy strategy's move (its ties broken the same way every time), but no offer in
    diplomacy: a seat that never trades beat the greedy bots (34.0% [27.4%, 40.6%] of 4-seat
    games against three, where a fair share is 25%); an offer is made where the search finds
    it pays."""
    if game.phase is Phase.DIPLOMACY:
        done = [move for move in legal if move.verb is Verb.DONE]
        if done:
            return done[0]
    return greedy_move(game, seat, legal, random.Random(0))


def sampler(view: Game) -> Callable[[random.Random], Game]:
    """How to sample open tables from ``view``, a seat's engine: its ``determinise``, kept only
    where every hidden hand proven to hold a captain (:func:`captain_holders`) holds one (else
    sampled again, up to :data:`SAMPLE_TRIES` times: the last sample taken after that).

    The engine deals the unseen cards at random; a hand kept at the deal proved that it holds
    a captain, and about a third of random hands hold none: such a sample shows a rival open
    to attack, or unable to recruit, where he is not."""
    holders = [seat for seat in captain_holders(view) if view.hidden_count(seat)]
    if not holders:
        return view.determinise

    def sample(rng: random.Random) -> Game:
        for _ in range(SAMPLE_TRIES):
            table = view.determinise(rng)
            if all(_CAPTAINS.intersection(table.hand(seat)) for seat in holders):
                break
        return table

    return sample


SAMPLE_TRIES = 30
"""Samples :func:`sampler` draws at most for one that gives every proven hand a captain (a
third of random hands of seven hold none: with two hands proven, a try fails about half the
time, and all 30 about once in 10**8)."""
_CAPTAINS = frozenset(CAPTAINS)


def captain_holders(game: Game) -> list[int]:
    """The seats in the game whose hand must hold a captain as far as the public record
    shows: each proved it at the deal, when it kept its hand, and no captain has left that
    hand since (put into play, discarded, or traded).

    >>> game = Game.setup(2, cities=["milan", "pisa"], hands=[["gonzaga"], []], seed=0,
    ...                   deck=["duchy"])
    >>> captain_holders(game)  # a hand set up, not dealt and kept: nothing proved
    []
    """
    holders: set[int] = set()
    offer: tuple[int, Move] | None = None
    for event in game.events:
        if isinstance(event, HandProved):
            holders.add(event.seat)
        elif isinstance(event, MovePlayed) and isinstance(event.move, Move):
            seat, move = event.seat, event.move
            if move.verb is Verb.OFFER:
                offer = (seat, move)
            elif move.verb is Verb.ACCEPT and offer is not None:
                offerer, made = offer
                assert made.give is not None and made.get is not None
                if _CAPTAINS.intersection(made.give.cards):
                    holders.discard(offerer)
                if _CAPTAINS.intersection(made.get.cards):
                    holders.discard(seat)
            elif move.card in _CAPTAINS:
                holders.discard(seat)
    return [seat for seat in game.in_game if seat in holders]


def candidates(game: Game, legal: Sequence[Move]) -> Sequence[Move]:
    """The moves worth searching: in diplomacy, the offers trading by the victory rule
    (:func:`~condottiere.bots.captains_trade.offers`) and done; in an answer, never an
    acceptance that gives a province away without winning; while the upkeep can be paid, no
    troop or captain given up."""
    seat = game.to_act
    if game.phase is Phase.DIPLOMACY and seat is not None:
        return [*offers(game, seat, legal), *(m for m in legal if m.verb is not Verb.OFFER)]
    if game.phase is Phase.ANSWER and seat is not None and not accepts(game, seat):
        offer = game.offer
        if offer is not None and offer.get is not None and offer.get.provinces:
            return [move for move in legal if move.verb is not Verb.ACCEPT]
    if game.phase is Phase.UPKEEP and any(move.verb is Verb.PAY for move in legal):
        return [move for move in legal if move.verb is Verb.PAY]
    return legal


def rewards(game: Game) -> list[float]:
    """Win shares once the game is over; before, a softmax of each seat's standing
    (:func:`standing`)."""
    players = game.players
    if game.phase is Phase.OVER:
        winners = game.winners
        return [1 / len(winners) if seat in winners else 0.0 for seat in range(players)]
    in_game = set(game.in_game)
    return shares(
        [standing(game, seat) if seat in in_game else -math.inf for seat in range(players)]
    )


def stage(game: Game) -> int:
    """The stage of the game (an index of :data:`STAGES`): by the rounds every seat still in
    the game has played."""
    rounds = min((game.turns[seat] for seat in game.in_game), default=STAGES[-1])
    return next((index for index, last in enumerate(STAGES) if rounds <= last), len(STAGES) - 1)


def standing(game: Game, seat: int) -> float:
    """How well ``seat`` stands: its features (:func:`standing_features`) weighed by the
    weights of the game's stage (:data:`STANDING_WEIGHTS`), in the units of a log-odds of
    winning (:func:`rewards` takes the softmax over the seats).

    Fitted, it predicts who wins better than the worths set by hand before it (a province
    1, a point of force 0.15, a card 0.3, a ducat 0.05, less a province for each captain a
    seat with none in play was open to, the whole times 0.6): on positions of 1,200 greedy
    games kept out of the fit, the mean log loss of who won (equal shares 1.092, 0.887,
    0.716 in the opening, middle and end) was 0.992, 0.636 and 0.334 by hand, 0.948, 0.565
    and 0.305 fitted. A ducat weighs about a fiftieth of a province (a twentieth by hand):
    ducats only break ties, and a purse kept is an army not raised.
    """
    return weighed(STANDING_WEIGHTS[stage(game)], standing_features(game, seat))


def standing_features(game: Game, seat: int) -> tuple[float, ...]:
    """``seat``'s values of :data:`STANDING_FEATURES`, in that order.

    >>> game = Game.setup(2, cities=["milan", "pisa"], hands=[["gonzaga", "duchy"], []],
    ...                   seed=0, ducats=[12, 10], armies=[{}, {"faggiuola": ["pikemen"]}],
    ...                   deck=["spies"])
    >>> game.hand(0), game.ducats  # seat 0's turn began: it drew, and took its revenue
    (('spies', 'duchy', 'gonzaga'), (17, 10))
    >>> standing_features(game, 0)  # no captain in play: open to a province's loss
    (5, 0, 3, 17, 1, 0, 0, 1, 0, 0)
    >>> standing_features(game, 1)  # one captain of 2 + 2, and no captain across the border
    (5, 4, 0, 10, 0, 1, 4, 0, 0, 0)
    """
    army = game.army(seat)
    forces = [game.tfr(captain) for captain in army]
    provinces = game.provinces[seat]
    open_to = 0
    if len(army) <= 1:
        attackers = sum(len(game.army(other)) for other in neighbours(game, seat))
        open_to = min(attackers, provinces)
    return (
        provinces,
        sum(forces),
        game.hand_size(seat),
        game.ducats[seat],
        open_to if not army else 0,
        len(army),
        max(forces, default=0),
        len(_CAPTAINS.intersection(game.known_cards(seat))),
        open_to if len(army) == 1 else 0,
        len(game.revenues(seat)),
    )
