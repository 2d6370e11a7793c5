"""``card_flow`` says exactly what each move does to the mover's hand, and ``decks`` lists every
card a draw pile can hold: what a mental-poker dealer outside the rules relies on."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from condottiere.games.condottiere import Game, Move, card_flow
from tests.games.condottiere.playout import TABLES, whole_deck


def _hand_after(before: Counter[str], move: Move) -> Counter[str]:
    flow = card_flow(move)
    if flow.whole_hand:
        return Counter()
    after = Counter(flow.shown) if flow.rest_returned else before.copy()
    after.subtract(flow.played)
    after.update(flow.taken)
    return +after


@pytest.mark.parametrize(("edition", "players", "options"), TABLES)
def test_card_flow_predicts_the_movers_hand_after_every_move(
    edition: str, players: int, options: tuple[str, ...]
) -> None:
    for seed in range(4):
        game = Game.new(edition, players, seed, options)
        rng = random.Random(seed)
        while game.to_act is not None:
            seat = game.to_act
            move = rng.choice(game.legal_moves())
            before = Counter(game.hand(seat))
            events = len(game.record()["events"])
            game.play(move)
            if any(event[0] == "deal" for event in game.record()["events"][events:]):
                # the cards were gathered and dealt again at once: only what was shown stayed
                assert not Counter(card_flow(move).shown) - Counter(game.hand(seat))
                continue
            assert Counter(game.hand(seat)) == _hand_after(before, move), str(move)


@pytest.mark.parametrize(("edition", "players", "options"), TABLES)
def test_decks_hold_every_card_of_the_edition(
    edition: str, players: int, options: tuple[str, ...]
) -> None:
    game = Game.new(edition, players, 1, options)
    decks = game.decks
    assert sum((Counter(deck) for deck in decks), Counter()) == whole_deck(game)
    assert all(list(deck) == sorted(deck, key=decks[0].index) for deck in decks)
