"""Benchmark the mental-poker deck against the raw cost of its libsodium operations.

For a table of ``--seats`` seats and a deck of ``--cards`` cards it times

1. one shuffle step with its proof (a step in the middle of the chain, encoded for sending);
2. one verification of that step, from the bytes a peer receives (decode, then verify);
3. the whole shuffle chain through :class:`condottiere.crypto.deck.Deck`: every seat shuffles in
turn
   and every other seat decodes and verifies the step (all seats in this one process);
4. a deal of ``--deal`` cards round the table: every seat makes its shares (with proofs) of
   the cards dealt to the others, and one peer decodes and verifies all of them;
5. with three seats or more, the backup of the deal (DESIGN.md 6a, :mod:`condottiere.crypto.vss`):
   one dealer's dealing, and one seat opening and checking the pieces the others dealt it;
6. the stand-in for a seat that left (:mod:`condottiere.crypto.standin`), over every card of
   the deck: one remaining seat's parts with their proofs, and one remaining seat decoding and
   verifying the others' parts and combining them into the leaver's shares.

Beside each figure it prints the "floor": the same number of raw libsodium calls
(``nacl.bindings``), counted by routing :mod:`condottiere.crypto.group` through a counting proxy
during an extra untimed run, then timed one after the other on one thread, and
split across two threads, right after each timed run (so both see the same load
from other processes). The ratio of the best time to the best one-thread floor
shows the cost of everything that is not curve arithmetic, minus what the
threads win back; the two-thread floor is what perfect use of two cores could
reach. Each figure is shown as the best and the median of ``--repeat`` runs.

Usage: ``.venv/bin/python scripts/bench_crypto.py [--seats 6] [--cards 110] [--repeat 5]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from nacl import bindings

import condottiere.crypto.group
import condottiere.crypto.sealing
from condottiere.crypto.codec import decode_ciphertexts, encode_ciphertexts
from condottiere.crypto.context import Context
from condottiere.crypto.deck import Deck, ShareBatch, ShuffleStep
from condottiere.crypto.sealing import BoxSecret
from condottiere.crypto.shuffle import ShuffleProof, shuffle, verify_shuffle
from condottiere.crypto.standin import (
    StandInBatch,
    combine_stand_in,
    make_stand_in,
    verify_stand_in,
)
from condottiere.crypto.vss import (
    MIN_BACKUP_SEATS,
    Dealing,
    make_dealing,
    open_piece,
    verification_key,
)

TABLE = b"bench-table"
SHUFFLE_TARGET_S = 0.150
DEAL_TARGET_S = 0.5
FLOOR_RATIO_TARGET = 1.3

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

COLUMNS = {
    "mul": "crypto_scalarmult_ed25519_noclamp",
    "base": "crypto_scalarmult_ed25519_base_noclamp",
    "add/sub": ("crypto_core_ed25519_add", "crypto_core_ed25519_sub"),
    "valid": "crypto_core_ed25519_is_valid_point",
    "x25519": ("crypto_scalarmult_base", "crypto_box", "crypto_box_seal_open"),
}


class CountingBindings:
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
    """Count the libsodium calls the :data:`COUNTED` modules make inside the ``with`` block."""
    proxy = CountingBindings()
    reals = [vars(module)["_na"] for module in COUNTED]
    for module in COUNTED:
        vars(module)["_na"] = proxy
    try:
        yield proxy.counts
    finally:
        for module, real in zip(COUNTED, reals, strict=True):
            vars(module)["_na"] = real


def run_raw(counts: Counter[str]) -> None:
    for name, count in counts.items():
        if name not in RAW_ARGUMENTS:
            sys.exit(f"bench_crypto: no representative arguments for {name}; add them")
        function, args = getattr(bindings, name), RAW_ARGUMENTS[name]
        for _ in range(count):
            function(*args)


def floor_seconds(counts: Counter[str], pool: ThreadPoolExecutor) -> tuple[float, float]:
    """The time of exactly these raw calls on one thread, and split across two."""
    start = time.perf_counter()
    run_raw(counts)
    one = time.perf_counter() - start
    first = Counter({name: count // 2 for name, count in counts.items()})
    second = counts - first
    start = time.perf_counter()
    future = pool.submit(run_raw, second)
    run_raw(first)
    future.result()
    return one, time.perf_counter() - start


@dataclass
class Row:
    label: str
    times: list[float]
    counts: Counter[str]
    floors_one: list[float]
    floors_two: list[float]
    target: float | None = None

    def cells(self) -> list[str]:
        ops = []
        for names in COLUMNS.values():
            group = (names,) if isinstance(names, str) else names
            ops.append(str(sum(self.counts[n] for n in group)))
        best, median = min(self.times), statistics.median(self.times)
        floor_one, floor_two = min(self.floors_one), min(self.floors_two)
        verdict = ""
        if self.target is not None:
            verdict = f"{'ok' if median <= self.target else 'MISSED'} (<= {fmt(self.target)})"
        return [
            self.label,
            fmt(best),
            fmt(median),
            *ops,
            fmt(floor_one),
            f"{best / floor_one:.2f}",
            fmt(floor_two),
            f"{best / floor_two:.2f}",
            verdict,
        ]


def fmt(seconds: float) -> str:
    return f"{seconds * 1e3:.1f} ms" if seconds < 10 else f"{seconds:.2f} s"


def measure(
    label: str,
    prepare: Callable[[], Callable[[], object]],
    repeat: int,
    pool: ThreadPoolExecutor,
    target: float | None = None,
) -> Row:
    """Time the action ``prepare()`` returns (a fresh one each run), each run followed by its
    floors, so that the action and its floors see the same load from other processes."""
    counted = prepare()
    with counting() as counts:
        counted()
    row = Row(label, [], counts, [], [], target)
    for _ in range(repeat):
        action = prepare()
        start = time.perf_counter()
        action()
        row.times.append(time.perf_counter() - start)
        one, two = floor_seconds(counts, pool)
        row.floors_one.append(one)
        row.floors_two.append(two)
    return row


def new_table(seats: int, names: list[str]) -> list[Deck]:
    decks = [Deck(TABLE, seats, seat, names) for seat in range(seats)]
    announcements = [deck.announcement for deck in decks]
    for deck in decks:
        deck.accept_keys(announcements)
    return decks


def shuffle_chain(decks: list[Deck]) -> None:
    """Every seat shuffles in turn; every other seat decodes and verifies the step."""
    n = len(decks[0].cards)
    for seat, maker in enumerate(decks):
        step = maker.make_shuffle()
        data = step.encode()
        for deck in decks:
            deck.accept_shuffle(seat, step if deck is maker else ShuffleStep.decode(data, n))


def deal(decks: list[Deck], cards: int, verifier: Deck) -> None:
    """Cards 0..cards-1 dealt round the table; every seat makes its shares of others' cards;
    ``verifier`` decodes and verifies every batch."""
    seats = len(decks)
    batches = []
    for seat, deck in enumerate(decks):
        for owner in range(seats):
            if owner != seat:
                positions = range(owner, cards, seats)
                batches.append((seat, deck.make_shares(owner, positions).encode()))
    for seat, data in batches:
        verifier.accept_shares(seat, ShareBatch.decode(data))


def backup_rows(decks: list[Deck], repeat: int, pool: ThreadPoolExecutor) -> list[Row]:
    """The backup's figures at a table of three seats or more whose deck is shuffled: one
    dealing; seat 0 opening and checking the pieces the others dealt it; and, for the last
    seat leaving, seat 0's parts for every card of the deck, then seat 0 decoding and
    verifying the other remaining seats' parts and combining them (every message from its
    bytes)."""
    seats = len(decks)
    keys = decks[0].keys
    boxes = [BoxSecret.generate() for _ in range(seats)]
    box_keys = [box.public for box in boxes]
    dealt_by = [Context(TABLE, 0, seat) for seat in range(seats)]
    dealings = [
        make_dealing(deck.secret, box_keys, dealt_by[seat]).encode()
        for seat, deck in enumerate(decks)
    ]

    def one_dealing() -> bytes:
        return make_dealing(decks[0].secret, box_keys, dealt_by[0]).encode()

    def pieces_checked() -> None:
        for dealer in range(1, seats):
            received = Dealing.decode(dealings[dealer], seats)
            open_piece(received, keys[dealer], boxes[0], 0, dealt_by[dealer])

    leaver = seats - 1
    dealing = Dealing.decode(dealings[leaver], seats)
    remaining = range(leaver)
    pieces = [open_piece(dealing, keys[leaver], boxes[j], j, dealt_by[leaver]) for j in remaining]
    cards = dict(enumerate(decks[0].cards))
    parts_by = [Context(TABLE, decks[0].round, j) for j in remaining]
    batches = [make_stand_in(pieces[j], leaver, cards, parts_by[j]).encode() for j in remaining]
    verification_keys = [verification_key(dealing, keys[leaver], j) for j in remaining]

    def parts_made() -> bytes:
        return make_stand_in(pieces[0], leaver, cards, parts_by[0]).encode()

    def parts_checked_and_combined() -> None:
        received = {j: StandInBatch.decode(batches[j]) for j in remaining}
        for j in range(1, leaver):
            verify_stand_in(received[j], leaver, verification_keys[j], cards, parts_by[j])
        combine_stand_in(received, seats)

    count = len(cards)
    return [
        measure(
            f"5. backup: one dealing ({seats - 2} commitments, {seats - 1} boxes)",
            lambda: one_dealing,
            repeat,
            pool,
        ),
        measure(
            f"   backup: one seat checks {seats - 1} pieces", lambda: pieces_checked, repeat, pool
        ),
        measure(f"6. stand-in: one seat's {count} parts", lambda: parts_made, repeat, pool),
        measure(
            f"   stand-in: {(seats - 2) * count} parts verified + {count} shares combined",
            lambda: parts_checked_and_combined,
            repeat,
            pool,
        ),
    ]


def print_table(rows: list[Row]) -> None:
    header = [
        "operation",
        "best",
        "median",
        *COLUMNS,
        "floor 1 thread",
        "ratio",
        "floor 2 threads",
        "ratio",
        "target",
    ]
    table = [header, *(row.cells() for row in rows)]
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    for index, line in enumerate(table):
        print(
            "  ".join(
                cell.ljust(w) if i == 0 else cell.rjust(w)
                for i, (cell, w) in enumerate(zip(line, widths, strict=True))
            ).rstrip()
        )
        if index == 0:
            print("  ".join("-" * w for w in widths))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seats", type=int, default=6, help="seats at the table (default 6)")
    parser.add_argument("--cards", type=int, default=110, help="cards in the deck (default 110)")
    parser.add_argument("--deal", type=int, default=60, help="cards dealt (default 60)")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per figure (default 5)")
    args = parser.parse_args(argv)
    if args.seats < 2 or args.cards < 1 or not 1 <= args.deal <= args.cards or args.repeat < 1:
        parser.error(
            "need at least 2 seats, 1 card, a deal of 1 card or more within the deck, 1 repeat"
        )

    names = [f"card-{i % 22}" for i in range(args.cards)]
    pool = ThreadPoolExecutor(max_workers=1)
    print(
        f"{args.seats} seats, {args.cards} cards, deal of {args.deal}; {args.repeat} runs each;"
        f" {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at start (other busy"
        " processes inflate every figure, the floors too)"
    )

    decks = new_table(args.seats, names)
    key = decks[0].joint_key
    if key is None:
        sys.exit("bench_crypto: the table has no joint key")
    step0 = decks[0].make_shuffle()
    for deck in decks:
        deck.accept_shuffle(0, step0)
    deck_in = list(decks[0].cards)
    ctx = Context(TABLE, 0, 1)
    out, proof = shuffle(deck_in, key, ctx)
    deck_bytes, proof_bytes = encode_ciphertexts(out), proof.encode()

    def one_step() -> bytes:
        made, made_proof = shuffle(deck_in, key, ctx)
        return encode_ciphertexts(made) + made_proof.encode()

    def one_verification() -> None:
        received = decode_ciphertexts(deck_bytes, args.cards)
        received_proof = ShuffleProof.decode(proof_bytes, args.cards)
        verify_shuffle(deck_in, received, key, received_proof, ctx)

    def fresh_chain() -> Callable[[], object]:
        table = new_table(args.seats, names)
        return lambda: shuffle_chain(table)

    dealt = new_table(args.seats, names)
    shuffle_chain(dealt)

    steps = args.seats * (args.seats - 1)
    rows = [
        measure("1. shuffle step + proof", lambda: one_step, args.repeat, pool, SHUFFLE_TARGET_S),
        measure(
            "2. verify one step",
            lambda: one_verification,
            args.repeat,
            pool,
            SHUFFLE_TARGET_S,
        ),
        measure(
            f"3. chain: {args.seats} steps, {steps} verifications", fresh_chain, args.repeat, pool
        ),
        measure(
            f"4. deal {args.deal}: {args.deal * (args.seats - 1)} shares made + verified",
            lambda: lambda: deal(dealt, args.deal, dealt[0]),
            args.repeat,
            pool,
            DEAL_TARGET_S,
        ),
    ]
    if args.seats >= MIN_BACKUP_SEATS:
        rows.extend(backup_rows(dealt, args.repeat, pool))
    print()
    print_table(rows)
    step, verification = (statistics.median(row.times) for row in rows[:2])
    print()
    if args.seats >= MIN_BACKUP_SEATS:
        made, checked = (statistics.median(row.times) for row in rows[-2:])
        print(
            f"A card opened for a seat that left costs each remaining seat about"
            f" {fmt((made + checked) / args.cards)} (its part, the others' checked, combined)."
        )
    else:
        print("With 2 seats nothing is backed up: a seat that leaves forfeits.")
    print(
        f"On a LAN each peer verifies on its own machine, so the chain's critical path is about"
        f" {args.seats} x (step + one verification) = {fmt(args.seats * (step + verification))}."
    )
    print(
        "Ratios are best time / best floor (each run is followed by its floors). Below 1: the"
        " two threads win back more than the Python around the curve costs. Targets:"
        f" <= {FLOOR_RATIO_TARGET} x the floor, and the times above for the median."
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
