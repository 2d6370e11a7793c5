"""Benchmark table discovery between two processes (zeroconf, one table advertised).

Three figures, each over ``--repeat`` runs with a fresh responder every time (no warm cache):

- **announcer first**: a table is already advertised; the time from starting a browser (its
  responder included) until the table is listed, address and record read;
- **browser first**: a browser is running; the time from the announcer starting to register
  the table until the browser lists it (registering probes the name first), and the time the
  registration call itself took;
- **goodbye**: the time from the announcer withdrawing the table until the browser drops it.

Both sides bind zeroconf to ``--interface`` (default 127.0.0.1: nothing leaves this machine).
To measure across network namespaces, run this script in one namespace and give the announcer
its own: ``ip netns exec NS1 python scripts/bench_discovery.py --interface 10.77.0.1
--announcer-interface 10.77.0.2 --announcer-wrapper "ip netns exec NS2"``.

Usage: ``.venv/bin/python scripts/bench_discovery.py [--repeat 10] [--interface ADDRESS]``
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shlex
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence

from condottiere.peer.advert import Advert
from condottiere.peer.discovery import Advertiser, Browser, Lan
from condottiere.peer.entries import TABLE_ID_BYTES
from condottiere.peer.interfaces import local_interfaces, pick
from condottiere.peer.lobby import PROTOCOL

SEEN_SECONDS = 15.0


def advert(table_id: str) -> Advert:
    peer = os.urandom(10).hex("-", 2)
    return Advert(PROTOCOL, table_id, "bench", "condottiere", "zman", (), 4, 1, "lobby", peer,
                  peer)


async def announce(interface: str, table_id: str) -> None:
    """The announcer: advertise, say when, withdraw when standard input closes."""
    lan = Lan(pick(interface, local_interfaces()))
    made = advert(table_id)
    advertiser = Advertiser(lan, interface, 4000, made.peer)
    print(f"registering {time.time()}", flush=True)
    await advertiser.publish(made)
    print(f"registered {time.time()}", flush=True)
    await asyncio.to_thread(sys.stdin.read)
    print(f"withdrawing {time.time()}", flush=True)
    await advertiser.withdraw()
    await lan.close()


class Announcer:
    """An announcer process and the times it reported."""

    def __init__(self, wrapper: Sequence[str], interface: str, table_id: str) -> None:
        command = [*wrapper, sys.executable, __file__, "--announce", table_id,
                   "--interface", interface]
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    async def said(self, word: str) -> float:
        """The time on the announcer's line starting with ``word`` (waiting for it)."""
        assert self.process.stdout is not None
        while True:
            line = await asyncio.wait_for(
                asyncio.to_thread(self.process.stdout.readline), SEEN_SECONDS
            )
            if not line:
                raise RuntimeError("the announcer stopped")
            if line.startswith(word + " "):
                return float(line.split()[1])

    async def withdraw(self) -> float:
        assert self.process.stdin is not None
        self.process.stdin.close()
        when = await self.said("withdrawing")
        await asyncio.to_thread(self.process.wait, SEEN_SECONDS)
        return when

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


async def until_listed(browser: Browser, table_id: str, listed: bool = True) -> float:
    def seen() -> bool:
        return any(t.table_id == table_id for t in browser.listings()) == listed

    if not await browser.wait_for(seen, SEEN_SECONDS):
        raise RuntimeError(f"the table was not {'listed' if listed else 'dropped'} in time")
    return time.time()


async def one_run(interface: str, announcer_interface: str, wrapper: Sequence[str]) -> list[float]:
    """[announcer first, browser first, registration call, goodbye] in seconds."""
    table_id = os.urandom(TABLE_ID_BYTES).hex()
    announcer = Announcer(wrapper, announcer_interface, table_id)
    try:
        await announcer.said("registered")
        await asyncio.sleep(0.5)
        started = time.time()
        lan = Lan(pick(interface, local_interfaces()))
        browser = Browser(lan)
        await browser.start()
        announcer_first = await until_listed(browser, table_id) - started
        await browser.stop()
        await lan.close()
    finally:
        announcer.stop()
    table_id = os.urandom(TABLE_ID_BYTES).hex()
    lan = Lan(pick(interface, local_interfaces()))
    browser = Browser(lan)
    await browser.start()
    await asyncio.sleep(0.5)
    announcer = Announcer(wrapper, announcer_interface, table_id)
    try:
        registering = await announcer.said("registering")
        registered = await announcer.said("registered")
        browser_first = await until_listed(browser, table_id) - registering
        withdrawing = await announcer.withdraw()
        goodbye = await until_listed(browser, table_id, listed=False) - withdrawing
    finally:
        announcer.stop()
        await browser.stop()
        await lan.close()
    return [announcer_first, browser_first, registered - registering, goodbye]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=10, help="runs (default 10)")
    parser.add_argument("--interface", default="127.0.0.1", help="the browser's address")
    parser.add_argument(
        "--announcer-interface", help="the announcer's address (default: --interface)"
    )
    parser.add_argument(
        "--announcer-wrapper", default="", help="a command prefix for the announcer process"
    )
    parser.add_argument("--announce", metavar="TABLE_ID", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.announce:
        asyncio.run(announce(args.interface, args.announce))
        return
    announcer_interface = args.announcer_interface or args.interface
    wrapper = shlex.split(args.announcer_wrapper)
    runs = [
        asyncio.run(one_run(args.interface, announcer_interface, wrapper))
        for _ in range(args.repeat)
    ]
    print(f"discovery between processes, browser on {args.interface}, announcer on "
          f"{announcer_interface}, {args.repeat} runs (seconds: median, min, max)")
    names = ["announcer first: browser start to listed", "browser first: register to listed",
             "  of which the registration call", "goodbye: withdraw to dropped"]
    for index, name in enumerate(names):
        values = [run[index] for run in runs]
        print(f"  {name:42} {statistics.median(values):6.3f} {min(values):6.3f} "
              f"{max(values):6.3f}")


if __name__ == "__main__":
    main()
