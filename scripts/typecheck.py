"""Type-check the ``condottiere`` namespace with ``mypy --strict``, as it is installed.

The repository keeps its top-level folders (``crypto/``, ``peer/``, ``games/``, ...) and
``pyproject.toml`` maps each into the namespace (``condottiere.crypto`` is ``crypto/``).
mypy has no such mapping, so this lays the namespace out as pip installs it, with symbolic
links into the repository under ``build/typecheck/``, checks it there, and prints mypy's
findings with the repository's own paths.

Usage: ``.venv/bin/python scripts/typecheck.py [MYPY ARGUMENTS...]``; the exit status is
mypy's.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TREE = ROOT / "build" / "typecheck"
NAMESPACE = "condottiere"


def package_dirs() -> dict[str, Path]:
    """Each mapped package of pyproject.toml and the folder it is, the namespace first."""
    with (ROOT / "pyproject.toml").open("rb") as file:
        mapping = tomllib.load(file)["tool"]["setuptools"]["package-dir"]
    return {name: ROOT / folder for name, folder in sorted(mapping.items())}


def lay_out() -> dict[Path, Path]:
    """Build the namespace under :data:`TREE`; the link folders and what each points to."""
    shutil.rmtree(TREE, ignore_errors=True)
    links: dict[Path, Path] = {}
    for name, folder in package_dirs().items():
        place = TREE.joinpath(*name.split("."))
        if name == NAMESPACE:
            place.mkdir(parents=True)
            for child in folder.iterdir():
                if child.name != "__pycache__":
                    (place / child.name).symlink_to(child)
                    links[place / child.name] = child
        else:
            place.symlink_to(folder, target_is_directory=True)
            links[place] = folder
    return links


def main() -> int:
    links = lay_out()
    command = [sys.executable, "-m", "mypy", "--strict", *sys.argv[1:], "-p", NAMESPACE]
    env = {**os.environ, "MYPYPATH": str(TREE)}
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    prefixes = sorted(
        ((os.path.relpath(link, ROOT), os.path.relpath(target, ROOT)) for link, target in
        links.items()), key=lambda pair: -len(pair[0]),
    )
    for line in (done.stdout + done.stderr).splitlines():
        for link, target in prefixes:
            if line.startswith(link + os.sep):
                line = target + line[len(link) :]
                break
        print(line)
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
