"""A seat's view of Condottiere as the controller service sends it: the game's part of the
wire ``View`` (``condottiere.games.condottiere.v1.CondottiereView``, defined in this folder's
``view.proto``).

>>> from condottiere.games.condottiere import Game
>>> message = view_message(Game.new("zman-duel", players=2, seed=3).view(0))
>>> len(message.hand), [row.hand_size for row in message.rows]
(8, [8, 8])
"""

from __future__ import annotations

from condottiere.games.condottiere import view_pb2
from condottiere.games.condottiere.game import SeatView

__all__ = ["view_message"]


def view_message(view: SeatView) -> view_pb2.CondottiereView:
    """``view`` as the controller's wire message."""
    rows = [
        view_pb2.BattleRow(
            cards=row,
            hand_size=view.hand_sizes[seat],
            passed=seat in view.passed,
            strength=view.strengths[seat],
            breakdown=[
                view_pb2.StrengthStep(label=step.label, total=step.total)
                for step in view.breakdowns[seat]
            ],
        )
        for seat, row in enumerate(view.rows)
    ]
    return view_pb2.CondottiereView(
        hand=view.hand,
        rows=rows,
        control=view.control,
        favor=view.favor or "",
        battle_region=view.battle_region or "",
        battle_marker=view.battle_marker,
        season=view.season or "",
        discard_pile=view.discard_pile,
        draw_pile_sizes=view.draw_pile_sizes,
        out_of_game=view.out_of_game,
        battles_won=view.battles_won,
    )
