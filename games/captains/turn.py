"""A player's turn through its seven phases (RULES.md items 9-17): opportunity, revenue,
recruit, upkeep, then events (:mod:`.events`), battle (:mod:`.battle`) and diplomacy
(:mod:`.diplomacy`), and the turn's end.

Each ``enter_*`` function begins a phase, or skips it when nothing can be asked (item 12).

>>> from condottiere.games.captains.game import Game
>>> g = Game.setup(2, cities=["florence", "pisa"], hands=[["gonzaga"], []], seed=3)
>>> g.phase, g.ducats, g.hand_size(0)     # Florence: 10 + 5 provinces + 2
(<Phase.RECRUIT: 'recruit'>, (17, 10), 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from typing import TYPE_CHECKING

from condottiere.games.captains.cards import FORCE, captain_force, card_name, ducats
from condottiere.games.captains.cities import CITIES
from condottiere.games.captains.hands import ask_deal, discard_cards, take
from condottiere.games.captains.phase import Phase
from condottiere.games.captains.setup import note, turn_order
from condottiere.interface.game import ToldKind

if TYPE_CHECKING:
    from condottiere.games.captains.game import Game

__all__ = [
    "attach",
    "begin_turn",
    "disband",
    "dismiss",
    "end_turn",
    "enter_battle",
    "enter_diplomacy",
    "enter_events",
    "enter_recruit",
    "enter_upkeep",
    "leaves_play",
    "may_attack",
    "neighbours",
    "pay_upkeep",
    "recruit_captain",
    "upkeep_cost",
]


def begin_turn(game: Game, seat: int) -> None:
    """``seat``'s turn begins: it draws (with ``all-draw``, everyone does), then revenue."""
    from condottiere.games.captains.game import TURNS

    game._active = seat
    game._turns[seat] += 1
    game._recruited = False
    game._attacked = frozenset()
    game._offers = 0
    note(game, ToldKind.CHANGE, f"turn {game._turns[seat]} of {TURNS} of {{0}} begins", seat)
    game._draws_left = turn_order(game, seat) if "all-draw" in game.options else (seat,)
    _next_draw(game)


def _next_draw(game: Game) -> None:
    if game._draws_left:
        seat = game._draws_left[0]
        game._draws_left = game._draws_left[1:]
        ask_deal(game, seat, 1, _next_draw)
        return
    _revenue(game)


def _revenue(game: Game) -> None:
    seat = game._active
    assert seat is not None
    city = game._city[seat]
    extra = CITIES[city].extra_revenue if city else 0
    income = game._provinces[seat] + len(game._revenues[seat]) + extra
    game._ducats[seat] += income
    note(game, ToldKind.CHANGE, f"{{0}} collects {income} ducats ({game._ducats[seat]} now)", seat)
    enter_recruit(game)


def _ask(game: Game, phase: Phase, seat: int) -> None:
    game._phase = phase
    game._to_act = seat
    game._legal = None


def enter_recruit(game: Game) -> None:
    seat = game._active
    assert seat is not None
    if game._sizes[seat] == 0:
        enter_upkeep(game)
    else:
        _ask(game, Phase.RECRUIT, seat)


def recruit_captain(game: Game, seat: int, captain: str, *, paid: bool) -> None:
    """``captain`` goes from the hand into play: free once a turn in the recruit phase, or by
    emergency defence for ducats equal to his TFR (RULES.md 13, 30)."""
    take(game, seat, captain)
    game._army[seat][captain] = []
    if paid:
        game._ducats[seat] -= FORCE[captain]
        note(
            game,
            ToldKind.CHANGE,
            f"{{0}} pays {ducats(FORCE[captain])} for {card_name(captain)} (emergency defence)",
            seat,
        )
    else:
        game._recruited = True


def attach(game: Game, seat: int, card: str, captain: str | None) -> None:
    """A troop or trait to one's captain, or a revenue card to a province (``captain`` None)."""
    take(game, seat, card)
    if captain is None:
        game._revenues[seat].append(card)
    else:
        game._army[seat][captain].append(card)


def enter_upkeep(game: Game) -> None:
    seat = game._active
    assert seat is not None
    if not game._army[seat]:
        enter_events(game)
    else:
        _ask(game, Phase.UPKEEP, seat)


def upkeep_cost(game: Game, seat: int) -> int:
    return upkeep_of(game._army[seat], game._city[seat])


def upkeep_of(army: Mapping[str, Iterable[str]], city: str | None) -> int:
    """What an army costs a turn: half of each captain's TFR rounded up, Savoy 1 less a
    captain (RULES.md 17)."""
    relief = CITIES[city].upkeep_relief if city else 0
    return sum(
        max(0, (captain_force(captain, cards) + 1) // 2 - relief)
        for captain, cards in army.items()
    )


def dismiss(game: Game, seat: int, troop: str, captain: str) -> None:
    game._army[seat][captain].remove(troop)
    discard_cards(game, (troop,))


def leaves_play(game: Game, seat: int, captain: str) -> None:
    """``captain`` and every card attached to him go from ``seat``'s army to the discard pile;
    an order given to him (must attack, must block) lapses with him (RULES.md 22, 23)."""
    cards = game._army[seat].pop(captain)
    discard_cards(game, (captain, *cards))
    game._must_attack = game._must_attack - {captain}
    game._must_block = game._must_block - {captain}


def disband(game: Game, seat: int, captain: str) -> None:
    """``captain`` and every card attached to him go to the discard pile."""
    leaves_play(game, seat, captain)
    if game._phase is Phase.UPKEEP and not game._army[seat]:
        enter_events(game)


def pay_upkeep(game: Game, seat: int) -> None:
    game._ducats[seat] -= upkeep_cost(game, seat)  # the move's words tell it (narration)
    enter_events(game)


def enter_events(game: Game) -> None:
    seat = game._active
    assert seat is not None
    if game._sizes[seat] == 0:
        enter_battle(game)
    else:
        _ask(game, Phase.EVENTS, seat)


def neighbours(game: Game, seat: int) -> tuple[int, ...]:
    """The nearest seats in the game on the left and on the right (RULES.md 27)."""
    return _neighbours(turn_order(game, seat))


@cache
def _neighbours(order: tuple[int, ...]) -> tuple[int, ...]:
    """The neighbours of the first seat of ``order`` (a turn order)."""
    if len(order) < 2:
        return ()
    return tuple(sorted({order[1], order[-1]}))


def may_attack(game: Game, seat: int) -> bool:
    """Whether ``seat`` may declare an attack now (RULES.md 24, 28, 29)."""
    if game._turns[seat] <= 1 or seat in game._no_attack or not neighbours(game, seat):
        return False
    return any(captain not in game._attacked for captain in game._army[seat])


def enter_battle(game: Game) -> None:
    seat = game._active
    assert seat is not None
    if game._phase is Phase.OVER:
        return
    # an order to attack is for this battle phase of the captain's controller (RULES.md 23)
    game._ordered = game._ordered | {c for c in game._army[seat] if c in game._must_attack}
    if may_attack(game, seat):
        _ask(game, Phase.BATTLE, seat)
        return
    if not game._attacked:  # the phase is passed over before it began: the log says why
        note(game, ToldKind.CHANGE, f"no battle phase for {{0}}: {_no_battle(game, seat)}", seat)
    enter_diplomacy(game)


def _no_battle(game: Game, seat: int) -> str:
    """Why ``seat`` may declare no attack this turn (RULES.md 24, 28, 29)."""
    if game._turns[seat] <= 1:
        return "nobody attacks on their first turn"
    if seat in game._no_attack:
        return "Campaign Season Over was played on them"
    if not neighbours(game, seat):
        return "no neighbour is left to attack"
    return "no captain in play to attack with"


def enter_diplomacy(game: Game) -> None:
    from condottiere.games.captains.diplomacy import MAX_OFFERS, enter_hand_limit

    seat = game._active
    assert seat is not None
    if len(game.in_game) > 1 and game._offers < MAX_OFFERS:
        _ask(game, Phase.DIPLOMACY, seat)
    else:
        enter_hand_limit(game)


def end_turn(game: Game) -> None:
    """The turn's marks lapse; the next seat in the game begins its turn, or the game ends
    once every seat in the game has had its turns (RULES.md 9, 44)."""
    from condottiere.games.captains.ending import finish
    from condottiere.games.captains.game import TURNS

    seat = game._active
    assert seat is not None
    game._must_block = frozenset()
    mine = game._army[seat]
    game._must_attack = frozenset(
        c for c in game._must_attack if c not in mine and c not in game._ordered
    )
    game._ordered = frozenset()
    game._no_attack = game._no_attack - {seat}
    game._battle = None
    game._offer = None
    others = [other for other in turn_order(game, seat) if other != seat]
    if len(game.in_game) < 2 or not others or game._turns[others[0]] >= TURNS:
        finish(game)
        return
    begin_turn(game, others[0])
