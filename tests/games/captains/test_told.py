"""What the Captains log tells once and does not leave out: a battle phase passed over says
why, a blocked attack won says it takes no province, and each fact is told once."""

from __future__ import annotations

from condottiere.games.captains.game import Game
from condottiere.games.captains.moves import Move
from condottiere.games.captains.narration import narrate
from condottiere.games.captains.notes import length, since
from condottiere.games.captains.phase import Phase
from tests.games.captains.test_rule_decisions import play, scenario, to_battle

NAMES = ["ann", "bob"]


def told(game: Game, before: int) -> list[str]:
    """The notes the rules left since there were ``before`` of them, in words."""
    return [note.words(NAMES) for note in since(game._notes, length(game._notes) - before)]


def test_a_battle_phase_passed_over_on_the_first_turn_says_why() -> None:
    game = scenario(armies=[{"gonzaga": []}, {}])
    before = length(game._notes)
    to_battle(game)
    assert game.phase == Phase.DIPLOMACY
    assert "no battle phase for ann: nobody attacks on their first turn" in told(game, before)


def test_a_battle_phase_passed_over_after_campaign_season_over_says_so() -> None:
    game = scenario(armies=[{"gonzaga": []}, {}], turns=[1, 1])
    game._no_attack = frozenset({0})
    before = length(game._notes)
    to_battle(game)
    assert game.phase == Phase.DIPLOMACY
    assert "no battle phase for ann: Campaign Season Over was played on them" in told(
        game, before
    )


def test_a_blocked_attack_won_says_it_takes_no_province() -> None:
    strong = ["heavy-cavalry", "armored-knights"]
    game = scenario(armies=[{"faggiuola": strong}, {"gonzaga": []}], turns=[1, 1])
    to_battle(game)
    provinces = game.provinces
    before = length(game._notes)
    play(game, "attack faggiuola 1", "block gonzaga", "pass")
    assert "the attack was blocked: ann takes no province of bob" in told(game, before)
    assert game.provinces == provinces


def test_an_answer_to_an_offer_and_the_upkeep_are_told_once() -> None:
    game = Game.setup(2, cities=["milan", "pisa"], hands=[["pikemen"], []], seed=0,
                      deck=["duchy"])  # fmt: skip
    play(game, "done", "done", "offer 1 give pikemen get 3d")
    after = game.copy()
    after.play("refuse")
    words = [t.text for t in narrate(game, after, Move.parse("refuse"), (), NAMES)]
    assert words[0] == "bob refuses the offer of ann"
    assert not any("refuses" in text for text in words[1:]), words
