"""Every row of DESIGN §4's "rules that differ" table, and the decisions written under it.

Scenarios use ``Game.setup``; chance (ties, first marker, deals) comes from the seed, so a rule
that says "fair random" is checked over many seeds: every candidate turns up, nobody else does.
"""

from __future__ import annotations

from collections import Counter

import pytest

from condottiere.games.condottiere import (
    EDITIONS,
    REGIONS,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Move,
)
from tests.games.condottiere.conftest import (
    ALL_EDITIONS,
    BATTLE_REGION,
    BOARD_EDITIONS,
    CHAIN,
    EVERY_REGION_BUT_SIENA,
    EVERY_REGION_BUT_SIENA_SEAT_1_AT_FOUR,
    SCATTERED,
    battle,
    move_texts,
    nobody_won_last_battle,
    play,
)

PLAYER_COUNTS = {
    "zman": range(2, 7),
    "zman-classic": range(2, 7),
    "zman-duel": range(2, 3),
    "ffg": range(2, 7),
    "eurogames": range(2, 7),
}
DECKS = {  # DESIGN §4, "Decks"
    "zman": {"1": 10, "heroine": 3, "drummer": 6, "winter": 3, "spring": 3, "scarecrow": 16,
             "bishop": 6, "spy": 12, "turncoat": 3},
    "zman-classic": {"1": 15, "heroine": 3, "drummer": 6, "winter": 3, "scarecrow": 15,
                     "bishop": 3, "turncoat": 3},
    "zman-duel": {"1": 2, "heroine": 1, "drummer": 1, "winter": 1, "spring": 1, "scarecrow": 3,
                  "bishop": 1, "turncoat": 1},
    "ffg": {"1": 10, "heroine": 3, "drummer": 6, "winter": 3, "spring": 3, "scarecrow": 16,
            "bishop": 6, "courtesan": 12, "surrender": 3},
    "eurogames": {"1": 15, "heroine": 3, "drummer": 6, "winter": 3, "scarecrow": 15,
                  "bishop": 3, "surrender": 3},
}
MERCENARIES = ("1", "2", "3", "4", "5", "6", "10")
DECK_SIZES = {"zman": 110, "zman-classic": 96, "zman-duel": 23, "ffg": 110, "eurogames": 96}


def battle_choices(game: Game) -> set[str]:
    """The regions where the seat to act may open a battle."""
    return {str(move.region) for move in game.legal_moves() if move.verb == "battle"}


def chance_outcomes(edition: str, hands: list[list[str]], moves: tuple[str, ...]) -> set[int]:
    """Who holds the battle marker after ``moves``, over 30 seeds."""
    return {play(battle(edition, hands, seed=seed), *moves).battle_marker for seed in range(30)}


# Players and decks ------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", ALL_EDITIONS)
def test_deck_holds_the_published_cards(edition: str) -> None:
    deck = Counter(EDITIONS[edition].deck)
    assert sum(deck.values()) == DECK_SIZES[edition]
    each_mercenary = 2 if edition == "zman-duel" else 8
    expected = {value: each_mercenary for value in ("2", "3", "4", "5", "6", "10")}
    assert deck == {**expected, **DECKS[edition]}


@pytest.mark.parametrize(
    ("edition", "players"),
    [(edition, players) for edition, counts in PLAYER_COUNTS.items() for players in counts],
)
def test_allowed_player_counts_deal_the_opening_hands(edition: str, players: int) -> None:
    game = Game.new(edition, players=players, seed=3)
    assert (EDITIONS[edition].min_players, EDITIONS[edition].max_players) == (
        min(PLAYER_COUNTS[edition]), max(PLAYER_COUNTS[edition]))
    hand = 8 if edition == "zman-duel" else 10
    assert [game.hand_size(seat) for seat in range(players)] == [hand] * players
    assert game.to_act == game.battle_marker
    assert game.phase == ("battle" if edition == "zman-duel" else "battle-choice")


@pytest.mark.parametrize(
    ("edition", "players"),
    [(edition, players) for edition in ALL_EDITIONS for players in (1, 7)] + [("zman-duel", 3)],
)
def test_disallowed_player_counts_raise_a_clear_value_error(edition: str, players: int) -> None:
    with pytest.raises(ValueError, match=r"(?i)player"):
        Game.new(edition, players=players, seed=0)


@pytest.mark.parametrize("edition", ALL_EDITIONS)
def test_first_battle_marker_is_a_fair_random_seat(edition: str) -> None:
    players = max(PLAYER_COUNTS[edition])
    holders = {Game.new(edition, players=players, seed=seed).battle_marker for seed in range(60)}
    assert holders == set(range(players))


# Where a battle may be --------------------------------------------------------------------------


@pytest.mark.parametrize(("edition", "favor"), [("zman", "Roma"), ("zman-classic", None),
                                               ("ffg", "Roma")])
def test_battle_only_in_a_region_without_control_marker_or_favor(
    edition: str, favor: str | None
) -> None:
    game = Game.setup(edition, players=2, hands=[["10"], ["5"]], first=0,
                      control={"Milano": 1, "Genova": 0}, favor=favor)
    assert battle_choices(game) == set(REGIONS) - {"Milano", "Genova", favor}
    with pytest.raises(IllegalMoveError):
        game.play("battle Milano")


def test_eurogames_battle_in_any_city_owned_or_not() -> None:
    game = Game.setup("eurogames", players=2, hands=[["10"], ["5"]], first=0,
                      control={"Milano": 1, "Genova": 0})
    assert battle_choices(game) == set(REGIONS)
    play(game, "battle Milano")
    assert (game.phase, game.battle_region, game.to_act) == ("battle", "Milano", 0)


def test_ffg_a_tied_battle_region_may_be_chosen_again() -> None:
    game = play(battle("ffg", [["5", "1"], ["5", "2"]]), "play 5", "play 5", "pass", "pass")
    assert game.phase == "battle-choice"
    assert BATTLE_REGION in battle_choices(game)


def test_zman_duel_has_no_board_and_opens_every_battle_itself() -> None:
    game = Game.new("zman-duel", players=2, seed=5)
    assert game.battle_region is None
    assert not battle_choices(game)
    assert game.phase == "battle"


# Owner defends (eurogames; ffg option "sieges") --------------------------------------------------


@pytest.mark.parametrize(("edition", "options"), [("eurogames", ()), ("ffg", ("sieges",))])
def test_owner_may_pass_and_come_back_until_he_has_played(
    edition: str, options: tuple[str, ...]
) -> None:
    game = battle(edition, [["10", "5", "1"], ["10", "6", "1"]], control={BATTLE_REGION: 1},
                  options=options)
    play(game, "play 10", "pass", "play 5", "pass", "pass")
    assert (game.phase, game.to_act) == ("battle", 1)
    play(game, "play 10", "play 6", "pass")
    assert game.control[BATTLE_REGION] == 1
    assert game.battle_marker == 1


@pytest.mark.parametrize(("edition", "options"), [("eurogames", ()), ("ffg", ("sieges",))])
def test_owner_who_has_played_cannot_come_back_after_passing(
    edition: str, options: tuple[str, ...]
) -> None:
    game = battle(edition, [["10", "5", "1"], ["2", "6"]], control={BATTLE_REGION: 1},
                  options=options)
    play(game, "play 10", "play 2", "play 5", "pass", "pass")
    assert game.control[BATTLE_REGION] == 0
    assert "6" in game.hand(1)


@pytest.mark.parametrize(("edition", "options"), [("eurogames", ()), ("ffg", ("sieges",))])
def test_owner_passing_last_without_having_played_ends_the_battle(
    edition: str, options: tuple[str, ...]
) -> None:
    game = battle(edition, [["10", "1"], ["heroine"]], control={BATTLE_REGION: 1},
                  options=options)
    play(game, "play 10", "pass", "pass", "pass")
    assert game.control[BATTLE_REGION] == 0
    assert game.hand(1) == ("heroine",)


def test_eurogames_owner_keeps_an_uncontested_city_and_takes_the_statue() -> None:
    game = battle("eurogames", [["10"], ["5"], ["1"]], control={BATTLE_REGION: 2})
    play(game, "pass", "pass", "pass")
    assert game.control[BATTLE_REGION] == 2
    assert game.battle_marker == 2


# Cede (ffg option) ------------------------------------------------------------------------------


def test_ffg_cede_hands_the_battle_marker_to_the_left() -> None:
    game = Game.setup("ffg", players=3, hands=[["10"], ["5"], ["1"]], first=2, options=("cede",))
    assert "cede" in move_texts(game.legal_moves())
    play(game, "cede")
    assert (game.phase, game.battle_marker, game.to_act) == ("battle-choice", 0, 0)


@pytest.mark.parametrize("edition", BOARD_EDITIONS)
def test_cede_is_illegal_without_the_option(edition: str) -> None:
    game = Game.setup(edition, players=2, hands=[["10"], ["5"]], first=0)
    assert "cede" not in move_texts(game.legal_moves())
    with pytest.raises(IllegalMoveError):
        game.play("cede")


@pytest.mark.parametrize(
    ("edition", "option"),
    [("zman", "cede"), ("zman-classic", "sieges"), ("zman-duel", "cede"), ("eurogames", "sieges"),
     ("ffg", "fly")],
)
def test_an_option_the_edition_does_not_have_is_a_clear_value_error(
    edition: str, option: str
) -> None:
    players = min(PLAYER_COUNTS[edition])
    with pytest.raises(ValueError, match=option):
        Game.new(edition, players=players, seed=0, options=(option,))


# Token after a tie ------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", ("zman", "zman-classic"))
def test_zman_tie_gives_the_marker_to_a_fair_random_tied_seat(edition: str) -> None:
    hands = [["5"], ["5"], ["1"]]
    assert chance_outcomes(edition, hands, ("play 5", "play 5", "play 1")) == {0, 1}
    game = play(battle(edition, hands), "play 5", "play 5", "play 1")
    assert nobody_won_last_battle(game, edition)


def test_zman_duel_tie_gives_the_marker_to_a_fair_random_seat() -> None:
    assert chance_outcomes("zman-duel", [["5"], ["5"]], ("play 5", "play 5")) == {0, 1}


def test_ffg_tie_passes_the_token_to_the_next_seat_clockwise() -> None:
    game = play(battle("ffg", [["5"], ["1"], ["5"]]), "play 5", "play 1", "play 5")
    assert BATTLE_REGION not in game.control
    assert game.battle_marker == 1


def test_ffg_battle_where_nobody_plays_passes_the_token_left() -> None:
    game = play(battle("ffg", [["5"], ["5"]]), "pass", "pass")
    assert BATTLE_REGION not in game.control
    assert (game.battle_marker, game.to_act) == (1, 1)


def test_eurogames_tie_in_a_free_city_leaves_the_statue_with_its_holder() -> None:
    game = play(battle("eurogames", [["1"], ["5"], ["5"]]), "play 1", "play 5", "play 5")
    assert BATTLE_REGION not in game.control
    assert game.battle_marker == 0


def test_eurogames_tie_in_an_owned_city_gives_the_statue_to_its_owner() -> None:
    game = battle("eurogames", [["5"], ["5"], ["1"]], control={BATTLE_REGION: 2})
    play(game, "play 5", "play 5", "play 1")
    assert game.control[BATTLE_REGION] == 2
    assert game.battle_marker == 2


# Refill -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", ("zman", "zman-classic", "ffg", "eurogames"))
def test_no_refill_while_two_players_hold_cards(edition: str) -> None:
    game = battle(edition, [["10", "5"], ["1", "4"], ["2"]])
    play(game, "play 10", "play 1", "play 2", "pass", "pass")
    if edition == "ffg":
        play(game, "battle Roma")
    assert [game.hand_size(seat) for seat in range(3)] == [1, 1, 0]


@pytest.mark.parametrize("edition", ("zman", "zman-classic"))
def test_zman_refill_deals_ten_plus_one_per_region_when_nobody_has_cards(edition: str) -> None:
    game = battle(edition, [["10"], ["5"]], control={"Milano": 1, "Roma": 1})
    play(game, "play 10", "play 5")
    assert (game.hand_size(0), game.hand_size(1)) == (10 + 1, 10 + 2)
    assert (game.phase, game.to_act) == ("battle-choice", 0)


@pytest.mark.parametrize("edition", ("zman", "zman-classic"))
def test_zman_the_only_player_with_cards_must_discard_his_hand(edition: str) -> None:
    game = play(battle(edition, [["10", "5"], ["1"]]), "play 10", "play 1", "pass")
    assert (game.hand_size(0), game.hand_size(1)) == (10 + 1, 10)


def test_eurogames_refill_when_one_player_has_cards_deals_ten_plus_two_per_city() -> None:
    game = battle("eurogames", [["10", "5"], ["1"]], control={"Milano": 0})
    play(game, "play 10", "play 1", "pass")
    assert (game.hand_size(0), game.hand_size(1)) == (10 + 2 * 2, 10)
    assert (game.phase, game.to_act) == ("battle-choice", 0)


def test_ffg_last_player_with_cards_retains_two_before_the_refill() -> None:
    game = play(battle("ffg", [["10", "5", "3", "2"], ["1"]]), "play 10", "play 1", "pass")
    assert (game.phase, game.to_act) == ("battle-choice", 0)
    play(game, "battle Roma")
    assert (game.phase, game.to_act) == ("retain", 0)
    retains = {Move.parse(text) for text in ("retain", "retain 3 5", "retain 2 5", "retain 5")}
    assert retains <= set(game.legal_moves())
    play(game, "retain 5 3")
    assert (game.hand_size(0), game.hand_size(1)) == (10 + 1, 10)
    assert {"3", "5"} <= set(game.hand(0))
    assert (game.phase, game.battle_region, game.to_act) == ("battle", "Roma", 0)


def test_ffg_retain_keeps_at_most_two_cards() -> None:
    game = play(battle("ffg", [["10", "5", "3", "2"], ["1"]]),
                "play 10", "play 1", "pass", "battle Roma")
    record = game.record()
    with pytest.raises(InvalidMoveError):
        game.play("retain 5 3 2")
    with pytest.raises(IllegalMoveError):
        game.play("retain 10")
    assert game.record() == record


def test_duel_both_draw_up_to_eight_and_played_cards_leave_the_game() -> None:
    game = battle("zman-duel", [["10", "5"], ["3"]])
    discarded_before = Counter(game.discard_pile)
    play(game, "play 10", "play 3", "pass")
    assert game.battles_won == (1, 0)
    assert (game.hand_size(0), game.hand_size(1)) == (8, 8)
    assert Counter(game.out_of_game) >= Counter({"10": 1, "3": 1})
    assert Counter(game.discard_pile) == discarded_before
    assert (game.phase, game.to_act) == ("battle", 0)


def test_duel_never_reshuffles_and_more_battles_wins_when_both_are_out() -> None:
    game = Game.setup("zman-duel", players=2, hands=[["10"], ["3"]], deck=[["2"], []], first=0)
    play(game, "play 10", "play 3")
    assert (game.hand(0), game.hand(1)) == (("2",), ())
    play(game, "play 2")
    assert game.battles_won == (2, 0)
    assert (game.phase, game.winners, game.to_act) == ("over", (0,), None)


def test_duel_both_out_of_cards_with_equal_battles_is_a_draw() -> None:
    game = Game.setup("zman-duel", players=2, hands=[["5"], ["5"]], deck=[[], []], first=0)
    play(game, "play 5", "play 5")
    assert (game.phase, game.winners, game.to_act) == ("over", (), None)


# Victory ----------------------------------------------------------------------------------------


def won_with(edition: str, players: int, regions: tuple[str, ...], count: int) -> Game:
    """Seat 0, holding the first ``count - 1`` of ``regions``, wins a battle for the next one."""
    hands = [["10"], ["5"]] + [[] for _ in range(players - 2)]
    held = dict.fromkeys(regions[: count - 1], 0)
    game = battle(edition, hands, control=held, battle=regions[count - 1])
    return play(game, "play 10", "play 5")


@pytest.mark.parametrize(
    ("edition", "players", "connected_to_win", "total_to_win"),
    [("zman", 4, 3, 5), ("zman-classic", 2, 3, 5), ("ffg", 2, 4, 6), ("ffg", 3, 4, 6),
     ("ffg", 4, 3, 5), ("ffg", 6, 3, 5)],
)
def test_victory_by_a_connected_chain_or_a_total(
    edition: str, players: int, connected_to_win: int, total_to_win: int
) -> None:
    assert won_with(edition, players, CHAIN, connected_to_win - 1).phase != "over"
    chain = won_with(edition, players, CHAIN, connected_to_win)
    assert (chain.phase, chain.winners, chain.to_act) == ("over", (0,), None)
    assert won_with(edition, players, SCATTERED, total_to_win - 1).phase != "over"
    total = won_with(edition, players, SCATTERED, total_to_win)
    assert (total.phase, total.winners) == ("over", (0,))


@pytest.mark.parametrize(("players", "connected_to_win"), [(2, 6), (3, 5), (4, 4), (6, 4)])
def test_eurogames_victory_by_connected_cities(players: int, connected_to_win: int) -> None:
    assert won_with("eurogames", players, CHAIN, connected_to_win - 1).phase != "over"
    chain = won_with("eurogames", players, CHAIN, connected_to_win)
    assert (chain.phase, chain.winners) == ("over", (0,))


def test_eurogames_cities_that_are_not_connected_do_not_win() -> None:
    assert won_with("eurogames", 4, SCATTERED, 6).phase != "over"


def test_duel_first_to_three_battles_wins() -> None:
    game = Game.setup("zman-duel", players=2, hands=[["10"], ["1"]],
                      deck=[["10", "6"], ["1", "2", "3"]], first=0)
    play(game, "play 10", "play 1")
    play(game, "play 10", "play 1", "pass", "pass")
    assert game.battles_won == (2, 0)
    play(game, "play 6", "play 2", "pass")
    assert game.battles_won == (3, 0)
    assert (game.phase, game.winners, game.to_act) == ("over", (0,), None)
    assert game.hand(1) == ("3",)


# No region left to fight for --------------------------------------------------------------------


def last_region_won_by_seat_0(edition: str, control: dict[str, int]) -> Game:
    """Six seats, every region held but Siena; seat 0 wins the battle for Siena."""
    hands: list[list[str]] = [["10"], ["5"], [], [], [], []]
    return play(battle(edition, hands, control=control, battle="Siena"), "play 10", "play 5")


@pytest.mark.parametrize("edition", ("zman", "zman-classic", "ffg"))
def test_no_region_left_most_regions_wins(edition: str) -> None:
    game = last_region_won_by_seat_0(edition, EVERY_REGION_BUT_SIENA)
    assert (game.phase, game.winners, game.to_act) == ("over", (0,), None)


@pytest.mark.parametrize("edition", ("zman", "zman-classic"))
def test_zman_no_region_left_ties_share_the_victory(edition: str) -> None:
    game = last_region_won_by_seat_0(edition, EVERY_REGION_BUT_SIENA_SEAT_1_AT_FOUR)
    assert (game.phase, game.winners) == ("over", (0, 1))


def test_ffg_no_region_left_tie_starts_a_final_battle_among_the_tied() -> None:
    game = last_region_won_by_seat_0("ffg", EVERY_REGION_BUT_SIENA_SEAT_1_AT_FOUR)
    assert game.final_battle
    assert (game.phase, game.battle_region, game.to_act) == ("battle", None, 1)
    assert [game.hand_size(seat) for seat in range(6)] == [10 + 4, 10 + 4, 0, 0, 0, 0]
    assert game.winners == ()


def test_ffg_final_battle_winner_wins_the_game() -> None:
    game = last_region_won_by_seat_0("ffg", EVERY_REGION_BUT_SIENA_SEAT_1_AT_FOUR)
    mercenary = next(move for move in game.legal_moves() if move.card in MERCENARIES)
    play(game, mercenary, "pass", "pass")
    assert (game.phase, game.winners, game.to_act) == ("over", (1,), None)


def test_ffg_final_battle_tie_shares_the_victory() -> None:
    game = last_region_won_by_seat_0("ffg", EVERY_REGION_BUT_SIENA_SEAT_1_AT_FOUR)
    play(game, "pass", "pass")
    assert (game.phase, game.winners) == ("over", (0, 1))


def test_ffg_favor_region_counts_as_unavailable_for_the_final_battle() -> None:
    control = {region: seat for region, seat in EVERY_REGION_BUT_SIENA.items() if region != "Roma"}
    hands: list[list[str]] = [["10"], ["5"], [], [], [], []]
    game = battle("ffg", hands, control=control, favor="Roma", battle="Siena")
    play(game, "play 10", "play 5")  # seats 0 to 3 now hold three regions each
    assert game.final_battle
    assert [game.hand_size(seat) for seat in range(6)] == [13, 13, 13, 13, 0, 0]
    assert (game.phase, game.to_act) == ("battle", 1)


def test_zman_tied_battle_in_the_last_empty_region_does_not_end_the_game() -> None:
    hands: list[list[str]] = [["5", "1"], ["5", "2"], [], [], [], []]
    game = battle("zman", hands, control=EVERY_REGION_BUT_SIENA, battle="Siena")
    play(game, "play 5", "play 5", "pass", "pass")
    assert (game.phase, game.battle_region) == ("battle", "Siena")  # the only choice: not asked


# Hand-discard step ------------------------------------------------------------------------------

DISCARD_HANDS = [["1", "10"], ["2", "heroine"], ["6", "drummer"]]
DISCARD_BATTLE = ("play 1", "play 2", "play 6", "pass", "pass", "pass")  # seat 2 wins


@pytest.mark.parametrize("edition", ("zman", "zman-classic", "eurogames"))
def test_discard_step_asks_only_seats_without_mercenaries_clockwise_from_the_marker(
    edition: str,
) -> None:
    game = play(battle(edition, DISCARD_HANDS), *DISCARD_BATTLE)
    assert game.battle_marker == 2
    assert (game.phase, game.to_act) == ("discard", 2)
    assert move_texts(game.legal_moves()) == {"discard", "keep"}
    discarded_drummers = game.discard_pile.count("drummer")
    play(game, "discard")
    assert game.discard_pile.count("drummer") == discarded_drummers + 1
    assert (game.phase, game.to_act) == ("discard", 1)
    play(game, "keep")
    assert (game.hand(0), game.hand(1), game.hand(2)) == (("10",), ("heroine",), ())
    assert (game.phase, game.to_act) == ("battle-choice", 2)


SOLE_HOLDER_HANDS = [["5"], ["1", "heroine"], ["2", "10"]]
# Seat 0 wins with its last card; seat 1 is left with a Heroine, seat 2 with a 10.
SOLE_HOLDER_BATTLE = ("play 5", "play 1", "play 2", "pass", "pass")


@pytest.mark.parametrize("edition", ("zman", "zman-classic", "eurogames"))
def test_a_discard_that_leaves_one_player_with_cards_ends_the_round(edition: str) -> None:
    game = play(battle(edition, SOLE_HOLDER_HANDS), *SOLE_HOLDER_BATTLE, "discard")
    bonus = 2 if edition == "eurogames" else 1
    assert [game.hand_size(seat) for seat in range(3)] == [10 + bonus, 10, 10]
    assert (game.phase, game.to_act) == ("battle-choice", 0)


@pytest.mark.parametrize("edition", ("zman", "zman-classic", "eurogames"))
def test_a_kept_hand_leaves_two_players_with_cards_and_no_refill(edition: str) -> None:
    game = play(battle(edition, SOLE_HOLDER_HANDS), *SOLE_HOLDER_BATTLE, "keep")
    assert [game.hand_size(seat) for seat in range(3)] == [0, 1, 1]


def test_ffg_a_discard_that_leaves_one_player_with_cards_asks_him_to_retain() -> None:
    game = play(battle("ffg", SOLE_HOLDER_HANDS), *SOLE_HOLDER_BATTLE, "battle Roma", "discard")
    assert (game.phase, game.to_act) == ("retain", 2)
    play(game, "retain 10")
    assert [game.hand_size(seat) for seat in range(3)] == [10 + 1, 10, 10]
    assert "10" in game.hand(2)
    assert (game.phase, game.battle_region, game.to_act) == ("battle", "Roma", 0)


@pytest.mark.parametrize("edition", ("zman", "zman-classic", "eurogames"))
def test_the_only_player_with_cards_is_not_asked_to_discard(edition: str) -> None:
    game = play(battle(edition, [["10"], ["5", "heroine"]]), "play 10", "play 5", "pass")
    bonus = 2 if edition == "eurogames" else 1
    assert (game.hand_size(0), game.hand_size(1)) == (10 + bonus, 10)
    assert (game.phase, game.to_act) == ("battle-choice", 0)


def test_ffg_the_only_player_with_cards_is_asked_to_retain_not_to_discard() -> None:
    game = play(battle("ffg", [["10"], ["5", "heroine"]]),
                "play 10", "play 5", "pass", "battle Roma")
    assert (game.phase, game.to_act) == ("retain", 1)


def test_duel_has_no_hand_discard_step() -> None:
    game = play(battle("zman-duel", [["10", "heroine"], ["5", "drummer"]]),
                "play 10", "play 5", "pass", "pass")
    assert (game.phase, game.to_act) == ("battle", 0)
    assert (game.hand_size(0), game.hand_size(1)) == (8, 8)


def test_ffg_order_next_battle_chosen_before_battle_lines_and_hands_are_discarded() -> None:
    game = play(battle("ffg", DISCARD_HANDS), *DISCARD_BATTLE)
    assert (game.phase, game.to_act) == ("battle-choice", 2)
    assert game.row(2) == ("6",)
    play(game, "battle Roma")
    assert game.row(2) == ()
    assert (game.phase, game.to_act) == ("discard", 2)
    play(game, "discard", "keep")
    assert (game.hand(0), game.hand(1), game.hand(2)) == (("10",), ("heroine",), ())
    assert (game.phase, game.battle_region, game.battle_marker) == ("battle", "Roma", 2)
    assert (game.passed, game.to_act) == (frozenset({2}), 0)  # seat 2 discarded: passed
