"""Tables for the client's tests: offline games (of Condottiere or Captains) seen as a seat's
controller would publish them (real engines, real snapshots, the real game screen found through the
registry), and tables of several in-process peers (:class:`tests.peer.tables.Harness`) when
the peer layer's own states matter."""

from __future__ import annotations

import time

from condottiere.cli.client.model import TableModel
from condottiere.games import captains
from condottiere.games.condottiere import GAME_NAME, Game
from condottiere.peer.controller import Player, Snapshot, Waiting, snapshot_of
from condottiere.peer.driver import Halt, TableEvent
from tests.peer.tables import Harness

NAMES = ("ada", "bob", "cyd", "dan", "eve", "fay")


def snapshot_of_game(
    game: Game | captains.Game,
    seat: int,
    *,
    names: tuple[str, ...] = NAMES,
    since: float | None = None,
    halt: Halt | None = None,
    step: int = 20,
) -> Snapshot:
    """What seat ``seat``'s controller would publish of ``game`` (an offline game that
    knows ``seat``'s hand): its view, and a table waiting for the seat to act."""
    to_act = game.to_act
    waiting = None
    if halt is None and to_act is not None:
        waiting = Waiting(
            "move", (to_act,), f"seat {to_act} to move",
            time.monotonic() if since is None else since,
        )
    over = game.phase == "over"
    return Snapshot(
        table_name="test",
        game=GAME_NAME if isinstance(game, Game) else captains.GAME_NAME,
        edition=game.edition.name if isinstance(game, Game) else "standard",
        seats=game.players,
        seat=seat,
        players=tuple(
            Player(s, names[s], f"{s:04d}-0000", f"127.0.0.1:{5000 + s}")
            for s in range(game.players)
        ),
        stage="halted" if halt else "over" if over else "playing",
        view=game.view(seat),
        waiting=waiting,
        progress=None,
        halt=halt,
        refusals=(),
        outcome=game.outcome,
        audited=over,
        record_hash="ab" * 32 if over else "",
        step=step,
    )


def model_of_game(
    game: Game | captains.Game,
    seat: int = 0,
    events: tuple[TableEvent, ...] = (),
    *,
    names: tuple[str, ...] = NAMES,
    halt: Halt | None = None,
) -> TableModel:
    """A model fed what seat ``seat`` would see of ``game``."""
    model = TableModel()
    model.update(snapshot_of_game(game, seat, names=names, halt=halt), game, events, {})
    return model


def model_of_table(harness: Harness, seat: int = 0) -> TableModel:
    """A model fed what seat ``seat``'s peer publishes of a harness's table now."""
    table = harness.tables[seat]
    model = TableModel()
    game = None if table.game is None else table.game.copy()
    model.update(snapshot_of(table, time.monotonic()), game, tuple(table.events), {})
    return model
