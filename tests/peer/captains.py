"""Condottieri Captains at a table in one process: bots that bring the game to the steps a
test wants (a hand shown to one seat, a trade), and the checks of hand secrecy.

Nothing here is shipped."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

from condottiere.bots import make_bot
from condottiere.games.captains.cards import CAPTAINS, CARDS, DECK, Effect
from condottiere.games.captains.cities import HAND
from condottiere.games.captains.moves import Verb
from condottiere.games.captains.phase import Phase
from condottiere.peer.driver import Table
from condottiere.peer.steps.moves import MOVE
from tests.peer.stacked import first_options, stack_deck
from tests.peer.tables import Harness

LOOKS = frozenset(name for name, card in CARDS.items() if card.effect is Effect.LOOK)
"""The events that look at an opponent's hand (RULES.md 26)."""
SEARCH = frozenset(name for name, card in CARDS.items() if card.effect is Effect.SEARCH)


LOOK = "spies"
"""The event a stacked deck deals to the seat that is to look at a hand."""


def stack_captains(
    monkeypatch: pytest.MonkeyPatch,
    seats: int,
    events: Mapping[int, str] | None = None,
    *,
    coins: bool = True,
) -> None:
    """Stack the next Captains game: seat 0 plays first, every seat's opening hand holds a
    captain (so that none takes a mulligan) and ``events[seat]`` the event given to it.
    With ``coins`` False the coins the peers flip together are left real (any seat may play
    first): a verifier in another process, which flips no stacked coin, finds the record
    fair."""
    if coins:
        first_options(monkeypatch)
    hands = [[captain] for captain in sorted(CAPTAINS)[:seats]]
    for seat, event in (events or {}).items():
        hands[seat].insert(0, event)
    stack_deck(monkeypatch, DECK, hands, HAND)


class Looker:
    """A greedy bot that plays an event looking at an opponent's hand whenever it can, and
    (with ``searches`` False) never the event that searches the deck."""

    def __init__(self, seed: int, *, searches: bool = True) -> None:
        self.greedy = make_bot("greedy", seed=seed)
        self.searches = searches

    def choose(self, game: Any, seat: int) -> Any:
        moves = game.legal_moves()
        looks = [m for m in moves if m.verb is Verb.EVENT and m.card in LOOKS]
        if looks:
            return looks[0]
        move = self.greedy.choose(game, seat)
        if not self.searches and move.verb is Verb.EVENT and move.card in SEARCH:
            return next(m for m in moves if m.verb is Verb.DONE)
        return move


class CaptainsHarness(Harness):
    """Captains at ``seats`` in-process tables (with ``options``), every seat played by a
    :class:`Looker`; a test may script a seat's moves (``script``: called first; None lets
    the bot move)."""

    def __init__(
        self,
        seats: int,
        seed: int = 0,
        *,
        searches: bool = True,
        script: Callable[[Table, int], str | None] | None = None,
        kinds: dict[int, type[Table]] | None = None,
        options: Sequence[str] = (),
    ) -> None:
        # (not super(): a subclass may also be a CheatHarness, whose __init__ takes others)
        Harness.__init__(
            self, "standard", seats, options, seed=seed, game="captains", kinds=kinds
        )
        self.bots = [Looker(seed + seat, searches=searches) for seat in range(seats)]  # type: ignore[misc]
        self.script = script

    def play(
        self,
        max_rounds: int = 20_000,
        before_each: Callable[[], None] | None = None,
        until: Callable[[], bool] | None = None,
    ) -> None:
        for _ in range(max_rounds):
            self.deliver()
            if all(table.over for table in self.tables) or (until is not None and until()):
                return
            moved = False
            for seat, table in enumerate(self.tables):
                game, step = table.game, table.step
                if game is None or game.to_act != seat or step is None:
                    continue
                if step.kind != MOVE or step.missing != (table.me,):
                    continue
                move = None if self.script is None else self.script(table, seat)
                if move is None:
                    move = str(self.bots[seat].choose(game.copy(), seat))
                reason = table.submit(move)
                assert reason is None, (move, reason)
                moved = True
            if not moved and self.deliver() == 0:
                raise AssertionError(
                    f"stuck: {[(t.step and t.step.kind, t.waiting()) for t in self.tables]}"
                )
        raise AssertionError("the game did not end")


def shown_steps(table: Table) -> int:
    """How many hands this table saw shown to one seat."""
    if table.game is None:
        return 0
    return sum(1 for event in table.game.record()["events"] if event[0] == "show")


def in_phase(table: Table, phase: Phase) -> bool:
    game = table.game
    return game is not None and getattr(game, "phase", None) is phase


def dealt_to(table: Table) -> dict[tuple[int, Any], int]:
    """The seat each card (deck, slot) was dealt to, from the game's deals in order."""
    assert table.game is not None and table.dealer is not None
    deals = [event for event in table.game.record()["events"] if event[0] == "deal"]
    return {
        card: event[1]
        for event, cards in zip(deals, table.dealer.dealt, strict=True)
        for card in cards
    }
