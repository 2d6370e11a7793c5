"""The project as a user installs it: its wheel, ``pip install .`` and ``pip install -e .``,
each into a fresh venv, with everything importable as ``condottiere.*`` and nothing else at
the top level.

The wheel goes into a venv that also holds PyPI's ``crypto`` (a top-level ``crypto/`` of its
own) and a local package called ``bots`` (PyPI's ``bots`` does not build on Python 3.11):
before the one namespace, one of two such packages silently replaced the other. There the
installed command plays an offline demo and a networked game (a host and two bot peers, on
loopback only), every module of the wheel imports from the venv, and ``crypto`` and ``bots``
are still the other packages.

The tests build from a copy of the repository in a temporary folder (without what
.gitignore lists: venvs, ``build/``, caches), so nothing is written into the repository and a
stale ``build/lib`` there cannot slip old files into the wheel. The venv with the wheel is made
once per run and shared by the tests that use it, across pytest-xdist workers (a lock file
beside the workers' temporary folders). The installs need PyPI (the project's dependencies,
``crypto``, setuptools for the builds); where it cannot be reached the tests are skipped, and
say so.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
PIP_SECONDS = 600
"""Bound of one pip command (downloads included)."""
GAME_SECONDS = 90
"""Bound of the networked game (it takes a few seconds)."""
COMMAND_SECONDS = 60
"""Bound of any other command run in a venv."""

OPTIONAL_EXTRAS = ("condottiere.openspiel",)
"""Packages that import an optional extra (``openspiel``: pyspiel and numpy)."""
PIP_OPTIONS = ("--disable-pip-version-check", "--no-input", "--progress-bar", "off")
"""Options of every pip command (after its subcommand)."""
UNREACHABLE = re.compile(
    r"NewConnectionError|ConnectTimeout|ReadTimeout|timed out|Max retries exceeded|"
    r"Could not fetch URL|Temporary failure in name resolution|Name or service not known|"
    r"Network is unreachable|ProxyError|SSLError|No matching distribution found"
)
"""What pip says when it cannot reach an index (pip's other failures fail the test)."""

CRYPTO = "crypto==1.4.1"
"""PyPI's ``crypto`` (symmetric GPG file encryption), pinned: a pure-Python wheel whose only
package is a top-level ``crypto/``."""

BOTS_PYPROJECT = """\
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "bots"
version = "0.0.1"
description = "Not condottiere's bots: another package that happens to be called bots"

[tool.setuptools]
packages = ["bots"]
"""
BOTS_INIT = 'WHOSE = "the local bots package"\n'

PROBE = """\
import importlib, importlib.metadata, json, sys, sysconfig, traceback
owners = {}
for dist in importlib.metadata.distributions():
    for file in dist.files or ():
        owners.setdefault(str(dist.locate_file(file).resolve()), []).append(dist.metadata["Name"])
found = {}
for name in json.load(sys.stdin):
    try:
        module = importlib.import_module(name)
    except BaseException:
        found[name] = {"error": traceback.format_exc()}
        continue
    path = getattr(module, "__file__", None)
    from pathlib import Path
    resolved = None if path is None else str(Path(path).resolve())
    found[name] = {"file": resolved, "owners": sorted(owners.get(resolved, [])),
                   "whose": getattr(module, "WHOSE", None)}
print(json.dumps({"purelib": str(Path(sysconfig.get_paths()["purelib"]).resolve()),
                  "modules": found}))
"""
"""Run in a venv's Python: imports each module named on stdin (JSON) and prints, for each,
its file and the distributions whose RECORD lists that file, or the error."""


@dataclass(frozen=True)
class Venv:
    root: Path

    @property
    def python(self) -> Path:
        return self.root / "bin" / "python"

    @property
    def command(self) -> Path:
        """The ``condottiere`` console script."""
        return self.root / "bin" / "condottiere"

    def pip(self, subcommand: str, *args: str | Path, cwd: Path) -> None:
        run([self.python, "-m", "pip", subcommand, *PIP_OPTIONS, *args], cwd=cwd,
            timeout=PIP_SECONDS)

    def probe(self, modules: Sequence[str], cwd: Path) -> dict[str, Any]:
        """Where each module is imported from in this venv (see :data:`PROBE`)."""
        done = run([self.python, "-c", PROBE], cwd=cwd, stdin=json.dumps(list(modules)))
        return dict(json.loads(done.stdout))


@dataclass(frozen=True)
class Installed:
    """The wheel, and a venv holding PyPI's ``crypto``, the local ``bots`` and the wheel."""

    wheel: Path
    source: Path
    """The copy of the repository the wheel was built from."""
    venv: Venv
    elsewhere: Path
    """An empty folder outside the repository, to run commands in."""


def clean_environment() -> dict[str, str]:
    """The environment of a command run in a venv: nothing pointing Python at the
    repository or another venv (the pip settings, $CONDOTTIERE_INTERFACE and the rest kept)."""
    dropped = {"PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV", "__PYVENV_LAUNCHER__"}
    environment = {k: v for k, v in os.environ.items() if k not in dropped}
    environment["PYTHONNOUSERSITE"] = "1"
    return environment


def run(
    command: Sequence[str | Path],
    *,
    cwd: Path,
    timeout: float = COMMAND_SECONDS,
    stdin: str | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run ``command`` (bounded); it must exit 0, else the test fails with its output."""
    try:
        done = subprocess.run(
            [str(part) for part in command],
            cwd=cwd,
            env=clean_environment(),
            input=stdin,
            stdin=None if stdin is not None else subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired as late:
        said = late.output.decode(errors="replace") if isinstance(late.output, bytes) else ""
        pytest.fail(f"{command} still running after {timeout} s:\n{said[-4000:]}")
    assert done.returncode == 0, (
        f"{command} exited with {done.returncode}:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    )
    return done


def copy_of_repository(to: Path) -> Path:
    """The repository's files, without those .gitignore lists (venvs, build/, caches)."""
    ignored = [".git"]
    for line in (REPO / ".gitignore").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith(("#", "!")):
            ignored.append(line.strip("/"))
    shutil.copytree(REPO, to, ignore=shutil.ignore_patterns(*ignored), symlinks=True)
    return to


def pypi_or_skip(downloads: Path) -> Path:
    """Download PyPI's ``crypto`` wheel, or skip the test (saying why) when PyPI cannot be
    reached; the wheel."""
    done = subprocess.run(
        [sys.executable, "-m", "pip", "download", *PIP_OPTIONS, "--no-deps", "--only-binary",
         ":all:", "--dest", str(downloads), CRYPTO],
        env=clean_environment(), capture_output=True, text=True, timeout=PIP_SECONDS,
    )
    if done.returncode != 0:
        said = f"{done.stdout}\n{done.stderr}"
        if not UNREACHABLE.search(said):
            pytest.fail(f"'pip download {CRYPTO}' failed:\n{said[-4000:]}")
        last = said.strip().splitlines()[-1]
        pytest.skip(f"PyPI cannot be reached: 'pip download {CRYPTO}' failed: {last}")
    (wheel,) = downloads.glob("crypto-*.whl")
    return wheel


def build_wheel(source: Path, into: Path) -> Path:
    """``pip wheel --no-deps`` of ``source``; the project's wheel."""
    run([sys.executable, "-m", "pip", "wheel", *PIP_OPTIONS, "--no-deps", "--wheel-dir", into,
         source], cwd=source, timeout=PIP_SECONDS)
    (wheel,) = into.glob("condottiere-*.whl")
    return wheel


def fresh_venv(root: Path) -> Venv:
    run([sys.executable, "-m", "venv", root], cwd=root.parent)
    return Venv(root)


def local_bots_package(root: Path) -> Path:
    """A small package of our own whose import name is ``bots``."""
    (root / "bots").mkdir(parents=True)
    (root / "pyproject.toml").write_text(BOTS_PYPROJECT)
    (root / "bots" / "__init__.py").write_text(BOTS_INIT)
    return root


def install_beside_crypto_and_bots(root: Path) -> Installed:
    """Build the wheel and install it into a fresh venv after ``crypto`` and ``bots``."""
    crypto = pypi_or_skip(root / "downloads")
    source = copy_of_repository(root / "source")
    wheel = build_wheel(source, root / "wheels")
    venv = fresh_venv(root / "venv")
    venv.pip("install", crypto, local_bots_package(root / "bots-package"), cwd=root)
    venv.pip("install", wheel, cwd=root)
    elsewhere = root / "elsewhere"
    elsewhere.mkdir()
    return Installed(wheel, source, venv, elsewhere)


def shared_folder(factory: pytest.TempPathFactory) -> Path:
    """A folder of this run that every pytest-xdist worker sees (the parent of the workers'
    own temporary folders), or this process's own when not distributed."""
    base = factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """The wheel and its venv, made by the first worker that asks and shared by the others
    (each waits on a lock until it is ready; a skip or failure there is theirs too)."""
    shared = shared_folder(tmp_path_factory)
    root = shared / "install-test"
    status = shared / "install-test.json"
    with (shared / "install-test.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not status.exists():
            root.mkdir()
            try:
                made = install_beside_crypto_and_bots(root)
            except pytest.skip.Exception as skipped:
                status.write_text(json.dumps({"skip": str(skipped.msg)}))
                raise
            except BaseException as failed:
                status.write_text(json.dumps({"failed": f"{type(failed).__name__}: {failed}"}))
                raise
            status.write_text(json.dumps({"wheel": str(made.wheel)}))
    done = json.loads(status.read_text())
    if "skip" in done:
        pytest.skip(done["skip"])
    if "failed" in done:
        pytest.fail(f"installing the wheel failed (in another test): {done['failed']}")
    return Installed(Path(done["wheel"]), root / "source", Venv(root / "venv"), root / "elsewhere")


def wheel_files(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        return archive.namelist()


def wheel_modules(wheel: Path) -> list[str]:
    """Every module of the wheel, by its import name."""
    modules = []
    for name in wheel_files(wheel):
        if name.endswith(".py"):
            parts = name.removesuffix(".py").split("/")
            modules.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return sorted(modules)


def shipped_files(source: Path) -> dict[str, Path]:
    """Each file the wheel must hold (modules, stubs, .proto, py.typed, .md), by its path in
    the wheel, from the folders pyproject.toml maps into the namespace."""
    with (source / "pyproject.toml").open("rb") as file:
        mapping = tomllib.load(file)["tool"]["setuptools"]["package-dir"]
    placed: dict[Path, tuple[int, str]] = {}
    for package, folder in mapping.items():
        top = source / folder
        for path in top.rglob("*"):
            if "__pycache__" in path.parts or not path.is_file():
                continue
            if path.suffix not in {".py", ".pyi", ".proto", ".md"} and path.name != "py.typed":
                continue
            inside = "/".join([*package.split("."), *path.relative_to(top).parts])
            depth = len(top.parts)
            if path not in placed or placed[path][0] < depth:  # the innermost mapping wins
                placed[path] = (depth, inside)
    return {inside: path for path, (_, inside) in placed.items()}


def within(path: str | None, folder: Path) -> bool:
    return path is not None and Path(path).is_relative_to(folder)


def test_the_wheel_holds_the_condottiere_namespace_only_with_every_module_and_data_file(
    installed: Installed,
) -> None:
    names = wheel_files(installed.wheel)
    dist_info = next(n.split("/")[0] for n in names if n.split("/")[0].endswith(".dist-info"))
    assert {name.split("/")[0] for name in names} == {"condottiere", dist_info}
    with zipfile.ZipFile(installed.wheel) as archive:
        assert archive.read(f"{dist_info}/top_level.txt").decode().split() == ["condottiere"]
    expected = shipped_files(installed.source)
    missing = sorted(set(expected) - set(names))
    assert not missing, f"files of the repository the wheel lacks: {missing}"
    for data in (
        "condottiere/py.typed",
        "condottiere/v1/py.typed",
        "condottiere/v1/peer.proto",
        "condottiere/v1/peer_pb2.pyi",
        "condottiere/games/condottiere/RULES.md",
    ):
        assert data in names


def test_pypi_crypto_and_a_local_bots_package_stay_themselves_beside_the_installed_wheel(
    installed: Installed,
) -> None:
    found = installed.venv.probe(["crypto", "crypto.settings", "bots"], installed.elsewhere)
    purelib = Path(found["purelib"])
    crypto, settings, bots = (found["modules"][n] for n in ("crypto", "crypto.settings", "bots"))
    assert "error" not in crypto and "error" not in settings, found
    assert crypto["file"] == str(purelib / "crypto" / "__init__.py")
    assert crypto["owners"] == settings["owners"] == ["crypto"]  # condottiere wrote no file there
    assert "error" not in bots, found
    assert bots["file"] == str(purelib / "bots" / "__init__.py")
    assert (bots["owners"], bots["whose"]) == (["bots"], "the local bots package")


def test_every_module_of_the_wheel_imports_from_the_venv_not_from_the_repository(
    installed: Installed,
) -> None:
    named = [
        "condottiere.crypto",
        "condottiere.bots",
        "condottiere.peer",
        "condottiere.cli",
        "condottiere.games.condottiere",
        "condottiere.v1",
    ]
    modules = wheel_modules(installed.wheel)
    assert set(named) <= set(modules)
    assert not installed.elsewhere.is_relative_to(REPO)
    # The modules of an optional extra need it installed (the wheel's venv has none).
    modules = [name for name in modules if not name.startswith(OPTIONAL_EXTRAS)]
    found = installed.venv.probe(modules, installed.elsewhere)
    purelib = Path(found["purelib"])
    failed = {name: m["error"] for name, m in found["modules"].items() if "error" in m}
    assert not failed, "\n".join(f"{name}:\n{error}" for name, error in failed.items())
    for name, module in found["modules"].items():
        assert within(module["file"], purelib / "condottiere"), (name, module)
        assert module["owners"] == ["condottiere"], (name, module)
        assert not within(module["file"], REPO), (name, module)


def test_the_installed_command_plays_a_demo_game(installed: Installed) -> None:
    venv = installed.venv
    done = run(
        [venv.command, "demo", "--edition", "zman", "--players", "3", "--seed", "1"],
        cwd=installed.elsewhere,
    )
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Condottiere demo: ") and "[zman]" in lines[0]
    assert lines[-1].startswith(("Winner: seat", "Winners: seat", "A draw.")), lines[-3:]


def descendants(pid: int) -> list[int]:
    """The processes ``pid`` started and those they started, each before its own (read from
    /proc; [] where there is none)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        parents[int(stat.parent.name)] = int(fields[1])

    def below(parent: int) -> list[int]:
        children = [p for p, theirs in parents.items() if theirs == parent]
        return [d for child in children for d in (child, *below(child))]

    return below(pid)


def stop_host(host: subprocess.Popen[str]) -> None:
    """Kill the host this test started and the bot peers it started, each by its PID (the
    bots first, while they are still the host's children and their PIDs cannot be reused)."""
    for pid in reversed(descendants(host.pid)):
        with suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    if host.poll() is None:
        host.kill()
    host.wait(timeout=10)


def test_the_installed_wheel_plays_a_networked_game_of_a_host_and_two_bot_peers_on_loopback(
    installed: Installed, tmp_path: Path
) -> None:
    venv = installed.venv
    data = tmp_path / "host"
    host = subprocess.Popen(
        [str(venv.command), "host", "--edition", "zman", "--seats", "3", "--strategy",
         "greedy", "--bots", "greedy,random", "--interface", "127.0.0.1", "--listen",
         "127.0.0.1", "--name", "install-test", "--player", "host", "--seed", "1", "--data",
         str(data), "--new"],
        cwd=installed.elsewhere, env=clean_environment(), stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        out, _ = host.communicate(timeout=GAME_SECONDS)
    except subprocess.TimeoutExpired:
        stop_host(host)
        out, _ = host.communicate()
        pytest.fail(f"the game was not over after {GAME_SECONDS} s:\n{out[-4000:]}")
    finally:
        if host.poll() is None:  # interrupted
            stop_host(host)
    assert host.returncode == 0, out
    assert re.search(r"^listening on 127\.0\.0\.1:\d+", out, re.MULTILINE), out
    assert re.search(r"^game over: winners seat \d", out, re.MULTILINE), out
    summary = json.loads((data / "last-game.json").read_text())
    assert summary["halt"] is None and summary["audited"] and summary["winners"]
    # the bot peers the host started played the other seats of the same game to its end:
    bots = [json.loads((data / "bots" / f"{n}" / "last-game.json").read_text()) for n in (1, 2)]
    assert sorted(bot["seat"] for bot in bots) == [1, 2]  # in the order they joined
    assert {bot["record_hash"] for bot in bots} == {summary["record_hash"]}
    verdict = run([venv.command, "verify", summary["record"]], cwd=installed.elsewhere)
    assert "verdict: FAIR" in verdict.stdout


def test_a_plain_pip_install_dot_in_a_fresh_venv_installs_what_the_wheel_holds(
    installed: Installed, tmp_path: Path
) -> None:
    source = copy_of_repository(tmp_path / "source")
    venv = fresh_venv(tmp_path / "venv")
    venv.pip("install", ".", cwd=source)
    listed = run([venv.python, "-c", "import importlib.metadata as m, json; print(json.dumps("
                  "[str(f) for f in m.distribution('condottiere').files]))"],
                 cwd=installed.elsewhere)
    files = {f for f in json.loads(listed.stdout) if "__pycache__" not in f}
    packaged = {n for n in wheel_files(installed.wheel) if n.startswith("condottiere/")}
    assert {f for f in files if f.startswith("condottiere/")} == packaged
    elsewhere = {  # beside the namespace, only its dist-info and the console script (in bin/)
        f for f in files
        if not f.startswith(("condottiere/", "condottiere-")) and f != "../../../bin/condottiere"
    }
    assert not elsewhere, f"'pip install .' put files outside the namespace: {elsewhere}"
    done = run([venv.command, "--help"], cwd=installed.elsewhere)
    assert done.stdout.startswith("usage: condottiere")


def test_an_editable_install_in_a_fresh_venv_runs_the_command_from_the_source(
    tmp_path: Path,
) -> None:
    pypi_or_skip(tmp_path / "downloads")
    source = copy_of_repository(tmp_path / "source")
    venv = fresh_venv(tmp_path / "venv")
    venv.pip("install", "-e", ".", cwd=source)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = run([venv.command, "--help"], cwd=elsewhere)
    assert done.stdout.startswith("usage: condottiere")
    places = {
        "condottiere.crypto": source / "crypto" / "__init__.py",
        "condottiere.bots": source / "bots" / "__init__.py",
        "condottiere.peer": source / "peer" / "__init__.py",
        "condottiere.cli.main": source / "cli" / "main.py",
        "condottiere.games.condottiere": source / "games" / "condottiere" / "__init__.py",
        "condottiere.v1": source / "proto" / "condottiere" / "v1" / "__init__.py",
    }
    found = venv.probe([*places, "crypto", "bots", "peer", "cli", "games"], elsewhere)
    for name, path in places.items():
        assert found["modules"][name].get("file") == str(path.resolve()), found["modules"][name]
    for top in ("crypto", "bots", "peer", "cli", "games"):  # nothing else at the top level
        assert "No module named" in found["modules"][top].get("error", ""), found["modules"][top]
