"""Tables on the LAN over zeroconf (mDNS/DNS-SD, python-zeroconf's asyncio API).

A :class:`Lan` is one zeroconf responder bound to the addresses of one interface, IPv4 only
(see :mod:`condottiere.peer.interfaces`; never every interface). On it an :class:`Advertiser`
publishes this peer's table as ``_condottiere._tcp.local.`` (the record is
:mod:`condottiere.peer.advert`) and withdraws it with goodbye packets, and a :class:`Browser`
watches the tables around: each service seen is a :class:`Sighting`, refused with the reason when
its record is malformed or hostile. Every peer at a table advertises it, so :func:`listings` merges
the sightings of one table, and :func:`find` picks the table a player names.

An advertisement is anyone's claim. A browser asked to ``check`` says ``Hello`` to every
advertised peer, as a browser (no key, no address), and compares the signed table definition
it serves with what its record claims (:func:`check_peer`): a service pointing to a closed
port, or to a peer of another table, is shown with the reason.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import grpc
from zeroconf import Error as ZeroconfError
from zeroconf import IPVersion, ServiceStateChange
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from condottiere.crypto import PublicIdentity
from condottiere.peer.advert import SERVICE_TYPE, STAGES, Advert, BadAdvert, read_advert
from condottiere.peer.entries import Rejection, read_entry
from condottiere.peer.interfaces import Interface
from condottiere.peer.links import CHANNEL_OPTIONS, describe_rpc_error
from condottiere.peer.lobby import PROTOCOL
from condottiere.peer.service import SERVICE_NAME
from condottiere.v1 import peer_pb2

__all__ = [
    "MAX_SIGHTINGS",
    "Advertiser",
    "Browser",
    "DiscoveryError",
    "Lan",
    "Listing",
    "Sighting",
    "answering_first",
    "check_peer",
    "find",
    "listings",
    "named",
]

RESOLVE_MS = 3000
"""How long a browser waits for a service's address and TXT record."""
RESOLVE_ATTEMPTS = 3
"""Tries at reading a service's records before it is shown as unreadable (a busy responder or
a loop that was blocked a moment are no reason to give up a table)."""
RESOLVE_PAUSE = 0.5
"""Seconds between two tries."""
CHECK_SECONDS = 2.0
MAX_SIGHTINGS = 256
"""Services a browser keeps track of at once (more are ignored, and counted: a flood is not a
LAN party)."""
CHECKS_AT_ONCE = 32
"""Peers asked at once which table they serve, when a joiner looks for those that answer."""
TTL_SECONDS = 120
"""How long a record lives in caches: a peer killed without goodbye leaves lists this soon."""
MAX_LABEL_BYTES = 63 - 4
"""A DNS label's 63 bytes, less room for the ``-N`` zeroconf adds to a name already taken."""
MIN_ID_PREFIX = 4


class DiscoveryError(RuntimeError):
    """Zeroconf cannot run, or cannot advertise, here; with the reason in a player's words."""


class Lan:
    """One zeroconf responder on the addresses of one interface."""

    def __init__(self, interface: Interface) -> None:
        self.interface = interface
        try:
            self.zeroconf = AsyncZeroconf(
                interfaces=list(interface.addresses), ip_version=IPVersion.V4Only
            )
        except (OSError, ZeroconfError) as exc:
            raise DiscoveryError(f"zeroconf cannot run on {interface}: {exc}") from None

    async def close(self) -> None:
        """Withdraw everything still advertised (goodbye packets) and stop."""
        await self.zeroconf.async_close()


# ---------------------------------------------------------------------- advertising


class Advertiser:
    """Publishes one peer's table on the LAN, pointing at the address the peer serves."""

    def __init__(self, lan: Lan, host: str, port: int, peer: str) -> None:
        """``peer`` is the fingerprint of this peer's key: it names the service and its host,
        so that every peer at a table has a name of its own."""
        self._lan = lan
        self._host = host
        self._port = port
        self._server = f"condottiere-{peer.replace('-', '')}.local."
        self._peer = peer
        self._info: AsyncServiceInfo | None = None
        self._sending: set[asyncio.Future[Any]] = set()

    @property
    def name(self) -> str:
        """The service's name on the LAN (empty before the first :meth:`publish`)."""
        return "" if self._info is None else self._info.name.removesuffix("." + SERVICE_TYPE)

    async def publish(self, advert: Advert) -> str | None:
        """Advertise ``advert`` (registered the first time, then updated); a sentence when
        another service held the name this one wanted, and it took another. Registering
        probes the LAN for the name first (about 1.2 s). :class:`DiscoveryError`."""
        first = self._info is None
        wanted = f"{self._label(advert.name)}.{SERVICE_TYPE}"
        info = AsyncServiceInfo(
            SERVICE_TYPE,
            wanted if self._info is None else self._info.name,
            port=self._port,
            properties=advert.txt(),
            server=self._server,
            parsed_addresses=[self._host],
            host_ttl=TTL_SECONDS,
            other_ttl=TTL_SECONDS,
        )
        zeroconf = self._lan.zeroconf
        try:
            if first:
                sending = await zeroconf.async_register_service(info, allow_name_change=True)
            else:
                sending = await zeroconf.async_update_service(info)
        except (OSError, ZeroconfError) as exc:
            raise DiscoveryError(f"cannot advertise the table: {exc!r}") from None
        self._keep(sending)
        self._info = info
        if first and info.name != wanted:
            taken = wanted.removesuffix("." + SERVICE_TYPE)
            return f"another service on the LAN is called {taken!r}: advertising as {self.name!r}"
        return None

    async def withdraw(self) -> None:
        """Stop advertising, with goodbye packets so that browsers drop the table at once."""
        info, self._info = self._info, None
        if info is not None:
            with contextlib.suppress(OSError, ZeroconfError):
                await (await self._lan.zeroconf.async_unregister_service(info))
        for sending in list(self._sending):
            sending.cancel()

    def _label(self, table_name: str) -> str:
        """``NAME [xxxx-xxxx]``: the table's name and this peer's, within a DNS label."""
        suffix = f" [{self._peer[:9]}]"
        room = MAX_LABEL_BYTES - len(suffix.encode())
        name = table_name.encode()[:room].decode("utf-8", "ignore").replace(".", " ")
        return name + suffix

    def _keep(self, sending: Any) -> None:
        """Hold the announcements' task until it is done (the loop holds only weak ones)."""
        future = asyncio.ensure_future(sending)
        self._sending.add(future)
        future.add_done_callback(self._sending.discard)


# ---------------------------------------------------------------------- browsing


@dataclass(frozen=True)
class Sighting:
    """One service seen on the LAN: where it points and what its record says, or why that
    record is refused."""

    service: str
    """The service's name (the DNS-SD instance, without the type)."""
    address: str
    """``HOST:PORT`` it points to, or empty when it gave no usable address."""
    advert: Advert | None
    refused: str = ""
    """Why the service is not read as a table (when ``advert`` is None)."""
    answer: str | None = None
    """The check of the advertised peer: None not (yet) checked, empty when it serves the
    table its record claims, else what is wrong."""


class Browser:
    """Watches the tables on the LAN; :attr:`sightings` by service name."""

    def __init__(self, lan: Lan, *, check: bool = False) -> None:
        self._lan = lan
        self._check = check
        self.sightings: dict[str, Sighting] = {}
        self.withdrawn: dict[str, Sighting] = {}
        """Services withdrawn since (goodbye packets, or records that lived out their time),
        as last seen: the newest :data:`MAX_SIGHTINGS`, a service seen again dropped."""
        self.ignored = 0
        """Services not followed because :data:`MAX_SIGHTINGS` were already."""
        self._browser: AsyncServiceBrowser | None = None
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._change = asyncio.Event()
        self._started = 0.0

    async def start(self) -> None:
        self._started = asyncio.get_running_loop().time()
        self._browser = AsyncServiceBrowser(
            self._lan.zeroconf.zeroconf, [SERVICE_TYPE], handlers=[self._on_change]
        )

    async def stop(self) -> None:
        for task in self._tasks.values():
            task.cancel()
        for task in list(self._tasks.values()):
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._browser is not None:
            await self._browser.async_cancel()
            self._browser = None

    def listings(self) -> list[Listing]:
        return listings(self.sightings.values())

    async def changes(self) -> None:
        """Return at the next change of :attr:`sightings`."""
        await self._change.wait()

    async def settle(self, quiet: float, limit: float, *, browsed: float = 0.0) -> None:
        """Wait until every service seen is resolved and nothing changed for ``quiet``
        seconds, and the browser has browsed at least ``browsed`` seconds (a second query
        round gives answers lost or late in the first another chance); at most ``limit``."""
        loop = asyncio.get_running_loop()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(limit):
                while True:
                    try:
                        await asyncio.wait_for(self.changes(), quiet)
                    except TimeoutError:
                        if not self._tasks and loop.time() - self._started >= browsed:
                            return

    async def wait_for(self, found: Callable[[], bool], timeout: float) -> bool:
        """Wait (at most ``timeout`` seconds) until ``found()``; whether it is."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                while not found():
                    await self.changes()
        return found()

    def _on_change(
        self,
        zeroconf: Any,
        service_type: str,
        name: str,
        state_change: ServiceStateChange,
    ) -> None:
        service = name.removesuffix("." + SERVICE_TYPE)
        previous = self._tasks.pop(service, None)
        if previous is not None:
            previous.cancel()
        if state_change is ServiceStateChange.Removed:
            last = self.sightings.pop(service, None)
            if last is not None:
                self.withdrawn[service] = last
                if len(self.withdrawn) > MAX_SIGHTINGS:
                    del self.withdrawn[next(iter(self.withdrawn))]
                self._notify()
            return
        self.withdrawn.pop(service, None)
        if service not in self.sightings and len(self.sightings) >= MAX_SIGHTINGS:
            self.ignored += 1
            return
        self._tasks[service] = asyncio.create_task(self._resolve(service, name))

    async def _resolve(self, service: str, name: str) -> None:
        for attempt in range(RESOLVE_ATTEMPTS):
            if attempt:
                await asyncio.sleep(RESOLVE_PAUSE)
            sighting, transient = await self._request(service, name)
            if not transient:
                break
        else:
            previous = self.sightings.get(service)
            if previous is not None and previous.advert is not None:
                sighting = previous  # an update that could not be read: the last record read
        self.sightings[service] = sighting
        self._notify()
        advert = sighting.advert
        if self._check and advert is not None and advert.protocol == PROTOCOL:
            answer = await check_peer(sighting.address, advert)
            if self.sightings.get(service) == sighting:
                self.sightings[service] = replace(sighting, answer=answer)
                self._notify()
        self._tasks.pop(service, None)

    async def _request(self, service: str, name: str) -> tuple[Sighting, bool]:
        """One try at reading ``service``'s records: what was seen, and whether another try
        may see more (no answer in time, or an error on the way rather than a record
        refused)."""
        info = AsyncServiceInfo(SERVICE_TYPE, name)
        try:
            found = await info.async_request(self._lan.zeroconf.zeroconf, RESOLVE_MS)
        except (OSError, ZeroconfError, ValueError) as exc:
            return Sighting(service, "", None, f"its records cannot be read: {exc}"), True
        if not found:
            return Sighting(
                service, _address(info), None,
                f"it gave no address and record in {RESOLVE_MS / 1000:g} s",
            ), True
        return _read(service, info), False

    def _notify(self) -> None:
        self._change.set()
        self._change = asyncio.Event()


def _address(info: AsyncServiceInfo) -> str:
    addresses = info.parsed_addresses(IPVersion.V4Only)
    if not addresses or info.port is None or not 0 < info.port < 65536:
        return ""
    return f"{addresses[0]}:{info.port}"


def _read(service: str, info: AsyncServiceInfo) -> Sighting:
    address = _address(info)
    try:
        advert = read_advert(info.text or b"")
    except BadAdvert as exc:
        return Sighting(service, address, None, f"its record is refused: {exc}")
    if not address:
        return Sighting(service, address, None, "it gives no IPv4 address and port")
    return Sighting(service, address, advert)


async def check_peer(address: str, advert: Advert) -> str:
    """Ask the peer at ``address`` which table it serves: empty when it is the table
    ``advert`` claims (same id, defined by the claimed creator), else what is wrong."""
    request = peer_pb2.HelloRequest(protocol=PROTOCOL, table_id=bytes.fromhex(advert.table_id))
    try:
        async with grpc.aio.insecure_channel(address, options=CHANNEL_OPTIONS) as channel:
            reply = await channel.unary_unary(
                f"/{SERVICE_NAME}/Hello",
                request_serializer=peer_pb2.HelloRequest.SerializeToString,
                response_deserializer=peer_pb2.HelloReply.FromString,
            )(request, timeout=CHECK_SECONDS)
    except grpc.aio.AioRpcError as exc:
        return f"{address}: {describe_rpc_error(exc)}"
    try:
        definition = read_entry(reply.definition.SerializeToString())
    except Rejection as exc:
        return f"{address} serves a table definition that cannot be read: {exc}"
    if definition.entry.table_id.hex() != advert.table_id:
        return f"{address} serves another table than it advertises"
    creator = PublicIdentity(definition.author).fingerprint()
    if creator != advert.creator:
        return f"{address} serves a table created by {creator}, not by {advert.creator}"
    return ""


async def answering_first(
    addresses: Sequence[str], advert: Advert
) -> tuple[tuple[str, ...], dict[str, str]]:
    """Ask every peer of ``addresses`` at once (:data:`CHECKS_AT_ONCE` at a time) which table
    it serves: the addresses that serve the table ``advert`` claims, quickest first, then the
    others in their order; and why each of those others is not one (a flood of adverts
    pointing nowhere costs a joiner one check, not a join attempt each)."""
    gate = asyncio.Semaphore(CHECKS_AT_ONCE)

    async def check(address: str) -> tuple[str, str]:
        async with gate:
            return address, await check_peer(address, advert)

    answering: list[str] = []
    failed: dict[str, str] = {}
    for done in asyncio.as_completed([check(address) for address in dict.fromkeys(addresses)]):
        address, answer = await done
        if answer:
            failed[address] = answer
        else:
            answering.append(address)
    others = tuple(address for address in addresses if address in failed)
    return (*answering, *others), failed


# ---------------------------------------------------------------------- tables


@dataclass(frozen=True)
class Listing:
    """One table as the LAN shows it: what the peers advertising it say, merged."""

    advert: Advert
    """What the table is: the most advanced record among the peers that answered the
    check (all of them when none was checked)."""
    sightings: tuple[Sighting, ...]
    """Every service advertising the table, its creator's first."""

    @property
    def table_id(self) -> str:
        return self.advert.table_id

    @property
    def addresses(self) -> tuple[str, ...]:
        """The addresses of its peers, those that answered the check first."""
        ordered = sorted(self.sightings, key=lambda s: s.answer not in (None, ""))
        return tuple(dict.fromkeys(s.address for s in ordered if s.address))

    def why_not_joinable(self) -> str | None:
        """None when a seat may be asked for there, else the reason."""
        reason = self.advert.why_not_joinable()
        if reason is not None:
            return reason
        answers = [s.answer for s in self.sightings]
        if answers and all(answer for answer in answers):
            return "no peer of the table answers: " + "; ".join(str(a) for a in answers)
        return None


def listings(sightings: Iterable[Sighting]) -> list[Listing]:
    """The tables the sightings show, by name; a record of another protocol version is a
    table of its own (it is shown, not joinable)."""
    tables: dict[tuple[int, str], list[Sighting]] = {}
    for sighting in sightings:
        advert = sighting.advert
        if advert is None:
            continue
        key = (advert.protocol, advert.table_id or sighting.service)
        tables.setdefault(key, []).append(sighting)
    found = []
    for group in tables.values():
        trusted = [s for s in group if s.answer == ""] or [s for s in group if s.answer is None]
        best = max(trusted or group, key=_progress)
        assert best.advert is not None
        creator = best.advert.creator
        creator_first = sorted(group, key=lambda s: (_peer_of(s) != creator, s.service))
        found.append(Listing(best.advert, tuple(creator_first)))
    return sorted(found, key=lambda listing: (listing.advert.name.casefold(), listing.table_id))


def _peer_of(sighting: Sighting) -> str:
    return "" if sighting.advert is None else sighting.advert.peer


def _progress(sighting: Sighting) -> tuple[int, int]:
    advert = sighting.advert
    assert advert is not None
    stage = STAGES.index(advert.stage) if advert.stage in STAGES else -1
    return stage, advert.taken


def named(tables: Sequence[Listing], query: str) -> list[Listing]:
    """The tables called ``query`` (their name, any case), else those whose id starts with it
    (at least four hex digits)."""
    wanted = query.strip().casefold()
    found = [t for t in tables if t.advert.name.casefold() == wanted]
    if not found and len(wanted) >= MIN_ID_PREFIX and re.fullmatch(r"[0-9a-f]+", wanted):
        found = [t for t in tables if t.table_id.startswith(wanted)]
    return found


def find(tables: Sequence[Listing], query: str) -> Listing:
    """The table :func:`named` ``query``; LookupError saying why not (none, or several to
    choose between)."""
    named_so = named(tables, query)
    if len(named_so) == 1:
        return named_so[0]
    if not named_so:
        raise LookupError(f"no table called {query!r} (nor with an id starting so) is seen")
    choices = ", ".join(f"{t.table_id[:8]} ({t.advert.edition}, by {t.advert.creator})"
                        for t in named_so)
    raise LookupError(
        f"{len(named_so)} tables are called {query!r}: {choices}; name one by its id"
    )
