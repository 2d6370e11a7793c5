"""``condottiere demo``: an offline game between bots, narrated as plain text.

The game comes from the registry (:func:`~condottiere.interface.game_named`) and is told in its
own narration (:meth:`~condottiere.interface.GameState.narration`): each move on a line, what it
decided and changed indented below it, the figures behind a result indented further. The
demo adds the table in one line after each contest the game decides (a battle, a trick)
(:meth:`~condottiere.interface.GameRules.table_words`), the hand sizes whenever something besides
the move changed them (a deal), and at the end who won and how. Everything shown is public:
never a card in a hand, except a hand shown face up.

>>> import io
>>> out = io.StringIO()
>>> game = run_demo(DemoSettings("zman-duel", bots=("greedy", "random"), seed=4), out)
>>> game.outcome is not None
True
>>> lines = out.getvalue().splitlines()
>>> print(*lines[:6], "...", *lines[16:24], "...", sep="\\n")
Condottiere demo: Z-Man 2018, 2-player game [zman-duel], 2 players, seed 4
Seats: seat 0 (greedy), seat 1 (random)
Cards in hand: seat 0 (greedy) 8, seat 1 (random) 8
seat 0 (greedy) holds the battle marker; battles won: seat 0 (greedy) 0, seat 1 (random) 0
<BLANKLINE>
seat 0 (greedy) plays 1; strength 1
...
seat 1 (random) passes
  seat 0 (greedy) wins the battle with 8 (against seat 1 (random) 5)
    seat 0 (greedy): 8 (mercenaries 1 + 4: 5; spring adds 3 to each 4 (1): 8)
    seat 1 (random): 5 (mercenaries 2 + 3 + 6: 11; bishop discarded 6: 5)
  a new battle: seat 0 (greedy) holds the marker and plays first
  cards in hand now: seat 0 (greedy) 8, seat 1 (random) 8
  seat 0 (greedy) holds the battle marker; battles won: seat 0 (greedy) 1, seat 1 (random) 0
<BLANKLINE>
...
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TextIO, cast

from condottiere.bots import make_bot
from condottiere.interface import (
    DEFAULT_GAME,
    CardFlow,
    GameState,
    TableRules,
    ToldKind,
    game_named,
)

__all__ = ["DemoSettings", "run_demo"]

INDENT = {ToldKind.MOVE: "", ToldKind.RESULT: "  ", ToldKind.CHANGE: "  ", ToldKind.DETAIL: "    "}
"""How far each kind of sentence is indented: a move, then its consequences, then the
figures behind a result."""
CONSEQUENCE = INDENT[ToldKind.CHANGE]


@dataclass(frozen=True)
class DemoSettings:
    """What :func:`run_demo` plays: the game and its edition, one bot name per seat, the seed,
    the pacing."""

    edition: str
    bots: tuple[str, ...]
    seed: int
    game: str = DEFAULT_GAME
    delay: float = 0.0
    """Seconds to pause after each move."""
    max_contests: int | None = None
    """Stop after this many contests decided (the game's result sentences: a battle, a trick)
    even if nobody has won."""


def run_demo(settings: DemoSettings, out: TextIO) -> GameState[Any]:
    """Play the game ``settings`` describe, narrate it on ``out``, and return the final game.

    The bots' seeds come from the game's seed, so one seed replays one game exactly.
    """
    rules = game_named(settings.game)
    table = TableRules(settings.game, settings.edition, len(settings.bots))
    game = rules.offline(table, settings.seed)
    bot_seeds = random.Random(settings.seed)
    bots = [make_bot(name, bot_seeds.randrange(2**32)) for name in settings.bots]
    names = [f"seat {seat} ({bot.name})" for seat, bot in enumerate(bots)]

    def say(text: str = "") -> None:
        print(text, file=out)

    edition = rules.editions[settings.edition]
    say(
        f"{rules.title} demo: {edition.title} [{edition.name}], {game.players} players, "
        f"seed {settings.seed}"
    )
    say("Seats: " + ", ".join(names))
    say("Cards in hand: " + _hand_sizes(game, names))
    say(rules.table_words(game, names))
    say()
    contests = 0
    while (seat := game.to_act) is not None:
        # The bots are strategies for this game's own state type, which offline() makes.
        move = bots[seat].choose(cast(Any, game), seat)
        flow = game.card_flow(move)
        sizes = [game.hand_size(other) for other in range(game.players)]
        start = game.narration_length
        game.play(move)
        told = [sentence.told(names) for sentence in game.narration(start)]
        for sentence in told:
            say(INDENT[sentence.kind] + sentence.text)
        if _hands_changed_beyond(sizes, game, seat, flow):
            say(f"{CONSEQUENCE}cards in hand now: {_hand_sizes(game, names)}")
        results = sum(1 for sentence in told if sentence.kind is ToldKind.RESULT)
        if results:
            contests += results
            if game.outcome is None:
                say(CONSEQUENCE + rules.table_words(game, names))
            say()
            if settings.max_contests is not None and contests >= settings.max_contests:
                break
        if settings.delay:
            out.flush()
            time.sleep(settings.delay)
    played = f"{contests} contest{'' if contests == 1 else 's'}"
    outcome = game.outcome
    if outcome is None:
        say(f"Stopped after {played}; nobody has won yet.")
    else:
        say(f"Game over after {played}; {rules.table_words(game, names)}.")
        if outcome.winners:
            winners = " and ".join(names[seat] for seat in outcome.winners)
            plural = "s" if len(outcome.winners) > 1 else ""
            say(f"Winner{plural}: {winners} — {outcome.how}")
        else:
            say(f"A draw: {outcome.how}")
    return game


def _hand_sizes(game: GameState[Any], names: Sequence[str]) -> str:
    return ", ".join(f"{name} {game.hand_size(seat)}" for seat, name in enumerate(names))


def _hands_changed_beyond(
    sizes: Sequence[int], after: GameState[Any], seat: int, flow: CardFlow
) -> bool:
    """Whether some hand holds a number of cards (``sizes`` before ``seat``'s move, whose
    cards went as ``flow`` says) that the move alone does not explain: the game dealt (or
    gathered) cards after it."""
    expected = list(sizes)
    if flow.whole_hand:
        expected[seat] = 0
    elif flow.rest_returned:
        expected[seat] = len(flow.shown)
    else:
        expected[seat] -= len(flow.played)
    expected[seat] += len(flow.taken)
    return expected != [after.hand_size(other) for other in range(after.players)]
