"""The engine never asks a seat that has no choice."""

from __future__ import annotations

from condottiere.games.condottiere import REGIONS, Game


def test_the_last_free_region_is_fought_over_without_a_question() -> None:
    control = {region: index % 4 for index, region in enumerate(REGIONS) if region != "Roma"}
    game = Game.setup("zman", 4, hands=[["10"], ["5"], ["1"], ["2"]], control=control, first=1)
    assert (game.phase, game.battle_region, game.to_act) == ("battle", "Roma", 1)


def test_a_favor_with_one_free_region_is_placed_without_a_question() -> None:
    control = {r: 2 + i % 2 for i, r in enumerate(REGIONS) if r not in ("Roma", "Siena")}
    game = Game.setup("zman", 4, hands=[["bishop"], ["5"], [], []], control=control,
                      battle="Roma", first=0)
    game.play("play bishop")
    assert (game.phase, game.favor, game.to_act) == ("battle", "Siena", 1)


def test_a_seat_without_cards_is_passed_and_a_hand_with_mercenaries_kept_automatically() -> None:
    game = Game.setup("zman", 3, hands=[["10"], ["spy", "4"], ["heroine"]], battle="Firenze")
    game.play("play 10")
    game.play("pass")
    game.play("pass")  # seat 0 has no cards left: passed without being asked; the battle ends
    assert game.control["Firenze"] == 0
    # seat 0 (the winner, now holding the marker) has no cards; seat 1 holds a mercenary and
    # keeps without being asked; seat 2 holds only a Heroine and is asked.
    assert (game.phase, game.to_act) == ("discard", 2)
    assert ["auto", 1, "keep"] in game.record()["events"]


def test_a_duel_ends_when_the_only_player_with_cards_declines_to_fight() -> None:
    game = Game.setup("zman-duel", 2, hands=[["1"], []], deck=[[], []], first=0)
    game.play("pass")
    assert (game.phase, game.winners) == ("over", ())


def test_a_duel_ends_when_both_players_with_cards_decline_to_fight() -> None:
    game = Game.setup("zman-duel", 2, hands=[["1", "2"], ["3"]], deck=[["4"], ["5"]], first=0)
    for move in ("play 1", "play 3", "pass"):
        game.play(move)
    assert (game.phase, game.battles_won, game.to_act) == ("battle", (0, 1), 1)
    game.play("pass")
    game.play("pass")  # both held cards and neither played one
    assert (game.phase, game.winners) == ("over", (1,))


def test_a_duel_goes_on_while_the_player_with_cards_still_fights() -> None:
    game = Game.setup("zman-duel", 2, hands=[["1", "2"], []], deck=[[], []], first=0)
    game.play("play 1")
    game.play("pass")
    assert (game.phase, game.battles_won, game.to_act) == ("battle", (1, 0), 0)
    game.play("pass")
    assert (game.phase, game.winners) == ("over", (0,))


def test_the_last_battle_is_kept_with_its_rows_and_strengths_after_the_cleanup() -> None:
    game = Game.setup("zman", 2, hands=[["10", "drummer"], ["6", "1"]], battle="Firenze")
    for move in ("play 10", "play 6", "play drummer", "pass"):
        game.play(move)
    result = game.last_battle
    assert result is not None
    assert (result.region, result.winner, result.ended_by) == ("Firenze", 0, "passes")
    assert result.rows == (("10", "drummer"), ("6",))
    assert result.strengths == (20, 6)
    assert [str(step) for step in result.breakdown(0)] == [
        "mercenaries 10: 10",
        "drummer doubles: 20",
    ]
    assert game.row(0) == ()
