"""A short chaos run: bot games between peer processes in which a random peer is killed with
``kill -9`` at a random moment and restarted, once with a peer's connections cut for a while
as well; every game finishes, every peer with the same state and record hash, and the record
verifies. (The 50-game run is ``scripts/chaos.py``.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.peer.chaos import can_cut, play_chaos_game


@pytest.mark.parametrize(
    ("index", "seed", "cut"),
    [(0, 8, False), (1, 0, True)],
    ids=["killed-at-move-14", "killed-in-the-deal-and-cut"],
)
def test_a_game_with_a_peer_killed_and_restarted_ends_the_same_on_every_peer(
    tmp_path: Path, index: int, seed: int, cut: bool
) -> None:
    if cut and not can_cut():
        pytest.skip("cutting connections needs root and ss -K")
    game = play_chaos_game(tmp_path, index, cut=cut, seed=seed)
    assert not game.problem, f"{game}\n{game.outputs}"
    assert game.same_end and game.fair and game.restarted
    if cut:
        assert game.sockets_cut > 0
