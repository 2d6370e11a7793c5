"""A strong bot that does not peek: information-set Monte Carlo tree search (ISMCTS).

The bot sees what its seat sees and nothing more. Offline it rebuilds its seat's engine from the
table's record (:meth:`condottiere.games.condottiere.Game.follow`, which turns other seats'
dealt cards into counts); on the network it is handed that engine. Each iteration of the search then

1. **determinises**: samples an open table consistent with the seat's knowledge
   (:meth:`condottiere.games.condottiere.Game.determinise`: hidden hands and draw pile dealt
   from the unseen cards);
2. **selects** down one tree shared by every sample (single-observer ISMCTS): at each decision,
   of whichever seat, the moves legal in this sample compete by UCB1 on that seat's own
   rewards, counting a child's chances by how often it was *available*, not by the parent's
   visits; one untried legal move, chosen at random, is added to the tree;
3. **plays out** with a fast greedy-ish policy (:func:`playout_move`): pass when ahead, else the
   cheapest card that takes the lead, a hopeless chase abandoned; no copies, strengths
   computed from the rows directly;
4. **evaluates** at the end of the game (win shares), or, when a playout is cut after
   :data:`PLAYOUT_MOVES` moves, from the board and the hands (:func:`board_rewards`);
5. **backs up** each seat's reward through the nodes where that seat chose.

The move played is the root's most visited. The budget is a number of iterations (the
default, so a seed replays a game exactly) or seconds per move (:class:`Budget`).

>>> from condottiere.games.condottiere import Game
>>> game = Game.setup("zman", players=2, hands=[["10", "3", "turncoat"], ["5", "6"]], first=1,
...                   battle="Firenze", seed=0)
>>> game.play("play 5")
>>> move = IsmctsBot(seed=1, budget=Budget(iterations=200)).choose(game, 0)
>>> move in game.legal_moves(), str(move) != "pass"  # a pass would give Firenze away
(True, True)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from condottiere.bots.greedy import CARD_WORTH
from condottiere.bots.strategy import moves_for
from condottiere.games.condottiere import ADJACENT, Game, Move
from condottiere.games.condottiere import strength as rules_strength
from condottiere.games.condottiere.board import largest_group
from condottiere.games.condottiere.cards import FLAT_BONUS, MERCENARY_VALUE

__all__ = ["DEFAULT_BUDGET", "Budget", "IsmctsBot", "board_rewards", "playout_move", "rewards"]

EXPLORATION = 0.7
"""UCB1's exploration constant; rewards lie in [0, 1]."""
PLAYOUT_MOVES = 400
"""A playout longer than this is cut and evaluated where it stands."""
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


@dataclass(frozen=True)
class Budget:
    """How long the bot thinks per move: ``iterations`` (reproducible for a seed), or
    ``seconds`` of wall clock, or both (whichever runs out first)."""

    iterations: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("a budget needs iterations or seconds")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError("iterations must be 1 or more")
        if self.seconds is not None and not self.seconds > 0:
            raise ValueError("seconds must be more than 0")


DEFAULT_BUDGET = Budget(iterations=400)
"""The default: a fixed number of iterations, so a seed replays a game exactly."""


class _Node:
    """One decision in the shared tree: reached by ``move`` of ``seat``."""

    __slots__ = ("availability", "children", "move", "parent", "reward", "seat", "visits")

    def __init__(self, move: Move | None, seat: int, parent: _Node | None) -> None:
        self.move = move
        self.seat = seat
        self.parent = parent
        self.children: dict[Move, _Node] = {}
        self.visits = 0
        self.availability = 1
        self.reward = 0.0

    def select(self, legal: Sequence[Move]) -> _Node:
        """The legal child with the best UCB1 score, each legal child's availability counted."""
        best: _Node | None = None
        best_score = -math.inf
        for move in legal:
            child = self.children[move]
            child.availability += 1
            score = child.reward / child.visits + EXPLORATION * math.sqrt(
                math.log(child.availability) / child.visits
            )
            if score > best_score:
                best, best_score = child, score
        assert best is not None
        return best


class IsmctsBot:
    """Information-set MCTS from its own seat's view; see the module docstring."""

    name = "ismcts"

    def __init__(self, seed: int = 0, budget: Budget | None = None) -> None:
        self.budget = budget or DEFAULT_BUDGET
        self._rng = random.Random(seed)
        self._view: Game | None = None
        self._header: dict[str, object] = {}
        self._followed = 0
        self._last_event: list[object] = []
        self.last_iterations = 0
        """How many iterations the last search ran (0 when the move was forced)."""

    def choose(self, game: Game, seat: int) -> Move:
        """The move the search prefers for ``seat``, from what ``seat`` can see."""
        moves = moves_for(game, seat)
        self.last_iterations = 0
        if len(moves) == 1:
            return moves[0]
        view = self._seat_view(game, seat)
        root = _Node(None, seat, None)
        seconds = self.budget.seconds
        started = time.perf_counter()
        limit = self.budget.iterations
        iterations = 0
        while limit is None or iterations < limit:
            self._iterate(view, root)
            iterations += 1
            left = math.inf if limit is None else limit - iterations
            if seconds is not None:
                spent = time.perf_counter() - started
                if spent >= seconds:
                    break
                left = min(left, iterations * (seconds - spent) / spent)
            if _decided(root, left):
                break
        self.last_iterations = iterations
        best = max(root.children.values(), key=lambda child: (child.visits, child.reward))
        assert best.move is not None
        return best.move

    def _seat_view(self, game: Game, seat: int) -> Game:
        """``seat``'s own engine: ``game`` itself on the network, else rebuilt from its record."""
        if game.observer == seat:
            return game
        if game.observer is not None:
            raise ValueError(f"seat {seat} cannot play from {game.observer}'s engine")
        record = game.record()
        events = record.pop("events")
        view = self._view
        if (
            view is None
            or view.observer != seat
            or record != self._header
            or len(events) < self._followed
            or (self._followed and events[self._followed - 1] != self._last_event)
        ):
            view = Game.observe(record, seat)
            self._followed = 0
        view.follow(events[self._followed :])
        self._view, self._header, self._followed = view, record, len(events)
        self._last_event = events[-1] if events else []
        return view

    def _iterate(self, view: Game, root: _Node) -> None:
        sample = view.determinise(self._rng)
        node = root
        while sample.to_act is not None:
            seat = sample.to_act
            legal = sample.legal_moves()
            untried = [move for move in legal if move not in node.children]
            if untried:
                move = untried[0] if len(untried) == 1 else self._rng.choice(untried)
                child = _Node(move, seat, node)
                node.children[move] = child
                sample.play(move)
                node = child
                break
            node = node.select(legal)
            assert node.move is not None
            sample.play(node.move)
        values = _play_out(sample, self._rng)
        while node.parent is not None:
            node.visits += 1
            node.reward += values[node.seat]
            node = node.parent


def _decided(root: _Node, iterations_left: float) -> bool:
    """True when no other root move could overtake the most visited with the iterations left."""
    if len(root.children) < 2:
        return False
    first, second = sorted((child.visits for child in root.children.values()), reverse=True)[:2]
    return first - second > iterations_left


def _play_out(game: Game, rng: random.Random) -> list[float]:
    """Play ``game`` on with :func:`playout_move` until it ends (at most :data:`PLAYOUT_MOVES`
    moves), then evaluate it for every seat."""
    for _ in range(PLAYOUT_MOVES):
        seat = game.to_act
        if seat is None:
            break
        game.play(playout_move(game, seat, game.legal_moves(), rng))
    return rewards(game)


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
    rival = max(
        strength(row, season, highest) for other, row in enumerate(rows) if other != seat
    )
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
