"""Moves (text forms, parse errors against illegal moves, nothing half-applied), seat views
that hold nothing hidden from the seat, and the game as the platform reaches it."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from condottiere.games.captains import Game, IllegalMoveError, InvalidMoveError, Move
from condottiere.interface import TableRules, game_named
from tests.games.captains.playout import play_randomly


def _positions(seed: int, count: int) -> list[Game]:
    """``count`` positions of one random game, each a copy."""
    game = Game.new(random.Random(seed).randint(2, 6), seed=seed)
    rng = random.Random(seed)
    positions = []
    while game.to_act is not None:
        if rng.random() < count / 300:
            positions.append(game.copy())
        game.play(rng.choice(game.legal_moves()))
    return positions


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_every_legal_move_round_trips_through_its_text(seed: int) -> None:
    for game in _positions(seed, 10):
        for move in game.legal_moves():
            assert Move.parse(str(move)) == move
            assert Move.parse(str(move).upper()) == move


@pytest.mark.parametrize(
    "text",
    [
        "",
        "fly",
        "captain",
        "captain pikemen-x",
        "attack 1 gonzaga",
        "offer 1 give 3x get 1p",
        "offer 1 give get",
        "city rome",
        "pass now",
        "event spies",
        "attach pikemen",
    ],
)
def test_text_that_is_not_a_move_is_an_invalid_move(text: str) -> None:
    with pytest.raises(InvalidMoveError):
        Move.parse(text)


def test_an_illegal_move_says_why_and_changes_nothing() -> None:
    game = Game.setup(2, cities=["milan", "pisa"], hands=[["gonzaga"], []], seed=0, deck=["duchy"])
    record = game.record()
    for text, reason in [
        ("attack gonzaga 1", "recruit phase"),
        ("attach duchy gonzaga", "not in play"),
        ("captain carmagnola", "not in seat 0's hand"),
    ]:
        with pytest.raises(IllegalMoveError, match=reason):
            game.play(text)
        assert game.record() == record
    with pytest.raises(InvalidMoveError):
        game.play("conquer rome")


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_a_seats_engine_holds_no_card_hidden_from_it(seed: int) -> None:
    for game in _positions(seed, 2):
        for seat in range(game.players):
            view = game.seen_by(seat)
            assert view.hand(seat) == game.hand(seat)
            for other in range(game.players):
                if other != seat:
                    known = Counter(view.known_cards(other))
                    assert not known - Counter(game.hand(other))
                    with pytest.raises(ValueError):
                        view.view(other)
            if game.to_act == seat:
                assert view.legal_moves() == game.legal_moves()
            seat_view = view.view(seat)
            assert seat_view.hand == game.hand(seat)
            assert all(
                not Counter(cards) - Counter(game.hand(other))
                for other, cards in enumerate(seat_view.known)
            )
        spectator = Game.spectate(game.record())
        spectator.follow(game.record()["events"])
        assert spectator.provinces == game.provinces and spectator.ducats == game.ducats
        assert all(
            spectator.hidden_count(s) == game.hand_size(s) - len(spectator.known_cards(s))
            for s in range(game.players)
        )


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_a_determinised_sample_agrees_with_what_the_seat_knows(seed: int) -> None:
    rng = random.Random(seed)
    for game in _positions(seed, 2):
        seat = rng.randrange(game.players)
        view = game.seen_by(seat)
        sample = view.determinise(rng)
        assert sample.hand(seat) == game.hand(seat)
        for other in range(game.players):
            assert sample.hand_size(other) == game.hand_size(other)
            assert not Counter(view.known_cards(other)) - Counter(sample.hand(other))
        assert sample.draw_pile_size == game.draw_pile_size
        play_randomly(sample, rng)


def test_the_registry_hosts_captains_through_the_game_interface() -> None:
    rules = game_named("captains")
    table = TableRules("captains", rules.default_edition, 3)
    rules.check(table)
    game = rules.offline(table, 5)
    names = ["ann", "bob", "cid"]
    rng = random.Random(5)
    while game.to_act is not None:
        move = rng.choice(game.legal_moves())
        seat, start = game.to_act, game.narration_length
        game.play(move)
        told = [sentence.told(names) for sentence in game.narration(start)]
        assert told and told[0].text.startswith(names[seat]) and told[0].seat == seat
    assert game.outcome is not None
    assert rules.replay(game.record()).record() == game.record()
    assert rules.standings(game) == game.provinces
    assert "provinces" in rules.table_words(game, names)
    assert rules.summary(table)
    views = [game.seen_by(s)._view(s) for s in range(3)]
    assert len({str(rules.public_state(v)) for v in views}) == 1
    assert rules.view_message(views[0]).ByteSize() > 0
    with pytest.raises(ValueError, match="edition"):
        rules.check(TableRules("captains", "zman", 3))
