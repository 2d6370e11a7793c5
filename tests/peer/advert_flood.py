"""A stranger that floods the LAN with table adverts (run as a program, in a namespace of its
own by the tests): ``--noise`` adverts of random tables, and ``--copies`` adverts that claim
the table ``--table`` (its id, name and creator) and ``--fakes`` tables of the same name,
every one pointing to a port of this machine where nobody answers. Once every advert is out
it prints ``flooding``; a line ``quiet`` on its input withdraws the noise (the rest stays),
and the end of its input ends it. Nothing here is shipped.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import sys

from condottiere.crypto import Identity
from condottiere.peer.advert import Advert
from condottiere.peer.discovery import Advertiser, Lan
from condottiere.peer.interfaces import Interface
from condottiere.peer.lobby import PROTOCOL


def closed_port(host: str) -> int:
    with socket.socket() as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


def advert(table_id: str, name: str, creator: str, peer: str) -> Advert:
    return Advert(PROTOCOL, table_id, name, "condottiere", "zman-duel", (), 2, 1, "lobby",
                  creator, peer)


async def publish(lan: Lan, host: str, adverts: list[Advert]) -> list[Advertiser]:
    advertisers = [Advertiser(lan, host, closed_port(host), a.peer) for a in adverts]
    await asyncio.gather(*(a.publish(ad) for a, ad in zip(advertisers, adverts, strict=True)))
    return advertisers


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--interface", required=True)
    parser.add_argument("--table", nargs=3, metavar=("ID", "NAME", "CREATOR"), required=True)
    parser.add_argument("--noise", type=int, default=300)
    parser.add_argument("--copies", type=int, default=20)
    parser.add_argument("--fakes", type=int, default=3)
    args = parser.parse_args()
    host = args.interface
    table_id, name, creator = args.table
    lan = Lan(Interface("eth0", (host,)))

    def someone() -> str:
        return Identity.generate().public.fingerprint()

    kept = [advert(table_id, name, creator, someone()) for _ in range(args.copies)]
    kept += [advert(os.urandom(32).hex(), name, someone(), someone()) for _ in range(args.fakes)]
    noise = [
        advert(os.urandom(32).hex(), f"noise {index}", someone(), someone())
        for index in range(args.noise)
    ]
    try:
        await publish(lan, host, kept)
        loud = await publish(lan, host, noise)
        print("flooding", flush=True)
        while line := await asyncio.to_thread(sys.stdin.readline):
            if line.strip() == "quiet":
                await asyncio.gather(*(advertiser.withdraw() for advertiser in loud))
                print("quiet", flush=True)
    finally:
        await lan.close()


if __name__ == "__main__":
    asyncio.run(main())
