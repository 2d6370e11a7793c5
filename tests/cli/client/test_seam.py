"""The seam between the client's shell and a game's screen: the shell imports no game's module
and loads none by itself; it finds Condottiere's screen through the registry and draws the game
through it; the game's screen needs no terminal library; and the log shows the table's own
narration of the moves instead of telling them again."""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from prompt_toolkit.utils import get_cwidth

import condottiere.cli.client
import condottiere.games.condottiere.screen
from condottiere.cli.client.commands import CommandError, parse
from condottiere.cli.client.model import TableModel
from condottiere.cli.client.style import BASE
from condottiere.cli.client.views import log_lines, plain
from condottiere.crypto import Identity
from condottiere.games.condottiere import Game
from condottiere.games.condottiere.moves import VERBS
from condottiere.games.condottiere.screen import SCREEN
from condottiere.interface import TableRules, game_named
from condottiere.interface.screen import Choices, Scene, Seats, SeatShown, cells
from condottiere.peer.controller import snapshot_of
from condottiere.peer.driver import MemoryKeeper, Table
from condottiere.peer.lobby import TableSpec
from tests.cli.client.scenes import model_of_game, model_of_table
from tests.cli.client.screen import screen_of
from tests.parsing import parsed
from tests.peer.tables import Harness

SHELL = Path(condottiere.cli.client.__file__).parent
GAME_SCREEN = Path(condottiere.games.condottiere.screen.__file__).parent
SEAM = Path(condottiere.interface.screen.__file__)
def imports(path: Path) -> set[str]:
    """Every module ``path`` imports by name (``from package import module`` included)."""
    found = set()
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0 and node.module, f"{path.name}: a relative import"
            found.add(node.module)
            package = importlib.util.find_spec(node.module)
            if package is not None and package.submodule_search_locations is not None:
                found.update(
                    f"{node.module}.{alias.name}"
                    for alias in node.names
                    if importlib.util.find_spec(f"{node.module}.{alias.name}") is not None
                )
    return found


def test_the_shell_imports_nothing_of_a_game_but_the_interface_registry_and_seam() -> None:
    modules = sorted(SHELL.glob("*.py"))
    assert len(modules) >= 8
    for path in modules:
        games = {m for m in imports(path) if m.split(".")[:2] == ["condottiere", "games"]}
        assert not games, f"{path.name} imports {sorted(games)}: reach games through the interface"


def test_importing_the_shell_loads_no_game_until_a_table_asks_for_its_game() -> None:
    shell = [f"condottiere.cli.client.{path.stem}" for path in sorted(SHELL.glob("*.py"))]
    code = (
        "import importlib, sys\n"
        f"for name in {shell!r}: importlib.import_module(name)\n"
        "print(sorted(m for m in sys.modules if m.startswith('condottiere.games.condottiere')))\n"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    assert loaded.strip() == "[]"


def test_a_games_screen_and_the_seam_need_no_terminal_library() -> None:
    for path in [SEAM, *sorted(GAME_SCREEN.glob("*.py"))]:
        assert not any(m.startswith("prompt_toolkit") for m in imports(path)), path.name
        assert not any(m.startswith("condottiere.cli") for m in imports(path)), path.name


def test_the_shell_finds_the_tables_game_screen_through_the_registry() -> None:
    model = model_of_game(Game.new("zman", players=3, seed=1))
    assert model.screen() is game_named("condottiere").screen() is SCREEN
    assert model.verbs() == VERBS
    assert parse("Play 10", model.verbs()).verb == "move"
    with pytest.raises(CommandError, match="no table yet"):
        parse("play 10", TableModel().verbs())


def test_the_seams_cells_are_the_terminals_cells() -> None:
    texts = ["A" * 40, "漢字の名前", "e\u0301\u0301", "🂡🂡🂡", "😀", "─│…█░●○·←→↑↓", "ｱ\u3000"]
    for text in texts:
        assert cells(text) == get_cwidth(text), text


def test_the_log_is_the_tables_own_narration_of_each_move_and_its_consequences() -> None:
    harness = Harness("zman", 3, seed=3)
    # until a battle has been won and has changed the board (a battle may end with no winner)
    harness.play(until=lambda: {"result", "change"} <= {e.kind for e in harness.tables[0].events})
    events = harness.tables[0].events
    model = model_of_table(harness, seat=0)
    short = {f"seat {seat} (seat{seat})": f"seat{seat}" for seat in range(3)}

    def shortened(text: str) -> str:
        for long, name in short.items():
            text = text.replace(long, name)
        return text

    told = [(event.kind, shortened(event.text)) for event in events]
    assert [(line.kind, line.text) for line in model.log()] == told
    assert {"move", "result", "change"} <= {kind for kind, _ in told}
    result = next(text for kind, text in told if kind == "result")
    drawn = log_lines(model, 200, len(told))
    styles = [line[0][0] for line in drawn if plain([line]).strip() == result]
    assert styles == ["class:log.result"] and "log.result" in dict(BASE)


def test_while_the_table_fills_the_middle_of_the_screen_lists_the_table_and_its_players() -> None:
    creator = Table.create(Identity.generate(), TableSpec("zman", 3, (), "test", "ada", ""),
                           MemoryKeeper())
    definition = creator.logs.log(creator.me)[0].signed
    guest = Table.from_definition(Identity.generate(), definition, MemoryKeeper())
    guest.join("bob", "")
    for entry in guest.logs.log(guest.me):
        creator.receive(entry.signed)
    model = TableModel()
    model.update(snapshot_of(creator, 0.0), None, tuple(creator.events), {})
    assert model.scene() is None
    assert model.banner().headline == "Waiting for players to join: 2 of 3 here"
    lines = screen_of(model, 80, 24)
    assert all(cells(line) <= 80 for line in lines)
    assert lines[3] == " Table 'test' · Condottiere · 3 seats"
    assert lines[4] == " Edition Z-Man 2018, the new version (zman) · house rules: none"
    assert model.snapshot is not None
    players = [["-", player.name, player.fingerprint, "joined"]
               for player in model.snapshot.players]
    assert [line.split() for line in lines[6:8]] == players
    assert "1 seat free" in lines[8]
    assert not any("Hand (" in line for line in lines), "no hand before the deal"


@pytest.mark.parametrize("game", ["condottiere", "captains"])
def test_a_seats_only_legal_move_played_by_its_peer_is_told_as_such_not_as_you_is(
    game: str,
) -> None:
    rules = game_named(game)
    table = TableRules(game, rules.default_edition, 2)
    played = rules.offline(table, seed=3)
    seat = played.to_act
    assert seat is not None
    seats = Seats(tuple(SeatShown(s, f"p{s}", f"{s}", s == seat, None) for s in range(2)))
    scene = Scene(played.view(seat), played.copy(), seats, False, Choices(), None)
    assert rules.screen().headline(scene, seat) == "Your only legal move is played for you"
