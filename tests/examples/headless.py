"""Example bots that play a seat through a headless peer's controller service, run for real:
the table a bot plays at, the moves it submitted and the moves its seat chose by the game's
record, and a stand-in controller service for what a real peer never serves (another version)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import grpc

from condottiere.peer.access import TOKEN_FILE
from condottiere.peer.controller_service import ADDRESS_FILE, CONTROLLER_HOST
from condottiere.peer.record import load, verify
from condottiere.v1 import controller_pb2, controller_pb2_grpc
from tests.peer.processes import PeerProcess, peers_in
from tests.peer.test_network import assert_same_summaries

GAME_SECONDS = 180


def play_against_python_bots(
    root: Path,
    program: Sequence[str],
    player: str,
    table: Sequence[str] = ("--edition", "zman"),
    same_game: Callable[[list[dict[str, Any]]], None] = assert_same_summaries,
) -> tuple[PeerProcess, PeerProcess]:
    """A table of three (Z-Man Condottiere unless ``table`` says which, as ``host`` takes
    it): seat 0 is a headless peer (``player``) played by ``program`` run with the peer's data
    directory as its last argument; a greedy and a random bot take the other seats. Waits
    (bounded) until every process has exited with status 0 and checks that every peer ended
    the same fair game (``same_game``, given every peer's summary); the host peer and the
    program."""
    seat = root / "seat0"
    with peers_in(root) as peers:
        host = peers.start(
            ["host", *table, "--seats", "3", "--player", player, "--headless"], seat
        )
        address = host.address()
        host.wait_for("hosting", 20)
        host.wait_for(r"^controller on 127\.0\.0\.1:\d+, token in ", 20)
        bot = peers.start_program([*program, str(seat)], seat, [player])
        others = [
            peers.start(["bot", "--join", address, "--strategy", name, "--seed", str(number)],
                        root / f"seat{number}")
            for number, name in ((1, "greedy"), (2, "random"))
        ]
        peers.wait_all([host, bot, *others], GAME_SECONDS)
    same_game([peer.result() for peer in (host, *others)])
    return host, bot


def chosen_moves(host: PeerProcess) -> list[str]:
    """The moves the host's seat chose, in order: its moves of the game's audited record
    where it had more than one legal move (the peer plays a seat's only legal move itself)."""
    verdict = verify(load(Path(host.result()["record"])))
    assert verdict.replayed is not None, verdict.lines()
    game = verdict.table.rules.omniscient(verdict.table.spec.rules)
    chosen = []
    for kind, *details in verdict.replayed["events"]:
        if kind in ("deal", "choice"):  # the cards dealt, the seat chosen: the last detail
            game.resolve(details[-1])
        elif kind == "move":  # an "auto" move is played by the omniscient rules themselves
            seat, move = details[:2]  # then, for a hand discarded, the cards it showed
            if seat == 0 and len(game.legal_moves()) > 1:
                chosen.append(move)
            game.play(game.parse_move(move))
    return chosen


def submitted_moves(bot: PeerProcess) -> list[str]:
    """The moves a bot says it submitted (its lines ``> MOVE``), in order."""
    return [line[2:].rstrip("\n") for line in bot.lines if line.startswith("> ")]


def ending(host: PeerProcess) -> str:
    """How an example bot's last line begins, for the host's game: the winners or a draw,
    then how they won, in parentheses."""
    winners = ", ".join(f"seat {seat}" for seat in host.result()["winners"])
    return f"game over: winners {winners} (" if winners else "game over: a draw ("


class _Streaming(controller_pb2_grpc.ControllerServicer):
    """Streams the same updates to every ``Watch``."""

    def __init__(self, updates: Sequence[controller_pb2.Update]) -> None:
        self._updates = updates

    def Watch(
        self, request: controller_pb2.WatchRequest, context: grpc.ServicerContext[Any, Any]
    ) -> Iterator[controller_pb2.Update]:
        yield from self._updates


@contextmanager
def serving_updates(data: Path, updates: Sequence[controller_pb2.Update]) -> Iterator[None]:
    """A stand-in for the controller service of a peer on data directory ``data`` (its
    address and a token written there, as a peer writes them) that streams ``updates`` to
    every ``Watch`` and ends the stream."""
    server = grpc.server(ThreadPoolExecutor(2), options=[("grpc.so_reuseport", 0)])
    controller_pb2_grpc.add_ControllerServicer_to_server(_Streaming(updates), server)
    port = server.add_insecure_port(f"{CONTROLLER_HOST}:0")
    server.start()
    try:
        (data / ADDRESS_FILE).write_text(f"{CONTROLLER_HOST}:{port}\n")
        (data / TOKEN_FILE).write_text("stand-in\n")
        yield
    finally:
        server.stop(grace=None)
