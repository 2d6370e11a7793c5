"""End to end in a real terminal: ``condottiere play`` in a private tmux server, a whole game
against a bot peer played by sending keys (Condottiere, and Condottieri Captains), the screen
read with ``capture-pane`` at chosen points (the map, the hand, the banner, a refused move,
Ctrl-C and the game taken up again, the end screen), and the record checked."""

from __future__ import annotations

import os
import re
import shutil
import sys
import time
import uuid
from pathlib import Path

import pytest

from condottiere.games.condottiere import REGIONS
from condottiere.games.condottiere.screen.board import MAP_WIDTH
from condottiere.peer.record import load, verify
from tests.cli.client.terminal import Terminal, describe

GAME_SECONDS = 400
COLOUR = re.compile(r"\x1b\[[0-9;]*(3[0-7]|38;[25];[0-9;]+|9[0-7])m")
"""An escape sequence that sets a foreground colour."""
CLOCK = re.compile(r"\s+(waiting )?\d+:\d\d$")
"""How long the table has waited, at the end of the headline."""
RESIZE_SECONDS = 0.5
"""How long a screen must stay the same after a resize to be the program's own drawing (less
than a second: the clock in the headline moves every second)."""
REPO = Path(__file__).resolve().parents[3]
EFFECT = re.compile(r"strength: |borders |no change in strength|ends the battle")
"""What the menu of moves says each would do (never a line of the log)."""

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed: no real terminal to test in"
)


def headline(screen: str) -> str:
    return screen.splitlines()[0] if screen else ""


def my_turn(screen: str) -> bool:
    return headline(screen).startswith(" Your turn")


def hand(screen: str) -> str:
    return next(line for line in screen.splitlines() if line.startswith(" Hand ("))


def cards_of(hand_line: str) -> list[str]:
    return re.findall(r"\[([^\]]*)\]", hand_line)


def prompt(screen: str) -> str:
    return screen.splitlines()[-2]


def decision(screen: str) -> tuple[str, str]:
    """What the screen asks of the player: the headline (without its clock) and the hand."""
    return CLOCK.sub("", headline(screen)), hand(screen)


def test_a_whole_game_against_a_bot_in_a_real_terminal(tmp_path: Path) -> None:
    terminal = Terminal(f"condottiere-test-{os.getpid()}-{uuid.uuid4().hex[:8]}", tmp_path)
    command = [  # as a user runs it: no interface chosen (a table of bots stays on loopback)
        "env", "-u", "CONDOTTIERE_INTERFACE",
        sys.executable, "-m", "condottiere.cli.main", "play", "--edition", "zman", "--seats", "2",
        "--bots", "greedy", "--player", "ada", "--seed", "5", "--data", str(tmp_path / "ada"),
    ]
    try:
        terminal.run(command, REPO)
        screen = terminal.wait_for(my_turn, "first turn", timeout=120)
        check_the_table(screen)
        redrawn_on_resize(terminal)
        refused_move_changes_nothing(terminal)
        menu_then_typed_move(terminal)

        stopped_hand = hand(terminal.wait_for(my_turn, "the screen redrawn"))
        assert COLOUR.search(terminal.screen(styled=True)), "seats are drawn in colour"
        terminal.keys("C-c")
        terminal.wait_for(lambda _: terminal.exit_status() is not None, "the stop")
        assert terminal.exit_status() == 130
        assert "stopped: the game is kept in" in terminal.text()
        assert "Traceback" not in terminal.text()
        terminal.run([*command, "--no-color"], REPO)
        screen = terminal.wait_for(
            lambda s: my_turn(s) and "Taking up table" in s, "the game taken up", timeout=120
        )
        # The same cards; a client started again numbers its keys afresh (the keys a played
        # card left unused are the screen's memory of this turn, not the game's).
        assert cards_of(hand(screen)) == cards_of(stopped_hand)
        assert not COLOUR.search(terminal.screen(styled=True)), "--no-color: no colour at all"

        screen = play_to_the_end(terminal)
        check_the_end(screen)
        terminal.keys("q")
        terminal.wait_for(lambda _: terminal.exit_status() is not None, "the exit", timeout=60)
        assert terminal.exit_status() == 0
        farewell = terminal.text()
        assert "Traceback" not in farewell
        record = re.search(r"condottiere verify (\S+\.cdr)", farewell)
        assert record is not None, farewell
        assert verify(load(Path(record.group(1)))).fair
        replay_stepped_forward_and_back(terminal, record.group(1))
        ending = time.monotonic() + 20  # a process that exited may be reaped a moment later
        while terminal.alive() and time.monotonic() < ending:
            time.sleep(0.1)
        assert terminal.alive() == [], "every peer (the bot's too) ended by itself; left: " + (
            "; ".join(map(describe, terminal.alive()))
        )
    finally:
        terminal.close()
    assert terminal.alive() == []


def check_the_table(screen: str) -> None:
    lines = screen.splitlines()
    assert len(lines) == 24 and all(len(line) <= 80 for line in lines)
    board = "\n".join(line[:MAP_WIDTH] for line in lines[3:11])
    for region in REGIONS:
        assert re.search(rf"\b{region} [·*A-Z0-9]", board), region
    assert re.match(r" Your turn: choose where the next battle is fought|"
                    r" Your turn in the battle for \w+: play a card or pass", lines[0]), lines[0]
    clock = re.search(r"(\d+):(\d\d)$", lines[0])
    assert clock is None or int(clock.group(1)) * 60 + int(clock.group(2)) < 60
    assert re.search(r"Hand \(\d+\)  ", hand(screen)) and "[" in hand(screen)
    assert any(line[MAP_WIDTH + 1 :].startswith(">A you") for line in lines[3:11])
    assert "Battle marker: " in lines[1]


def redrawn_on_resize(terminal: Terminal) -> None:
    for width, height in ((100, 30), (80, 24)):
        terminal.resize(width, height)
        screen = terminal.wait_for(
            lambda s, width=width, height=height: len(s.splitlines()) == height
            and my_turn(s) and s.splitlines()[2] == "─" * width,
            f"the screen redrawn at {width}x{height}", timeout=60, steady=RESIZE_SECONDS,
        )
        assert all(len(line) <= width for line in screen.splitlines())
        assert screen.splitlines()[-1].startswith((" ←→ choose", " 1-9/←→ choose"))


def refused_move_changes_nothing(terminal: Terminal) -> None:
    before = terminal.wait_for(my_turn, "the screen redrawn")
    terminal.keys("play 7", literal=True)
    terminal.keys("Enter")
    screen = terminal.wait_for(lambda s: "refused:" in s, "the refusal", timeout=60)
    assert screen.splitlines()[-1].strip() == "refused: there is no card called '7'"
    assert prompt(screen) == "> play 7"
    assert hand(screen) == hand(before)
    terminal.keys("Escape")
    terminal.wait_for(lambda s: "play 7" not in prompt(s), "the line cleared", timeout=60)


def menu_then_typed_move(terminal: Terminal) -> None:
    """Tab shows the menu of moves; a move typed (the menu follows the typing) and Enter
    leave the log in sight, with the move in it, and the line empty."""
    terminal.wait_for(my_turn, "the turn")
    terminal.keys("Right")
    chosen = terminal.wait_for(lambda s: s.splitlines()[-1].startswith(" Enter: "), "a choice")
    move = re.match(r" Enter: (.+?)(?: \(| · |$)", chosen.splitlines()[-1])
    assert move is not None, chosen
    terminal.keys("Escape")
    terminal.wait_for(lambda s: prompt(s).startswith("> your move"), "the line cleared")
    terminal.keys("Tab")
    terminal.wait_for(lambda s: EFFECT.search(log(s)) is not None, "the menu over the log")
    terminal.keys("C-u")
    terminal.keys(move.group(1), literal=True)
    terminal.keys("Enter")
    screen = terminal.wait_for(
        lambda s: re.search(r"\bada (opens a battle|plays|passes)", log(s)) is not None
        and EFFECT.search(log(s)) is None, "the log, with the move, in sight", timeout=60,
    )
    assert prompt(screen).startswith("> ") and move.group(1) not in prompt(screen)


def replay_stepped_forward_and_back(terminal: Terminal, record: str) -> None:
    """``condottiere replay RECORD`` opens the board before the first move; → and ← step
    through the moves, End goes to the end, q leaves."""
    terminal.run([sys.executable, "-m", "condottiere.cli.main", "replay", record], REPO)
    screen = terminal.wait_for(lambda s: headline(s).startswith(" Replay 0/"), "the replay")
    total = int(re.match(r" Replay 0/(\d+)", headline(screen)).group(1))  # type: ignore[union-attr]
    assert "Hand (" in screen and "q leave" in screen.splitlines()[-1]
    terminal.keys("Right")
    after = terminal.wait_for(lambda s: headline(s).startswith(" Replay 1/"), "a step forward")
    assert re.search(r"\bada (opens|plays|passes)|Sforza (opens|plays|passes)", log(after))
    terminal.keys("Left")
    terminal.wait_for(lambda s: headline(s).startswith(" Replay 0/"), "a step back")
    terminal.keys("End")
    end = terminal.wait_for(lambda s: headline(s).startswith(f" Replay {total}/{total}: Game over"),
                            "the end")
    assert "condottiere verify" in end
    terminal.keys("q")
    terminal.wait_for(lambda _: terminal.exit_status() is not None, "the replay left")
    assert terminal.exit_status() == 0
    assert "verdict: FAIR" in terminal.text()


def play_to_the_end(terminal: Terminal) -> str:
    """Play every turn with the keys: in each battle one card chosen by its number, then
    pass; any other decision, the first choice (→). The screen at the end."""
    deadline = time.monotonic() + GAME_SECONDS
    battles_played: set[str] = set()
    while time.monotonic() < deadline:
        screen = terminal.screen()
        if "Game over" in headline(screen) and "condottiere verify" in screen:
            return screen
        if not my_turn(screen):
            time.sleep(0.1)
            continue
        battle = re.search(r"the battle for (\w+)", headline(screen))
        if battle and battle.group(1) not in battles_played:
            battles_played.add(battle.group(1))
            terminal.keys("1")
        else:
            terminal.keys("Space" if battle else "Right")
        chosen = terminal.wait_for(
            lambda s: s.splitlines()[-1].startswith(" Enter: "), "a choice on the line", 60
        )
        if not battle:
            terminal.keys("Escape")  # Esc takes the choice back; → puts it again
            terminal.wait_for(lambda s: not s.splitlines()[-1].startswith(" Enter: "),
                              "the choice taken back", 60)
            terminal.keys("Right")
            chosen = terminal.wait_for(
                lambda s: s.splitlines()[-1].startswith(" Enter: "), "the choice again", 60
            )
        asked = decision(chosen)
        terminal.keys("Enter")
        terminal.wait_for(  # the screen shows the table after the move (not another's move)
            lambda s, asked=asked: decision(s) != asked, "the move played", 60
        )
    raise AssertionError(f"the game did not end in {GAME_SECONDS} s:\n{terminal.screen()}")


def log(screen: str) -> str:
    return "\n".join(screen.splitlines()[15:22])


def check_the_end(screen: str) -> None:
    lines = screen.splitlines()
    assert lines[0].startswith(" Game over: ")
    assert "Audit passed" in lines[1]
    ending = log(screen)
    assert re.search(r"(You|Orsini|Sforza|Borgia|Medici|Este|Colonna|Visconti) "
                     r"(controlled|held|won)", ending), ending
    assert re.search(r"condottiere verify\s", ending) and "Record hash: " in ending
    assert "q leave" in lines[-1]


def test_the_lobby_shows_every_seat_with_its_fingerprint_and_the_host_admits_a_joiner(
    tmp_path: Path,
) -> None:
    """Two people and a bot at a three-seat table on the LAN (zeroconf on 127.0.0.1): the
    host's screen shows the table, its edition and house rules, each seat's fingerprint and
    whether it is here, the free seat, and the commands that join it by name and by address;
    a second person joins by name from another terminal and asks for a seat: the host's
    lobby shows her name and key fingerprint (the one her own screen shows) and that she
    asks; the host picks her row with ↓ and admits her with Enter, and the game goes on (both
    are dealt a hand)."""
    name = f"condottiere-test-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    (tmp_path / "ada").mkdir()
    (tmp_path / "bea").mkdir()
    host = Terminal(f"{name}-ada", tmp_path / "ada")
    guest = Terminal(f"{name}-bea", tmp_path / "bea")
    table = f"Friday{uuid.uuid4().hex[:6]}"
    play = [sys.executable, "-m", "condottiere.cli.main", "play", "--interface", "127.0.0.1"]
    try:
        host.run([*play, "--seats", "3", "--bots", "greedy", "--edition", "ffg", "--option",
                  "sieges", "--name", table, "--player", "ada", "--data",
                  str(tmp_path / "ada" / "data")], REPO)
        screen = host.wait_for(lambda s: "Join by address:" in s and "Sforza" in s
                               and "Orsini" not in s, "the host's lobby", timeout=120)
        lines = screen.splitlines()
        assert all(len(line) <= 80 for line in lines)
        assert f" Table '{table}' · Condottiere · 3 seats" in screen
        assert "(ffg) · house rules: sieges" in screen
        assert f"Join by name:    condottiere play --join {table}" in screen
        address = re.search(r"Join by address: condottiere play --join (127\.0\.0\.1:\d+)", screen)
        assert address is not None, screen
        ada = lobby_row(screen, "ada (you)")
        assert lobby_row(screen, "Sforza")[1] != ada[1]
        assert "1 seat free" in screen

        guest.run([*play, "--join", table, "--player", "bea", "--data",
                   str(tmp_path / "bea" / "data")], REPO)
        seen = guest.wait_for(lambda s: "bea (you)" in s and " ada " in s,
                              "the joiner's lobby", timeout=120)
        assert lobby_row(seen, "ada") == ada[:1] + ada[1:]
        assert f"Join by address: condottiere play --join {address.group(1)}" not in seen
        bea = lobby_row(seen, "bea (you)")
        asked = host.wait_for(lambda s: "asks for a seat" in s, "bea asking the host", 120)
        assert lobby_row(asked, "bea") == (bea[0], bea[1], "asks for a seat")
        assert "1 seat free" in asked  # asking takes no seat
        assert f"bea ({bea[1]}) asks for a seat" in asked  # in the log too

        host.keys("Down")
        picked = host.wait_for(lambda s: f"Enter: admit bea ({bea[1]})" in s, "bea picked", 60)
        assert lobby_row(picked, "bea")[2] == "asks for a seat: admit?"
        host.keys("Enter")
        for terminal, who in ((host, "the host"), (guest, "the joiner")):
            terminal.wait_for(lambda s: re.search(r" Hand \([1-9]\d*\)", s) is not None,
                              f"{who}'s hand: the game goes on", timeout=300)
        for terminal in (guest, host):
            terminal.keys("C-c")
            terminal.wait_for(lambda _, t=terminal: t.exit_status() is not None, "the stop", 120)
            assert "Traceback" not in terminal.text()
    finally:
        guest.close()
        host.close()
    assert host.alive() == [] and guest.alive() == []


def lobby_row(screen: str, name: str) -> tuple[str, str, str]:
    """A player's row in the lobby: the name (with ``(you)``), the fingerprint, and where
    they stand."""
    for line in screen.splitlines():
        found = re.match(r"\s+(?:-|\d+)\s+\S?\s+(.+?)\s+([0-9a-f]{4}(?:-[0-9a-f]{4}){4})\s+(.+)$",
                         line)
        if found and found.group(1).removesuffix(" (you)") == name.removesuffix(" (you)"):
            return found.group(1).removesuffix(" (you)"), found.group(2), found.group(3).strip()
    raise AssertionError(f"no row of {name} in the lobby:\n{screen}")


CAPTAINS_SECONDS = 900
KEYED_PHASES = frozenset({"recruit", "block", "clash", "hand-limit"})
"""Where the Captains game is played with the number keys until they choose nothing (the
cards of the hand, a block), not with Space."""


def captains_decision(screen: str) -> str:
    """All the screen says of the game but the clock, the command line and the keys: a move
    played changes it (the log tells the move at least)."""
    lines = screen.splitlines()
    return "\n".join([CLOCK.sub("", headline(screen)), *lines[1:-2]])


def test_a_whole_captains_game_against_a_bot_in_a_real_terminal(tmp_path: Path) -> None:
    """``condottiere play --game captains`` against a greedy bot peer at 80x24, every move
    chosen with the keys (the lowest number key shown the first time a phase comes and while
    it chooses a card to recruit or play, a block or a discard; else Space where it says what
    lets the phase go on, else that number key, else →) to the end; the screen at each step fits,
    shows the city state and the rows, and the end says who won with the provinces; the
    record is verified fair."""
    terminal = Terminal(f"condottiere-test-{os.getpid()}-{uuid.uuid4().hex[:8]}", tmp_path)
    command = [
        "env", "-u", "CONDOTTIERE_INTERFACE",
        sys.executable, "-m", "condottiere.cli.main", "play", "--game", "captains",
        "--seats", "2", "--bots", "greedy", "--player", "ada", "--seed", "5",
        "--data", str(tmp_path / "ada"),
    ]
    try:
        terminal.run(command, REPO)
        screen = terminal.wait_for(my_turn, "first turn", timeout=120)
        assert headline(screen).startswith(" Your turn: pick your city state"), screen
        assert "City states" in screen and " 1 " in screen
        phases: set[str] = set()
        deadline = time.monotonic() + CAPTAINS_SECONDS
        while True:
            assert time.monotonic() < deadline, f"the game did not end:\n{terminal.screen()}"
            screen = terminal.screen()
            if "Game over" in headline(screen) and "condottiere verify" in screen:
                break
            if not my_turn(screen):
                time.sleep(0.1)
                continue
            if not prompt(screen).startswith("> your move"):  # a line left: Esc clears it
                terminal.keys("Escape")
                time.sleep(0.2)
                continue
            lines = screen.splitlines()
            assert len(lines) == 24 and all(len(line) <= 80 for line in lines), screen
            assert "city prov duc hand TFR" in screen, screen
            phase = re.search(r"phase: ([\w-]+)", lines[1])
            first = phase is None or phase.group(1) not in phases
            if phase is not None:
                phases.add(phase.group(1))
            keys = lines[-1]
            eager = phase is not None and phase.group(1) in KEYED_PHASES
            if "1-9/" in keys and (first or eager or "Space " not in keys):
                terminal.keys(first_key(screen))
            else:
                terminal.keys("Space" if "Space " in keys else "Right")
            try:
                chosen = terminal.wait_for(
                    lambda s: s.splitlines()[-1].startswith(" Enter: "), "a choice", 20
                )
            except AssertionError:  # the table moved on before the key: look again
                continue
            asked = captains_decision(chosen)
            terminal.keys("Enter")
            terminal.wait_for(lambda s, asked=asked: captains_decision(s) != asked,
                              "the move played", 60)
        assert {"city", "recruit", "diplomacy"} <= phases, phases  # asked in every game
        lines = screen.splitlines()
        assert lines[0].startswith(" Game over: ") and "Audit passed" in lines[1]
        assert "Provinces: " in screen and "condottiere verify" in screen
        terminal.keys("q")
        terminal.wait_for(lambda _: terminal.exit_status() is not None, "the exit", timeout=60)
        assert terminal.exit_status() == 0
        farewell = terminal.text()
        assert "Traceback" not in farewell
        record = re.search(r"condottiere verify (\S+\.cdr)", farewell)
        assert record is not None, farewell
        assert verify(load(Path(record.group(1)))).fair
        captains_replayed(terminal, record.group(1))
    finally:
        terminal.close()
    assert terminal.alive() == []


def first_key(screen: str) -> str:
    """The lowest number key the screen shows beside a choice (a card of the hand, ``2[``;
    a choice on the board, `` 3 ``): a card played leaves its key unused for the phase."""
    keys = re.findall(r"(?:^|\s)([1-9])\[", screen) + re.findall(r"^ +([1-9]) ", screen, re.M)
    return min(keys, default="1")


def captains_replayed(terminal: Terminal, record: str) -> None:
    """``condottiere replay RECORD`` of a Captains game: the city states before the first
    move, → a move on (the log tells it), End the end with the provinces, q leaves."""
    terminal.run([sys.executable, "-m", "condottiere.cli.main", "replay", record], REPO)
    screen = terminal.wait_for(lambda s: headline(s).startswith(" Replay 0/"), "the replay")
    total = int(re.match(r" Replay 0/(\d+)", headline(screen)).group(1))  # type: ignore[union-attr]
    assert "City states" in screen and "city prov duc hand TFR" in screen
    terminal.keys("Right")
    after = terminal.wait_for(lambda s: headline(s).startswith(" Replay 1/"), "a step forward")
    assert re.search(r"\b(ada|Sforza) picks \w+", after), after
    terminal.keys("End")
    end = terminal.wait_for(lambda s: headline(s).startswith(f" Replay {total}/{total}: Game over"),
                            "the end")
    assert "Provinces: " in end and "condottiere verify" in end
    terminal.keys("q")
    terminal.wait_for(lambda _: terminal.exit_status() is not None, "the replay left")
    assert terminal.exit_status() == 0
    assert "verdict: FAIR" in terminal.text()


SLOW = '''
import time

from {module} import {base}


class Slow({base}):
    """The greedy bot, a moment slower: a game lasts long enough to be watched."""

    name = "slow"

    def choose(self, game, seat):
        time.sleep(0.25)
        return super().choose(game, seat)
'''
WATCHED = {
    "condottiere": ("condottiere.bots", "GreedyBot", "regions:", GAME_SECONDS),
    "captains": (
        "condottiere.bots.captains_greedy", "CaptainsGreedy", "city prov duc hand TFR",
        CAPTAINS_SECONDS,
    ),
}
"""Per game: the greedy bot to slow down, what the watcher's screen shows of a game under way,
and how long a game may take."""


@pytest.mark.parametrize("game", ["condottiere", "captains"])
def test_a_spectator_follows_a_game_to_the_end_without_a_hand_and_verifies_it(
    tmp_path: Path, game: str
) -> None:
    """A two-seat table of bots that admits spectators (``host --spectators``); ``condottiere
    watch NAME`` in a terminal finds it on the LAN (zeroconf on 127.0.0.1), shows the board
    and the rows while the game is played, never a hand, and at the end the record, verified
    FAIR."""
    module, base, under_way, seconds = WATCHED[game]
    name = f"condottiere-test-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    (tmp_path / "host").mkdir()
    (tmp_path / "watch").mkdir()
    (tmp_path / "slow.py").write_text(SLOW.format(module=module, base=base))
    host = Terminal(f"{name}-host", tmp_path / "host", width=100, height=10)
    watcher = Terminal(f"{name}-watch", tmp_path / "watch")
    table = f"Watched{uuid.uuid4().hex[:6]}"
    condottiere = [sys.executable, "-m", "condottiere.cli.main"]
    try:
        host.run([*condottiere, "host", "--game", game, "--seats", "2", "--strategy",
                  f"{tmp_path}/slow.py:Slow", "--bots", "greedy", "--spectators", "--name",
                  table, "--interface", "127.0.0.1", "--data", str(tmp_path / "host" / "data")],
                 REPO)
        host.wait_for(lambda s: "hosting" in s, "the table", timeout=60)
        watcher.run([*condottiere, "watch", table, "--interface", "127.0.0.1", "--data",
                     str(tmp_path / "watch" / "data")], REPO)
        playing = watcher.wait_for(
            lambda s: (under_way in s and "Game over" not in headline(s))
            or watcher.exit_status() is not None,
            "the game watched", timeout=120,
        )
        assert watcher.exit_status() is None, playing
        assert "Hand (" not in playing and "you are watching" in playing
        assert all(len(line) <= 80 for line in playing.splitlines())
        end = watcher.wait_for(
            lambda s: "verdict: FAIR" in s or watcher.exit_status() is not None, "the end",
            timeout=seconds,
        )
        assert headline(end).startswith(" Game over: ") and "(you)" not in end, end
        assert "Hand (" not in end and "condottiere verify" in end
        watcher.keys("q")
        watcher.wait_for(lambda _: watcher.exit_status() is not None, "the exit", timeout=60)
        assert watcher.exit_status() == 0
        farewell = watcher.text()
        assert "verdict: FAIR" in farewell and "Traceback" not in farewell
        host.wait_for(lambda _: host.exit_status() is not None, "the host's end", timeout=60)
        assert host.exit_status() == 0
    finally:
        watcher.close()
        host.close()
    assert host.alive() == [] and watcher.alive() == []
