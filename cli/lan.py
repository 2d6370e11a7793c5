"""A peer on the LAN: the options that place it (``--interface``, where zeroconf listens and
advertises; ``--listen``, the address it serves the others on), its start on the LAN, and the
join of a table named by address, by name or by id.

By default both are the LAN interface of this machine
(:func:`condottiere.peer.interfaces.default_interface`), which is what a LAN party needs.
``$CONDOTTIERE_INTERFACE`` replaces that default: the tests set it to 127.0.0.1 so that nothing
they start is seen beyond this machine. ``--listen`` is the interface's address unless given; it
must be one address (the other peers are told it), and a loopback address only when zeroconf is on
loopback too (else the tables advertised on the LAN would point where nobody else can reach).
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from condottiere.peer.interfaces import Interface, default_interface, local_interfaces, pick

if TYPE_CHECKING:  # zeroconf and gRPC are imported when a peer goes on the LAN, not before
    from condottiere.peer.node import Node
    from condottiere.peer.presence import Presence

__all__ = [
    "INTERFACE_VARIABLE",
    "Placement",
    "add_interface_option",
    "add_listen_option",
    "go_on_lan",
    "is_address",
    "join_table",
    "placement_from",
]

INTERFACE_VARIABLE = "CONDOTTIERE_INTERFACE"
FOUND_PATIENCE = 1.0
"""How long a peer advertising a table found on the LAN is asked again before the next one
(it advertises once it has its table, so it is up)."""
ADDRESS = re.compile(r"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):[0-9]{1,5}")


@dataclass(frozen=True)
class Placement:
    """Where a peer is on the network."""

    interface: Interface
    """Zeroconf listens and advertises on its addresses."""
    why: str
    """How the interface was chosen, for the player."""
    listen: str
    """The address the peer serves on (and advertises)."""


def add_interface_option(parser: argparse._ActionsContainer) -> None:
    parser.add_argument(
        "--interface",
        metavar="NAME_OR_ADDRESS",
        default=None,
        help="the network interface (e.g. eth0) or one of its addresses where tables are "
        "advertised and looked for (default: $CONDOTTIERE_INTERFACE, else the interface of "
        "this machine's route to the LAN)",
    )


def add_listen_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--listen",
        metavar="ADDRESS",
        default=None,
        help="the address to serve other peers on (default: the address of --interface)",
    )


def placement_from(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Placement:
    """The interface and listening address the options ask for; bad input exits with
    status 2 and the reason."""
    named = args.interface or os.environ.get(INTERFACE_VARIABLE)
    if named:
        try:
            interface = pick(named, local_interfaces())
        except ValueError as exc:
            parser.error(f"--interface: {exc}")
        why = f"on {interface}" + ("" if args.interface else f" (${INTERFACE_VARIABLE})")
    else:
        interface, why = default_interface()
    listen = getattr(args, "listen", None) or interface.addresses[0]
    try:
        address = ipaddress.IPv4Address(listen)
    except ValueError:
        parser.error(f"--listen takes one IPv4 address of this machine, not {listen!r}")
    instead = f"leave --listen out to serve on {interface.addresses[0]}"
    if address.is_unspecified:
        parser.error(
            f"--listen {listen} means every interface, but the other peers must be told one "
            f"address: {instead}"
        )
    if address.is_loopback and not interface.loopback:
        parser.error(f"--listen {listen} cannot be reached from {interface}: {instead}")
    return Placement(interface, why, listen)


def is_address(text: str) -> bool:
    """Whether ``text`` reads as ``HOST:PORT`` rather than a table's name or id.

    >>> is_address("10.0.0.5:40123"), is_address("Friday"), is_address("3f2a9c")
    (True, False, False)
    """
    return ADDRESS.fullmatch(text) is not None


async def go_on_lan(
    node: Node, placement: Placement, say: Callable[[str], None]
) -> Presence | None:
    """Start browsing the LAN for the node (which serves already); None, with the reason
    said, where zeroconf cannot run: the peer then works by address only."""
    from condottiere.peer.discovery import DiscoveryError, Lan
    from condottiere.peer.presence import Presence

    try:
        presence = Presence(node, Lan(placement.interface), say=say)
        await presence.start()
    except DiscoveryError as exc:
        say(f"{exc}; tables are joined by address only")
        return None
    say(f"tables are advertised and looked for {placement.why}")
    return presence


async def join_table(
    node: Node, presence: Presence | None, wanted: str, player: str, wait: float
) -> str:
    """Ask for a seat at the table ``wanted`` names: ``HOST:PORT``, or a table on the LAN by
    its name or a prefix of its id (looked for up to ``wait`` seconds); the address asked.
    The peers advertising a table are asked at once which table they serve, and those that
    serve it are asked for a seat first, quickest first (the others only if none does).
    :class:`JoinError` saying why not."""
    from condottiere.peer.discovery import answering_first
    from condottiere.peer.node import JoinError

    if is_address(wanted):
        await node.join_table(wanted, player)
        return wanted
    if presence is None:
        raise JoinError(f"cannot look for {wanted!r} without zeroconf: join by HOST:PORT")
    try:
        listing = await presence.find(wanted, wait)
    except LookupError as exc:
        raise JoinError(str(exc)) from None
    reason = listing.why_not_joinable()
    if reason is not None:
        raise JoinError(f"cannot join {listing.advert.name!r}: {reason}")
    ordered, failed = await answering_first(listing.addresses, listing.advert)
    answering = [address for address in ordered if address not in failed]
    failures = []
    for address in answering or ordered:
        try:
            await node.join_table(
                address, player, patience=FOUND_PATIENCE, table_id=bytes.fromhex(listing.table_id)
            )
        except JoinError as exc:
            failures.append(str(exc))
        else:
            return address
    raise JoinError(f"no peer of {listing.advert.name!r} takes joiners: {'; '.join(failures)}")


async def watch_table(node: Node, presence: Presence | None, wanted: str, wait: float) -> str:
    """Follow the table ``wanted`` names (as :func:`join_table` finds it) without a seat: a
    full table, or one whose game has begun, may be watched; the address followed.
    :class:`JoinError` saying why not (a table that admits no spectators among others)."""
    from condottiere.peer.node import JoinError

    if is_address(wanted):
        await node.watch_table(wanted)
        return wanted
    if presence is None:
        raise JoinError(f"cannot look for {wanted!r} without zeroconf: watch by HOST:PORT")
    try:
        listing = await presence.find(wanted, wait)
    except LookupError as exc:
        raise JoinError(str(exc)) from None
    failures = []
    for address in listing.addresses:
        try:
            await node.watch_table(
                address, patience=FOUND_PATIENCE, table_id=bytes.fromhex(listing.table_id)
            )
        except JoinError as exc:
            failures.append(str(exc))
        else:
            return address
    raise JoinError(f"cannot watch {listing.advert.name!r}: {'; '.join(failures)}")
