"""``condottiere tables``: the tables on the LAN, as they appear, change and go.

Live by default: on a terminal the list is drawn again at each change; otherwise one line per
change (``+`` a table appears, ``~`` it changes, ``-`` it goes, ``!`` an advertisement is
refused). ``--once`` looks for ``--wait`` seconds, prints the list and exits (``--json`` for a
script). Every advertised peer is asked which table it serves, so a service pointing to a
closed port, or to another table than it claims, is shown with the reason. Services beyond
what a browser follows (:data:`~condottiere.peer.discovery.MAX_SIGHTINGS`) are counted and
the count printed (``dropped`` in the JSON).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import shlex
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, TextIO

from condottiere.cli.lan import Placement, add_interface_option, placement_from
from condottiere.interface import DEFAULT_GAME

if TYPE_CHECKING:  # zeroconf is imported when the command runs, not to build the parser
    from condottiere.peer.discovery import Browser, Listing, Sighting

__all__ = ["add_command", "listing_line", "run_tables"]

DEFAULT_WAIT = 1.5
CLEAR = "\x1b[H\x1b[2J"


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``tables`` to a parser."""
    tables = commands.add_parser(
        "tables",
        help="list the tables on the LAN (live, or --once)",
        description="List the tables advertised on the LAN as they appear, change and go, "
        "with their name, edition, seats, the fingerprint of their creator's key and the "
        "addresses of their peers. Join one with 'condottiere join NAME'.",
    )
    tables.add_argument(
        "--once",
        action="store_true",
        help="look for --wait seconds, print the list and exit (for scripts)",
    )
    tables.add_argument(
        "--wait",
        type=float,
        default=DEFAULT_WAIT,
        metavar="SECONDS",
        help=f"with --once, how long to look (default {DEFAULT_WAIT})",
    )
    tables.add_argument(
        "--json", action="store_true", help="with --once, print the list as JSON"
    )
    add_interface_option(tables)


def main_tables(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Run ``condottiere tables``."""
    if args.json and not args.once:
        parser.error("--json needs --once")
    if not args.wait >= 0:
        parser.error(f"--wait must be 0 or more, not {args.wait}")
    return run_tables(placement_from(parser, args), args.once, args.wait, args.json)


def run_tables(
    placement: Placement, once: bool, wait: float, as_json: bool, out: TextIO | None = None
) -> int:
    """List the tables (see the module) on ``out`` (default: standard output); the exit
    status."""
    from condottiere.peer.discovery import DiscoveryError

    try:
        return asyncio.run(_tables(placement, once, wait, as_json, out or sys.stdout))
    except KeyboardInterrupt:
        return 0
    except DiscoveryError as exc:
        print(f"condottiere: {exc}", file=sys.stderr)
        return 1


async def _tables(
    placement: Placement, once: bool, wait: float, as_json: bool, out: TextIO
) -> int:
    from condottiere.peer.discovery import Browser, Lan

    lan = Lan(placement.interface)
    browser = Browser(lan, check=True)
    try:
        await browser.start()
        if once:
            await asyncio.sleep(wait)
            if as_json:
                print(json.dumps(_as_json(browser), indent=2), file=out)
            else:
                _print_all(browser, out, f"after {wait:g} s {placement.why}")
            return 0
        await _live(browser, out, placement.why, out.isatty())
        return 0
    finally:
        await browser.stop()
        await lan.close()


async def _live(browser: Browser, out: TextIO, where: str, redraw: bool) -> None:
    if not redraw:
        print(f"looking for tables {where} (Ctrl-C stops)", file=out, flush=True)
    shown: dict[str, Listing] = {}
    refused: set[tuple[str, str]] = set()
    drawn = ""
    while True:
        if redraw:
            screen = io.StringIO()
            _print_all(browser, screen, f"{where}; Ctrl-C stops")
            if screen.getvalue() != drawn:
                drawn = screen.getvalue()
                print(CLEAR + drawn, end="", file=out, flush=True)
        else:
            shown = _print_changes(browser, shown, refused, out)
        await browser.changes()


def _print_changes(
    browser: Browser, shown: dict[str, Listing], refused: set[tuple[str, str]], out: TextIO
) -> dict[str, Listing]:
    """Print what changed since ``shown``; the listings now shown."""
    now = {_key(listing): listing for listing in browser.listings()}
    for key, listing in now.items():
        if key not in shown:
            print(f"+ {listing_line(listing)}", file=out)
        elif listing_line(shown[key]) != listing_line(listing):
            print(f"~ {listing_line(listing)}", file=out)
    for key, listing in shown.items():
        if key not in now:
            print(f"- {listing.advert.name or key} is gone", file=out)
    for sighting in _refused(browser.sightings.values()):
        seen = (sighting.service, sighting.refused)
        if seen not in refused:
            refused.add(seen)
            print(f"! {_ignored_line(sighting)}", file=out)
    out.flush()
    return now


def _print_all(browser: Browser, out: TextIO, where: str) -> None:
    from condottiere.peer.discovery import MAX_SIGHTINGS

    tables = browser.listings()
    print(f"{len(tables)} table{'s' * (len(tables) != 1)} {where}", file=out)
    for listing in tables:
        print(f"  {listing_line(listing)}", file=out)
    for sighting in _refused(browser.sightings.values()):
        print(f"  ! {_ignored_line(sighting)}", file=out)
    if browser.ignored:
        print(f"  ! {browser.ignored} more services not followed (at most {MAX_SIGHTINGS} are)",
              file=out)


def listing_line(listing: Listing) -> str:
    """One table in one line: name, game (but Condottiere's) and edition, seats, stage,
    creator, address, and whether (or why not) it can be joined."""
    advert = listing.advert
    addresses = listing.addresses
    where = "no address" if not addresses else addresses[0] + (
        f" (+{len(addresses) - 1})" if len(addresses) > 1 else ""
    )
    reason = listing.why_not_joinable()
    status = (
        f"join with: condottiere join {_join_name(listing)}"
        if reason is None
        else f"not joinable: {reason}"
    )
    if not advert.edition:
        return f"{advert.name or '?'}  {where}  {status}"
    edition = "+".join((advert.edition, *advert.options))
    if advert.game and advert.game != DEFAULT_GAME:
        edition = f"{advert.game} {edition}"
    seats = f"{advert.taken}/{advert.seats} seats"
    return (
        f"{advert.name}  {edition}  {seats}  {advert.stage}  host key {advert.creator}  "
        f"{where}  {status}"
    )


def _join_name(listing: Listing) -> str:
    """What to type after ``condottiere join``: the name, unless it reads as an address."""
    name = listing.advert.name
    return listing.table_id[:8] if ":" in name else shlex.quote(name)


def _key(listing: Listing) -> str:
    return f"{listing.advert.protocol}/{listing.table_id or listing.sightings[0].service}"


def _refused(sightings: Iterable[Sighting]) -> list[Sighting]:
    return sorted((s for s in sightings if s.advert is None), key=lambda s: s.service)


def _ignored_line(sighting: Sighting) -> str:
    name = sighting.service if sighting.service.isprintable() else repr(sighting.service)
    at = f" at {sighting.address}" if sighting.address else ""
    return f"ignored {name}{at}: {sighting.refused}"


def _as_json(browser: Browser) -> dict[str, object]:
    from condottiere.peer.discovery import MAX_SIGHTINGS

    return {
        "tables": [
            {
                "table": listing.table_id,
                "protocol": listing.advert.protocol,
                "name": listing.advert.name,
                "game": listing.advert.game,
                "edition": listing.advert.edition,
                "options": list(listing.advert.options),
                "seats": listing.advert.seats,
                "taken": listing.advert.taken,
                "free": listing.advert.free,
                "stage": listing.advert.stage,
                "creator": listing.advert.creator,
                "addresses": list(listing.addresses),
                "joinable": listing.why_not_joinable() is None,
                "reason": listing.why_not_joinable() or "",
            }
            for listing in browser.listings()
        ],
        "ignored": [
            {"service": s.service, "address": s.address, "reason": s.refused}
            for s in _refused(browser.sightings.values())
        ],
        "dropped": browser.ignored,
        "followed_at_most": MAX_SIGHTINGS,
    }
