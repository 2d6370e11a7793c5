"""Benchmark whole tables of peer processes on loopback, against the work they cannot avoid.

For 2, 4 and 6 seats (``zman``, every seat played by the ``greedy`` bot, each peer its own
OS process), it measures from the peers' ``--trace`` lines:

- the time from launching the peers to every hand dealt (keys, shuffle chain, shares);
- the critical path a LAN would see, where each peer has a machine of its own: from the CPU
  each peer's trace reports for its crypto work, each shuffler's step plus the next
  shuffler's verification of it, in sequence, then the slowest seat's shares and the slowest
  owner's check of its own;
- the latency of a move, from its submission to every peer having applied it (p50, p99);
- each game's wall time and shuffle chains (a reshuffle runs the chain again), and the CPU
  seconds each peer used;
- where the time goes: how long the last peer took to start (its imports), the deal after
  it, and a move's latency split into its stages (the mover publishes it, the wire brings
  it, it waits in the receiver's inbox, the receiver checks and applies it).

Beside each figure it prints its floor, measured in the same run, and the ratio. The deal's
floor is honest (``scripts/floors.py``): the same deal is played in this process through the
same tables, the libsodium calls it makes are counted, and exactly those raw calls are timed
spread over every core of the machine: the curve arithmetic all the peers must do, with
perfect use of the cores and nothing else. A game's floor is that of a whole game played in
this process the same way, per shuffle chain, times the game's chains. A move's floor is the
work of the mover (make the entry, reveal the card) plus one other peer's (check and apply
it), timed in this process.

With ``--leavers`` it measures instead what a table pays to survive a seat that leaves:

- the extra time of the backup of the deck secrets at the deal (three seats or more: the
  dealings and the check of every piece, two steps), beside its crypto floor measured in this
  process (one seat's dealings and checks, the seats working side by side on the cores);
- the time from a leaver's deadline to the game going on: a seat killed once the hands are
  dealt, the others' wait for it past the table's step deadline until their next step (the
  statements, the verdict, and the stand-in where a deal needs the leaver's shares);
- in the same games (three seats or more), the re-key step at the next reshuffle, at the host:
  from the step to the next one (every remaining seat's parts of the leaver's shares of the
  hidden cards that come back, verified, combined and taken off the cards), beside its crypto
  floor for the same number of cards measured in this process.

With ``--game captains`` it measures Condottieri Captains instead (3 seats unless ``--seats``):

- the time from launching peer processes to the first hand dealt at every peer (keys, the
  backups, the shuffle chain, the shares), beside the floor of the same work counted in this
  process (a Captains table played here up to its first hand);
- a one-seat reveal (a hand shown to one seat: each hidden card's part sealed to the viewer,
  with proofs every peer checks) and a search of the deck for a named card (every seat's
  blinding of the pile, then its opening, each checked by every other seat), played in this
  process by greedy bots that look at a hand and search the deck at their first chance: the
  CPU of every seat's work, and the critical path a LAN would see (each step's slowest maker,
  then its slowest checker), each beside the CPU of exactly the libsodium calls that work
  made, made raw (CPU time on both sides, so that the load of a shared machine cancels).

``--compare PYTHON`` (another checkout's venv: the code before a change) plays the same
tables with the peers of both, game by game, alternating which goes first: for Condottiere
the deal, the game and the peers' CPU beside the counted arithmetic's CPU; with ``--game
captains`` the first hand dealt and the peers' CPU beside its floor; and the median of the
games' own after / before ratios of the peers' CPU.

The peers keep their compiled modules (in :data:`BYTECODE`, compiled before the first run),
as an installed copy of the project does, even where the environment says not to write any.

``--compare-launches`` plays games whose bots are peers started one by one (each a fresh
interpreter, as the players of other machines start theirs) and games whose bots the host
starts (``host --bots``: forked from one process that imported the peer once, see
:mod:`condottiere.cli.launcher`), alternating: the CPU of every process of each game (this
process reaps them all, those the host started included, and reads their CPU from the
kernel's accounting of its children) beside the counted arithmetic's CPU; with ``--game
captains``, the first hand dealt, the CPU of every process of the table (read from ``/proc``)
beside its floor.

Usage: ``.venv/bin/python scripts/bench_net.py [--seats 2,4,6] [--games N] [--edition ID]
[--leavers] [--game captains] [--compare PYTHON] [--compare-launches]``
"""

from __future__ import annotations

import argparse
import bisect
import contextlib
import ctypes
import itertools
import json
import os
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from floors import CORES, counting, floor_cpu_seconds, floor_seconds
from google.protobuf.message import Message

from condottiere.bots import make_bot
from condottiere.crypto import Identity
from condottiere.crypto.workers import WORKERS
from condottiere.peer.driver import MemoryKeeper, Step, Table, Work
from condottiere.peer.entries import LogEntry
from condottiere.peer.lobby import TableSpec
from condottiere.peer.steps import Verdict
from condottiere.peer.steps.moves import HAND_SHOWN

TARGETS = {"deal_ratio": 1.3, "p50": 0.005, "p99": 0.030, "game4": 30.0, "game6": 6.0}
GAME_SECONDS = 600


STAGES = ("publish", "wire", "inbox", "apply")


@dataclass
class Run:
    seats: int
    deal: float
    latencies: list[float]
    game: float
    cpu: list[float]
    started: float
    """From the launch to the last peer's start (process start and imports)."""
    stages: dict[str, list[float]]
    """A move's latency by stage (see :func:`move_stages`), for every receiver."""
    lan: float
    """The first deal's critical path on a LAN (see :func:`lan_path`)."""
    chains: int
    """Shuffle chains the game ran (the first deal's and every reshuffle's)."""
    tree_cpu: float
    """CPU seconds of every process of the game, from its start to its end (those the peers
    started included: see :func:`adopt_orphans`)."""


def run_table(
    edition: str,
    seats: int,
    seed: int,
    folder: Path,
    python: str = sys.executable,
    by_host: bool = False,
) -> Run:
    """One game between ``seats`` peer processes (the bots the host's own with ``by_host``);
    its figures from their traces, and the CPU of every process of the game."""
    adopt_orphans()
    children_before = children_cpu()
    launched = time.time()
    processes, traces = launch_traced(
        edition, seats, seed, folder, peer_options=["--coin-timeout", "60"], python=python,
        by_host=by_host,
    )
    try:
        for process in processes:
            if process.wait(timeout=GAME_SECONDS) != 0:
                raise RuntimeError(f"a peer exited with {process.returncode}")
    finally:
        stop_all(processes)
    reap_orphans(time.monotonic() + 60)
    tree_cpu = children_cpu() - children_before
    lines = read_traces(traces)
    dealt = max(next(e["t"] for e in trace if e["what"] == "dealt") for trace in lines)
    audited = max(next(e["t"] for e in trace if e["what"] == "audited") for trace in lines)
    submitted = {e["turn"]: e["t"] for trace in lines for e in trace if e["what"] == "submit"}
    applied: dict[int, float] = {}
    for trace in lines:
        for event in trace:
            if event["what"] == "applied":
                applied[event["turn"]] = max(applied.get(event["turn"], 0.0), event["t"])
    latencies = [applied[turn] - t for turn, t in submitted.items() if turn in applied]
    cpu = [next(e["cpu"] for e in trace if e["what"] == "stop") for trace in lines]
    started = max(next(e["t"] for e in trace if e["what"] == "start") for trace in lines)
    shuffles = sum(
        1 for trace in lines for e in trace
        if e["what"] == "work" and e["kind"] == Work.MAKE_SHUFFLE
    )
    return Run(
        seats, dealt - launched, latencies, audited - launched, cpu, started - launched,
        move_stages(lines), lan_path(lines), shuffles // seats, tree_cpu,
    )


PR_SET_CHILD_SUBREAPER = 36
"""Linux's ``prctl`` option that makes a process the reaper of its descendants' orphans."""


def adopt_orphans() -> None:
    """Have the processes a game's peers start (the host's fork server and bots) come back to
    this process when their parent ends before them, so that this process reaps them and
    their CPU is counted in :func:`children_cpu` (Linux)."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")


def reap_orphans(deadline: float) -> None:
    """Wait for every child of this process to end (those adopted included) and reap it; a
    RuntimeError at ``deadline`` (``time.monotonic``)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            if time.monotonic() > deadline:
                raise RuntimeError("processes a game started never ended")
            time.sleep(0.02)


def children_cpu() -> float:
    """CPU seconds (user and system) of every descendant of this process that ended and was
    reaped, theirs included."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def lan_path(lines: Sequence[Sequence[dict[str, Any]]]) -> float:
    """The CPU seconds of the first deal's critical path where every peer has a machine of its
    own: each shuffler's step, then the next shuffler's verification of it (the last step:
    the slowest verifier's), in sequence; then the slowest seat's shares and the slowest
    owner's check of the shares of its cards. From each peer's ``work`` trace lines up to its
    ``dealt`` line."""
    seats = len(lines)
    work: list[list[dict[str, Any]]] = []
    for trace in lines:
        events = []
        for event in trace:
            if event["what"] == "dealt":
                break
            if event["what"] == "work":
                events.append(event)
        work.append(events)

    def cpu(me: int, kind: Work, seat: int | None = None) -> float:
        return sum(
            float(e["cpu"])
            for e in work[me]
            if e["kind"] == kind and (seat is None or e["seat"] == seat)
        )

    path = 0.0
    for shuffler in range(seats):
        path += cpu(shuffler, Work.MAKE_SHUFFLE)
        if shuffler + 1 < seats:
            path += cpu(shuffler + 1, Work.VERIFY_SHUFFLE, shuffler)
        else:
            path += max(cpu(me, Work.VERIFY_SHUFFLE, shuffler) for me in range(seats - 1))
    path += max(cpu(me, Work.MAKE_SHARES) for me in range(seats))
    path += max(cpu(me, Work.CHECK_SHARES) for me in range(seats))
    return path


def move_stages(lines: Sequence[Sequence[dict[str, object]]]) -> dict[str, list[float]]:
    """Each move's way from its mover to every other peer, by stage: ``publish`` (submitted
    to published by the mover), ``wire`` (published to received), ``inbox`` (received to
    taken from the inbox), ``apply`` (taken to applied)."""

    def times(seat: int, what: str) -> list[float]:
        return [float(e["t"]) for e in lines[seat] if e["what"] == what]  # type: ignore[arg-type]

    def after(moments: list[float], moment: float) -> float | None:
        index = bisect.bisect_left(moments, moment)
        return moments[index] if index < len(moments) else None

    published = [times(seat, "pub") for seat in range(len(lines))]
    received = [times(seat, "recv") for seat in range(len(lines))]
    taken = [times(seat, "consume") for seat in range(len(lines))]
    applied = [
        {int(e["turn"]): float(e["t"]) for e in trace if e["what"] == "applied"}  # type: ignore[call-overload, arg-type]
        for trace in lines
    ]
    stages: dict[str, list[float]] = {stage: [] for stage in STAGES}
    for mover, trace in enumerate(lines):
        for event in trace:
            if event["what"] != "submit":
                continue
            submitted, turn = float(event["t"]), int(event["turn"])  # type: ignore[arg-type, call-overload]
            out = after(published[mover], submitted)
            if out is None:
                continue
            for seat in range(len(lines)):
                done = applied[seat].get(turn)
                arrived = after(received[seat], out)
                picked = None if arrived is None else after(taken[seat], arrived)
                if seat == mover or done is None or picked is None or arrived is None:
                    continue
                for stage, span in zip(
                    STAGES,
                    (out - submitted, arrived - out, picked - arrived, done - picked),
                    strict=True,
                ):
                    stages[stage].append(span)
    return stages


# ------------------------------------------------------------------------------ floors


def seated_tables(edition: str, seats: int, kind: type[Table] = Table) -> list[Table]:
    """``seats`` tables (of ``kind``) in this process, each a seat of one new table."""
    identities = [Identity.generate() for _ in range(seats)]
    spec = TableSpec(edition, seats, (), "bench", "p0", "")
    tables = [kind.create(identities[0], spec, MemoryKeeper())]
    definition = tables[0].logs.log(tables[0].me)[0].signed
    for seat in range(1, seats):
        tables.append(kind.from_definition(identities[seat], definition, MemoryKeeper()))
        tables[-1].join(f"p{seat}", "")
    return tables


def dealt(tables: Sequence[Table]) -> bool:
    """True once every table waits for a move (the hands are dealt) or is over."""
    return all(t.over or (t.step is not None and t.step.kind == "move") for t in tables)


def deal_in_process(edition: str, seats: int) -> Counter[str]:
    """The libsodium calls a whole deal makes at ``seats`` seats, every seat's work included:
    keys, the shuffle chain with every verification, the shares and their checks."""
    with counting() as counts:
        tables = seated_tables(edition, seats)
        while not dealt(tables):
            _exchange(tables)
    return Counter(counts)


class _WorkCounted(Table):
    """A table in this process that books the libsodium calls of each piece of its crypto
    work: ``(work, the seat doing it, the seat it is about, calls)`` (see :func:`lan_floor`)."""

    calls: ClassVar[Counter[str]] = Counter()
    booked: ClassVar[list[tuple[Work, int, int, Counter[str]]]] = []

    @contextmanager
    def _work_timed(self, work: Work, deck: int, seat: int | None) -> Iterator[None]:
        before = Counter(self.calls)
        with super()._work_timed(work, deck, seat):
            yield
        if seat is not None and self.seat is not None:
            calls = Counter(self.calls)
            calls.subtract(before)
            self.booked.append((work, self.seat, seat, +calls))


def lan_floor(edition: str, seats: int) -> float:
    """CPU seconds, on one thread, of exactly the libsodium calls of the first deal's LAN
    critical path (the pieces :func:`lan_path` sums: each shuffler's step and the next
    shuffler's verification of it, then the most costly seat's shares and check), the deal
    played in this process and its pieces' calls counted."""
    with counting() as counts:
        _WorkCounted.calls, _WorkCounted.booked = counts, []
        tables = seated_tables(edition, seats, _WorkCounted)
        while not dealt(tables):
            _exchange(tables)
    booked = _WorkCounted.booked

    def calls(me: int, kind: Work, about: int | None = None) -> Counter[str]:
        total: Counter[str] = Counter()
        for work, doer, seat, made in booked:
            if work is kind and doer == me and (about is None or seat == about):
                total.update(made)
        return total

    path: Counter[str] = Counter()
    for shuffler in range(seats):
        path.update(calls(shuffler, Work.MAKE_SHUFFLE))
        verifier = shuffler + 1 if shuffler + 1 < seats else 0
        path.update(calls(verifier, Work.VERIFY_SHUFFLE, shuffler))
    for kind in (Work.MAKE_SHARES, Work.CHECK_SHARES):
        path.update(max((calls(me, kind) for me in range(seats)), key=lambda c: c.total()))
    return floor_cpu_seconds(path)


def game_in_process(edition: str, seats: int) -> tuple[Counter[str], int]:
    """The libsodium calls a whole game makes at ``seats`` seats (every seat's work), and the
    number of shuffle chains it ran."""
    shuffles = 0

    def count(work: Work, deck: int, seat: int, cpu: float) -> None:
        nonlocal shuffles
        shuffles += work is Work.MAKE_SHUFFLE

    with counting() as counts:
        tables = seated_tables(edition, seats)
        for table in tables:
            table.on_work = count
        bots = [make_bot("greedy", seed=seat) for seat in range(seats)]
        while not all(t.over for t in tables):
            _exchange(tables)
            for seat, table in enumerate(tables):
                game, step = table.game, table.step
                mine = step is not None and step.kind == "move" and step.missing == (table.me,)
                if game is not None and mine:
                    table.submit(bots[seat].choose(game.copy(), seat))
    return Counter(counts), shuffles // seats


def move_floor(edition: str, seats: int, moves: int = 300) -> tuple[float, float]:
    """Median seconds, in one process, for a seat to make a move's entry (revealing its card)
    and for another seat to check and apply it."""
    identities = [Identity.generate() for _ in range(seats)]
    spec = TableSpec(edition, seats, (), "bench", "p0", "")
    tables = [Table.create(identities[0], spec, MemoryKeeper())]
    definition = tables[0].logs.log(tables[0].me)[0].signed
    for seat in range(1, seats):
        tables.append(Table.from_definition(identities[seat], definition, MemoryKeeper()))
        tables[-1].join(f"p{seat}", "")
        _exchange(tables)
    bot = make_bot("greedy", seed=1)
    makes: list[float] = []
    applies: list[float] = []
    while len(makes) < moves and not all(t.over for t in tables):
        _exchange(tables)
        for seat, table in enumerate(tables):
            game = table.game
            step = table.step
            if game is None or step is None or step.kind != "move" or game.to_act != seat:
                continue
            if step.missing != (table.me,) or len(game.legal_moves()) == 1:
                continue
            move = bot.choose(game.copy(), seat)
            started = time.perf_counter()
            table.submit(move)
            makes.append(time.perf_counter() - started)
            entry = table.logs.log(table.me)[-1].signed
            other = tables[(seat + 1) % seats]
            started = time.perf_counter()
            other.receive(entry)
            applies.append(time.perf_counter() - started)
    return statistics.median(makes), statistics.median(applies)


def _exchange(tables: Sequence[Table]) -> None:
    while True:
        new = 0
        for table in tables:
            for other in tables:
                if other is table:
                    continue
                for author in other.logs.authors:
                    for entry in other.logs.log(author)[len(table.logs.log(author)) :]:
                        before = len(table.logs)
                        table.receive(entry.signed)
                        new += len(table.logs) > before
        if not new:
            return


# ------------------------------------------------------------------------------ report


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


LEAVER_DEADLINE = 3
"""The step deadline of the tables ``--leavers`` measures (seconds)."""


BYTECODE = Path(tempfile.gettempdir()) / "condottiere-bench-bytecode"
"""Where the peers' compiled modules are kept between runs (``PYTHONPYCACHEPREFIX``)."""


def peer_environment() -> dict[str, str]:
    """The environment the peers run in: this one, but with the project's compiled modules
    kept and read (in :data:`BYTECODE`), as an installed project has them. A
    ``PYTHONDONTWRITEBYTECODE`` here (some sandboxes set it) would have every peer compile
    every module of the project from source at start: about 0.25 s of CPU a peer that no
    installed copy spends."""
    environment = {
        name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"
    }
    environment["PYTHONPYCACHEPREFIX"] = str(BYTECODE)
    return environment


def warm_bytecode(python: str) -> None:
    """Compile every module of the project ``python`` runs into :data:`BYTECODE` (before the
    first timed run, so that none pays for it)."""
    subprocess.run(
        [python, "-c", "import compileall, condottiere, os, sys; sys.exit(not all("
         "compileall.compile_dir(os.path.dirname(m.__file__), quiet=1) for m in ("
         "__import__(f'condottiere.{p}', fromlist=['_']) for p in"
         " ('bots', 'cli', 'crypto', 'games', 'interface', 'peer', 'v1'))))"],
        env=peer_environment(), check=True,
    )


def launch_traced(
    edition: str,
    seats: int,
    seed: int,
    folder: Path,
    host_options: Sequence[str] = (),
    peer_options: Sequence[str] = (),
    python: str = sys.executable,
    by_host: bool = False,
) -> tuple[list[subprocess.Popen[bytes]], list[Path]]:
    """A host and ``seats - 1`` greedy bot peers run by ``python``, with traces (the host
    also given ``host_options``, every peer ``peer_options``); the processes (the caller
    stops them with ``stop_all``) and their trace files. Each peer leads a process group of
    its own, so that ``stop_all`` also stops what it started (``python`` may be a wrapper,
    as the profiler, whose peer is its child). With ``by_host`` the bots are the host's own
    (``host --bots``), started as the host starts them (:mod:`condottiere.cli.launcher`),
    in the host's process group; the only process returned is the host."""
    command = [python, "-m", "condottiere.cli.main"]
    traces = [folder / f"trace{seat}.jsonl" for seat in range(seats)]
    common = ["--strategy", "greedy", "--new", "--interface", "127.0.0.1", *peer_options]
    if by_host:
        traces[1:] = [folder / f"trace0.bot{seat}.jsonl" for seat in range(1, seats)]
        host_options = [*host_options, "--bots", ",".join(["greedy"] * (seats - 1))]
    output = folder / "host.log"
    with output.open("w") as log:
        host = subprocess.Popen(
            [*command, "host", "--edition", edition, "--seats", str(seats), "--seed", str(seed),
             "--data", str(folder / "seat0"), "--trace", str(traces[0]), *common, *host_options],
            stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            env=peer_environment(),
        )
    processes = [host]
    if by_host:
        return processes, traces
    address = ""
    deadline = time.monotonic() + 30
    while not address and time.monotonic() < deadline:
        for line in output.read_text().splitlines():
            if line.startswith("listening on "):
                address = line.split()[2]
        time.sleep(0.01)
    for seat in range(1, seats):
        processes.append(subprocess.Popen(
            [*command, "bot", "--join", address, "--seed", str(seed + seat), "--data",
             str(folder / f"seat{seat}"), "--trace", str(traces[seat]), *common],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True,
            env=peer_environment(),
        ))
    return processes, traces


def read_traces(traces: Sequence[Path]) -> list[list[dict[str, object]]]:
    return [
        [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
        for path in traces
    ]


def wait_traces(traces: Sequence[Path], what: str, timeout: float = GAME_SECONDS) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(any(e["what"] == what for e in trace) for trace in read_traces(traces)):
            return
        time.sleep(0.05)
    raise RuntimeError(f"the peers never traced {what!r}")


def stop_all(processes: Sequence[subprocess.Popen[bytes]]) -> None:
    """Kill every process group ``launch_traced`` started that still runs, then reap them."""
    for process in processes:
        with contextlib.suppress(ProcessLookupError):  # gone: every process of it exited
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def backup_seconds(lines: Sequence[Sequence[dict[str, object]]]) -> float:
    """The wall time of the backup steps (from the first peer's dealings step to the last
    peer's step after the piece checks)."""
    begun, ended = [], []
    for trace in lines:
        steps = [e for e in trace if e["what"] == "step"]
        for index, event in enumerate(steps):
            if event["kind"] == "dealings":
                begun.append(float(event["t"]))  # type: ignore[arg-type]
            if event["kind"] == "piece_checks" and index + 1 < len(steps):
                ended.append(float(steps[index + 1]["t"]))  # type: ignore[arg-type]
    return max(ended) - min(begun) if begun and ended else 0.0


def backup_floor(seats: int, repeat: int = 5) -> float:
    """The crypto of the backup, done here: every seat's dealing of every deck, and every
    seat's opening and check of its pieces, the seats spread over the machine's cores (never
    less than one seat's share of it)."""
    from condottiere import crypto

    table = b"bench-backup"
    boxes = [crypto.BoxSecret.generate() for _ in range(seats)]
    keys = [box.public for box in boxes]
    secrets = [crypto.random_scalar() for _ in range(seats)]
    timings = []
    for _ in range(repeat):
        began = time.perf_counter()
        dealings = [
            crypto.make_dealing(secret, keys, crypto.Context(table, 0, seat))
            for seat, secret in enumerate(secrets)
        ]
        for seat in range(seats):
            for dealer, dealing in enumerate(dealings):
                if dealer != seat:
                    crypto.open_piece(dealing, crypto.mul_base(secrets[dealer]), boxes[seat],
                                      seat, crypto.Context(table, 0, dealer))
        timings.append(time.perf_counter() - began)
    whole = min(timings)
    return max(whole / seats, whole / min(seats, os.cpu_count() or 1))


def leaver_figures(edition: str, sizes: Sequence[int]) -> None:
    """Print the figures of ``--leavers`` (see the module)."""
    deadline = ["--step-deadline", str(LEAVER_DEADLINE), "--bot-move-deadline",
                str(LEAVER_DEADLINE), "--coin-timeout", str(LEAVER_DEADLINE)]
    print("the backup of the deck secrets at the deal (s), beside its crypto floor")
    print(f"{'seats':>5} {'backup s':>9} {'floor s':>8} {'ratio':>6} {'dealt s':>8}")
    for seats in sizes:
        if seats < 3:
            print(f"{seats:>5} {'none: at two seats a leave is a forfeit':>36}")
            continue
        with tempfile.TemporaryDirectory() as folder:
            launched = time.time()
            processes, traces = launch_traced(edition, seats, 0, Path(folder), deadline)
            try:
                wait_traces(traces, "dealt")
            finally:
                stop_all(processes)
            lines = read_traces(traces)
        backup = backup_seconds(lines)
        dealt = max(float(next(e["t"] for e in t if e["what"] == "dealt")) for t in lines)  # type: ignore[arg-type]
        floor = backup_floor(seats)
        print(f"{seats:>5} {backup:>9.3f} {floor:>8.4f} {backup / floor:>6.1f} "
              f"{dealt - launched:>8.2f}")
    print(f"\nfrom a leaver's deadline ({LEAVER_DEADLINE} s) to the game going on (s), at the host")
    print(f"{'seats':>5} {'step':>12} {'waited s':>9} {'went on s':>10}")
    rekeys: list[tuple[int, float, int]] = []
    for seats in [n for n in sizes if n >= 2]:
        with tempfile.TemporaryDirectory() as folder:
            processes, traces = launch_traced(edition, seats, 1, Path(folder), deadline)
            try:
                wait_traces(traces, "dealt")
                victim = processes[-1]
                victim.kill()
                victim.wait()
                processes[0].wait(timeout=GAME_SECONDS)
            finally:
                stop_all(processes)
            host = read_traces(traces)[0]
            rekeyed = rekeyed_cards(Path(folder) / "seat0")
        dealt_at = next(e["t"] for e in host if e["what"] == "dealt")
        ends = [e for e in host if e["what"] in ("step", "audited", "stop") and e["t"] >= dealt_at]  # type: ignore[operator]
        waits = [
            (float(b["t"]) - float(a["t"]), str(a["kind"]))  # type: ignore[arg-type]
            for a, b in itertools.pairwise(ends)
            if a["what"] == "step"
        ]
        waited, kind = max(waits)
        print(f"{seats:>5} {kind:>12} {waited:>9.2f} {waited - LEAVER_DEADLINE:>10.2f}")
        rekeys += [(seats, took, rekeyed) for took, kind in waits if kind == "rekey"][:1]
    if any(seats >= 3 for seats in sizes):
        print("\nthe re-key step at the next reshuffle after the leave (s), at the host, beside "
              "its crypto floor")
        print(f"{'seats':>5} {'cards':>6} {'re-key s':>9} {'floor s':>8} {'ratio':>6}")
        for seats, took, cards in rekeys:
            floor = rekey_floor(seats, cards)
            print(f"{seats:>5} {cards:>6} {took:>9.3f} {floor:>8.4f} {took / floor:>6.1f}")
        done = {seats for seats, _, _ in rekeys}
        for seats in sorted(n for n in sizes if n >= 3 and n not in done):
            print(f"{seats:>5} {'no reshuffle came before the game ended':>40}")


def rekeyed_cards(data: Path) -> int:
    """How many cards the host's first re-key took the leaver's key off (from the record the
    host wrote); 0 if it re-keyed none."""
    from condottiere.crypto import StandInBatch
    from condottiere.peer.entries import read_entry
    from condottiere.peer.record import load

    summary = json.loads((data / "last-game.json").read_text())
    for signed in load(Path(summary["record"])):
        entry = read_entry(signed)
        if entry.kind == "rekey":
            return len(StandInBatch.decode(entry.body.batch).positions)
    return 0


def rekey_floor(seats: int, cards: int, repeat: int = 5) -> float:
    """The crypto of a re-key of ``cards`` hidden cards after the last seat left, done here:
    one remaining seat's parts with their proofs, then the other remaining seats' parts
    verified, all combined and taken off the cards (each seat does this side by side with
    the others, so one seat's work is the floor)."""
    from condottiere import crypto
    from condottiere.crypto.elgamal import encrypt

    table = b"bench-rekey"
    leaver, remaining = seats - 1, range(seats - 1)
    boxes = [crypto.BoxSecret.generate() for _ in range(seats)]
    secret = crypto.random_scalar()
    key = crypto.mul_base(secret)
    dealt_by = crypto.Context(table, 0, leaver)
    dealing = crypto.make_dealing(secret, [box.public for box in boxes], dealt_by)
    pieces = [crypto.open_piece(dealing, key, boxes[j], j, dealt_by) for j in remaining]
    checks = [crypto.verification_key(dealing, key, j) for j in remaining]
    joint = crypto.mul_base(crypto.random_scalar())
    deck = {
        position: encrypt(crypto.hash_to_point(b"bench", bytes([position % 256])), joint,
                          crypto.random_scalar())
        for position in range(cards)
    }
    by = [crypto.Context(table, 1, j) for j in remaining]
    batches = {j: crypto.make_stand_in(pieces[j], leaver, deck, by[j]) for j in remaining}
    timings = []
    for _ in range(repeat):
        began = time.perf_counter()
        crypto.make_stand_in(pieces[0], leaver, deck, by[0]).encode()
        received = {j: crypto.StandInBatch.decode(batch.encode()) for j, batch in batches.items()}
        for j in remaining[1:]:
            crypto.verify_stand_in(received[j], leaver, checks[j], deck, by[j])
        shares = crypto.combine_stand_in(received, seats)
        for position, (_, b) in deck.items():
            crypto.sub(b, shares[position])
        timings.append(time.perf_counter() - began)
    return min(timings)


# ------------------------------------------------------------------------------ Captains

CAPTAINS = "captains"
CAPTAINS_VARIANT = "standard"
SEARCH_WORK = frozenset({Work.MAKE_BLINDING, Work.CHECK_BLINDING, Work.MAKE_OPENING,
                         Work.CHECK_OPENING})


@dataclass(frozen=True)
class Piece:
    """One seat's piece of the work of a search or a one-seat reveal."""

    kind: str
    step: int
    """The table's step number (a search is a blinding step and the opening step after it)."""
    seat: int
    """The seat that did it (its maker, or the checker)."""
    cards: int
    """The cards it is about: the pile searched, or the hand shown."""
    cpu: float
    calls: Counter[str]
    """The libsodium calls it made."""


class _Costed(Table):
    """A table in this process that books each piece of its search and reveal work (CPU, and
    the libsodium calls the ``counting`` block the game runs in counts)."""

    calls: ClassVar[Counter[str]] = Counter()
    pieces: ClassVar[list[Piece]] = []
    """The counting block's counter and the game's pieces, set by each game."""

    @contextmanager
    def _book(self, kind: str, cards: int) -> Iterator[None]:
        before, started = Counter(self.calls), time.process_time()
        yield
        calls = Counter(self.calls)
        calls.subtract(before)
        step, seat = self.step, self.seat
        assert step is not None and seat is not None
        self.pieces.append(Piece(kind, step.number, seat, cards, time.process_time() - started,
                                 +calls))

    @contextmanager
    def _work_timed(self, work: Work, deck: int, seat: int | None) -> Iterator[None]:
        step, dealer = self.step, self.dealer
        if work not in SEARCH_WORK or seat is None or step is None or step.search is None:
            yield  # (seat None: this seat's own entry, taken unchecked)
            return
        assert dealer is not None
        with self._book(work.value, len(dealer.pile_positions(step.search.pile))):
            yield

    def _entry_body(self, step: Step) -> Message | None:
        if step.kind != HAND_SHOWN or step.shown is None:
            return super()._entry_body(step)
        with self._book("make_reveal", step.shown.count):
            return super()._entry_body(step)

    def _check(self, step: Step, author: bytes, entry: LogEntry) -> Verdict:
        if step.kind != HAND_SHOWN or step.shown is None:
            return super()._check(step, author, entry)
        with self._book("check_reveal", step.shown.count):
            return super()._check(step, author, entry)


def captains_tables(seats: int, kind: type[Table] = Table) -> list[Table]:
    """``seats`` tables of a new Captains table in this process (tables of ``kind``)."""
    identities = [Identity.generate() for _ in range(seats)]
    spec = TableSpec(CAPTAINS_VARIANT, seats, (), "bench", "p0", "", game=CAPTAINS)
    tables = [kind.create(identities[0], spec, MemoryKeeper())]
    definition = tables[0].logs.log(tables[0].me)[0].signed
    for seat in range(1, seats):
        tables.append(kind.from_definition(identities[seat], definition, MemoryKeeper()))
        tables[-1].join(f"p{seat}", "")
    return tables


def _captains_move(game: Any, seat: int, bot: Any) -> Any:
    """The greedy move, but a search of the deck or a look at a hand whenever one is legal
    (the work the Captains figures measure)."""
    from condottiere.games.captains.cards import CARDS, Effect

    wanted = (Effect.SEARCH, Effect.LOOK)
    for move in game.legal_moves():
        card = getattr(move, "card", None)
        if str(move).startswith("event ") and card in CARDS and CARDS[card].effect in wanted:
            return move
    return bot.choose(game.copy(), seat)


def _play_captains(tables: Sequence[Table], until: Callable[[], bool], seed: int) -> None:
    """Greedy bots (see :func:`_captains_move`) play until ``until()`` or the game ends."""
    bots = [make_bot("greedy", seed=seed + seat) for seat in range(len(tables))]
    while not until() and not all(t.over for t in tables):
        _exchange(tables)
        for seat, table in enumerate(tables):
            game, step = table.game, table.step
            mine = step is not None and step.kind == "move" and step.missing == (table.me,)
            if game is not None and mine and not until():
                table.submit(_captains_move(game, seat, bots[seat]))


def captains_deal_in_process(seats: int) -> Counter[str]:
    """The libsodium calls of a Captains table up to its first hand dealt (keys, backups,
    the shuffle chain with every verification, the shares and their checks)."""
    with counting() as counts:
        tables = captains_tables(seats)
        _play_captains(tables, lambda: all(t.dealer and t.dealer.dealt for t in tables), 0)
    return Counter(counts)


def captains_work_in_process(seats: int, games: int) -> dict[str, list[Piece]]:
    """The pieces of work of the first search of the deck and the first one-seat reveal that
    Captains games in this process come to (at most ``games`` games)."""
    found: dict[str, list[Piece]] = {}
    for number in range(games):
        with counting() as counts:
            pieces: list[Piece] = []
            _Costed.calls, _Costed.pieces = counts, pieces

            def both_seen(pieces: list[Piece] = pieces) -> bool:
                kinds = {piece.kind for piece in pieces}
                return {"check_opening", "check_reveal"} <= kinds | _seen(found)

            _play_captains(captains_tables(seats, _Costed), both_seen, number)
        blinding = next((p.step for p in pieces if p.kind == "make_blinding"), None)
        if "search" not in found and blinding is not None:
            search = [p for p in pieces if p.step in (blinding, blinding + 1)]
            if any(p.kind == "check_opening" for p in search):
                found["search"] = search
        shown = next((p.step for p in pieces if p.kind == "make_reveal"), None)
        if "reveal" not in found and shown is not None:
            found["reveal"] = [p for p in pieces if p.step == shown]
        if len(found) == 2:
            break
    return found


def _seen(found: dict[str, list[Piece]]) -> set[str]:
    return {"check_opening" if kind == "search" else "check_reveal" for kind in found}


def lan_path_of(pieces: Sequence[Piece], steps: Sequence[tuple[str, str]]) -> list[Piece]:
    """The pieces on the critical path a LAN would see, each seat on a machine of its own:
    for each step, its slowest maker's work, then its slowest checker's (each seat checks
    the others' parts)."""
    path = []
    for make, check in steps:
        for kind in (make, check):
            per_seat: dict[int, list[Piece]] = {}
            for piece in pieces:
                if piece.kind == kind:
                    per_seat.setdefault(piece.seat, []).append(piece)
            if per_seat:
                path += max(per_seat.values(), key=lambda done: sum(p.cpu for p in done))
    return path


def _calls(pieces: Sequence[Piece]) -> Counter[str]:
    calls: Counter[str] = Counter()
    for piece in pieces:
        calls.update(piece.calls)
    return calls


def captains_deal_seconds(
    seats: int, seed: int, python: str = sys.executable, by_host: bool = False
) -> tuple[float, float]:
    """Peer processes at a Captains table (the bots the host's own with ``by_host``): seconds
    from their launch to the first hand dealt at every peer (the first step after the first
    shares step, in each peer's trace), and the CPU seconds every process of the game had used
    when it was seen (read from ``/proc``, polled every 50 ms, so a little over)."""
    with tempfile.TemporaryDirectory() as folder:
        launched = time.time()
        processes, traces = launch_traced(
            CAPTAINS_VARIANT, seats, seed, Path(folder), host_options=["--game", CAPTAINS],
            peer_options=["--coin-timeout", "60"], python=python, by_host=by_host,
        )
        try:
            deadline = time.monotonic() + GAME_SECONDS
            while time.monotonic() < deadline:
                dealt = [_first_dealt(trace) for trace in read_traces(traces)]
                if all(moment is not None for moment in dealt):
                    cpu = sessions_cpu({process.pid for process in processes})
                    return max(float(m) for m in dealt if m is not None) - launched, cpu
                time.sleep(0.05)
            raise RuntimeError("the peers never dealt a hand")
        finally:
            stop_all(processes)


def sessions_cpu(leaders: set[int]) -> float:
    """CPU seconds (user and system) the running processes of the sessions ``leaders`` lead
    (the peers ``launch_traced`` started, and every process they started) have used, from
    ``/proc``, read once."""
    ticks = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:  # gone meanwhile
            continue
        if int(fields[3]) in leaders:
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def _first_dealt(trace: Sequence[dict[str, Any]]) -> float | None:
    steps = [e for e in trace if e["what"] == "step"]
    for before, after in itertools.pairwise(steps):
        if before["kind"] == "shares":
            return float(after["t"])
    return None


def captains_figures(sizes: Sequence[int], games: int) -> None:
    """Print the figures of ``--game captains`` (see the module)."""
    print("Captains: the first hand dealt by peer processes, beside its crypto floor: wall")
    print("seconds (floor over every core), and the peers' CPU seconds (floor on one thread)")
    print(f"{'seats':>5} {'dealt s':>8} {'floor s':>8} {'ratio':>6}"
          f" {'cpu s':>7} {'floor s':>8} {'ratio':>6}")
    for seats in sizes:
        counts = captains_deal_in_process(seats)
        for game in range(games):
            dealt, cpu = captains_deal_seconds(seats, game)
            floor, cpu_floor_ = median_floor(counts), floor_cpu_seconds(counts)
            print(f"{seats:>5} {dealt:>8.2f} {floor:>8.2f} {dealt / floor:>6.2f}"
                  f" {cpu:>7.2f} {cpu_floor_:>8.2f} {cpu / cpu_floor_:>6.2f}",
                  flush=True)
    print("\na one-seat reveal (a hand shown to one seat) and a search of the deck, in this")
    print("process, in CPU seconds (both sides, so that the load of a shared machine cancels):")
    print("every seat's work, and the critical path a LAN would see, each beside the CPU of")
    print("exactly its libsodium calls made raw")
    print(f"{'seats':>5} {'work':>7} {'cards':>5} {'cpu s':>7} {'floor s':>8} {'ratio':>6}"
          f" {'LAN s':>7} {'floor s':>8} {'ratio':>6}")
    steps = {
        "search": [("make_blinding", "check_blinding"), ("make_opening", "check_opening")],
        "reveal": [("make_reveal", "check_reveal")],
    }
    for seats in sizes:
        found = captains_work_in_process(seats, max(games, 8))
        for kind in ("reveal", "search"):
            pieces = found.get(kind)
            if not pieces:
                print(f"{seats:>5} {kind:>7} none came in {max(games, 8)} games")
                continue
            path = lan_path_of(pieces, steps[kind])
            cpu, lan = sum(p.cpu for p in pieces), sum(p.cpu for p in path)
            floor, lan_floor = cpu_floor(_calls(pieces)), cpu_floor(_calls(path))
            print(f"{seats:>5} {kind:>7} {pieces[0].cards:>5} {cpu:>7.3f} {floor:>8.4f}"
                  f" {cpu / floor:>6.2f} {lan:>7.3f} {lan_floor:>8.4f} {lan / lan_floor:>6.2f}",
                  flush=True)


def cpu_floor(counts: Counter[str], repeat: int = 3) -> float:
    """The median CPU seconds of ``counts``' raw calls, made on this thread."""
    timings = []
    for _ in range(repeat):
        started = time.process_time()
        floor_seconds(counts, 1)
        timings.append(time.process_time() - started)
    return statistics.median(timings)

def median_floor(counts: Counter[str], repeat: int = 3) -> float:
    """The median of ``repeat`` timings of ``counts``' raw calls spread over every core."""
    return statistics.median(floor_seconds(counts, CORES) for _ in range(repeat))


def compare(edition: str, seats: int, games: int, other: str) -> None:
    """Peers of ``other`` (before) and of this checkout (after), game by game (see --compare)."""
    deal_counts = deal_in_process(edition, seats)
    game_counts, chains = game_in_process(edition, seats)
    figures: dict[str, list[tuple[float, float, float, float, float, float]]] = {
        "before": [], "after": []
    }
    latencies: dict[str, list[float]] = {"before": [], "after": []}
    print(f"{seats} seats: deal s, ratio to the floor; game s, chains, ratio to the floor;"
          " the peers' CPU s, ratio to the counted arithmetic's CPU; a move's latency p50 ms")
    for game in range(games):
        order = [("before", other), ("after", sys.executable)]
        for label, python in order if game % 2 == 0 else order[::-1]:
            with tempfile.TemporaryDirectory() as folder:
                run = run_table(edition, seats, game, Path(folder), python)
            deal_floor = median_floor(deal_counts)
            game_floor = median_floor(game_counts) / max(chains, 1) * run.chains
            arithmetic = floor_cpu_seconds(game_counts) / max(chains, 1) * run.chains
            cpu = sum(run.cpu)
            figures[label].append((
                run.deal, run.deal / deal_floor, run.game, run.game / game_floor, cpu,
                cpu / arithmetic,
            ))
            deal_ratio, game_ratio = run.deal / deal_floor, run.game / game_floor
            latencies[label].extend(run.latencies)
            print(
                f"  game {game + 1} {label:>6}: dealt {run.deal:5.2f} s ({deal_ratio:4.2f}x"
                f" {deal_floor:4.2f} s); game {run.game:5.1f} s, {run.chains} chains"
                f" ({game_ratio:4.2f}x); started {run.started:4.2f} s; LAN {run.lan:4.2f} s;"
                f" peers' CPU {cpu:5.2f} s ({cpu / arithmetic:4.2f}x {arithmetic:5.2f} s);"
                f" move p50 {1000 * percentile(run.latencies, 0.5):5.1f} ms",
                flush=True,
            )
    for label, rows in figures.items():
        deal, deal_ratio, wall, game_ratio, cpu, cpu_ratio = (
            statistics.median(c) for c in zip(*rows, strict=True)
        )
        print(
            f"  median {label:>6}: dealt {deal:5.2f} s, {deal_ratio:4.2f}x its floor;"
            f" game {wall:5.1f} s, {game_ratio:4.2f}x its floor; peers' CPU {cpu:5.2f} s,"
            f" {cpu_ratio:4.2f}x the arithmetic; a move's latency p50"
            f" {1000 * percentile(latencies[label], 0.5):.1f} ms,"
            f" p99 {1000 * percentile(latencies[label], 0.99):.1f} ms"
        )
    paired = statistics.median(
        after[5] / before[5]
        for before, after in zip(figures["before"], figures["after"], strict=True)
    )
    # a game's length is the deal's luck (1-6 chains): its CPU is compared through its ratio
    print(f"  the peers' CPU to the arithmetic, after / before: {paired:.2f} (median over the"
          " games of after's ratio to before's)")


def captains_compare(seats: int, games: int, other: str) -> None:
    """The first Captains hand dealt by peers of ``other`` (before) and of this checkout
    (after), game by game, alternating which goes first; the peers' CPU beside the floor."""
    counts = captains_deal_in_process(seats)
    print(f"Captains, {seats} seats: the first hand dealt; the peers' CPU s beside the CPU of"
          " its counted arithmetic on one thread")
    cpus: dict[str, list[float]] = {"before": [], "after": []}
    ratios: dict[str, list[float]] = {"before": [], "after": []}
    for game in range(games):
        order = [("before", other), ("after", sys.executable)]
        for label, python in order if game % 2 == 0 else order[::-1]:
            dealt, cpu = captains_deal_seconds(seats, game, python)
            floor = floor_cpu_seconds(counts)
            cpus[label].append(cpu)
            ratios[label].append(cpu / floor)
            print(f"  game {game + 1} {label:>6}: dealt {dealt:6.2f} s; peers' CPU {cpu:5.2f} s"
                  f" ({cpu / floor:4.2f}x {floor:4.2f} s)", flush=True)
    for label in cpus:
        print(f"  median {label:>6}: peers' CPU {statistics.median(cpus[label]):5.2f} s,"
              f" {statistics.median(ratios[label]):4.2f}x its floor")
    paired = statistics.median(a / b for b, a in zip(cpus["before"], cpus["after"], strict=True))
    print(f"  the peers' CPU, after / before: {paired:.2f} (median of the games' own ratios)")


LAUNCHES = (("one by one", False), ("by the host", True))
"""How the bots of a game are started in ``--compare-launches``, and whether by the host."""


def _launches_in_turn(
    games: int, measure: Callable[[int, bool], tuple[float, str]], against: str
) -> None:
    """Each game played with the bots started both ways (:data:`LAUNCHES`), alternating which
    goes first; ``measure(game, by_host)`` plays it and gives its ratio and its line. Then each
    way's median ratio (to ``against``) and the median of the games' paired ratios."""
    ratios: dict[str, list[float]] = {label: [] for label, _ in LAUNCHES}
    for game in range(games):
        for label, by_host in LAUNCHES if game % 2 == 0 else LAUNCHES[::-1]:
            ratio, line = measure(game, by_host)
            ratios[label].append(ratio)
            print(f"  game {game + 1} {label:>11}: {line}", flush=True)
    for label, values in ratios.items():
        print(f"  median {label:>11}: {statistics.median(values):4.2f}x {against}")
    paired = statistics.median(
        host / one
        for one, host in zip(ratios["one by one"], ratios["by the host"], strict=True)
    )
    print(f"  by the host / one by one: {paired:.2f} (median over the games of the ratios)")


def captains_compare_launches(seats: int, games: int) -> None:
    """The first Captains hand dealt at tables whose bots are peers started one by one and at
    tables whose bots the host started, alternating; every process's CPU beside the floor."""
    counts = captains_deal_in_process(seats)
    print(f"Captains, {seats} seats: the first hand dealt; the CPU s of every process of the"
          " game beside the CPU of its counted arithmetic on one thread")

    def measure(game: int, by_host: bool) -> tuple[float, str]:
        dealt, cpu = captains_deal_seconds(seats, game, by_host=by_host)
        floor = floor_cpu_seconds(counts)
        return cpu / floor, (
            f"dealt {dealt:6.2f} s; CPU {cpu:5.2f} s ({cpu / floor:4.2f}x {floor:4.2f} s)"
        )

    _launches_in_turn(games, measure, "its floor")


def compare_launches(edition: str, seats: int, games: int) -> None:
    """Games whose bots are peers started one by one (as players of other machines start
    theirs) and games whose bots the host started (``host --bots``, forked from one process
    that imported the peer once), alternating: every process's CPU beside the counted
    arithmetic's (see --compare-launches)."""
    game_counts, chains = game_in_process(edition, seats)
    print(f"{seats} seats: chains; the CPU of every process of the game, ratio to the counted"
          " arithmetic's CPU; from launch to the last peer started")

    def measure(game: int, by_host: bool) -> tuple[float, str]:
        with tempfile.TemporaryDirectory() as folder:
            run = run_table(edition, seats, game, Path(folder), by_host=by_host)
        arithmetic = floor_cpu_seconds(game_counts) / max(chains, 1) * run.chains
        return run.tree_cpu / arithmetic, (
            f"{run.chains} chains, CPU {run.tree_cpu:5.2f} s"
            f" ({run.tree_cpu / arithmetic:4.2f}x {arithmetic:5.2f} s); started"
            f" {run.started:4.2f} s"
        )

    _launches_in_turn(games, measure, "the arithmetic")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--seats", help="table sizes (default 2,4,6; with --game captains, 3)"
    )
    parser.add_argument("--games", type=int, default=3, help="games per size (default 3)")
    parser.add_argument("--edition", default="zman", help="edition (default zman)")
    parser.add_argument(
        "--compare",
        metavar="PYTHON",
        help="instead, time the deal and the game of peers run by PYTHON (another checkout's"
        " venv: the code before a change) and of this checkout's, game by game, alternating"
        " which goes first, each beside this checkout's floor timed right after it",
    )
    parser.add_argument(
        "--compare-launches", action="store_true",
        help="instead, play games whose bots are started one by one and games whose bots the"
        " host starts (host --bots), alternating: the CPU of every process of the game beside"
        " the counted arithmetic's CPU",
    )
    parser.add_argument(
        "--game", choices=("condottiere", CAPTAINS), default="condottiere",
        help="captains: the deal, a one-seat reveal and a search of the deck of Condottieri"
        " Captains instead (see the module)",
    )
    parser.add_argument(
        "--leavers", action="store_true",
        help="instead, measure the backup at the deal and a leaver's deadline to the game going on",
    )
    args = parser.parse_args(argv)
    if args.seats is None:
        args.seats = "3" if args.game == CAPTAINS else "2,4,6"
    try:
        sizes = [int(n) for n in args.seats.split(",")]
    except ValueError:
        parser.error(f"--seats takes table sizes separated by commas, not {args.seats!r}")
    if args.games < 1 or any(n < 2 for n in sizes):
        parser.error("need at least one game, and tables of 2 seats or more")
    print(
        f"{CORES} cores, crypto threads {WORKERS}, load {os.getloadavg()[0]:.2f};"
        f" {args.games} game(s) per size; floors spread over {CORES} cores"
    )
    warm_bytecode(sys.executable)
    if args.compare:
        warm_bytecode(args.compare)
    if args.game == CAPTAINS and args.compare_launches:
        for seats in sizes:
            captains_compare_launches(seats, args.games)
        return 0
    if args.game == CAPTAINS and args.compare:
        for seats in sizes:
            captains_compare(seats, args.games, args.compare)
        return 0
    if args.game == CAPTAINS:
        captains_figures(sizes, args.games)
        return 0
    if args.leavers:
        leaver_figures(args.edition, sizes)
        return 0
    if args.compare:
        for seats in sizes:
            compare(args.edition, seats, args.games, args.compare)
        return 0
    if args.compare_launches:
        for seats in sizes:
            compare_launches(args.edition, seats, args.games)
        return 0
    results: dict[int, dict[str, float]] = {}
    breakdown: dict[int, tuple[float, float, dict[str, list[float]]]] = {}
    games: dict[int, list[tuple[float, int, float]]] = {}
    for seats in sizes:
        deal_counts = deal_in_process(args.edition, seats)
        game_counts, chains = game_in_process(args.edition, seats)
        runs, deal_floors, chain_floors, chain_cpus = [], [], [], []
        for game in range(args.games):
            with tempfile.TemporaryDirectory() as folder:
                runs.append(run_table(args.edition, seats, game, Path(folder)))
            # each run's floors timed right after it, so that both see the same load
            deal_floors.append(median_floor(deal_counts))
            chain_floors.append(median_floor(game_counts) / max(chains, 1))
            chain_cpus.append(floor_cpu_seconds(game_counts) / max(chains, 1))
            print(
                f"  {seats} seats, game {game + 1}: {runs[-1].game:.1f} s, dealt in"
                f" {runs[-1].deal:.2f} s, floor {deal_floors[-1]:.2f} s",
                flush=True,
            )
        make, apply = move_floor(args.edition, seats)
        latencies = [latency for run in runs for latency in run.latencies]
        games[seats] = [
            (run.game, run.chains, floor * run.chains)
            for run, floor in zip(runs, chain_floors, strict=True)
        ]
        results[seats] = {
            "deal": statistics.median(run.deal for run in runs),
            "deal_floor": statistics.median(deal_floors),
            "deal_ratio": statistics.median(
                run.deal / floor for run, floor in zip(runs, deal_floors, strict=True)
            ),
            "lan": statistics.median(run.lan for run in runs),
            "lan_floor": lan_floor(args.edition, seats),
            "p50": percentile(latencies, 0.5),
            "p99": percentile(latencies, 0.99),
            "move_floor": make + apply,
            "game": statistics.median(run.game for run in runs),
            "game_floor": statistics.median(floor for _, _, floor in games[seats]),
            "game_ratio": statistics.median(wall / floor for wall, _, floor in games[seats]),
            "cpu": statistics.mean(c for run in runs for c in run.cpu),
            "peers_cpu": statistics.median(sum(run.cpu) for run in runs),
            "arith_cpu": statistics.median(
                cpu * run.chains for run, cpu in zip(runs, chain_cpus, strict=True)
            ),
            "cpu_ratio": statistics.median(
                sum(run.cpu) / (cpu * run.chains)
                for run, cpu in zip(runs, chain_cpus, strict=True)
            ),
        }
        started = statistics.median(run.started for run in runs)
        stages = {s: [x for run in runs for x in run.stages[s]] for s in STAGES}
        breakdown[seats] = (started, results[seats]["deal"] - started, stages)

    print()
    print(
        f"{'seats':>5} {'dealt s':>8} {'floor s':>8} {'ratio':>6} {'LAN s':>6} {'floor':>6}"
        f" {'ratio':>6}"
        f" {'p50 ms':>7} {'p99 ms':>7} {'floor ms':>8} {'ratio':>6}"
        f" {'game s':>7} {'floor s':>7} {'ratio':>6} {'cpu s/peer':>10}"
    )
    for seats, r in results.items():
        print(
            f"{seats:>5} {r['deal']:>8.2f} {r['deal_floor']:>8.2f}"
            f" {r['deal_ratio']:>6.2f} {r['lan']:>6.2f} {r['lan_floor']:>6.2f}"
            f" {r['lan'] / r['lan_floor']:>6.2f} {r['p50'] * 1e3:>7.1f} {r['p99'] * 1e3:>7.1f}"
            f" {r['move_floor'] * 1e3:>8.2f} {r['p50'] / r['move_floor']:>6.2f}"
            f" {r['game']:>7.1f} {r['game_floor']:>7.1f} {r['game_ratio']:>6.2f}"
            f" {r['cpu']:>10.2f}"
        )
    print("\nratios are medians over the games of each figure to the floor timed right after it;")
    print("LAN: the first deal's critical path in CPU seconds (each peer on a machine of its own)")
    print("beside the CPU of exactly the libsodium calls of the same pieces, made raw")
    print("\nCPU seconds of a whole game: every peer's (process start, protocol, rules, bots,")
    print("arithmetic) beside the counted curve arithmetic of the same game made raw on one thread")
    print(f"{'seats':>5} {'peers cpu s':>11} {'arith cpu s':>11} {'ratio':>6}")
    for seats, r in results.items():
        print(
            f"{seats:>5} {r['peers_cpu']:>11.2f} {r['arith_cpu']:>11.2f} {r['cpu_ratio']:>6.2f}"
        )
    print("\neach game: wall time, shuffle chains, its floor (the floor of a chain x chains)")
    for seats, played in games.items():
        for number, (wall, chains, floor) in enumerate(played, 1):
            print(
                f"{seats:>5} seats, game {number}: {wall:6.1f} s, {chains} chains,"
                f" floor {floor:5.2f} s, ratio {wall / floor:5.2f}"
            )
    print("\nwhere the time goes: the deal = the last peer's start + the protocol after it (s);")
    print("a move's stages at each receiver, p50 / p99 (ms)")
    print(f"{'seats':>5} {'started':>8} {'protocol':>8}" + "".join(f" {s:>13}" for s in STAGES))
    for seats, (started, protocol, stages) in breakdown.items():
        spans = "".join(
            f" {percentile(v, 0.5) * 1e3:>6.2f}/{percentile(v, 0.99) * 1e3:<6.1f}" if v
            else f" {'-':>13}"
            for v in stages.values()
        )
        print(f"{seats:>5} {started:>8.2f} {protocol:>8.2f}{spans}")
    print()
    for seats, r in results.items():
        ratio = r["deal_ratio"]
        verdict = "ok" if ratio <= TARGETS["deal_ratio"] else "MISSED"
        print(
            f"{seats} peers dealt in {r['deal']:.2f} s, {ratio:.2f}x its floor"
            f" (target <= {TARGETS['deal_ratio']}x: {verdict}); LAN critical path {r['lan']:.2f} s"
        )
    if 4 in results:
        r = results[4]
        print(
            f"4 peers: move latency p50 {r['p50'] * 1e3:.1f} ms (target <= 5), p99"
            f" {r['p99'] * 1e3:.1f} ms (target <= 30); whole game {r['game']:.1f} s (target <= 30)"
        )
    if 6 in results:
        game6 = results[6]["game"]
        verdict = "ok" if game6 <= TARGETS["game6"] else "MISSED"
        print(
            f"6 peers: whole game {game6:.1f} s median over {args.games}"
            f" (target <= {TARGETS['game6']} s: {verdict})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
