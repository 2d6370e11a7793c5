"""The small contract a bot author writes against.

A bot is any object with a ``choose(game, seat)`` method that returns one of
``game.legal_moves()`` for the seat that must act. The engine answers every question about the
rules (what may be played, what a row is worth, who controls what); a strategy only picks.

>>> from engine import Game
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

from engine import Game, Move

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

    >>> from engine import Game
    >>> game = Game.new("zman", players=3, seed=1)
    >>> len(moves_for(game, game.to_act)) > 0
    True
    >>> moves_for(game, (game.to_act + 1) % 3)
    Traceback (most recent call last):
    ...
    bots.strategy.NotYourTurnError: seat ... is not to act (seat ... is)
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


def battle_ended(before: Game, after: Game, move: Move) -> bool:
    """Whether the battle running in ``before`` is over in ``after``, once ``move`` is played.

    For a bot that looks ahead (play a move on ``game.copy()``, then compare) and for anyone
    narrating a game. The engine goes straight on to the next battle when there is nothing to
    ask (the duel, a last region), so the end is read from the public state: the game leaves
    the battle phases; the contested region or the count of battles won changes; the passes
    start afresh; a card played leaves the table empty (only a battle's end clears a card
    that stays in a row); or the hands grow (no move inside a battle adds to them).

    >>> from engine import Game
    >>> game = Game.setup("zman", players=2, hands=[["10"], ["3", "4"]], first=0,
    ...                   battle="Firenze", seed=0)
    >>> after = game.copy()
    >>> after.play("play 10")
    >>> battle_ended(game, after, Move.parse("play 10"))
    False
    >>> later = after.copy()
    >>> later.play("pass")   # seat 1 passes; seat 0 has no card left: the battle is decided
    >>> battle_ended(after, later, Move.parse("pass")), later.control
    (True, {'Firenze': 0})
    """
    if before.phase not in BATTLE_PHASES:
        return False
    stays_on_table = before.edition.specials_stay_in_row or move.card not in LEAVE_THE_ROW
    return (
        after.phase not in BATTLE_PHASES
        or after.final_battle != before.final_battle
        or after.battle_region != before.battle_region
        or after.battles_won != before.battles_won
        or not before.passed <= after.passed
        or (move.verb == "play" and stays_on_table and _table_empty(after))
        or sum(map(after.hand_size, range(after.players)))
        > sum(map(before.hand_size, range(before.players)))
    )


BATTLE_PHASES = frozenset({"battle", "favor"})
LEAVE_THE_ROW = frozenset({"bishop", "scarecrow"})
"""Where specials do not stay in the row (ffg), these cards are discarded as they are played."""


def _table_empty(game: Game) -> bool:
    return not game.season_cards and not any(map(game.row, range(game.players)))
