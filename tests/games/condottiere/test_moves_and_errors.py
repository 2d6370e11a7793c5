"""Move notation and the two move errors.

Text that is not a move raises :class:`InvalidMoveError`; a well-formed move that is not legal
now raises :class:`IllegalMoveError`; both are ``ValueError``s whose message speaks a player's
words, and neither changes the game. Every legal move met in whole random games round-trips
through its text and its ``repr``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

import condottiere.games.condottiere
from condottiere.games.condottiere import Game, IllegalMoveError, InvalidMoveError, Move
from tests.games.condottiere.conftest import ALL_EDITIONS, battle, play

NOT_MOVES = {  # text -> a word the message must repeat back to the player
    "fly Roma": "fly",
    "play 7": "7",
    "battle Atlantis": "atlantis",
    "favor Atlantis": "atlantis",
    "retain 10 heroine 5": "two",
    "play": "card",
    "battle": "region",
    "pass now": "pass",
    "play scarecrow heroine": "heroine",
    "": "empty",
}


def snapshot(game: Game, players: int) -> dict[str, Any]:
    """Everything a rejected move must leave as it was."""
    return {
        "record": game.record(),
        "phase": game.phase,
        "to_act": game.to_act,
        "hands": [game.hand(seat) for seat in range(players)],
        "rows": [game.row(seat) for seat in range(players)],
        "passed": game.passed,
        "control": dict(game.control),
        "favor": game.favor,
        "season": game.season,
        "marker": game.battle_marker,
        "discard": game.discard_pile,
    }


def in_battle() -> Game:
    """zman, seat 0 to act in a battle for Firenze, holding a 10 and a 1; Milano is seat 1's."""
    return battle("zman", [["10", "1"], ["5"]], control={"Milano": 1})


def choosing_battle() -> Game:
    """zman, seat 0 to choose where to fight; Milano is seat 1's, the Favor is on Roma."""
    return Game.setup("zman", players=2, hands=[["10", "1"], ["5"]], first=0,
                      control={"Milano": 1}, favor="Roma")


def placing_favor() -> Game:
    """zman, seat 0 has just played a Bishop and must place the Favor; Milano is seat 1's."""
    return play(battle("zman", [["bishop", "1"], ["5"]], control={"Milano": 1}), "play bishop")


def retaining() -> Game:
    """ffg, seat 0 is the last with cards (a 5 and a 3) and keeps up to two of them."""
    game = battle("ffg", [["10", "5", "3"], ["1"]])
    return play(game, "play 10", "play 1", "pass", "battle Roma")


ILLEGAL = [  # (game, move, a word the message must name)
    (in_battle, "play drummer", "drummer"),
    (in_battle, "play scarecrow 10", "scarecrow"),
    (in_battle, "battle Roma", "battle"),
    (in_battle, "favor Roma", "favor"),
    (in_battle, "discard", "discard"),
    (in_battle, "retain", "retain"),
    (choosing_battle, "battle Milano", "milano"),
    (choosing_battle, "battle Roma", "roma"),
    (choosing_battle, "pass", "pass"),
    (choosing_battle, "play 10", "play"),
    (choosing_battle, "cede", "cede"),
    (placing_favor, "favor Milano", "milano"),
    (placing_favor, "favor none", "favor"),
    (placing_favor, "pass", "pass"),
    (retaining, "retain 10", "10"),
    (retaining, "retain 5 5", "5"),
    (retaining, "discard", "discard"),
]


IMPOSSIBLE_SETUPS = [  # (edition, Game.setup keywords, a word the message must name)
    ("eurogames", {"hands": [["spring"], []]}, "spring"),
    ("zman", {"hands": [["10"] * 9, []]}, "10"),
    ("zman-duel", {"hands": [["heroine", "heroine"], []]}, "heroine"),
    ("zman", {"hands": [["10"], []], "control": {"Atlantis": 0}}, "atlantis"),
    ("zman", {"hands": [["10"], []], "control": {"Milano": 1}, "battle": "Milano"}, "milano"),
    ("zman", {"hands": [["10"], []], "first": 2}, "first"),
    ("ffg", {"hands": [["10"], []], "control": {"Milano": 1}, "favor": "Milano"}, "favor"),
    ("zman-classic", {"hands": [["10"], []], "favor": "Roma"}, "favor"),
    ("eurogames", {"hands": [["10"], []], "favor": "Roma"}, "favor"),
    ("zman-duel", {"hands": [["10"], []], "favor": "Roma"}, "board"),
]


@pytest.mark.parametrize(
    ("edition", "setup", "word"),
    IMPOSSIBLE_SETUPS,
    ids=[f"{edition}-{word}" for edition, _, word in IMPOSSIBLE_SETUPS],
)
def test_setup_refuses_an_impossible_position_with_a_clear_value_error(
    edition: str, setup: dict[str, Any], word: str
) -> None:
    with pytest.raises(ValueError, match=f"(?i){word}"):
        Game.setup(edition, players=2, **setup)


def test_hands_are_listed_in_notation_order() -> None:
    game = battle("zman", [["drummer", "heroine", "10", "spy", "1"], ["2"]])
    assert game.hand(0) == ("1", "10", "heroine", "spy", "drummer")


def test_both_move_errors_are_value_errors() -> None:
    assert issubclass(InvalidMoveError, ValueError)
    assert issubclass(IllegalMoveError, ValueError)
    assert not issubclass(InvalidMoveError, IllegalMoveError)
    assert not issubclass(IllegalMoveError, InvalidMoveError)


@pytest.mark.parametrize(("text", "word"), NOT_MOVES.items())
def test_text_that_is_not_a_move_is_invalid_and_says_why(text: str, word: str) -> None:
    with pytest.raises(InvalidMoveError) as error:
        Move.parse(text)
    assert word in str(error.value).lower()


@pytest.mark.parametrize("text", NOT_MOVES)
def test_playing_text_that_is_not_a_move_changes_nothing(text: str) -> None:
    game = in_battle()
    before = snapshot(game, 2)
    with pytest.raises(InvalidMoveError):
        game.play(text)
    assert snapshot(game, 2) == before


@pytest.mark.parametrize(("make_game", "text", "word"), ILLEGAL)
def test_illegal_move_is_refused_in_a_players_words_and_changes_nothing(
    make_game: Callable[[], Game], text: str, word: str
) -> None:
    game = make_game()
    before = snapshot(game, 2)
    assert Move.parse(text) not in game.legal_moves()
    with pytest.raises(IllegalMoveError) as error:
        game.play(text)
    message = str(error.value)
    assert word in message.lower()
    assert "Move(" not in message
    assert snapshot(game, 2) == before


def test_playing_something_that_is_neither_text_nor_move_is_invalid() -> None:
    game = in_battle()
    before = snapshot(game, 2)
    with pytest.raises(InvalidMoveError):
        game.play(10)  # type: ignore[arg-type]
    assert snapshot(game, 2) == before


def test_a_refused_move_leaves_the_game_playable() -> None:
    game = in_battle()
    with pytest.raises(IllegalMoveError):
        game.play("play drummer")
    play(game, "play 10")
    assert game.row(0) == ("10",)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("BATTLE firenze", "battle Firenze"),
        ("Play   Drummer", "play drummer"),
        ("favor NONE", "favor none"),
        ("  pass ", "pass"),
        ("play SCARECROW 5 2", "play scarecrow 5 2"),
    ],
)
def test_parse_ignores_case_and_spacing(text: str, canonical: str) -> None:
    assert str(Move.parse(text)) == canonical


def test_play_accepts_a_move_as_well_as_its_text() -> None:
    by_text = play(in_battle(), "play 10")
    by_move = play(in_battle(), Move.parse("play 10"))
    assert by_text.record() == by_move.record()


@pytest.mark.parametrize("edition", ALL_EDITIONS)
def test_replaying_the_record_of_a_scenario_rebuilds_the_same_state(edition: str) -> None:
    hands = [["10", "drummer", "winter", "1"], ["5", "heroine", "scarecrow", "2"], ["3"]]
    players = 2 if edition == "zman-duel" else 3
    game = battle(edition, hands[:players], seed=11)
    third_seat = ["play 3"] if players == 3 else []
    play(game, "play 10", "play 5", *third_seat, "play drummer", "play scarecrow 5", "play winter")
    assert snapshot(Game.replay(game.record()), players) == snapshot(game, players)


def assert_round_trips(move: Move) -> None:
    """``move`` survives its text (in any case) and its ``repr``."""
    text = str(move)
    assert Move.parse(text) == move
    assert Move.parse(text.upper()) == move
    assert eval(repr(move), vars(condottiere.games.condottiere)) == move


@pytest.mark.parametrize("edition", ALL_EDITIONS)
@pytest.mark.parametrize("seed", range(3))
def test_every_legal_move_of_random_games_round_trips(edition: str, seed: int) -> None:
    players = 2 if edition == "zman-duel" else 3 + seed
    options = ("sieges", "cede") if edition == "ffg" and seed else ()
    game = Game.new(edition, players=players, seed=seed, options=options)
    chooser = random.Random(seed)
    for _ in range(3000):
        if game.to_act is None:
            break
        moves = game.legal_moves()
        assert moves, f"{edition}: seat {game.to_act} has nothing to do in phase {game.phase}"
        for move in moves:
            assert_round_trips(move)
        for seat in range(players):
            assert game.breakdown(seat)[-1].total == game.strength(seat)
        game.play(chooser.choice(moves))
    assert game.phase == "over"
    assert game.winners or edition == "zman-duel"
    assert Game.replay(game.record()).record() == game.record()
