"""What the Captains log tells once and does not leave out: a battle phase passed over says
why, a blocked attack won says it takes no province, and each fact is told once."""

from __future__ import annotations

from condottiere.games.captains.game import Game
from condottiere.games.captains.phase import Phase
from tests.games.captains.test_rule_decisions import play, scenario, to_battle

NAMES = ["ann", "bob"]


def told(game: Game, start: int) -> list[str]:
    """The game's narration since its sentence ``start``, in words."""
    return [sentence.told(NAMES).text for sentence in game.narration(start)]


def test_a_battle_phase_passed_over_on_the_first_turn_says_why() -> None:
    game = scenario(armies=[{"gonzaga": []}, {}], narrated=True)
    start = len(game.narration())
    to_battle(game)
    assert game.phase == Phase.DIPLOMACY
    assert "no battle phase for ann: nobody attacks on their first turn" in told(game, start)


def test_a_battle_phase_passed_over_after_campaign_season_over_says_so() -> None:
    game = scenario(armies=[{"gonzaga": []}, {}], turns=[1, 1], narrated=True)
    game._no_attack = frozenset({0})
    start = len(game.narration())
    to_battle(game)
    assert game.phase == Phase.DIPLOMACY
    assert "no battle phase for ann: Campaign Season Over was played on them" in told(
        game, start
    )


def test_a_blocked_attack_won_says_it_takes_no_province() -> None:
    strong = ["heavy-cavalry", "armored-knights"]
    game = scenario(
        armies=[{"faggiuola": strong}, {"gonzaga": []}], turns=[1, 1], narrated=True
    )
    to_battle(game)
    provinces = game.provinces
    start = len(game.narration())
    play(game, "attack faggiuola 1", "block gonzaga", "pass")
    assert "the attack was blocked: ann takes no province of bob" in told(game, start)
    assert game.provinces == provinces


def test_an_answer_to_an_offer_is_told_once() -> None:
    game = Game.setup(
        2, cities=["milan", "pisa"], hands=[["pikemen"], []], seed=0, deck=["duchy"],
        narrated=True,
    )
    play(game, "done", "done", "offer 1 give pikemen get 3d")
    start = len(game.narration())
    game.play("refuse")
    words = told(game, start)
    assert words[0] == "bob refuses the offer of ann"
    assert not any("refuses" in text for text in words[1:]), words
