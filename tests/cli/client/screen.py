"""The client's screen drawn as text, at a chosen size, without a terminal: the layout is
written to a prompt_toolkit ``Screen`` exactly as the renderer does before it paints."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.application.current import set_app
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.layout.mouse_handlers import MouseHandlers
from prompt_toolkit.layout.screen import Screen, WritePosition
from prompt_toolkit.output import DummyOutput
from prompt_toolkit.utils import get_cwidth

from condottiere.cli.client.layout import build_layout
from condottiere.cli.client.model import TableModel


def draw(application: Application[Any], width: int = 80, height: int = 24) -> list[str]:
    """The lines ``application``'s layout draws at ``width`` x ``height``."""
    screen = Screen()
    with set_app(application):
        application.layout.container.write_to_screen(
            screen, MouseHandlers(), WritePosition(0, 0, width, height), parent_style="",
            erase_bg=False, z_index=None,
        )
        screen.draw_all_floats()
    lines = []
    for y in range(height):
        row = screen.data_buffer[y]
        lines.append("".join(row[x].char for x in range(width)).rstrip())
    return lines


@contextmanager
def screen_app(model: TableModel, line: Buffer | None = None) -> Iterator[Application[Any]]:
    """An application showing ``model`` over pipe input and dummy output (nothing runs)."""
    with create_pipe_input() as pipe:
        yield Application(
            layout=build_layout(model, line or Buffer()), input=pipe, output=DummyOutput()
        )


def screen_of(model: TableModel, width: int = 80, height: int = 24) -> list[str]:
    """The whole screen showing ``model`` (drawn in an event loop, as the command line's
    buffer needs one)."""

    async def drawn() -> list[str]:
        with screen_app(model) as application:
            return draw(application, width, height)

    return asyncio.run(drawn())


def cells(text: str) -> int:
    return get_cwidth(text)
