"""Honest floors for the benchmarks: the raw libsodium calls a piece of work needs, counted, then
timed in the same run on every core of the machine.

A figure's floor is what the curve arithmetic alone costs: the work is run once under a
counting proxy that stands in for libsodium's bindings inside the modules that call it (the
group's ristretto255 functions, :mod:`condottiere.crypto.sodium`; the sealed boxes' X25519,
PyNaCl), and exactly that many raw calls, on representative arguments, are then timed, split
evenly over ``os.cpu_count()`` threads (libsodium releases the GIL, so they run in parallel),
or over one thread. Nothing but curve arithmetic is in a floor: no Python around it, no
hashing, no process start, no network, so a ratio to the floor is the price of everything else.

A floor is timed several times and its median taken (:func:`floor_seconds`'s ``repeat``): one
timing of a floor of a few milliseconds is mostly thread hand-off and the scheduler's whim.
:func:`floor_cpu_seconds` is the same work in CPU seconds on one thread, the figure to set
beside processes' CPU time on a loaded machine.

Used by ``bench_crypto.py`` and ``bench_net.py`` (run from the repository root, so that this
directory is on ``sys.path``).
"""

from __future__ import annotations

import os
import statistics
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from types import ModuleType
from typing import Any

from nacl import bindings

import condottiere.crypto.group
import condottiere.crypto.sealing
from condottiere.crypto import sodium

__all__ = ["COLUMNS", "CORES", "counting", "floor_cpu_seconds", "floor_seconds", "op_columns"]

CORES = os.cpu_count() or 1
"""The machine's cores: a floor spreads its calls over this many threads."""

_SCALAR = (0x1234567890ABCDEF * 2**190 + 12345).to_bytes(32, "little")
_P = sodium.crypto_scalarmult_ristretto255_base((7).to_bytes(32, "little"))
_Q = sodium.crypto_scalarmult_ristretto255_base((11).to_bytes(32, "little"))
_EDWARDS = bindings.crypto_scalarmult_ed25519_base_noclamp(_SCALAR)
_BOX_SECRET = bytes(range(32))
_BOX_KEY = bindings.crypto_scalarmult_base(_BOX_SECRET)
_PIECE = bytes(64)
RAW_ARGUMENTS: dict[str, tuple[bytes, ...]] = {
    "crypto_scalarmult_ristretto255": (_SCALAR, _P),
    "crypto_scalarmult_ristretto255_base": (_SCALAR,),
    "crypto_core_ristretto255_add": (_P, _Q),
    "crypto_core_ristretto255_sub": (_P, _Q),
    "crypto_core_ristretto255_is_valid_point": (_P,),
    "crypto_core_ristretto255_from_hash": (_SCALAR + _SCALAR,),
    "crypto_core_ed25519_is_valid_point": (_EDWARDS,),
    "crypto_scalarmult_base": (_BOX_SECRET,),
    "crypto_box": (_PIECE, bytes(24), _BOX_KEY, _BOX_SECRET),
    "crypto_box_seal_open": (bindings.crypto_box_seal(_PIECE, _BOX_KEY), _BOX_KEY, _BOX_SECRET),
}
"""Representative arguments for every libsodium call the counted modules make."""

COUNTED: tuple[tuple[ModuleType, str, ModuleType], ...] = (
    (condottiere.crypto.group, "_sodium", sodium),
    (condottiere.crypto.sealing, "_na", bindings),
)
"""The modules that call libsodium: each module, the name it holds its bindings by, and them."""

RAW_FUNCTIONS: dict[str, Callable[..., Any]] = {
    name: getattr(module, name)
    for _, _, module in COUNTED
    for name in dir(module)
    if name.startswith("crypto_")
}
"""Every libsodium function the counted modules call, by name."""

COLUMNS: dict[str, tuple[str, ...]] = {
    "mul": ("crypto_scalarmult_ristretto255",),
    "base": ("crypto_scalarmult_ristretto255_base",),
    "add/sub": ("crypto_core_ristretto255_add", "crypto_core_ristretto255_sub"),
    "valid": ("crypto_core_ristretto255_is_valid_point",),
    "hash": ("crypto_core_ristretto255_from_hash",),
    "x25519": (
        "crypto_scalarmult_base",
        "crypto_box",
        "crypto_box_seal_open",
        "crypto_core_ed25519_is_valid_point",
    ),
}
"""The calls counted, grouped for printing."""


class _CountingBindings:
    """Stands in for libsodium's bindings inside the :data:`COUNTED` modules, counting each
    call (into one ``counts`` shared by every module)."""

    def __init__(self, real: ModuleType, counts: Counter[str], lock: threading.Lock) -> None:
        self.counts = counts
        self._real = real
        self._lock = lock

    def __getattr__(self, name: str) -> Any:
        function = getattr(self._real, name)
        if not name.startswith("crypto_"):
            return function

        def counted(*args: Any) -> Any:
            with self._lock:
                self.counts[name] += 1
            return function(*args)

        return counted


@contextmanager
def counting() -> Iterator[Counter[str]]:
    """Count the libsodium calls the :data:`COUNTED` modules make inside the ``with`` block
    (on every thread)."""
    counts: Counter[str] = Counter()
    lock = threading.Lock()
    for module, attribute, real in COUNTED:
        vars(module)[attribute] = _CountingBindings(real, counts, lock)
    try:
        yield counts
    finally:
        for module, attribute, real in COUNTED:
            vars(module)[attribute] = real


def op_columns(counts: Counter[str]) -> list[int]:
    """The counts grouped as :data:`COLUMNS`."""
    return [sum(counts[name] for name in names) for names in COLUMNS.values()]


def _run_raw(counts: Counter[str]) -> None:
    for name, count in counts.items():
        if name not in RAW_ARGUMENTS:
            sys.exit(f"floors: no representative arguments for {name}; add them")
        function, args = RAW_FUNCTIONS[name], RAW_ARGUMENTS[name]
        for _ in range(count):
            function(*args)


def _split(counts: Counter[str], parts: int) -> list[Counter[str]]:
    """``counts`` cut into ``parts`` shares as even as whole calls allow."""
    shares: list[Counter[str]] = [Counter() for _ in range(parts)]
    for name, count in counts.items():
        for index in range(parts):
            shares[index][name] = count // parts + (index < count % parts)
    return shares


_pools: dict[int, ThreadPoolExecutor] = {}


def floor_seconds(counts: Counter[str], threads: int = CORES, repeat: int = 1) -> float:
    """Seconds to make exactly these raw calls, split evenly over ``threads`` threads: the
    median of ``repeat`` timings."""
    return statistics.median(_time_raw(counts, threads) for _ in range(repeat))


def floor_cpu_seconds(counts: Counter[str], repeat: int = 3) -> float:
    """CPU seconds to make exactly these raw calls on one thread: the median of ``repeat``."""
    timings = []
    for _ in range(repeat):
        started = time.thread_time()
        _run_raw(counts)
        timings.append(time.thread_time() - started)
    return statistics.median(timings)


def _time_raw(counts: Counter[str], threads: int) -> float:
    """Seconds to make these raw calls once, split evenly over ``threads`` threads."""
    if threads <= 1:
        started = time.perf_counter()
        _run_raw(counts)
        return time.perf_counter() - started
    pool = _pools.setdefault(threads, ThreadPoolExecutor(threads - 1))
    first, *rest = _split(counts, threads)
    started = time.perf_counter()
    futures = [pool.submit(_run_raw, share) for share in rest]
    _run_raw(first)
    for future in futures:
        future.result()
    return time.perf_counter() - started
