"""What a seat's view shows once worked out: a captain's TFR, a seat's upkeep and income, its
neighbours, a side's strength in a battle (the screen and the wire view draw from these).

>>> from condottiere.games.captains.game import Game
>>> game = Game.setup(3, cities=["milan", "pisa", "genoa"], hands=[["ambush"], [], []],
...                   armies=[{"gonzaga": ["pikemen", "crafty"]}, {}, {}], seed=0)
>>> view = game.view(0)
>>> army(view, 0), captain_tfr(view, 0, "gonzaga"), upkeep(view, 0), neighbours(view, 0)
({'gonzaga': ('pikemen', 'crafty')}, 6, 3, (1, 2))
"""

from __future__ import annotations

from condottiere.games.captains.cards import FORCE, captain_force
from condottiere.games.captains.cities import CITIES
from condottiere.games.captains.game import Battle, SeatView
from condottiere.games.captains.turn import upkeep_of

__all__ = [
    "army",
    "captain_tfr",
    "in_game",
    "income",
    "neighbours",
    "side_strength",
    "upkeep",
]


def army(view: SeatView, seat: int) -> dict[str, tuple[str, ...]]:
    """``seat``'s captains in play, each with the cards attached to him."""
    return dict(view.armies[seat])


def captain_tfr(view: SeatView, seat: int, captain: str) -> int:
    """A captain's Total Force Rating: his level and his cards' forces."""
    return captain_force(captain, army(view, seat).get(captain, ()))


def upkeep(view: SeatView, seat: int) -> int:
    """What ``seat``'s captains cost each turn: half each TFR rounded up (Savoy 1 less)."""
    return upkeep_of(army(view, seat), view.cities[seat])


def income(view: SeatView, seat: int) -> int:
    """What ``seat`` collects at the start of its turn: a ducat a province and a revenue card,
    Florence 2 more."""
    city = view.cities[seat]
    extra = CITIES[city].extra_revenue if city else 0
    return view.provinces[seat] + len(view.revenues[seat]) + extra


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
