"""Worked examples of the seeds: seed 003's Winter and Drum examples, and the Z-Man order of
strength (seed 000: Bishop, Winter, Drummer, Spring, then Heroine/Spy) with its ``breakdown``.
"""

from __future__ import annotations

import pytest

from condottiere.games.condottiere import Game
from tests.games.condottiere.conftest import (
    ALL_EDITIONS,
    BATTLE_REGION,
    FAVOR_BISHOP_EDITIONS,
    SPRING_EDITIONS,
    battle,
    play,
)

SEED_003_ARMY = ("10", "10", "5", "4", "4", "1", "1", "1")  # 36 points in eight mercenaries


def distinct_totals(game: Game, seat: int) -> list[tuple[int, str]]:
    """``breakdown(seat)`` as (total, label) pairs, dropping steps that left the total unchanged."""
    steps: list[tuple[int, str]] = []
    for step in game.breakdown(seat):
        if not steps or steps[-1][0] != step.total:
            steps.append((step.total, step.label.lower()))
    return steps


def labels_name(steps: list[tuple[int, str]], words: tuple[str, ...]) -> bool:
    """Whether each step's label names the matching word (the card that made the step)."""
    return len(steps) == len(words) and all(
        word in label for (_, label), word in zip(steps, words, strict=True)
    )


def test_seed_003_winter_makes_an_army_of_36_in_eight_mercenaries_worth_8() -> None:
    # Seed 003 says "7 Mercenary cards ... reduced to 7 points", yet lists eight cards.
    game = battle("eurogames", [[*SEED_003_ARMY, "2"], ["winter"]], control={BATTLE_REGION: 1})
    for card in SEED_003_ARMY[:-1]:
        play(game, f"play {card}", "pass")  # seat 1 defends its city: it may pass and come back
    play(game, f"play {SEED_003_ARMY[-1]}")
    assert game.strength(0) == 36
    play(game, "play winter")
    assert game.strength(0) == 8


def test_seed_003_drum_doubles_21_in_three_mercenaries_to_42_and_winter_makes_it_6() -> None:
    game = battle("eurogames", [["10", "6", "5", "drummer", "1"], ["winter"]],
                  control={BATTLE_REGION: 1})
    play(game, "play 10", "pass", "play 6", "pass", "play 5", "pass")
    assert game.strength(0) == 21
    play(game, "play drummer")
    assert game.strength(0) == 42
    play(game, "play winter")
    assert game.strength(0) == 6


@pytest.mark.parametrize("edition", ALL_EDITIONS)
def test_winter_then_drummer_makes_each_mercenary_worth_two(edition: str) -> None:
    game = play(battle(edition, [["10", "5", "drummer", "1"], ["winter", "2"]]),
                "play 10", "play winter", "play 5", "pass", "play drummer")
    assert game.strength(0) == 4


@pytest.mark.parametrize("edition", SPRING_EDITIONS)
def test_drummer_doubles_before_spring_adds_three(edition: str) -> None:
    game = play(battle(edition, [["10", "5", "drummer", "1"], ["spring", "2"]]),
                "play 10", "play spring", "play 5", "pass", "play drummer")
    assert game.strength(0) == 10 * 2 + 3 + 5 * 2


@pytest.mark.parametrize("edition", SPRING_EDITIONS)
def test_spring_picks_the_highest_printed_value_not_the_doubled_one(edition: str) -> None:
    game = play(battle(edition, [["5", "drummer", "1"], ["6", "spring", "2"]]),
                "play 5", "play 6", "play drummer", "play spring")
    assert (game.strength(0), game.strength(1)) == (10, 9)


@pytest.mark.parametrize("edition", (*FAVOR_BISHOP_EDITIONS, "zman-duel"))
def test_bishop_takes_the_highest_printed_value_even_under_winter(edition: str) -> None:
    game = play(battle(edition, [["10", "5", "drummer", "1"], ["winter", "bishop", "2"]]),
                "play 10", "play winter", "play 5", "play bishop")
    if game.phase == "favor":
        play(game, "favor Roma")
    assert game.row(0) == ("5",)
    play(game, "play drummer")
    assert game.strength(0) == 2


@pytest.mark.parametrize("edition", SPRING_EDITIONS)
def test_breakdown_steps_mercenaries_drummer_spring_then_heroine(edition: str) -> None:
    game = battle(edition, [["10", "5", "drummer", "heroine", "1"], ["spring", "2"]])
    play(game, "play 10", "play spring", "play 5", "pass", "play drummer", "play heroine")
    steps = distinct_totals(game, 0)
    assert [total for total, _ in steps] == [15, 30, 33, 43]
    assert labels_name(steps[1:], ("drummer", "spring", "heroine"))
    assert game.breakdown(0)[-1].total == game.strength(0) == 43


@pytest.mark.parametrize("edition", ALL_EDITIONS)
def test_breakdown_steps_mercenaries_winter_drummer_then_heroine(edition: str) -> None:
    game = battle(edition, [["10", "5", "drummer", "heroine", "1"], ["winter", "2"]])
    play(game, "play 10", "play winter", "play 5", "pass", "play drummer", "play heroine")
    steps = distinct_totals(game, 0)
    assert [total for total, _ in steps] == [15, 2, 4, 14]
    assert labels_name(steps[1:], ("winter", "drummer", "heroine"))
    assert game.breakdown(0)[-1].total == game.strength(0) == 14


def test_breakdown_adds_spies_last() -> None:
    game = play(battle("zman", [["10", "drummer", "spy", "1"], ["winter", "2"]]),
                "play 10", "play winter", "play drummer", "pass", "play spy")
    steps = distinct_totals(game, 0)
    assert [total for total, _ in steps] == [10, 1, 2, 3]
    assert labels_name(steps[1:], ("winter", "drummer", "spy"))
    assert game.breakdown(0)[-1].total == game.strength(0) == 3


def test_breakdown_adds_courtesans_last() -> None:
    game = play(battle("ffg", [["10", "drummer", "courtesan", "1"], ["spring", "2"]]),
                "play 10", "play spring", "play drummer", "pass", "play courtesan")
    steps = distinct_totals(game, 0)
    assert [total for total, _ in steps] == [10, 20, 23, 24]
    assert labels_name(steps[1:], ("drummer", "spring", "courtesan"))
    assert game.breakdown(0)[-1].total == game.strength(0) == 24
