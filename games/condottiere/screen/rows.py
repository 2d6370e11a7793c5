"""The battle: its title (where, the season), every seat's row with its cards in hand and its
strength, and why a row is worth what it is (the engine's breakdown, step by step).

>>> row_text(("drummer", "10", "heroine"), 12)
'Drm 10 Her'
"""

from __future__ import annotations

from condottiere.games.condottiere.cards import card_name
from condottiere.games.condottiere.screen.scene import game_of, seat_view
from condottiere.interface.screen import Explanation, Line, Scene, cells, fit

__all__ = ["SHORT_NAMES", "battle_name", "explain", "row_text", "rows"]

SHORT_NAMES = {
    "heroine": "Her", "spy": "Spy", "courtesan": "Crt", "drummer": "Drm", "winter": "Win",
    "spring": "Spr", "bishop": "Bsh", "scarecrow": "Scr", "turncoat": "Trn", "surrender": "Sur",
}
"""Three letters per special card, for rows too long to spell out."""


def _final(scene: Scene) -> bool:
    game = game_of(scene)
    return game is not None and game.final_battle


def battle_name(scene: Scene) -> str:
    """``the battle for Firenze``, ``the final battle``, ``the battle``; empty when no
    battle is under way (or, once the game is over, was the last)."""
    view = seat_view(scene)
    if view.phase not in ("battle", "favor", "over"):
        return ""
    if _final(scene):
        return "the final battle"
    region = view.battle_region
    return "the battle" if region is None else f"the battle for {region}"


def _title(scene: Scene) -> str:
    """The title over the rows: the battle under way (or the last, once the game is over),
    and the season."""
    view = seat_view(scene)
    title = "No battle under way"
    if battle_name(scene):
        title = view.battle_region or ("Final battle" if _final(scene) else "Battle")
        if view.phase == "over":
            title = f"The last battle: {title}"
        elif view.battle_region is not None:
            title = f"Battle for {title}"
    if view.season is not None:
        title += f" · {card_name(view.season)}"
    return title


def rows(scene: Scene, width: int, height: int) -> list[Line]:
    """A title (the battle, the season), then every seat: whose turn it is (``>``), its
    mark and name, cards in hand, strength and battle row."""
    view = seat_view(scene)
    title = _title(scene)
    name_width = max(6, min(12, width - 28))
    lines: list[Line] = [
        [("class:title", " " + fit(title, width - 1))],
        [("class:detail", f"   {'':<{name_width}} hand str row")],
    ]
    for seat in scene.seats:
        number = seat.seat
        if number >= view.players:
            continue
        passed = view.phase == "battle" and number in view.passed
        name = "you" if seat.you else seat.name
        prefix = (
            f"{fit(name, name_width):<{name_width}} {view.hand_sizes[number]:>4}"
            f" {view.strengths[number]:>3} "
        )
        room = width - 3 - cells(prefix) - (7 if passed else 0)
        style = f"class:seat.{number}"
        line: Line = [
            ("class:turn", ">") if view.to_act == number else ("", " "),
            (f"{style} bold", seat.mark),
            ("", " "),
            ("class:you" if seat.you else "", prefix),
            (style, row_text(view.rows[number], room)),
        ]
        if passed:
            line.append(("class:detail", " passed"))
        if seat.link is not None:
            line.append(("class:alert", " no link"))
        lines.append(line)
    return lines[:height]


def row_text(cards: tuple[str, ...], room: int) -> str:
    """A row's cards by name, or abbreviated (and cut) to fit ``room`` cells."""
    full = " ".join(card_name(card) for card in cards)
    if cells(full) <= room:
        return full
    return fit(" ".join(SHORT_NAMES.get(card, card) for card in cards), room)


def explain(scene: Scene, seat: int, width: int) -> Explanation:
    """Why ``seat``'s row is worth what it is: its cards, then each step of its strength."""
    view = seat_view(scene)
    steps = view.breakdowns[seat] if 0 <= seat < len(view.breakdowns) else ()
    shown = scene.seats.get(seat)
    whose = "your" if shown is not None and shown.you else f"{scene.seats.who(seat)}'s"
    total = steps[-1].total if steps else 0
    lines: list[Line] = []
    if 0 <= seat < view.players:
        cards = " ".join(card_name(card) for card in view.rows[seat]) or "no cards"
        lines.append([("class:detail", fit(f"   row: {cards}", width))])
    for step in steps:
        label = fit(step.label, width - 12)
        lines.append([("", f"   {label:<{max(len(label), min(40, width - 12))}} "),
                      ("class:strength", f"{step.total:>4}")])
    return Explanation(f"Why is {whose} row worth {total}?", tuple(lines))
