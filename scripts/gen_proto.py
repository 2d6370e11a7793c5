"""Generate the Python bindings of the protocol buffers (messages, gRPC stubs and mypy-protobuf
type stubs), each beside its ``.proto`` file.

The platform's protocol is ``proto/condottiere/v1/*.proto`` (package ``condottiere.v1``, with
its services). Each game ships its own messages (its part of the controller's ``View``,
packed in a ``google.protobuf.Any``) as ``.proto`` files in its own folder, compiled as the
place they are imported from: ``games/NAME/*.proto`` as ``condottiere/games/NAME/*.proto``.
A game the test suite defines (one not shipped) is compiled the same way, each folder of
``tests/`` that holds a ``.proto`` file as a top-level package of its own name:
``tests/.../NAME/*.proto`` as ``NAME/*.proto``.

Usage: ``.venv/bin/python scripts/gen_proto.py [--check]``

With ``--check`` nothing is written: the bindings are generated into a temporary folder and
compared with the committed ones; the exit status is 1 (and the differing files are named)
when they have drifted from their ``.proto`` files. CI runs the check.
"""

from __future__ import annotations

import argparse
import filecmp
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
"""Where mypy-protobuf's protoc plugins are installed (beside this Python)."""
GENERATED_SUFFIXES = ("_pb2.py", "_pb2.pyi", "_pb2_grpc.py", "_pb2_grpc.pyi")


@dataclass(frozen=True)
class Folder:
    """A folder of ``.proto`` files, compiled as if it were at ``imported_as``."""

    disk: Path
    imported_as: str
    services: bool = False
    """Whether its files declare services (gRPC stubs are generated for them)."""

    def sources(self) -> list[Path]:
        return sorted(self.disk.glob("*.proto"))

    def committed(self) -> list[Path]:
        return sorted(p for p in self.disk.iterdir() if p.name.endswith(GENERATED_SUFFIXES))


def folders() -> list[Folder]:
    """The platform's protocol, then every game's folder that holds a ``.proto`` file, then
every such folder of the tests."""
    platform = Folder(ROOT / "proto" / "condottiere" / "v1", "condottiere/v1", services=True)
    games = [
        Folder(folder, f"condottiere/games/{folder.name}")
        for folder in sorted((ROOT / "games").iterdir())
        if folder.is_dir() and any(folder.glob("*.proto"))
    ]
    tested = [
        Folder(folder, folder.name)
        for folder in sorted({source.parent for source in (ROOT / "tests").rglob("*.proto")})
    ]
    return [platform, *games, *tested]


def generate(folder: Folder, out: Path) -> dict[Path, Path]:
    """Run protoc on ``folder``'s ``.proto`` files, writing under ``out``; each file made, with
    the file of the folder it stands for."""
    sources = folder.sources()
    if not sources:
        raise SystemExit(f"no .proto files in {folder.disk}")
    outputs = ["--python_out", "--mypy_out"]
    if folder.services:
        outputs += ["--grpc_python_out", "--mypy_grpc_out"]
    command = [
        sys.executable, "-m", "grpc_tools.protoc",
        f"--proto_path={folder.imported_as}={folder.disk}",
        f"--plugin=protoc-gen-mypy={BIN / 'protoc-gen-mypy'}",
        f"--plugin=protoc-gen-mypy_grpc={BIN / 'protoc-gen-mypy_grpc'}",
        *(f"{option}={out}" for option in outputs),
        *(f"{folder.imported_as}/{source.name}" for source in sources),
    ]
    out.mkdir(parents=True)
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"protoc failed:\n{result.stderr}")
    made = out / folder.imported_as
    return {
        path: folder.disk / path.name
        for path in sorted(made.iterdir())
        if path.name.endswith(GENERATED_SUFFIXES)
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--check", action="store_true", help="compare with the committed bindings, write nothing"
    )
    args = parser.parse_args(argv)
    drifted: list[Path] = []
    written = 0
    with tempfile.TemporaryDirectory() as scratch:
        for index, folder in enumerate(folders()):
            made = generate(folder, Path(scratch) / str(index))
            if args.check:
                drifted += [
                    target
                    for target in sorted(set(made.values()) | set(folder.committed()))
                    if target not in made.values()
                    or not target.exists()
                    or not filecmp.cmp(
                        next(m for m, t in made.items() if t == target), target, shallow=False
                    )
                ]
                continue
            for stale in folder.committed():
                stale.unlink()
            for path, target in made.items():
                shutil.copyfile(path, target)
            written += len(made)
    if args.check:
        if drifted:
            print("generated bindings differ from their .proto files; run scripts/gen_proto.py:")
            print("\n".join(f"  {path.relative_to(ROOT)}" for path in drifted))
            return 1
        print("the generated bindings match their .proto files")
        return 0
    print(f"wrote {written} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
