"""The board: the map of Italy with every region's owner, the Favor and the battle, and
below it each seat's regions and what wins; an edition without a board shows the battles won.

Each region is its name and a mark: the owner's letter, ``*`` the Favor, ``·`` nobody's;
``[ ]`` frames the battle's region (or the region under the cursor).
"""

from __future__ import annotations

from dataclasses import dataclass

from condottiere.games.condottiere.board import REGIONS, TEXT_MAP
from condottiere.games.condottiere.screen.choices import chosen_move
from condottiere.games.condottiere.screen.scene import seat_view
from condottiere.games.condottiere.screen.standing import goal, has_board, scores
from condottiere.interface.screen import Line, Scene, SeatShown, fit

__all__ = ["MAP_LINES", "MAP_WIDTH", "board"]

MAP_WIDTH = max(column + len(region) + 3 for region, (_, column) in TEXT_MAP.items())
"""Cells the map of the board needs, with a frame around any region."""
MAP_LINES = max(line for line, _ in TEXT_MAP.values()) + 1


@dataclass(frozen=True)
class _Region:
    """One region of the board as the map draws it."""

    name: str
    owner: SeatShown | None
    favor: bool
    battle: bool
    """The battle is fought there now."""
    choosable: bool
    """This seat may choose it now (to fight there, to place the Favor)."""
    chosen: bool


def _regions(scene: Scene) -> list[_Region]:
    view = seat_view(scene)
    choosable = {move.region for move in view.legal_moves if move.verb in ("battle", "favor")}
    chosen = chosen_move(scene)
    chosen_region = None if chosen is None else chosen.region
    return [
        _Region(
            name=region,
            owner=scene.seats.get(view.control.get(region)),
            favor=view.favor == region,
            battle=view.battle_region == region,
            choosable=region in choosable,
            chosen=region == chosen_region,
        )
        for region in REGIONS
    ]


def board(scene: Scene, width: int, height: int) -> list[Line]:
    """The map with each seat's regions and what wins below it; or the battles won."""
    if not has_board(seat_view(scene)):
        return _battles_won(scene, height)
    canvas: list[Line] = [[] for _ in range(MAP_LINES)]
    columns = [0] * MAP_LINES
    for region in sorted(_regions(scene), key=lambda region: TEXT_MAP[region.name][::-1]):
        line, column = TEXT_MAP[region.name]
        canvas[line].append(("", " " * (column - 1 - columns[line])))
        canvas[line].extend(_region(region))
        columns[line] = column + len(region.name) + 3
    return [*canvas, _scores(scene)][:height]


def _region(region: _Region) -> Line:
    owner = region.owner
    if region.favor:
        mark, mark_style = "*", "class:marker"
    elif owner is not None:
        mark, mark_style = owner.mark, f"class:seat.{owner.seat} bold"
    else:
        mark, mark_style = "·", "class:empty"
    name_style = "" if owner is None else f"class:seat.{owner.seat}"
    if region.chosen:
        name_style += " class:chosen"
    elif region.battle:
        name_style += " class:contest"
    elif region.choosable:
        name_style += " class:choosable"
    framed = region.battle or region.chosen
    left, right = ("[", "]") if framed else (" ", " ")
    return [
        ("class:frame", left),
        (name_style.strip(), region.name),
        ("", " "),
        (mark_style, mark),
        ("class:frame", right),
    ]


def _scores(scene: Scene) -> Line:
    line: Line = [("class:detail", " regions:")]
    for seat, count in scores(scene):
        line.append(("", " "))
        line.append((f"class:seat.{seat.seat} bold", seat.mark))
        line.append(("", f"{count}"))
    line.append(("class:detail", f" · {goal(seat_view(scene))}"))
    return line


def _battles_won(scene: Scene, height: int) -> list[Line]:
    view = seat_view(scene)
    won = scores(scene)
    lines: list[Line] = [[("class:title", " Battles won"), ("class:detail", f"  ({goal(view)})")]]
    needed = max([3, *(count for _, count in won)])
    for seat, count in won:
        name = "you" if seat.you else seat.name
        lines.append(
            [
                ("", "  "),
                (f"class:seat.{seat.seat} bold", seat.mark),
                ("", f" {fit(name, 12):<12} "),
                (f"class:seat.{seat.seat}", "●" * count),
                ("class:empty", "○" * max(0, needed - count)),
                ("", f"  {count}"),
            ]
        )
    lines.append([])
    decks = ", ".join(map(str, view.draw_pile_sizes))
    lines.append([("class:detail", f"  cards left in each deck: {decks}")])
    lines.append([("class:detail", f"  out of the game: {view.out_of_game} cards")])
    return lines[:height]
