"""Where the cards are, and what an engine knows of them: hands (the cards known to be in
each, and how many more are hidden), the draw pile, the discard pile, the cards out of the
game; and chance, asked and answered.

A hand is a multiset of the cards this engine knows to be in it plus a count of hidden
cards. The omniscient table knows every card; a seat's engine knows its own hand, the cards
shown to everyone (a captain found in the deck, traded cards),
and a hand shown to it alone, until they are played. A card played from a hand is taken from
the known cards when one of that name is known, else from the hidden ones (a copy of the same
name is the same card). A card this engine has seen nowhere may be hidden anywhere.

Chance is asked (:func:`ask`) with the rule that goes on once it is answered; offline, a seed
answers at once (:func:`settle`): each epoch's draw pile is the notation-order list of its
cards shuffled by ``random.Random`` seeded from (seed, epoch).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from condottiere.games.captains.cards import CAPTAINS, CARDS, DECK_COUNTS, card_name, sort_cards
from condottiere.games.captains.phase import Phase
from condottiere.interface.events import Chosen, Dealt, HandProved, HandShown, Searched
from condottiere.interface.game import (
    Choice,
    Deal,
    HandHolds,
    IllegalMoveError,
    SearchDeck,
    Sentence,
    ShowHand,
    ToldKind,
)

if TYPE_CHECKING:
    from condottiere.games.captains.game import Game

__all__ = [
    "Node",
    "Then",
    "ask",
    "ask_deal",
    "give",
    "possible_cards",
    "resolve",
    "settle",
    "show",
    "take",
    "unseen",
]

Node = Deal | Choice | ShowHand | SearchDeck | HandHolds
Then = Callable[["Game"], None]
AfterChoice = Callable[["Game", int], None]


# ---------------------------------------------------------------------------- hands


def take(game: Game, seat: int, card: str) -> None:
    """``card`` leaves ``seat``'s hand face up; IllegalMoveError, changing nothing, when the
    hand cannot hold it."""
    hand = game._hands[seat]
    if hand[card]:
        hand[card] -= 1
        if not hand[card]:
            del hand[card]
    elif game._unknown[seat] and unseen(game, card) > 0:
        game._unknown[seat] -= 1
    else:
        raise IllegalMoveError(f"{card_name(card)} is not in the hand")
    game._sizes[seat] -= 1


def show(game: Game, seat: int, cards: Iterable[str]) -> None:
    """``cards`` of ``seat``'s hand are shown to everyone and stay in it: they become known."""
    hand = game._hands[seat]
    for card, count in Counter(cards).items():
        for _ in range(count - hand[card]):
            take(game, seat, card)
            give(game, seat, card)


def give(game: Game, seat: int, card: str) -> None:
    """``card`` goes face up into ``seat``'s hand."""
    game._hands[seat][card] += 1
    game._sizes[seat] += 1


def possible_cards(game: Game, seat: int) -> Iterable[str]:
    """The cards ``seat`` may hold as far as this engine knows, each once."""
    if not game._unknown[seat]:
        return game._hands[seat].keys()
    counts = seen(game)
    return set(game._hands[seat]) | {card for card in CARDS if DECK_COUNTS[card] > counts[card]}


def could_lack_captain(game: Game, seat: int) -> bool:
    """Whether ``seat``'s hand may hold no captain."""
    return not any(game._hands[seat][captain] for captain in CAPTAINS)


def seen(game: Game) -> Counter[str]:
    """Every card this engine sees somewhere: in hands, in play, in the discard pile, out of
    the game (and the draw pile, for the omniscient table)."""
    counts: Counter[str] = Counter(game._discard)
    for hand in game._hands:
        counts.update(hand)
    for army in game._army:
        for captain, attached in army.items():
            counts[captain] += 1
            counts.update(attached)
    for revenues in game._revenues:
        counts.update(revenues)
    counts.update(game._out)
    if game._pile is not None:
        counts.update(game._pile)
    return counts


def unseen(game: Game, card: str) -> int:
    """How many copies of ``card`` this engine has seen nowhere."""
    return DECK_COUNTS[card] - seen(game)[card]


def unseen_cards(game: Game) -> list[str]:
    """Every card this engine has seen nowhere, in notation order."""
    counts = seen(game)
    return [
        card for card in sort_cards(DECK_COUNTS) for _ in range(DECK_COUNTS[card] - counts[card])
    ]


def discard_cards(game: Game, cards: Iterable[str]) -> None:
    game._discard.extend(cards)


# ---------------------------------------------------------------------------- chance asked


def ask(game: Game, node: Node, then: Then) -> None:
    """Stop for ``node``; ``then`` goes on once it is answered."""
    game.chance = node
    game._then = then
    game._phase = Phase.CHANCE
    game._to_act = None


def ask_choice(game: Game, seats: tuple[int, ...], purpose: str, then: AfterChoice) -> None:
    """A fair choice of one of ``seats``; a single seat is no choice."""
    if len(seats) == 1:
        then(game, seats[0])
        return
    game._after_choice = then
    ask(game, Choice(seats, purpose), _chosen_then)


def _chosen_then(game: Game) -> None:
    then = game._after_choice
    assert then is not None and game._chosen is not None
    game._after_choice = None
    then(game, game._chosen)


def ask_deal(game: Game, seat: int, count: int, then: Then) -> None:
    """Deal ``count`` cards to ``seat`` (as many as there are, the discard pile shuffled in
    when the draw pile is short: RULES.md item 8), then go on."""
    if game._pile_size < count and game._discard:
        _reshuffle(game)
    count = min(count, game._pile_size)
    if count == 0:
        then(game)
        return
    ask(game, Deal(seat, count), then)


def _reshuffle(game: Game) -> None:
    """The discard pile and what is left of the draw pile form a new draw pile."""
    game._pile_size += len(game._discard)
    if game._pile is not None:
        game._pile.update(game._discard)
    game._discard = []
    game._epoch += 1
    game._epoch_taken = 0
    game._order = None


# ---------------------------------------------------------------------------- answers


def resolve(game: Game, outcome: Sequence[str] | int | None) -> None:
    """Check and apply the answer to the pending chance node (ValueError, changing nothing,
    when it cannot be the answer), then go on."""
    node = game.chance
    if node is None:
        raise ValueError("no chance outcome is awaited")
    if isinstance(node, Choice):
        if not isinstance(outcome, int) or outcome not in node.seats:
            raise ValueError(f"the {node.purpose} must be one of seats {node.seats}")
        game._events.append((Chosen, node.purpose, node.seats, outcome))
        game._choices_made += 1
        game._chosen = outcome
    elif isinstance(node, Deal):
        cards = _checked_cards(game, node.seat, node.count, outcome, from_pile=True)
        game._events.append((Dealt, node.seat, node.count if cards is None else cards))
        _deal(game, node.seat, node.count, cards)
    elif isinstance(node, HandHolds):
        _check_holds(game, node, outcome)
        game._events.append(HandProved(node.seat))
        text = f"{{{node.seat}}} proves that its hand holds a captain, showing none"
        game.tell(Sentence(ToldKind.CHANGE, text, node.seat))
    elif isinstance(node, ShowHand):
        cards = _checked_shown(game, node, outcome)
        shown = node.count if cards is None else cards
        game._events.append(HandShown(node.seat, node.viewer, shown, node.handed))
        _show(game, node, cards)
        if game._narrated:
            what = "hands over" if node.handed else "shows"
            text = f"the {node.count} cards of its hand to {{1}} (seen by {{1}} alone)"
            seats = (f"{{{node.seat}}}", f"{{{node.viewer}}}")
            told = f"{{0}} {what} {text}".format(*seats)
            game.tell(Sentence(ToldKind.CHANGE, told, node.seat))
    else:
        found = _checked_search(game, node, outcome)
        game._events.append(Searched(node.seat, node.card, found))
        if found:
            _take_from_pile(game, node.card)
            give(game, node.seat, node.card)
        game._found = found
    then = game._then
    assert then is not None
    game.chance = game._then = None
    game._legal = None
    then(game)


def _checked_cards(
    game: Game, seat: int, count: int, outcome: object, *, from_pile: bool
) -> tuple[str, ...] | None:
    if outcome is None:
        if game.knows_hand(seat):
            raise ValueError(f"a deal to seat {seat} needs its cards")
        return None
    if isinstance(outcome, str | int) or not isinstance(outcome, Sequence):
        raise ValueError(f"give {count} cards")
    cards = tuple(outcome)
    if len(cards) != count or any(card not in CARDS for card in cards):
        raise ValueError(f"give {count} cards of the deck")
    if not game.knows_hand(seat):
        raise ValueError(f"this engine may not see seat {seat}'s cards")
    wanted = Counter(cards)
    if game._pile is not None and from_pile:
        if any(game._pile[card] < k for card, k in wanted.items()):
            raise ValueError("those cards are not in the draw pile")
    elif game._pile is None:
        counts = seen(game)
        if any(DECK_COUNTS[card] - counts[card] < k for card, k in wanted.items()):
            raise ValueError("those cards cannot be unseen")
    return cards


def _deal(game: Game, seat: int, count: int, cards: tuple[str, ...] | None) -> None:
    game._pile_size -= count
    game._epoch_taken += count
    if cards is None:
        game._unknown[seat] += count
        game._sizes[seat] += count
        return
    for card in cards:
        if game._pile is not None:
            _take_from_pile(game, card, counted=False)
        give(game, seat, card)


def _take_from_pile(game: Game, card: str, *, counted: bool = True) -> None:
    if game._pile is not None:
        game._pile[card] -= 1
        if not game._pile[card]:
            del game._pile[card]
    if counted:
        game._pile_size -= 1


def _checked_shown(game: Game, node: ShowHand, outcome: object) -> tuple[str, ...] | None:
    sees = game.observer is None or game.observer in (node.seat, node.viewer)
    if not sees:
        if outcome is not None:
            raise ValueError(f"this engine may not see seat {node.seat}'s hand")
        return None
    if outcome is None or isinstance(outcome, str | int) or not isinstance(outcome, Sequence):
        raise ValueError(f"give the {node.count} cards of seat {node.seat}'s hand")
    cards = sort_cards(outcome)
    if len(cards) != node.count or any(card not in CARDS for card in cards):
        raise ValueError(f"give the {node.count} cards of seat {node.seat}'s hand")
    if game.knows_hand(node.seat):
        if cards != game.hand(node.seat):
            raise ValueError(f"those are not seat {node.seat}'s cards")
    else:
        known = game._hands[node.seat]
        rest = Counter(cards)
        rest.subtract(known)
        counts = seen(game)
        if any(k < 0 for k in rest.values()) or any(
            DECK_COUNTS[card] - counts[card] < k for card, k in rest.items() if k > 0
        ):
            raise ValueError(f"seat {node.seat} cannot hold those cards")
    return cards


def _show(game: Game, node: ShowHand, cards: tuple[str, ...] | None) -> None:
    giver, viewer = node.seat, node.viewer
    if cards is not None:
        game._hands[giver] = Counter(cards)
        game._unknown[giver] = 0
    if not node.handed:
        return
    game._hands[viewer].update(game._hands[giver])
    game._unknown[viewer] += game._unknown[giver]
    game._sizes[viewer] += game._sizes[giver]
    game._hands[giver] = Counter()
    game._unknown[giver] = game._sizes[giver] = 0


def _check_holds(game: Game, node: HandHolds, outcome: object) -> None:
    if outcome is not None:
        raise ValueError("a proof that a hand holds a card is answered with None")
    if not game._unknown[node.seat] and not any(game._hands[node.seat][c] for c in node.cards):
        raise ValueError(f"seat {node.seat}'s hand holds none of {', '.join(node.cards)}")


def _checked_search(game: Game, node: SearchDeck, outcome: object) -> bool:
    if outcome is None or isinstance(outcome, str | int) or not isinstance(outcome, Sequence):
        raise ValueError(f"say whether {card_name(node.card)} was found: ({node.card!r},) or ()")
    found = tuple(outcome)
    if found not in ((), (node.card,)):
        raise ValueError(f"say whether {card_name(node.card)} was found: ({node.card!r},) or ()")
    if game._pile is not None:
        if bool(found) != bool(game._pile[node.card]):
            raise ValueError(f"{card_name(node.card)} is {'not ' if found else ''}in the draw pile")
    elif found and (game._pile_size == 0 or unseen(game, node.card) == 0):
        raise ValueError(f"{card_name(node.card)} cannot be in the draw pile")
    return bool(found)


# ---------------------------------------------------------------------------- seeded chance


def settle(game: Game) -> None:
    """Answer chance from the game's seed while it waits for chance, if it has a seed."""
    seed = game._seed_source
    if seed is None:
        return
    while (node := game.chance) is not None:
        if isinstance(node, Choice):
            pick = random.Random(f"{seed}/choice/{game._choices_made}").randrange(len(node.seats))
            resolve(game, node.seats[pick])
        elif isinstance(node, Deal):
            order = _order(game, seed)
            resolve(game, [order.pop() for _ in range(node.count)])
        elif isinstance(node, ShowHand):
            resolve(game, game.hand(node.seat))
        elif isinstance(node, HandHolds):
            resolve(game, None)
        else:
            found = game._pile is not None and game._pile[node.card] > 0
            if found:
                order = _order(game, seed)
                order.reverse()
                order.remove(node.card)
                order.reverse()
            resolve(game, (node.card,) if found else ())


def _order(game: Game, seed: int) -> list[str]:
    """The draw pile in its epoch's order, top last."""
    order = game._order
    if order is None:
        assert game._pile is not None
        rest = game._pile.copy()
        top = game._top if game._epoch == 0 else ()
        rest.subtract(top)
        order = sorted(rest.elements(), key=_NOTATION.__getitem__)
        random.Random(f"{seed}/pile/{game._epoch}").shuffle(order)
        order[:0] = top
        order.reverse()
        game._order = order
    return order


_NOTATION = {card: index for index, card in enumerate(CARDS)}
