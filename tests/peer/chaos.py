"""Chaos games: whole bot games between peer processes on loopback in which a random peer is
killed with ``kill -9`` at a random moment and started again, and in some the connections of
a random peer are cut for a while (its sockets destroyed over and over with ``ss -K``, as a
pulled cable would), then left to come back. Every game must finish, every peer with the
same final state and record hash, and the record must verify.

Only processes a game started are killed (by PID), only sockets of its own peers' ports are
cut, and every wait is bounded. The short run is a test (``test_chaos.py``); the full one is
``scripts/chaos.py``.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from condottiere.games.condottiere import Game
from condottiere.peer.record import load, verify
from tests.peer.processes import PeerProcess, Peers, peers_in

GAME_SECONDS = 400
"""The longest a chaos game may take, kill and restart included."""

TABLES = [("zman-duel", 2), ("zman", 2), ("zman", 3), ("ffg", 3), ("eurogames", 2), ("zman", 4)]
"""The tables the games cycle through."""


def can_cut() -> bool:
    """Whether this process may destroy sockets (``ss -K`` needs root and kernel support)."""
    return os.geteuid() == 0 and shutil.which("ss") is not None


@dataclass
class ChaosGame:
    """What happened in one chaos game, and how it ended."""

    index: int
    edition: str
    seats: int
    killed: int
    kill_when: str
    """When the kill was meant to fall: ``deal``, ``turn N`` or ``end`` (the audit's
    goodbyes)."""
    kill_at: float = 0.0
    """Seconds after the start when the peer was killed."""
    kill_turn: int = 0
    """The moves the killed peer had applied when it was killed."""
    restarted: bool = False
    """False when the killed peer had already finished its game."""
    cut: int | None = None
    """The seat whose connections were cut, if any."""
    cut_turn: int = 0
    cut_for: float = 0.0
    sockets_cut: int = 0
    seconds: float = 0.0
    same_end: bool = False
    fair: bool = False
    record_hash: str = ""
    problem: str = ""
    outputs: str = field(default="", repr=False)


class Progress:
    """A peer's progress, from the lines it writes to its ``--trace`` file."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def lines(self) -> list[dict[str, object]]:
        try:
            text = self.path.read_text()
        except FileNotFoundError:
            return []
        return [json.loads(line) for line in text.splitlines() if line.endswith("}")]

    def turns(self) -> int:
        """How many moves the peer has applied."""
        applied = [int(str(line["turn"])) + 1 for line in self.lines() if "turn" in line]
        return max(applied, default=0)

    def reached(self, what: str) -> bool:
        return any(line["what"] == what for line in self.lines())

    def wait(self, done: Callable[[], bool], peer: PeerProcess, seconds: float) -> None:
        """Until ``done()``, the peer exits, or ``seconds`` pass."""
        deadline = time.monotonic() + seconds
        while not done() and peer.process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)


def play_chaos_game(root: Path, index: int, *, cut: bool, seed: int = 0) -> ChaosGame:
    """Play chaos game ``index`` (its table, victim and moments drawn from ``seed`` and
    ``index``) under ``root``; what happened. Raises nothing for a game that goes wrong:
    :attr:`ChaosGame.problem` says what."""
    rng = random.Random(seed * 100_003 + index)
    edition, seats = TABLES[index % len(TABLES)]
    roll = rng.random()
    when = "deal" if roll < 0.2 else "end" if roll > 0.9 else f"turn {rng.randint(1, 60)}"
    game = ChaosGame(index, edition, seats, killed=rng.randrange(seats), kill_when=when)
    started = time.monotonic()
    with peers_in(root) as peers:
        table = _start(peers, root, edition, seats, index)
        progress = [Progress(root / f"trace{seat}.jsonl") for seat in range(seats)]
        over = threading.Event()
        cutter = None
        if cut:
            game.cut = rng.randrange(seats)
            game.cut_turn, game.cut_for = rng.randint(1, 30), rng.uniform(1.0, 4.0)
            port = int(table[game.cut].address().rsplit(":", 1)[1])
            cutter = threading.Thread(
                target=_cut, args=(game, port, progress[game.cut], over), daemon=True
            )
            cutter.start()
        try:
            _kill_and_restart(peers, table, progress[game.killed], game, rng, started)
            running = [p for p in table if not (p.data / "last-game.json").exists()]
            peers.wait_all(running, GAME_SECONDS - (time.monotonic() - started))
        except AssertionError as error:
            game.problem = str(error).splitlines()[0]
            game.outputs = peers.outputs(table)
            return game
        finally:
            game.seconds = time.monotonic() - started
            over.set()
            if cutter is not None:
                cutter.join(timeout=10)
    _judge(game, table)
    return game


def _start(peers: Peers, root: Path, edition: str, seats: int, index: int) -> list[PeerProcess]:
    """A host and bot peers, every seat played by ``greedy``, each tracing its progress."""
    def common(seat: int) -> list[str]:
        trace = str(root / f"trace{seat}.jsonl")
        return ["--strategy", "greedy", "--seed", str(10 * index + seat), "--trace", trace]

    host = peers.start(
        ["host", "--edition", edition, "--seats", str(seats), "--name", f"chaos-{index}",
         *common(0)],
        root / "seat0",
    )
    address = host.address()
    host.wait_for("hosting|taking up", 20)
    table = [host]
    for seat in range(1, seats):
        table.append(peers.start(["bot", "--join", address, *common(seat)], root / f"seat{seat}"))
    return table


def _kill_and_restart(
    peers: Peers,
    table: list[PeerProcess],
    progress: Progress,
    game: ChaosGame,
    rng: random.Random,
    started: float,
) -> None:
    victim = table[game.killed]
    if game.kill_when == "deal":
        progress.wait(lambda: progress.reached("start"), victim, 30)
        time.sleep(rng.uniform(0.0, 1.5))
    elif game.kill_when == "end":
        progress.wait(lambda: progress.reached("audited"), victim, GAME_SECONDS)
    else:
        turn = int(game.kill_when.split()[1])
        progress.wait(
            lambda: progress.turns() >= turn or progress.reached("audited"), victim, GAME_SECONDS
        )
    game.kill_at, game.kill_turn = time.monotonic() - started, progress.turns()
    peers.kill(victim)
    if (victim.data / "last-game.json").exists():
        return  # it had finished its game before the kill: nothing to take up
    time.sleep(rng.uniform(0.0, 0.5))
    table[game.killed] = peers.start(victim.args, victim.data)
    game.restarted = True


def _cut(game: ChaosGame, port: int, progress: Progress, over: threading.Event) -> None:
    """Once the cut peer has applied ``cut_turn`` moves, for ``cut_for`` seconds destroy
    every TCP socket to or from its ``port`` as soon as it appears; then let the peers
    reconnect. Nothing is cut once the game is ``over``."""
    while progress.turns() < game.cut_turn and not progress.reached("audited"):
        if over.wait(0.02):
            return
    end = time.monotonic() + game.cut_for
    while time.monotonic() < end and not over.is_set():
        result = subprocess.run(
            ["ss", "-K", "-t", "-n", f"( sport = :{port} or dport = :{port} )"],
            capture_output=True, text=True, check=False, timeout=5,
        )
        game.sockets_cut += sum(1 for line in result.stdout.splitlines() if "ESTAB" in line)
        time.sleep(0.05)


def _judge(game: ChaosGame, table: list[PeerProcess]) -> None:
    try:
        results = [peer.result() for peer in table]
    except (OSError, ValueError) as error:
        game.problem = f"a peer wrote no summary: {error}"
        return
    halted = [r["halt"] for r in results if r["halt"] is not None or not r["audited"]]
    if halted:
        game.problem = f"a peer did not finish: {halted[0]}"
        return
    ends = {(str(r["state"]), tuple(r["winners"]), r["record_hash"]) for r in results}
    game.same_end = len(ends) == 1
    game.record_hash = results[0]["record_hash"]
    if not game.same_end:
        game.problem = f"the peers ended differently: {ends}"
        return
    verdict = verify(load(Path(results[0]["record"])))
    replayed = verdict.replayed
    game.fair = (
        verdict.fair
        and verdict.table.record_hash() == game.record_hash
        and replayed is not None
        and Game.replay(replayed).winners == tuple(results[0]["winners"])
    )
    if not game.fair:
        game.problem = "the record does not verify: " + "; ".join(verdict.lines()[-3:])

