"""How each part of the screen draws the model: lines of styled text for a given size.

Every function here takes the :class:`~condottiere.cli.client.model.TableModel` and the size it
may use and returns lines (a line is a list of ``(style, text)`` pairs, as prompt_toolkit
draws them; the layout cuts what does not fit). The shell draws what every game shares (what
happens now, the lobby, the log, the end, the help, the command line's hints) and asks the
game's screen for the board, the rows, the hand and why a row is worth what it is. Styles are
class names (``class:seat.2``, ``class:turn``); :mod:`condottiere.cli.client.style` gives them
colours, or none. Nothing here knows about keys or the event loop, so the drawing is tested on
its own.
"""

from __future__ import annotations

import textwrap

from condottiere.cli.client.model import Banner, Ending, Presence, TableModel, Tone
from condottiere.interface.screen import Line, cells, fit

__all__ = [
    "banner_lines",
    "board_lines",
    "hand_lines",
    "help_lines",
    "lobby_lines",
    "log_lines",
    "placeholder",
    "plain",
    "rows_lines",
    "status_line",
]

KEYS_TURN = ("←→ choose", "Enter play", "Tab moves", "↑↓ why a row is worth what", "? help",
             "^T chat")
KEYS_WAIT = ("type a move or 'say TEXT'", "↑↓ why a row is worth what", "? help", "^T chat")
KEYS_WATCH = ("watching, without a seat", "↑↓ why a row is worth what", "PgUp/PgDn log",
              "? help")
KEYS_ASKED = ("↑↓ pick who asks", "←→ admit/refuse", "Enter send",
              "or type 'admit NAME'", "? help")
KEYS_STOP = "^C stop"
"""Always shown while the game goes on, after the keys that fit."""
KEYS_OVER = "q leave · PgUp/PgDn log · ? help"
DEALT_LATER = "dealt once the deck is shuffled"

HELP = (
    "Keys",
    "  Type a move and press Enter. Tab completes from the moves you may make now, each with"
    " what it would do; a move the rules refuse is shown with the reason, and nothing"
    " changes: it stays on the line, where typing replaces it and Backspace or the arrows"
    " edit it.",
    "  With the command line empty: ←/→ move along the choices; Enter plays what the line"
    " says. ↑/↓ explain a seat's row step by step (why is this row 23?); Esc closes it.",
    "  Ctrl-T or 'say TEXT' chats with the table. PgUp/PgDn scroll the log.",
    "  Ctrl-C stops this client; the game is saved: run the same command again to take it up.",
    "  'why N' explains seat N's row; 'help' or ? shows this page; q or Esc closes it.",
    "",
    "Who sits at your table",
    "  At a table you created (unless 'play --open' seats the first who ask), each player who"
    " asks for a seat is a row of the lobby marked 'asks for a seat', with the key's"
    " fingerprint: compare it aloud with the one on their screen. 'admit NAME' seats them,"
    " 'refuse NAME' never does (NAME: their name, or their fingerprint when two share a"
    " name). Or, with the command line empty, ↑/↓ pick a row that asks and put 'admit"
    " FINGERPRINT' on the line, ←/→ turn it into 'refuse' and back, and Enter sends it. What"
    " was decided goes in the log; an answer the table cannot take changes nothing and says"
    " why.",
    "",
    "The screen",
    "  Top: what happens now, and for how long the table has waited. In the middle: the"
    " board, every seat's row, and your hand below them. Then the game's log, the command"
    " line, and the keys that matter now.",
    "",
)
"""The help page's part that every game shares; the game's own part follows it."""


def plain(lines: list[Line]) -> str:
    """The text of ``lines`` without styles (tests, and screens captured as text)."""
    return "\n".join("".join(text for _, text in line).rstrip() for line in lines)


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
    if banner.deadline is not None and waited is not None:
        left = max(0.0, banner.deadline - waited)
        clock += f" ({_clock(left)} left)" if left else " (deadline passed)"
    style = f"class:banner.{banner.tone.value}"
    headline = fit(banner.headline, width - cells(clock) - 2)
    gap = " " * max(1, width - cells(headline) - cells(clock) - 1)
    lines: list[Line] = [[(style, " " + headline), ("", gap), ("class:clock", clock)]]
    lines.append(_detail(banner, width))
    return lines[:height]


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


# ---------------------------------------------------------------------- the game's panels


def board_lines(model: TableModel, width: int, height: int) -> list[Line]:
    """The game's board (nothing before the game begins)."""
    scene, screen = model.scene(), model.screen()
    return [] if scene is None or screen is None else screen.board(scene, width, height)


def rows_lines(model: TableModel, width: int, height: int) -> list[Line]:
    """Every seat's row, as the game draws it (nothing before the game begins)."""
    scene, screen = model.scene(), model.screen()
    return [] if scene is None or screen is None else screen.rows(scene, width, height)


def hand_lines(model: TableModel, width: int, height: int = 2) -> list[Line]:
    """This seat's hand, as the game draws it; before the game begins, when it comes."""
    scene, screen = model.scene(), model.screen()
    if scene is None or screen is None:
        return [[("class:title", " Hand (0) "), ("class:detail", DEALT_LATER)]]
    return screen.hand(scene, width, height)


# ---------------------------------------------------------------------- lobby

PRESENCE_STYLES = {
    Presence.JOINED: "class:detail",
    Presence.READY: "class:turn",
    Presence.NOT_READY: "class:alert",
    Presence.ASKING: "class:command",
    Presence.WAITING: "class:detail",
    Presence.LET_IN: "class:command",
    Presence.REFUSED: "class:alert",
}


def lobby_lines(model: TableModel, width: int, height: int) -> list[Line]:
    """Before the game begins (while the table fills), in place of the board: the table (its
    name, game, edition and house rules), everyone at it with the fingerprint of their key
    (for people to compare aloud) and where they stand (joined, ready or not, asking this
    player, the table's creator, for a seat: the row the keys picked shown reversed), each
    seat freed for another player and why, the seats still free, and the exact commands
    others join with, by the table's name and by this peer's address."""
    lobby = model.lobby()
    if lobby is None:
        return []
    held = model.answering()
    lines: list[Line] = [
        [("class:title", " " + fit(lobby.title, width - 1))],
        [("class:detail", " " + fit(lobby.rules, width - 1))],
        [("class:detail", "   seat   player           key fingerprint (compare it aloud)")],
    ]
    for row in lobby.rows:
        shown = model.seat(row.seat)
        seat = "-" if row.seat is None else str(row.seat)
        mark = ("", " ") if shown is None else (f"class:seat.{shown.seat} bold", shown.mark)
        name = fit(row.name + (" (you)" if row.you else ""), 16)
        style = PRESENCE_STYLES[row.presence]
        presence, picked = row.presence.value, ""
        if held is not None and held[1] == row:
            presence, picked = f"{presence}: {held[0].value}?", " reverse"
        lines.append([("", f"   {seat:<4} "), mark, (picked, f" {name:<16} "),
                      (picked, f"{row.fingerprint:<26}"), (style + picked, presence)])
    for words in lobby.freed:
        lines.append([("class:alert", " " + fit(f"  ·      freed: {words}", width - 1))])
    if lobby.free:
        free = "1 seat free" if lobby.free == 1 else f"{lobby.free} seats free"
        lines.append([("class:empty", f"   ·      {free}: waiting for players to join")])
    for how, command in lobby.join:
        label = f" Join {how}: ".ljust(18)
        lines.append([("", label), ("class:command", fit(command, width - len(label)))])
    return lines[:height]


# ---------------------------------------------------------------------- log, why, end


def log_lines(model: TableModel, width: int, height: int) -> list[Line]:
    """The lower pane: the end of the game once it is over, why a seat's row is worth what
    it is when asked for, the table's log otherwise (its last lines, or scrolled back)."""
    ending = model.ending()
    if ending is not None:
        lines = _ending(ending, width)
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
    return lines[:height]


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
    scene, screen = model.scene(), model.screen()
    if scene is None or screen is None:
        return []
    explanation = screen.explain(scene, seat, width)
    title: Line = [
        ("class:title", fit(f" {explanation.title}", width - 26)),
        ("class:detail", "   ↑↓ another seat · Esc close"),
    ]
    return [title, *explanation.lines]


def _ending(ending: Ending, width: int) -> list[Line]:
    lines: list[Line] = [[("class:banner.over", f" {ending.title}")]]
    for text in ending.lines:
        lines.extend([("", " " + part)] for part in _wrap(text, width - 1, "   "))
    if ending.record is not None:
        label, command = " The record is kept; check it yourself: ", "condottiere verify"
        path = _command_lines(ending.record, width)
        if cells(label + command) + cells(path[0]) - 2 <= width and len(path) == 1:
            lines.append([("", label), ("class:command", f"{command} {ending.record}")])
        else:
            lines.append([("", label), ("class:command", command)])
            lines.extend([("class:command", part)] for part in path)
    else:
        lines.append([("class:detail", " Writing the record...")])
    if ending.record_hash:
        lines.append([("class:detail", fit(f" Record hash: {ending.record_hash}", width))])
    return lines


def _command_lines(text: str, width: int) -> list[str]:
    """Words to type (a command, a path), indented, whole: broken between words, or inside
    a word longer than a line, over as many lines as it takes rather than cut.

    >>> _command_lines("/home/ada/records/game.cdr", 16)
    ['   /home/ada/rec', '   ords/game.cdr']
    """
    room = max(8, width - 3)
    lines: list[str] = []
    for word in text.split(" "):
        if lines and cells(lines[-1]) + 1 + cells(word) <= room:
            lines[-1] += " " + word
            continue
        while cells(word) > room:
            lines.append(word[:room])
            word = word[room:]
        lines.append(word)
    return ["   " + line for line in lines]


def help_lines(model: TableModel, width: int, height: int) -> list[Line]:
    """The help page: the top lines in full (what happens now, which the screen's width may
    cut), the game's own part (what the phase under way is about, its moves, its board, the
    rules of the table), then the client's keys and screen."""
    lines: list[Line] = [
        [("class:title", " Help"), ("class:detail", "  (↑↓ PgUp PgDn scroll · Esc or ? close)")]
    ]
    banner = model.banner()
    now = [f"  {part}" for part in (banner.headline, banner.detail) if part]
    for text in ("Now (the top lines in full)", *now, "", *model.game_help(), "", *HELP):
        style = "class:title" if text and not text.startswith(" ") else ""
        indent = "    " if text.startswith("  ") else ""
        lines.extend([(style, " " + part)] for part in _wrap(text, width - 2, indent))
    top = min(model.scroll, max(0, len(lines) - height))
    return lines[top : top + height]


# ---------------------------------------------------------------------- status


def placeholder(model: TableModel) -> str:
    """What the empty command line invites to do."""
    if model.hint is not None:
        return "nothing to type here"
    if model.ending() is not None:
        return "the game is over: q leaves"
    if model.watching:
        return "you are watching: nothing to type (Ctrl-C leaves)"
    if model.asking():
        return "someone asks for a seat: 'admit NAME' or 'refuse NAME' (or ↑↓ ←→ Enter)"
    if model.my_turn:
        return "your move: type it (Tab lists them), or use the keys below"
    return "type a move when it is your turn, or 'say' something"


def _keys(model: TableModel, width: int) -> str:
    """The keys that matter now, the most useful first, as many as fit ``width`` (and how to
    stop, while the game goes on)."""
    if model.ending() is not None:
        return KEYS_OVER
    keys: tuple[str, ...]
    if model.watching:
        keys = KEYS_WATCH
    elif model.asking():
        keys = KEYS_ASKED
    elif not model.my_turn:
        keys = KEYS_WAIT
    else:
        choices = model.choices()
        keys = KEYS_TURN
        if choices.space is not None or choices.numbered:
            numbers = "1-9/" if choices.numbered else ""
            space = () if choices.space is None else (f"Space {choices.space}",)
            keys = (f"{numbers}←→ choose", "Enter play", *space, "Tab moves",
                    "↑↓ why", "? help", "^T chat")
    shown = list(keys)
    while len(shown) > 1 and cells(" · ".join([*shown, KEYS_STOP])) > width:
        shown.pop()
    return " · ".join([*shown, KEYS_STOP])


def status_line(model: TableModel, width: int) -> Line:
    """The answer to the last thing typed; or what Enter would play (the choice on the
    command line) and what it would do; or the keys that matter now."""
    message = model.message
    if message is not None:
        style = "class:alert" if message.error else "class:detail"
        return [(style, " " + fit(message.text, width - 1))]
    held = model.answering()
    if held is not None:
        answer, row = held
        text = f"Enter: {answer.value} {row.name} ({row.fingerprint}) · ←→ admit/refuse · Esc"
        return [("class:command", " " + fit(text, width - 1))]
    suggestion = model.suggestion()
    if suggestion is not None:
        effect = model.effect(suggestion)
        text = f"Enter: {suggestion}" + (f" ({effect})" if effect else "")
        if cells(text + " · Esc: cancel") < width:
            text += " · Esc: cancel"
        return [("class:command", " " + fit(text, width - 1))]
    keys = model.hint if model.hint is not None else _keys(model, width - 2)
    return [("class:hint", " " + fit(keys, width - 1))]
