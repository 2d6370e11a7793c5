"""Generate the Python bindings of ``proto/condottiere/v1/*.proto`` (messages, gRPC stubs and
mypy-protobuf type stubs), beside the ``.proto`` files.

Usage: ``.venv/bin/python scripts/gen_proto.py [--check]``

With ``--check`` nothing is written: the bindings are generated into a temporary folder and
compared with the committed ones; the exit status is 1 (and the differing files are named)
when they have drifted from ``proto/``. CI runs the check.
"""

from __future__ import annotations

import argparse
import filecmp
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTO_ROOT = ROOT / "proto"
PACKAGE = Path("condottiere") / "v1"
BIN = Path(sys.executable).parent
"""Where mypy-protobuf's protoc plugins are installed (beside this Python)."""
GENERATED_SUFFIXES = ("_pb2.py", "_pb2.pyi", "_pb2_grpc.py", "_pb2_grpc.pyi")


def generate(out: Path) -> list[Path]:
    """Run protoc on every ``.proto`` of the package, writing under ``out``; the files made."""
    sources = sorted((PROTO_ROOT / PACKAGE).glob("*.proto"))
    if not sources:
        raise SystemExit(f"no .proto files in {PROTO_ROOT / PACKAGE}")
    (out / PACKAGE).mkdir(parents=True, exist_ok=True)
    command = [
        sys.executable, "-m", "grpc_tools.protoc", f"-I{PROTO_ROOT}",
        f"--plugin=protoc-gen-mypy={BIN / 'protoc-gen-mypy'}",
        f"--plugin=protoc-gen-mypy_grpc={BIN / 'protoc-gen-mypy_grpc'}",
        f"--python_out={out}", f"--grpc_python_out={out}",
        f"--mypy_out={out}", f"--mypy_grpc_out={out}",
        *(str(source.relative_to(PROTO_ROOT)) for source in sources),
    ]  # fmt: skip
    result = subprocess.run(command, cwd=PROTO_ROOT, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"protoc failed:\n{result.stderr}")
    return sorted(
        path.relative_to(out)
        for path in (out / PACKAGE).iterdir()
        if path.name.endswith(GENERATED_SUFFIXES)
    )


def committed() -> list[Path]:
    return sorted(
        path.relative_to(PROTO_ROOT)
        for path in (PROTO_ROOT / PACKAGE).iterdir()
        if path.name.endswith(GENERATED_SUFFIXES)
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--check", action="store_true", help="compare with the committed bindings, write nothing"
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        made = generate(Path(scratch))
        if args.check:
            drifted = sorted(
                str(path)
                for path in set(made) | set(committed())
                if not (PROTO_ROOT / path).exists()
                or not (Path(scratch) / path).exists()
                or not filecmp.cmp(Path(scratch) / path, PROTO_ROOT / path, shallow=False)
            )
            if drifted:
                print("generated bindings differ from proto/; run scripts/gen_proto.py:")
                print("\n".join(f"  proto/{path}" for path in drifted))
                return 1
            print(f"{len(made)} generated files match proto/")
            return 0
        for stale in committed():
            (PROTO_ROOT / stale).unlink()
        for path in made:
            shutil.copyfile(Path(scratch) / path, PROTO_ROOT / path)
        print(f"wrote {len(made)} files under proto/{PACKAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
