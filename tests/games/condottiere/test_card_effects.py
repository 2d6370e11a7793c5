"""Every card effect, in every edition that has the card (seeds 000, 002, 003, 004; DESIGN §4).

Each scenario opens a battle with explicit hands and plays only the moves that matter; strength
is read while the battle is still under way (some seat still holds a card and has not passed).
"""

from __future__ import annotations

import pytest

from condottiere.games.condottiere import Game, IllegalMoveError
from tests.games.condottiere.conftest import (
    ALL_EDITIONS,
    BATTLE_ENDER,
    BATTLE_REGION,
    BOARD_EDITIONS,
    EVERY_REGION_BUT_SIENA,
    FAVOR_BISHOP_EDITIONS,
    OWN_ROW_SCARECROW_EDITIONS,
    SPRING_EDITIONS,
    ZMAN_FAMILY,
    battle,
    move_texts,
    nobody_won_last_battle,
    play,
    won_last_battle,
)

NEW_BISHOP_EDITIONS = (*FAVOR_BISHOP_EDITIONS, "zman-duel")
FLAT_CARDS = [
    *[(edition, "heroine", 10) for edition in ALL_EDITIONS],
    ("zman", "spy", 1),
    ("ffg", "courtesan", 1),
]
FLAT_CARDS_WITH_SPRING = [flat for flat in FLAT_CARDS if flat[0] in SPRING_EDITIONS]
MAY_TAKE_NOTHING_EDITIONS = ("ffg", "eurogames")
FLAT_CARDS_WITH_NEW_BISHOP = [flat for flat in FLAT_CARDS if flat[0] in NEW_BISHOP_EDITIONS]


def removed_count(game: Game, card: str) -> int:
    """How many copies of ``card`` lie in the discard pile or out of the game."""
    return game.discard_pile.count(card) + game.out_of_game.count(card)


def scarecrow_moves(game: Game) -> set[str]:
    """The legal Scarecrow moves of the seat to act, as text."""
    return {text for text in move_texts(game.legal_moves()) if text.startswith("play scarecrow")}


# Mercenaries ------------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", ALL_EDITIONS)
def test_mercenaries_add_their_printed_values(edition: str) -> None:
    game = play(battle(edition, [["10", "5", "1", "2"], ["3"]]),
                "play 10", "pass", "play 5", "play 1")
    assert game.row(0) == ("10", "5", "1")
    assert game.strength(0) == 16
    assert game.strength(1) == 0


@pytest.mark.parametrize("edition", ALL_EDITIONS)
def test_highest_strength_wins_the_battle_and_takes_the_marker(edition: str) -> None:
    game = battle(edition, [["10", "4"], ["5", "6"]], first=1)
    play(game, "play 5", "play 10", "pass", "pass")
    assert won_last_battle(game, edition, 0)
    assert game.battle_marker == 0
    assert game.to_act == 0


# Heroine, Spy, Courtesan: flat strength, not mercenaries -----------------------------------------


@pytest.mark.parametrize(("edition", "card", "value"), FLAT_CARDS)
def test_flat_card_adds_its_value_once_per_copy(edition: str, card: str, value: int) -> None:
    game = play(battle(edition, [["5", card, "1"], ["2"]]), "play 5", "pass", f"play {card}")
    assert game.strength(0) == 5 + value


@pytest.mark.parametrize(("edition", "card", "value"), FLAT_CARDS)
def test_flat_card_is_not_doubled_by_drummer_nor_cut_by_winter(
    edition: str, card: str, value: int
) -> None:
    game = battle(edition, [["5", card, "drummer", "1"], ["winter", "2"]])
    play(game, "play 5", "play winter", f"play {card}", "pass", "play drummer")
    assert game.strength(0) == 1 * 2 + value


@pytest.mark.parametrize(("edition", "card", "value"), FLAT_CARDS_WITH_SPRING)
def test_flat_card_gets_no_spring_bonus(edition: str, card: str, value: int) -> None:
    game = play(battle(edition, [["5", card, "1"], ["spring", "2"]]),
                "play 5", "play spring", f"play {card}")
    assert game.strength(0) == 5 + 3 + value


@pytest.mark.parametrize(("edition", "card", "value"), FLAT_CARDS_WITH_NEW_BISHOP)
def test_flat_card_is_not_discarded_by_bishop(edition: str, card: str, value: int) -> None:
    game = play(battle(edition, [["5", card, "1"], ["2", "bishop", "3"]]),
                "play 5", "play 2", f"play {card}", "play bishop")
    assert card in game.row(0)
    assert "5" not in game.row(0)
    assert game.strength(0) == value


@pytest.mark.parametrize(("edition", "card", "value"), FLAT_CARDS)
def test_scarecrow_cannot_take_a_flat_card(edition: str, card: str, value: int) -> None:
    game = play(battle(edition, [[card, "scarecrow", "1"], [card, "2"]]),
                f"play {card}", f"play {card}")
    assert scarecrow_moves(game) == {"play scarecrow"}
    play(game, "play scarecrow")
    assert game.strength(0) == value
    assert card not in game.hand(0)


# Spy (zman): the most Spies, strictly, takes the battle marker ----------------------------------


def test_most_spies_takes_the_marker_from_the_battle_winner() -> None:
    game = play(battle("zman", [["10"], ["spy"]]), "play 10", "play spy")
    assert game.control[BATTLE_REGION] == 0
    assert game.battle_marker == 1


def test_tied_spies_leave_the_marker_to_the_battle_winner() -> None:
    game = play(battle("zman", [["10", "spy"], ["spy"]]), "play 10", "play spy", "play spy")
    assert game.battle_marker == 0


def test_two_seats_tied_for_most_spies_leave_the_marker_to_the_winner() -> None:
    game = battle("zman", [["10"], ["spy", "spy"], ["spy", "spy"]])
    play(game, "play 10", "play spy", "play spy", "play spy", "play spy")
    assert game.control[BATTLE_REGION] == 0
    assert game.battle_marker == 0


def test_most_spies_takes_the_marker_after_a_tied_battle() -> None:
    game = play(battle("zman", [["5"], ["4", "spy"]]), "play 5", "play 4", "play spy")
    assert BATTLE_REGION not in game.control
    assert game.battle_marker == 1


# Courtesan (ffg): most Courtesans takes the token; tie -> winner; tied too -> left of holder ------


def test_most_courtesans_takes_the_token_from_the_battle_winner() -> None:
    game = play(battle("ffg", [["10"], ["courtesan"]]), "play 10", "play courtesan")
    assert game.control[BATTLE_REGION] == 0
    assert game.battle_marker == 1
    assert game.to_act == 1


def test_tied_courtesans_give_the_token_to_the_battle_winner() -> None:
    game = battle("ffg", [["10", "courtesan"], ["courtesan"]])
    play(game, "play 10", "play courtesan", "play courtesan")
    assert game.battle_marker == 0


def test_tied_courtesans_and_tied_strength_give_the_token_left_of_the_last_holder() -> None:
    game = battle("ffg", [["courtesan"], [], [], ["courtesan"]], first=1)
    play(game, "play courtesan", "play courtesan")
    assert BATTLE_REGION not in game.control
    assert game.battle_marker == 2


def test_most_courtesans_takes_the_token_after_a_tied_battle() -> None:
    game = battle("ffg", [["courtesan", "courtesan", "3"], ["5"]])
    play(game, "play courtesan", "play 5", "play courtesan", "play 3")  # 1 + 1 + 3 against 5
    assert BATTLE_REGION not in game.control
    assert game.battle_marker == 0


# Drummer ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", ALL_EDITIONS)
def test_drummer_doubles_own_mercenaries(edition: str) -> None:
    game = play(battle(edition, [["10", "5", "drummer", "1"], ["2"]]),
                "play 10", "pass", "play 5", "play drummer")
    assert game.strength(0) == 30


@pytest.mark.parametrize("edition", ALL_EDITIONS)
def test_drummer_doubles_mercenaries_played_after_it(edition: str) -> None:
    game = play(battle(edition, [["drummer", "10", "1"], ["2"]]),
                "play drummer", "pass", "play 10")
    assert game.strength(0) == 20


@pytest.mark.parametrize("edition", BOARD_EDITIONS)  # zman-duel decks hold one Drummer each
def test_second_drummer_has_no_effect(edition: str) -> None:
    game = play(battle(edition, [["10", "drummer", "drummer", "1"], ["2"]]),
                "play 10", "pass", "play drummer", "play drummer")
    assert game.strength(0) == 20


@pytest.mark.parametrize("edition", ALL_EDITIONS)
def test_drummer_does_not_double_opponents(edition: str) -> None:
    game = play(battle(edition, [["drummer", "1"], ["5", "2"]]), "play drummer", "play 5")
    assert game.strength(1) == 5


# Winter -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", ALL_EDITIONS)
def test_winter_makes_every_mercenary_in_every_row_worth_one(edition: str) -> None:
    game = play(battle(edition, [["10", "5", "1"], ["6", "winter", "2"]]),
                "play 10", "play 6", "play 5", "play winter")
    assert game.season == "winter"
    assert "winter" not in game.row(1)
    assert (game.strength(0), game.strength(1)) == (2, 1)


@pytest.mark.parametrize("edition", ALL_EDITIONS)
def test_winter_also_cuts_mercenaries_played_after_it(edition: str) -> None:
    game = play(battle(edition, [["winter", "10", "1"], ["6", "2"]]),
                "play winter", "play 6", "play 10")
    assert (game.strength(0), game.strength(1)) == (1, 1)


@pytest.mark.parametrize("edition", ALL_EDITIONS)
def test_season_card_is_discarded_when_the_battle_ends(edition: str) -> None:
    game = play(battle(edition, [["winter"], ["5"]]), "play winter", "play 5")
    if edition == "ffg":  # ffg chooses the next battle before battle lines are discarded
        play(game, "battle Roma")
    assert game.season is None


# Spring -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", SPRING_EDITIONS)
def test_spring_adds_three_to_every_mercenary_of_the_highest_value_in_all_rows(
    edition: str,
) -> None:
    game = battle(edition, [["10", "10", "5", "1"], ["10", "6", "spring", "2"]])
    play(game, "play 10", "play 10", "play 10", "play 6", "play 5", "play spring")
    assert game.season == "spring"
    assert (game.strength(0), game.strength(1)) == (13 + 13 + 5, 13 + 6)


@pytest.mark.parametrize("edition", SPRING_EDITIONS)
def test_spring_bonus_moves_to_a_higher_mercenary_played_later(edition: str) -> None:
    game = play(battle(edition, [["6", "spring", "1"], ["2", "10", "3"]]),
                "play 6", "play 2", "play spring")
    assert game.strength(0) == 9
    play(game, "play 10")
    assert (game.strength(0), game.strength(1)) == (6, 2 + 13)


@pytest.mark.parametrize("edition", SPRING_EDITIONS)
@pytest.mark.parametrize(
    ("first_season", "second_season"), [("winter", "spring"), ("spring", "winter")]
)
def test_winter_and_spring_replace_each_other(
    edition: str, first_season: str, second_season: str
) -> None:
    game = battle(edition, [[first_season, "10", "1"], [second_season, "2"]])
    removed_before = removed_count(game, first_season)
    play(game, f"play {first_season}", f"play {second_season}", "play 10")
    assert game.season == second_season
    assert removed_count(game, first_season) == removed_before + 1
    assert game.strength(0) == (1 if second_season == "winter" else 13)


@pytest.mark.parametrize("edition", ("zman", "zman-classic", "zman-duel"))
def test_zman_winter_on_winter_discards_the_first(edition: str) -> None:
    game = battle(edition, [["winter", "1"], ["winter", "2"]])
    removed_before = removed_count(game, "winter")
    play(game, "play winter", "play winter")
    assert game.season == "winter"
    assert removed_count(game, "winter") == removed_before + 1


# Bishop, new version (zman, ffg; zman-duel without the Favor) ------------------------------------


@pytest.mark.parametrize("edition", NEW_BISHOP_EDITIONS)
def test_bishop_discards_every_mercenary_of_the_highest_value_in_all_rows(edition: str) -> None:
    game = battle(edition, [["10", "5", "bishop", "1"], ["10", "3", "2"]])
    tens_removed_before = removed_count(game, "10")
    play(game, "play 10", "play 10", "play 5", "play 3", "play bishop")
    assert "10" not in game.row(0) + game.row(1)
    assert removed_count(game, "10") == tens_removed_before + 2
    assert (game.strength(0), game.strength(1)) == (5, 3)


@pytest.mark.parametrize("edition", FAVOR_BISHOP_EDITIONS)
def test_bishop_player_places_the_favor_then_the_battle_goes_on(edition: str) -> None:
    game = battle(edition, [["10", "bishop", "1"], ["5", "2"]], control={"Milano": 1})
    play(game, "play 10", "play 5", "play bishop")
    assert (game.phase, game.to_act) == ("favor", 0)
    choices = move_texts(game.legal_moves())
    assert {"favor Roma", "favor Napoli"} <= choices
    assert "favor Milano" not in choices
    play(game, "favor Roma")
    assert game.favor == "Roma"
    assert (game.phase, game.to_act) == ("battle", 1)
    assert game.battle_region == BATTLE_REGION


@pytest.mark.parametrize("edition", FAVOR_BISHOP_EDITIONS)
def test_bishop_moves_the_favor_already_on_the_board(edition: str) -> None:
    game = battle(edition, [["bishop", "1"], ["2"]], favor="Napoli")
    play(game, "play bishop", "favor Roma")
    assert game.favor == "Roma"


def test_zman_favor_must_go_on_the_board() -> None:
    game = play(battle("zman", [["bishop", "1"], ["2"]]), "play bishop")
    assert "favor none" not in move_texts(game.legal_moves())
    with pytest.raises(IllegalMoveError):
        game.play("favor none")


def test_ffg_favor_may_leave_the_board() -> None:
    game = play(battle("ffg", [["bishop", "1"], ["2"]], favor="Napoli"), "play bishop")
    assert "favor none" in move_texts(game.legal_moves())
    play(game, "favor none")
    assert game.favor is None
    assert (game.phase, game.to_act) == ("battle", 1)


def test_zman_favor_leaves_the_board_unasked_when_no_region_is_empty() -> None:
    hands: list[list[str]] = [["10", "bishop", "1"], ["5", "2"], [], [], [], []]
    game = battle("zman", hands, control=EVERY_REGION_BUT_SIENA, battle="Siena")
    play(game, "play 10", "play 5", "play bishop")
    assert game.favor is None
    assert (game.phase, game.to_act) == ("battle", 1)


def test_zman_favor_goes_unasked_to_the_only_empty_region() -> None:
    control = {region: seat for region, seat in EVERY_REGION_BUT_SIENA.items() if region != "Roma"}
    hands: list[list[str]] = [["10", "bishop", "1"], ["5", "2"], [], [], [], []]
    game = battle("zman", hands, control=control, battle="Siena")
    play(game, "play 10", "play 5", "play bishop")
    assert game.favor == "Roma"
    assert (game.phase, game.to_act) == ("battle", 1)


@pytest.mark.parametrize("edition", FAVOR_BISHOP_EDITIONS)
def test_no_battle_in_the_favor_region(edition: str) -> None:
    game = Game.setup(edition, players=2, hands=[["10"], ["5"]], first=0, favor="Roma")
    assert "battle Roma" not in move_texts(game.legal_moves())
    with pytest.raises(IllegalMoveError):
        game.play("battle Roma")


def test_duel_bishop_places_no_favor_and_the_battle_goes_on() -> None:
    game = play(battle("zman-duel", [["10", "bishop", "1"], ["5", "2"]]),
                "play 10", "play 5", "play bishop")
    assert game.favor is None
    assert (game.phase, game.to_act) == ("battle", 1)
    assert game.strength(0) == 0


@pytest.mark.parametrize("edition", NEW_BISHOP_EDITIONS)
def test_spring_moves_to_the_next_value_after_a_bishop_discards_the_highest(edition: str) -> None:
    game = play(battle(edition, [["10", "6", "1"], ["spring", "bishop", "2"]]),
                "play 10", "play spring")
    assert game.strength(0) == 13
    play(game, "play 6", "play bishop")
    assert game.strength(0) == 6 + 3


@pytest.mark.parametrize("card", ["bishop", "scarecrow"])
def test_ffg_bishop_and_scarecrow_are_discarded_at_once(card: str) -> None:
    game = battle("ffg", [[card, "1"], ["2"]])
    discarded_before = game.discard_pile.count(card)
    play(game, f"play {card}")
    if game.phase == "favor":
        play(game, "favor Roma")
    assert card not in game.row(0)
    assert game.discard_pile.count(card) == discarded_before + 1


@pytest.mark.parametrize("card", ["bishop", "scarecrow"])
def test_zman_bishop_and_scarecrow_stay_in_the_row_until_the_battle_ends(card: str) -> None:
    game = play(battle("zman", [[card, "1"], ["2"]]), f"play {card}")
    if game.phase == "favor":
        play(game, "favor Roma")
    assert game.row(0) == (card,)


# Bishop, classic version (zman-classic, eurogames): the battle ends with no winner ---------------


def test_classic_bishop_ends_the_battle_with_no_winner() -> None:
    game = play(battle("zman-classic", [["10", "1"], ["bishop", "2"], ["3"]]),
                "play 10", "play bishop")
    assert BATTLE_REGION not in game.control
    assert game.phase == "battle-choice"
    assert game.to_act == game.battle_marker


def test_classic_bishop_gives_the_marker_to_a_fair_random_seat() -> None:
    holders = set()
    for seed in range(30):
        game = battle("zman-classic", [["10", "1"], ["bishop", "2"], ["3"]], seed=seed)
        holders.add(play(game, "play 10", "play bishop").battle_marker)
    assert holders == {0, 1, 2}


def test_eurogames_bishop_keeps_the_city_with_its_owner_who_takes_the_statue() -> None:
    game = battle("eurogames", [["10", "1"], ["bishop", "2"], ["3"]], control={BATTLE_REGION: 2})
    play(game, "play 10", "play bishop")
    assert game.control[BATTLE_REGION] == 2
    assert game.battle_marker == 2


def test_eurogames_bishop_in_a_free_city_leaves_the_statue_with_its_holder() -> None:
    game = play(battle("eurogames", [["10", "1"], ["bishop", "2"], ["3"]], first=1),
                "play bishop")
    assert nobody_won_last_battle(game, "eurogames")
    assert game.battle_marker == 1


# Scarecrow --------------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", ALL_EDITIONS)
def test_scarecrow_takes_a_mercenary_of_your_row_back_into_hand(edition: str) -> None:
    game = play(battle(edition, [["10", "scarecrow", "1"], ["2"]]),
                "play 10", "pass", "play scarecrow 10")
    assert "10" in game.hand(0)
    assert "10" not in game.row(0)
    assert game.strength(0) == 0


@pytest.mark.parametrize("edition", ZMAN_FAMILY)
def test_zman_scarecrow_taking_nothing_is_illegal_when_a_mercenary_may_be_taken(
    edition: str,
) -> None:
    game = play(battle(edition, [["10", "scarecrow", "1"], ["2"]]), "play 10", "pass")
    assert "play scarecrow" not in move_texts(game.legal_moves())
    with pytest.raises(IllegalMoveError):
        game.play("play scarecrow")


@pytest.mark.parametrize("edition", MAY_TAKE_NOTHING_EDITIONS)
def test_ffg_and_eurogames_scarecrow_may_take_nothing_even_when_a_mercenary_may_be_taken(
    edition: str,
) -> None:
    game = play(battle(edition, [["10", "scarecrow", "1"], ["2"]]), "play 10", "pass")
    assert scarecrow_moves(game) == {"play scarecrow", "play scarecrow 10"}
    play(game, "play scarecrow")
    assert "10" in game.row(0)
    assert game.strength(0) == 10
    assert game.hand(0) == ("1",)


@pytest.mark.parametrize("edition", ALL_EDITIONS)
def test_scarecrow_cannot_take_a_mercenary_that_is_not_in_play(edition: str) -> None:
    game = play(battle(edition, [["10", "scarecrow", "1"], ["2"]]), "play 10", "pass")
    with pytest.raises(IllegalMoveError):
        game.play("play scarecrow 5")


@pytest.mark.parametrize("edition", OWN_ROW_SCARECROW_EDITIONS)
def test_scarecrow_cannot_take_an_opponents_mercenary(edition: str) -> None:
    game = play(battle(edition, [["1", "scarecrow", "3"], ["5", "2"]]), "play 1", "play 5")
    assert scarecrow_moves(game) - {"play scarecrow"} == {"play scarecrow 1"}
    with pytest.raises(IllegalMoveError):
        game.play("play scarecrow 5 1")


def test_eurogames_scarecrow_takes_a_mercenary_from_any_row() -> None:
    game = play(battle("eurogames", [["1", "scarecrow", "3"], ["5", "2"]]), "play 1", "play 5")
    assert scarecrow_moves(game) == {"play scarecrow", "play scarecrow 1", "play scarecrow 5 1"}
    play(game, "play scarecrow 5 1")
    assert "5" in game.hand(0)
    assert "5" not in game.row(1)
    assert game.strength(1) == 0


# Turncoat (zman family) / Surrender (ffg, eurogames) --------------------------------------------


@pytest.mark.parametrize("edition", ALL_EDITIONS)
def test_battle_ender_ends_the_battle_with_the_strongest_winning(edition: str) -> None:
    ender = BATTLE_ENDER[edition]
    game = play(battle(edition, [["10", ender, "1"], ["5", "2"]]),
                "play 10", "play 5", f"play {ender}")
    assert won_last_battle(game, edition, 0)
    assert game.battle_marker == 0
    assert "2" in game.hand(1)


@pytest.mark.parametrize("edition", ALL_EDITIONS)
def test_battle_ender_can_hand_the_battle_to_an_opponent(edition: str) -> None:
    ender = BATTLE_ENDER[edition]
    game = play(battle(edition, [["5", "1"], ["10", ender, "2"]]), "play 5", f"play {ender}")
    assert won_last_battle(game, edition, 0)


@pytest.mark.parametrize(("edition", "options"), [("eurogames", ()), ("ffg", ("sieges",))])
def test_defender_who_has_not_played_cannot_answer_a_surrender(
    edition: str, options: tuple[str, ...]
) -> None:
    game = battle(edition, [["5", "surrender", "1"], ["2"], ["heroine", "10"]],
                  control={BATTLE_REGION: 2}, options=options)
    play(game, "play 5", "pass", "pass", "play surrender")
    assert game.control[BATTLE_REGION] == 0
    assert game.battle_marker == 0
