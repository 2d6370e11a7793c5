"""Parsing the project's sources in tests."""

from __future__ import annotations

import ast
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path


def parsed(path: Path) -> ast.Module:
    """The syntax tree of the file at ``path``, parsed on a thread of its own: CPython 3.11.7's
    AST constructor can fail with "AST constructor recursion depth mismatch" on a thread whose
    recursion counters an earlier test left deep (fixed in later 3.11 releases); a fresh thread
    starts from zero."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(ast.parse, path.read_text(), str(path)).result()
