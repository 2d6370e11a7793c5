"""Condottieri Captains' playouts for the search (:mod:`condottiere.bots.ismcts`): the greedy
strategy's move with a little randomness, for :data:`PLAYOUT_MOVES` moves (about a round of a
three-seat table), then scored from provinces, armies, cards in hand, ducats and the provinces
a seat with no captain is open to lose (:func:`rewards`, :func:`standing`); the greedy move
(but no offer in diplomacy) as the search's default (:func:`default_move`), and the moves
worth searching (:func:`candidates`).
The search compares these moves on common samples rather than growing a tree
(:attr:`~condottiere.bots.policies.Policy.compare_at_root`).

>>> from condottiere.games.captains import Game
>>> game = Game.setup(2, cities=["naples", "pisa"], hands=[[], []], seed=0, deck=["duchy"])
>>> [round(r, 2) for r in rewards(game)]
[0.72, 0.28]
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from condottiere.bots.captains_greedy import greedy_move
from condottiere.bots.captains_trade import accepts, offers
from condottiere.games.captains import Game, Move, Phase, Verb
from condottiere.games.captains.cards import CAPTAINS
from condottiere.games.captains.turn import neighbours
from condottiere.interface.events import HandProved, MovePlayed

__all__ = [
    "CARD_WORTH",
    "ITERATIONS",
    "PLAYOUT_MOVES",
    "candidates",
    "captain_holders",
    "default_move",
    "playout_move",
    "rewards",
    "sampler",
    "standing",
]

PLAYOUT_MOVES = 30
"""A playout is cut after this many moves (about one round of a three-seat table) and scored
where it stands. A game between greedy players runs 130 to 300 moves and ends, more often
than not, in one seat conquering the others, which seat depending much on the cards drawn: a
playout to the end says little about the move at its root. Cut short, a playout is cheaper
(more playouts for the same time) and its score answers the question that matters a round
ahead, who holds the provinces and who is open to losing them (:data:`EXPOSED_WORTH`)."""
ITERATIONS = 120
"""The search's playouts a move when it is given no budget (a seed then replays a game)."""
EXPLORE_IN_PLAYOUT = 0.05
"""The share of playout moves chosen uniformly among the legal ones."""
SHARPNESS = 0.6
"""How sharply the estimate favours the seat with the best standing, per province."""
DUCAT_WORTH = 0.05
"""Provinces a ducat is worth in the estimate. Ducats only break ties at the end; a purse
kept rather than spent on troops and captains is what leaves a seat the weakest army, the one
both neighbours attack (measured at 0.1 s of CPU a move against two greedy bots: 0.1 a ducat,
with :data:`FORCE_WORTH` at 0.08 and no worth for :data:`CARD_WORTH`, won 50.0% of 96 games
where these weights won 59.4% of the same; on seeds 1-200, 46.0% and 47.5%, within the
noise)."""
FORCE_WORTH = 0.15
"""Provinces a point of TFR in play is worth in the estimate: the strongest army is the one
its neighbours cannot take provinces from."""
CARD_WORTH = 0.3
"""Provinces a card in hand is worth in the estimate: captains for an emergency defence,
troops to come, battle cards to win a blocked battle. Without it a card played is free, and
the search spends its hand on battles it loses anyway."""
EXPOSED_WORTH = 1.0
"""Provinces a seat with no captain in play stands to lose to each captain of its neighbours
(an unblocked attack takes a province), counted against it in the estimate."""


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
    standings = [standing(game, seat) if seat in in_game else -math.inf for seat in range(players)]
    top = max(standings)
    weights = [math.exp(SHARPNESS * (value - top)) for value in standings]
    total = sum(weights)
    return [weight / total for weight in weights]


def standing(game: Game, seat: int) -> float:
    """How well ``seat`` stands, in provinces: its provinces, a little for the force of its
    captains, for each card in its hand and for its ducats; without a captain in play, less a
    province for each captain its neighbours could attack it with (at most all it holds)."""
    army = game.army(seat)
    force = sum(game.tfr(captain) for captain in army)
    value = (
        game.provinces[seat]
        + FORCE_WORTH * force
        + CARD_WORTH * game.hand_size(seat)
        + DUCAT_WORTH * game.ducats[seat]
    )
    if not army:
        attackers = sum(len(game.army(other)) for other in neighbours(game, seat))
        value -= EXPOSED_WORTH * min(attackers, game.provinces[seat])
    return value
