"""One scenario per rule decision of ``games/captains/RULES.md``, each quoting the seed's
words it reads (seed 001, Condottieri Captains)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from condottiere.games.captains import DECK, Game, IllegalMoveError, Move, Phase
from condottiere.games.captains.cards import CAPTAINS
from condottiere.interface.game import (
    CardFlow,
    Choice,
    Deal,
    HandHolds,
    OutcomeKind,
    SearchDeck,
    SeatToMove,
    ShowHand,
)


def scenario(
    hands: Sequence[Sequence[str]] = ((), ()),
    cities: Sequence[str] = ("milan", "pisa"),
    **given: Any,
) -> Game:
    """A game at the start of seat ``first``'s turn (default 0), the draw pile's top given
    by ``deck`` (default: a revenue card, which no battle or event list shows)."""
    given.setdefault("deck", ["duchy"])
    return Game.setup(len(cities), cities=list(cities), hands=[list(h) for h in hands], **given)


def play(game: Game, *moves: str) -> None:
    for move in moves:
        game.play(move)


def legal(game: Game) -> list[str]:
    return [str(move) for move in game.legal_moves()]


def to_battle(game: Game) -> None:
    """Answer ``done`` (and ``pay``) until the active seat is in its battle phase."""
    while game.phase in (Phase.RECRUIT, Phase.UPKEEP, Phase.EVENTS):
        game.play("pay" if game.phase == Phase.UPKEEP else "done")


def to_phase(game: Game, phase: Phase) -> None:
    """Answer the quietest move until ``phase``."""
    while game.phase != phase:
        game.play(_quiet(game))


def nothing_to_draw(hands: Sequence[Sequence[str]]) -> list[list[str]]:
    """``hands``, the last one also holding every other card: nobody draws anything."""
    rest = list(DECK)
    for hand in hands:
        for card in hand:
            rest.remove(card)
    return [list(hand) for hand in hands[:-1]] + [[*hands[-1], *rest]]


def open_table(players: int) -> Game:
    """An omniscient table whose chance is answered by hand."""
    return Game({"players": players})


# ---------------------------------------------------------------- players, cities, setup


@pytest.mark.parametrize("players", [1, 9])
def test_1_two_to_eight_players(players: int) -> None:
    """Seed: "Card game for 2+ players"; eight city states."""
    with pytest.raises(ValueError, match="2 to 8 players"):
        Game.new(players, seed=1)
    assert Game.new(8, seed=1).players == 8


def test_2_a_fair_draw_decides_the_first_player() -> None:
    """Seed: "The most Italian player goes first." """
    game = Game.spectate({"players": 3})
    assert game.waiting == Choice((0, 1, 2), "first player")
    game.resolve(2)
    assert game.phase == Phase.CITY


def test_3_city_states_are_picked_last_player_first_each_once() -> None:
    """Seed: "Each player picks one"."""
    game = Game.spectate({"players": 3})
    game.resolve(1)  # seat 1 goes first: turn order 1, 2, 0; seat 0 picks first
    assert game.to_act == 0
    game.play("city venice")
    assert game.to_act == 2 and "city venice" not in legal(game)
    with pytest.raises(IllegalMoveError):
        game.play("city venice")


def test_4_5_6_purse_provinces_and_deal_by_city_state() -> None:
    """Seed: "Genoa (Start with 20 extra Ducats)", "Naples (Start with 1 extra Province)",
    "Venice (Start with 2 extra cards)", "dealt a hand of 7 cards"."""
    game = Game.spectate({"players": 3})
    game.resolve(0)  # picks: seat 2, 1, 0
    play(game, "city genoa", "city naples", "city venice")
    assert game.ducats == (10, 10, 30) and game.provinces == (5, 6, 5)
    assert game.waiting == Deal(0, 9)


def _deal_hand(game: Game, seat: int, cards: list[str]) -> None:
    node = game.waiting
    assert isinstance(node, Deal) and node.seat == seat
    game.resolve(cards)


NO_CAPTAIN = ["pikemen", "crossbowmen", "ambush", "duchy", "spies", "crafty", "reserve"]


def test_7_mulligan_shows_and_discards_a_hand_without_captain_at_most_three_times() -> None:
    """Seed: "If you did not get a Captain, reveal and discard your hand and draw again." """
    game = open_table(2)
    game.resolve(0)
    play(game, "city pisa", "city milan")
    hands = [
        NO_CAPTAIN,
        ["heavy-infantry", "artillery", "rally", "shrewd", "pillage", "garrison", "loyalty"],
        [
            "cavalry-squadrons",
            "balestrieri",
            "maneuvers",
            "calculating",
            "plunder",
            "stalemate",
            "patron-of-the-arts",
        ],
        [
            "professional-soldiers",
            "heavy-cavalry",
            "rapid-march",
            "ambitious",
            "rebellion",
            "intrigue",
            "reputation",
        ],
    ]
    _deal_hand(game, 0, hands[0])
    assert legal(game) == ["mulligan"]
    for hand in hands[1:]:
        assert game.phase == Phase.MULLIGAN
        game.play("mulligan")
        _deal_hand(game, 0, hand)
    # after the third mulligan the fourth hand is kept whatever it holds
    assert game.waiting == Deal(1, 7) and game.hand(0) == tuple(sorted(hands[3], key=DECK.index))
    assert len(game.discard_pile) == 21


def test_7_keeping_a_hand_proves_a_captain_and_shows_none() -> None:
    """Seed: "If you did not get a Captain, reveal and discard your hand": a seat keeps its
    hand by proving that it holds a captain, without showing which (RULES.md 7)."""
    game = open_table(2)
    game.resolve(0)
    play(game, "city pisa", "city milan")
    _deal_hand(game, 0, [*NO_CAPTAIN[:5], "gonzaga", "faggiuola"])
    assert legal(game) == ["keep"]
    with pytest.raises(IllegalMoveError, match="may not be discarded"):
        game.play("mulligan")
    game.play("keep")
    assert game.waiting == HandHolds(0, CAPTAINS) and game.card_flow(Move.parse("keep")) == (
        CardFlow()
    )
    game.resolve(None)
    game.resolve([*NO_CAPTAIN[5:], "carmagnola", "pikemen", "rally", "shrewd", "loyalty"])
    other = game.seen_by(1)
    assert other.known_cards(0) == () and other.hidden_count(0) == 7
    assert ["holds", 0] in game.record()["events"]


def test_7_a_hand_with_no_captain_is_not_kept() -> None:
    """Without a captain the seat's own engine offers only the mulligan; another seat's engine,
    which cannot see the hand, lets it keep and waits for the proof, and the omniscient table
    (the audit of a record) refuses a hand that holds no captain."""
    game = open_table(2)
    game.resolve(0)
    play(game, "city pisa", "city milan")
    _deal_hand(game, 0, NO_CAPTAIN)
    assert legal(game) == ["mulligan"]
    with pytest.raises(IllegalMoveError, match="no captain"):
        game.play("keep")
    watcher = Game.observe({"players": 2}, 1)
    watcher.resolve(0)
    play(watcher, "city pisa", "city milan")
    watcher.resolve(None)
    assert legal(watcher) == ["keep", "mulligan"]
    watcher.play("keep")
    assert watcher.waiting == HandHolds(0, CAPTAINS)
    with pytest.raises(ValueError, match="answered with None"):
        watcher.resolve(())
    watcher.resolve(None)
    assert watcher.waiting == Deal(1, 7)


def test_8_a_short_draw_pile_takes_in_the_shuffled_discard_pile() -> None:
    """Seed: "If the deck ever runs out, shuffle the discard and draw from it." """
    cards = list(DECK)
    game = scenario([cards[:45], cards[45:]], deck=[])
    assert game.draw_pile_size == 0 and game.hand_size(0) == 45  # nothing to draw
    while game.active == 0:
        game.play(game.safe_move() if hasattr(game, "safe_move") else _quiet(game))
    assert game.draw_pile_size == 40 - 1 and game.discard_pile == ()  # seat 0 kept 5 of 45


def _quiet(game: Game) -> Move:
    moves = game.legal_moves()
    for word in ("done", "pay", "pass", "refuse", "no-block"):
        for move in moves:
            if str(move) == word:
                return move
    return moves[0]


# ---------------------------------------------------------------- turns and the end


def test_9_play_ends_after_everyone_has_had_ten_turns() -> None:
    """Seed: "Play ends after everyone has had 10 turns." """
    game = scenario(turns=[9, 9])
    while game.to_act is not None:
        game.play(_quiet(game))
    assert game.turns == (10, 10) and game.phase == Phase.OVER


def test_10_only_the_active_player_draws_unless_all_draw() -> None:
    """Seed: "Each player Draws 1 card from the top of the deck"."""
    assert [scenario().hand_size(s) for s in (0, 1)] == [1, 0]
    drawn = scenario(options=["all-draw"], deck=["oriental-trade", "duchy"])
    assert [drawn.hand_size(s) for s in (0, 1)] == [1, 1]


def test_11_revenue_a_ducat_a_province_and_revenue_card_florence_two_more() -> None:
    """Seed: "Gain 1 Ducat from each of your Provinces and for each Revenue card"."""
    game = scenario(
        cities=("florence", "pisa"), revenues=[["duchy", "shipbuilding"], []], deck=["garrison"]
    )
    assert game.ducats[0] == 10 + 5 + 2 + 2


def test_12_phases_with_nothing_to_ask_are_skipped() -> None:
    """Nothing to recruit or play with an empty hand, no upkeep without captains."""
    game = scenario(nothing_to_draw([[], []]), deck=[])
    assert game.hand_size(0) == 0 and game.phase == Phase.DIPLOMACY


# ---------------------------------------------------------------- recruit and upkeep


def test_13_one_free_captain_a_turn_another_by_emergency_defence() -> None:
    """Seed: "You may put one Captain card into play." """
    game = scenario([["gonzaga", "faggiuola"], []])
    game.play("captain gonzaga")
    assert "captain faggiuola" not in legal(game)
    with pytest.raises(IllegalMoveError, match="free"):
        game.play("captain faggiuola")
    game.play("emergency faggiuola")
    assert game.ducats[0] == 15 - 3 and set(game.army(0)) == {"gonzaga", "faggiuola"}


def test_14_troops_and_traits_attach_to_ones_own_captains() -> None:
    """Seed: "You may attach Trait and Troop cards to your captains." """
    game = scenario(
        [["pikemen", "crafty", "spies"], []], armies=[{"gonzaga": []}, {"carmagnola": []}]
    )
    assert legal(game) == [
        "attach pikemen gonzaga",
        "attach crafty gonzaga",
        "revenue duchy",
        "done",
    ]
    play(game, "attach pikemen gonzaga", "attach crafty gonzaga")
    assert game.army(0) == {"gonzaga": ("pikemen", "crafty")} and game.tfr("gonzaga") == 6


def test_15_one_revenue_card_per_province() -> None:
    """Seed: "A Province may have a max of 1 Revenue card attached." """
    game = scenario(
        [["duchy"], []], provinces=[1, 5], revenues=[["shipbuilding"], []], deck=["garrison"]
    )
    assert "revenue duchy" not in legal(game)
    assert "revenue oriental-trade" not in legal(game)


def test_16_tfr_and_upkeep_of_the_seeds_example() -> None:
    """Seed: "a Level 4 Captain with 2 Traits and 3 Troops attached: His TFR = 9. His Upkeep
    cost = 5." """
    troops = ["pikemen", "crossbowmen", "artillery"]
    game = scenario(armies=[{"gonzaga": ["crafty", "loyalty", *troops]}, {}])
    game.play("done")
    assert game.tfr("gonzaga") == 9
    before = game.ducats[0]
    game.play("pay")
    assert game.ducats[0] == before - 5


def test_17_troops_dismissed_and_captains_disbanded_when_upkeep_cannot_be_paid() -> None:
    """Seed: "You may discard Troops to lower the Upkeep cost. If unable to pay, discard the
    Captain and all attached cards."; "Savoy (Upkeep costs are -1 Ducats per Captain)"."""
    game = scenario(
        ducats=[0, 0], provinces=[1, 5], armies=[{"gonzaga": ["heavy-cavalry", "crafty"]}, {}]
    )
    game.play("done")
    assert game.phase == Phase.UPKEEP and "pay" not in legal(game)  # 1 ducat, upkeep 4
    game.play("dismiss heavy-cavalry gonzaga")
    assert "pay" not in legal(game)  # TFR 5: upkeep 3
    game.play("disband gonzaga")
    assert game.army(0) == {} and {"gonzaga", "crafty", "heavy-cavalry"} <= set(game.discard_pile)
    savoy = scenario(cities=("savoy", "pisa"), armies=[{"gonzaga": []}, {}])
    play(savoy, "done", "pay")
    assert savoy.ducats[0] == 15 - 1


# ---------------------------------------------------------------- events


FOUR = ("milan", "pisa", "genoa", "savoy")


def test_18_events_in_ones_own_event_phase_on_any_opponent() -> None:
    """Seed: "Play Event cards in this Phase." """
    game = scenario([["raze-province"], [], [], []], cities=FOUR)
    with pytest.raises(IllegalMoveError, match="recruit phase"):
        game.play("event raze-province 2")
    game.play("done")
    assert legal(game) == [f"event raze-province {s}" for s in (1, 2, 3)] + ["done"]


def test_19_losses_and_thefts_stop_at_zero() -> None:
    """Seed: "Opponent looses 5 Ducats", "Steal 3 Ducats from Opponent"."""
    game = scenario([["raze-province", "plunder"], []], ducats=[0, 4])
    play(game, "done", "event plunder 1")
    assert game.ducats == (5 + 3, 1)
    game.play("event raze-province 1")
    assert game.ducats == (8, 0)


def test_20_control_tc_costs_ten_ducats_paid_to_the_bank() -> None:
    """Seed: "Buy Enemy Captain 1 E - Control TC; Costs 10 Ducats"."""
    game = scenario([["treachery"], []], ducats=[4, 3], armies=[{}, {"gonzaga": ["pikemen"]}])
    game.play("done")
    assert "event treachery gonzaga" not in legal(game)  # 4 + 5 = 9 ducats
    rich = scenario([["treachery"], []], ducats=[5, 3], armies=[{}, {"gonzaga": ["pikemen"]}])
    play(rich, "done", "event treachery gonzaga")
    assert rich.ducats == (0, 3) and rich.army(0) == {"gonzaga": ("pikemen",)} and not rich.army(1)


def test_21_assassination_discards_the_captain_and_his_cards() -> None:
    """Seed: "Assassination 1 E - Discard TC"."""
    game = scenario([["assassination"], []], armies=[{}, {"gonzaga": ["pikemen", "crafty"]}])
    play(game, "done", "event assassination gonzaga")
    assert not game.army(1) and {"gonzaga", "pikemen", "crafty"} <= set(game.discard_pile)


def test_22_besieged_captain_must_block() -> None:
    """Seed: "Besiege Important City 1 E - TC must Block"."""
    armies = [{"carmagnola": []}, {"gonzaga": [], "faggiuola": []}]
    game = scenario([["besiege-important-city"], []], armies=armies, turns=[1, 1])
    play(
        game, "done", "pay", "event besiege-important-city faggiuola", "done", "attack carmagnola 1"
    )
    assert legal(game) == ["block faggiuola"]


def test_23_tc_must_attack_on_its_controllers_next_turn() -> None:
    """Seed: "Raise Siege 1 E - TC must Attack"."""
    armies = [{}, {"gonzaga": []}]
    game = scenario([["raise-siege"], []], armies=armies, turns=[1, 1])
    play(game, "done", "event raise-siege gonzaga")
    while game.active == 0:
        game.play(_quiet(game))
    to_battle(game)
    assert game.phase == Phase.BATTLE and legal(game) == ["attack gonzaga 0"]


def test_23_the_order_to_attack_lapses_when_the_captain_leaves_play() -> None:
    """An order to a captain that is discarded before it is obeyed does not wait in the
    discard pile for the same card to come back into play (issue 31, item 1)."""
    armies = [{}, {"gonzaga": []}]
    game = scenario([["raise-siege", "assassination"], []], armies=armies, turns=[1, 1])
    play(game, "done", "event raise-siege gonzaga")
    assert game._must_attack == {"gonzaga"}
    game.play("event assassination gonzaga")
    assert game._must_attack == frozenset() and "gonzaga" in game.discard_pile


def test_23_an_order_obeyed_is_not_obeyed_again_by_a_new_controller() -> None:
    """A captain that attacked as ordered and is then given away in diplomacy need not attack
    in its new controller's turn (issue 31, item 2)."""
    armies: list[dict[str, list[str]]] = [{}, {"gonzaga": []}]
    game = scenario([["raise-siege"], []], armies=armies, turns=[1, 1], ducats=[10, 20])
    play(game, "done", "event raise-siege gonzaga")
    while game.active == 0:
        game.play(_quiet(game))
    to_battle(game)
    assert legal(game) == ["attack gonzaga 0"]
    play(game, "attack gonzaga 0")  # seat 0 has no captain: a province taken unblocked
    to_phase(game, Phase.DIPLOMACY)
    play(game, "offer 0 give gonzaga get nothing", "accept")
    assert game.army(0) == {"gonzaga": ()}
    while game.active == 1:
        game.play(_quiet(game))
    to_battle(game)
    assert game.active == 0 and "done" in legal(game)


def test_24_campaign_season_over_forbids_the_targets_next_attack() -> None:
    """Seed: "Campaign Season Over 1 E - Opponent cannot attack this turn"."""
    game = scenario([["campaign-season-over"], []], armies=[{}, {"gonzaga": []}], turns=[1, 1])
    play(game, "done", "event campaign-season-over 1")
    while game.active == 0:
        game.play(_quiet(game))
    to_battle(game)
    assert game.phase != Phase.BATTLE and game.active == 1


def test_25_new_contract_searches_the_draw_pile_for_a_captain_in_sight_nowhere() -> None:
    """Seed: "New Contract 1 E - Search deck for TC & PIYH"."""
    game = scenario([["new-contract", "faggiuola"], []], armies=[{}, {"gonzaga": []}])
    game.play("done")
    names = legal(game)
    assert "event new-contract gonzaga" not in names  # in play
    assert "event new-contract faggiuola" not in names  # in the player's hand
    assert "event new-contract carmagnola" in names
    open_ = Game(game.record())  # the same table, its chance answered by hand
    open_.follow(game.record()["events"])
    open_.play("event new-contract carmagnola")
    assert open_.waiting == SearchDeck(0, "carmagnola")
    open_.resolve(("carmagnola",))
    assert "carmagnola" in open_.hand(0) and open_.draw_pile_size == game.draw_pile_size - 1
    seat_view = Game.observe(game.record(), 1)
    seat_view.follow(open_.record()["events"])
    assert "carmagnola" in seat_view.known_cards(0)


def test_26_look_at_an_opponents_hand_shows_it_to_the_player_alone() -> None:
    """Seed: "Spies 2 E - LAOH" (Look at Opponents Hand)."""
    game = scenario(
        [["spies"], ["pikemen", "ambush"], ["rally"]], cities=("milan", "pisa", "genoa")
    )
    play(game, "done", "event spies 1")
    events = game.record()["events"]
    assert ["show", 1, 0, ["pikemen", "ambush"], False] in events
    assert game.seen_by(0).known_cards(1) == ("pikemen", "ambush")
    assert game.seen_by(2).known_cards(1) == ()
    spectator = Game.spectate(game.record())
    spectator.follow(events[:-1])
    assert isinstance(spectator.waiting, ShowHand)
    with pytest.raises(ValueError):
        spectator.resolve(["pikemen", "ambush"])


# ---------------------------------------------------------------- battle


def test_27_attacks_only_on_the_nearest_seats_in_the_game() -> None:
    """Seed: "You may only attack the players to your immediate left or right." """
    armies: list[dict[str, list[str]]] = [{"gonzaga": []}, {}, {}, {}]
    game = scenario(
        cities=FOUR,
        hands=[[], [], [], []],
        armies=armies,
        turns=[1, 1, 1, 1],
        provinces=[5, 1, 5, 5],
    )
    to_battle(game)
    assert legal(game) == ["attack gonzaga 1", "attack gonzaga 3", "done"]
    game.play("attack gonzaga 1")  # unblocked: seat 1's last province
    assert 1 in game.defeated
    later = scenario(
        cities=FOUR,
        hands=[[], [], [], []],
        armies=[{"gonzaga": [], "carmagnola": []}, {}, {}, {}],
        turns=[1, 1, 1, 1],
        provinces=[5, 1, 5, 5],
    )
    to_battle(later)
    later.play("attack gonzaga 1")
    assert legal(later) == ["attack carmagnola 2", "attack carmagnola 3", "done"]


def test_28_no_attack_on_ones_first_turn() -> None:
    """Seed: "No player may attack on his first turn." """
    game = scenario(armies=[{"gonzaga": []}, {}])
    to_battle(game)
    assert game.phase == Phase.DIPLOMACY


def test_29_each_captain_attacks_once_and_one_captain_blocks_several() -> None:
    """Seed: "A single Captain may block more than one attacking Captain per turn"."""
    strong = ["heavy-cavalry", "armored-knights"]
    armies = [{"gonzaga": [], "carmagnola": []}, {"faggiuola": strong}]
    game = scenario(armies=armies, turns=[1, 1], ducats=[20, 0])
    to_battle(game)
    play(game, "attack gonzaga 1", "block faggiuola", "pass")  # 4 + 2 against 7 + 2
    assert "gonzaga" not in game.army(0) and game.army(1) == {"faggiuola": tuple(strong)}
    assert legal(game) == ["attack carmagnola 1", "done"]
    game.play("attack carmagnola 1")
    assert legal(game) == ["block faggiuola", "no-block"]


def test_30_emergency_defence_when_attacked_before_the_block() -> None:
    """Seed: "You may put a Captain into play at any time by paying Ducats = his TFR"."""
    game = scenario(
        [[], ["faggiuola", "casale-monferrato"]],
        armies=[{"gonzaga": []}, {}],
        turns=[1, 1],
        ducats=[10, 3],
    )
    to_battle(game)
    game.play("attack gonzaga 1")
    assert legal(game) == ["no-block", "emergency faggiuola", "emergency casale-monferrato"]
    game.play("emergency faggiuola")
    assert game.ducats[1] == 0 and legal(game) == ["block faggiuola", "no-block"]


def test_31_32_an_unblocked_attack_takes_a_bare_province_first() -> None:
    """Seed: "If an attack is unblocked, the defender must give the attacker one of his
    Provinces. (Revenue cards remain attached)" """
    game = scenario(
        armies=[{"gonzaga": []}, {"faggiuola": []}],
        turns=[1, 1],
        provinces=[5, 2],
        revenues=[[], ["duchy"]],
        deck=["garrison"],
    )
    to_battle(game)
    play(game, "attack gonzaga 1", "no-block")
    assert game.provinces == (6, 1) and game.revenues(1) == ("duchy",)
    game2 = scenario(
        armies=[{"gonzaga": []}, {"faggiuola": []}],
        turns=[1, 1],
        provinces=[5, 2],
        revenues=[[], ["duchy", "shipbuilding"]],
        deck=["garrison"],
    )
    to_battle(game2)
    play(game2, "attack gonzaga 1", "no-block")
    assert game2.revenues(0) == ("duchy",) and game2.revenues(1) == ("shipbuilding",)


def _battle(
    hands: Sequence[Sequence[str]], armies: list[dict[str, list[str]]], **given: Any
) -> Game:
    """Seat 0 attacks seat 1 with its first captain, blocked by seat 1's first; seat 0 has
    drawn a Duchy, so it is asked for a battle card first."""
    game = scenario(hands, armies=armies, turns=[1, 1], **given)
    to_battle(game)
    attacker = next(iter(armies[0]))
    blocker = next(iter(armies[1]))
    play(game, f"attack {attacker} 1", f"block {blocker}")
    return game


def test_33_battle_cards_alternate_until_both_pass() -> None:
    """Seed: "Players may play (discard) Battle cards to increase their TFR." """
    game = _battle([["ambush", "rally"], ["reserve"]], [{"gonzaga": []}, {"carmagnola": []}])
    assert game.to_act == 0
    game.play("play ambush")
    assert game.to_act == 1
    game.play("play reserve")
    assert game.to_act == 0  # the defender's hand is empty: it passes by itself
    game.play("pass")
    assert game.battle is None and game.phase != Phase.CLASH


def test_34_attacker_only_and_defender_only_cards() -> None:
    """Seed: "Surprise Attack 1 B +5 Attacker Only", "Field Fortifications 2 B +4 Defender
    Only"."""
    game = _battle(
        [["field-fortifications", "surprise-attack"], ["garrison"]],
        [{"gonzaga": []}, {"carmagnola": []}],
    )
    assert legal(game) == ["play surprise-attack", "pass"]
    game.play("pass")
    assert legal(game) == ["play garrison", "pass"]


def test_35_milan_attacks_and_pisa_defends_two_stronger() -> None:
    """Seed: "Milan (+2 when Attacking)", "Pisa (+2 when Defending)"."""
    game = _battle([[], []], [{"gonzaga": []}, {"carmagnola": []}])
    game.play("pass")  # Milan 4 + 2 against Pisa 4 + 2: a tie
    assert game.army(0) == {"gonzaga": ()} and game.army(1) == {"carmagnola": ()}
    game2 = _battle([[], []], [{"gonzaga": []}, {"carmagnola": []}], cities=("milan", "genoa"))
    game2.play("pass")
    assert game2.army(1) == {}  # 6 against 4: the blocker, without troops, is discarded


def test_36_negate_battle_ends_it_with_no_winner() -> None:
    """Seed: "Avoid Battle 1 B - Negate Battle"."""
    game = _battle([["ambush"], ["avoid-battle"]], [{"gonzaga": []}, {"faggiuola": []}])
    play(game, "play ambush", "play avoid-battle")
    assert game.army(1) == {"faggiuola": ()} and game.battle is None


def test_37_a_tie_no_one_wins() -> None:
    """Seed: "In a Tie no one wins." """
    game = _battle([[], []], [{"gonzaga": ["pikemen"]}, {"carmagnola": ["pikemen"]}])
    game.play("pass")
    assert game.army(0) == {"gonzaga": ("pikemen",)} and game.army(1) == {
        "carmagnola": ("pikemen",)
    }


def test_38_the_losers_owner_chooses_the_troop_or_the_captain_is_discarded() -> None:
    """Seed: "The losing Captain must discard one attached Troop card. If the Captain has no
    attached Troop cards, then the Captain is discarded." The owner chooses which troop: a
    stronger one may cost more upkeep than it is worth to him (issue 31, item 4)."""
    troops = ["heavy-cavalry", "pikemen", "crafty"]
    game = _battle([["ambush"], []], [{"gonzaga": []}, {"carmagnola": troops}])
    play(game, "play ambush", "pass")
    assert game.phase == Phase.LOSS and game.to_act == 1 and game.waiting == SeatToMove(1)
    assert legal(game) == ["dismiss heavy-cavalry carmagnola", "dismiss pikemen carmagnola"]
    with pytest.raises(IllegalMoveError):
        game.play("dismiss crafty carmagnola")
    game.play("dismiss heavy-cavalry carmagnola")
    assert game.army(1) == {"carmagnola": ("pikemen", "crafty")}
    assert game.active == 0 and game.phase == Phase.DIPLOMACY  # the attack is over
    alike = _battle([["ambush"], []], [{"gonzaga": []}, {"carmagnola": ["pikemen", "pikemen"]}])
    play(alike, "play ambush", "pass")  # two copies of one troop: no question to ask
    assert alike.army(1) == {"carmagnola": ("pikemen",)} and alike.phase == Phase.DIPLOMACY
    game2 = _battle([["ambush"], []], [{"gonzaga": []}, {"carmagnola": ["crafty"]}])
    play(game2, "play ambush", "pass")
    assert game2.army(1) == {} and {"carmagnola", "crafty"} <= set(game2.discard_pile)


def test_39_a_won_battle_takes_no_province_unless_spoils() -> None:
    """The seed gives a province only for "an attack ... unblocked"."""
    armies: list[dict[str, list[str]]] = [{"gonzaga": []}, {"faggiuola": []}]
    game = _battle([["ambush"], []], armies)
    play(game, "play ambush", "pass")
    assert game.provinces == (5, 5)
    spoils = _battle([["ambush"], []], armies, options=["spoils"])
    play(spoils, "play ambush", "pass")
    assert spoils.provinces == (6, 4)


# ---------------------------------------------------------------- diplomacy


def test_40_offers_are_answered_and_at_most_three_a_phase() -> None:
    """Seed: "Players may make deals and promises. This includes trading and gifts"."""
    game = scenario()
    to_phase(game, Phase.DIPLOMACY)
    for _ in range(3):
        play(game, "offer 1 give 1d get nothing", "refuse")
    assert game.active == 1  # the third offer ended the phase; the turn passed
    moves = [e[2] for e in game.record()["events"] if e[0] == "move"]
    assert moves[-2:] == ["offer 1 give 1d get nothing", "refuse"]


def test_41_an_offer_names_what_changes_hands_and_keeps_a_province() -> None:
    """Seed: "trading and gifts of Ducats, Provinces, and Cards in the hand and in play"."""
    game = scenario([["pikemen"], []], armies=[{"gonzaga": ["crafty"]}, {}], provinces=[2, 5])
    to_phase(game, Phase.DIPLOMACY)
    with pytest.raises(IllegalMoveError):
        game.play("offer 1 give 2p get nothing")  # a seat's last province
    with pytest.raises(IllegalMoveError):
        game.play("offer 1 give 99d get nothing")
    play(game, "offer 1 give 1p gonzaga pikemen get 4d", "accept")
    assert game.provinces == (1, 6) and game.army(1) == {"gonzaga": ("crafty",)}
    assert game.hand(1) == ("pikemen",) and game.ducats[0] == 10 + 2 + 4 - 3


def test_42_hand_limit_five_papal_states_seven() -> None:
    """Seed: "Max hand size is 5 cards. Discard excess cards."; "Papal States (Max hand size
    +2)"."""
    many = ["pikemen", "crossbowmen", "artillery", "balestrieri", "crafty", "loyalty", "shrewd"]
    others = [
        "heavy-infantry",
        "rally",
        "reserve",
        "maneuvers",
        "ambitious",
        "reputation",
        "garrison",
        "envelopment",
    ]
    game = scenario([many, others], cities=("milan", "papal-states"), deck=["duchy", "stalemate"])
    to_phase(game, Phase.HAND_LIMIT)
    assert game.to_act == 0 and game.hand_size(0) == 8  # seven and the Duchy drawn
    play(game, "discard pikemen", "discard crossbowmen", "discard duchy")
    assert game.hand_size(0) == 5 and game.active == 1 and game.hand_size(1) == 9
    to_phase(game, Phase.HAND_LIMIT)
    assert game.to_act == 1 and game.hand_size(1) == 9  # eight and the Stalemate drawn
    play(game, "discard rally", "discard reserve")
    assert game.hand_size(1) == 7 and game.active == 0


def test_42_the_hand_limit_is_the_active_players_not_the_others() -> None:
    """The seed puts the limit in the diplomacy phase, a phase of one player's turn: Venice's
    nine starting cards are not cut to five at the end of the first player's turn, before
    Venice has played one (issue 31, item 3)."""
    venice = ["pikemen", "crossbowmen", "artillery", "balestrieri", "crafty", "loyalty"]
    venice += ["shrewd", "rally", "reserve"]
    game = scenario([[], venice], cities=("milan", "venice"), deck=["duchy", "stalemate"])
    while game.active == 0:
        assert game.phase != Phase.HAND_LIMIT
        game.play(_quiet(game))
    assert game.hand_size(1) == 10  # its nine and the Stalemate it drew
    to_phase(game, Phase.HAND_LIMIT)
    assert game.to_act == 1


# ---------------------------------------------------------------- defeat and victory


def test_43_the_conqueror_takes_ducats_captains_and_the_hand_shown_to_him_alone() -> None:
    """Seed: "Whoever conquers your last Province gets all of your cards and Ducats." """
    cities = ("milan", "pisa", "genoa")
    armies: list[dict[str, list[str]]] = [{"gonzaga": []}, {"faggiuola": []}, {}]
    game = scenario(
        [[], ["ambush", "rally"], []],
        cities=cities,
        armies=armies,
        turns=[1, 1, 1],
        provinces=[5, 1, 5],
        ducats=[0, 7, 0],
    )
    to_battle(game)
    play(game, "attack gonzaga 1", "no-block")
    assert 1 in game.defeated and game.ducats[1] == 0 and game.ducats[0] == 5 - 2 + 7
    assert set(game.army(0)) == {"gonzaga", "faggiuola"} and set(game.hand(0)) >= {
        "ambush",
        "rally",
    }
    assert game.seen_by(0).hidden_count(0) == 0
    assert game.seen_by(2).known_cards(0) == () and game.seen_by(2).hand_size(0) == game.hand_size(
        0
    )


@pytest.mark.parametrize(
    ("provinces", "ducats", "kind", "winners"),
    [
        ((6, 4), (0, 50), OutcomeKind.VICTORY, (0,)),
        ((5, 5), (3, 9), OutcomeKind.VICTORY, (1,)),
        ((5, 5), (9, 9), OutcomeKind.SHARED, (0, 1)),
    ],
)
def test_44_most_provinces_then_ducats_then_shared(
    provinces: tuple[int, int], ducats: tuple[int, int], kind: OutcomeKind, winners: tuple[int, ...]
) -> None:
    """Seed: "The Player with the most Provinces wins. If Provinces are tied, the tied player
    with the most Ducats wins." """
    hands = nothing_to_draw([[], []])
    game = scenario(
        hands,
        turns=[9, 10],
        provinces=list(provinces),
        cities=("genoa", "pisa"),
        deck=[],
        ducats=[ducats[0] - provinces[0], ducats[1]],
    )
    while game.to_act is not None:  # seat 0's last turn: its revenue, then the end
        game.play(_quiet(game))
    assert game.ducats[0] == ducats[0]
    outcome = game.outcome
    assert outcome is not None and outcome.kind is kind and outcome.winners == winners


def test_45_a_seat_that_leaves_is_out_and_the_last_one_wins_by_forfeit() -> None:
    """RULES.md 45: its hand leaves unseen, an attack on it is void, the last one wins."""
    cities = ("milan", "pisa", "genoa")
    armies: list[dict[str, list[str]]] = [{"gonzaga": []}, {}, {"faggiuola": ["pikemen"]}]
    game = scenario([[], ["ambush"], ["rally"]], cities=cities, armies=armies, turns=[1, 1, 1])
    to_battle(game)
    game.play("attack gonzaga 2")
    assert game.to_act == 2
    assert game.remove_seat(2).count == 1
    assert game.battle is None and 2 in game.departed and "faggiuola" in game.discard_pile
    assert game.provinces[2] == 0
    game.remove_seat(1)
    outcome = game.outcome
    assert outcome is not None and outcome.kind is OutcomeKind.FORFEIT and outcome.winners == (0,)
