"""Limits that keep one bad peer from exhausting another.

A peer talks to others in two directions, and each has its limits:

- **served** (other peers call this one): a request is at most ``MAX_REQUEST_BYTES`` (the
  server refuses larger ones before reading them); each connection may make
  ``CALLS_PER_SECOND`` calls (a burst of ``CALL_BURST``), with at most
  ``STREAMS_PER_CONNECTION`` streams open at once, and all connections of one source together
  ``SOURCE_CALLS_PER_SECOND`` (the loopback excepted). Streams are counted by their source (the
  caller's IP address, whatever its port or connection) in :class:`StreamSlots`: a source
  may hold ``STREAMS_PER_SOURCE`` streams, and all sources together ``MAX_SUBSCRIBERS``;
  a member of the table (a seated author, or before the seating an author in the lobby) that
  proves its key has ``MEMBER_STREAMS`` slots of its own beside those, which nobody else can
  take. Every service on the port (the health service and reflection too) counts its streams
  there. A stream whose reader does not take what is sent for ``UNREAD_SECONDS`` is ended,
  so nobody can make a peer buffer for it. Every refusal is a gRPC status with a sentence.
- **followed** (this peer reads the logs another serves): an entry is at most
  ``MAX_ENTRY_BYTES`` (larger messages break the stream), at most ``INBOX`` entries and
  ``INBOX_BYTES`` bytes wait to be taken in (a peer that sends faster is simply read slower),
  and a followed peer may send
  ``JUNK_PER_SECOND`` messages that are refused (a burst of ``JUNK_BURST``) before this peer
  pauses reading it. Honest peers send none: they serve only entries they took in.

A peer follows the addresses given in signed entries (the table definition, joins), and
addresses merely claimed by a caller or a reply (:class:`Claims`): any author's before the
table is seated, only a seated author's after (a peer that came back on another port).

>>> bucket = TokenBucket(rate=10, burst=2, clock=lambda: 0.0)
>>> bucket.take(), bucket.take(), bucket.take()
(True, True, False)
>>> valid_address("127.0.0.1:5000"), valid_address("[::1]:5000"), valid_address("x:99999")
(True, True, False)
"""

from __future__ import annotations

import ipaddress
import re
import resource
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Callable, Container
from dataclasses import dataclass, field

from condottiere.peer.entries import MAX_ENTRY_BYTES, Rejection

__all__ = [
    "CALLS_PER_SECOND",
    "CALL_BURST",
    "IDLE_CONNECTION_MS",
    "INBOX",
    "INBOX_BYTES",
    "JUNK_BURST",
    "JUNK_PER_SECOND",
    "MAX_CLAIMED",
    "MAX_REQUEST_BYTES",
    "MAX_SUBSCRIBERS",
    "MEMBER_STREAMS",
    "SOURCE_CALLS_PER_SECOND",
    "SOURCE_CALL_BURST",
    "STREAMS_PER_CONNECTION",
    "STREAMS_PER_SOURCE",
    "UNREAD_SECONDS",
    "CallLimiter",
    "Claims",
    "NoSlot",
    "StreamSlots",
    "TokenBucket",
    "WireLog",
    "host_of",
    "is_loopback",
    "raise_open_file_limit",
    "source_named",
    "source_of",
    "valid_address",
]

MAX_REQUEST_BYTES = 64 * 1024
CALLS_PER_SECOND = 20.0
CALL_BURST = 40.0
SOURCE_CALLS_PER_SECOND = 100.0
SOURCE_CALL_BURST = 200.0
"""The calls all connections of one source may make together (five connections' worth): a
stranger's thousand connections make no more calls than a few (the loopback, this machine's
own processes, is not held to it)."""
STREAMS_PER_CONNECTION = 8
MAX_SUBSCRIBERS = 256
STREAMS_PER_SOURCE = 16
MEMBER_STREAMS = 4
UNREAD_SECONDS = 10.0
INBOX = 1024
INBOX_BYTES = 16 << 20
JUNK_PER_SECOND = 1000.0
JUNK_BURST = 2000.0
MAX_CLAIMED = 64
CLAIMS_PER_AUTHOR = 4
MAX_ADDRESS = 255
RECENT = 100
"""How many refused messages are remembered word for word (all are counted)."""
LOOPBACK = "127.0.0.1"
"""The one source every loopback host is counted as (:func:`source_named`)."""

assert MAX_ENTRY_BYTES > MAX_REQUEST_BYTES

_ADDRESS = re.compile(r"^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$")


IDLE_CONNECTION_MS = 120_000
"""A connection with no call under way for this long is closed by the server (a follower's
channel opens it again when it needs it): idle connections cannot pile up."""


def raise_open_file_limit() -> int:
    """Raise this process's soft limit of open files to its hard limit (a common desktop soft
    limit is 1024: measured, 1000 idle connections from one source took a peer off the LAN);
    the soft limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):  # a system that refuses: keep the limit there is
            return soft
        return target
    return soft


def valid_address(text: str) -> bool:
    """Whether ``text`` reads as ``host:port`` (``[v6]:port`` too) with a port in range."""
    match = _ADDRESS.match(text) if len(text) <= MAX_ADDRESS else None
    return match is not None and 0 < int(match.group(2)) < 65536


class TokenBucket:
    """``rate`` tokens a second, at most ``burst`` saved up. :meth:`charge` may run into
    debt, which :meth:`wait` says how long to pay off."""

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._tokens = burst
        self._at = clock()

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
        self._at = now

    def take(self, tokens: float = 1.0) -> bool:
        """Take ``tokens`` if there are that many; whether it did."""
        self._refill()
        if self._tokens < tokens:
            return False
        self._tokens -= tokens
        return True

    def charge(self, tokens: float) -> None:
        """Take ``tokens``, into debt if need be."""
        self._refill()
        self._tokens -= tokens

    def wait(self) -> float:
        """Seconds until the bucket is out of debt (0 when it is not in debt)."""
        self._refill()
        return max(0.0, -self._tokens / self.rate)


class CallLimiter:
    """One :class:`TokenBucket` per caller (a connection), for the ``callers`` heard from
    most recently."""

    def __init__(self, rate: float, burst: float, callers: int = 4096) -> None:
        self._rate = rate
        self._burst = burst
        self._callers = callers
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def allow(self, caller: str) -> bool:
        """Whether ``caller`` may make one more call now."""
        bucket = self._buckets.pop(caller, None) or TokenBucket(self._rate, self._burst)
        self._buckets[caller] = bucket
        while len(self._buckets) > self._callers:
            self._buckets.popitem(last=False)
        return bucket.take()


def source_of(peer: str) -> str:
    """The source of a call, from gRPC's name of its peer: the IP address without the port
    (every connection and port of one machine is one source).

    >>> source_of("ipv4:10.0.0.5:40123"), source_of("ipv6:[::1]:5000"), source_of("unix:/x")
    ('10.0.0.5', '::1', 'unix:/x')
    """
    kind, _, rest = peer.partition(":")
    if kind == "ipv4":
        return rest.rpartition(":")[0]
    if kind == "ipv6":
        return rest.rpartition(":")[0].strip("[]")
    return peer


def host_of(address: str) -> str:
    """The host of an address ``host:port`` (``[v6]:port`` too), the source its peer's
    connections come from; the text itself when it has no port.

    >>> host_of("10.0.0.5:5000"), host_of("[::1]:5000"), host_of("garbage")
    ('10.0.0.5', '::1', 'garbage')
    """
    host, colon, port = address.rpartition(":")
    if not colon or not port.isdigit():
        return address
    return host.strip("[]")


def is_loopback(host: str) -> bool:
    """Whether ``host`` is this machine's loopback: its processes are its owner's, never a
    stranger's on the LAN.

    >>> is_loopback("127.0.0.1"), is_loopback("127.8.0.2"), is_loopback("::1")
    (True, True, True)
    >>> is_loopback("localhost"), is_loopback("10.77.0.1")
    (True, False)
    """
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def source_named(host: str) -> str:
    """The source ``host`` is, as sources are counted: every loopback host is one source,
    ``127.0.0.1``.

    >>> source_named("10.0.0.5"), source_named("localhost"), source_named("::1")
    ('10.0.0.5', '127.0.0.1', '127.0.0.1')
    """
    return LOOPBACK if is_loopback(host) else host


class NoSlot(Exception):
    """A stream refused by :class:`StreamSlots`, with the reason in a sentence."""


@dataclass(frozen=True)
class Slot:
    """One stream's place: its source, or the member whose own slots it holds."""

    source: str
    member: bytes | None


class StreamSlots:
    """The streams a peer serves at once, counted by source, with slots reserved for the
    table's members (see the module).

    >>> slots = StreamSlots(per_source=1, total=2, per_member=1)
    >>> first = slots.take("10.0.0.9")
    >>> try:
    ...     slots.take("10.0.0.9")
    ... except NoSlot as full:
    ...     print(full)
    1 streams are open from 10.0.0.9 already
    >>> slots.take("10.0.0.9", member=b"ada") == Slot("10.0.0.9", b"ada")
    True
    >>> slots.give_back(first); slots.take("10.0.0.9") == first
    True
    """

    def __init__(
        self,
        per_source: int = STREAMS_PER_SOURCE,
        total: int = MAX_SUBSCRIBERS,
        per_member: int = MEMBER_STREAMS,
    ) -> None:
        self.per_source = per_source
        self.total = total
        self.per_member = per_member
        self._sources: Counter[str] = Counter()
        self._members: Counter[bytes] = Counter()

    @property
    def open(self) -> int:
        """Streams open now, in all."""
        return self._sources.total() + self._members.total()

    def take(self, source: str, member: bytes | None = None) -> Slot:
        """A slot for a stream from ``source`` (``member``: the proven author it serves, who
        uses its own slots while it has some); :class:`NoSlot` when there is none."""
        if member is not None and self._members[member] < self.per_member:
            self._members[member] += 1
            return Slot(source, member)
        if self._sources[source] >= self.per_source:
            raise NoSlot(f"{self.per_source} streams are open from {source} already")
        if self._sources.total() >= self.total:
            raise NoSlot(f"this peer already serves {self.total} streams")
        self._sources[source] += 1
        return Slot(source, None)

    def give_back(self, slot: Slot) -> None:
        """The stream that held ``slot`` has ended."""
        if slot.member is not None:
            self._members[slot.member] -= 1
            if not self._members[slot.member]:
                del self._members[slot.member]
        else:
            self._sources[slot.source] -= 1
            if not self._sources[slot.source]:
                del self._sources[slot.source]


class Claims:
    """The addresses followed on a caller's word: at most ``MAX_CLAIMED`` in all and
    ``CLAIMS_PER_AUTHOR`` for one author. A new claim beyond either bound takes the place of
    the oldest claimed address that is not connected (a peer that answers keeps its place,
    so a flood of false claims cannot push a real peer out); with none such, it is ignored.

    >>> claims = Claims(total=2, per_author=1)
    >>> claims.admit("h:1", b"a", connected=()), claims.admit("h:2", b"a", connected={"h:1"})
    ((True, []), (False, []))
    >>> claims.admit("h:2", b"a", connected=())
    (True, ['h:1'])
    """

    def __init__(self, total: int = MAX_CLAIMED, per_author: int = CLAIMS_PER_AUTHOR) -> None:
        self._total = total
        self._per_author = per_author
        self._claims: list[tuple[str, bytes]] = []
        """(address, author claimed), oldest first."""

    def admit(
        self, address: str, author: bytes, connected: Container[str]
    ) -> tuple[bool, list[str]]:
        """Whether to follow ``address``, claimed for ``author``; and the claimed addresses
        to stop following to make room for it."""
        dropped: list[str] = []
        for bound, rivals in (
            (self._per_author, [c for c in self._claims if c[1] == author]),
            (self._total, self._claims),
        ):
            if len(rivals) - len([c for c in rivals if c[0] in dropped]) < bound:
                continue
            idle = [c for c in rivals if c[0] not in connected and c[0] not in dropped]
            if not idle:
                return False, []
            dropped.append(idle[0][0])
        self._claims = [c for c in self._claims if c[0] not in dropped]
        self._claims.append((address, author))
        return True, dropped

    def forget(self, address: str) -> None:
        """``address`` is now known from a signed entry: it is followed on its own right."""
        self._claims = [c for c in self._claims if c[0] != address]


@dataclass
class WireLog:
    """What came in over the wire from followed peers, and what of it was turned away."""

    received: Counter[str] = field(default_factory=Counter)
    """Messages received, by the address of the peer that sent them."""
    refused: Counter[str] = field(default_factory=Counter)
    """Messages refused, by reason (``Reason`` values)."""
    copies: int = 0
    """Messages that were entries already held (harmless: every peer serves every log)."""
    recent: deque[tuple[str, str]] = field(default_factory=lambda: deque(maxlen=RECENT))
    """The latest refusals: (address, why)."""

    def note(self, address: str, rejection: Rejection | None, copy: bool) -> None:
        self.received[address] += 1
        if rejection is not None:
            self.refused[rejection.reason.value] += 1
            self.recent.append((address, str(rejection)))
        elif copy:
            self.copies += 1
