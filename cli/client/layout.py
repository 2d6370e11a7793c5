"""Where each part of the screen goes (prompt_toolkit containers), at any terminal size.

::

    banner: what happens now, since when; a progress bar during a shuffle or a deal
    ─────────────────────────────────────────────────────────────
    the game's board                   │ every seat's row
    (before the game begins: the table, everyone at it and how to join, and no hand)
    ─────────────────────────────────────────────────────────────
    your hand (none for a spectator)
    ─────────────────────────────────────────────────────────────
    the log (or why a row is worth what, or the end of the game)
    > the command line
    the keys that matter now, what the choice on the line would do, or the answer to the
    last line typed

The board is as wide and as high as the game's screen asks
(:attr:`~condottiere.interface.screen.GameScreen.board_size`). Everything fits 80x24; a larger
terminal gives the log and the rows more room. The help page covers the whole screen while it
is open.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable

from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition, has_completions
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
    banner_lines,
    board_lines,
    hand_lines,
    help_lines,
    lobby_lines,
    log_lines,
    placeholder,
    rows_lines,
    status_line,
)
from condottiere.interface.screen import Line, crop

__all__ = ["LOBBY_HEIGHT", "MENU_HEIGHT", "Panel", "build_layout"]

MENU_HEIGHT = 8
"""The most moves Tab's menu shows at once (it scrolls), over the end of the log."""

LOBBY_HEIGHT = 12
"""The middle of the screen before the game begins (where the hand is not shown either):
room for the lobby's two lines of title, its header, six players, the free seats and the
two ways to join."""


class Panel(UIControl):
    """A part of the screen drawn by a function of its width and height (see
    :mod:`condottiere.cli.client.views`), cut to that size."""

    def __init__(self, draw: Callable[[int, int], list[Line]]) -> None:
        self.draw = draw

    def create_content(self, width: int, height: int) -> UIContent:
        try:
            lines = [crop(line, width) for line in self.draw(width, height)[:height]]
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


def _board_size(model: TableModel) -> tuple[int, int]:
    screen = model.screen()
    return (0, LOBBY_HEIGHT) if screen is None or model.scene() is None else screen.board_size


def build_layout(model: TableModel, line: Buffer) -> Layout:
    """The whole screen for ``model``, with ``line`` as the command line (focused)."""
    empty = Condition(lambda: not line.text)
    begun = Condition(lambda: model.scene() is not None)
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
            HSplit(
                [
                    ConditionalContainer(
                        VSplit(
                            [
                                Window(
                                    Panel(lambda w, h: board_lines(model, w, h)),
                                    width=lambda: _board_size(model)[0],
                                ),
                                Window(width=1, char="│", style="class:rule"),
                                Window(Panel(lambda w, h: rows_lines(model, w, h))),
                            ]
                        ),
                        filter=begun,
                    ),
                    ConditionalContainer(
                        Window(Panel(lambda w, h: lobby_lines(model, w, h))), filter=~begun
                    ),
                ],
                height=lambda: _board_size(model)[1],
            ),
            _rule(),
            ConditionalContainer(
                HSplit([Window(Panel(lambda w, h: hand_lines(model, w, h)), height=2), _rule()]),
                filter=begun & ~Condition(lambda: model.watching),
            ),
            Window(Panel(lambda w, h: log_lines(model, w, h)), height=Dimension(min=3)),
            command_line,
            Window(Panel(lambda w, h: [status_line(model, w)]), height=1),
        ]
    )
    help_page = ConditionalContainer(
        Window(Panel(lambda w, h: help_lines(model, w, h)), style="class:help"),
        filter=Condition(lambda: model.help),
    )
    # the whole width of the log's last lines, just above the command line, erased first: a
    # menu at the cursor would leave the log's letters showing on either side of it
    menu = ConditionalContainer(
        VSplit([CompletionsMenu(max_height=MENU_HEIGHT), Window()]), filter=has_completions
    )
    root = FloatContainer(
        content=body,
        floats=[
            Float(left=0, right=0, bottom=2, content=menu),
            Float(content=help_page, top=0, bottom=0, left=0, right=0),
        ],
    )
    return Layout(root, focused_element=command_line)
