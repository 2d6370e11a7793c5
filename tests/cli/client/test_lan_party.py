"""A LAN party in real terminals (private tmux servers) and real peer processes: what a friend
types never costs them their seat, and every screen tells the truth.

- a console seat (``condottiere join`` in a terminal) refuses a Captains offer with
  ``refuse``: the move, not the lobby's command;
- a player stopped with Ctrl-C on their turn and started again sees the time the table gives
  them, to the second the other player's screen shows, not a deadline started afresh;
- Tab's menu covers the end of the log from edge to edge: no letter of the log shows beside
  an entry, and every entry says what it would do;
- a joiner the host refuses is told so, on the console and on the full screen; before that,
  the full screen says it waits for the host to let it in.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.cli.client.terminal import Terminal
from tests.peer.processes import PeerProcess, peers_in

REPO = Path(__file__).resolve().parents[3]
PLAY = [sys.executable, "-m", "condottiere.cli.main", "play"]
CONSOLE = [sys.executable, "-m", "condottiere.cli.main"]
LEFT = re.compile(r"\((\d+):(\d\d) left\)")
"""The time left before the others may put the seat out, at the end of the headline."""
MENU_ENTRY = re.compile(r"^ battle [A-Z][a-z]+ +borders [A-Z]")
"""A line of Tab's menu of battles: the move from the first column, then what it would do."""
HAND_ROW = re.compile(r"^  \[")
"""A further row of the hand, when the cards take more than one line."""

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None, reason="tmux is not installed: no real terminal to test in"
)


@contextmanager
def terminals(root: Path, *names: str) -> Iterator[list[Terminal]]:
    """One terminal (80x24, a private tmux server) per name, closed at the end with every
    process it ran."""
    tag = f"lan-party-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    opened = []
    for name in names:
        (root / name).mkdir(parents=True, exist_ok=True)
        opened.append(Terminal(f"{tag}-{name}", root / name))
    try:
        yield opened
    finally:
        for terminal in opened:
            terminal.close()


def menu_covers_the_log(screen: str) -> bool:
    """Tab's menu is drawn whole over the log's last lines: at least three entries, and every
    line of the region an entry from edge to edge (a screen caught mid-draw is waited past)."""
    above_the_prompt = screen.splitlines()[:-2]
    hand = max((number for number, line in enumerate(above_the_prompt)
                if line.startswith(" Hand (")), default=None)
    if hand is None:
        return False
    region = [line for line in above_the_prompt[hand + 1:]
              if line.strip() and not HAND_ROW.match(line)]
    return len(region) >= 3 and all(MENU_ENTRY.match(line) for line in region)


def headline(screen: str) -> str:
    return screen.splitlines()[0] if screen else ""


def seconds_left(screen: str) -> int | None:
    found = LEFT.search(headline(screen))
    return None if found is None else int(found.group(1)) * 60 + int(found.group(2))


def stopped(terminal: Terminal) -> None:
    """Ctrl-C, then wait for the program to end; it says nothing of a traceback."""
    terminal.keys("C-c")
    terminal.wait_for(lambda _: terminal.exit_status() is not None, "the stop", timeout=120)
    assert "Traceback" not in terminal.text()


def test_a_player_back_after_ctrl_c_sees_the_tables_time_left_and_tab_covers_the_log(
    tmp_path: Path,
) -> None:
    """Two people at a two-seat table, each in a terminal. The one whose turn it is stops
    with Ctrl-C and, once the other's screen shows the table has waited a few seconds, runs
    the same command again: their headline gives the time the other's gives, to the second
    (the step began before the stop), not the full two minutes again. Then ``battle `` and
    Tab: the menu covers the log's last lines edge to edge."""
    with terminals(tmp_path, "ada", "bea") as (ada, bea):
        host = [*PLAY, "--seats", "2", "--bots", "none", "--listen", "127.0.0.1", "--open",
                "--edition", "zman", "--player", "ada",
                "--data", str(tmp_path / "ada" / "d")]
        ada.run(host, REPO)
        lobby = ada.wait_for(lambda s: "Join by address:" in s, "the host's lobby", timeout=120)
        address = re.search(r"--join (127\.0\.0\.1:\d+)", lobby)
        assert address is not None, lobby
        joiner = [*PLAY, "--join", address.group(1), "--player", "bea", "--data",
                  str(tmp_path / "bea" / "d")]
        bea.run(joiner, REPO)
        people = {"ada": (ada, host), "bea": (bea, joiner)}
        first = None
        deadline = time.monotonic() + 180
        while first is None:
            assert time.monotonic() < deadline, "nobody's turn within 180 s:\n" + ada.screen()
            first = next((name for name, (terminal, _) in people.items()
                          if headline(terminal.screen()).startswith(" Your turn")),
                         None)
            time.sleep(0.1)
        player, command = people[first]
        other = bea if player is ada else ada
        stopped(player)
        other.wait_for(lambda s: (seconds_left(s) or 120) <= 114,
                       "the other screen counting the wait", timeout=60)
        player.run(command, REPO)
        back = player.wait_for(
            lambda s: headline(s).startswith(" Your turn") and seconds_left(s) is not None,
            "the turn taken up", timeout=120,
        )
        for _ in range(3):  # the two captures a moment apart may straddle a second's tick
            mine, theirs = seconds_left(player.screen()), seconds_left(other.screen())
            assert mine is not None and theirs is not None, (player.screen(), other.screen())
            if mine == theirs:
                break
        assert abs(mine - theirs) <= 1, f"{mine} s left here, {theirs} s there"
        assert mine <= 114, f"the deadline started afresh after the restart:\n{back}"

        player.keys("battle ", literal=True)
        player.keys("Tab")
        player.wait_for(menu_covers_the_log, "Tab's menu of battles over the log's last lines",
                        timeout=30)
        for terminal in (player, other):
            stopped(terminal)


def test_a_console_seat_in_a_terminal_refuses_a_captains_offer_with_refuse(
    tmp_path: Path,
) -> None:
    """Ada hosts a two-seat Captains table at her console and plays the first move listed at
    each turn (at diplomacy, an offer); Bea plays at a console in a terminal: the first move
    listed, until she is asked to accept or refuse an offer, where she types ``refuse``. The
    table takes it as her answer (the lobby's ``refuse NAME`` is for a table's creator, in
    the lobby)."""
    with peers_in(tmp_path) as peers, terminals(tmp_path, "bea") as (bea,):
        ada = peers.start(["host", "--game", "captains", "--seats", "2", "--open",
                           "--player", "ada", "--name", f"offers{uuid.uuid4().hex[:6]}"],
                          tmp_path / "ada-data", console=True)
        address = ada.address()
        bea.run([*CONSOLE, "join", address, "--player", "bea",
                 "--data", str(tmp_path / "bea" / "d")], REPO)
        answered = {"ada": 0, "bea": 0}
        deadline = time.monotonic() + 300
        refused = False
        while not refused:
            assert time.monotonic() < deadline, "no offer to Bea within 300 s:\n" + bea.text()
            answer_first_moves(ada, answered)
            turns = [line for line in bea.text().splitlines() if line.startswith("moves: ")]
            for line in turns[answered["bea"] :]:
                moves = [move.strip() for move in line.removeprefix("moves: ").split(" | ")]
                if moves == ["accept", "refuse"]:
                    bea.keys("refuse", literal=True)
                    bea.keys("Enter")
                    refused = True
                    break
                bea.keys(moves[0], literal=True)
                bea.keys("Enter")
            answered["bea"] = len(turns)
            time.sleep(0.1)
        told = bea.wait_for(lambda _: "refuses the offer" in bea.text(), "the refusal played", 60)
        text = bea.text()
        assert "cannot refuse" not in text, told
        assert "refused: " not in text.split("moves: accept | refuse")[-1], text
        ada.wait_for("refuses the offer", 60)
        stopped(bea)


def answer_first_moves(peer: PeerProcess, answered: dict[str, int]) -> None:
    """Type the first move listed at each of ``peer``'s turns not answered yet."""
    turns = [line for line in list(peer.lines) if line.startswith("moves: ")]
    for line in turns[answered["ada"] :]:
        peer.type(line.removeprefix("moves: ").split(" | ")[0].strip())
    answered["ada"] = len(turns)


def test_a_refused_joiner_is_told_on_the_console_and_the_full_screen(tmp_path: Path) -> None:
    """Ada hosts at her console. Mallory asks for a seat from the full screen: before Ada
    answers, his screen says he waits for the host to let him in. Eve asks from a console.
    Ada refuses both: Mallory's screen says the host refused him a seat, and Eve's console
    says so too."""
    with peers_in(tmp_path) as peers, terminals(tmp_path, "mallory") as (mallory,):
        ada = peers.start(["host", "--seats", "3", "--player", "ada",
                           "--name", f"guarded{uuid.uuid4().hex[:6]}"],
                          tmp_path / "ada-data", console=True)
        address = ada.address()
        ada.wait_for("you admit or refuse each player", 20)
        mallory.run([*PLAY, "--join", address, "--player", "mallory",
                     "--data", str(tmp_path / "mallory" / "d")], REPO)
        waiting = mallory.wait_for(lambda s: "Waiting for the host to let you in" in s,
                                   "the joiner's lobby", timeout=120)
        row = next(line for line in waiting.splitlines() if "mallory (you)" in line)
        assert row.endswith("waiting to be let in"), waiting
        eve = peers.start(["join", address, "--player", "eve"], tmp_path / "eve-data",
                          console=True)
        for name in ("mallory", "eve"):
            ada.wait_for(rf"{name} \([0-9a-f-]+\) asks for a seat: admit or refuse them", 60)
            ada.type(f"refuse {name}")
            ada.wait_for(f"refused: {name}", 20)
        told = mallory.wait_for(lambda s: "The host refused you a seat" in s,
                                "the refusal on the full screen", timeout=60)
        assert "refused by the host" in told and "Waiting for the host" not in told, told
        eve.wait_for("the table's creator refused you a seat", 60)
        stopped(mallory)
