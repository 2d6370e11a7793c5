"""Every module's doctests, run by the module's name in the installed ``condottiere``
namespace (so that they test the code as users import it, whatever folder it lives in)."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil
import tomllib
from pathlib import Path

import pytest

GENERATED = "condottiere.v1"
OPTIONAL = {"condottiere.openspiel": "pyspiel"}
"""Packages of an optional extra, and the module whose absence means it is not installed."""
PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def _packages() -> list[str]:
    """The packages the project installs (pyproject.toml's list)."""
    with PYPROJECT.open("rb") as file:
        return list(tomllib.load(file)["tool"]["setuptools"]["packages"])


def _modules() -> list[str]:
    names = set()
    for package in _packages():
        if package.startswith(GENERATED):
            continue
        needed = OPTIONAL.get(package)
        if needed is not None and importlib.util.find_spec(needed) is None:
            continue
        names.add(package)
        module = importlib.import_module(package)
        names.update(
            f"{package}.{info.name}"
            for info in pkgutil.iter_modules(module.__path__)
            if not info.ispkg
        )
    return sorted(names)


@pytest.mark.parametrize("name", _modules())
def test_the_examples_in_the_docstrings_hold(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=True)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
