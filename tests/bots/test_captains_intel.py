"""The Captains search's moves by rule: a look at the rival who hides the most cards, and
offers for what a look showed at a price the greedy rules accept."""

from __future__ import annotations

from condottiere.bots import Budget, IsmctsBot
from condottiere.bots.captains_intel import by_rule, look_move, purchases
from condottiere.bots.captains_trade import accepts
from condottiere.games.captains import Game, Move, Phase, Verb


def _events_phase(hands: list[list[str]], ducats: list[int] | None = None) -> Game:
    """An open table of three in seat 0's events phase (it drew a crossbowmen)."""
    table = Game.setup(3, cities=["milan", "pisa", "genoa"], hands=hands, seed=0,
                       deck=["crossbowmen"], ducats=ducats)
    table.play("done")
    assert table.phase is Phase.EVENTS
    return table


def _looked(hands: list[list[str]], ducats: list[int]) -> Game:
    """The same table in seat 0's diplomacy phase, seat 1's hand shown to seat 0 by a look."""
    table = _events_phase(hands, ducats)
    for move in ("event spies 1", "done"):
        table.play(move)
    assert table.phase is Phase.DIPLOMACY
    return table


def test_a_look_is_aimed_at_the_rival_who_hides_the_most_cards() -> None:
    table = _events_phase([["spies"], ["pikemen"], ["gonzaga", "treachery"]])
    assert str(look_move(table.seen_by(0), 0, table.legal_moves())) == "event spies 2"


def test_no_look_at_a_hand_already_seen_nor_without_a_look_event() -> None:
    table = _events_phase([["spies", "intrigue"], ["pikemen"], []])
    table.play("event spies 1")
    view = table.seen_by(0)
    assert view.hidden_count(1) == 0
    assert look_move(view, 0, table.legal_moves()) is None  # seat 2 has no card to hide
    plain = _events_phase([["pillage"], ["pikemen"], ["duchy"]])
    assert look_move(plain.seen_by(0), 0, plain.legal_moves()) is None


def test_a_card_shown_is_bought_at_the_price_its_holder_accepts() -> None:
    table = _looked([["spies"], ["gonzaga", "treachery", "pikemen"], ["duchy"]], [30, 5, 5])
    offers = purchases(table.seen_by(0), 0, table.legal_moves())
    assert [str(offer) for offer in offers] == [
        "offer 1 give 2d get treachery",
        "offer 1 give 8d get gonzaga",
    ]
    for offer in offers:
        table.play(offer)
        assert accepts(table, 1)
        table.play("accept")
    assert {"treachery", "gonzaga"} <= set(table.hand(0))
    assert table.hand(1) == ("pikemen",)


def test_only_what_can_be_spared_beyond_the_upkeep_and_reserve_is_offered() -> None:
    table = _looked([["spies"], ["gonzaga", "treachery"], ["duchy"]], [5, 5, 5])
    assert [str(o) for o in purchases(table.seen_by(0), 0, table.legal_moves())] == [
        "offer 1 give 2d get treachery"
    ]


def test_an_offer_refused_is_not_made_again_in_the_same_phase() -> None:
    table = _looked([["spies"], ["gonzaga", "treachery"], ["duchy"]], [30, 5, 5])
    first = by_rule(table.seen_by(0), 0, table.legal_moves())
    assert str(first) == "offer 1 give 2d get treachery"
    table.play(first)  # type: ignore[arg-type]
    table.play("refuse")
    assert str(by_rule(table.seen_by(0), 0, table.legal_moves())) == "offer 1 give 8d get gonzaga"


def test_nothing_is_bought_of_a_hand_never_seen() -> None:
    table = _events_phase([["pillage"], ["gonzaga", "treachery"], ["duchy"]], [30, 5, 5])
    table.play("done")
    assert table.phase is Phase.DIPLOMACY
    assert purchases(table.seen_by(0), 0, table.legal_moves()) == []


def test_the_search_plays_the_look_by_rule_and_then_searches() -> None:
    table = _events_phase([["spies", "pillage"], ["pikemen"], ["gonzaga", "treachery"]],
                          [10, 5, 20])
    bot = IsmctsBot(seed=1, budget=Budget(iterations=8))
    assert str(bot.choose(table, 0)) == "event spies 2"
    assert bot.last_iterations == 0
    table.play("event spies 2")
    move = bot.choose(table, 0)
    assert isinstance(move, Move) and move.verb in (Verb.EVENT, Verb.DONE)
    assert bot.last_iterations > 0
