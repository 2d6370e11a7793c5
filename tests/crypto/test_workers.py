"""The shared worker pool survives a fork (a peer may fork after its first verification)."""

from __future__ import annotations

import os
import signal

import pytest

from condottiere.crypto.workers import pool


def _square(x: int) -> int:
    return x * x


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_forked_child_gets_a_working_pool_of_its_own() -> None:
    assert list(pool().map(_square, range(4))) == [0, 1, 4, 9]
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child
        signal.alarm(10)
        ok = list(pool().map(_square, range(4))) == [0, 1, 4, 9]
        os._exit(0 if ok else 1)
    _, status = os.waitpid(child, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
