"""A checked move, applied: each verb goes to the rule it answers.

>>> from condottiere.games.captains.game import Game
>>> g = Game.new(players=2, seed=5)
>>> g.play(g.legal_moves()[0]); g.phase
<Phase.CITY: 'city'>
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from condottiere.games.captains.battle import (
    attack,
    block,
    lose_troop,
    pass_battle,
    play_battle_card,
)
from condottiere.games.captains.battle import no_block as leave_unblocked
from condottiere.games.captains.diplomacy import answer, discard_excess, make_offer
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

if TYPE_CHECKING:
    from condottiere.games.captains.game import Game

__all__ = ["apply"]


def apply(game: Game, seat: int, move: Move, revealed: tuple[str, ...] | None) -> None:
    """Apply ``move`` of ``seat``, already checked; ``revealed``: a mulligan's hand."""
    verb = move.verb
    card, captain = move.card, move.captain
    if verb is Verb.CITY:
        assert card is not None
        pick_city(game, seat, card)
    elif verb is Verb.KEEP:
        keep(game, seat)
    elif verb is Verb.MULLIGAN:
        assert revealed is not None
        mulligan(game, seat, revealed)
    elif verb is Verb.CAPTAIN or verb is Verb.EMERGENCY:
        assert card is not None
        recruit_captain(game, seat, card, paid=verb is Verb.EMERGENCY)
    elif verb is Verb.ATTACH or verb is Verb.REVENUE:
        assert card is not None
        attach(game, seat, card, captain)
    elif verb is Verb.DISMISS and game._phase is Phase.LOSS:
        assert card is not None
        lose_troop(game, seat, card)
    elif verb is Verb.DISMISS:
        assert card is not None and captain is not None
        dismiss(game, seat, card, captain)
    elif verb is Verb.DISBAND:
        assert captain is not None
        disband(game, seat, captain)
    elif verb is Verb.PAY:
        pay_upkeep(game, seat)
    elif verb is Verb.EVENT:
        play_event(game, seat, move)
    elif verb is Verb.ATTACK:
        assert captain is not None and move.seat is not None
        attack(game, seat, captain, move.seat)
    elif verb is Verb.BLOCK:
        assert captain is not None
        block(game, seat, captain)
    elif verb is Verb.NO_BLOCK:
        leave_unblocked(game)
    elif verb is Verb.PLAY:
        assert card is not None
        play_battle_card(game, seat, card)
    elif verb is Verb.PASS:
        pass_battle(game, seat)
    elif verb is Verb.OFFER:
        make_offer(game, seat, move)
    elif verb is Verb.ACCEPT or verb is Verb.REFUSE:
        answer(game, seat, verb is Verb.ACCEPT)
    elif verb is Verb.DISCARD:
        assert card is not None
        discard_excess(game, seat, card)
    else:
        _done(game)


def _done(game: Game) -> None:
    """``done`` ends the recruit, event, battle or diplomacy phase."""
    from condottiere.games.captains.diplomacy import enter_hand_limit

    phase = game._phase
    if phase is Phase.RECRUIT:
        enter_upkeep(game)
    elif phase is Phase.EVENTS:
        enter_battle(game)
    elif phase is Phase.BATTLE:
        enter_diplomacy(game)
    else:
        enter_hand_limit(game)
