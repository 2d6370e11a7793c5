"""Fitting a search's estimate to who wins: a conditional logit over the seats of a table.

A search cut short scores each seat by a weighted sum of facts about it (its *standing*) and
turns the standings into win shares by a softmax (:func:`shares`). Fitting the weights is
then a conditional logit: each observed position lists every seat's facts and the share of
the victory that seat went on to take, and the weights are the ones under which those
shares were most likely. The log-likelihood is concave, so Newton's method finds the best
weights in a handful of steps (:func:`fit`), in plain Python: a few features and a hundred
thousand positions take seconds.

>>> rows = [Position(((1.0,), (0.0,)), (1.0, 0.0)), Position(((1.0,), (0.0,)), (0.0, 1.0)),
...         Position(((1.0,), (0.0,)), (1.0, 0.0))]
>>> [round(weight, 3) for weight in fit(rows, ridge=0.0)]  # the leader wins 2 of 3: log 2
[0.693]
>>> round(mean_log_loss(rows, (math.log(2),)), 4)
0.6365
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

__all__ = ["FitError", "Position", "fit", "mean_log_loss", "shares", "weighed"]


class FitError(ValueError):
    """The positions cannot be fitted (none given, mismatched lengths, or features that do
    not tell the seats apart)."""


@dataclass(frozen=True, slots=True)
class Position:
    """One observed position: each seat's features, and the share of the victory each took
    (summing to 1)."""

    features: tuple[tuple[float, ...], ...]
    won: tuple[float, ...]


def shares(standings: Sequence[float]) -> list[float]:
    """The softmax of ``standings``: each seat's estimated share of the victory.

    >>> [round(share, 3) for share in shares([1.0, 0.0, -math.inf])]
    [0.731, 0.269, 0.0]
    """
    top = max(standings)
    weights = [math.exp(value - top) for value in standings]
    total = sum(weights)
    return [weight / total for weight in weights]


def weighed(weights: Sequence[float], features: Sequence[float]) -> float:
    """A seat's standing: its ``features`` weighed by ``weights``.

    >>> weighed((1.0, -0.5), (3, 2))
    2.0
    """
    return sum(w * x for w, x in zip(weights, features, strict=True))


def _standings(position: Position, weights: Sequence[float]) -> list[float]:
    return [weighed(weights, seat) for seat in position.features]


def _surprise(position: Position, estimated: Sequence[float]) -> float:
    """Minus the log-likelihood of who won ``position``, the shares ``estimated``."""
    return -sum(won * math.log(max(share, 1e-300))
                for won, share in zip(position.won, estimated, strict=True) if won)


def mean_log_loss(positions: Sequence[Position], weights: Sequence[float]) -> float:
    """The mean over ``positions`` of minus the log-likelihood of who won under ``weights``
    (log n for a guess of equal shares at every n-seat table; lower is better)."""
    if not positions:
        raise FitError("no positions")
    return sum(_surprise(p, shares(_standings(p, weights))) for p in positions) / len(positions)


def fit(
    positions: Sequence[Position],
    ridge: float = 1e-3,
    steps: int = 25,
    progress: Callable[[int, float], None] | None = None,
) -> list[float]:
    """The weights that make the observed victories most likely (less ``ridge`` times half
    the weights' squared norm, which keeps features that barely vary from running off), by
    Newton's method from zero until a step moves no weight by more than 1e-9, or ``steps``
    steps; ``progress``, when given, is told each step's number and mean log loss."""
    if not positions:
        raise FitError("no positions")
    width = len(positions[0].features[0])
    for position in positions:
        if len(position.features) != len(position.won) or any(
            len(seat) != width for seat in position.features
        ):
            raise FitError("every seat needs the same features, and one share of the victory")
    weights = [0.0] * width
    count = len(positions)
    for step in range(steps):
        gradient, hessian, loss = _derivatives(positions, weights, width)
        for j in range(width):
            gradient[j] = gradient[j] / count - ridge * weights[j]
            for k in range(width):
                hessian[j][k] = hessian[j][k] / count + (ridge if j == k else 0.0)
        if progress is not None:
            progress(step, loss / count)
        move = _solve(hessian, gradient)
        weights = [w + d for w, d in zip(weights, move, strict=True)]
        if max(abs(d) for d in move) < 1e-9:
            break
    return weights


def _derivatives(
    positions: Sequence[Position], weights: Sequence[float], width: int
) -> tuple[list[float], list[list[float]], float]:
    """The log-likelihood's gradient, its negated Hessian and the loss, summed over
    ``positions``."""
    gradient = [0.0] * width
    hessian = [[0.0] * width for _ in range(width)]
    loss = 0.0
    for position in positions:
        estimated = shares(_standings(position, weights))
        loss += _surprise(position, estimated)
        mean = [sum(share * seat[j] for share, seat in zip(estimated, position.features,
                                                           strict=True))
                for j in range(width)]
        for share, won, seat in zip(estimated, position.won, position.features, strict=True):
            centred = [x - m for x, m in zip(seat, mean, strict=True)]
            for j in range(width):
                gradient[j] += (won - share) * seat[j]
                row = hessian[j]
                scaled = share * centred[j]
                for k in range(width):
                    row[k] += scaled * centred[k]
    return gradient, hessian, loss


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``x`` with ``matrix @ x == vector``, by Gaussian elimination with partial pivoting."""
    size = len(vector)
    rows = [[*matrix[i], vector[i]] for i in range(size)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda r: abs(rows[r][column]))
        if abs(rows[pivot][column]) < 1e-12:
            raise FitError("the features do not tell the seats apart (a singular system)")
        rows[column], rows[pivot] = rows[pivot], rows[column]
        for r in range(size):
            if r != column:
                factor = rows[r][column] / rows[column][column]
                if factor:
                    rows[r] = [a - factor * b for a, b in zip(rows[r], rows[column], strict=True)]
    return [rows[i][size] / rows[i][i] for i in range(size)]
