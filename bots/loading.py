"""Finding a strategy by what a player typed: a name the project knows (``greedy``), or the
author's own class as ``PATH:CLASS`` (``./frugal.py:Frugal``) or ``MODULE:CLASS``
(``mybots.frugal:Frugal``).

The class is called with ``seed=SEED`` when it takes a ``seed`` parameter, with nothing
otherwise; what it makes must have a ``name`` and a ``choose(game, seat)`` method. Every
mistake (no such file, an import that fails, no such class, a bot without ``choose``) is a
:class:`StrategyError` that says what to fix.

>>> load_strategy("random", seed=3).name
'random'
>>> load_strategy("condottiere.bots.greedy:GreedyBot", seed=3).name
'greedy'
>>> load_strategy("condottiere.bots.greedy:Greedy", seed=3)
Traceback (most recent call last):
...
condottiere.bots.loading.StrategyError: module 'condottiere.bots.greedy' has no 'Greedy' (it ...
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import sys
from pathlib import Path
from types import ModuleType

from condottiere.bots import BOTS, Strategy, make_bot

__all__ = ["StrategyError", "load_strategy"]


class StrategyError(ValueError):
    """A strategy that cannot be loaded, with what to fix."""


def load_strategy(spec: str, seed: int) -> Strategy:
    """A new bot for ``spec`` (a name of :data:`bots.BOTS`, ``PATH:CLASS`` or ``MODULE:CLASS``),
    seeded with ``seed``; :class:`StrategyError` when it cannot be made."""
    spec = spec.strip()
    if spec.lower() in BOTS:
        return make_bot(spec.lower(), seed)
    where, colon, attribute = spec.rpartition(":")
    if not colon or not where or not attribute:
        raise StrategyError(
            f"no bot called {spec!r}: give one of {', '.join(sorted(BOTS))}, "
            "or your own class as PATH.py:CLASS or MODULE:CLASS"
        )
    module = _module_at(where) if _is_path(where) else _module_named(where)
    try:
        factory = getattr(module, attribute)
    except AttributeError:
        classes = sorted(
            name
            for name, value in vars(module).items()
            if inspect.isclass(value) and value.__module__ == module.__name__
        )
        listed = ", ".join(classes) or "no classes"
        raise StrategyError(
            f"{_describe(module, where)} has no {attribute!r} (it has: {listed})"
        ) from None
    if not callable(factory):
        raise StrategyError(f"{where}:{attribute} is not a class")
    try:
        bot = factory(seed=seed) if _takes_seed(factory) else factory()
    except Exception as exc:
        raise StrategyError(
            f"making a bot of {where}:{attribute} raised {type(exc).__name__}: {exc}"
        ) from exc
    if not callable(getattr(bot, "choose", None)):
        raise StrategyError(f"{where}:{attribute} has no choose(game, seat) method")
    if not isinstance(getattr(bot, "name", None), str):
        raise StrategyError(f"{where}:{attribute} has no name (a short word, e.g. name = 'mine')")
    return bot  # type: ignore[no-any-return]


def _is_path(where: str) -> bool:
    return where.endswith(".py") or "/" in where or "\\" in where


def _describe(module: ModuleType, where: str) -> str:
    return f"{where}" if _is_path(where) else f"module {module.__name__!r}"


def _module_at(where: str) -> ModuleType:
    """The module of the file ``where``, run once per process (loaded again, it is the same)."""
    path = Path(where).expanduser().resolve()
    if not path.is_file():
        raise StrategyError(f"no such file: {where}")
    name = "condottiere_bot_" + hashlib.sha256(str(path).encode()).hexdigest()[:12]
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise StrategyError(f"{where} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[name]
        raise StrategyError(f"loading {where} raised {type(exc).__name__}: {exc}") from exc
    return module


def _module_named(name: str) -> ModuleType:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        raise StrategyError(
            f"no module {name!r} ({exc}); give a file as PATH.py:CLASS, or install the module"
        ) from exc
    except Exception as exc:
        raise StrategyError(f"importing {name} raised {type(exc).__name__}: {exc}") from exc


def _takes_seed(factory: object) -> bool:
    try:
        parameters = inspect.signature(factory).parameters  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False
    return "seed" in parameters
