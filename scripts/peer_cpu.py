"""Run one peer (``python scripts/peer_cpu.py OUTPUT -m condottiere.cli.main ...``) with the CPU of
every libsodium call it makes booked, and write where its CPU went to ``OUTPUT`` (JSON) as it
exits: the whole process, the main thread (the event loop, gRPC's Python side, the start-up
imports), the libsodium calls (on whichever thread, with their counts by function, the counting
proxy of ``floors.py`` timing each on its thread's CPU clock), and the rest (the table's thread
and the crypto threads' Python, the bots, gRPC's own threads).

Used by ``profile_game.py --cpu``; the booking costs about a microsecond a call, charged to the
peer.
"""

from __future__ import annotations

import atexit
import json
import runpy
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from floors import COUNTED, _CountingBindings

CALLS: Counter[str] = Counter()
CALL_CPU: Counter[str] = Counter()
MAIN_CALL_CPU = [0.0]
"""The CPU of the calls the main thread made (part of its own)."""
_LOCK = threading.Lock()
_MAIN = threading.main_thread()


class _TimedBindings(_CountingBindings):
    """Counts each call, as the floors' proxy does, and books its thread's CPU."""

    def __getattr__(self, name: str) -> Any:
        function: Callable[..., Any] = getattr(self._real, name)
        if not name.startswith("crypto_"):
            return function

        def timed(*args: Any) -> Any:
            started = time.thread_time()
            result = function(*args)
            spent = time.thread_time() - started
            with _LOCK:
                CALLS[name] += 1
                CALL_CPU[name] += spent
                if threading.current_thread() is _MAIN:
                    MAIN_CALL_CPU[0] += spent
            return result

        return timed


def _write(output: Path) -> None:
    with _LOCK:
        figures = {
            "process": time.process_time(),
            "main_thread": time.thread_time(),
            "main_call_cpu": MAIN_CALL_CPU[0],
            "calls": dict(CALLS),
            "call_cpu": dict(CALL_CPU),
        }
    output.write_text(json.dumps(figures))


def main() -> None:
    output, flag, module, *arguments = sys.argv[1:]
    if flag != "-m":
        sys.exit("usage: peer_cpu.py OUTPUT -m MODULE [ARGUMENTS]")
    for counted, attribute, real in COUNTED:
        vars(counted)[attribute] = _TimedBindings(real, Counter(), _LOCK)
    atexit.register(_write, Path(output))
    sys.argv = [module, *arguments]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
