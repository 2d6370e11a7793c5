"""A seat's view of Captains as the controller service sends it: the game's part of the wire
``View`` (``condottiere.v1.CaptainsView``).

>>> from condottiere.games.captains.game import Game
>>> game = Game.setup(2, cities=["milan", "pisa"], hands=[["ambush"], []], seed=0,
...                   armies=[{"gonzaga": ["pikemen"]}, {}], deck=["rally"])
>>> message = view_message(game.view(0))
>>> list(message.hand), message.seats[0].city, message.seats[0].captains[0].tfr
(['ambush', 'rally'], 'milan', 5)
>>> list(message.neighbours), message.active, message.HasField("battle")
([1], 0, False)
"""

from __future__ import annotations

from condottiere.games.captains import view_pb2 as wire
from condottiere.games.captains.figures import (
    army,
    captain_tfr,
    income,
    neighbours,
    side_strength,
    upkeep,
)
from condottiere.games.captains.game import TURNS, Battle, SeatView
from condottiere.games.captains.moves import Bundle

__all__ = ["view_message"]


def _seat(view: SeatView, seat: int) -> wire.CaptainsSeat:
    return wire.CaptainsSeat(
        city=view.cities[seat] or "",
        provinces=view.provinces[seat],
        ducats=view.ducats[seat],
        revenues=view.revenues[seat],
        captains=[
            wire.CaptainInPlay(
                captain=captain, attached=attached, tfr=captain_tfr(view, seat, captain)
            )
            for captain, attached in army(view, seat).items()
        ],
        hand_size=view.hand_sizes[seat],
        known=view.known[seat],
        turns=view.turns[seat],
        defeated=seat in view.defeated,
        departed=seat in view.departed,
        upkeep=upkeep(view, seat),
        income=income(view, seat),
    )


def _battle(view: SeatView, battle: Battle) -> wire.CaptainsBattle:
    return wire.CaptainsBattle(
        attacker=battle.attacker,
        defender=battle.defender,
        captain=battle.captain,
        blocker=battle.blocker or "",
        attack_cards=battle.attack_cards,
        defence_cards=battle.defence_cards,
        attack_strength=side_strength(view, battle, battle.attacker)[1],
        defence_strength=side_strength(view, battle, battle.defender)[1],
        to_play=battle.to_play,
    )


def _bundle(bundle: Bundle | None) -> wire.CaptainsBundle:
    if bundle is None:
        return wire.CaptainsBundle()
    return wire.CaptainsBundle(ducats=bundle.ducats, provinces=bundle.provinces, cards=bundle.cards)


def view_message(view: SeatView) -> wire.CaptainsView:
    """``view`` as the controller's wire message."""
    message = wire.CaptainsView(
        hand=view.hand,
        seats=[_seat(view, seat) for seat in range(view.players)],
        active=-1 if view.active is None else view.active,
        discard_pile=view.discard_pile,
        draw_pile_size=view.draw_pile_size,
        winners=view.winners,
        neighbours=neighbours(view, view.seat),
        turns_each=TURNS,
    )
    if view.battle is not None:
        message.battle.CopyFrom(_battle(view, view.battle))
    offer = view.offer
    if offer is not None and view.active is not None and offer.seat is not None:
        message.offer.CopyFrom(
            wire.CaptainsOffer(
                offerer=view.active,
                receiver=offer.seat,
                give=_bundle(offer.give),
                get=_bundle(offer.get),
            )
        )
    return message
