"""How the rules stop for chance and go on once told: a fair choice of a seat or a round of
deals is asked (:func:`ask_choice`, :func:`ask_deals`) with the continuation that takes the
answer; :attr:`Game.chance` names the node pending; an answer is checked
(:func:`check_deal`), applied (:func:`answer_choice`, :func:`answer_deal`) and, in a game with
a seed, given at once (:func:`settle`). The rules never draw a random number themselves (see
:mod:`.chance`).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from condottiere.games.condottiere.cards import card_name
from condottiere.games.condottiere.chance import Choice, Deal, SeededChance
from condottiere.games.condottiere.knowledge import (
    checked_cards,
    knows_hand,
    observer_name,
    unseen,
)
from condottiere.games.condottiere.phase import CHANCE, AfterChoice, Then
from condottiere.games.condottiere.piles import deck_of, give, pile_contents
from condottiere.interface.events import Chosen, Dealt

if TYPE_CHECKING:
    from condottiere.games.condottiere.game import Game

__all__ = [
    "answer_choice",
    "answer_deal",
    "ask_choice",
    "ask_deals",
    "check_deal",
    "settle",
]


def ask_choice(game: Game, seats: tuple[int, ...], purpose: str, then: AfterChoice) -> None:
    """Ask chance to choose one of ``seats`` for ``purpose``, then go on with ``then``; a
    single seat is no choice: ``then`` goes on with it at once."""
    if len(seats) == 1:
        then(game, seats[0])
        return
    game._after_choice = then
    _wait_for(game, Choice(seats, purpose))


def ask_deals(game: Game, deals: list[Deal], then: Then) -> None:
    """Ask for ``deals`` in turn (a deal of no card is skipped), then go on with ``then``."""
    asked = [deal for deal in deals if deal.count > 0]
    if not asked:
        then(game)
        return
    game._after_deals = then
    game._deals_queued = tuple(asked[1:])
    _wait_for(game, asked[0])


def _wait_for(game: Game, node: Choice | Deal) -> None:
    """The game stops for ``node``: nobody is to act until chance answers."""
    game.chance = node
    game._phase = CHANCE
    game._to_act = None


def answer_choice(game: Game, node: Choice, seat: int) -> None:
    """Apply a checked fair choice of ``seat``, and go on."""
    then = game._after_choice
    assert then is not None  # set whenever ask_choice asks
    game._choices_made += 1
    game._events.append((Chosen, node.purpose, node.seats, seat))
    game.chance = game._after_choice = None
    then(game, seat)
    game._legal = None


def answer_deal(game: Game, node: Deal, cards: tuple[str, ...] | None) -> None:
    """Apply a checked deal (None: cards this engine may not see); after the round's last
    deal, go on."""
    game._events.append((Dealt, node.seat, node.count if cards is None else cards))
    give(game, node.seat, deck_of(game, node.seat), node.count, cards)
    queued = game._deals_queued
    if queued:
        game.chance, game._deals_queued = queued[0], queued[1:]
    else:
        then = game._after_deals
        assert then is not None  # set whenever ask_deals asks
        game.chance = game._after_deals = None
        then(game)
    game._legal = None


def settle(game: Game) -> None:
    """Answer chance from the game's seed while it waits for chance, if it has a seed."""
    source = game._chance_source
    if source is None:
        return
    while game.chance is not None:
        _answer_from(game, source, game.chance)


def _answer_from(game: Game, source: SeededChance, node: Choice | Deal) -> None:
    # The seeded source deals from this engine's own draw pile: its answers need no check.
    if isinstance(node, Choice):
        answer_choice(game, node, source.choose(node, index=game._choices_made))
        return
    pile = deck_of(game, node.seat)
    cards = source.deal(
        node,
        pile=pile,
        epoch=game._pile_epoch[pile],
        contents=game._pile_start[pile],
        dealt=game._pile_dealt[pile],
    )
    answer_deal(game, node, cards)


def check_deal(game: Game, node: Deal, outcome: object) -> tuple[str, ...] | None:
    """The cards of a deal told from outside, checked against what ``game`` knows (None: a
    deal to a seat it may not see); ValueError when they cannot be the answer."""
    pile = deck_of(game, node.seat)
    if node.count > game._pile_sizes[pile]:
        raise ValueError("the draw pile is too small for this deal")
    if outcome is None:
        if knows_hand(game, node.seat):
            raise ValueError(f"a deal to seat {node.seat} needs its cards")
        return None
    if isinstance(outcome, str | int) or len(outcome) != node.count:  # type: ignore[arg-type]
        raise ValueError(f"deal {node.count} cards to seat {node.seat}")
    cards = tuple(checked_cards(outcome))  # type: ignore[arg-type]
    if game.observer is None:
        in_pile = pile_contents(game, pile)
        if any(in_pile[c] < k for c, k in Counter(cards).items()):
            raise ValueError("those cards are not in the draw pile")
    elif not knows_hand(game, node.seat):
        raise ValueError(f"{observer_name(game)} may not see seat {node.seat}'s cards")
    else:
        for card, count in Counter(cards).items():
            if unseen(game, card, pile) < count:
                raise ValueError(f"no {card_name(card)} can be left in the draw pile")
    return cards
