"""Every peer a test starts advertises and looks for tables on loopback only: nothing a test
does is seen beyond this machine (a test that needs other interfaces creates its own network
namespaces and names their addresses)."""

from __future__ import annotations

import os

import pytest

from condottiere.cli.lan import INTERFACE_VARIABLE


def pytest_configure(config: pytest.Config) -> None:
    os.environ[INTERFACE_VARIABLE] = "127.0.0.1"
