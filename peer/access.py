"""Who may drive a peer: whoever can read its owner-only token file.

A peer's data directory holds ``controller.token`` (mode 0600, made on the first start), a
random secret that every call to the peer's controller service must carry as the gRPC metadata
``authorization: Bearer TOKEN``. Reading the file is what proves a caller is the peer's owner:
another user of the machine cannot, and a bot of another peer holds another token.

>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as folder:
...     token = owner_token(pathlib.Path(folder))
...     again = owner_token(pathlib.Path(folder))
...     mode = oct((pathlib.Path(folder) / TOKEN_FILE).stat().st_mode & 0o777)
>>> token == again, len(token), mode
(True, 64, '0o600')
>>> carries_token((("authorization", f"Bearer {token}"),), token)
True
>>> carries_token((("authorization", "Bearer 00"),), token), carries_token((), token)
(False, False)
"""

from __future__ import annotations

import hmac
import os
import secrets
import string
from collections.abc import Iterable
from pathlib import Path

__all__ = ["METADATA_KEY", "TOKEN_FILE", "carries_token", "owner_token"]

TOKEN_FILE = "controller.token"
METADATA_KEY = "authorization"
"""The gRPC metadata that carries the token, as ``Bearer TOKEN``."""
_TOKEN_BYTES = 32


def owner_token(directory: Path) -> str:
    """The token of the data directory ``directory``, made (owner-only) if there is none yet or
    the file does not hold one."""
    path = directory / TOKEN_FILE
    try:
        token = path.read_text().strip()
    except FileNotFoundError:
        token = ""
    if len(token) != 2 * _TOKEN_BYTES or not set(token) <= set(string.hexdigits.lower()):
        token = secrets.token_hex(_TOKEN_BYTES)
        path.unlink(missing_ok=True)
        descriptor = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        with os.fdopen(descriptor, "w") as file:
            file.write(token + "\n")
    os.chmod(path, 0o600)
    return token


def carries_token(metadata: Iterable[tuple[str, str | bytes]] | None, token: str) -> bool:
    """Whether a call's ``metadata`` carries ``token`` (compared in constant time)."""
    for key, value in metadata or ():
        if key.lower() == METADATA_KEY and isinstance(value, str):
            scheme, _, given = value.partition(" ")
            if scheme.lower() == "bearer" and hmac.compare_digest(
                given.strip().encode(), token.encode()
            ):
                return True
    return False
