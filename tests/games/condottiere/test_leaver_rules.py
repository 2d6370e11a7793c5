"""Scenario tests of RULES.md, "A seat that leaves" (items 28 to 37), one decision a test."""

from __future__ import annotations

import random
from typing import Any

import pytest

from condottiere.games.condottiere import Game, IllegalMoveError
from condottiere.games.condottiere.chance import Choice, Deal
from condottiere.interface.game import HandOutOfGame, OutcomeKind
from tests.games.condottiere.conftest import SCATTERED, battle, play
from tests.games.condottiere.playout import cards_on_table, engines_in_step, whole_deck


def _manual(game: Game) -> Game:
    """``game``'s table with chance answered by hand (its setup, none of its events)."""
    return Game({key: value for key, value in game.record().items() if key != "seed"})


def test_a_leave_is_an_event_of_the_record() -> None:
    """28: "A leave is an event of the record (["leave", seat])"."""
    game = Game.new("zman", players=4, seed=3)
    game.play(game.legal_moves()[0])
    game.remove_seat(2)
    assert game.record()["events"][-1] == ["leave", 2]
    assert game.departed == frozenset({2})
    engines_in_step(game)


@pytest.mark.parametrize("edition", ["zman", "ffg", "eurogames", "zman-classic"])
def test_the_hand_goes_out_of_the_game_unseen(edition: str) -> None:
    """29: "Its hand goes out of the game face down, unseen"."""
    game = Game.new(edition, players=3, seed=5)
    hand = game.hand(1)
    assert game.remove_seat(1) == HandOutOfGame(seat=1, count=10)
    assert game.hand_size(1) == 0
    assert game.out_of_game == hand  # the open table knows which cards
    view = game.seen_by(0)
    assert view.out_of_game == () and view.view(0).out_of_game == 10  # a seat only how many
    assert cards_on_table(game) == whole_deck(game)
    sample = view.determinise(random.Random(1))  # what seat 0 may imagine: 10 cards gone
    assert len(sample.out_of_game) == 10 and cards_on_table(sample) == whole_deck(sample)
    engines_in_step(game)


def test_a_short_deck_is_dealt_one_card_at_a_time_and_the_gone_hand_is_not_reshuffled() -> None:
    """29: "no later reshuffle gathers it"; 30: "A deck made short by a leaver's hand is dealt
    one card a seat at a time, seat 0 first, until it runs out"."""
    big_hand = ["1"] * 15 + [str(v) for v in (2, 3, 4, 5, 6) for _ in range(8)] + ["scarecrow"] * 15
    control = {region: 1 for region in SCATTERED[:4]} | {region: 2 for region in SCATTERED[4:]}
    game = Game.setup("eurogames", 3, hands=[big_hand, ["10"], []], control=control, first=0)
    assert game.phase == "battle-choice" and game.to_act == 0
    game.remove_seat(0)
    play(game, "battle Napoli", "play 10")  # seat 1 wins Napoli; nobody has a card: new round
    # 26 cards are left in the game; seats 1 (5 cities) and 2 (2) want 20 and 14
    assert [game.hand_size(seat) for seat in range(3)] == [0, 13, 13]
    assert game.draw_pile_sizes == (0,)
    assert sorted(game.out_of_game) == sorted(big_hand)
    engines_in_step(game)


@pytest.mark.parametrize("edition", ["zman", "ffg", "eurogames"])
def test_the_battle_line_leaves_the_battle_and_the_season_stays(edition: str) -> None:
    """31: "Its battle line leaves the battle under way (to the discard pile ...), and it
    counts as passed; the season cards it played stay in play"."""
    game = battle(edition, [["10", "winter"], ["5", "5"], ["2"]])
    play(game, "play 10", "play 5", "play 2", "play winter")
    assert game.to_act == 1
    game.remove_seat(0)
    assert game.row(0) == () and "10" in game.discard_pile and game.season == "winter"
    assert 0 in game.passed and game.to_act == 1
    play(game, "play 5")  # seat 1: 5 5 under Winter (2) beats seat 2's 2 (1)
    assert game.control.get("Firenze") == 1
    engines_in_step(game)


def test_its_regions_are_not_free_for_battle_in_zman() -> None:
    """32: "zman, zman-classic, ffg: a region with its marker is not free (no battle there,
    no Favor)"."""
    game = Game.setup("zman", 3, hands=[["1"], ["10"], ["2"]], control={"Milano": 0}, first=1)
    game.remove_seat(0)
    assert "battle Milano" not in {str(move) for move in game.legal_moves()}
    with pytest.raises(IllegalMoveError):
        game.play("battle Milano")


def test_when_no_region_is_left_only_the_seats_at_the_table_are_ranked() -> None:
    """32: "when no region is left only the seats at the table are ranked"; 36: "It cannot
    win"."""
    control = {
        "Torino": 1, "Venezia": 1, "Lucca": 2, "Ancona": 2, "Milano": 0, "Genova": 0,
        "Mantova": 0, "Parma": 0, "Modena": 0, "Ferrara": 0, "Bologna": 0, "Firenze": 0,
        "Urbino": 0, "Spoleto": 0, "Roma": 0,
    }
    game = Game.setup(
        "zman", 3, hands=[["1"], ["10"], ["1"]], control=control, favor="Napoli",
        battle="Siena", first=0,
    )
    game.remove_seat(0)
    play(game, "play 10", "play 1")
    assert game.phase == "over" and game.winners == (1,)
    assert game.outcome is not None and game.outcome.kind is OutcomeKind.VICTORY
    engines_in_step(game)


@pytest.mark.parametrize(("strong", "taken"), [("10", True), ("1", False)])
def test_a_leavers_city_may_be_attacked_in_eurogames(strong: str, taken: bool) -> None:
    """32: "eurogames and ffg with sieges: its cities may be attacked like any owned city,
    nobody defends them, the winner takes the city; on a tie the leaver's marker stays and the
    battle marker stays with its holder"."""
    game = Game.setup("eurogames", 3, hands=[["10"], [strong], ["1"]], control={"Firenze": 0},
                      first=1)
    game.remove_seat(0)
    play(game, "battle Firenze", f"play {strong}", "play 1")
    assert game.control.get("Firenze") == (1 if taken else 0)
    assert game.battle_marker == 1
    engines_in_step(game)


@pytest.mark.parametrize("edition", ["zman", "ffg", "eurogames", "zman-classic"])
def test_the_battle_marker_goes_to_the_left(edition: str) -> None:
    """33: "A leaver holding it hands it to the first seat at the table on its left ... If the
    leaver was choosing the next battle, the new holder chooses"."""
    game = Game.setup(edition, 4, hands=[["1"], ["1"], ["1"], ["1"]], first=3)
    game.remove_seat(0)
    game.remove_seat(3)
    assert game.battle_marker == 1 and game.phase == "battle-choice" and game.to_act == 1
    engines_in_step(game)


def test_a_ceded_choice_starts_afresh_with_the_new_holder() -> None:
    """33: "the new holder chooses, afresh (under cede the marker may again go round the
    table once)"."""
    game = Game.setup("ffg", 3, hands=[["1"], ["1"], ["1"]], first=0, options=("cede",))
    play(game, "cede")
    game.remove_seat(1)
    assert game.to_act == 2 and "cede" in {str(move) for move in game.legal_moves()}
    play(game, "cede")
    assert game.to_act == 0 and "cede" not in {str(move) for move in game.legal_moves()}


def test_a_leaver_to_play_hands_the_turn_to_its_left() -> None:
    """34: "If it was to play in a battle, the turn goes to the next seat that has not
    passed"."""
    game = battle("zman", [["1"], ["2"], ["3"], ["4"]])
    play(game, "play 1")
    game.remove_seat(1)
    assert game.to_act == 2
    engines_in_step(game)


@pytest.mark.parametrize("edition", ["zman", "ffg"])
def test_a_favor_its_leaver_was_to_place_stays_off_the_board(edition: str) -> None:
    """34: "If it was to place the Favor after its Bishop, the Favor stays off the board"."""
    game = battle(edition, [["bishop", "1"], ["2"], ["3"]], favor="Roma")
    play(game, "play bishop")
    assert game.phase == "favor" and game.to_act == 0
    game.remove_seat(0)
    assert game.favor is None and game.phase == "battle" and game.to_act == 1
    engines_in_step(game)


def test_the_discard_step_goes_on_with_the_seats_after_the_leaver() -> None:
    """34: "If it was asked in the discard step, the step goes on with the seats after it";
    33: the marker goes to its left."""
    game = battle("zman", [["10", "heroine"], ["drummer"], ["winter"]])
    play(game, "play 10", "pass", "pass", "pass")
    assert game.phase == "discard" and game.to_act == 0
    game.remove_seat(0)
    assert game.phase == "discard" and game.to_act == 1 and game.battle_marker == 1
    play(game, "keep")
    assert game.to_act == 2
    engines_in_step(game)


def test_a_leaver_to_retain_retains_nothing_and_the_refill_follows() -> None:
    """34: "if it was to retain (FFG), it retains nothing and the refill follows"."""
    game = battle("ffg", [["10", "heroine", "drummer"], [], []])
    play(game, "play 10", "pass", "battle Siena")
    assert game.phase == "retain" and game.to_act == 0
    game.remove_seat(0)
    assert [game.hand_size(seat) for seat in range(3)] == [0, 10, 10]
    assert game.phase == "battle" and game.battle_region == "Siena" and game.to_act == 1
    assert cards_on_table(game) == whole_deck(game)
    engines_in_step(game)


def test_the_ffg_tie_marker_goes_to_the_next_seat_at_the_table() -> None:
    """35: "Every turn order ... skips it: ... the marker passing to the left"."""
    game = battle("ffg", [["1"], ["5"], ["1"]], first=0)
    game.remove_seat(1)
    play(game, "play 1", "play 1")
    assert game.battle_marker == 2
    engines_in_step(game)


def _after_tie(edition: str, hands: list[list[str]], *moves: str) -> Game:
    """A manual-chance table whose battle ended waiting for a fair choice of the marker."""
    game = _manual(battle(edition, hands))
    play(game, *moves)
    assert isinstance(game.chance, Choice)
    return game


def test_a_pending_choice_is_among_the_seats_at_the_table() -> None:
    """35: "a fair choice ... is among the seats at the table only — a choice pending when it
    leaves loses it"."""
    game = _after_tie("zman-classic", [["bishop"], ["1"], ["2"], ["3"]], "play bishop")
    assert game.chance == Choice((0, 1, 2, 3), "battle marker after a Bishop")
    game.remove_seat(2)
    assert game.chance == Choice((0, 1, 3), "battle marker after a Bishop")
    game.resolve(3)
    assert game.battle_marker == 3
    engines_in_step(game)


def test_a_choice_left_with_one_seat_is_made_without_asking() -> None:
    """35: "with one seat left that seat is chosen without asking"."""
    game = _after_tie("zman", [["5"], ["5"], ["1"]], "play 5", "play 5", "play 1")
    assert game.chance == Choice((0, 1), "battle marker after a tie")
    choices = game.choices_made
    game.remove_seat(0)
    assert game.battle_marker == 1 and game.choices_made == choices
    engines_in_step(game)


def test_a_deal_pending_to_a_leaver_is_dropped() -> None:
    """35: "no deal is made to it, and a deal pending to it is dropped"."""
    game = Game({"edition": "zman", "players": 3})
    game.resolve(1)
    assert game.chance == Deal(0, 10)
    game.remove_seat(0)
    assert [(draw.deal, draw.start) for draw in game.pending_draws()] == [
        (Deal(1, 10), 0),
        (Deal(2, 10), 10),
    ]
    game.remove_seat(2)  # a queued deal goes too: one seat is left, it wins by forfeit
    assert game.chance is None and game.pending_draws() == ()
    engines_in_step(game)


@pytest.mark.parametrize(
    ("edition", "seats"), [("zman", 2), ("zman-duel", 2), ("ffg", 2), ("eurogames", 3)]
)
def test_one_seat_left_wins_by_forfeit(edition: str, seats: int) -> None:
    """37: "When a single seat is left, it wins by forfeit at once ... At a two-seat table
    (always in zman-duel) a leave is exactly that"."""
    game = Game.new(edition, players=seats, seed=11)
    game.play(game.legal_moves()[0])
    for seat in range(1, seats):
        game.remove_seat(seat)
    assert game.phase == "over" and game.to_act is None and game.winners == (0,)
    assert game.outcome is not None
    assert game.outcome.kind is OutcomeKind.FORFEIT
    assert game.outcome.how == "the others left: a win by forfeit"
    record: dict[str, Any] = game.record()
    assert record["events"][-1] == ["leave", seats - 1]
    engines_in_step(game)


def test_a_leave_is_refused_for_a_seat_not_at_the_table_or_a_game_over() -> None:
    """28: "allowed at any point until the game is over"."""
    game = Game.new("zman", players=3, seed=2)
    game.remove_seat(0)
    events = len(game.record()["events"])
    for seat in (0, 3, -1):
        with pytest.raises(ValueError, match="not at the table"):
            game.remove_seat(seat)
    game.remove_seat(1)
    with pytest.raises(ValueError, match="over"):
        game.remove_seat(2)
    assert len(game.record()["events"]) == events + 1
