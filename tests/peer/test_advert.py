"""The advertisement's TXT record: it round-trips, and every random or hostile record is either
read whole or refused with a reason (never another exception, never half read)."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from condottiere.peer.advert import (
    MAX_TXT_BYTES,
    STAGES,
    Advert,
    BadAdvert,
    encode_txt,
    read_advert,
)
from condottiere.peer.lobby import PROTOCOL

FINGERPRINT = "1a2b-3c4d-5e6f-7a8b-9c0d"
GOOD = Advert(PROTOCOL, "0f" * 32, "Friday", "condottiere", "zman", (), 4, 1, "lobby",
              FINGERPRINT, "aaaa-bbbb-cccc-dddd-eeee")


def txt(**changes: str | None) -> bytes:
    """The good record with some keys changed (None: left out)."""
    pairs: dict[str, str] = dict(GOOD.txt())
    for key, value in changes.items():
        if value is None:
            pairs.pop(key)
        else:
            pairs[key] = value
    return encode_txt(pairs)


def test_a_record_reads_back_as_the_advert_it_was_made_from() -> None:
    assert read_advert(txt()) == GOOD
    assert GOOD.why_not_joinable() is None


@settings(max_examples=200, deadline=None)
@given(
    name=st.text(st.characters(codec="utf-8", categories=["L", "N", "P", "S", "Zs"]),
                 min_size=1, max_size=40).filter(str.isprintable),
    seats=st.integers(2, 6),
    taken=st.integers(0, 6),
    stage=st.sampled_from(STAGES),
    options=st.sets(st.sampled_from(["cede", "sieges"])),
)
def test_any_well_formed_advert_round_trips(
    name: str, seats: int, taken: int, stage: str, options: set[str]
) -> None:
    advert = dataclasses.replace(
        GOOD, name=name, seats=seats, taken=min(taken, seats), stage=stage,
        edition="ffg", options=tuple(sorted(options)),
    )
    assert read_advert(encode_txt(advert.txt())) == advert


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2 * MAX_TXT_BYTES))
def test_random_bytes_are_read_whole_or_refused_with_a_reason(text: bytes) -> None:
    try:
        read_advert(text)
    except BadAdvert as refusal:
        assert str(refusal)


KEYS = ["proto", "table", "name", "game", "edition", "options", "seats", "taken", "free",
        "stage", "creator", "peer", "PROTO", "x", "=", ""]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(KEYS), st.text(max_size=60)), max_size=20))
def test_random_records_of_known_keys_are_read_whole_or_refused_with_a_reason(
    pairs: list[tuple[str, str]],
) -> None:
    raw = b"".join(
        bytes([len(item)]) + item
        for item in (f"{key}={value}".encode()[:255] for key, value in pairs)
    )
    try:
        advert = read_advert(raw)
    except BadAdvert as refusal:
        assert str(refusal)
        return
    assert advert.protocol != PROTOCOL or advert.seats == advert.taken + advert.free


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_good_record_with_one_value_replaced_by_garbage_is_read_or_refused(
    data: st.DataObject,
) -> None:
    key = data.draw(st.sampled_from(sorted(GOOD.txt())))
    value = data.draw(st.text(max_size=80))
    try:
        advert = read_advert(txt(**{key: value}))
    except BadAdvert as refusal:
        assert str(refusal)
        return
    assert advert.txt()[key] == value or key == "proto"


HOSTILE = [
    (txt(proto=None), "the key 'proto' is missing"),
    (txt(name=None), "the key 'name' is missing"),
    (txt() + b"\x0bname=Friday", "the key 'name' appears twice"),
    (txt() + b"\x0bNAME=Friday", "the key 'name' appears twice"),
    (txt() + b"\x05bogus", "the key 'bogus' has no value"),
    (txt() + b"\x06=value", "is not a key"),
    (txt() + b"\x0fverylongkey=yes", "is not a key"),
    (txt() + b"\x20", "the record ends inside a string"),
    (txt(name="\x1b[2J\x1b[Hpwned"), "the value of 'name' holds characters that cannot be shown"),
    (txt(name="evil\u202etxt.exe"), "cannot be shown"),
    (txt(name="line\nbreak"), "cannot be shown"),
    (txt(name=""), "the table name must have 1 to 40 characters"),
    (txt(name="x" * 41), "the table name must have 1 to 40 characters"),
    (encode_txt({"proto": "1"}) + b"\x07name=\xff\xfe", "the value of 'name' is not UTF-8"),
    (txt(proto="-1"), "'proto' must be a whole number"),
    (txt(proto="01"), "'proto' must be a whole number"),
    (txt(proto="99999999999"), "'proto' must be a whole number"),
    (txt(seats="4.0"), "'seats' must be a whole number"),
    (txt(seats="0", taken="0", free="0"), "'seats' must be 1 to 64"),
    (txt(seats="1000", taken="0", free="1000"), "'seats' must be 1 to 64"),
    (txt(taken="3"), "3 seats taken and 3 free do not make 4 seats"),
    (txt(free="99"), "1 seats taken and 99 free do not make 4 seats"),
    (txt(stage="winning"), "'stage' must be one of lobby"),
    (txt(table="0f" * 31), "'table' must be 64 lowercase hex digits"),
    (txt(table="0F" * 32), "'table' must be 64 lowercase hex digits"),
    (txt(game="Condottiere!"), "'game' must be a lowercase word"),
    (txt(edition=""), "'edition' must be a lowercase word"),
    (txt(options="sieges,cede"), "'options' must be listed once each, in order"),
    (txt(options="cede,cede"), "'options' must be listed once each, in order"),
    (txt(options=","), "'options' must be a lowercase word"),
    (txt(options=",".join(f"o{i:02}" for i in range(17))), "more than 16 options"),
    (txt(creator="1a2b3c4d5e6f7a8b9c0d"), "'creator' must be a key fingerprint"),
    (txt(peer="1A2B-3C4D-5E6F-7A8B-9C0D"), "'peer' must be a key fingerprint"),
    (txt() + b"".join(b"\x05k%02d=v" % i for i in range(40)), "more than 32 keys"),
    (txt() + b"\xff" + b"x=" + b"y" * 253 + b"\xff" * 1024, "more than 1024"),
]


@pytest.mark.parametrize(("record", "reason"), HOSTILE, ids=[r for _, r in HOSTILE])
def test_a_malformed_or_hostile_record_is_refused_with_the_reason(
    record: bytes, reason: str
) -> None:
    with pytest.raises(BadAdvert) as refusal:
        read_advert(record)
    assert reason in str(refusal.value)


def test_keys_are_case_insensitive_and_unknown_keys_are_ignored() -> None:
    pairs = {key.upper(): value for key, value in GOOD.txt().items()}
    assert read_advert(encode_txt({**pairs, "future": "yes"})) == GOOD


def test_a_record_of_another_protocol_version_is_shown_but_not_joinable() -> None:
    newer = PROTOCOL + 1
    advert = read_advert(encode_txt({"proto": str(newer), "table": "ab" * 32, "name": "Newer",
                                     "seats": "many"}))
    assert (advert.protocol, advert.table_id, advert.name) == (newer, "ab" * 32, "Newer")
    assert advert.why_not_joinable() == (
        f"it speaks protocol version {newer}, this program {PROTOCOL}")


def test_a_record_of_another_version_keeps_only_what_is_well_formed() -> None:
    advert = read_advert(encode_txt({"proto": "1", "table": "nothex", "name": ""}))
    assert (advert.table_id, advert.name) == ("", "")


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"stage": "playing"}, "the game has started"),
        ({"stage": "dealing"}, "the game has started"),
        ({"stage": "over"}, "the game is over"),
        ({"stage": "halted"}, "the game is halted"),
        ({"taken": "4", "free": "0"}, "no seat is free"),
        ({"edition": "zman-x"}, "this program cannot play it: unknown edition 'zman-x'"),
        ({"game": "chess"}, "this program cannot play it: this peer plays captains, condottiere"),
        ({"game": "captains"}, "this program cannot play it: unknown edition 'zman'; Captains "
                               "has 'standard'"),
        ({"edition": "zman-duel"}, "this program cannot play it"),
        ({"options": "cede"}, "this program cannot play it"),
    ],
)
def test_a_well_formed_advert_says_why_its_table_cannot_be_joined(
    changes: dict[str, str], reason: str
) -> None:
    verdict = read_advert(txt(**changes)).why_not_joinable()
    assert verdict is not None and verdict.startswith(reason)
