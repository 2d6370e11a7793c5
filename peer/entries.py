"""Signed log entries: making, reading and checking one entry on its own, and the typed
reasons an entry is refused.

An entry travels as the exact bytes its author signed; its hash (which the next entry of
the same log names as ``previous``) is taken over those bytes, and nobody re-serialises an
entry to check it. Reading an entry checks what can be checked of it alone, in the fixed
order of the design: well-formed, then the table, then the signature. The rest (sequence
and previous hash, then everything about the game) needs the logs and the table's state.

A table's id is the hash of its definition (:func:`table_id_of`: the creator's key and every
field of the ``TableDefinition``), and a definition entry that carries any other id is no
table's: so every entry names, by its table id, the one definition it belongs to, and no
entry of one table can ever pass for an entry of another.

>>> from condottiere.crypto import Identity
>>> me = Identity.generate()
>>> first = make_entry(me, b"T" * 32, 0, b"", step=0, heads=(), body=log_pb2.Chat(text="hi"))
>>> read_entry(first.signed, table_id=b"T" * 32) == first
True
>>> first.seq, first.kind, len(first.hash)
(0, 'chat', 32)
>>> read_entry(first.signed, table_id=b"U" * 32)
Traceback (most recent call last):
...
condottiere.peer.entries.Rejection: wrong-table: the entry is for another table
>>> definition = log_pb2.TableDefinition(name="Friday", nonce=b"n" * 32)
>>> made = make_entry(me, b"T" * 32, 0, b"", step=1, heads=(), body=definition)
>>> read_entry(made.signed)
Traceback (most recent call last):
...
condottiere.peer.entries.Rejection: wrong-table: the table id is not the hash of its definition
>>> bound = table_id_of(me.public.raw, definition)
>>> read_entry(make_entry(me, bound, 0, b"", step=1, heads=(), body=definition).signed).kind
'table'
"""

from __future__ import annotations

import enum
import functools
import hashlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from google.protobuf.message import DecodeError as ProtobufDecodeError
from google.protobuf.message import Message
from google.protobuf.unknown_fields import UnknownFieldSet

from condottiere.crypto import (
    DecodeError,
    Identity,
    PublicIdentity,
    encode_bytes,
    encode_text,
    encode_u32,
)
from condottiere.v1 import log_pb2

__all__ = [
    "BODY_KINDS",
    "FREE_KINDS",
    "MAX_ENTRY_BYTES",
    "TABLE_ID_BYTES",
    "LogEntry",
    "Reason",
    "Rejection",
    "SigningConflict",
    "entry_hash",
    "heads_of",
    "make_entry",
    "read_entry",
    "table_id_of",
]

TABLE_ID_BYTES = 32
"""A table id is a SHA-256 hash (see :func:`table_id_of`)."""
HASH_BYTES = 32
MAX_ENTRY_BYTES = 1 << 20
"""The largest signed entry accepted (a 110-card shuffle with its proof is about 21 KiB)."""
MAX_HEADS = 64

_SIGNATURE_DOMAIN = b"condottiere/v1/entry\x00"
_HASH_DOMAIN = b"condottiere/v1/entry-hash\x00"
_FIRST_FIELDS = 9
"""The fields of a ``TableDefinition`` in protocol 2 as first defined (``protocol`` to
``nonce``): each is bound even at its default."""
_TABLE_ID_DOMAIN = b"condottiere/v1/table-id\x00"

BODY_KINDS = tuple(f.name for f in log_pb2.Entry.DESCRIPTOR.oneofs_by_name["body"].fields)
"""The name of every body an entry may carry."""

_BODY_FIELDS = {
    field.message_type.full_name: field.name
    for field in log_pb2.Entry.DESCRIPTOR.oneofs_by_name["body"].fields
    if field.message_type is not None
}

FREE_KINDS = frozenset({"join", "coin_close", "chat", "leave", "evidence", "silence"})
"""Bodies that answer no step of the table: they may come at any point of a log."""


class Reason(enum.Enum):
    """Why an entry was refused, in the order the checks are made."""

    TOO_LARGE = "too-large"
    MALFORMED = "malformed"
    WRONG_TABLE = "wrong-table"
    BAD_SIGNATURE = "bad-signature"
    EQUIVOCATION = "equivocation"
    """Two different entries with one author and sequence number."""
    NOT_SEATED = "not-seated"
    """The author has no seat at the table (and is not joining it)."""
    STALE = "stale"
    """The entry answers a step of the table that is already over."""
    OUT_OF_TURN = "out-of-turn"
    """The table does not wait for this author at this step."""
    UNEXPECTED = "unexpected"
    """The table waits for something else from this author."""
    BAD_PROOF = "bad-proof"
    """A key, shuffle, share, reveal or coin that does not check."""
    ILLEGAL = "illegal"
    """A move the rules do not allow now."""


class Rejection(ValueError):
    """An entry refused: the reason, the author (when known) and the evidence."""

    def __init__(
        self,
        reason: Reason,
        detail: str,
        *,
        author: bytes | None = None,
        seat: int | None = None,
        evidence: tuple[bytes, ...] = (),
    ) -> None:
        super().__init__(f"{reason.value}: {detail}")
        self.reason = reason
        self.detail = detail
        self.author = author
        """The author to blame, when it is known by its key."""
        self.seat = seat
        """The seat to blame, when it is known by its seat."""
        self.evidence = evidence
        """The signed entries involved, as they travelled."""


@dataclass(frozen=True, eq=False)
class LogEntry:
    """One entry of an author's log, read and signature-checked."""

    signed: bytes
    """The ``SignedEntry`` as it travels."""
    raw: bytes
    """The ``Entry`` bytes the author signed."""
    entry: log_pb2.Entry = field(repr=False)
    hash: bytes

    @property
    def author(self) -> bytes:
        return self.entry.author

    @property
    def seq(self) -> int:
        return self.entry.seq

    @property
    def step(self) -> int:
        return self.entry.step

    @property
    def kind(self) -> str:
        """The name of the body (``"move"``, ``"shares"``, ...)."""
        return str(self.entry.WhichOneof("body"))

    @property
    def body(self) -> Any:
        return getattr(self.entry, self.kind)

    @property
    def free(self) -> bool:
        """True for a body that answers no step (chat, coin timeout, ...)."""
        return self.kind in FREE_KINDS

    def heads(self) -> dict[bytes, tuple[int, bytes]]:
        """What the author had seen of each other log: author -> (seq, hash)."""
        return {head.author: (head.seq, head.hash) for head in self.entry.heads}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LogEntry) and self.signed == other.signed

    def __hash__(self) -> int:
        return hash(self.hash)


class SigningConflict(RuntimeError):
    """An entry a peer made takes the place of another entry its key signed before (the same
    table and sequence number): the two together would prove an equivocation, so the new one
    is neither kept nor published. Its keeper raises this (see ``Keeper.keep_own``)."""

    def __init__(self, kept: LogEntry, made: LogEntry) -> None:
        super().__init__(
            f"refused to sign entry {made.seq} ({made.kind}) of table "
            f"{made.entry.table_id.hex()[:8]}: this key already signed another entry "
            f"{kept.seq} there ({kept.kind}), and signing both is an equivocation"
        )
        self.kept = kept
        self.made = made


def entry_hash(raw: bytes) -> bytes:
    """The hash the next entry of the log names as ``previous``."""
    return hashlib.sha256(_HASH_DOMAIN + raw).digest()


def table_id_of(creator: bytes, definition: log_pb2.TableDefinition) -> bytes:
    """The id of the table ``creator`` (a public key) defines with ``definition``: SHA-256
    over a domain tag, the creator's key, then every field of the definition in the order of
    their numbers, each as its number, the count of its values and each value (a string or
    bytes length-prefixed, a number as eight bytes, little-endian). Two different
    definitions, or one signed by two creators, never share an id. A field added to the
    message after protocol 2's first nine is bound as soon as it is set, and left out while
    it holds its default (which protobuf cannot tell from its absence): so a table defined
    before the field existed keeps its id, and its record still verifies."""
    digest = hashlib.sha256(_TABLE_ID_DOMAIN + encode_bytes(creator))
    for descriptor in sorted(definition.DESCRIPTOR.fields, key=lambda d: d.number):
        value = getattr(definition, descriptor.name)
        values = list(value) if descriptor.is_repeated else [value]
        if descriptor.number > _FIRST_FIELDS and not any(values):
            continue
        digest.update(encode_u32(descriptor.number) + encode_u32(len(values)))
        for item in values:
            digest.update(_canonical(item))
    return digest.digest()


def _canonical(value: object) -> bytes:
    """One value of a definition's field, as :func:`table_id_of` hashes it."""
    if isinstance(value, str):
        return encode_text(value)
    if isinstance(value, bytes):
        return encode_bytes(value)
    if isinstance(value, int):
        return value.to_bytes(8, "little")
    raise TypeError(f"a table definition holds no {type(value).__name__} field")


def make_entry(
    identity: Identity,
    table_id: bytes,
    seq: int,
    previous: bytes,
    *,
    step: int,
    heads: Iterable[tuple[bytes, int, bytes]],
    body: Message,
) -> LogEntry:
    """Sign a new entry of ``identity``'s log carrying ``body`` (any body message)."""
    entry = log_pb2.Entry(
        table_id=table_id,
        author=identity.public.raw,
        seq=seq,
        previous=previous,
        step=step,
        heads=[log_pb2.Head(author=a, seq=s, hash=h) for a, s, h in heads],
    )
    getattr(entry, _body_field(body)).CopyFrom(body)
    raw = entry.SerializeToString()
    signed = log_pb2.SignedEntry(entry=raw, signature=identity.sign(_SIGNATURE_DOMAIN + raw))
    return LogEntry(signed.SerializeToString(), raw, entry, entry_hash(raw))


def _body_field(body: Message) -> str:
    kind = _BODY_FIELDS.get(body.DESCRIPTOR.full_name)
    if kind is None:
        raise ValueError(f"{body.DESCRIPTOR.name} is not an entry body")
    return kind


def read_entry(
    signed: bytes,
    *,
    table_id: bytes | None = None,
    refuse: Callable[[bytes], Rejection | None] | None = None,
) -> LogEntry:
    """Read a signed entry as it arrived; :class:`Rejection` if it is too large, malformed,
    for another table than ``table_id`` (when given), a table definition that does not
    carry its own id, its author is one ``refuse`` turns away (asked before the signature is
    checked: an author turned away whatever it signed costs no check), or its signature
    does not verify."""
    if len(signed) > MAX_ENTRY_BYTES:
        raise Rejection(Reason.TOO_LARGE, f"{len(signed)} bytes, over {MAX_ENTRY_BYTES}")
    envelope = _parse(log_pb2.SignedEntry(), signed, "signed entry")
    entry = _parse(log_pb2.Entry(), envelope.entry, "entry")
    author = _well_formed(entry)
    if table_id is not None and entry.table_id != table_id:
        raise Rejection(Reason.WRONG_TABLE, "the entry is for another table")
    if (
        entry.seq == 0
        and entry.WhichOneof("body") == "table"
        and entry.table_id != table_id_of(entry.author, entry.table)
    ):
        raise Rejection(Reason.WRONG_TABLE, "the table id is not the hash of its definition")
    if refuse is not None:
        refused = refuse(entry.author)
        if refused is not None:
            raise refused
    if not author.verifies(_SIGNATURE_DOMAIN + envelope.entry, envelope.signature):
        raise Rejection(Reason.BAD_SIGNATURE, "the signature does not verify", author=None)
    return LogEntry(signed, envelope.entry, entry, entry_hash(envelope.entry))


def _parse(message: Any, data: bytes, what: str) -> Any:
    try:
        message.ParseFromString(data)
    except (ProtobufDecodeError, RecursionError, ValueError) as exc:
        raise Rejection(Reason.MALFORMED, f"not a {what}: {exc}") from None
    if _has_unknown_fields(message):
        raise Rejection(Reason.MALFORMED, f"the {what} has fields this protocol does not know")
    return message


def _has_unknown_fields(message: Message) -> bool:
    if len(UnknownFieldSet(message)):
        return True
    for descriptor, value in message.ListFields():
        if descriptor.message_type is None:
            continue
        values = value if descriptor.is_repeated else [value]
        if any(_has_unknown_fields(item) for item in values):
            return True
    return False


@functools.lru_cache(maxsize=1024)
def _public_identity(raw: bytes) -> PublicIdentity:
    return PublicIdentity(raw)


def _well_formed(entry: log_pb2.Entry) -> PublicIdentity:
    def malformed(detail: str) -> Rejection:
        return Rejection(Reason.MALFORMED, detail)

    if len(entry.table_id) != TABLE_ID_BYTES:
        raise malformed(f"a table id is {TABLE_ID_BYTES} bytes")
    try:
        author = _public_identity(entry.author)
    except DecodeError as exc:
        raise malformed(f"the author is not a public key: {exc}") from None
    kind = entry.WhichOneof("body")
    if kind is None:
        raise malformed("the entry has no body")
    if (entry.seq == 0) != (entry.previous == b""):
        raise malformed("only the first entry of a log names no previous entry")
    if entry.previous and len(entry.previous) != HASH_BYTES:
        raise malformed(f"a previous hash is {HASH_BYTES} bytes")
    if (kind in FREE_KINDS) != (entry.step == 0):
        answers = "answers no step" if kind in FREE_KINDS else "answers a step"
        raise malformed(f"a {kind} entry {answers}")
    if len(entry.heads) > MAX_HEADS:
        raise malformed(f"more than {MAX_HEADS} heads")
    seen: set[bytes] = set()
    for head in entry.heads:
        if head.author == entry.author or head.author in seen:
            raise malformed("heads name each other author at most once, never the author")
        if len(head.author) != len(entry.author) or len(head.hash) != HASH_BYTES:
            raise malformed("a head is an author key, a sequence number and a hash")
        seen.add(head.author)
    return author


def heads_of(logs: Mapping[bytes, tuple[int, bytes]]) -> tuple[tuple[bytes, int, bytes], ...]:
    """Heads to put in a new entry, from author -> (last seq, its hash), in a fixed order."""
    return tuple((author, seq, digest) for author, (seq, digest) in sorted(logs.items()))
