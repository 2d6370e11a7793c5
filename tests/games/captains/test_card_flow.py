"""What Captains' moves tell a dealer about the hidden cards (``Game.card_flow``): an offer
shows the cards of the hand it gives (RULES.md 41), so that its acceptance hands cards that
are face up already, and only the accepting seat's own cards are still to be shown."""

from __future__ import annotations

from condottiere.games.captains.game import Game
from condottiere.games.captains.phase import Phase
from condottiere.interface import CardFlow, Handed


def diplomacy() -> Game:
    """Seat 0's diplomacy phase: it holds pikemen and Gonzaga, has Sforza in play; seat 1
    holds crossbowmen."""
    game = Game.setup(
        2, cities=["milan", "pisa"], hands=[["pikemen", "gonzaga"], ["crossbowmen"]],
        armies=[{"francesco-sforza": []}, {}], seed=0, deck=["duchy"],
    )
    while game.phase is not Phase.DIPLOMACY:
        game.play(next(m for m in game.legal_moves() if str(m) in ("done", "pay")))
    return game


def test_an_offer_shows_the_cards_of_the_hand_it_gives_and_not_a_captain_in_play() -> None:
    game = diplomacy()
    offer = game.parse_move("offer 1 give pikemen francesco-sforza 2d get crossbowmen")
    assert game.card_flow(offer) == CardFlow(shown=("pikemen",))
    game.play(offer)
    assert game.offer == offer


def test_an_accepted_offer_hands_the_offered_cards_both_ways() -> None:
    game = diplomacy()
    game.play("offer 1 give pikemen get crossbowmen")
    flow = game.card_flow(game.parse_move("accept"))
    assert flow.handed == (Handed(0, 1, "pikemen"), Handed(1, 0, "crossbowmen"))
    assert (flow.played, flow.shown) == ((), ())

