"""A checked move, applied: each verb goes to the rule it answers (:data:`VERB_RULES`, the
table :meth:`.game.Game.play` calls from).

>>> from condottiere.games.captains.game import Game
>>> g = Game.new(players=2, seed=5)
>>> g.play(g.legal_moves()[0]); g.phase
<Phase.CITY: 'city'>
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from condottiere.games.captains.battle import (
    attack,
    block,
    lose_troop,
    pass_battle,
    play_battle_card,
)
from condottiere.games.captains.battle import no_block as leave_unblocked
from condottiere.games.captains.diplomacy import (
    answer,
    discard_excess,
    enter_hand_limit,
    make_offer,
)
from condottiere.games.captains.events import play_event
from condottiere.games.captains.moves import Move, Verb
from condottiere.games.captains.phase import Phase
from condottiere.games.captains.setup import keep, mulligan, pick_city
from condottiere.games.captains.turn import (
    attach,
    disband,
    dismiss,
    enter_battle,
    enter_diplomacy,
    enter_upkeep,
    pay_upkeep,
    recruit_captain,
)
from condottiere.interface.bookkeeping import VerbRule, verb_rule

if TYPE_CHECKING:
    from condottiere.games.captains.game import Game

__all__ = ["VERB_RULES"]

# Each rule in the shape CardGame.play calls it: (game, seat, move, revealed).


def _city(game: Game, seat: int, move: Move, revealed: tuple[str, ...] | None) -> None:
    assert move.card is not None
    pick_city(game, seat, move.card)


def _keep(game: Game, seat: int, move: Move, revealed: tuple[str, ...] | None) -> None:
    keep(game, seat)


def _mulligan(game: Game, seat: int, move: Move, revealed: tuple[str, ...] | None) -> None:
    assert revealed is not None
    mulligan(game, seat, revealed)


def _captain(game: Game, seat: int, move: Move, revealed: tuple[str, ...] | None) -> None:
    assert move.card is not None
    recruit_captain(game, seat, move.card, paid=False)


def _emergency(game: Game, seat: int, move: Move, revealed: tuple[str, ...] | None) -> None:
    assert move.card is not None
    recruit_captain(game, seat, move.card, paid=True)


def _attach(game: Game, seat: int, move: Move, revealed: tuple[str, ...] | None) -> None:
    """A troop or trait to a captain, or a revenue card to a province."""
    assert move.card is not None
    attach(game, seat, move.card, move.captain)


def _dismiss(game: Game, seat: int, move: Move, revealed: tuple[str, ...] | None) -> None:
    """A troop dismissed from a captain; in the loss phase, the beaten captain's troop lost."""
    assert move.card is not None
    if game._phase is Phase.LOSS:
        lose_troop(game, seat, move.card)
    else:
        assert move.captain is not None
        dismiss(game, seat, move.card, move.captain)


def _disband(game: Game, seat: int, move: Move, revealed: tuple[str, ...] | None) -> None:
    assert move.captain is not None
    disband(game, seat, move.captain)


def _pay(game: Game, seat: int, move: Move, revealed: tuple[str, ...] | None) -> None:
    pay_upkeep(game, seat)


def _event(game: Game, seat: int, move: Move, revealed: tuple[str, ...] | None) -> None:
    play_event(game, seat, move)


def _attack(game: Game, seat: int, move: Move, revealed: tuple[str, ...] | None) -> None:
    assert move.captain is not None and move.seat is not None
    attack(game, seat, move.captain, move.seat)


def _block(game: Game, seat: int, move: Move, revealed: tuple[str, ...] | None) -> None:
    assert move.captain is not None
    block(game, seat, move.captain)


def _no_block(game: Game, seat: int, move: Move, revealed: tuple[str, ...] | None) -> None:
    leave_unblocked(game)


def _play(game: Game, seat: int, move: Move, revealed: tuple[str, ...] | None) -> None:
    assert move.card is not None
    play_battle_card(game, seat, move.card)


def _pass(game: Game, seat: int, move: Move, revealed: tuple[str, ...] | None) -> None:
    pass_battle(game, seat)


def _offer(game: Game, seat: int, move: Move, revealed: tuple[str, ...] | None) -> None:
    make_offer(game, seat, move)


def _accept(game: Game, seat: int, move: Move, revealed: tuple[str, ...] | None) -> None:
    answer(game, seat, True)


def _refuse(game: Game, seat: int, move: Move, revealed: tuple[str, ...] | None) -> None:
    answer(game, seat, False)


def _discard(game: Game, seat: int, move: Move, revealed: tuple[str, ...] | None) -> None:
    assert move.card is not None
    discard_excess(game, seat, move.card)


def _done(game: Game, seat: int, move: Move, revealed: tuple[str, ...] | None) -> None:
    """``done`` ends the recruit, event, battle or diplomacy phase."""
    phase = game._phase
    if phase is Phase.RECRUIT:
        enter_upkeep(game)
    elif phase is Phase.EVENTS:
        enter_battle(game)
    elif phase is Phase.BATTLE:
        enter_diplomacy(game)
    else:
        enter_hand_limit(game)


VERB_RULES: dict[Hashable, VerbRule] = {
    Verb.CITY: verb_rule(_city),
    Verb.KEEP: verb_rule(_keep),
    Verb.MULLIGAN: verb_rule(_mulligan, shows_hand=True),
    Verb.CAPTAIN: verb_rule(_captain),
    Verb.EMERGENCY: verb_rule(_emergency),
    Verb.ATTACH: verb_rule(_attach),
    Verb.REVENUE: verb_rule(_attach),
    Verb.DISMISS: verb_rule(_dismiss),
    Verb.DISBAND: verb_rule(_disband),
    Verb.PAY: verb_rule(_pay),
    Verb.EVENT: verb_rule(_event),
    Verb.ATTACK: verb_rule(_attack),
    Verb.BLOCK: verb_rule(_block),
    Verb.NO_BLOCK: verb_rule(_no_block),
    Verb.PLAY: verb_rule(_play),
    Verb.PASS: verb_rule(_pass),
    Verb.OFFER: verb_rule(_offer),
    Verb.ACCEPT: verb_rule(_accept),
    Verb.REFUSE: verb_rule(_refuse),
    Verb.DISCARD: verb_rule(_discard),
    Verb.DONE: verb_rule(_done),
}
"""Per verb, the rule that applies a checked move of it; a mulligan shows the mover's hand."""
