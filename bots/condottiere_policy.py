"""Condottiere's playouts for the search (:mod:`condottiere.bots.ismcts`): a fast greedy-ish
move on an open table (:func:`playout_move`), and each seat's reward, at the end of a game or
where a playout is cut (:func:`rewards`, :func:`board_rewards`).

>>> from condottiere.games.condottiere import Game
>>> g = Game.setup("zman", players=2, hands=[["10", "2"], ["5"]], first=1, battle="Roma")
>>> g.play("play 5")
>>> str(playout_move(g, 0, g.legal_moves(), random.Random(0)))
'play 10'
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import lru_cache

from condottiere.bots.greedy import CARD_WORTH
from condottiere.games.condottiere import ADJACENT, Game, Move
from condottiere.games.condottiere import strength as rules_strength
from condottiere.games.condottiere.board import largest_group
from condottiere.games.condottiere.cards import FLAT_BONUS, MERCENARY_VALUE

__all__ = ["ITERATIONS", "PLAYOUT_MOVES", "board_rewards", "playout_move", "rewards"]

PLAYOUT_MOVES = 400
"""A playout longer than this is cut and evaluated where it stands."""
ITERATIONS = 400
"""The search's iterations a move when it is given no budget."""
BOARD_SHARPNESS = 3.0
"""How sharply :func:`board_rewards` favours the seat closest to victory."""
MARKER_BONUS = 0.1
"""Progress toward victory that holding the battle marker is worth (it picks the battle)."""
HAND_WORTH_WEIGHT = 0.004
"""Progress per point of :data:`condottiere.bots.greedy.CARD_WORTH` still in hand, when a playout
is cut."""
CHASE_SHARE = 0.5
"""The playout policy gives a battle up when closing the gap takes more than this share of what
its hand could add."""
EXPLORE_IN_PLAYOUT = 0.05
"""The share of playout moves chosen uniformly among the legal ones."""

strength = lru_cache(maxsize=1 << 16)(rules_strength.strength)
"""The engine's strength of a row, remembered: playouts meet the same rows again and again."""


@lru_cache(maxsize=1 << 14)
def highest_mercenary(rows: tuple[tuple[str, ...], ...]) -> int:
    """The engine's highest mercenary in play, remembered."""
    return rules_strength.highest_mercenary(rows)


def rewards(game: Game) -> list[float]:
    """Each seat's reward in [0, 1]: its win share when the game is over (a drawn duel is
    shared), else the estimate of :func:`board_rewards`, hands counted."""
    if game.phase == "over":
        winners = game.winners or tuple(range(game.players))
        return [1 / len(winners) if seat in winners else 0.0 for seat in range(game.players)]
    return board_rewards(game, count_hands=True)


def board_rewards(game: Game, *, count_hands: bool) -> list[float]:
    """An estimate of each seat's chance to win, from how far it is toward its victory.

    A seat's progress is the larger of its share of the connected group and of the total it
    needs (battles won in ``zman-duel``), plus a little for the battle marker (and, with
    ``count_hands``, for the cards in hand); the estimate is a softmax of the progresses. On an
    open table (the playouts), hands are read; a seat-view engine reads only hand sizes.

    >>> from condottiere.games.condottiere import Game
    >>> g = Game.setup("zman", players=3, control={"Roma": 0, "Napoli": 0, "Torino": 1})
    >>> [round(r, 2) for r in board_rewards(g, count_hands=False)]
    [0.73, 0.2, 0.07]
    """
    players = game.players
    victory = game.edition.victory(players)
    owned: list[list[str]] = [[] for _ in range(players)]
    for region, owner in game.control.items():
        owned[owner].append(region)
    progress = []
    for seat in range(players):
        if game.edition.board:
            toward = largest_group(owned[seat]) / victory.connected
            if victory.total is not None:
                toward = max(toward, len(owned[seat]) / victory.total)
        else:
            toward = game.battles_won[seat] / victory.connected
        if seat == game.battle_marker:
            toward += MARKER_BONUS
        if count_hands:
            toward += HAND_WORTH_WEIGHT * _hand_worth(game, seat)
        progress.append(toward)
    weights = [math.exp(BOARD_SHARPNESS * p) for p in progress]
    total = sum(weights)
    return [weight / total for weight in weights]


def _hand_worth(game: Game, seat: int) -> float:
    if game.hidden_count(seat):
        return 5.0 * game.hand_size(seat)
    return float(sum(CARD_WORTH[card] for card in game.known_cards(seat)))


# ---------------------------------------------------------------------------- playout policy


def playout_move(game: Game, seat: int, legal: Sequence[Move], rng: random.Random) -> Move:
    """A quick greedy-ish move for ``seat`` on an open table: the playout policy.

    In a battle it reads the strengths the rows would have after each card (without copying
    the game): a card that ends the battle with a win is played; ahead, it passes; behind, it
    plays the cheapest card that takes the lead, or the one that gains most, and gives up when
    the gap exceeds half of what its hand could add. Elsewhere: the battle that grows its own
    group, a random Favor, always discard, retain the two best cards. A few moves are random.

    >>> from condottiere.games.condottiere import Game
    >>> g = Game.setup("zman", players=2, hands=[["10", "2"], ["5"]], first=1, battle="Roma")
    >>> g.play("play 5")
    >>> str(playout_move(g, 0, g.legal_moves(), random.Random(0)))
    'play 10'
    """
    if len(legal) == 1:
        return legal[0]
    if rng.random() < EXPLORE_IN_PLAYOUT:
        return rng.choice(legal)
    phase = game.phase
    if phase == "battle":
        return _battle_move(game, seat, legal)
    if phase == "battle-choice":
        return _opening_move(game, seat, legal, rng)
    if phase == "discard":
        return legal[0]  # "discard" comes first whenever it is allowed
    if phase == "retain":
        return max(legal, key=lambda move: sum(CARD_WORTH[card] for card in move.cards))
    return rng.choice(legal)


def _battle_move(game: Game, seat: int, legal: Sequence[Move]) -> Move:
    rows = tuple(game.row(other) for other in range(game.players))
    season = game.season
    highest = highest_mercenary(rows)
    rival = max(strength(row, season, highest) for other, row in enumerate(rows) if other != seat)
    own_row = rows[seat]
    margin_now = strength(own_row, season, highest) - rival
    passing = legal[-1]
    edition = game.edition
    best: Move | None = None
    best_key: tuple[float, float] = (-math.inf, -math.inf)
    for move in legal:
        card = move.card
        if card is None:
            continue
        if card == edition.ends_battle:
            if margin_now > 0:
                return move
            continue
        if card in _ROW_ONLY and season != "spring":
            # Only this seat's row changes, and without Spring no other strength moves.
            margin = strength((*own_row, card), season, highest) - rival
        elif (card == "bishop" and edition.bishop == "ends-battle") or (
            card == "scarecrow" and move.target_seat is None
        ):
            continue  # no gain in this battle: a classic Bishop, or taking back one's own card
        else:
            margin = _margin_after(rows, season, seat, move)
        cost = CARD_WORTH[card]
        key = (1.0, -cost) if margin > 0 else (0.0, margin - cost / 100)
        if key > best_key:
            best, best_key = move, key
    if margin_now > 0 or best is None:
        return passing
    if best_key[0] == 0.0 and (
        best_key[1] <= margin_now or -margin_now > CHASE_SHARE * _potential(game, seat)
    ):
        return passing
    return best


_ROW_ONLY = frozenset({*MERCENARY_VALUE, *FLAT_BONUS, "drummer"})
"""Cards that change only their player's row when played."""


def _margin_after(
    rows: tuple[tuple[str, ...], ...], season: str | None, seat: int, move: Move
) -> int:
    """``seat``'s margin over the best rival after ``move`` (a card that does not end the
    battle), computed from the rows alone; a season card played is the season in effect."""
    card = str(move.card)
    after = list(rows)
    if card in ("winter", "spring"):
        season = card
    elif card == "bishop":
        highest = highest_mercenary(rows)
        after = [tuple(c for c in row if MERCENARY_VALUE.get(c) != highest) for row in rows]
    elif card == "scarecrow":
        if move.target is not None:
            owner = seat if move.target_seat is None else move.target_seat
            row = list(after[owner])
            row.remove(move.target)
            after[owner] = tuple(row)
    else:
        after[seat] = (*rows[seat], card)
    highest = highest_mercenary(tuple(after))
    own = strength(after[seat], season, highest)
    return own - max(
        strength(row, season, highest) for other, row in enumerate(after) if other != seat
    )


def _potential(game: Game, seat: int) -> float:
    """A generous bound on the strength ``seat``'s hand can still add."""
    hand = game.hand(seat)
    if "winter" in hand or "bishop" in hand:
        return math.inf
    doubling = 2 if "drummer" in hand or "drummer" in game.row(seat) else 1
    mercenaries = sum(MERCENARY_VALUE.get(card, 0) for card in hand)
    return doubling * mercenaries + sum(FLAT_BONUS.get(card, 0) for card in hand)


def _opening_move(game: Game, seat: int, legal: Sequence[Move], rng: random.Random) -> Move:
    control = game.control
    best: list[Move] = []
    best_score = -math.inf
    for move in legal:
        region = move.region
        if region is None or control.get(region) == seat:
            continue
        score = sum(1 for place in ADJACENT[region] if control.get(place) == seat)
        if region in control:
            score += 1
        if score > best_score:
            best, best_score = [move], score
        elif score == best_score:
            best.append(move)
    return rng.choice(best) if best else rng.choice(legal)
