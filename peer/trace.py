"""A peer's progress as timestamped JSON lines, for benchmarks (``--trace PATH``): when it
started, each step the table waited for, when the hands were dealt and the game audited, each
move submitted and applied, each forced move it published, the entries received, taken in and
published, the CPU each piece of costly crypto work used (a shuffle made or verified, shares made
or checked), and the CPU used when it stopped."""

from __future__ import annotations

import json
import time
from pathlib import Path

__all__ = ["Trace"]


class Trace:
    """Timestamped progress lines (JSON), appended to a file. Off unless a path is given."""

    def __init__(self, path: Path | None) -> None:
        self._file = None if path is None else path.open("a", encoding="utf-8")

    @property
    def on(self) -> bool:
        return self._file is not None

    def write(self, what: str, **fields: object) -> None:
        if self._file is not None:
            self._file.write(json.dumps({"t": time.time(), "what": what, **fields}) + "\n")
            self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
