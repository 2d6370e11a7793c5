"""The seeded chance source: deals that are uniform shuffles, fair choices, and answers that
depend on nothing but the seed and the game state."""

from __future__ import annotations

import random
from collections import Counter
from itertools import permutations

from hypothesis import given
from hypothesis import strategies as st

from condottiere.games.condottiere import Choice, Deal, Game, SeededChance
from condottiere.games.condottiere.cards import sort_cards
from tests.games.condottiere.playout import cards_on_table, whole_deck

PILE = sort_cards(["1", "2", "2", "3", "5", "10", "spy", "heroine", "winter", "bishop", "drummer"])


def _deal_in_pieces(chance: SeededChance, sizes: list[int], contents: tuple[str, ...]) -> list[str]:
    dealt: list[str] = []
    for size in sizes:
        cards = chance.deal(Deal(0, size), pile=0, epoch=1, contents=contents, dealt=len(dealt))
        assert len(cards) == size
        dealt += cards
    return dealt


@given(seed=st.integers(0, 2**64 - 1), cut=st.lists(st.integers(1, 4), min_size=1))
def test_a_pile_deals_the_same_order_however_its_deals_are_cut(seed: int, cut: list[int]) -> None:
    sizes: list[int] = []
    for size in cut:
        size = min(size, len(PILE) - sum(sizes))
        if size:
            sizes.append(size)
    whole = _deal_in_pieces(SeededChance(seed), [len(PILE)], PILE)
    assert sorted(whole) == sorted(PILE)
    assert _deal_in_pieces(SeededChance(seed), sizes, PILE) == whole[: sum(sizes)]


def test_every_order_of_a_small_pile_is_equally_likely() -> None:
    contents = ("1", "2", "3", "4")
    trials = 24 * 250
    orders = Counter(
        tuple(_deal_in_pieces(SeededChance(seed), [4], contents)) for seed in range(trials)
    )
    assert set(orders) == set(permutations(contents))
    expected = trials / 24
    chi_square = sum((seen - expected) ** 2 / expected for seen in orders.values())
    assert chi_square < 49.7  # 23 degrees of freedom, p = 0.001


def test_each_epoch_and_each_pile_is_shuffled_afresh() -> None:
    chance = SeededChance(11)
    deal = Deal(0, len(PILE))
    orders = {
        chance.deal(deal, pile=pile, epoch=epoch, contents=PILE, dealt=0)
        for pile in (0, 1)
        for epoch in (1, 2, 3)
    }
    assert len(orders) == 6


def test_a_pile_re_formed_from_other_cards_by_another_line_of_play_deals_its_own_cards() -> None:
    """Copies of a game share its chance source: two lines of play that reach the same epoch
    with different piles (FFG's retained cards) must each deal from their own pile."""
    chance = SeededChance(3)
    deal = Deal(0, 3)
    mercenaries = ("1", "2", "3", "4")
    specials = ("heroine", "spy", "drummer")
    first = chance.deal(deal, pile=0, epoch=1, contents=mercenaries, dealt=0)
    assert set(first) <= set(mercenaries)
    assert set(chance.deal(deal, pile=0, epoch=1, contents=specials, dealt=0)) == set(specials)
    assert chance.deal(deal, pile=0, epoch=1, contents=mercenaries, dealt=0) == first


def test_copies_of_a_game_that_retain_different_cards_conserve_them_after_the_refill() -> None:
    # Seat 0 wins Firenze alone and opens Siena: the last seat with cards chooses what to keep.
    game = Game.setup("ffg", players=4, hands=[["10", "heroine", "2", "drummer"], [], [], []],
                      first=0, battle="Firenze")
    game.play("pass")
    game.play("battle Siena")
    assert game.phase == "retain"
    moves = game.legal_moves()
    assert len(moves) == 11  # nothing, or one or two of the four cards
    for order in (moves, moves[::-1]):
        copies = []
        for move in order:
            line = game.copy()
            line.play(move)
            copies.append(line)
        for line in copies:
            assert line.phase != "retain"
            assert cards_on_table(line) == whole_deck(line)


def test_a_scenarios_deck_is_dealt_top_first_at_the_first_epoch_only() -> None:
    chance = SeededChance(1, explicit={0: ["spy", "1", "2"]})
    assert chance.deal(Deal(0, 2), pile=0, epoch=0, contents=PILE, dealt=0) == ("spy", "1")
    assert chance.deal(Deal(1, 1), pile=0, epoch=0, contents=PILE, dealt=2) == ("2",)
    later = chance.deal(Deal(0, len(PILE)), pile=0, epoch=1, contents=PILE, dealt=0)
    assert sorted(later) == sorted(PILE)


def test_fair_choices_are_repeatable_and_uniform() -> None:
    node = Choice((0, 2, 3), "battle marker after a tie")
    trials = 3000
    outcomes = Counter(SeededChance(seed).choose(node, index=4) for seed in range(trials))
    assert set(outcomes) == {0, 2, 3}
    expected = trials / 3
    assert sum((seen - expected) ** 2 / expected for seen in outcomes.values()) < 13.8
    assert SeededChance(9).choose(node, index=4) == SeededChance(9).choose(node, index=4)
    assert len({SeededChance(9).choose(node, index=i) for i in range(30)}) == 3


def test_a_record_its_seed_did_not_deal_replays_then_waits_for_chance_outcomes() -> None:
    """A seeded record made by an engine that shuffled differently: going on from the seed
    could deal a card a second time, so the replayed game asks for chance outcomes instead."""
    game = Game.new("zman", players=3, seed=4)
    rng = random.Random(4)
    for _ in range(5):
        game.play(rng.choice(game.legal_moves()))
    record = game.record()
    record["seed"] = 5  # the cards dealt so far are not what seed 5 deals
    replayed = Game.replay(record)
    while replayed.to_act is not None:
        replayed.play(rng.choice(replayed.legal_moves()))
        assert cards_on_table(replayed) == whole_deck(replayed)
    assert replayed.phase == "chance" and replayed.chance is not None
    assert Game.replay(game.record()).record() == game.record()
