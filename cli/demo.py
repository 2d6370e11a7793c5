"""``condottiere demo``: an offline game between bots, narrated as plain text.

Everything shown is public: the moves, the strengths with their reasons, the board, the
markers, the hand sizes; never a card in a hand, except a hand discarded face up.

>>> import io
>>> out = io.StringIO()
>>> game = run_demo(DemoSettings("zman-duel", bots=("greedy", "random"), seed=4), out)
>>> game.phase, out.getvalue().splitlines()[0]
('over', 'Condottiere demo: Z-Man 2018, 2-player game [zman-duel], 2 players, seed 4')
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import TextIO

from condottiere.bots import make_bot
from condottiere.bots.strategy import Strategy, battle_ended
from condottiere.games.condottiere import BattleResult, Game, Move

__all__ = ["DemoSettings", "run_demo"]

SEASON_AND_BISHOP = frozenset({"winter", "spring", "bishop"})
"""Cards that change every row's strength, not only the player's."""


@dataclass(frozen=True)
class DemoSettings:
    """What :func:`run_demo` plays: the edition, one bot name per seat, the seed, the pacing."""

    edition: str
    bots: tuple[str, ...]
    seed: int
    delay: float = 0.0
    """Seconds to pause after each move."""
    max_battles: int | None = None
    """Stop after this many battles even if nobody has won."""


def run_demo(settings: DemoSettings, out: TextIO) -> Game:
    """Play the game ``settings`` describe, narrate it on ``out``, and return the final game.

    The bots' seeds come from the game's seed, so one seed replays one game exactly.
    """
    game = Game.new(settings.edition, players=len(settings.bots), seed=settings.seed)
    bot_seeds = random.Random(settings.seed)
    bots = [make_bot(name, bot_seeds.randrange(2**32)) for name in settings.bots]
    narrator = _Narrator(game, bots, out)
    narrator.opening(settings.seed)
    battles = 0
    while game.to_act is not None:
        seat = game.to_act
        move = bots[seat].choose(game, seat)
        before = game.copy()
        game.play(move)
        ended = battle_ended(before, game)
        narrator.move(before, seat, move, ended)
        if ended:
            battles += 1
            narrator.battle_result(before)
        narrator.changes(before, ended)
        if ended and settings.max_battles is not None and battles >= settings.max_battles:
            break
        if settings.delay:
            out.flush()
            time.sleep(settings.delay)
    narrator.closing(battles)
    return game


class _Narrator:
    """Turns each move, and what it changed, into lines of text."""

    def __init__(self, game: Game, bots: list[Strategy], out: TextIO) -> None:
        self._game = game
        self._bots = bots
        self._out = out
        self._seats = range(game.players)
        self._battle_number = 0
        self._battle_chosen = False
        """A battle was chosen (and announced) that has not begun yet."""

    def _say(self, text: str = "") -> None:
        print(text, file=self._out)

    def _who(self, seat: int) -> str:
        return f"seat {seat} ({self._bots[seat].name})"

    def _hand_sizes(self) -> str:
        return ", ".join(f"seat {seat} {self._game.hand_size(seat)}" for seat in self._seats)

    def opening(self, seed: int) -> None:
        edition = self._game.edition
        self._say(f"Condottiere demo: {edition.title} [{edition.name}], "
                  f"{self._game.players} players, seed {seed}")
        self._say("Seats: " + ", ".join(self._who(seat) for seat in self._seats))
        self._say("Cards in hand: " + self._hand_sizes())
        self._say(f"Battle marker: seat {self._game.battle_marker}")
        if self._game.phase == "battle":
            self._announce_battle()

    def _announce_battle(self) -> None:
        """The header of a battle that began without anyone choosing where."""
        game = self._game
        self._battle_number += 1
        self._say()
        if game.final_battle:
            tied = " and ".join(self._who(seat) for seat in self._seats if game.hand_size(seat))
            self._say(f"Final battle, no region left to fight for: {tied}")
        elif game.battle_region is not None:
            self._say(f"Battle {self._battle_number} in {game.battle_region}, "
                      "the only region left to fight for")
        else:
            first = self._who(game.battle_marker)
            self._say(f"Battle {self._battle_number}: {first} holds the marker and plays first")

    def _strengths(self, game: Game) -> str:
        return ", ".join(f"seat {seat} {game.strength(seat)}" for seat in self._seats)

    def move(self, before: Game, seat: int, move: Move, ended: bool) -> None:
        """The line for ``move``, played by ``seat`` on the table ``before`` shows."""
        game, who = self._game, self._who(seat)
        if move.verb == "battle":
            self._battle_number += 1
            self._say()
            self._say(f"Battle {self._battle_number} in {move.region}, chosen by {who}")
            self._battle_chosen = True
        elif move.verb == "cede":
            self._say(f"{who} cedes the battle marker to seat {game.battle_marker}")
        elif move.verb == "play":
            text = f"  {who} plays {move.card}"
            if move.target is not None:
                text += (
                    f", taking its {move.target} back"
                    if move.target_seat is None
                    else f", taking seat {move.target_seat}'s {move.target} into its hand"
                )
            if not ended and move.card in SEASON_AND_BISHOP:
                text += f"; strengths now {self._strengths(game)}"
            elif not ended:
                text += f"; strength {game.strength(seat)}"
            self._say(text)
            if game.favor != before.favor and game.phase != "favor":
                where = f"on {game.favor}" if game.favor else "off the board"
                self._say(f"  the Favor goes {where}, the only place it may go")
        elif move.verb == "pass":
            self._say(f"  {who} passes")
        elif move.verb == "favor":
            where = f"on {move.region}" if move.region else "off the board"
            self._say(f"  {who} places the Favor {where}")
        elif move.verb == "discard":
            self._say(f"  {who} discards a hand without mercenaries: "
                      f"{' '.join(before.hand(seat))}")
        elif move.verb == "keep":
            self._say(f"  {who} keeps a hand of {before.hand_size(seat)} cards")
        elif move.verb == "retain":
            kept = " ".join(move.cards) or "nothing"
            self._say(f"  {who}, last with cards at the round's end, keeps: {kept}")

    def battle_result(self, before: Game) -> None:
        """The strengths that decided the battle that just ended, and the result."""
        result = self._game.last_battle
        assert result is not None
        if result.ended_by == "bishop":
            self._say("  The Bishop ends the battle: no winner.")
            return
        self._say("  Strengths:")
        for seat in self._seats:
            reasons = "; ".join(str(step) for step in result.breakdown(seat))
            self._say(f"    {self._who(seat)}: {result.strengths[seat]}  ({reasons})")
        self._say("  " + self._winner_line(before, result))

    def _winner_line(self, before: Game, result: BattleResult) -> str:
        game, region, winner = self._game, result.region, result.winner
        if before.final_battle:
            names = " and ".join(self._who(seat) for seat in game.winners)
            return f"{names} {'win' if len(game.winners) > 1 else 'wins'} the final battle."
        if region is None:
            return "No winner." if winner is None else f"{self._who(winner)} wins the battle."
        if winner is not None and winner != before.control.get(region):
            return f"{self._who(winner)} wins and takes {region}."
        owner = game.control.get(region)
        if owner is not None:
            return f"{self._who(owner)} keeps {region}."
        return f"No winner: {region} stays empty."

    def changes(self, before: Game, ended: bool) -> None:
        """What else the move changed: board and markers after a battle, new battles, refills."""
        game = self._game
        if ended and game.phase != "over":
            self._say(f"  Battle marker: seat {game.battle_marker}; " + self._scores())
        drawn = sum(map(game.hand_size, self._seats)) > sum(map(before.hand_size, self._seats))
        if drawn and (ended or before.phase != "battle"):
            self._say("  Cards dealt; in hand now: " + self._hand_sizes())
        began = game.phase == "battle" and (ended or before.phase not in ("battle", "favor"))
        if began and self._battle_chosen:
            self._battle_chosen = False
        elif began:
            self._announce_battle()

    def _scores(self) -> str:
        game = self._game
        if not game.edition.board:
            return "battles won: " + ", ".join(
                f"seat {seat} {won}" for seat, won in enumerate(game.battles_won)
            )
        owned = [
            f"seat {seat} " + " ".join(sorted(r for r, owner in game.control.items()
                                              if owner == seat))
            for seat in self._seats
            if seat in game.control.values()
        ]
        board = "board: " + ("; ".join(owned) or "nobody controls a region")
        if game.edition.favor == "none":
            return board
        return board + (f"; Favor on {game.favor}" if game.favor else "; Favor off the board")

    def closing(self, battles: int) -> None:
        game = self._game
        self._say()
        if game.phase != "over":
            self._say(f"Stopped after {battles} battle{'s' if battles > 1 else ''}; "
                      "nobody has won yet.")
            return
        self._say(f"Game over after {battles} battle{'s' if battles > 1 else ''}; "
                  + self._scores() + ".")
        if game.winners:
            names = " and ".join(self._who(seat) for seat in game.winners)
            self._say(f"Winner{'s' if len(game.winners) > 1 else ''}: {names}")
        else:
            self._say("A draw.")

