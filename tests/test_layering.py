"""The import rules of the layers: dependencies point one way (``cli -> bots -> peer ->
crypto``), and the platform reaches a game only through the game interface.

Every import statement of every module is read (including imports inside functions and
under ``TYPE_CHECKING``), from the folders pyproject.toml maps into the namespace.
"""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.parsing import parsed

ROOT = Path(__file__).resolve().parent.parent
GAME_INTERFACE = ("condottiere.interface",)
"""The game interface and its registry: all the platform may know of games."""
LAYERS = {
    "condottiere.crypto": (),
    "condottiere.peer": ("condottiere.crypto", "condottiere.v1", *GAME_INTERFACE),
    "condottiere.bots": (
        "condottiere.peer",
        "condottiere.crypto",
        "condottiere.v1",
        *GAME_INTERFACE,
    ),
    "condottiere.cli": (
        "condottiere.bots",
        "condottiere.peer",
        "condottiere.crypto",
        "condottiere.v1",
        *GAME_INTERFACE,
    ),
    "condottiere.openspiel": GAME_INTERFACE,
}
"""Per platform package, the project's packages it may import."""
MAY_IMPORT_GAMES = frozenset({"condottiere.bots", "condottiere.openspiel"})
"""The bots are strategies of a game: they read the game's own types; the OpenSpiel games
encode each game's own moves and views."""
PLATFORM = ("condottiere.crypto", "condottiere.peer", "condottiere.bots", "condottiere.cli")


def _package_dirs() -> dict[str, Path]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        mapping = tomllib.load(file)["tool"]["setuptools"]["package-dir"]
    return {name: ROOT / folder for name, folder in mapping.items()}


def _modules(package: str) -> Iterator[tuple[str, Path]]:
    folder = _package_dirs()[package]
    for path in sorted(folder.rglob("*.py")):
        parts = path.relative_to(folder).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        yield ".".join((package, *parts)), path


def _imports(module: str, path: Path) -> Iterator[tuple[int, str]]:
    """Every module ``module`` imports, with its line (relative imports resolved)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            yield node.lineno, base
            for alias in node.names:
                yield node.lineno, f"{base}.{alias.name}"


def _within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def _is_game(name: str) -> bool:
    """A module of a game: anything under ``condottiere.games``."""
    return _within(name, "condottiere.games")


def _violations(package: str) -> list[str]:
    allowed = LAYERS[package]
    found = []
    for module, path in _modules(package):
        for line, name in _imports(module, path):
            if name == "condottiere" or not _within(name, "condottiere") or _within(name, package):
                continue
            where = f"{path.relative_to(ROOT)}:{line} imports {name}"
            if _is_game(name):
                if package not in MAY_IMPORT_GAMES:
                    found.append(f"{where}: a game's module (reach games through the interface)")
            elif not any(_within(name, layer) for layer in allowed):
                layers = ", ".join(allowed) or "no other layer"
                found.append(f"{where}: {package} may import only {layers}")
    return found


@pytest.mark.parametrize("package", sorted(LAYERS))
def test_each_layer_imports_only_the_layers_below_it_and_no_game_module(package: str) -> None:
    assert _violations(package) == []


@pytest.mark.parametrize("game", ["captains", "condottiere"])
def test_a_games_rules_import_nothing_of_the_platform(game: str) -> None:
    folder = _package_dirs()["condottiere.games"] / game
    found = []
    for path in sorted(folder.rglob("*.py")):
        parts = path.relative_to(folder.parent).with_suffix("").parts
        module = ".".join(("condottiere.games", *parts))
        found += [
            f"{path.relative_to(ROOT)}:{line} imports {name}"
            for line, name in _imports(module, path)
            if any(_within(name, layer) for layer in PLATFORM)
        ]
    assert found == []


def test_the_rule_catches_a_platform_module_that_imports_a_game(tmp_path: Path) -> None:
    module = tmp_path / "sneaky.py"
    module.write_text(
        "from condottiere.interface import game_named\n"
        "from condottiere.games.condottiere.cards import card_name\n"
        "import condottiere.games.condottiere\n"
    )
    names = [name for _, name in _imports("condottiere.peer.sneaky", module)]
    games = [name for name in names if _is_game(name)]
    assert games == [
        "condottiere.games.condottiere.cards",
        "condottiere.games.condottiere.cards.card_name",
        "condottiere.games.condottiere",
    ]
