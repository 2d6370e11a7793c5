"""Defeat, victory and the outcome (RULES.md items 43-44), and a seat that leaves the table
(item 45).

>>> from condottiere.games.captains.game import Game
>>> g = Game.setup(2, cities=["milan", "pisa"], hands=[[], []], provinces=[5, 1],
...                armies=[{"gonzaga": []}, {}], turns=[1, 1], ducats=[0, 9], seed=0,
...                deck=["pikemen"])
>>> for move in ("attach pikemen gonzaga", "done", "pay", "attack gonzaga 1"):
...     g.play(move)
>>> g.outcome.kind.value, g.outcome.winners, g.ducats, g.provinces
('victory', (0,), (11, 0), (6, 0))
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from condottiere.games.captains.hands import Then, ask, discard_cards
from condottiere.games.captains.phase import Phase
from condottiere.games.captains.setup import note
from condottiere.interface.events import SeatLeft
from condottiere.interface.game import (
    Deal,
    HandHolds,
    HandOutOfGame,
    Outcome,
    OutcomeKind,
    SearchDeck,
    ShowHand,
    ToldKind,
)

if TYPE_CHECKING:
    from condottiere.games.captains.game import Game

__all__ = ["defeat", "finish", "outcome_of", "remove_seat"]


def defeat(game: Game, loser: int, conqueror: int, then: Then) -> None:
    """``loser`` has lost its last province to ``conqueror``, who takes its ducats, its
    captains with their cards and its hand (shown to the conqueror alone)."""
    game._defeated = game._defeated | {loser}
    game._in_game = None
    game._ducats[conqueror] += game._ducats[loser]
    game._ducats[loser] = 0
    game._army[conqueror].update(game._army[loser])
    game._army[loser] = {}
    note(
        game,
        ToldKind.CHANGE,
        "{0} is defeated: {1} takes its ducats and all its cards",
        loser,
        conqueror,
    )
    after = _finish_if_alone(then)
    if game._sizes[loser]:
        ask(game, ShowHand(loser, conqueror, game._sizes[loser], handed=True), after)
    else:
        after(game)


def _finish_if_alone(then: Then) -> Then:
    def go_on(game: Game) -> None:
        if len(game.in_game) < 2:
            finish(game)
        else:
            then(game)

    return go_on


def finish(game: Game) -> None:
    """The game ends: most provinces, then most ducats; still tied, a shared victory."""
    seats = game.in_game
    best = max((game._provinces[s], game._ducats[s]) for s in seats) if seats else None
    game._winners = tuple(s for s in seats if (game._provinces[s], game._ducats[s]) == best)
    game._phase = Phase.OVER
    game._to_act = None
    game._battle = None
    game._legal = None  # the table tells the end, with who won (Outcome)


def outcome_of(game: Game) -> Outcome | None:
    if game._phase is not Phase.OVER:
        return None
    winners = game._winners
    if game._forfeit:
        return Outcome(OutcomeKind.FORFEIT, winners, "every other seat left the table")
    if len(winners) > 1:
        return Outcome(OutcomeKind.SHARED, winners, "tied for most provinces and ducats")
    if len(game.in_game) == 1:
        return Outcome(OutcomeKind.VICTORY, winners, "the last city state standing")
    (winner,) = winners
    rivals = [s for s in game.in_game if s != winner]
    most = max(game._provinces[s] for s in rivals)
    how = "most provinces" if game._provinces[winner] > most else "most provinces, then ducats"
    return Outcome(OutcomeKind.VICTORY, winners, how)


def remove_seat(game: Game, seat: int) -> HandOutOfGame:
    """``seat`` leaves the table (RULES.md 45); the game goes on without it."""
    if not 0 <= seat < game.players or seat in game._departed:
        raise ValueError(f"seat {seat} is not at the table")
    if game._phase is Phase.OVER:
        raise ValueError("the game is over")
    count = game._sizes[seat]
    game._events.append(SeatLeft(seat))
    game._out.extend(game._hands[seat].elements())
    game._out_unseen += game._unknown[seat]
    game._hands[seat].clear()
    game._unknown[seat] = game._sizes[seat] = 0
    from condottiere.games.captains.turn import leaves_play

    for captain in list(game._army[seat]):
        leaves_play(game, seat, captain)
    discard_cards(game, game._revenues[seat])
    game._revenues[seat] = []
    game._provinces[seat] = game._ducats[seat] = 0
    game._departed = game._departed | {seat}
    game._in_game = None
    game._to_pick = tuple(s for s in game._to_pick if s != seat)
    game._to_deal = tuple(s for s in game._to_deal if s != seat)
    game._draws_left = tuple(s for s in game._draws_left if s != seat)
    game._over_limit = tuple(s for s in game._over_limit if s != seat)
    game._legal = None
    note(game, ToldKind.CHANGE, "{0} leaves the table", seat)
    _go_on_without(game, seat)
    from condottiere.games.captains.hands import settle

    settle(game)
    return HandOutOfGame(seat, count)


def _go_on_without(game: Game, seat: int) -> None:
    from condottiere.games.captains.setup import _deal_next, _next_pick, start
    from condottiere.games.captains.turn import end_turn, enter_battle, enter_diplomacy

    seated = [s for s in range(game.players) if s not in game._departed]
    if len(game.in_game) < 2:
        game._forfeit = len(seated) == 1
        game.chance = game._then = None
        finish(game)
        return
    node, then = game.chance, game._then
    if game._active is None:
        if game._first is None:
            game.chance = game._then = None
            start(game)
        elif game._phase is Phase.CITY:
            _next_pick(game)
        elif (isinstance(node, Deal | HandHolds) and node.seat == seat) or (
            game._phase is Phase.MULLIGAN and game._to_act == seat
        ):
            game.chance = game._then = None
            game._mulligans = 0
            _deal_next(game)
        return
    if game._active == seat:
        game.chance = game._then = None
        end_turn(game)
        return
    if node is not None:
        concerns = (
            (isinstance(node, Deal) and node.seat == seat)
            or (isinstance(node, ShowHand) and seat in (node.seat, node.viewer))
            or (isinstance(node, SearchDeck) and node.seat == seat)
        )
        if concerns and then is not None:
            game.chance = game._then = None
            then(game)
        return
    if game._battle is not None and game._battle.defender == seat:
        note(game, ToldKind.CHANGE, "the attack on {0} is void", seat)
        game._battle = None
        enter_battle(game)
    elif game._offer is not None and game._offer.seat == seat:
        game._offer = None
        enter_diplomacy(game)
    elif game._phase is Phase.HAND_LIMIT and game._to_act == seat:
        from condottiere.games.captains.diplomacy import _next_over_limit

        _next_over_limit(game)
