"""Invariants over random games, for every edition and every player count it allows."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from condottiere.games.condottiere import EDITIONS, Game, Move
from condottiere.games.condottiere.cards import MERCENARIES
from tests.games.condottiere.playout import (
    TABLES,
    cards_on_table,
    play_randomly,
    public_state,
    whole_deck,
)


def _check_step(game: Game) -> None:
    assert cards_on_table(game) == whole_deck(game)
    if game.edition.board:
        held = list(game.control.values())
        assert game.battles_won == tuple(held.count(seat) for seat in range(game.players))
    assert all(game.hand_size(seat) >= 0 for seat in range(game.players))
    assert all(len(game.hand(seat)) == game.hand_size(seat) for seat in range(game.players))
    if game.to_act is not None:
        legal = game.legal_moves()
        assert legal
        for move in legal:
            assert Move.parse(str(move)) == move
            assert eval(repr(move), {"Move": Move}) == move
        if game.phase == "battle":
            played = {move.card for move in legal if move.verb == "play"}
            assert played == set(game.hand(game.to_act))
            if "scarecrow" in played:
                assert _scarecrow_targets(legal, game.to_act) == _mercenaries_in_reach(game)
        view = game.view(game.to_act)
        assert view.hand == game.hand(game.to_act)
        assert list(view.legal_moves) == legal
    else:
        assert game.phase == "over"


def _scarecrow_targets(legal: list[Move], seat: int) -> set[tuple[str, int]]:
    return {
        (str(move.target), seat if move.target_seat is None else move.target_seat)
        for move in legal
        if move.card == "scarecrow" and move.target is not None
    }


def _mercenaries_in_reach(game: Game) -> set[tuple[str, int]]:
    """Every (mercenary, row) a Scarecrow of the seat to act may take back."""
    seats = range(game.players) if game.edition.scarecrow_any_row else [game.to_act]
    return {(card, seat) for seat in seats for card in game.row(seat) if card in MERCENARIES}


def _view_holds_no_hidden_card(game: Game, seat: int) -> None:
    view = game.view(seat)
    fields = {field.name for field in dataclasses.fields(view)}
    assert fields.isdisjoint({"hands", "draw_pile", "draw_piles"})
    assert view.hand == game.hand(seat)
    assert view.hand_sizes == tuple(game.hand_size(other) for other in range(game.players))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_every_invariant_and_replay_exactly(
    table: tuple[str, int, tuple[str, ...]], seed: int
) -> None:
    edition, players, options = table
    game = Game.new(edition, players, seed, options)
    _check_step(game)
    play_randomly(game, random.Random(seed), _check_step)
    assert game.phase == "over"
    if edition != "zman-duel":
        assert game.winners
    for seat in range(players):
        _view_holds_no_hidden_card(game, seat)
    record = json.loads(json.dumps(game.record()))
    again = Game.replay(record)
    assert public_state(again) == public_state(game)
    assert [again.hand(s) for s in range(players)] == [game.hand(s) for s in range(players)]
    assert again.record() == game.record()


@settings(max_examples=40, deadline=None)
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 400))
def test_a_replayed_game_continues_exactly_like_the_original(
    table: tuple[str, int, tuple[str, ...]], seed: int, cut: int
) -> None:
    edition, players, options = table
    original = Game.new(edition, players, seed, options)
    rng = random.Random(seed)
    for _ in range(cut):
        if original.to_act is None:
            break
        original.play(rng.choice(original.legal_moves()))
    copy = Game.replay(original.record())
    rest_a, rest_b = random.Random(cut), random.Random(cut)
    play_randomly(original, rest_a)
    play_randomly(copy, rest_b)
    assert copy.record() == original.record()


@pytest.mark.parametrize("edition", sorted(EDITIONS))
def test_thousands_of_random_games_end_with_the_cards_conserved(edition: str) -> None:
    spec = EDITIONS[edition]
    tables = [t for t in TABLES if t[0] == edition]
    games = 3000
    for index in range(games):
        name, players, options = tables[index % len(tables)]
        game = Game.new(name, players, seed=index, options=options)
        play_randomly(game, random.Random(index))
        assert game.phase == "over"
        assert cards_on_table(game) == whole_deck(game)
        assert all(0 <= seat < players for seat in game.winners)
        assert spec.min_players <= players <= spec.max_players
