"""Where the cards lie and how they move between the draw piles, the hands, the discard pile
and out of the game: the bookkeeping under every rule that deals, plays or throws away a card.

There is one draw pile, or one per seat in ``zman-duel`` (:func:`deck_of`). A draw pile is
re-formed at each *epoch* (a new game, a reshuffle: :func:`gather`) and dealt from the top;
an omniscient engine remembers what it held when its epoch began and what has been dealt from
it since (:func:`pile_contents`), an engine that sees one seat only counts its cards. A hand
is a counter of cards this engine sees, a count of those it does not (``_unknown``) and its
size; its kinds of card are kept as bits for the move tables (:mod:`.tables`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from condottiere.games.condottiere.cards import CARDS
from condottiere.games.condottiere.tables import kinds_of

if TYPE_CHECKING:
    from condottiere.games.condottiere.game import Game

__all__ = [
    "deck_of",
    "discard_hand",
    "fill_pile",
    "gather",
    "give",
    "in_notation_order",
    "pile_contents",
    "throw_away",
]


def in_notation_order(counter: Counter[str]) -> tuple[str, ...]:
    """The cards ``counter`` counts, in notation order.

    >>> in_notation_order(Counter({"spy": 1, "10": 2, "2": 1}))
    ('2', '10', '10', 'spy')
    """
    cards: list[str] = []
    for card in CARDS:
        count = counter.get(card)
        if count:
            cards += [card] * count
    return tuple(cards)


def deck_of(game: Game, seat: int) -> int:
    """The draw pile ``seat`` draws from."""
    return seat if game.edition.per_seat_decks else 0


def fill_pile(game: Game, pile: int, cards: tuple[str, ...]) -> None:
    """Re-form draw pile ``pile`` from ``cards``, in notation order."""
    if game.observer is None:
        game._pile_start[pile] = cards
        game._pile_taken[pile] = []
    game._pile_sizes[pile] = len(cards)
    game._pile_dealt[pile] = 0


def give(game: Game, seat: int, pile: int, count: int, cards: Sequence[str] | None) -> None:
    """``count`` cards of draw pile ``pile`` go to ``seat``'s hand: ``cards``, or None for
    cards this engine may not see."""
    game._pile_sizes[pile] -= count
    game._pile_dealt[pile] += count
    game._sizes[seat] += count
    if cards is None:
        game._unknown[seat] += count
        return
    hand = game._hands[seat]
    hand.update(cards)
    game._held[seat] = kinds_of(hand)
    if game.observer is None:
        game._pile_taken[pile] += cards


def pile_contents(game: Game, pile: int) -> Counter[str]:
    """What draw pile ``pile`` holds now (omniscient games): its cards when its epoch began
    but those dealt since."""
    contents = Counter(game._pile_start[pile])
    contents.subtract(game._pile_taken[pile])
    return +contents


def throw_away(game: Game, card: str, owner: int) -> None:
    """A card leaves the table: to the discard pile, or out of the game in ``zman-duel``."""
    if game.edition.per_seat_decks:
        game._out[owner].append(card)
    else:
        game._discard.append(card)


def discard_hand(game: Game, seat: int, cards: Sequence[str]) -> None:
    """``seat`` discards its whole hand, ``cards`` (shown to everyone)."""
    game._discard += cards
    game._hands[seat].clear()
    game._held[seat] = 0
    game._unknown[seat] = 0
    game._sizes[seat] = 0


def gather(game: Game, *, keep_hands: bool) -> None:
    """Every card not in a hand (all of them unless ``keep_hands``) and still in the game (not
    gone with a seat that left) goes back into the (single) draw pile, which begins a new
    epoch: it is shuffled afresh."""
    if not keep_hands:
        for seat in range(game.players):
            game._hands[seat].clear()
            game._held[seat] = 0
            game._unknown[seat] = 0
            game._sizes[seat] = 0
    game._discard.clear()
    out = game._out[0]
    if game.observer is None:
        if any(game._sizes) or out:
            rest = Counter(game._deck_total)
            for hand in game._hands:
                rest.subtract(hand)
            rest.subtract(out)
            fill_pile(game, 0, in_notation_order(rest))
        else:
            fill_pile(game, 0, game._deck_order)
    else:
        in_game = game.edition.deck_size - len(out) - game._out_unseen[0]
        game._pile_sizes[0] = in_game - sum(game._sizes)
        game._pile_dealt[0] = 0
    game._pile_epoch[0] += 1
