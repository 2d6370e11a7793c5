"""The library's worker threads.

libsodium releases the GIL, so independent scalar multiplications run in
parallel on threads. One pool serves the whole library; it is made on first
use and forgotten in a forked child, whose copy of the pool has no threads.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor

__all__ = ["WORKERS", "pool"]

WORKERS = min(os.cpu_count() or 1, 8)
"""How many threads the pool has."""

_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None


def pool() -> ThreadPoolExecutor:
    """The process's pool of :data:`WORKERS` threads."""
    global _pool
    with _lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="crypto")
        return _pool


def _forget_pool() -> None:
    global _pool
    _pool = None


os.register_at_fork(after_in_child=_forget_pool)
