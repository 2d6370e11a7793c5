"""Signed entries on their own (peer/entries.py): making and reading them, and every way an
entry is refused before the logs see it."""

from __future__ import annotations

import contextlib
import hashlib
from typing import TypeVar

import pytest
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message
from hypothesis import given, settings
from hypothesis import strategies as st

from condottiere.crypto import Identity
from condottiere.peer.entries import (
    FREE_KINDS,
    MAX_ENTRY_BYTES,
    TABLE_ID_BYTES,
    LogEntry,
    Reason,
    Rejection,
    entry_hash,
    heads_of,
    make_entry,
    read_entry,
    table_id_of,
)
from condottiere.v1 import log_pb2

TABLE = b"T" * 32
OTHER_TABLE = b"U" * 32
SIGNATURE_DOMAIN = b"condottiere/v1/entry\x00"
HASH_DOMAIN = b"condottiere/v1/entry-hash\x00"
SMALL_ORDER_KEY = bytes.fromhex("01" + "00" * 31)  # the neutral point: 32 bytes, not a key
NON_CANONICAL_KEY = bytes.fromhex("ed" + "ff" * 30 + "7f")

ME = Identity.generate()
OTHERS = [Identity.generate() for _ in range(3)]
MAX_HEADS = 64


def sign_raw(identity: Identity, raw: bytes, domain: bytes = SIGNATURE_DOMAIN) -> bytes:
    """A ``SignedEntry`` for exactly ``raw``, signed as the protocol says."""
    signed = log_pb2.SignedEntry(entry=raw, signature=identity.sign(domain + raw))
    return signed.SerializeToString()


def base_entry(**fields: object) -> log_pb2.Entry:
    """A well-formed first chat entry of ``ME``'s log, with ``fields`` changed."""
    entry = log_pb2.Entry(table_id=TABLE, author=ME.public.raw, seq=0, previous=b"", step=0)
    entry.chat.text = "hello"
    for name, value in fields.items():
        setattr(entry, name, value)
    return entry


def read(entry: log_pb2.Entry, identity: Identity = ME) -> LogEntry:
    return read_entry(sign_raw(identity, entry.SerializeToString()), table_id=TABLE)


def refusal(signed: bytes, table_id: bytes | None = TABLE) -> Rejection:
    with pytest.raises(Rejection) as caught:
        read_entry(signed, table_id=table_id)
    return caught.value


def head(
    identity_or_key: Identity | bytes, seq: int = 0, digest: bytes = b"h" * 32
) -> log_pb2.Head:
    key = identity_or_key.public.raw if isinstance(identity_or_key, Identity) else identity_or_key
    return log_pb2.Head(author=key, seq=seq, hash=digest)


def flip_bit(data: bytes, bit: int) -> bytes:
    flipped = bytearray(data)
    flipped[bit // 8] ^= 1 << (bit % 8)
    return bytes(flipped)


# ------------------------------------------------------------------ making and reading

BODIES: list[tuple[Message, int]] = [
    (log_pb2.Chat(text="hi"), 0),
    (log_pb2.Join(definition=b"d" * 32, player="ada", address="10.0.0.1:5000"), 0),
    (log_pb2.Leave(reason="bye"), 0),
    (log_pb2.CoinClose(choice=1, attempt=2, missing=[1], box_secret=b"b" * 32), 0),
    (log_pb2.Evidence(equivocation=log_pb2.Equivocation()), 0),
    (log_pb2.TableDefinition(protocol=1, game="condottiere", edition="zman", seats=3), 1),
    (log_pb2.Seating(authors=[b"a" * 32, b"b" * 32]), 2),
    (log_pb2.Ready(seating=b"s" * 32), 3),
    (log_pb2.Keys(announcements=[b"k1", b"k2"]), 4),
    (log_pb2.Shuffle(deck=1, round=2, step=b"proof"), 5),
    (log_pb2.Shares(batches=[log_pb2.DeckShares(deck=0, batch=b"batch")]), 6),
    (log_pb2.MovePlayed(turn=7, move="play drummer"), 7),
    (log_pb2.CoinCommit(choice=0, attempt=0, commitment=b"c" * 32, box_key=b"k" * 32), 8),
    (log_pb2.CoinEscrow(choice=0, attempt=0, dealing=b"d" * 32), 8),
    (log_pb2.CoinReveal(choice=0, attempt=0, value=b"v" * 32), 9),
    (log_pb2.AuditReveal(secrets=[b"s"]), 10),
]


@pytest.mark.parametrize(
    ("body", "step"), BODIES, ids=lambda v: type(v).__name__ if isinstance(v, Message) else str(v)
)
def test_every_body_kind_round_trips_through_make_and_read(body: Message, step: int) -> None:
    heads = heads_of({other.public.raw: (3, b"x" * 32) for other in OTHERS})
    made = make_entry(ME, TABLE, 2, b"p" * 32, step=step, heads=heads, body=body)
    got = read_entry(made.signed, table_id=TABLE)
    assert got == made
    assert (got.signed, got.raw, got.hash) == (made.signed, made.raw, made.hash)
    assert (got.author, got.seq, got.step) == (ME.public.raw, 2, step)
    assert got.entry.table_id == TABLE and got.entry.previous == b"p" * 32
    assert got.body == body
    assert log_pb2.Entry.DESCRIPTOR.fields_by_name[got.kind].message_type is body.DESCRIPTOR
    assert got.free == (got.kind in FREE_KINDS)
    assert got.heads() == {other.public.raw: (3, b"x" * 32) for other in OTHERS}


def test_entry_kind_is_the_body_field_name() -> None:
    kinds = {
        make_entry(ME, TABLE, 0, b"", step=step, heads=(), body=body).kind for body, step in BODIES
    }
    assert kinds == {
        "chat", "join", "leave", "coin_close", "evidence", "table", "seating", "ready",
        "keys", "shuffle", "shares", "move", "coin_commit", "coin_escrow", "coin_reveal",
        "audit",
    }


def test_read_without_a_table_id_accepts_any_table() -> None:
    made = make_entry(ME, OTHER_TABLE, 0, b"", step=0, heads=(), body=log_pb2.Chat(text="x"))
    assert read_entry(made.signed) == made


def test_make_entry_refuses_a_message_that_is_not_a_body() -> None:
    with pytest.raises(ValueError, match="not an entry body"):
        make_entry(ME, TABLE, 0, b"", step=0, heads=(), body=log_pb2.Head())
    with pytest.raises(ValueError, match="not an entry body"):
        make_entry(ME, TABLE, 0, b"", step=0, heads=(), body=log_pb2.SignedEntry())


def test_signature_is_over_the_domain_and_the_exact_entry_bytes() -> None:
    made = make_entry(ME, TABLE, 0, b"", step=0, heads=(), body=log_pb2.Chat(text="x"))
    envelope = log_pb2.SignedEntry.FromString(made.signed)
    assert envelope.entry == made.raw
    assert ME.public.verifies(SIGNATURE_DOMAIN + made.raw, envelope.signature)
    assert not ME.public.verifies(made.raw, envelope.signature)


def test_entry_hash_is_over_the_exact_signed_bytes_not_a_reserialisation() -> None:
    header = base_entry()
    header.ClearField("chat")
    body_only = log_pb2.Entry(chat=log_pb2.Chat(text="hello"))
    # the body first, then the rest: parses to the same message, serialises differently
    raw = body_only.SerializeToString() + header.SerializeToString()
    canonical = base_entry().SerializeToString()
    assert raw != canonical and log_pb2.Entry.FromString(raw) == base_entry()
    signed = sign_raw(ME, raw)
    got = read_entry(signed, table_id=TABLE)
    assert got.raw == raw and got.signed == signed
    assert got.hash == entry_hash(raw) == hashlib.sha256(HASH_DOMAIN + raw).digest()
    assert got.hash != entry_hash(canonical)


def test_entries_are_equal_by_their_signed_bytes() -> None:
    first = make_entry(ME, TABLE, 0, b"", step=0, heads=(), body=log_pb2.Chat(text="a"))
    again = read_entry(first.signed)
    other = make_entry(ME, TABLE, 0, b"", step=0, heads=(), body=log_pb2.Chat(text="b"))
    assert first == again and hash(first) == hash(again)
    assert first != other
    assert len({first, again, other}) == 2


def test_heads_of_orders_heads_by_author() -> None:
    logs = {b"c" * 32: (1, b"1" * 32), b"a" * 32: (5, b"5" * 32), b"b" * 32: (0, b"0" * 32)}
    assert heads_of(logs) == (
        (b"a" * 32, 5, b"5" * 32),
        (b"b" * 32, 0, b"0" * 32),
        (b"c" * 32, 1, b"1" * 32),
    )
    assert heads_of({}) == ()


# ------------------------------------------------------------------ well-formedness


def malformed(entry: log_pb2.Entry) -> Rejection:
    rejection = refusal(sign_raw(ME, entry.SerializeToString()))
    assert rejection.reason is Reason.MALFORMED, rejection
    return rejection


def test_the_base_entry_used_below_is_accepted() -> None:
    assert read(base_entry()).kind == "chat"


@pytest.mark.parametrize("size", [0, 1, 16, 31, 33])
def test_table_id_of_the_wrong_length_is_malformed(size: int) -> None:
    malformed(base_entry(table_id=b"T" * size))


@pytest.mark.parametrize(
    "author",
    [b"", ME.public.raw[:31], ME.public.raw + b"\x00", SMALL_ORDER_KEY, NON_CANONICAL_KEY],
    ids=["empty", "31 bytes", "33 bytes", "small order", "non-canonical"],
)
def test_author_that_is_not_a_public_key_is_malformed(author: bytes) -> None:
    malformed(base_entry(author=author))


def test_entry_without_a_body_is_malformed() -> None:
    entry = base_entry()
    entry.ClearField("chat")
    malformed(entry)


def test_first_entry_naming_a_previous_entry_is_malformed() -> None:
    malformed(base_entry(seq=0, previous=b"p" * 32))


def test_later_entry_naming_no_previous_entry_is_malformed() -> None:
    malformed(base_entry(seq=1, previous=b""))


@pytest.mark.parametrize("size", [1, 31, 33, 64])
def test_previous_hash_of_the_wrong_length_is_malformed(size: int) -> None:
    malformed(base_entry(seq=1, previous=b"p" * size))


def test_later_entry_with_a_32_byte_previous_hash_is_well_formed() -> None:
    assert read(base_entry(seq=1, previous=b"p" * 32)).seq == 1


@pytest.mark.parametrize(("body", "step"), [b for b in BODIES if b[1] == 0])
def test_free_kind_that_answers_a_step_is_malformed(body: Message, step: int) -> None:
    entry = make_entry(ME, TABLE, 0, b"", step=step + 1, heads=(), body=body)
    assert refusal(entry.signed).reason is Reason.MALFORMED


@pytest.mark.parametrize(("body", "step"), [b for b in BODIES if b[1] != 0])
def test_step_kind_that_answers_no_step_is_malformed(body: Message, step: int) -> None:
    table = table_id_of(ME.public.raw, body) if isinstance(body, log_pb2.TableDefinition) else TABLE
    assert read_entry(make_entry(ME, table, 0, b"", step=step, heads=(), body=body).signed)
    entry = make_entry(ME, table, 0, b"", step=0, heads=(), body=body)
    assert refusal(entry.signed).reason is Reason.MALFORMED


def test_head_naming_the_author_itself_is_malformed() -> None:
    entry = base_entry()
    entry.heads.extend([head(OTHERS[0]), head(ME)])
    malformed(entry)


def test_head_naming_another_author_twice_is_malformed() -> None:
    entry = base_entry()
    entry.heads.extend([head(OTHERS[0], 1), head(OTHERS[1]), head(OTHERS[0], 2)])
    malformed(entry)


def test_up_to_64_heads_are_well_formed_and_65_are_malformed() -> None:
    keys = [Identity.generate().public.raw for _ in range(MAX_HEADS + 1)]
    entry = base_entry()
    entry.heads.extend(head(key) for key in keys[:MAX_HEADS])
    assert len(read(entry).heads()) == MAX_HEADS
    entry.heads.append(head(keys[MAX_HEADS]))
    malformed(entry)


@pytest.mark.parametrize(
    ("author", "digest"),
    [
        (b"a" * 31, b"h" * 32),
        (b"a" * 33, b"h" * 32),
        (b"", b"h" * 32),
        (b"a" * 32, b""),
        (b"a" * 32, b"h" * 31),
        (b"a" * 32, b"h" * 33),
    ],
    ids=["author 31", "author 33", "no author", "no hash", "hash 31", "hash 33"],
)
def test_head_with_a_bad_author_or_hash_length_is_malformed(author: bytes, digest: bytes) -> None:
    entry = base_entry()
    entry.heads.append(head(author, 0, digest))
    malformed(entry)


def test_head_of_the_right_lengths_is_well_formed() -> None:
    entry = base_entry()
    entry.heads.append(head(b"a" * 32, 9, b"h" * 32))
    assert read(entry).heads() == {b"a" * 32: (9, b"h" * 32)}


# ------------------------------------------------------------------ unknown fields

UNKNOWN_FIELD = b"\x98\x06\x01"  # field 99, varint 1
M = TypeVar("M", bound=Message)


def with_unknown(message: M) -> M:
    """A copy of ``message`` carrying an unknown field."""
    copy = type(message)()
    copy.ParseFromString(message.SerializeToString() + UNKNOWN_FIELD)
    return copy


def test_unknown_field_in_the_signed_envelope_is_malformed() -> None:
    made = make_entry(ME, TABLE, 0, b"", step=0, heads=(), body=log_pb2.Chat(text="x"))
    assert refusal(made.signed + UNKNOWN_FIELD).reason is Reason.MALFORMED


def test_unknown_field_in_the_entry_is_malformed_even_when_signed() -> None:
    raw = base_entry().SerializeToString() + UNKNOWN_FIELD
    assert refusal(sign_raw(ME, raw)).reason is Reason.MALFORMED


def test_unknown_field_in_a_head_is_malformed() -> None:
    entry = base_entry()
    entry.heads.append(with_unknown(head(OTHERS[0])))
    assert UNKNOWN_FIELD in entry.SerializeToString()
    malformed(entry)


def test_unknown_field_in_the_body_is_malformed() -> None:
    entry = make_entry(ME, TABLE, 0, b"", step=0, heads=(), body=with_unknown(log_pb2.Chat()))
    assert UNKNOWN_FIELD in entry.raw
    assert refusal(entry.signed).reason is Reason.MALFORMED


def test_unknown_field_deep_in_a_repeated_nested_message_is_malformed() -> None:
    card = log_pb2.CardShown(deck=0)
    card.known.CopyFrom(with_unknown(log_pb2.CardSlot(round=1, position=2)))
    body = log_pb2.MovePlayed(turn=0, move="pass", cards=[log_pb2.CardShown(deck=1), card])
    entry = make_entry(ME, TABLE, 0, b"", step=1, heads=(), body=body)
    assert UNKNOWN_FIELD in entry.raw
    assert refusal(entry.signed).reason is Reason.MALFORMED


def test_unknown_field_in_evidence_envelope_is_malformed() -> None:
    first = with_unknown(log_pb2.SignedEntry(entry=b"e", signature=b"s"))
    body = log_pb2.Evidence(equivocation=log_pb2.Equivocation(first=first))
    entry = make_entry(ME, TABLE, 0, b"", step=0, heads=(), body=body)
    assert refusal(entry.signed).reason is Reason.MALFORMED


# ------------------------------------------------------------------ size, table, signature


def chat_of_size(size: int) -> bytes:
    """A valid signed chat entry of exactly ``size`` bytes."""
    text_length = size - 200
    for _ in range(10):
        made = make_entry(
            ME, TABLE, 0, b"", step=0, heads=(), body=log_pb2.Chat(text="x" * text_length)
        )
        if len(made.signed) == size:
            return made.signed
        text_length += size - len(made.signed)
    raise AssertionError(f"no chat entry of {size} bytes")


def test_entry_of_exactly_the_limit_is_read() -> None:
    signed = chat_of_size(MAX_ENTRY_BYTES)
    assert read_entry(signed, table_id=TABLE).kind == "chat"


def test_entry_one_byte_over_the_limit_is_too_large() -> None:
    assert refusal(chat_of_size(MAX_ENTRY_BYTES + 1)).reason is Reason.TOO_LARGE


def test_oversized_garbage_is_too_large_before_it_is_parsed() -> None:
    assert refusal(b"\xff" * (MAX_ENTRY_BYTES + 1)).reason is Reason.TOO_LARGE


def test_entry_for_another_table_is_refused_as_wrong_table() -> None:
    made = make_entry(ME, OTHER_TABLE, 0, b"", step=0, heads=(), body=log_pb2.Chat(text="x"))
    assert refusal(made.signed, table_id=TABLE).reason is Reason.WRONG_TABLE


DEFINITION = log_pb2.TableDefinition(
    protocol=2, game="condottiere", edition="zman", seats=3, options=["cede", "sieges"],
    name="Friday", player="ada", address="10.0.0.1:5000", nonce=b"n" * 32,
)


def definition_under(table_id: bytes, body: log_pb2.TableDefinition = DEFINITION) -> bytes:
    return make_entry(ME, table_id, 0, b"", step=1, heads=(), body=body).signed


def test_a_table_definition_is_read_under_the_id_it_hashes_to() -> None:
    table_id = table_id_of(ME.public.raw, DEFINITION)
    assert len(table_id) == TABLE_ID_BYTES
    assert read_entry(definition_under(table_id), table_id=table_id).kind == "table"


def test_a_table_definition_under_any_other_id_is_no_tables() -> None:
    for table_id in (TABLE, table_id_of(OTHERS[0].public.raw, DEFINITION)):
        rejection = refusal(definition_under(table_id), table_id=None)
        assert rejection.reason is Reason.WRONG_TABLE
        assert rejection.detail == "the table id is not the hash of its definition"
        assert rejection.author is None  # nobody is blamed: it is no entry of any table


def changed(field: FieldDescriptor) -> log_pb2.TableDefinition:
    """``DEFINITION`` with one field changed."""
    body = log_pb2.TableDefinition()
    body.CopyFrom(DEFINITION)
    if field.is_repeated:
        getattr(body, field.name).append("more")
    elif field.type == FieldDescriptor.TYPE_STRING:
        setattr(body, field.name, getattr(body, field.name) + "!")
    elif field.type == FieldDescriptor.TYPE_BYTES:
        setattr(body, field.name, getattr(body, field.name) + b"!")
    else:
        setattr(body, field.name, getattr(body, field.name) + 1)
    return body


@pytest.mark.parametrize("field", list(DEFINITION.DESCRIPTOR.fields), ids=lambda f: f.name)
def test_every_field_of_a_definition_is_bound_by_its_table_id(field: FieldDescriptor) -> None:
    other = changed(field)
    assert table_id_of(ME.public.raw, other) != table_id_of(ME.public.raw, DEFINITION)
    original = table_id_of(ME.public.raw, DEFINITION)
    assert refusal(definition_under(original, other), table_id=None).reason is Reason.WRONG_TABLE


def test_moving_a_value_from_one_field_to_the_next_changes_the_table_id() -> None:
    joined = log_pb2.TableDefinition(name="ab", player="")
    split = log_pb2.TableDefinition(name="a", player="b")
    assert table_id_of(ME.public.raw, joined) != table_id_of(ME.public.raw, split)


def test_a_definition_body_later_in_a_log_defines_nothing_and_is_read_as_it_is() -> None:
    later = make_entry(ME, TABLE, 1, b"p" * 32, step=1, heads=(), body=DEFINITION)
    assert read_entry(later.signed, table_id=TABLE).kind == "table"


def test_table_is_checked_after_form_and_before_the_signature() -> None:
    wrong_table = base_entry(table_id=OTHER_TABLE)
    forged = sign_raw(OTHERS[0], wrong_table.SerializeToString())
    assert refusal(forged).reason is Reason.WRONG_TABLE
    also_malformed = base_entry(table_id=OTHER_TABLE, seq=0, previous=b"p" * 32)
    assert refusal(sign_raw(ME, also_malformed.SerializeToString())).reason is Reason.MALFORMED


def test_wrong_table_entry_with_a_forged_signature_blames_nobody() -> None:
    forged = sign_raw(OTHERS[0], base_entry(table_id=OTHER_TABLE).SerializeToString())
    rejection = refusal(forged)
    assert rejection.reason is Reason.WRONG_TABLE
    assert rejection.author is None


def test_every_flipped_signature_bit_gives_bad_signature() -> None:
    made = make_entry(ME, TABLE, 0, b"", step=0, heads=(), body=log_pb2.Chat(text="x"))
    envelope = log_pb2.SignedEntry.FromString(made.signed)
    for bit in range(len(envelope.signature) * 8):
        bad = log_pb2.SignedEntry(entry=envelope.entry, signature=flip_bit(envelope.signature, bit))
        rejection = refusal(bad.SerializeToString())
        assert rejection.reason is Reason.BAD_SIGNATURE, bit
        assert rejection.author is None  # an unsigned claim blames nobody


def test_every_flipped_bit_of_a_hash_in_the_entry_gives_bad_signature() -> None:
    previous = bytes(range(32))
    made = make_entry(ME, TABLE, 1, previous, step=0, heads=(), body=log_pb2.Chat(text="x"))
    envelope = log_pb2.SignedEntry.FromString(made.signed)
    start = made.raw.index(previous)
    for bit in range(start * 8, (start + 32) * 8):
        bad = log_pb2.SignedEntry(entry=flip_bit(made.raw, bit), signature=envelope.signature)
        assert refusal(bad.SerializeToString()).reason is Reason.BAD_SIGNATURE, bit


def test_no_flipped_bit_anywhere_in_a_signed_entry_is_accepted() -> None:
    heads = heads_of({OTHERS[0].public.raw: (4, b"x" * 32)})
    made = make_entry(
        ME, TABLE, 3, b"p" * 32, step=2, heads=heads, body=log_pb2.Ready(seating=b"s")
    )
    for bit in range(len(made.signed) * 8):
        rejection = refusal(flip_bit(made.signed, bit), table_id=None)
        assert rejection.reason in (Reason.MALFORMED, Reason.BAD_SIGNATURE), bit


def test_signature_over_another_entry_gives_bad_signature() -> None:
    first = make_entry(ME, TABLE, 0, b"", step=0, heads=(), body=log_pb2.Chat(text="a"))
    second = make_entry(ME, TABLE, 0, b"", step=0, heads=(), body=log_pb2.Chat(text="b"))
    signature = log_pb2.SignedEntry.FromString(first.signed).signature
    swapped = log_pb2.SignedEntry(entry=second.raw, signature=signature).SerializeToString()
    assert refusal(swapped).reason is Reason.BAD_SIGNATURE


def test_signature_by_another_key_than_the_author_gives_bad_signature() -> None:
    assert refusal(sign_raw(OTHERS[0], base_entry().SerializeToString())).reason is (
        Reason.BAD_SIGNATURE
    )


def test_signature_without_the_entry_domain_gives_bad_signature() -> None:
    raw = base_entry().SerializeToString()
    assert refusal(sign_raw(ME, raw, domain=b"")).reason is Reason.BAD_SIGNATURE
    assert refusal(sign_raw(ME, raw, domain=b"condottiere/v1/entry")).reason is (
        Reason.BAD_SIGNATURE
    )


@pytest.mark.parametrize("size", [0, 63, 65])
def test_signature_of_the_wrong_length_gives_bad_signature(size: int) -> None:
    bad = log_pb2.SignedEntry(entry=base_entry().SerializeToString(), signature=b"s" * size)
    assert refusal(bad.SerializeToString()).reason is Reason.BAD_SIGNATURE


# ------------------------------------------------------------------ anything at all


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=400))
def test_random_bytes_only_ever_raise_rejection(data: bytes) -> None:
    with contextlib.suppress(Rejection):
        read_entry(data, table_id=TABLE)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300), st.binary(max_size=80))
def test_random_entry_bytes_in_an_envelope_only_ever_raise_rejection(
    raw: bytes, signature: bytes
) -> None:
    envelope = log_pb2.SignedEntry(entry=raw, signature=signature).SerializeToString()
    for signed in (envelope, sign_raw(ME, raw)):
        with contextlib.suppress(Rejection):
            read_entry(signed, table_id=TABLE)


HEAD_AUTHORS = [OTHERS[0].public.raw, OTHERS[1].public.raw, ME.public.raw, b"a" * 31]


@settings(max_examples=150, deadline=None)
@given(
    table_id=st.sampled_from([TABLE, OTHER_TABLE, b"", b"T" * 31]),
    author=st.sampled_from([ME.public.raw, OTHERS[0].public.raw, SMALL_ORDER_KEY, b"a" * 31]),
    seq=st.integers(0, 3),
    previous=st.sampled_from([b"", b"p" * 32, b"p" * 31]),
    step=st.integers(0, 2),
    kind=st.sampled_from(["chat", "move", None]),
    heads=st.lists(
        st.tuples(st.sampled_from(HEAD_AUTHORS), st.integers(0, 9), st.sampled_from([32, 31])),
        max_size=3,
    ),
)
def test_read_entry_accepts_exactly_the_well_formed_signed_entries(
    table_id: bytes,
    author: bytes,
    seq: int,
    previous: bytes,
    step: int,
    kind: str | None,
    heads: list[tuple[bytes, int, int]],
) -> None:
    entry = log_pb2.Entry(table_id=table_id, author=author, seq=seq, previous=previous, step=step)
    entry.heads.extend(head(a, s, b"h" * n) for a, s, n in heads)
    if kind == "chat":
        entry.chat.text = "hi"
    elif kind == "move":
        entry.move.move = "pass"
    head_authors = [a for a, _, _ in heads]
    well_formed = (
        len(table_id) == 32
        and author in (ME.public.raw, OTHERS[0].public.raw)
        and kind is not None
        and (seq == 0) == (previous == b"")
        and len(previous) in (0, 32)
        and (kind == "chat") == (step == 0)
        and author not in head_authors
        and len(set(head_authors)) == len(head_authors)
        and all(len(a) == 32 and n == 32 for a, _, n in heads)
    )
    signed = sign_raw(ME, entry.SerializeToString())
    try:
        got = read_entry(signed, table_id=TABLE)
    except Rejection as rejection:
        if not well_formed:
            expected = Reason.MALFORMED
        elif table_id != TABLE:
            expected = Reason.WRONG_TABLE
        else:
            expected = Reason.BAD_SIGNATURE
        assert rejection.reason is expected
        assert author != ME.public.raw or not well_formed or table_id != TABLE
    else:
        assert well_formed and table_id == TABLE and author == ME.public.raw
        assert got.raw == entry.SerializeToString()
