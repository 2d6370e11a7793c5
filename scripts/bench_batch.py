"""Measure batch verification of decryption-share proofs against checking them one by one.

Issue 23 asks whether the DLEQ proofs of one seat's decryption shares can be checked faster
as a batch (a random linear combination: one check for many). This script measures it on
this machine, side by side, over ``--counts`` proofs of one seat (one key ``X``, a card's
point ``a_i`` per proof, the share ``S_i = x·a_i``):

1. **one by one**, as the code does today (:func:`condottiere.crypto.dleq.verify`: each proof
   travels as ``(c, s)``; the checker recomputes both commitments, ``s·G - c·X`` and
   ``s·a - c·S``, and the challenge: one fixed-base and three variable-base multiplications);
2. **a batch, one multiplication at a time**: the proofs would travel as their commitments
   ``(A_i, B_i, s_i)`` (a wire change: 32 more bytes a proof), the challenges ``c_i`` are
   hashed, and with random 128-bit weights ``r_i`` one checks
   ``(Σ r_i s_i)·G = Σ r_i·A_i + (Σ r_i c_i)·X`` and
   ``Σ (r_i s_i)·a_i = Σ r_i·B_i + Σ (r_i c_i)·S_i``, each product computed by libsodium, which
   multiplies one point at a time (``4n + 2`` multiplications);
3. **a batch with a multi-scalar multiplication** written over libsodium's point addition
   (Pippenger's bucket method, the window chosen for the count): what a group library with
   a real multi-scalar multiplication would do in C, done here with one Python call per
   addition.

Every method is first checked to accept the honest proofs and to refuse them with one proof
forged; then each is timed ``--repeat`` times (best and median). The figures say whether
batch checking pays on this backend: it would need a multi-scalar multiplication in native
code (no well-kept library with wheels offers one for this group: ``docs/speed.md``).

Usage: ``.venv/bin/python scripts/bench_batch.py [--counts 10 50 300] [--repeat 5]``
"""

from __future__ import annotations

import argparse
import secrets
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from condottiere.crypto.context import Context, challenge
from condottiere.crypto.dleq import prove, verify
from condottiere.crypto.group import (
    BASE,
    L,
    Point,
    add,
    hash_to_point,
    mul,
    mul_base,
    random_scalar,
)

DOMAIN = b"bench-batch-share"
CONTEXT = Context(b"bench-batch-table", 0, 1)
WEIGHT_BITS = 128


@dataclass(frozen=True)
class Proofs:
    """``n`` share proofs of one seat, in both forms."""

    key: Point
    bases: tuple[Point, ...]
    shares: tuple[Point, ...]
    compact: tuple[tuple[int, int], ...]
    """``(c, s)``: the form the wire carries today."""
    committed: tuple[tuple[Point, Point, int], ...]
    """``(A, B, s)``: the form a batch needs."""


def make_proofs(count: int) -> Proofs:
    secret = random_scalar()
    key = mul_base(secret)
    bases = tuple(hash_to_point(b"bench-batch", i.to_bytes(4, "little")) for i in range(count))
    shares = tuple(mul(secret, a) for a in bases)
    compact = tuple(
        prove(secret, a, DOMAIN, CONTEXT, (key, a, s)) for a, s in zip(bases, shares, strict=True)
    )
    committed = []
    for a, s in zip(bases, shares, strict=True):
        nonce = random_scalar()
        first, second = mul_base(nonce), mul(nonce, a)
        c = challenge(DOMAIN, CONTEXT, key, a, s, first, second)
        committed.append((first, second, (nonce + c * secret) % L))
    return Proofs(key, bases, shares, compact, tuple(committed))


def forged(proofs: Proofs) -> Proofs:
    """The same proofs with the last share replaced by another point."""
    wrong = mul(random_scalar(), proofs.bases[-1])
    return Proofs(
        proofs.key,
        proofs.bases,
        (*proofs.shares[:-1], wrong),
        proofs.compact,
        proofs.committed,
    )


def one_by_one(proofs: Proofs) -> bool:
    try:
        for a, s, (c, response) in zip(proofs.bases, proofs.shares, proofs.compact, strict=True):
            verify(proofs.key, a, s, c, response, DOMAIN, CONTEXT, (proofs.key, a, s), "share")
    except ValueError:
        return False
    return True


MultiMul = Callable[[Sequence[int], Sequence[Point]], Point]


def batch(proofs: Proofs, multi_mul: MultiMul) -> bool:
    """The two batched equations, their sums computed by ``multi_mul``."""
    weights = [secrets.randbits(WEIGHT_BITS) | 1 for _ in proofs.bases]
    challenges = [
        challenge(DOMAIN, CONTEXT, proofs.key, a, s, first, second)
        for a, s, (first, second, _) in zip(
            proofs.bases, proofs.shares, proofs.committed, strict=True
        )
    ]
    responses = [s for _, _, s in proofs.committed]
    weighted_s = [r * s % L for r, s in zip(weights, responses, strict=True)]
    weighted_c = [r * c % L for r, c in zip(weights, challenges, strict=True)]
    left = mul_base(sum(weighted_s) % L)
    right = multi_mul(
        [*weights, sum(weighted_c) % L], [*(first for first, _, _ in proofs.committed), proofs.key]
    )
    if left != right:
        return False
    left = multi_mul(weighted_s, proofs.bases)
    right = multi_mul(
        [*weights, *weighted_c], [*(second for _, second, _ in proofs.committed), *proofs.shares]
    )
    return left == right


def one_at_a_time(scalars: Sequence[int], points: Sequence[Point]) -> Point:
    total: Point | None = None
    for k, p in zip(scalars, points, strict=True):
        term = mul(k, p)
        total = term if total is None else add(total, term)
    assert total is not None
    return total


def _add(p: Point | None, q: Point) -> Point:
    return q if p is None else add(p, q)


def pippenger(scalars: Sequence[int], points: Sequence[Point]) -> Point:
    """``Σ k_i·P_i`` by the bucket method: per window of ``w`` bits, each point is added into
    the bucket of its digit, the buckets summed by running sums; the windows joined by ``w``
    doublings."""
    width = max(2, min(12, (len(points).bit_length() - 1)))
    mask = (1 << width) - 1
    windows = -(-253 // width)
    total: Point | None = None
    for window in reversed(range(windows)):
        if total is not None:
            for _ in range(width):
                total = add(total, total)
        buckets: list[Point | None] = [None] * (mask + 1)
        shift = window * width
        for k, p in zip(scalars, points, strict=True):
            digit = (k >> shift) & mask
            if digit:
                buckets[digit] = _add(buckets[digit], p)
        running: Point | None = None
        summed: Point | None = None
        for bucket in reversed(buckets[1:]):
            if bucket is not None:
                running = _add(running, bucket)
            if running is not None:
                summed = _add(summed, running)
        if summed is not None:
            total = _add(total, summed)
    assert total is not None
    return total


METHODS: dict[str, Callable[[Proofs], bool]] = {
    "one by one (today)": one_by_one,
    "batch, libsodium one by one": lambda proofs: batch(proofs, one_at_a_time),
    "batch, Pippenger over additions": lambda proofs: batch(proofs, pippenger),
}


def timed(work: Callable[[], object], repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return times


def unit_costs(repeat: int) -> tuple[float, float]:
    """Seconds of one variable-base multiplication and one addition (medians of 200)."""
    point = hash_to_point(b"bench-batch", b"unit")
    k = random_scalar()
    mul_times = [min(timed(lambda: mul(k, point), 200)) for _ in range(repeat)]
    add_times = [min(timed(lambda: add(point, BASE), 200)) for _ in range(repeat)]
    return statistics.median(mul_times), statistics.median(add_times)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--counts", type=int, nargs="+", default=[10, 50, 300],
        help="how many proofs of one seat a batch checks (default 10 50 300)",
    )
    parser.add_argument("--repeat", type=int, default=5, help="timed runs each (default 5)")
    args = parser.parse_args(argv)
    if args.repeat < 1 or any(n < 1 for n in args.counts):
        parser.error("counts and --repeat must be at least 1")
    one_mul, one_add = unit_costs(args.repeat)
    print(f"one multiplication {one_mul * 1e6:.1f} us, one addition {one_add * 1e6:.2f} us "
          f"(libsodium through PyNaCl; ratio {one_mul / one_add:.0f})")
    print(f"{'proofs':>6}  {'method':<32} {'best ms':>9} {'median ms':>10} {'vs today':>9}")
    for count in args.counts:
        proofs = make_proofs(count)
        bad = forged(proofs)
        for name, method in METHODS.items():
            if not method(proofs) or method(bad):
                print(f"{name}: wrong answer (honest refused or forgery accepted)")
                return 1
        reference = 0.0
        for name, method in METHODS.items():
            times = timed(lambda method=method, proofs=proofs: method(proofs), args.repeat)
            median = statistics.median(times)
            reference = reference or median
            print(f"{count:>6}  {name:<32} {min(times) * 1e3:>9.2f} {median * 1e3:>10.2f} "
                  f"{median / reference:>8.2f}x")
    print("every method accepted the honest proofs and refused one forged share")
    return 0


if __name__ == "__main__":
    sys.exit(main())
