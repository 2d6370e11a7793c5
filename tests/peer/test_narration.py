"""One narration: a game played at a table of in-process peers is told in the same words by
every peer, by ``verify``/``replay`` folding its record, and by the game's own rules replaying
it offline with every hand known; and a move the rules refuse is refused with the reason the
game interface gives, without a copy of the game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from condottiere.interface import IllegalMoveError, ToldKind
from condottiere.peer.driver import Table
from condottiere.peer.record import export, load, omniscient_record, verify
from condottiere.peer.steps.moves import MOVE
from tests.peer.captains import CaptainsHarness, shown_steps
from tests.peer.cheats import entries_of
from tests.peer.tables import Harness

GAME_KINDS = frozenset(kind.value for kind in ToldKind if kind is not ToldKind.DETAIL)
"""The kinds of a table's events that are the game's own sentences (the figures behind a
result, ``detail``, are left to the screens)."""


def told_by_the_game(table: Table) -> list[str]:
    return [event.text for event in table.events if event.kind in GAME_KINDS]


def told_offline(table: Table) -> list[str]:
    """The game's record with every hand known, replayed offline by the game's rules and told
    with the table's names."""
    game: Any = table.rules.replay(omniscient_record(table))
    names = [table.who(author) for author in table.seating]
    return [
        sentence.told(names).text
        for sentence in game.narration()
        if sentence.kind is not ToldKind.DETAIL
    ]


@pytest.mark.parametrize("game", ["condottiere", "captains"])
def test_a_game_is_told_alike_at_every_peer_in_replay_and_offline(
    game: str, tmp_path: Path
) -> None:
    harness = (
        Harness("zman", 3, seed=3) if game == "condottiere" else CaptainsHarness(3, seed=3)
    )
    harness.play()
    first = harness.tables[0]
    assert first.over and first.game is not None and first.game.outcome is not None
    told = told_by_the_game(first)
    assert told and any(" wins " in line or " is defeated" in line for line in told)
    for table in harness.tables[1:]:
        assert told_by_the_game(table) == told
    verdict = verify(load(export(entries_of(first), tmp_path / "game.cdr")))
    assert verdict.fair, verdict.lines()
    assert told_by_the_game(verdict.table) == told  # what `replay` prints of the game
    assert told_offline(first) == told
    if game == "captains" and shown_steps(first):
        assert any("(seen by " in line for line in told)


def test_a_refused_move_is_refused_with_the_interfaces_reason_and_no_copy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    harness = Harness("zman", 3, seed=5)
    harness.deliver()
    table = next(
        t
        for t in harness.tables
        if t.step is not None and t.step.kind == MOVE and t.step.missing == (t.me,)
    )
    game = table.game
    assert game is not None and game.to_act == table.seat
    move = game.parse_move("pass")  # the battle marker's holder must choose a battle
    reason = game.why_illegal(move)
    assert reason is not None and "battle" in reason
    with pytest.raises(IllegalMoveError) as refused:
        game.play(move)
    assert str(refused.value) == reason
    assert game.why_illegal(game.legal_moves()[0]) is None

    def no_copy(self: object) -> None:
        raise AssertionError("the game was copied to refuse a move")

    monkeypatch.setattr(type(game), "copy", no_copy)
    held = len(table.logs)
    assert table.submit("pass") == reason
    assert table.submit("battle Atlantis") == str(_invalid(game, "battle Atlantis"))
    assert len(table.logs) == held  # nothing was published


def _invalid(game: Any, text: str) -> Exception:
    try:
        game.parse_move(text)
    except ValueError as exc:
        return exc
    raise AssertionError(f"{text!r} parses")
