"""The engine's state as others read it: the phase as an enum that is also its text, the
seat view's strength breakdowns, and copies taken while a question is pending."""

from __future__ import annotations

import pytest

from condottiere.games.condottiere import EndedBy, Game, Phase
from tests.games.condottiere.conftest import battle, play


def test_the_phase_is_an_enum_member_equal_to_its_text() -> None:
    game = Game.new("zman", players=3, seed=1)
    assert game.phase is Phase.BATTLE_CHOICE
    assert game.phase == "battle-choice"
    assert {"battle-choice": 1}[game.phase] == 1
    assert (str(game.phase), f"{game.phase}", repr(game.phase)) == (
        "battle-choice",
        "battle-choice",
        "'battle-choice'",
    )
    assert [phase.value for phase in Phase] == [
        "battle-choice", "battle", "favor", "discard", "retain", "chance", "over",
    ]


def test_the_view_holds_every_seats_breakdown_in_seat_order() -> None:
    game = battle("zman", [["10", "drummer", "1"], ["6", "heroine", "1"], ["2", "1"]])
    play(game, "play 10", "play 6", "play 2", "play drummer", "play heroine")
    view = game.view(game.to_act)  # seat 2's view: it knows only its own hand
    assert view.breakdowns == tuple(game.breakdown(seat) for seat in range(3))
    assert [[str(step) for step in steps] for steps in view.breakdowns] == [
        ["mercenaries 10: 10", "drummer doubles: 20"],
        ["mercenaries 6: 6", "heroine +10 x 1: 16"],
        ["mercenaries 2: 2"],
    ]
    assert [steps[-1].total for steps in view.breakdowns] == list(view.strengths)


def test_a_seat_engine_gives_its_view_the_same_breakdowns_as_the_open_table() -> None:
    table = battle("zman", [["10", "winter"], ["5", "5", "drummer"]])
    play(table, "play 10", "play 5", "play winter", "play drummer")
    for seat in range(2):
        assert table.seen_by(seat).view(seat).breakdowns == table.view(seat).breakdowns


def test_a_battle_ended_by_a_card_says_which_card() -> None:
    game = battle("zman", [["10", "turncoat"], ["6", "1"]])
    play(game, "play 10", "play 6", "play turncoat")
    result = game.last_battle
    assert result is not None
    assert result.ended_by is EndedBy.TURNCOAT and result.ended_by == "turncoat"


def test_a_copy_taken_during_the_discard_step_goes_on_by_itself() -> None:
    hands = [["10"], ["heroine", "spy"], ["spy", "drummer"]]
    game = Game.setup("zman", 3, hands=hands, battle="Firenze")
    play(game, "play 10", "pass", "pass")
    assert (game.phase, game.to_act) == ("discard", 1)
    other = game.copy()
    game.play("discard")  # only seat 2 holds cards now: the round ends, and a new one is dealt
    other.play("keep")  # seats 1 and 2 hold cards: seat 2 is asked in turn
    assert game.phase == "battle-choice"
    assert [game.hand_size(seat) for seat in range(3)] == [11, 10, 10]
    assert (other.phase, other.to_act, other.hand_size(1)) == ("discard", 2, 2)
    other.play("keep")
    assert (other.phase, other.to_act) == ("battle-choice", 0)


@pytest.mark.parametrize("chosen", [0, 1])
def test_a_copy_taken_while_chance_is_pending_goes_on_with_its_own_answer(chosen: int) -> None:
    spectator = Game.spectate({"edition": "zman-duel", "players": 2})
    assert spectator.phase is Phase.CHANCE
    other = spectator.copy()
    spectator.resolve(chosen)
    other.resolve(1 - chosen)
    for game in (spectator, other):
        game.resolve(None)
        game.resolve(None)
    assert (spectator.to_act, other.to_act) == (chosen, 1 - chosen)
    assert spectator.phase == other.phase == "battle"
