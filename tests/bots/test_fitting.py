"""The conditional logit that fits the search's estimate: it finds the weights that make the
observed victories most likely, and refuses what cannot be fitted."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from condottiere.bots.fitting import FitError, Position, fit, mean_log_loss, shares


def _drawn(
    weights: tuple[float, ...], count: int, seats: int, rng: random.Random
) -> list[Position]:
    """Positions whose winners are drawn from the model with ``weights`` itself."""
    positions = []
    for _ in range(count):
        features = tuple(tuple(rng.uniform(-2, 2) for _ in weights) for _ in range(seats))
        chances = shares(
            [sum(w * x for w, x in zip(weights, seat, strict=True)) for seat in features]
        )
        winner = rng.choices(range(seats), chances)[0]
        positions.append(Position(features, tuple(float(s == winner) for s in range(seats))))
    return positions


def test_the_fit_recovers_the_weights_that_drew_the_winners() -> None:
    truth = (1.5, -0.7, 0.2)
    positions = _drawn(truth, 6000, 3, random.Random(5))
    fitted = fit(positions, ridge=0.0)
    assert fitted == pytest.approx(truth, abs=0.12)
    assert mean_log_loss(positions, fitted) <= mean_log_loss(positions, truth)


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.lists(st.tuples(st.floats(-3, 3), st.floats(-3, 3)), min_size=2, max_size=4),
            st.integers(0, 3),
        ),
        min_size=4,
        max_size=30,
    )
)
def test_no_other_weights_explain_the_victories_better_than_the_fitted_ones(
    drawn: list[tuple[list[tuple[float, float]], int]],
) -> None:
    positions = [
        Position(tuple(seats), tuple(float(s == winner % len(seats)) for s in range(len(seats))))
        for seats, winner in drawn
    ]
    ridge = 0.01  # seats alike in every position still give a solvable system
    fitted = fit(positions, ridge=ridge, steps=60)

    def penalised(weights: tuple[float, ...] | list[float]) -> float:
        return mean_log_loss(positions, weights) + ridge / 2 * sum(w * w for w in weights)

    best = penalised(fitted)
    for other in ((0.0, 0.0), (1.0, 0.0), (0.0, -1.0), tuple(w + 0.05 for w in fitted),
                  tuple(w - 0.05 for w in fitted)):
        assert best <= penalised(other) + 1e-9


def test_equal_standings_give_equal_shares_and_a_loss_of_log_n() -> None:
    positions = [Position(((1.0,), (1.0,), (1.0,)), (0.0, 1.0, 0.0))]
    assert mean_log_loss(positions, (0.7,)) == pytest.approx(math.log(3))


@pytest.mark.parametrize(
    "positions",
    [
        [],
        [Position(((1.0,), (2.0, 3.0)), (1.0, 0.0))],
        [Position(((1.0,), (2.0,)), (1.0,))],
        [Position(((1.0, 0.0), (1.0, 0.0)), (1.0, 0.0))],
    ],
    ids=["none", "ragged features", "shares missing", "seats alike"],
)
def test_positions_that_cannot_be_fitted_are_refused(positions: list[Position]) -> None:
    with pytest.raises(FitError):
        fit(positions, ridge=0.0)
