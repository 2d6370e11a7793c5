"""Captains' part of the controller service's ``View`` (a ``CaptainsView`` packed in
``View.detail``): what the engine's
seat view says, in typed fields a bot in any language reads (every seat's table, the battle
with both sides' strength, the offer), through the service's own ``update_of`` and the bytes
on the wire; never a card of another hand the seat was not shown."""

from __future__ import annotations

import random
from collections import Counter

from condottiere.games.captains import Game
from condottiere.games.captains.figures import captain_tfr, side_strength
from condottiere.games.captains.view_pb2 import CaptainsView
from condottiere.peer.controller_service import update_of
from condottiere.v1 import controller_pb2
from tests.cli.client.scenes import snapshot_of_game


def wire_view(game: Game, seat: int) -> controller_pb2.View:
    """The ``View`` seat ``seat``'s peer would send, read back from its bytes."""
    update = update_of(snapshot_of_game(game.seen_by(seat), seat), (), 0.0)
    assert update.game == "captains" and update.edition == "standard"
    return controller_pb2.Update.FromString(update.SerializeToString()).view


def captains_part(view: controller_pb2.View) -> CaptainsView:
    """The game's own part of ``view``, unpacked (its type checked)."""
    part = CaptainsView()
    assert view.detail.Unpack(part), view.detail.type_url
    return part


def test_a_battle_reaches_the_wire_with_both_sides_cards_and_strength() -> None:
    game = Game.setup(
        2, cities=["milan", "pisa"], hands=[["ambush"], ["reserve"]],
        armies=[{"gonzaga": ["pikemen"]}, {"faggiuola": []}], turns=[1, 1], seed=0,
        deck=["rally"],
    )
    for move in ("done", "pay", "done", "attack gonzaga 1", "block faggiuola", "play ambush"):
        game.play(move)
    view = wire_view(game, 1)
    assert view.detail.type_url.endswith("/condottiere.games.captains.v1.CaptainsView")
    assert view.phase == "clash" and view.to_act == 1
    assert list(view.legal_moves) == ["play reserve", "pass"]
    mine = captains_part(view)
    assert list(mine.hand) == ["reserve"] and mine.active == 0
    battle = mine.battle
    assert (battle.attacker, battle.defender, battle.captain, battle.blocker) == (
        0, 1, "gonzaga", "faggiuola")
    assert list(battle.attack_cards) == ["ambush"] and list(battle.defence_cards) == []
    assert (battle.attack_strength, battle.defence_strength, battle.to_play) == (12, 5, 1)
    assert not mine.HasField("offer")
    milan, pisa = mine.seats
    assert (milan.city, pisa.city) == ("milan", "pisa")
    assert [(c.captain, list(c.attached), c.tfr) for c in milan.captains] == [
        ("gonzaga", ["pikemen"], 5)]
    assert milan.upkeep == 3 and pisa.upkeep == 2 and list(mine.neighbours) == [0]
    assert list(pisa.known) == ["reserve"] and list(milan.known) == []


def test_an_offer_reaches_the_wire_with_what_is_given_and_asked() -> None:
    game = Game.setup(2, cities=["milan", "pisa"], hands=[["pikemen"], []], seed=0,
                      deck=["duchy"])
    for move in ("done", "done", "offer 1 give pikemen get 3d"):
        game.play(move)
    view = wire_view(game, 1)
    offer = captains_part(view).offer
    assert (offer.offerer, offer.receiver) == (0, 1)
    assert list(offer.give.cards) == ["pikemen"] and offer.give.ducats == 0
    assert offer.get.ducats == 3 and not offer.get.cards
    assert list(view.legal_moves) == ["accept", "refuse"]


def test_the_wire_view_agrees_with_the_engine_and_names_only_cards_seen_all_game_long() -> None:
    game = Game.new(3, seed=7)
    rng = random.Random(7)
    checked = 0
    while game.to_act is not None:
        seat = game.to_act
        if checked % 7 == 0:
            engine = game.seen_by(seat)
            mine = captains_part(wire_view(game, seat))
            assert list(mine.hand) == list(game.hand(seat))
            for other, told in enumerate(mine.seats):
                assert told.provinces == game.provinces[other]
                assert told.ducats == game.ducats[other]
                assert told.hand_size == game.hand_size(other)
                assert list(told.revenues) == list(game.revenues(other))
                assert [(c.captain, tuple(c.attached)) for c in told.captains] == list(
                    game.army(other).items())
                assert list(told.known) == list(engine.known_cards(other))
                assert not Counter(told.known) - Counter(game.hand(other))
                for captain in told.captains:
                    assert captain.tfr == game.tfr(captain.captain)
            battle = game.battle
            if battle is not None:
                view = engine.view(seat)
                strength = side_strength(view, battle, battle.attacker)[1]
                assert mine.battle.attack_strength == strength
                assert captain_tfr(view, battle.attacker, battle.captain) == game.tfr(
                    battle.captain)
        checked += 1
        game.play(rng.choice(game.legal_moves()))
    final = captains_part(wire_view(game, 0))
    assert list(final.winners) == list(game.winners) and final.active >= 0
