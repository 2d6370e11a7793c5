"""A table's advertisement on the LAN: the DNS-SD TXT record every peer at a table publishes
under ``_condottiere._tcp.local.``, and the strict reader of such records.

Anyone on the LAN can publish anything, so a record is read as hostile input: every key this
program needs must be there once, with a value of the expected form and size, or the whole
record is refused with the reason (:class:`BadAdvert`). A record of another protocol version
is not refused: it is read as far as its version, table id and name, and shown as a table this
program cannot join. Nothing read here is trusted further: the signed table definition that a
peer serves (``Hello``) is what a joiner checks.

==========  ===================================================================
key         value
==========  ===================================================================
``proto``   the protocol version (decimal)
``table``   the table id (64 lowercase hex digits)
``name``    the table's name (printable, 1 to 40 characters)
``game``    the game, as the engine names it
``edition`` the game's edition
``options`` house rules, comma-separated, in order (may be empty)
``seats``   the number of seats; ``taken`` and ``free`` add up to it
``stage``   ``lobby``, ``dealing``, ``playing``, ``over`` or ``halted``
``creator`` the fingerprint of the creator's key (five groups of four hex digits)
``peer``    the fingerprint of the advertising peer's key
==========  ===================================================================

Keys are case-insensitive (RFC 6763); keys this program does not know are ignored.

>>> advert = Advert(PROTOCOL, "0f" * 32, "Friday", "condottiere", "zman", (), 4, 1, "lobby",
...                 "1a2b-3c4d-5e6f-7a8b-9c0d", "1a2b-3c4d-5e6f-7a8b-9c0d")
>>> read_advert(encode_txt(advert.txt())) == advert
True
>>> read_advert(b"\\x07proto=1\\x07proto=1")
Traceback (most recent call last):
...
condottiere.peer.advert.BadAdvert: the key 'proto' appears twice
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from condottiere.peer.lobby import MAX_NAME, PROTOCOL, TableSpec, check_text

__all__ = [
    "MAX_TXT_BYTES",
    "SERVICE_TYPE",
    "STAGES",
    "Advert",
    "BadAdvert",
    "encode_txt",
    "read_advert",
]

SERVICE_TYPE = "_condottiere._tcp.local."
STAGES = ("lobby", "dealing", "playing", "over", "halted")
"""The stages of a table, in the order a game goes through them (see ``Snapshot.stage``)."""
MAX_TXT_BYTES = 1024
MAX_KEYS = 32
MAX_OPTIONS = 16
MAX_SEATS = 64

_WORD = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")
_FINGERPRINT = re.compile(r"[0-9a-f]{4}(?:-[0-9a-f]{4}){4}")
_TABLE_ID = re.compile(r"[0-9a-f]{64}")
_NUMBER = re.compile(r"0|[1-9][0-9]{0,8}")
_KEY = re.compile(r"[\x20-\x3c\x3e-\x7e]{1,9}")
"""Printable US-ASCII but ``=`` (RFC 6763 section 6.4), at most nine characters."""


class BadAdvert(ValueError):
    """A TXT record that is not a well-formed advertisement, with the reason."""


@dataclass(frozen=True)
class Advert:
    """What one peer says of its table. Unauthenticated: anyone could have published it."""

    protocol: int
    table_id: str
    """Hex, or empty when a record of another version gives none this program can read."""
    name: str
    game: str = ""
    edition: str = ""
    options: tuple[str, ...] = ()
    seats: int = 0
    taken: int = 0
    stage: str = ""
    creator: str = ""
    peer: str = ""

    @property
    def free(self) -> int:
        return self.seats - self.taken

    def why_not_joinable(self) -> str | None:
        """None when this program could take a seat at the table, else the reason."""
        if self.protocol != PROTOCOL:
            return f"it speaks protocol version {self.protocol}, this program {PROTOCOL}"
        try:
            TableSpec(self.edition, self.seats, self.options, self.name,
                      player=self.name, address="", game=self.game).check()
        except ValueError as exc:
            return f"this program cannot play it: {exc}"
        if self.stage != "lobby":
            return "the game has started" if self.stage in ("dealing", "playing") else (
                f"the game is {self.stage}"
            )
        if self.free == 0:
            return "no seat is free"
        return None

    def txt(self) -> dict[str, str]:
        """The TXT keys and values that advertise this table."""
        return {
            "proto": str(self.protocol),
            "table": self.table_id,
            "name": self.name,
            "game": self.game,
            "edition": self.edition,
            "options": ",".join(self.options),
            "seats": str(self.seats),
            "taken": str(self.taken),
            "free": str(self.free),
            "stage": self.stage,
            "creator": self.creator,
            "peer": self.peer,
        }


def encode_txt(pairs: Mapping[str, str]) -> bytes:
    """The wire form of a TXT record (RFC 6763 section 6): each ``key=value`` as a string
    prefixed by its length."""
    out = bytearray()
    for key, value in pairs.items():
        item = f"{key}={value}".encode()
        if len(item) > 255:
            raise ValueError(f"the TXT string for {key!r} is longer than 255 bytes")
        out += bytes([len(item)]) + item
    return bytes(out)


def read_advert(text: bytes) -> Advert:
    """The advertisement a raw TXT record holds; :class:`BadAdvert` saying what is wrong."""
    pairs = _pairs(text)
    protocol = _number(pairs, "proto")
    if protocol != PROTOCOL:
        table_id, name = _optional(pairs, "table", _table_id), _optional(pairs, "name", _name)
        return Advert(protocol, table_id, name)
    seats = _number(pairs, "seats")
    taken = _number(pairs, "taken")
    free = _number(pairs, "free")
    if not 1 <= seats <= MAX_SEATS:
        raise BadAdvert(f"'seats' must be 1 to {MAX_SEATS}, not {seats}")
    if taken + free != seats:
        raise BadAdvert(f"{taken} seats taken and {free} free do not make {seats} seats")
    stage = _value(pairs, "stage")
    if stage not in STAGES:
        raise BadAdvert(f"'stage' must be one of {', '.join(STAGES)}, not {stage!r}")
    return Advert(
        protocol=protocol,
        table_id=_table_id(_value(pairs, "table")),
        name=_name(_value(pairs, "name")),
        game=_word(_value(pairs, "game"), "game"),
        edition=_word(_value(pairs, "edition"), "edition"),
        options=_options(_value(pairs, "options")),
        seats=seats,
        taken=taken,
        stage=stage,
        creator=_fingerprint(_value(pairs, "creator"), "creator"),
        peer=_fingerprint(_value(pairs, "peer"), "peer"),
    )


def _pairs(text: bytes) -> dict[str, str]:
    """Every ``key=value`` of a raw TXT record, keys lowercased; BadAdvert if any is malformed,
    repeated, or the record is too large."""
    if len(text) > MAX_TXT_BYTES:
        raise BadAdvert(f"the record has {len(text)} bytes, more than {MAX_TXT_BYTES}")
    pairs: dict[str, str] = {}
    position = 0
    while position < len(text):
        length = text[position]
        item = text[position + 1 : position + 1 + length]
        if len(item) != length:
            raise BadAdvert("the record ends inside a string")
        position += 1 + length
        if not item:
            continue  # an empty string: an empty record is written as one
        raw_key, equals, raw_value = item.partition(b"=")
        key = raw_key.decode("ascii", "replace")
        if not _KEY.fullmatch(key):
            raise BadAdvert(f"{_shown(key)} is not a key (1 to 9 printable ASCII characters)")
        key = key.lower()
        if not equals:
            raise BadAdvert(f"the key {key!r} has no value")
        if key in pairs:
            raise BadAdvert(f"the key {key!r} appears twice")
        if len(pairs) == MAX_KEYS:
            raise BadAdvert(f"the record has more than {MAX_KEYS} keys")
        try:
            value = raw_value.decode("utf-8")
        except UnicodeDecodeError:
            raise BadAdvert(f"the value of {key!r} is not UTF-8") from None
        if value and not value.isprintable():
            raise BadAdvert(f"the value of {key!r} holds characters that cannot be shown")
        pairs[key] = value
    return pairs


def _value(pairs: Mapping[str, str], key: str) -> str:
    if key not in pairs:
        raise BadAdvert(f"the key {key!r} is missing")
    return pairs[key]


def _number(pairs: Mapping[str, str], key: str) -> int:
    value = _value(pairs, key)
    if not _NUMBER.fullmatch(value):
        raise BadAdvert(f"{key!r} must be a whole number, not {_shown(value)}")
    return int(value)


def _table_id(value: str) -> str:
    if not _TABLE_ID.fullmatch(value):
        raise BadAdvert(f"'table' must be 64 lowercase hex digits, not {_shown(value)}")
    return value


def _name(value: str) -> str:
    try:
        return check_text(value, "the table name", MAX_NAME)
    except ValueError as exc:
        raise BadAdvert(str(exc)) from None


def _word(value: str, key: str) -> str:
    if not _WORD.fullmatch(value):
        raise BadAdvert(f"{key!r} must be a lowercase word, not {_shown(value)}")
    return value


def _options(value: str) -> tuple[str, ...]:
    if not value:
        return ()
    options = tuple(_word(option, "options") for option in value.split(","))
    if len(options) > MAX_OPTIONS:
        raise BadAdvert(f"more than {MAX_OPTIONS} options")
    if list(options) != sorted(set(options)):
        raise BadAdvert("'options' must be listed once each, in order")
    return options


def _fingerprint(value: str, key: str) -> str:
    if not _FINGERPRINT.fullmatch(value):
        raise BadAdvert(f"{key!r} must be a key fingerprint (xxxx-xxxx-xxxx-xxxx-xxxx)")
    return value


def _optional(pairs: Mapping[str, str], key: str, read: Callable[[str], str]) -> str:
    """A key of a record of another version, if it is there and well-formed; else ''."""
    try:
        return read(_value(pairs, key))
    except BadAdvert:
        return ""


def _shown(text: str) -> str:
    """A hostile value, quoted and cut short for a message."""
    return repr(text if len(text) <= 24 else text[:24] + "...")
