"""The shell's :class:`~condottiere.interface.screen.Scene` as Captains reads it (its view and
game are Captains' own), and the figures every panel draws from a view: a captain's TFR, a
side's strength in a battle, a seat's neighbours, each card's short tag.

>>> from condottiere.games.captains.game import Game
>>> game = Game.setup(3, cities=["milan", "pisa", "genoa"], hands=[["ambush"], [], []],
...                   armies=[{"gonzaga": ["pikemen", "crafty"]}, {}, {}], seed=0)
>>> view = game.view(0)
>>> army(view, 0), captain_tfr(view, 0, "gonzaga"), neighbours(view, 0)
({'gonzaga': ('pikemen', 'crafty')}, 6, (1, 2))
>>> tag("gonzaga"), tag("pikemen"), tag("crafty"), tag("ambush"), tag("spies"), tag("duchy")
('C4', 'S+1', 'A+1', 'B+5', 'E', 'R')
"""

from __future__ import annotations

from condottiere.games.captains.cards import CARDS, FORCE, Kind
from condottiere.games.captains.cities import CITIES
from condottiere.games.captains.game import Battle, Game, SeatView
from condottiere.interface.screen import Scene

__all__ = [
    "army",
    "captain_tfr",
    "game_of",
    "in_game",
    "neighbours",
    "seat_view",
    "side_strength",
    "tag",
    "upkeep",
]

_LETTER = {
    Kind.CAPTAIN: "C",
    Kind.TROOP: "S",
    Kind.TRAIT: "A",
    Kind.EVENT: "E",
    Kind.BATTLE: "B",
    Kind.REVENUE: "R",
}
"""The seed's letters for the card types (its "card list notation")."""


def seat_view(scene: Scene) -> SeatView:
    """The scene's view, of Captains' own type."""
    view = scene.view
    assert isinstance(view, SeatView), f"not a view of Captains: {type(view).__name__}"
    return view


def game_of(scene: Scene) -> Game | None:
    """The scene's game, of Captains' own type (None until the client has fetched it)."""
    game = scene.game
    assert game is None or isinstance(game, Game), f"not Captains: {type(game).__name__}"
    return game


def tag(card: str) -> str:
    """A card's type letter (the seed's notation) and its force: ``C4`` a level-4 captain,
    ``S+1`` a troop, ``A+1`` a trait, ``B+5`` a battle card, ``E`` an event, ``R`` revenue."""
    info = CARDS[card]
    letter = _LETTER[info.kind]
    if info.kind is Kind.CAPTAIN:
        return f"{letter}{info.force}"
    return f"{letter}+{info.force}" if info.force else letter


def army(view: SeatView, seat: int) -> dict[str, tuple[str, ...]]:
    """``seat``'s captains in play, each with the cards attached to him."""
    return dict(view.armies[seat])


def captain_tfr(view: SeatView, seat: int, captain: str) -> int:
    """A captain's Total Force Rating: his level and his cards' forces."""
    attached = army(view, seat).get(captain, ())
    return FORCE[captain] + sum(FORCE[card] for card in attached)


def upkeep(view: SeatView, seat: int) -> int:
    """What ``seat``'s captains cost each turn: half each TFR rounded up (Savoy 1 less)."""
    city = view.cities[seat]
    relief = CITIES[city].upkeep_relief if city else 0
    return sum(
        max(0, (captain_tfr(view, seat, captain) + 1) // 2 - relief) for captain in army(view, seat)
    )


def in_game(view: SeatView) -> tuple[int, ...]:
    """The seats neither defeated nor gone, in seat order."""
    gone = view.defeated | view.departed
    return tuple(seat for seat in range(view.players) if seat not in gone)


def neighbours(view: SeatView, seat: int) -> tuple[int, ...]:
    """The nearest seats in the game on ``seat``'s left and right."""
    order = sorted(in_game(view), key=lambda other: (other - seat) % view.players)
    if seat not in order or len(order) < 2:
        return ()
    return tuple(sorted({order[1], order[-1]}))


def side_strength(view: SeatView, battle: Battle, seat: int) -> tuple[list[tuple[str, int]], int]:
    """A side of ``battle`` step by step (its captain's TFR, its city's bonus, each battle
    card) and its total; no steps for a defender that has not blocked yet."""
    attacking = seat == battle.attacker
    captain = battle.captain if attacking else battle.blocker
    if captain is None:
        return [], 0
    city = view.cities[seat]
    steps = [(captain, captain_tfr(view, seat, captain))]
    bonus = 0 if city is None else CITIES[city].attack if attacking else CITIES[city].defence
    if bonus and city is not None:
        steps.append((city, bonus))
    cards = battle.attack_cards if attacking else battle.defence_cards
    steps += [(card, FORCE[card]) for card in cards]
    return steps, sum(value for _, value in steps)
