"""Determinisation: from one seat's engine, a complete open-table game it cannot tell apart from
the real one. Every sample agrees with the seat's view, conserves the cards, keeps what is known
to be in a hand, and deals the unseen cards uniformly (chi-square)."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from condottiere.games.condottiere import Game
from tests.games.condottiere.playout import TABLES, cards_on_table, public_state, whole_deck


def game_after(table: tuple[str, int, tuple[str, ...]], seed: int, moves: int) -> Game:
    """The open table of ``table`` after at most ``moves`` random moves (fewer if it ends)."""
    edition, players, options = table
    game = Game.new(edition, players, seed, options)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.to_act is None:
            break
        game.play(rng.choice(game.legal_moves()))
    return game


def hidden_cards(sample: Game, view: Game) -> Counter[str]:
    """What the sample put where ``view`` sees nothing: hidden parts of hands and draw piles."""
    found: Counter[str] = Counter()
    for seat in range(sample.players):
        found.update(sample.hand(seat))
        found.subtract(view.known_cards(seat))
    for pile in sample.draw_piles:
        found.update(pile)
    return +found


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    table=st.sampled_from(TABLES),
    seed=st.integers(0, 10**6),
    moves=st.integers(0, 400),
    seat_choice=st.integers(0, 5),
    sample_seed=st.integers(0, 10**6),
)
def test_every_sample_is_consistent_with_the_seats_view_and_conserves_the_cards(
    table: tuple[str, int, tuple[str, ...]], seed: int, moves: int, seat_choice: int,
    sample_seed: int,
) -> None:
    game = game_after(table, seed, moves)
    seat = seat_choice % game.players
    view = game.seen_by(seat)
    sample = view.determinise(random.Random(sample_seed))

    assert sample.observer is None
    assert public_state(sample) == public_state(view)
    assert sample.hand(seat) == game.hand(seat)
    for other in range(game.players):
        assert not Counter(view.known_cards(other)) - Counter(sample.hand(other))
        assert len(sample.hand(other)) == view.hand_size(other)
    assert cards_on_table(sample) == whole_deck(sample)
    unseen = Counter(card for pile in range(len(sample.draw_piles))
                     for card in view.unseen_cards(pile))
    assert hidden_cards(sample, view) == unseen
    if game.to_act == seat:
        assert sample.legal_moves() == view.legal_moves() == game.legal_moves()


@settings(max_examples=15, deadline=None)
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 10**6), moves=st.integers(0, 300))
def test_a_sample_plays_on_to_the_end_as_an_open_table(
    table: tuple[str, int, tuple[str, ...]], seed: int, moves: int
) -> None:
    game = game_after(table, seed, moves)
    sample = game.seen_by(seed % game.players).determinise(random.Random(seed))
    rng = random.Random(seed + 1)
    while sample.to_act is not None:
        sample.play(rng.choice(sample.legal_moves()))
        assert cards_on_table(sample) == whole_deck(sample)
    assert sample.phase == "over"


def test_the_same_generator_seed_gives_the_same_sample_and_another_seed_another() -> None:
    view = game_after(("zman", 4, ()), seed=3, moves=25).seen_by(1)

    def deal(sample_seed: int) -> tuple[object, ...]:
        sample = view.determinise(random.Random(sample_seed))
        return tuple(sample.hand(seat) for seat in range(4)) + sample.draw_piles

    assert deal(7) == deal(7)
    assert deal(7) != deal(8)


def test_cards_known_to_be_in_a_hidden_hand_stay_in_it() -> None:
    # Seat 0 takes its 10 back with a Scarecrow: everyone now knows it holds a 10.
    table = Game.setup("zman", 3, hands=[["10", "scarecrow", "2", "3"], ["5", "6"], ["4"]],
                       battle="Firenze")
    for move in ("play 10", "pass", "pass", "play scarecrow 10"):
        table.play(move)
    view = table.seen_by(1)
    assert (view.known_cards(0), view.hidden_count(0)) == (("10",), 2)
    hands = set()
    for sample_seed in range(50):
        sample = view.determinise(random.Random(sample_seed))
        assert "10" in sample.hand(0)
        hands.add(sample.hand(0))
    assert len(hands) > 1


def test_an_open_table_keeps_every_hand_and_reshuffles_only_the_draw_pile() -> None:
    table = game_after(("ffg", 3, ()), seed=4, moves=30)
    sample = table.determinise(random.Random(1))
    assert [sample.hand(s) for s in range(3)] == [table.hand(s) for s in range(3)]
    assert sample.draw_piles == table.draw_piles


def test_a_spectator_samples_every_hand() -> None:
    table = game_after(("zman-duel", 2, ()), seed=6, moves=12)
    spectator = Game.spectate(table.record())
    spectator.follow(table.record()["events"])
    sample = spectator.determinise(random.Random(2))
    assert [len(sample.hand(s)) for s in range(2)] == [table.hand_size(s) for s in range(2)]
    assert cards_on_table(sample) == whole_deck(sample)


def test_a_sample_has_no_record() -> None:
    sample = Game.new("zman", 3, seed=1).seen_by(0).determinise(random.Random(0))
    with pytest.raises(ValueError, match="no record"):
        sample.record()


# ------------------------------------------------------------------------------- uniformity

CHI_SQUARE_SAMPLES = 3000


def chi_square_critical(degrees: int, z: float = 3.719) -> float:
    """The chi-square value exceeded with probability ~1e-4 (Wilson-Hilferty; z = 3.719)."""
    k = degrees
    return k * (1 - 2 / (9 * k) + z * math.sqrt(2 / (9 * k))) ** 3


@pytest.mark.parametrize(
    ("table", "seed", "moves", "seat"),
    [(("zman", 4, ()), 11, 40, 2), (("zman-duel", 2, ()), 5, 20, 0), (("ffg", 3, ()), 8, 60, 1)],
)
def test_unseen_cards_are_dealt_uniformly_among_the_hidden_places(
    table: tuple[str, int, tuple[str, ...]], seed: int, moves: int, seat: int
) -> None:
    """Over many samples, how often each kind of unseen card lands in each hidden place (another
    seat's hidden cards, a draw pile) fits the uniform expectation: copies x places' share."""
    view = game_after(table, seed, moves).seen_by(seat)
    players = view.players
    rng = random.Random(seed)
    counts: Counter[tuple[str, str]] = Counter()
    for _ in range(CHI_SQUARE_SAMPLES):
        sample = view.determinise(rng)
        for other in range(players):
            if view.hidden_count(other):
                hidden = Counter(sample.hand(other)) - Counter(view.known_cards(other))
                for card, n in hidden.items():
                    counts[card, f"seat {other}"] += n
        for pile, cards in enumerate(sample.draw_piles):
            for card in cards:
                counts[card, f"pile {pile}"] += 1

    statistic = 0.0
    degrees = 0
    for pile, pile_size in enumerate(view.draw_pile_sizes):
        places = {f"pile {pile}": pile_size} if pile_size else {}
        for other in range(players):
            if view.hidden_count(other) and pile == (other if view.edition.per_seat_decks else 0):
                places[f"seat {other}"] = view.hidden_count(other)
        unseen = Counter(view.unseen_cards(pile))
        for place, slots in places.items():
            for card, copies in unseen.items():
                expected = CHI_SQUARE_SAMPLES * copies * slots / unseen.total()
                statistic += (counts[card, place] - expected) ** 2 / expected
        degrees += (len(unseen) - 1) * (len(places) - 1)
    assert degrees > 0, "the position must hide several kinds of cards in several places"
    assert statistic < chi_square_critical(degrees), (statistic, degrees)
