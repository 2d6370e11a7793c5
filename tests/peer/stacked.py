"""A deck stacked for a test of in-process tables: the peers' shuffles put chosen cards where
the test wants them, so that a situation is built rather than waited for over random deals.

Each seat's shuffle draws its permutation from ``crypto.shuffle.random_permutation``: the
first shuffle of a deck of the stacked size applies the permutation that orders the deck's
cards as wanted, and every other shuffle keeps the order it is given. The shuffles are real
(fresh randomness, proofs checked by every peer): only their permutations are chosen.
Nothing here is shipped.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence

import pytest

import condottiere.crypto
from condottiere.games.condottiere import Game

SHUFFLE = importlib.import_module("condottiere.crypto.shuffle")
"""The module (``condottiere.crypto.shuffle`` the attribute is the function it exports)."""


class StackedShuffles:
    """Permutations for the shuffles of one game: the first for ``len(contents)`` cards turns
    ``contents`` (the dealer's card list, in its fixed order) into ``order``; the rest are
    the identity."""

    def __init__(self, contents: Sequence[str], order: Sequence[str]) -> None:
        unused = list(range(len(contents)))
        self.permutation = []
        for card in order:
            index = next(i for i in unused if contents[i] == card)
            unused.remove(index)
            self.permutation.append(index)
        self.permutation += unused
        self.stacked = False

    def __call__(self, n: int) -> list[int]:
        if not self.stacked and n == len(self.permutation):
            self.stacked = True
            return list(self.permutation)
        return list(range(n))


def stack_deck(
    monkeypatch: pytest.MonkeyPatch,
    contents: Sequence[str],
    hands: Sequence[Sequence[str]],
    size: int,
) -> StackedShuffles:
    """Make the next game's deck (whose cards are ``contents``, in the dealer's order) come
    out of its shuffles as ``hands``, each filled up to ``size`` cards with the first cards of
    ``contents`` left, then the rest in ``contents``' order: the first deals of ``size``
    cards hold ``hands``' cards."""
    left = list(contents)
    for hand in hands:
        for card in hand:
            left.remove(card)
    order: list[str] = []
    for hand in hands:
        fill = left[: size - len(hand)]
        del left[: size - len(hand)]
        order += [*hand, *fill]
    shuffles = StackedShuffles(contents, order + left)
    monkeypatch.setattr(SHUFFLE, "random_permutation", shuffles)
    return shuffles


def first_options(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every fair choice of the next game (the coins the peers flip together) give its
    first option: the first player is the first seat offered, and so on."""
    monkeypatch.setattr(condottiere.crypto, "outcome", lambda *_: 0)


def like_hands(monkeypatch: pytest.MonkeyPatch, seats: int) -> None:
    """Stack the next zman game so that every seat is dealt a like hand (the deck, grouped by
    card, dealt round the table: several copies of each card in every hand) and every fair
    choice gives its first option: nobody wins in the first round, so the deck is gathered
    and reshuffled (re-keyed after a leave)."""
    contents = Game.new("zman", seats, seed=0).decks[0]
    first_options(monkeypatch)
    stack_deck(monkeypatch, contents, [contents[seat::seats][:10] for seat in range(seats)], 10)
