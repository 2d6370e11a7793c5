"""How each part of the screen draws the model: lines of styled text for a given size.

Every function here takes the :class:`~condottiere.cli.client.model.TableModel` and the size it may
use and returns at most ``height`` lines, each at most ``width`` cells wide (a line is a list of
``(style, text)`` pairs, as prompt_toolkit draws them). Styles are class names
(``class:seat.2``, ``class:turn``); :mod:`condottiere.cli.client.style` gives them colours, or none.
Nothing here knows about keys or the event loop, so the drawing is tested on its own.
"""

from __future__ import annotations

import textwrap

from prompt_toolkit.utils import get_cwidth

from condottiere.cli.client.model import Banner, Ending, RegionMark, TableModel, Tone
from condottiere.games.condottiere.board import TEXT_MAP
from condottiere.games.condottiere.cards import card_name

__all__ = [
    "MAP_WIDTH",
    "Line",
    "banner_lines",
    "board_lines",
    "fit",
    "hand_lines",
    "help_lines",
    "log_lines",
    "placeholder",
    "plain",
    "rows_lines",
    "status_line",
]

Line = list[tuple[str, str]]

MAP_WIDTH = max(column + len(region) + 3 for region, (_, column) in TEXT_MAP.items())
"""Cells the map of the board needs, with a frame around any region."""
MAP_LINES = max(line for line, _ in TEXT_MAP.values()) + 1
SHORT_NAMES = {
    "heroine": "Her", "spy": "Spy", "courtesan": "Crt", "drummer": "Drm", "winter": "Win",
    "spring": "Spr", "bishop": "Bsh", "scarecrow": "Scr", "turncoat": "Trn", "surrender": "Sur",
}  # fmt: skip
"""Three letters per special card, for rows too long to spell out."""

KEYS_BATTLE = "1-9/←→ choose · Enter play · Space pass · Tab moves · ↑↓ why · ^T chat · ? help"
KEYS_TURN = "←→ choose · Enter play · Tab moves · ↑↓ why a row is worth what · ^T chat · ? help"
KEYS_WAIT = "type a move or 'say TEXT' · ↑↓ why a row is worth what · ^T chat · ? help · ^C stop"
KEYS_OVER = "q leave · PgUp/PgDn log · ? help"

HELP_KEYS = (
    "Keys",
    "  Type a move and press Enter: play 10 · play scarecrow 5 · battle Firenze · pass ·"
    " favor Roma · discard · keep · retain 10 heroine. Tab completes from the moves you may"
    " make now; a move the rules refuse is shown with the reason, and nothing changes.",
    "  With the command line empty: 1-9 choose a card of your hand, ←/→ move along the"
    " choices (cards, regions, pass), Space chooses pass; Enter plays what the line says.",
    "  ↑/↓ explain a seat's strength step by step (why is this row 23?); Esc closes it.",
    "  Ctrl-T or 'say TEXT' chats with the table. PgUp/PgDn scroll the log.",
    "  Ctrl-C stops this client; the game is saved: run the same command again to take it up.",
    "  'why N' explains seat N's row; 'help' or ? shows this page; q or Esc closes it.",
    "",
    "The screen",
    "  Top: what happens now, and for how long the table has waited. Left: the board; each"
    " region shows its owner's letter, * the Favor, [ ] the battle. Right: every battle row"
    " with its strength; > marks whose turn it is. Below: your hand (bold: playable now),"
    " then the game's log.",
    "",
    "Rules",
)


def plain(lines: list[Line]) -> str:
    """The text of ``lines`` without styles (tests, and screens captured as text)."""
    return "\n".join("".join(text for _, text in line).rstrip() for line in lines)


def fit(text: str, width: int) -> str:
    """``text`` cut to ``width`` cells, ending in ``…`` when it was longer."""
    if get_cwidth(text) <= width:
        return text
    if width <= 0:
        return ""
    cut = ""
    for char in text:
        if get_cwidth(cut + char) > width - 1:
            break
        cut += char
    return cut + "…"


def _crop(line: Line, width: int) -> Line:
    """``line`` cut to ``width`` cells."""
    cropped: Line = []
    left = width
    for style, text in line:
        if left <= 0:
            break
        part = text if get_cwidth(text) <= left else fit(text, left)
        cropped.append((style, part))
        left -= get_cwidth(part)
    return cropped


def _wrap(text: str, width: int, indent: str = "  ") -> list[str]:
    return textwrap.wrap(text, max(width, 8), subsequent_indent=indent) or [""]


def _clock(seconds: float) -> str:
    minutes, seconds = divmod(int(seconds), 60)
    return f"{minutes}:{seconds:02d}"


# ---------------------------------------------------------------------- banner


def banner_lines(model: TableModel, width: int, height: int = 2) -> list[Line]:
    """What happens now (the headline, with how long the table has waited), and a line of
    detail or the progress of a shuffle or a deal."""
    banner = model.banner()
    waited = model.waited(banner)
    clock = "" if waited is None or waited < 1 else f" waiting {_clock(waited)}"
    if banner.tone is Tone.TURN and clock:
        clock = f" {_clock(waited or 0)}"
    style = f"class:banner.{banner.tone.value}"
    headline = fit(banner.headline, width - get_cwidth(clock) - 2)
    gap = " " * max(1, width - get_cwidth(headline) - get_cwidth(clock) - 1)
    lines: list[Line] = [[(style, " " + headline), ("", gap), ("class:clock", clock)]]
    lines.append(_detail(banner, width))
    return [_crop(line, width) for line in lines[:height]]


def _detail(banner: Banner, width: int) -> Line:
    if banner.progress is None:
        return [("class:detail", " " + fit(banner.detail, width - 1))]
    done, total = banner.progress
    bar_width = max(10, min(30, width // 4))
    filled = 0 if total <= 0 else min(bar_width, bar_width * done // total)
    count = f" {done}/{total} "
    text = fit(banner.detail, width - bar_width - len(count) - 3)
    return [
        ("", " "),
        ("class:progress.done", "█" * filled),
        ("class:progress.todo", "░" * (bar_width - filled)),
        ("class:detail", count + text),
    ]


# ---------------------------------------------------------------------- board


def board_lines(model: TableModel, width: int, height: int) -> list[Line]:
    """The map of the board with every region's owner, the Favor and the battle; below it,
    each seat's regions and what wins. An edition without a board shows battles won."""
    regions = model.regions()
    if not regions:
        return _battles_won(model, width, height)
    canvas: list[Line] = [[] for _ in range(MAP_LINES)]
    columns = [0] * MAP_LINES
    for region in sorted(regions, key=lambda r: TEXT_MAP[r.name][::-1]):
        line, column = TEXT_MAP[region.name]
        canvas[line].append(("", " " * (column - 1 - columns[line])))
        canvas[line].extend(_region(region))
        columns[line] = column + len(region.name) + 3
    lines = [*canvas, _scores(model)]
    return [_crop(line, width) for line in lines[:height]]


def _region(region: RegionMark) -> Line:
    owner = region.owner
    if region.favor:
        mark, mark_style = "*", "class:favor"
    elif owner is not None:
        mark, mark_style = owner.mark, f"class:seat.{owner.seat} bold"
    else:
        mark, mark_style = "·", "class:empty"
    name_style = "class:region" if owner is None else f"class:seat.{owner.seat}"
    if region.chosen:
        name_style += " class:chosen"
    elif region.battle:
        name_style += " class:battle"
    elif region.choosable:
        name_style += " class:choosable"
    framed = region.battle or region.chosen
    left, right = ("[", "]") if framed else (" ", " ")
    return [
        ("class:frame", left),
        (name_style, region.name),
        ("", " "),
        (mark_style, mark),
        ("class:frame", right),
    ]


def _scores(model: TableModel) -> Line:
    line: Line = [("class:detail", " regions:")]
    for info, count in model.scores():
        line.append(("", " "))
        line.append((f"class:seat.{info.seat} bold", info.mark))
        line.append(("", f"{count}"))
    line.append(("class:detail", f" · {model.goal()}"))
    return line


def _battles_won(model: TableModel, width: int, height: int) -> list[Line]:
    view = model.view
    lines: list[Line] = [[("class:title", " Battles won"), ("class:detail", f"  ({model.goal()})")]]
    needed = 0 if view is None else max(3, *(count for _, count in model.scores()))
    for info, count in model.scores():
        name = "you" if info.you else info.name
        lines.append(
            [
                ("", "  "),
                (f"class:seat.{info.seat} bold", info.mark),
                ("", f" {fit(name, 12):<12} "),
                (f"class:seat.{info.seat}", "●" * count),
                ("class:empty", "○" * max(0, needed - count)),
                ("", f"  {count}"),
            ]
        )
    if view is not None:
        lines.append([])
        decks = ", ".join(map(str, view.draw_pile_sizes))
        lines.append([("class:detail", f"  cards left in each deck: {decks}")])
        lines.append([("class:detail", f"  out of the game: {view.out_of_game} cards")])
    return [_crop(line, width) for line in lines[:height]]


# ---------------------------------------------------------------------- rows


def rows_lines(model: TableModel, width: int, height: int) -> list[Line]:
    """A title (the battle, the season), then every seat: whose turn it is (``>``), its
    letter and name, cards in hand, strength and battle row."""
    view = model.view
    title = "No battle under way"
    if view is not None and (model.battle_name() or view.phase == "over"):
        final = model.game is not None and model.game.final_battle
        title = view.battle_region or ("Final battle" if final else "Battle")
        if view.phase == "over":
            title = f"The last battle: {title}" if model.battle_name() else "The end"
        elif view.battle_region is not None:
            title = f"Battle for {title}"
    if view is not None and view.season is not None:
        title += f" · {card_name(view.season)}"
    name_width = max(6, min(12, width - 28))
    lines: list[Line] = [
        [("class:title", " " + fit(title, width - 1))],
        [("class:detail", f"   {'':<{name_width}} hand str row")],
    ]
    for row in model.rows():
        info = row.seat
        name = "you" if info.you else info.name
        prefix = f"{fit(name, name_width):<{name_width}} {row.hand_size:>4} {row.strength:>3} "
        room = width - 3 - get_cwidth(prefix) - (7 if row.passed else 0)
        style = f"class:seat.{info.seat}"
        line: Line = [
            ("class:turn", ">") if row.to_act else ("", " "),
            (f"{style} bold", info.mark),
            ("", " "),
            ("class:you" if info.you else "", prefix),
            (style, _row_text(row.cards, room)),
        ]
        if row.passed:
            line.append(("class:detail", " passed"))
        if info.link is not None:
            line.append(("class:alert", " no link"))
        lines.append(line)
    return [_crop(line, width) for line in lines[:height]]


def _row_text(cards: tuple[str, ...], room: int) -> str:
    full = " ".join(card_name(card) for card in cards)
    if get_cwidth(full) <= room:
        return full
    return fit(" ".join(SHORT_NAMES.get(card, card) for card in cards), room)


# ---------------------------------------------------------------------- hand


def hand_lines(model: TableModel, width: int, height: int = 2) -> list[Line]:
    """This seat's cards (bold: may be played now; reversed: under the cursor), each with the
    number that chooses it."""
    hand = model.hand()
    view = model.view
    line: Line = [("class:title", f" Hand ({0 if view is None else len(view.hand)}) ")]
    if view is None:
        line.append(("class:detail", "dealt once the deck is shuffled"))
    elif not hand:
        line.append(("class:detail", "no cards"))
    for entry in hand:
        style = "class:card"
        if entry.playable:
            style += " class:playable"
        if entry.chosen:
            style += " class:chosen"
        cards = " ".join([card_name(entry.card)] * entry.count)
        line.append(("class:key", f" {entry.key}" if entry.key else " "))
        line.append((style, f"[{cards}]"))
    return [_crop(line, width) for line in _flow(line, width)[:height]]


def _flow(line: Line, width: int) -> list[Line]:
    """``line`` broken into lines of ``width`` cells, between its fragments (a key and the
    card after it stay together)."""
    lines: list[Line] = [[]]
    used = 0
    pairs = [line[:1], *(line[index : index + 2] for index in range(1, len(line), 2))]
    for pair in pairs:
        size = sum(get_cwidth(text) for _, text in pair)
        if used + size > width and lines[-1]:
            lines.append([("", " ")])
            used = 1
        lines[-1].extend(pair)
        used += size
    return lines


# ---------------------------------------------------------------------- log, why, end


def log_lines(model: TableModel, width: int, height: int) -> list[Line]:
    """The lower pane: the end of the game once it is over, the breakdown of a seat's
    strength when asked for, the game's log otherwise (its last lines, or scrolled back)."""
    ending = model.ending()
    if ending is not None:
        lines = _ending(model, ending, width)
    elif model.why is not None:
        lines = _why(model, model.why, width)
    else:
        lines = []
    room = height - len(lines)
    if room > 1:
        log = _log(model, width)
        end = max(0, len(log) - model.scroll) if not lines else len(log)
        shown = log[max(0, end - room) : end]
        if lines and shown:
            lines.append([("class:rule", "─" * width)])
            shown = shown[-(room - 1) :]
        lines.extend(shown)
    return [_crop(line, width) for line in lines[:height]]


def _log(model: TableModel, width: int) -> list[Line]:
    lines: list[Line] = []
    you = model.snapshot.seat if model.snapshot is not None else None
    for entry in model.log():
        style = f"class:log.{entry.kind}"
        if entry.kind == "move" and entry.seat is not None and entry.seat == you:
            style += " class:you"
        for text in _wrap(entry.text, width - 1, "    "):
            lines.append([(style, " " + text)])
    return lines


def _why(model: TableModel, seat: int, width: int) -> list[Line]:
    steps = model.breakdown(seat)
    info = model.seat(seat)
    whose = "your" if info is not None and info.you else f"{model.who(seat)}'s"
    total = steps[-1].total if steps else 0
    lines: list[Line] = [
        [("class:title", fit(f" Why is {whose} row worth {total}?", width - 26)),
         ("class:detail", "   ↑↓ another seat · Esc close")],
    ]  # fmt: skip
    rows = model.rows()
    row = next((r for r in rows if r.seat.seat == seat), None)
    if row is not None:
        cards = " ".join(card_name(card) for card in row.cards) or "no cards"
        lines.append([("class:detail", fit(f"   row: {cards}", width))])
    for step in steps:
        label = fit(step.label, width - 12)
        lines.append([("", f"   {label:<{max(len(label), min(40, width - 12))}} "),
                      ("class:strength", f"{step.total:>4}")])  # fmt: skip
    return lines


def _ending(model: TableModel, ending: Ending, width: int) -> list[Line]:
    lines: list[Line] = [[("class:banner.over", f" {ending.title}")]]
    for text in ending.lines:
        lines.extend([("", " " + part)] for part in _wrap(text, width - 1, "   "))
    if ending.record is not None:
        lines.append([("", " The record of every signed entry is kept; check it yourself with:")])
        lines.append([("class:command", fit(f"   condottiere verify {ending.record}", width))])
    else:
        lines.append([("class:detail", " Writing the record...")])
    if ending.record_hash:
        lines.append([("class:detail", fit(f" Record hash: {ending.record_hash}", width))])
    return lines


def help_lines(model: TableModel, width: int, height: int) -> list[Line]:
    """The help page: the keys, the screen, and the rules summary of the edition played."""
    texts = [*HELP_KEYS, *(f"  {rule}" for rule in model.rules())]
    lines: list[Line] = [
        [("class:title", " Help"), ("class:detail", "  (↑↓ PgUp PgDn scroll · Esc or ? close)")]
    ]
    for text in texts:
        style = "class:title" if text and not text.startswith(" ") else ""
        indent = "    " if text.startswith("  ") else ""
        lines.extend([(style, " " + part)] for part in _wrap(text, width - 2, indent))
    top = min(model.scroll, max(0, len(lines) - height))
    return [_crop(line, width) for line in lines[top : top + height]]


# ---------------------------------------------------------------------- status


def placeholder(model: TableModel) -> str:
    """What the empty command line invites to do."""
    if model.ending() is not None:
        return "the game is over: q leaves"
    if model.snapshot is not None and model.snapshot.my_turn:
        return "your move: type it (Tab lists them), or use the keys below"
    return "type a move when it is your turn, or 'say' something"


def status_line(model: TableModel, width: int) -> Line:
    """The answer to the last thing typed; or what Enter would play (the choice on the
    command line) and what it would do; or the keys that matter now."""
    message = model.message
    if message is not None:
        style = "class:alert" if message.error else "class:detail"
        return [(style, " " + fit(message.text, width - 1))]
    suggestion = model.suggestion()
    if suggestion is not None:
        effect = model.effect(suggestion)
        text = f"Enter: {suggestion}" + (f" ({effect})" if effect else "")
        if get_cwidth(text + " · Esc: cancel") < width:
            text += " · Esc: cancel"
        return [("class:command", " " + fit(text, width - 1))]
    if model.ending() is not None:
        keys = KEYS_OVER
    elif model.snapshot is not None and model.snapshot.my_turn:
        keys = KEYS_BATTLE if "pass" in model.choices() else KEYS_TURN
    else:
        keys = KEYS_WAIT
    return [("class:hint", " " + fit(keys, width - 1))]
