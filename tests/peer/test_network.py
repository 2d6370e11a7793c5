"""Whole games between real peer processes on loopback (each peer its own OS process, ports
chosen by the OS), a peer killed with ``kill -9`` and restarted, and the standard gRPC health
and reflection services."""

from __future__ import annotations

import asyncio
import json
import random
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from condottiere.games.condottiere import Game
from condottiere.peer.record import load, verify
from tests.peer.processes import PeerProcess, Peers, peers_in, start_table

GAME_SECONDS = 240

TABLES = [
    ("zman", 2),
    ("zman", 4),
    ("zman-classic", 2),
    ("zman-classic", 4),
    ("zman-duel", 2),
    ("ffg", 2),
    ("ffg", 4),
    ("eurogames", 2),
    ("eurogames", 4),
    ("zman", 6),
]


def assert_same_game(table: list[PeerProcess]) -> None:
    """Every peer ended the same game: state, winners and record hash; the record verifies
    (every signature, proof and card) and replays with the offline engine."""
    assert_same_summaries([peer.result() for peer in table])


def assert_same_summaries(results: list[dict[str, Any]]) -> None:
    """The summaries (``DATA/last-game.json``) of every peer of a table tell the same game, and
    its record verifies and replays (see :func:`assert_same_game`)."""
    for result in results:
        assert result["halt"] is None and result["audited"], result
    shared = {(str(r["state"]), tuple(r["winners"]), r["record_hash"]) for r in results}
    assert len(shared) == 1, shared
    verdict = verify(load(Path(results[0]["record"])))
    assert verdict.fair, verdict.lines()
    assert verdict.table.record_hash() == results[0]["record_hash"]
    assert verdict.replayed is not None
    assert Game.replay(verdict.replayed).winners == tuple(results[0]["winners"])


@pytest.mark.parametrize(("edition", "seats"), TABLES, ids=[f"{e}-{s}" for e, s in TABLES])
def test_a_whole_game_between_peer_processes_ends_the_same_everywhere(
    tmp_path: Path, edition: str, seats: int
) -> None:
    with peers_in(tmp_path) as peers:
        table = start_table(peers, tmp_path, edition, seats, seed=seats)
        peers.wait_all(table, GAME_SECONDS)
    assert_same_game(table)


KILLED_GAMES = [("zman-duel", 2), ("zman", 3)] * 5


@pytest.mark.parametrize(
    ("game", "edition", "seats"),
    [(i, e, s) for i, (e, s) in enumerate(KILLED_GAMES)],
    ids=[f"{i}-{e}-{s}" for i, (e, s) in enumerate(KILLED_GAMES)],
)
def test_a_peer_killed_at_a_random_moment_and_restarted_finishes_the_game_identically(
    tmp_path: Path, game: int, edition: str, seats: int
) -> None:
    rng = random.Random(game)
    with peers_in(tmp_path) as peers:
        table = start_table(peers, tmp_path, edition, seats, seed=game)
        for peer in table[1:]:
            peer.wait_for("asked .* for a seat", 20)
        victim = rng.randrange(seats)
        time.sleep(rng.uniform(0.0, 1.5 if edition == "zman-duel" else 3.0))
        peers.kill(table[victim])
        running = list(table)
        if (table[victim].data / "last-game.json").exists():
            running.remove(table[victim])  # it had finished its game before the kill
        else:
            time.sleep(rng.uniform(0.0, 0.5))
            table[victim] = running[victim] = peers.start(table[victim].args, table[victim].data)
        peers.wait_all(running, GAME_SECONDS)
    assert_same_game(table)


HOST_WITH_BOTS = ["host", "--edition", "zman", "--seats", "3", "--strategy", "greedy",
                  "--bots", "greedy,random", "--player", "ada", "--seed", "7"]


@contextmanager
def stopping_its_bots(peers: Peers, host: PeerProcess) -> Iterator[None]:
    """Whatever happens, a host still running at the end is stopped with SIGTERM, so that it
    stops the bot peers it started at once (after a SIGKILL they stop by themselves, within a
    second: see ``test_one_process``)."""
    try:
        yield
    finally:
        if host.process.poll() is None:
            host.process.send_signal(signal.SIGTERM)  # a peer this test started
            peers.wait_for_exit(host, 60)


def bot_summaries(host_data: Path) -> list[dict[str, Any]]:
    """The summaries of the host's bot peers (``DATA/bots/N``), in seat order of start."""
    return [
        dict(json.loads((host_data / "bots" / str(index) / "last-game.json").read_text()))
        for index in (1, 2)
    ]


def test_a_host_with_bots_starts_them_as_peers_that_play_the_whole_game(tmp_path: Path) -> None:
    with peers_in(tmp_path) as peers:
        host = peers.start(HOST_WITH_BOTS, tmp_path / "host")
        with stopping_its_bots(peers, host):
            peers.wait_all([host], GAME_SECONDS)
    bots = bot_summaries(tmp_path / "host")
    assert_same_summaries([host.result(), *bots])
    assert sorted(summary["seat"] for summary in [host.result(), *bots]) == [0, 1, 2]
    seated = "".join(host.lines)
    assert "Sforza" in seated and "Orsini" in seated  # each bot named, none with ada's initial


def test_a_host_stopped_and_started_again_takes_up_the_game_with_its_bots(
    tmp_path: Path,
) -> None:
    with peers_in(tmp_path) as peers:
        host = peers.start(HOST_WITH_BOTS, tmp_path / "host")
        with stopping_its_bots(peers, host):
            host.wait_for(r"\(3 of 3 seats taken\)", 60)
            time.sleep(0.5)  # the deal has begun; the game is far from over
            host.process.send_signal(signal.SIGTERM)  # a peer this test started
            assert peers.wait_for_exit(host, 60) == 128 + signal.SIGTERM
        again = peers.start(HOST_WITH_BOTS, tmp_path / "host")
        with stopping_its_bots(peers, again):
            again.wait_for("taking up table", 30)
            peers.wait_all([again], GAME_SECONDS)
    assert_same_summaries([again.result(), *bot_summaries(tmp_path / "host")])
    logs = [(tmp_path / "host" / "bots" / f"{index}.log").read_text() for index in (1, 2)]
    assert all("taking up table" in log for log in logs), logs


def test_a_peer_serves_grpc_health_and_reflection(tmp_path: Path) -> None:
    with peers_in(tmp_path) as peers:
        host = peers.start(
            ["host", "--edition", "zman-duel", "--strategy", "greedy"], tmp_path / "host"
        )
        address = host.address()
        host.wait_for("hosting", 20)
        services, status = asyncio.run(_health_and_services(address))
    assert status == health_pb2.HealthCheckResponse.SERVING
    assert {"condottiere.v1.Peer", "grpc.health.v1.Health"} <= services


async def _health_and_services(address: str) -> tuple[set[str], int]:
    async with grpc.aio.insecure_channel(address) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        reply = await health.Check(
            health_pb2.HealthCheckRequest(service="condottiere.v1.Peer"), timeout=5
        )
        reflection = reflection_pb2_grpc.ServerReflectionStub(channel)
        services: set[str] = set()
        call = reflection.ServerReflectionInfo(
            iter([reflection_pb2.ServerReflectionRequest(list_services="")]), timeout=5
        )
        async for response in call:
            services.update(s.name for s in response.list_services_response.service)
        return services, reply.status
