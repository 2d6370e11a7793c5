"""What the Captains search cannot value by itself: looking at a rival's hand, and buying what
a look showed.

The search (:mod:`condottiere.bots.ismcts`) plays each candidate out on tables dealt at
random from what its seat's engine knows, every hand open in each of them: on such a table
a look at a hand shows nothing new, so a look is worth nothing to it, and a card bought
from a rival is worth only what it does in the few dozen moves a playout lasts. Yet a hand
seen is a hand the samples deal as it is (every rival's true hand is worth about eleven
points of win share to the search, measured by dealing them to its samples), for as long as
its cards stay in it. So its seat plays by rule, before it searches:

- **in its events phase**, an event that looks at a hand (Spies and the four others), aimed
  at the rival who hides the most cards from it (:func:`look_move`);
- **in its diplomacy phase**, offers for cards its engine knows a rival holds, at what the
  seller's own rules of thumb say such a card is worth (:func:`purchases`): the rivals'
  treachery and assassination first (a rival's purchase or assassination of the seat's
  strongest captain began several of the search's lost games), then captains from the
  strongest down (a captain in hand is a blocker to come), then looks.

Against the greedy bots, which sell a card of their hand at that price, the purchases are what
these rules gain; against bots that keep such cards, they gain nothing measurable (the README's
"Looking, and buying what a look shows").

>>> from condottiere.games.captains import Game
>>> table = Game.setup(3, cities=["milan", "pisa", "genoa"], seed=0, deck=["crossbowmen"],
...                    hands=[["spies"], ["gonzaga", "treachery"], ["pikemen"]],
...                    ducats=[30, 5, 5])
>>> table.play("done")  # seat 0 drew a crossbowmen, and takes no captain
>>> str(look_move(table.seen_by(0), 0, table.legal_moves()))
'event spies 1'
>>> for move in ("event spies 1", "done"):
...     table.play(move)
>>> [str(move) for move in purchases(table.seen_by(0), 0, table.legal_moves())]
['offer 1 give 2d get treachery', 'offer 1 give 8d get gonzaga']
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from condottiere.bots.captains_greedy import card_worth
from condottiere.bots.captains_trade import RESERVE
from condottiere.games.captains import CARDS, Bundle, Effect, Game, Kind, Move, Phase, Verb
from condottiere.games.captains.legality import offer_ok
from condottiere.games.captains.turn import neighbours, upkeep_cost
from condottiere.interface.events import ForcedMove, MovePlayed

__all__ = ["by_rule", "look_move", "purchases"]

_THREATS = frozenset({Effect.CONTROL, Effect.ASSASSINATE})


def by_rule(view: Game, seat: int, legal: Sequence[Move]) -> Move | None:
    """The move ``seat`` plays by rule before any search (see the module docstring), from
    its own engine ``view``; None: search."""
    if view.phase is Phase.EVENTS:
        return look_move(view, seat, legal)
    if view.phase is Phase.DIPLOMACY:
        tried = _offers_made(view, seat)
        return next((offer for offer in purchases(view, seat, legal) if offer not in tried),
                    None)
    return None


def look_move(view: Game, seat: int, legal: Sequence[Move]) -> Move | None:
    """Of ``legal``, a look at the hand of the rival who hides the most cards from ``view``
    (a neighbour first, then the lower seat, among equals); None when ``seat`` holds no look
    or no rival hides a card from it."""
    looks = {
        move: move.seat
        for move in legal
        if move.verb is Verb.EVENT
        and move.seat is not None
        and CARDS[str(move.card)].effect is Effect.LOOK
        and view.hidden_count(move.seat)
    }
    if not looks:
        return None
    near = set(neighbours(view, seat))
    return max(
        looks,
        key=lambda move: (view.hidden_count(looks[move]), looks[move] in near, -looks[move]),
    )


def purchases(view: Game, seat: int, legal: Sequence[Move]) -> list[Move]:
    """The offers ``seat`` makes now for cards ``view`` knows a rival holds, best first: each
    at the price the greedy rules put on the card (:func:`~condottiere.bots.captains_greedy.
    card_worth`, rounded up: a seat that plays by them accepts it), while ``seat`` keeps its
    next upkeep and the trading rules' reserve (:data:`~condottiere.bots.captains_trade.
    RESERVE`); only offers the engine accepts. Empty outside its diplomacy phase, or when it
    may make no more offers."""
    if view.phase is not Phase.DIPLOMACY or not any(m.verb is Verb.OFFER for m in legal):
        return []
    spare = view.ducats[seat] - upkeep_cost(view, seat) - RESERVE
    wanted: list[tuple[tuple[int, float, str, int], Move]] = []
    for other in view.in_game:
        if other == seat:
            continue
        for card in dict.fromkeys(view.known_cards(other)):
            rank = _rank(card)
            price = math.ceil(card_worth(card))
            if rank is None or price > spare:
                continue
            offer = Move(Verb.OFFER, seat=other, give=Bundle(ducats=price),
                         get=Bundle(cards=(card,)))
            wanted.append(((rank, -CARDS[card].force, card, other), offer))
    return [offer for _, offer in sorted(wanted) if offer_ok(view, seat, offer)]


def _rank(card: str) -> int | None:
    """How much ``card`` is wanted from a rival (lower first), None: not bought."""
    info = CARDS[card]
    if info.effect in _THREATS:
        return 0
    if info.kind is Kind.CAPTAIN:
        return 1
    if info.effect is Effect.LOOK:
        return 2
    return None


def _offers_made(view: Game, seat: int) -> set[Move]:
    """The offers ``seat`` has made in the diplomacy phase under way (read back from the
    record: its offers and their answers are the phase's last moves)."""
    made: set[Move] = set()
    for event in reversed(view.events):
        if not isinstance(event, MovePlayed | ForcedMove):
            continue
        move = event.move if isinstance(event.move, Move) else Move.parse(str(event.move))
        if move.verb is Verb.OFFER and event.seat == seat:
            made.add(move)
        elif move.verb not in (Verb.ACCEPT, Verb.REFUSE):
            break
    return made
