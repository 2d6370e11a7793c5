"""Where each seat stands: regions held (battles won, in an edition without a board), what
wins the game, and the standing told at the end.

>>> from condottiere.games.condottiere import Game
>>> view = Game.new("zman-duel", players=2, seed=5).view(0)
>>> goal(view), has_board(view)
('first to 3 battles wins', False)
"""

from __future__ import annotations

from condottiere.games.condottiere.editions import EDITIONS
from condottiere.games.condottiere.game import SeatView
from condottiere.games.condottiere.screen.scene import seat_view
from condottiere.interface.screen import Scene, SeatShown

__all__ = ["goal", "has_board", "scores", "standing"]


def has_board(view: SeatView) -> bool:
    """True when the edition is played on the map (else it counts battles won)."""
    return EDITIONS[view.edition].board


def scores(scene: Scene) -> tuple[tuple[SeatShown, int], ...]:
    """Per seat: regions controlled (battles won, without a board)."""
    view = seat_view(scene)
    return tuple(
        (seat, view.battles_won[seat.seat])
        for seat in scene.seats
        if seat.seat < len(view.battles_won)
    )


def goal(view: SeatView) -> str:
    """What wins the game, in a few words."""
    edition = EDITIONS[view.edition]
    victory = edition.victory(view.players)
    if not edition.board:
        return f"first to {victory.connected} battles wins"
    total = "" if victory.total is None else f" or {victory.total}"
    return f"win: {victory.connected} connected{total}"


def standing(scene: Scene) -> tuple[str, ...]:
    """Each seat's regions (battles won, without a board), the winners' regions named."""
    view = seat_view(scene)
    board = has_board(view)
    parts = []
    for seat, count in scores(scene):
        part = f"{'you' if seat.you else seat.name} {count}"
        held = sorted(region for region, owner in view.control.items() if owner == seat.seat)
        if board and seat.seat in view.winners and held:
            part += f" ({', '.join(held)})"
        parts.append(part)
    return (f"{'Regions' if board else 'Battles won'}: {', '.join(parts)}.",)
