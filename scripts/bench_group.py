"""The group's curve arithmetic, ristretto255 against the Ed25519 subgroup it replaced, paired.

Protocol version 5 moved the deal from the prime-order subgroup of Ed25519 (PyNaCl's
``crypto_scalarmult_ed25519_noclamp`` and friends, whose every multiplication runs a subgroup
check, itself a second multiplication) to ristretto255 (``condottiere.crypto.sodium``). The
group module makes exactly one libsodium call per operation in both versions, so the calls of
a game map one to one: a multiplication, a base multiplication, an addition or subtraction,
the check of a decoded point, and a card's point hashed to the group (version 4: Elligator
from 32 bytes, then the point check; version 5: RFC 9496's map of 64 bytes).

It plays one whole game in this process (``zman``, greedy bots, every seat's work: keys, every
shuffle chain with every verification, shares and their checks, moves, audit), counts its
calls (``floors.counting``), then times, in CPU seconds on one thread, exactly those calls
made raw with ristretto255 and their Ed25519 counterparts, alternating which goes first
round by round; the figure is the median of the rounds' own ratios. It prints the same for
each operation alone (1,000 calls a round).

Usage: ``.venv/bin/python scripts/bench_group.py [--seats 6] [--rounds 7]``
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from bench_net import game_in_process
from floors import RAW_ARGUMENTS, RAW_FUNCTIONS
from nacl import bindings

_SCALAR = RAW_ARGUMENTS["crypto_scalarmult_ristretto255"][0]
_EDWARDS = bindings.crypto_scalarmult_ed25519_base_noclamp(_SCALAR)
_EDWARDS_2 = bindings.crypto_scalarmult_ed25519_base_noclamp(_SCALAR[::-1][:31] + b"\x00")

BEFORE: dict[str, tuple[tuple[Callable[..., Any], tuple[bytes, ...]], ...]] = {
    "crypto_scalarmult_ristretto255": (
        (bindings.crypto_scalarmult_ed25519_noclamp, (_SCALAR, _EDWARDS)),
    ),
    "crypto_scalarmult_ristretto255_base": (
        (bindings.crypto_scalarmult_ed25519_base_noclamp, (_SCALAR,)),
    ),
    "crypto_core_ristretto255_add": ((bindings.crypto_core_ed25519_add, (_EDWARDS, _EDWARDS_2)),),
    "crypto_core_ristretto255_sub": ((bindings.crypto_core_ed25519_sub, (_EDWARDS, _EDWARDS_2)),),
    "crypto_core_ristretto255_is_valid_point": (
        (bindings.crypto_core_ed25519_is_valid_point, (_EDWARDS,)),
    ),
    "crypto_core_ristretto255_from_hash": (
        (bindings.crypto_core_ed25519_from_uniform, (_SCALAR,)),
        (bindings.crypto_core_ed25519_is_valid_point, (_EDWARDS,)),
    ),
}
"""Each ristretto255 call of version 5 and the Ed25519 call(s) version 4 made in its place."""

OPERATIONS = {
    "mul": "crypto_scalarmult_ristretto255",
    "mul_base": "crypto_scalarmult_ristretto255_base",
    "add": "crypto_core_ristretto255_add",
    "decode (point check)": "crypto_core_ristretto255_is_valid_point",
    "hash to the group": "crypto_core_ristretto255_from_hash",
}


def run_after(counts: Counter[str]) -> None:
    """The group calls of ``counts`` made raw, as version 5 makes them."""
    for name, count in counts.items():
        if name in BEFORE:
            function, args = RAW_FUNCTIONS[name], RAW_ARGUMENTS[name]
            for _ in range(count):
                function(*args)


def run_before(counts: Counter[str]) -> None:
    """The Ed25519 counterparts of the group calls of ``counts``, as version 4 made them."""
    for name, count in counts.items():
        for function, args in BEFORE.get(name, ()):
            for _ in range(count):
                function(*args)


def paired(counts: Counter[str], rounds: int) -> tuple[float, float, float]:
    """Median CPU seconds before, after, and the median of the rounds' after/before ratios."""
    befores, afters, ratios = [], [], []
    for number in range(rounds):
        timed: dict[str, float] = {}
        order = [("before", run_before), ("after", run_after)]
        for label, run in order if number % 2 == 0 else order[::-1]:
            started = time.thread_time()
            run(counts)
            timed[label] = time.thread_time() - started
        befores.append(timed["before"])
        afters.append(timed["after"])
        ratios.append(timed["after"] / timed["before"])
    return statistics.median(befores), statistics.median(afters), statistics.median(ratios)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seats", type=int, default=6, help="seats of the game (default 6)")
    parser.add_argument("--rounds", type=int, default=7, help="alternating rounds (default 7)")
    args = parser.parse_args(argv)
    print("each operation alone, 1,000 calls a round, CPU seconds on one thread")
    print(f"{'operation':>22} {'before us':>9} {'after us':>9} {'ratio':>6}")
    for label, name in OPERATIONS.items():
        before, after, ratio = paired(Counter({name: 1000}), args.rounds)
        print(f"{label:>22} {before * 1e3:>9.1f} {after * 1e3:>9.1f} {ratio:>6.2f}", flush=True)
    counts, chains = game_in_process("zman", args.seats)
    group_calls = Counter({name: n for name, n in counts.items() if name in BEFORE})
    print(f"\na whole {args.seats}-seat zman game counted in this process ({chains} chains):")
    made = (f"{name.removeprefix('crypto_')} {n}" for name, n in group_calls.items())
    print("  " + ", ".join(made))
    before, after, ratio = paired(group_calls, args.rounds)
    print(
        f"  its curve arithmetic: before {before:.2f} s, after {after:.2f} s CPU;"
        f" after/before {ratio:.2f} (median of {args.rounds} paired rounds; target <= 0.6)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
