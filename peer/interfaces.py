"""Which of this machine's network interfaces a peer shows itself on.

A player names an interface (``eth0``) or one of its IPv4 addresses (``192.168.1.20``); with
neither, the peer takes the LAN interface: the one that holds the route to other networks,
else the only interface besides loopback, else loopback (then only this machine sees it).
Zeroconf listens and advertises on the chosen addresses only, never on every interface.

>>> loopback = Interface("lo", ("127.0.0.1",))
>>> lan = Interface("eth0", ("192.168.1.20",))
>>> choose_default([loopback, lan], route_address=None)[0]
Interface(name='eth0', addresses=('192.168.1.20',))
>>> pick("127.0.0.1", [loopback, lan])
Interface(name='lo', addresses=('127.0.0.1',))
>>> pick("10.0.0.7", [loopback, lan])
Traceback (most recent call last):
...
ValueError: no interface has the address 10.0.0.7 (this machine has lo 127.0.0.1, eth0 192.168.1.20)
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Sequence
from dataclasses import dataclass

import ifaddr

__all__ = ["Interface", "choose_default", "default_interface", "local_interfaces", "pick"]

ROUTE_PROBE = ("192.0.2.1", 9)
"""A documentation address (RFC 5737): connecting a UDP socket to it asks the kernel which
source address its route would use, and sends nothing."""


@dataclass(frozen=True)
class Interface:
    """A network interface of this machine and the IPv4 addresses a peer uses on it."""

    name: str
    addresses: tuple[str, ...]

    @property
    def loopback(self) -> bool:
        return all(ipaddress.IPv4Address(address).is_loopback for address in self.addresses)

    def __str__(self) -> str:
        return f"{self.name} ({', '.join(self.addresses)})"


def local_interfaces() -> list[Interface]:
    """Every interface of this machine that has an IPv4 address, in the system's order."""
    found = []
    for adapter in ifaddr.get_adapters():
        addresses = tuple(ip.ip for ip in adapter.ips if isinstance(ip.ip, str))
        if addresses:
            found.append(Interface(adapter.name, addresses))
    return found


def pick(text: str, interfaces: Sequence[Interface]) -> Interface:
    """The interface named ``text``, or the one holding the address ``text`` (then only that
    address); ValueError saying what this machine has instead."""
    text = text.strip()
    for interface in interfaces:
        if interface.name == text:
            return interface
    try:
        address = str(ipaddress.IPv4Address(text))
    except ValueError:
        address = ""
    if address and ipaddress.IPv4Address(address).is_unspecified:
        raise ValueError(f"{text} means every interface: name one interface or one address")
    for interface in interfaces:
        if address in interface.addresses:
            return Interface(interface.name, (address,))
    known = ", ".join(f"{i.name} {' '.join(i.addresses)}" for i in interfaces) or "none"
    if address:
        raise ValueError(f"no interface has the address {address} (this machine has {known})")
    raise ValueError(
        f"no interface is called {text!r} or has that address (this machine has {known})"
    )


def choose_default(
    interfaces: Sequence[Interface], route_address: str | None
) -> tuple[Interface, str]:
    """The interface a LAN party needs, and a sentence saying why it was taken: the one
    holding ``route_address`` (the source of the route to other networks), else the only
    interface besides loopback, else the first of several (the player may name another),
    else loopback."""
    others = [interface for interface in interfaces if not interface.loopback]
    for interface in others:
        if route_address in interface.addresses:
            chosen = Interface(interface.name, (route_address,))
            return chosen, f"on {chosen}, the interface of this machine's route to the LAN"
    if len(others) == 1:
        return others[0], f"on {others[0]}, this machine's only network interface"
    if others:
        names = ", ".join(interface.name for interface in others)
        return others[0], f"on {others[0]} (of {names}: choose with --interface)"
    loopback = next(
        (interface for interface in interfaces if interface.loopback),
        Interface("lo", ("127.0.0.1",)),
    )
    return loopback, f"on {loopback} only: this machine has no other network interface"


def default_interface() -> tuple[Interface, str]:
    """The LAN interface of this machine (see :func:`choose_default`)."""
    return choose_default(local_interfaces(), _route_address())


def _route_address() -> str | None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(ROUTE_PROBE)
        except OSError:  # no route: a LAN with no gateway
            return None
        address = probe.getsockname()[0]
    return str(address)
