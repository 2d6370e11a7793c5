"""The event phase: each event card's effect (RULES.md items 18-26).

>>> from condottiere.games.captains.game import Game
>>> g = Game.setup(2, cities=["milan", "pisa"], hands=[["pillage"], []], ducats=[0, 2], seed=0,
...                deck=["duchy"])
>>> g.play("done"); g.play("event pillage 1")
>>> g.ducats                    # Milan collected 5, then stole all Pisa had: 2
(7, 0)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from condottiere.games.captains.cards import CARDS, Effect, card_name, ducats
from condottiere.games.captains.hands import ask, discard_cards, take
from condottiere.games.captains.moves import Move
from condottiere.games.captains.setup import note
from condottiere.games.captains.turn import enter_events, leaves_play
from condottiere.interface.game import SearchDeck, ShowHand, ToldKind

if TYPE_CHECKING:
    from condottiere.games.captains.game import Game

__all__ = ["CONTROL_PRICE", "LOSS", "THEFT", "play_event"]

LOSS = 5
"""Seed: "Opponent looses 5 Ducats"."""
THEFT = 3
"""Seed: "Steal 3 Ducats from Opponent"."""
CONTROL_PRICE = 10
"""Seed: "Control TC; Costs 10 Ducats"."""


def play_event(game: Game, seat: int, move: Move) -> None:
    """``seat`` plays the event card of ``move`` on its target."""
    card, target, captain = move.card, move.seat, move.captain
    assert card is not None
    take(game, seat, card)
    discard_cards(game, (card,))
    effect = CARDS[card].effect
    name = card_name(card)
    if effect is Effect.LOSE_FIVE:
        assert target is not None
        lost = min(LOSS, game._ducats[target])
        game._ducats[target] -= lost
        note(game, ToldKind.CHANGE, f"{name}: {{0}} loses {ducats(lost)}", target)
    elif effect is Effect.STEAL_THREE:
        assert target is not None
        stolen = min(THEFT, game._ducats[target])
        game._ducats[target] -= stolen
        game._ducats[seat] += stolen
        note(
            game, ToldKind.CHANGE, f"{name}: {{0}} steals {ducats(stolen)} from {{1}}", seat, target
        )
    elif effect is Effect.NO_ATTACK:
        assert target is not None
        game._no_attack = game._no_attack | {target}
        note(game, ToldKind.CHANGE, f"{name}: {{0}} may not attack on its next turn", target)
    elif effect is Effect.LOOK:
        assert target is not None
        note(game, ToldKind.CHANGE, f"{name}: {{0}} looks at the hand of {{1}}", seat, target)
        if game._sizes[target]:
            ask(game, ShowHand(target, seat, game._sizes[target]), enter_events)
            return
    elif effect is Effect.SEARCH:
        assert captain is not None
        if game._pile_size:
            game._searched = captain
            ask(game, SearchDeck(seat, captain), _searched)
            return
        note(game, ToldKind.CHANGE, f"{name}: the draw pile is empty")
    else:
        assert captain is not None
        owner = game.controller(captain)
        assert owner is not None
        _on_captain(game, seat, effect, captain, owner, name)
    enter_events(game)


def _on_captain(
    game: Game, seat: int, effect: Effect | None, captain: str, owner: int, name: str
) -> None:
    target = card_name(captain)
    if effect is Effect.MUST_BLOCK:
        game._must_block = game._must_block | {captain}
        note(game, ToldKind.CHANGE, f"{name}: {target} of {{0}} must block this turn", owner)
    elif effect is Effect.MUST_ATTACK:
        game._must_attack = game._must_attack | {captain}
        note(game, ToldKind.CHANGE, f"{name}: {target} of {{0}} must attack next turn", owner)
    elif effect is Effect.CONTROL:
        game._ducats[seat] -= CONTROL_PRICE
        game._army[seat][captain] = game._army[owner].pop(captain)
        note(
            game,
            ToldKind.CHANGE,
            f"{name}: {{0}} pays {ducats(CONTROL_PRICE)} and takes {target} from {{1}}",
            seat,
            owner,
        )
    else:
        leaves_play(game, owner, captain)
        note(game, ToldKind.CHANGE, f"{name}: {target} of {{0}} is discarded", owner)


def _searched(game: Game) -> None:
    seat = game._active
    assert seat is not None
    captain = card_name(game._searched)
    if game._found:
        note(game, ToldKind.CHANGE, f"{{0}} finds {captain} in the draw pile and takes him", seat)
    else:
        note(game, ToldKind.CHANGE, f"{captain} is not in the draw pile", seat)
    enter_events(game)
