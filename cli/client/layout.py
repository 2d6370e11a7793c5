"""Where each part of the screen goes (prompt_toolkit containers), at any terminal size.

::

    banner: what happens now, since when; a progress bar during a shuffle or a deal
    ─────────────────────────────────────────────────────────────
    the board (map, or battles won)    │ every seat's battle row
    ─────────────────────────────────────────────────────────────
    your hand; what the choice under the cursor would do
    ─────────────────────────────────────────────────────────────
    the log (or why a row is worth what, or the end of the game)
    > the command line
    the keys that matter now, or the answer to the last line typed

Everything fits 80x24; a larger terminal gives the log and the rows more room. The help page
covers the whole screen while it is open.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable

from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import (
    ConditionalContainer,
    Dimension,
    Float,
    FloatContainer,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.controls import BufferControl, UIContent, UIControl
from prompt_toolkit.layout.menus import CompletionsMenu
from prompt_toolkit.layout.processors import AfterInput, BeforeInput, ConditionalProcessor

from condottiere.cli.client.model import TableModel
from condottiere.cli.client.views import (
    MAP_WIDTH,
    Line,
    banner_lines,
    board_lines,
    hand_lines,
    help_lines,
    log_lines,
    placeholder,
    rows_lines,
    status_line,
)

__all__ = ["BOARD_HEIGHT", "Panel", "build_layout"]

BOARD_HEIGHT = 8
"""The map's seven lines and the line of regions per seat; also room for six rows."""


class Panel(UIControl):
    """A part of the screen drawn by a function of its width and height (see
    :mod:`condottiere.cli.client.views`)."""

    def __init__(self, draw: Callable[[int, int], list[Line]]) -> None:
        self.draw = draw

    def create_content(self, width: int, height: int) -> UIContent:
        try:
            lines = self.draw(width, height)
        except Exception as error:  # a fault of the client's own: the rest of the screen lives
            traceback.print_exc()
            lines = [[("class:alert", f" this part of the screen failed: {error!r}")]]

        def get_line(number: int) -> StyleAndTextTuples:
            fragments: StyleAndTextTuples = []
            if number < len(lines):
                fragments.extend(lines[number])
            return fragments

        return UIContent(get_line=get_line, line_count=max(1, len(lines)), show_cursor=False)

    def is_focusable(self) -> bool:
        return False


def _rule() -> Window:
    return Window(height=1, char="─", style="class:rule")


def build_layout(model: TableModel, line: Buffer) -> Layout:
    """The whole screen for ``model``, with ``line`` as the command line (focused)."""
    empty = Condition(lambda: not line.text)
    command_line = Window(
        BufferControl(
            buffer=line,
            input_processors=[
                BeforeInput("> ", style="class:prompt"),
                ConditionalProcessor(
                    AfterInput(lambda: placeholder(model), style="class:placeholder"), empty
                ),
            ],
        ),
        height=1,
    )
    body = HSplit(
        [
            Window(Panel(lambda w, h: banner_lines(model, w, h)), height=2),
            _rule(),
            VSplit(
                [
                    Window(Panel(lambda w, h: board_lines(model, w, h)), width=MAP_WIDTH),
                    Window(width=1, char="│", style="class:rule"),
                    Window(Panel(lambda w, h: rows_lines(model, w, h))),
                ],
                height=BOARD_HEIGHT,
            ),
            _rule(),
            Window(Panel(lambda w, h: hand_lines(model, w, h)), height=2),
            _rule(),
            Window(Panel(lambda w, h: log_lines(model, w, h)), height=Dimension(min=3)),
            command_line,
            Window(Panel(lambda w, h: [status_line(model, w)]), height=1),
        ]
    )
    help_page = ConditionalContainer(
        Window(Panel(lambda w, h: help_lines(model, w, h)), style="class:help"),
        filter=Condition(lambda: model.help),
    )
    root = FloatContainer(
        content=body,
        floats=[
            Float(xcursor=True, ycursor=True, content=CompletionsMenu(max_height=8)),
            Float(content=help_page, top=0, bottom=0, left=0, right=0),
        ],
    )
    return Layout(root, focused_element=command_line)
