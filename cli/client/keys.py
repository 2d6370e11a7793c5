"""What each key does. The command line is always where typing goes; the keys below act
only when the line holds nothing the player typed (it is empty, or holds the choice the
keys put there), so typing a move is never taken for a shortcut.

==============  ==============================================================
1-9             choose what the game numbers (Condottiere: a card of the hand, in a battle;
                Captains: a card of the hand, else an attack, a block, a city state...)
← →             move along the choices (the game's legal moves, in its order)
Space           choose what the game gives Space (Condottiere: ``pass``; Captains: ``done``,
                ``pass``, ``no-block`` or ``pay``)
Enter           send the line (the choice the keys put there, or a move typed)
Tab             complete from the legal moves (a menu, with what each would do)
↑ ↓             explain a seat's row step by step; Esc closes it (in Tab's menu: move in it);
                in the lobby, while players ask for a seat at this player's table: pick one
                (``admit FINGERPRINT`` goes on the line, ← → turn it into ``refuse`` and back)
PgUp PgDn       scroll the log (or the help page)
Ctrl-T          start a chat line (``say ...``)
?               the help page: keys, the screen, the rules of the edition
q               leave, once the game is over
Esc             close what is open, clear the line
Ctrl-C          stop the client; the game is saved and taken up by running it again
==============  ==============================================================
"""

from __future__ import annotations

from typing import Protocol

from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from condottiere.cli.client.model import TableModel

__all__ = ["Actions", "build_key_bindings"]

PAGE = 5
"""Lines a PgUp or PgDn scrolls."""


class Actions(Protocol):
    """What keys may ask of the client beyond the model."""

    def stop(self) -> None:
        """Leave the full screen now; the game is saved."""

    def leave(self) -> None:
        """Leave once the game is over (after its record is written)."""


def build_key_bindings(model: TableModel, line: Buffer, actions: Actions) -> KeyBindings:
    """The client's keys over ``model``, with ``line`` as the command line."""
    keys = KeyBindings()
    help_open = Condition(lambda: model.help)
    typed = Condition(lambda: bool(line.text) and line.text not in model.choices().moves
                      and line.text not in model.answers())
    free = ~help_open & ~typed
    menu = Condition(lambda: line.complete_state is not None)
    empty = ~help_open & Condition(lambda: not line.text)
    choosing = Condition(lambda: bool(model.choices().moves))
    space_chooses = Condition(lambda: model.choices().space is not None)
    over = Condition(lambda: model.ending() is not None)
    asked = Condition(lambda: bool(model.asking()))
    answering = Condition(lambda: model.answering() is not None)

    def fill(text: str | None) -> None:
        model.message = None
        if text is None:
            return
        line.text = text
        line.cursor_position = len(text)

    @keys.add("c-c")
    @keys.add("<sigint>")
    def _stop(event: KeyPressEvent) -> None:
        actions.stop()

    @keys.add("left", filter=free & choosing)
    def _previous(event: KeyPressEvent) -> None:
        fill(model.step_choice(-1))

    @keys.add("right", filter=free & choosing)
    def _next(event: KeyPressEvent) -> None:
        fill(model.step_choice(+1))

    for digit in "123456789":

        @keys.add(digit, filter=free & choosing)
        def _choose(event: KeyPressEvent) -> None:
            fill(model.choose_numbered(int(event.key_sequence[0].key)))

    @keys.add("space", filter=free & space_chooses)
    def _space(event: KeyPressEvent) -> None:
        fill(model.choose_move(model.choices().space))

    @keys.add("space", filter=empty & ~space_chooses)
    def _nothing(event: KeyPressEvent) -> None:
        """A space or a number on an empty line starts nothing (no move starts so)."""

    for digit in "123456789":
        keys.add(digit, filter=empty & ~choosing)(_nothing)

    @keys.add("down", filter=free & ~menu & asked)
    def _next_asking(event: KeyPressEvent) -> None:
        fill(model.step_asking(+1))

    @keys.add("up", filter=free & ~menu & asked)
    def _previous_asking(event: KeyPressEvent) -> None:
        fill(model.step_asking(-1))

    @keys.add("left", filter=free & answering)
    @keys.add("right", filter=free & answering)
    def _other_answer(event: KeyPressEvent) -> None:
        fill(model.other_answer())

    @keys.add("down", filter=free & ~menu & ~asked)
    def _why_next(event: KeyPressEvent) -> None:
        seats = [shown.seat for shown in model.seats()]
        if not seats:
            return
        if model.why is None or model.why not in seats:
            you = model.snapshot.seat if model.snapshot is not None else None
            model.why = you if you in seats else seats[0]
        else:
            model.why = seats[(seats.index(model.why) + 1) % len(seats)]

    @keys.add("up", filter=free & ~menu & ~asked)
    def _why_previous(event: KeyPressEvent) -> None:
        seats = [shown.seat for shown in model.seats()]
        if not seats:
            return
        if model.why is None or model.why not in seats:
            model.why = seats[-1]
        else:
            model.why = seats[(seats.index(model.why) - 1) % len(seats)]

    @keys.add("escape", eager=True)
    def _close(event: KeyPressEvent) -> None:
        if model.help:
            model.help = False
            model.scroll = 0
        elif model.why is not None:
            model.why = None
        else:
            line.reset()
            model.line = ""
            model.message = None

    @keys.add("pageup")
    def _page_up(event: KeyPressEvent) -> None:
        model.scroll = model.scroll - PAGE if model.help else model.scroll + PAGE
        model.scroll = max(0, model.scroll)

    @keys.add("pagedown")
    def _page_down(event: KeyPressEvent) -> None:
        model.scroll = model.scroll + PAGE if model.help else model.scroll - PAGE
        model.scroll = max(0, model.scroll)

    @keys.add("up", filter=help_open)
    def _help_up(event: KeyPressEvent) -> None:
        model.scroll = max(0, model.scroll - 1)

    @keys.add("down", filter=help_open)
    def _help_down(event: KeyPressEvent) -> None:
        model.scroll += 1

    one_left = Condition(lambda: line.complete_state is not None
                         and len(line.complete_state.completions) == 1)

    @keys.add("tab", filter=~help_open & one_left)
    def _complete(event: KeyPressEvent) -> None:
        """Tab with one move left that fits what is typed: it goes on the line, the menu
        closes."""
        state = line.complete_state
        assert state is not None
        line.apply_completion(state.completions[0])

    @keys.add("c-t", filter=~help_open)
    def _chat(event: KeyPressEvent) -> None:
        fill("say ")

    @keys.add("?", filter=empty)
    def _help(event: KeyPressEvent) -> None:
        model.help = True
        model.scroll = 0

    @keys.add("<any>", filter=help_open)
    def _close_help(event: KeyPressEvent) -> None:
        model.help = False
        model.scroll = 0

    @keys.add("q", filter=empty & over)
    def _leave(event: KeyPressEvent) -> None:
        actions.leave()

    return keys
