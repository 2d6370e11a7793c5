"""``condottiere replay FILE`` on the full-screen board: a checked record shown as it was
after each move, stepped forward and back.

The record is verified first (:func:`condottiere.peer.record.verify`); its audit names every
card, so the game is rebuilt by the game's omniscient rules move by move
(:func:`~condottiere.peer.record.replay_states`) and each position is shown as a seat's
client showed it, with that seat's hand (Tab shows another seat's), and the table's log as
it stood then (in the table's order). Nothing here plays: it draws
:class:`~condottiere.cli.client.model.TableModel` snapshots made from the record, with the
layout of :mod:`condottiere.cli.client.layout`.

==============  ==============================================================
→ Space n       the next move
← Backspace p   the move before
Home End        the start, the end
Tab             another seat's hand
↑ ↓             why a seat's row is worth what it is; Esc closes it
PgUp PgDn       scroll the log
q Esc Ctrl-C    leave
==============  ==============================================================
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.output import ColorDepth, Output

from condottiere.cli.client.layout import build_layout
from condottiere.cli.client.model import Banner, TableModel, Tone
from condottiere.cli.client.style import make_style
from condottiere.interface import GameState
from condottiere.interface.screen import Seats
from condottiere.peer.controller import Player, Snapshot, Waiting, fingerprint
from condottiere.peer.record import Verdict, replay_states

__all__ = ["REPLAY_KEYS", "Replay", "ReplayModel", "replay_application"]

REPLAY_KEYS = "→ next move · ← back · Home End · Tab another hand · ↑↓ why · q leave"


class Replay:
    """The positions of a checked record, one a move, each as a seat's snapshot."""

    def __init__(self, verdict: Verdict, record: Path) -> None:
        """ValueError when the record's game has no audit (no hand can be shown)."""
        table = verdict.table
        if table.cards is None or table.game is None:
            raise ValueError("the record has no audit: its hands cannot be shown")
        self.verdict = verdict
        self.record = record
        self.states: list[GameState[Any]] = replay_states(table)
        self.events = tuple(table.events)
        moves = [index for index, event in enumerate(self.events) if event.kind == "move"]
        self.shown = [*moves[: len(self.states) - 1], len(self.events)]
        """How many of the table's events each position shows: those before the next move."""
        self.players = tuple(
            Player(seat, table.lobby.names.get(author, "?"), fingerprint(author), "")
            for seat, author in enumerate(table.seating)
        )

    def __len__(self) -> int:
        return len(self.states)

    def snapshot(self, position: int, viewer: int) -> Snapshot:
        """Position ``position`` (after that many moves) as seat ``viewer``'s client shows
        it."""
        state, table, last = self.states[position], self.verdict.table, position == len(self) - 1
        spec = table.spec
        to_act = state.to_act
        waiting = None if to_act is None else Waiting(None, (to_act,), "", time.monotonic())
        over = last and state.outcome is not None
        return Snapshot(
            table_name=spec.name,
            game=spec.game,
            edition=spec.edition,
            seats=spec.seats,
            seat=viewer,
            players=self.players,
            stage="over" if over else "playing",
            view=state.view(viewer),
            waiting=waiting,
            progress=None,
            halt=table.halt if last else None,
            refusals=(),
            outcome=state.outcome if last else None,
            audited=over,
            record_hash=table.record_hash() if last else "",
            step=position,
            options=spec.options,
        )


class ReplayModel(TableModel):
    """The client's model over a replay: the position shown and whose hand."""

    def __init__(self, replay: Replay) -> None:
        super().__init__()
        self.replay = replay
        self.position = 0
        self.viewer = 0
        self.hint = REPLAY_KEYS
        self.record = str(replay.record)
        self.show()

    def show(self) -> None:
        """Feed the model the position and the seat chosen."""
        replay = self.replay
        state = replay.states[self.position]
        self.update(replay.snapshot(self.position, self.viewer), state,
                    replay.events[: replay.shown[self.position]], {})
        self.scroll = 0

    def step(self, moves: int) -> None:
        """Go ``moves`` moves on (back when negative), within the game."""
        self.position = max(0, min(len(self.replay) - 1, self.position + moves))
        self.show()

    def next_seat(self) -> None:
        """Show the next seat's hand."""
        self.viewer = (self.viewer + 1) % len(self.replay.players)
        self.show()

    def banner(self) -> Banner:
        snapshot, scene, screen = self.snapshot, self.scene(), self.screen()
        assert snapshot is not None and scene is not None and screen is not None
        state = self.replay.states[self.position]
        where = f"Replay {self.position}/{len(self.replay) - 1}"
        if self.position == len(self.replay) - 1 and snapshot.outcome is not None:
            told = super().banner().headline
        elif state.to_act is not None:
            told = screen.headline(scene, state.to_act)
        else:
            told = "the game is over" if state.outcome is not None else "chance decides"
        shown = self.seat(self.viewer)
        name = shown.name if shown is not None else f"seat {self.viewer}"
        detail = f"{name}'s hand (Tab: another's) · {screen.status(scene)}"
        return Banner(f"{where}: {told}", detail, Tone.OVER if snapshot.outcome else Tone.WAIT)

    def _seated(self) -> Seats:
        """Every seat by its player's name: a replay has no "you"."""
        return Seats(tuple(replace(shown, you=False) for shown in super()._seated()))


def replay_application(
    model: ReplayModel,
    *,
    palette: str = "classic",
    color: bool = True,
    input: Input | None = None,
    output: Output | None = None,
) -> Application[None]:
    """The full-screen replay of ``model``."""
    keys = KeyBindings()

    @keys.add("right")
    @keys.add("space")
    @keys.add("n")
    def _next(event: KeyPressEvent) -> None:
        model.why = None
        model.step(+1)

    @keys.add("left")
    @keys.add("backspace")
    @keys.add("p")
    def _back(event: KeyPressEvent) -> None:
        model.why = None
        model.step(-1)

    @keys.add("home")
    def _start(event: KeyPressEvent) -> None:
        model.step(-len(model.replay))

    @keys.add("end")
    def _end(event: KeyPressEvent) -> None:
        model.step(len(model.replay))

    @keys.add("tab")
    def _seat(event: KeyPressEvent) -> None:
        model.next_seat()

    @keys.add("down")
    def _why_next(event: KeyPressEvent) -> None:
        seats = len(model.replay.players)
        model.why = 0 if model.why is None else (model.why + 1) % seats

    @keys.add("up")
    def _why_previous(event: KeyPressEvent) -> None:
        seats = len(model.replay.players)
        model.why = seats - 1 if model.why is None else (model.why - 1) % seats

    @keys.add("pageup")
    def _page_up(event: KeyPressEvent) -> None:
        model.scroll += 5

    @keys.add("pagedown")
    def _page_down(event: KeyPressEvent) -> None:
        model.scroll = max(0, model.scroll - 5)

    @keys.add("escape", eager=True)
    def _close(event: KeyPressEvent) -> None:
        if model.why is not None:
            model.why = None
        else:
            event.app.exit()

    @keys.add("q")
    @keys.add("c-c")
    def _leave(event: KeyPressEvent) -> None:
        event.app.exit()

    @keys.add("<any>")
    def _nothing(event: KeyPressEvent) -> None:
        """Nothing is typed in a replay."""

    application: Application[None] = Application(
        layout=build_layout(model, Buffer(read_only=True)),
        key_bindings=keys,
        style=make_style(palette),
        color_depth=None if color else ColorDepth.DEPTH_1_BIT,
        full_screen=True,
        input=input,
        output=output,
    )
    application.ttimeoutlen = 0.05
    return application
