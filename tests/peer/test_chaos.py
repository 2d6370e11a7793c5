"""A short chaos run: bot games between peer processes in which a random peer is killed with
``kill -9`` at a random moment and restarted, once with a peer's connections cut for a while
as well; every game finishes, every peer with the same state and record hash, and the record
verifies. (The 50-game run is ``scripts/chaos.py``.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.peer.chaos import can_cut, play_chaos_game


@pytest.mark.parametrize("cut", [False, True], ids=["killed", "killed-and-cut"])
def test_a_game_with_a_peer_killed_and_restarted_ends_the_same_on_every_peer(
    tmp_path: Path, cut: bool
) -> None:
    if cut and not can_cut():
        pytest.skip("cutting connections needs root and ss -K")
    game = play_chaos_game(tmp_path, index=0, cut=cut, seed=7 if cut else 3)
    assert not game.problem, f"{game}\n{game.outputs}"
    assert game.same_end and game.fair
    assert game.restarted or game.kill_at > 0
    if cut:
        assert game.cut is not None
