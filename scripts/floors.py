"""Honest floors for the benchmarks: the raw libsodium calls a piece of work needs, counted, then
timed in the same run on every core of the machine.

A figure's floor is what the curve arithmetic alone costs: the work is run once under a
counting proxy that stands in for ``nacl.bindings`` inside the modules that call libsodium,
and exactly that many raw calls, on representative arguments, are then timed, split evenly
over ``os.cpu_count()`` threads (libsodium releases the GIL, so they run in parallel), or over
one thread. Nothing but curve arithmetic is in a floor: no Python around it, no hashing, no
process start, no network, so a ratio to the floor is the price of everything else.

Used by ``bench_crypto.py`` and ``bench_net.py`` (run from the repository root, so that this
directory is on ``sys.path``).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

from nacl import bindings

import condottiere.crypto.group
import condottiere.crypto.sealing

__all__ = ["COLUMNS", "CORES", "counting", "floor_seconds", "op_columns"]

CORES = os.cpu_count() or 1
"""The machine's cores: a floor spreads its calls over this many threads."""

_SCALAR = (0x1234567890ABCDEF * 2**190 + 12345).to_bytes(32, "little")
_P = bindings.crypto_scalarmult_ed25519_base_noclamp((7).to_bytes(32, "little"))
_Q = bindings.crypto_scalarmult_ed25519_base_noclamp((11).to_bytes(32, "little"))
_BOX_SECRET = bytes(range(32))
_BOX_KEY = bindings.crypto_scalarmult_base(_BOX_SECRET)
_PIECE = bytes(64)
RAW_ARGUMENTS: dict[str, tuple[bytes, ...]] = {
    "crypto_scalarmult_ed25519_noclamp": (_SCALAR, _P),
    "crypto_scalarmult_ed25519_base_noclamp": (_SCALAR,),
    "crypto_core_ed25519_add": (_P, _Q),
    "crypto_core_ed25519_sub": (_P, _Q),
    "crypto_core_ed25519_is_valid_point": (_P,),
    "crypto_core_ed25519_from_uniform": (_SCALAR,),
    "crypto_scalarmult_base": (_BOX_SECRET,),
    "crypto_box": (_PIECE, bytes(24), _BOX_KEY, _BOX_SECRET),
    "crypto_box_seal_open": (bindings.crypto_box_seal(_PIECE, _BOX_KEY), _BOX_KEY, _BOX_SECRET),
}
"""Representative arguments for every libsodium call the counted modules make."""

COUNTED = (condottiere.crypto.group, condottiere.crypto.sealing)
"""The modules that call libsodium (each through its own ``_na``)."""

COLUMNS: dict[str, tuple[str, ...]] = {
    "mul": ("crypto_scalarmult_ed25519_noclamp",),
    "base": ("crypto_scalarmult_ed25519_base_noclamp",),
    "add/sub": ("crypto_core_ed25519_add", "crypto_core_ed25519_sub"),
    "valid": ("crypto_core_ed25519_is_valid_point",),
    "x25519": ("crypto_scalarmult_base", "crypto_box", "crypto_box_seal_open"),
}
"""The calls counted, grouped for printing."""


class _CountingBindings:
    """Stands in for ``nacl.bindings`` inside the :data:`COUNTED` modules, counting each call."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self._lock = threading.Lock()

    def __getattr__(self, name: str) -> Any:
        function = getattr(bindings, name)
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
    proxy = _CountingBindings()
    reals = [vars(module)["_na"] for module in COUNTED]
    for module in COUNTED:
        vars(module)["_na"] = proxy
    try:
        yield proxy.counts
    finally:
        for module, real in zip(COUNTED, reals, strict=True):
            vars(module)["_na"] = real


def op_columns(counts: Counter[str]) -> list[int]:
    """The counts grouped as :data:`COLUMNS`."""
    return [sum(counts[name] for name in names) for names in COLUMNS.values()]


def _run_raw(counts: Counter[str]) -> None:
    for name, count in counts.items():
        if name not in RAW_ARGUMENTS:
            sys.exit(f"floors: no representative arguments for {name}; add them")
        function, args = getattr(bindings, name), RAW_ARGUMENTS[name]
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


def floor_seconds(counts: Counter[str], threads: int = CORES) -> float:
    """Seconds to make exactly these raw calls, split evenly over ``threads`` threads."""
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
