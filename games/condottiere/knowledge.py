"""What an engine knows of the cards, and what it can check of what it is told.

An engine is omniscient (``observer`` None: offline tables, bots' samples), one seat's
(``observer`` the seat: it sees that hand only) or a spectator's (:data:`SPECTATOR`: it sees
no hand). Of a hand it does not see it knows the size and the cards shown to everyone (a
mercenary a Scarecrow took back, FFG's retained cards); of each deck it knows every card it
has seen somewhere, so that another seat's move is checked against what that seat *could*
hold (:func:`could_hold`). Card names told from outside are checked here too
(:func:`checked_cards`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

from condottiere.games.condottiere.cards import CARD_ORDER, sort_cards
from condottiere.games.condottiere.piles import deck_of

if TYPE_CHECKING:
    from condottiere.games.condottiere.game import Game

__all__ = [
    "SPECTATOR",
    "checked_cards",
    "could_hold",
    "holdable",
    "knows_hand",
    "observer_name",
    "require_omniscient",
    "seats_drawing_from",
    "seen_in",
    "unseen",
]

SPECTATOR = -1
"""The ``observer`` of an engine that knows no seat's hand (:meth:`Game.spectate`)."""


def knows_hand(game: Game, seat: int) -> bool:
    """Whether ``game`` sees ``seat``'s hand."""
    return game.observer is None or game.observer == seat


def observer_name(game: Game) -> str:
    """Whose engine ``game`` is, in words (for error messages)."""
    return "a spectator" if game.observer == SPECTATOR else f"seat {game.observer}"


def require_omniscient(game: Game, what: str) -> None:
    """ValueError unless ``game`` sees every card (``what`` names what was asked for)."""
    if game.observer is not None:
        raise ValueError(f"{observer_name(game)} cannot see {what}")


def seats_drawing_from(game: Game, pile: int) -> range:
    """The seats whose hands are dealt from draw pile ``pile``."""
    return range(pile, pile + 1) if game.edition.per_seat_decks else range(game.players)


def seen_in(game: Game, pile: int) -> Counter[str]:
    """Every card of pile ``pile``'s deck ``game`` has seen, wherever it lies now."""
    seen = Counter(game._out[pile])
    if not game.edition.per_seat_decks:
        seen.update(game._discard)
    drawing = seats_drawing_from(game, pile)
    for seat in drawing:
        seen.update(game._hands[seat])
        seen.update(game._rows[seat])
    seen.update(card for card, owner in game._season_cards if owner in drawing)
    return seen


def unseen(game: Game, card: str, deck: int) -> int:
    """How many copies of ``card`` of deck ``deck`` ``game`` has not seen anywhere."""
    per_seat = game.edition.per_seat_decks
    seen = game._out[deck].count(card)
    if not per_seat:
        seen += game._discard.count(card)
    for seat in range(game.players):
        if per_seat and seat != deck:
            continue
        seen += game._hands[seat][card] + game._rows[seat].count(card)
    seen += sum(
        1
        for season_card, owner in game._season_cards
        if season_card == card and (not per_seat or owner == deck)
    )
    return game._deck_total[card] - seen


def could_hold(game: Game, seat: int, card: str, count: int = 1) -> bool:
    """Whether ``seat`` may hold ``count`` copies of ``card``, as far as ``game`` knows."""
    known = game._hands[seat][card]
    if known >= count:
        return True
    missing = count - known
    return game._unknown[seat] >= missing and unseen(game, card, deck_of(game, seat)) >= missing


def holdable(game: Game, seat: int) -> list[str]:
    """The kinds of card ``seat`` may hold, in notation order: those of its hand when ``game``
    sees it, else every kind it could hold."""
    if knows_hand(game, seat):
        return list(sort_cards(game._hands[seat]))
    deck = game._deck_total
    return list(sort_cards(card for card in deck if could_hold(game, seat, card)))


def checked_cards(cards: Iterable[str]) -> list[str]:
    """Card names told from outside (a scenario, a deal, a shown hand), in lower case;
    ValueError for a name that is no card."""
    result = []
    for card in cards:
        if not isinstance(card, str) or card.lower() not in CARD_ORDER:
            raise ValueError(f"there is no card called {card!r}")
        result.append(card.lower())
    return result
