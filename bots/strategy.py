"""The small contract a bot author writes against.

A bot is any object with a ``choose(game, seat)`` method that returns one of
``game.legal_moves()`` for the seat that must act. The engine answers every question about the
rules (what may be played, what a row is worth, who controls what); a strategy only picks.

>>> from condottiere.games.condottiere import Game
>>> class FirstMoveBot:
...     name = "first"
...     def choose(self, game: Game, seat: int) -> Move:
...         return moves_for(game, seat)[0]
>>> game = Game.new("zman-duel", players=2, seed=3)
>>> finished = play_out(game, [FirstMoveBot(), FirstMoveBot()])
>>> finished.phase
'over'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from condottiere.games.condottiere import Game, Move

__all__ = ["NotYourTurnError", "Strategy", "battle_ended", "moves_for", "play_out"]


class NotYourTurnError(ValueError):
    """A strategy was asked to choose for a seat that is not the one to act."""


class Strategy(Protocol):
    """Picks a move for one seat; must return a member of ``game.legal_moves()``.

    ``game`` is either the open table (offline: ``Game.new``, ``Game.setup``) or the seat's own
    engine, which knows only that seat's hand (a network peer: ``Game.observe``); a strategy
    that reads only public state and ``game.hand(seat)`` plays the same on both. ``name`` is a
    short word shown next to the seat (``"random"``, ``"greedy"``). A strategy may keep state
    between calls (its random generator, what it has seen), but must never change ``game``:
    to look ahead, it plays on ``game.copy()``.
    """

    name: str

    def choose(self, game: Game, seat: int) -> Move:
        """Return the move ``seat`` makes now, chosen from ``game.legal_moves()``."""
        ...


def moves_for(game: Game, seat: int) -> list[Move]:
    """The legal moves of ``seat``, refusing to answer when another seat (or nobody) must act.

    >>> from condottiere.games.condottiere import Game
    >>> game = Game.new("zman", players=3, seed=1)
    >>> len(moves_for(game, game.to_act)) > 0
    True
    >>> moves_for(game, (game.to_act + 1) % 3)
    Traceback (most recent call last):
    ...
    condottiere.bots.strategy.NotYourTurnError: seat ... is not to act (seat ... is)
    """
    if game.to_act != seat:
        raise NotYourTurnError(f"seat {seat} is not to act (seat {game.to_act} is)")
    return game.legal_moves()


def play_out(game: Game, bots: Sequence[Strategy], max_moves: int = 100_000) -> Game:
    """Let ``bots[seat]`` play for every seat until the game is over; return the same game.

    ``max_moves`` guards a driver loop against an engine that never ends a game: exceeding it
    raises RuntimeError rather than spinning forever.
    """
    if len(bots) != game.players:
        raise ValueError(f"{len(bots)} bots for {game.players} seats")
    for _ in range(max_moves):
        seat = game.to_act
        if seat is None:
            return game
        game.play(bots[seat].choose(game, seat))
    raise RuntimeError(f"game not over after {max_moves} moves")


def battle_ended(before: Game, after: Game) -> bool:
    """Whether a battle ended between ``before`` and ``after`` (say, a copy with one move played).

    >>> from condottiere.games.condottiere import Game
    >>> game = Game.setup("zman", players=2, hands=[["10"], ["3", "4"]], battle="Firenze")
    >>> after = game.copy()
    >>> after.play("play 10")
    >>> battle_ended(game, after)
    False
    >>> later = after.copy()
    >>> later.play("pass")   # seat 1 passes; seat 0 has no card left: the battle is decided
    >>> battle_ended(after, later), later.control
    (True, {'Firenze': 0})
    """
    return after.last_battle is not before.last_battle
