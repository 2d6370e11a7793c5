"""A LAN of its own for a test: network namespaces joined by a bridge (needs root and ``ip``).

One namespace holds the bridge; each host namespace has ``lo`` and an ``eth0`` (one end of a
veth pair whose other end is on the bridge) with the address ``10.77.0.N/24``. Every address
lives inside the namespaces: nothing is added to the machine's own interfaces. The names are
unique to the run (``cdt-lan-PID-RANDOM-...``); deleting the namespaces removes the veths and
the bridge, and it is done at the end even when the test fails. Namespaces left by a run that
was killed (its PID gone) are deleted at the next start.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

__all__ = ["PREFIX", "Host", "cannot_create_namespaces", "namespaces"]

PREFIX = "cdt-lan-"
SUBNET = "10.77.0"
IP_SECONDS = 10


@dataclass(frozen=True)
class Host:
    namespace: str
    address: str

    @property
    def wrapper(self) -> list[str]:
        """The command prefix that runs a program in this host's namespace (it keeps its PID)."""
        return ["ip", "netns", "exec", self.namespace]


def cannot_create_namespaces() -> str | None:
    """Why this machine cannot give a test namespaces, or None when it can."""
    if os.geteuid() != 0:
        return "creating network namespaces needs root"
    if shutil.which("ip") is None:
        return "the 'ip' command (iproute2) is not installed"
    probe = f"{PREFIX}{os.getpid()}-probe"
    added = _ip("netns", "add", probe, check=False)
    if added.returncode != 0:
        return f"'ip netns add' fails here: {added.stderr.strip()}"
    _ip("netns", "del", probe, check=False)
    return None


@contextmanager
def namespaces(hosts: int) -> Iterator[list[Host]]:
    """``hosts`` namespaces on one bridge, deleted at the end (whatever happens)."""
    _delete_leftovers()
    run = f"{PREFIX}{os.getpid()}-{os.urandom(3).hex()}"
    switch = f"{run}-sw"
    created: list[str] = []
    try:
        _ip("netns", "add", switch)
        created.append(switch)
        _ip("-n", switch, "link", "add", "br0", "type", "bridge")
        _ip("-n", switch, "link", "set", "br0", "up")
        found = []
        for number in range(1, hosts + 1):
            host = Host(f"{run}-n{number}", f"{SUBNET}.{number}")
            _ip("netns", "add", host.namespace)
            created.append(host.namespace)
            _ip("-n", host.namespace, "link", "set", "lo", "up")
            _ip("link", "add", "eth0", "netns", host.namespace, "type", "veth",
                "peer", "name", f"p{number}", "netns", switch)
            _ip("-n", switch, "link", "set", f"p{number}", "master", "br0")
            _ip("-n", switch, "link", "set", f"p{number}", "up")
            _ip("-n", host.namespace, "addr", "add", f"{host.address}/24", "dev", "eth0")
            _ip("-n", host.namespace, "link", "set", "eth0", "up")
            found.append(host)
        yield found
    finally:
        for namespace in reversed(created):
            _ip("netns", "del", namespace, check=False)


def _delete_leftovers() -> None:
    listed = _ip("netns", "list", check=False).stdout.split()
    for name in listed:
        if not name.startswith(PREFIX):
            continue
        owner = name.removeprefix(PREFIX).split("-")[0]
        if owner.isdigit() and not _alive(int(owner)):
            _ip("netns", "del", name, check=False)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        ["ip", *args], capture_output=True, text=True, timeout=IP_SECONDS, check=False
    )
    if check and done.returncode != 0:
        raise RuntimeError(f"ip {' '.join(args)}: {done.stderr.strip()}")
    return done
