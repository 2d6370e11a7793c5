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

import os
import random
import shutil
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from engine import Game
from peer.record import load, verify
from tests.peer.processes import PeerProcess, Peers, peers_in, start_table

GAME_SECONDS = 400
"""The longest a chaos game may take, kill and restart included."""

MIXES = {
    ("zman-duel", 2): 25.0,
    ("zman", 2): 40.0,
    ("zman", 3): 60.0,
    ("ffg", 3): 60.0,
    ("eurogames", 2): 40.0,
    ("zman", 4): 80.0,
}
"""The tables the games cycle through, each with roughly how long its game lasts here (the
kill falls anywhere in the first nine tenths of that, the deal and the audit included)."""


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
    kill_at: float
    """Seconds after the start when the peer was killed."""
    restarted: bool
    """False when the killed peer had already finished its game."""
    cut: int | None = None
    """The seat whose connections were cut, if any."""
    cut_at: float = 0.0
    cut_for: float = 0.0
    sockets_cut: int = 0
    seconds: float = 0.0
    same_end: bool = False
    fair: bool = False
    record_hash: str = ""
    problem: str = ""
    outputs: str = field(default="", repr=False)


def play_chaos_game(root: Path, index: int, *, cut: bool, seed: int = 0) -> ChaosGame:
    """Play chaos game ``index`` (its table, victim and moments drawn from ``seed`` and
    ``index``) under ``root``; what happened. Raises nothing for a game that goes wrong:
    :attr:`ChaosGame.problem` says what."""
    rng = random.Random(seed * 100_003 + index)
    (edition, seats), typical = list(MIXES.items())[index % len(MIXES)]
    game = ChaosGame(index, edition, seats, killed=rng.randrange(seats), kill_at=0.0,
                     restarted=False)  # fmt: skip
    started = time.monotonic()
    with peers_in(root) as peers:
        table = start_table(peers, root, edition, seats, seed=index)
        try:
            for peer in table[1:]:
                peer.wait_for("asked .* for a seat", 30)
            cutter = None
            over = threading.Event()
            if cut:
                game.cut = rng.randrange(seats)
                game.cut_at, game.cut_for = rng.uniform(0.5, 0.9 * typical), rng.uniform(1, 4)
                port = int(table[game.cut].address().rsplit(":", 1)[1])
                cutter = threading.Thread(target=_cut, args=(game, port, over), daemon=True)
            kill_after = rng.uniform(0.5, 0.9 * typical)
            if cutter is not None:
                cutter.start()
            time.sleep(max(0.0, started + kill_after - time.monotonic()))
            game.kill_at = time.monotonic() - started
            _kill_and_restart(peers, table, game, rng)
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


def _kill_and_restart(
    peers: Peers, table: list[PeerProcess], game: ChaosGame, rng: random.Random
) -> None:
    victim = table[game.killed]
    peers.kill(victim)
    if (victim.data / "last-game.json").exists():
        return  # it had finished its game before the kill: nothing to take up
    time.sleep(rng.uniform(0.0, 0.5))
    table[game.killed] = peers.start(victim.args, victim.data)
    game.restarted = True


def _cut(game: ChaosGame, port: int, over: threading.Event) -> None:
    """From ``cut_at`` for ``cut_for`` seconds, destroy every TCP socket to or from ``port``
    (one of this game's peers) as soon as it appears; then let the peers reconnect. Nothing
    is cut once the game is ``over``."""
    if over.wait(game.cut_at):
        return
    end = time.monotonic() + game.cut_for
    while time.monotonic() < end and not over.is_set():
        result = subprocess.run(
            ["ss", "-K", "-t", "-n", f"( sport = :{port} or dport = :{port} )"],
            capture_output=True, text=True, check=False, timeout=5,
        )  # fmt: skip
        game.sockets_cut += sum(
            1 for line in result.stdout.splitlines() if line.startswith(("ESTAB", "tcp"))
        )
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

