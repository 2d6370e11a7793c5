"""Loading libsodium's ristretto255 functions from the rbcl wheel leaves no file behind."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from condottiere.crypto import sodium


def _temporary_files() -> set[str]:
    return set(os.listdir(tempfile.gettempdir()))


def test_the_loaded_library_is_libsodium_with_ristretto255() -> None:
    assert sodium.version() == "1.0.18"
    base = sodium.crypto_scalarmult_ristretto255_base((1).to_bytes(32, "little"))
    assert sodium.crypto_core_ristretto255_is_valid_point(base)


def test_loading_from_memory_writes_no_file() -> None:
    before = _temporary_files()
    library = sodium._load()
    assert library.crypto_core_ristretto255_bytes() == sodium.POINT_BYTES
    assert _temporary_files() <= before
    maps = Path("/proc/self/maps").read_text()
    assert "memfd:libsodium-ristretto255" in maps


def test_without_memory_files_the_temporary_file_is_gone_once_loaded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delattr(os, "memfd_create")
    before = _temporary_files()
    library = sodium._load()
    assert library.crypto_core_ristretto255_scalarbytes() == 32
    assert _temporary_files() <= before


def test_non_bytes_and_wrong_lengths_never_reach_libsodium() -> None:
    base = sodium.crypto_scalarmult_ristretto255_base((1).to_bytes(32, "little"))
    assert not sodium.crypto_core_ristretto255_is_valid_point(base.hex()[:32])  # type: ignore[arg-type]
    assert not sodium.crypto_core_ristretto255_is_valid_point(bytearray(base))  # type: ignore[arg-type]
    with pytest.raises(sodium.SodiumError):
        sodium.crypto_scalarmult_ristretto255(bytes(31), base)
    with pytest.raises(sodium.SodiumError):
        sodium.crypto_core_ristretto255_sub(base, None)  # type: ignore[arg-type]
