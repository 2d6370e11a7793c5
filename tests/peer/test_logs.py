"""The logs of a table (peer/logs.py): appending in any order, duplicates, equivocation,
broken chains, the held-bytes limit and suspicions from heads."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import condottiere.peer.logs
from condottiere.crypto import Identity
from condottiere.peer.entries import LogEntry, Reason, Rejection, make_entry
from condottiere.peer.logs import Logs, Suspicion
from condottiere.v1 import log_pb2

TABLE = b"T" * 32
ALICE, BOB, CAROL = (Identity.generate() for _ in range(3))
A, B, C = (who.public.raw for who in (ALICE, BOB, CAROL))
WRONG = b"w" * 32


def chain(
    identity: Identity,
    texts: Sequence[str],
    *,
    start: int = 0,
    previous: bytes = b"",
    heads: Sequence[tuple[bytes, int, bytes]] = (),
) -> list[LogEntry]:
    """Entries ``start``, ``start + 1``, ... of ``identity``'s log, each chained on the last,
    the first one with ``heads``."""
    entries = []
    for offset, text in enumerate(texts):
        entries.append(
            make_entry(
                identity,
                TABLE,
                start + offset,
                previous,
                step=0,
                heads=heads if offset == 0 else (),
                body=log_pb2.Chat(text=text),
            )
        )
        previous = entries[-1].hash
    return entries


def log_of(identity: Identity, n: int, tag: str = "") -> list[LogEntry]:
    return chain(identity, [f"{tag}{i}" for i in range(n)])


def rejection_of(logs: Logs, entry: LogEntry) -> Rejection:
    with pytest.raises(Rejection) as caught:
        logs.add(entry)
    return caught.value


# ------------------------------------------------------------------ appending


def test_entries_in_order_are_appended_one_by_one() -> None:
    logs = Logs(TABLE)
    entries = log_of(ALICE, 4)
    for i, entry in enumerate(entries):
        assert logs.next_seq(A) == i
        assert logs.add(entry) == [entry]
    assert list(logs.log(A)) == entries
    assert len(logs) == 4 and logs.next_seq(A) == 4
    assert logs.heads() == {A: (3, entries[3].hash)}


def test_empty_logs_have_no_heads_and_start_at_zero() -> None:
    logs = Logs(TABLE)
    assert logs.heads() == {} and logs.authors == () and len(logs) == 0
    assert logs.next_seq(A) == 0 and list(logs.log(A)) == []


def test_heads_and_authors_cover_every_author_in_order_of_first_entry() -> None:
    logs = Logs(TABLE)
    alice, bob = log_of(ALICE, 2), log_of(BOB, 3)
    for entry in (bob[0], alice[0], bob[1], alice[1], bob[2]):
        logs.add(entry)
    assert logs.authors == (B, A)
    assert logs.heads() == {A: (1, alice[1].hash), B: (2, bob[2].hash)}
    assert (logs.next_seq(A), logs.next_seq(B), len(logs)) == (2, 3, 5)


def test_entry_ahead_of_a_gap_is_held_then_appended_with_the_gap() -> None:
    logs = Logs(TABLE)
    entries = log_of(ALICE, 4)
    assert logs.add(entries[2]) == []
    assert logs.add(entries[3]) == []
    assert list(logs.log(A)) == [] and logs.next_seq(A) == 0 and logs.heads() == {}
    assert logs.add(entries[0]) == [entries[0]]
    assert logs.add(entries[1]) == entries[1:]
    assert list(logs.log(A)) == entries


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_any_arrival_order_gives_the_same_logs(data: st.DataObject) -> None:
    entries = log_of(ALICE, 5) + log_of(BOB, 4) + log_of(CAROL, 3)
    order = data.draw(st.permutations(entries))
    logs = Logs(TABLE)
    appended = []
    for entry in order:
        appended.extend(logs.add(entry))
    assert list(logs.log(A)) == entries[:5]
    assert list(logs.log(B)) == entries[5:9]
    assert list(logs.log(C)) == entries[9:]
    assert sorted(appended, key=entries.index) == entries  # each appended exactly once
    for author in (A, B, C):
        mine = [e.seq for e in appended if e.author == author]
        assert mine == sorted(mine)
    assert logs.suspicions == []


@settings(max_examples=50, deadline=None)
@given(st.data())
def test_arrival_order_with_duplicates_gives_the_same_logs(data: st.DataObject) -> None:
    entries = log_of(ALICE, 4) + log_of(BOB, 4)
    order = data.draw(st.lists(st.sampled_from(entries), min_size=len(entries), max_size=30))
    order += data.draw(st.permutations(entries))
    logs = Logs(TABLE)
    appended = []
    for entry in order:
        appended.extend(logs.add(entry))
    assert list(logs.log(A)) + list(logs.log(B)) == entries
    assert len(appended) == len(entries) == len(logs)


def test_copies_are_ignored_in_the_log_and_in_the_held_buffer() -> None:
    logs = Logs(TABLE)
    entries = log_of(ALICE, 3)
    logs.add(entries[0])
    assert logs.add(entries[0]) == []
    assert logs.add(entries[2]) == []
    assert logs.add(entries[2]) == []
    assert logs.add(entries[1]) == entries[1:]
    assert logs.add(entries[1]) == [] and logs.add(entries[2]) == []
    assert list(logs.log(A)) == entries


def test_the_exact_bytes_of_an_entry_in_a_log_are_known_as_a_copy_and_nothing_else() -> None:
    logs = Logs(TABLE)
    entries = log_of(ALICE, 3)
    logs.add(entries[0])
    logs.add(entries[2])  # held behind a gap: not in a log yet
    assert logs.holds(entries[0].signed)
    assert not logs.holds(entries[1].signed) and not logs.holds(entries[2].signed)
    logs.add(entries[1])
    assert all(logs.holds(entry.signed) for entry in entries)
    assert not logs.holds(log_of(ALICE, 1, tag="other")[0].signed)


def test_entry_of_another_table_is_refused() -> None:
    other = make_entry(ALICE, b"U" * 32, 0, b"", step=0, heads=(), body=log_pb2.Chat(text="x"))
    logs = Logs(TABLE)
    assert rejection_of(logs, other).reason is Reason.WRONG_TABLE
    assert len(logs) == 0


# ------------------------------------------------------------------ equivocation and chains


def test_second_entry_at_a_seq_in_the_log_is_equivocation_with_both_as_evidence() -> None:
    logs = Logs(TABLE)
    kept = log_of(ALICE, 2)
    for entry in kept:
        logs.add(entry)
    other = chain(ALICE, ["other"], start=1, previous=kept[0].hash)[0]
    rejection = rejection_of(logs, other)
    assert rejection.reason is Reason.EQUIVOCATION
    assert rejection.author == A
    assert rejection.evidence == (kept[1].signed, other.signed)
    assert list(logs.log(A)) == kept


def test_second_entry_at_a_held_seq_is_equivocation_with_both_as_evidence() -> None:
    logs = Logs(TABLE)
    held = log_of(ALICE, 3)[2]
    other = chain(ALICE, ["other"], start=2, previous=b"p" * 32)[0]
    assert logs.add(held) == []
    rejection = rejection_of(logs, other)
    assert rejection.reason is Reason.EQUIVOCATION
    assert rejection.author == A
    assert rejection.evidence == (held.signed, other.signed)


def test_first_entries_that_differ_are_equivocation() -> None:
    logs = Logs(TABLE)
    first, other = log_of(ALICE, 1, "a")[0], log_of(ALICE, 1, "b")[0]
    logs.add(first)
    assert rejection_of(logs, other).evidence == (first.signed, other.signed)


def test_an_entry_that_does_not_chain_on_its_predecessor_proves_a_fork() -> None:
    logs = Logs(TABLE)
    entries = log_of(ALICE, 2)
    logs.add(entries[0])
    broken = chain(ALICE, ["x"], start=1, previous=WRONG)[0]
    rejection = rejection_of(logs, broken)
    assert rejection.reason is Reason.EQUIVOCATION
    assert rejection.author == A and rejection.evidence == (entries[0].signed, broken.signed)
    assert list(logs.log(A)) == entries[:1]


def test_first_entry_naming_a_previous_entry_is_malformed() -> None:
    broken = make_entry(ALICE, TABLE, 0, WRONG, step=0, heads=(), body=log_pb2.Chat(text="x"))
    assert rejection_of(Logs(TABLE), broken).reason is Reason.MALFORMED


def test_a_held_entry_that_forks_the_log_is_reported_when_the_gap_fills_and_not_appended() -> (
    None
):
    logs = Logs(TABLE)
    entries = log_of(ALICE, 4)
    logs.add(entries[0])
    broken = chain(ALICE, ["x", "y"], start=2, previous=WRONG)
    assert logs.add(broken[0]) == [] and logs.add(broken[1]) == []
    assert logs.add(entries[1]) == [entries[1]]  # appended; the fork is reported, not raised
    (fork,) = logs.forks
    assert fork.reason is Reason.EQUIVOCATION
    assert fork.evidence == (entries[1].signed, broken[0].signed)
    assert list(logs.log(A)) == entries[:2]


def test_add_that_raises_leaves_the_log_unchanged() -> None:
    logs = Logs(TABLE)
    entries = log_of(ALICE, 2)
    logs.add(entries[0])
    broken = chain(ALICE, ["x"], start=1, previous=WRONG)[0]
    with pytest.raises(Rejection):
        logs.add(broken)
    assert list(logs.log(A)) == entries[:1]
    assert logs.add(entries[1]) == [entries[1]]


def test_equivocation_is_caught_however_late_the_second_entry_comes() -> None:
    logs = Logs(TABLE)
    entries = log_of(ALICE, 5)
    for entry in entries:
        logs.add(entry)
    for seq in range(5):
        previous = entries[seq - 1].hash if seq else b""
        other = chain(ALICE, ["other"], start=seq, previous=previous)[0]
        assert rejection_of(logs, other).reason is Reason.EQUIVOCATION


# ------------------------------------------------------------------ the held-bytes limit


def test_far_ahead_entries_over_the_held_limit_are_dropped_and_can_come_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    entries = log_of(ALICE, 8)
    size = len(entries[2].signed)
    assert all(len(e.signed) == size for e in entries[1:])
    monkeypatch.setattr(condottiere.peer.logs, "MAX_HELD_BYTES", 2 * size)
    logs = Logs(TABLE)
    assert logs.add(entries[2]) == [] and logs.add(entries[3]) == []
    assert logs.add(entries[4]) == []  # over the limit: dropped, no error
    assert logs.add(entries[0]) == [entries[0]]
    assert logs.add(entries[1]) == entries[1:4]  # 4 was not held
    assert logs.add(entries[4]) == [entries[4]]
    # what was held is counted off again: two more can be held
    assert logs.add(entries[6]) == [] and logs.add(entries[7]) == []
    assert logs.add(entries[5]) == entries[5:]


def test_held_limit_is_per_author(monkeypatch: pytest.MonkeyPatch) -> None:
    alice, bob = log_of(ALICE, 3), log_of(BOB, 3)
    monkeypatch.setattr(condottiere.peer.logs, "MAX_HELD_BYTES", len(alice[2].signed))
    logs = Logs(TABLE)
    assert logs.add(alice[2]) == [] and logs.add(bob[2]) == []
    assert logs.add(alice[1]) == []  # dropped: Alice's buffer is full
    assert logs.add(alice[0]) == [alice[0]]
    assert logs.add(bob[0]) == [bob[0]]
    assert logs.add(bob[1]) == bob[1:]  # Bob's 2 was held


def test_copy_of_a_held_entry_does_not_count_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    entries = log_of(ALICE, 4)
    monkeypatch.setattr(condottiere.peer.logs, "MAX_HELD_BYTES", 2 * len(entries[2].signed))
    logs = Logs(TABLE)
    for _ in range(3):
        assert logs.add(entries[2]) == []
    assert logs.add(entries[3]) == []
    logs.add(entries[0])
    assert logs.add(entries[1]) == entries[1:]


# ------------------------------------------------------------------ suspicions


def test_head_agreeing_with_the_log_raises_no_suspicion() -> None:
    logs = Logs(TABLE)
    alice = log_of(ALICE, 2)
    for entry in alice:
        logs.add(entry)
    logs.add(chain(BOB, ["seen"], heads=[(A, 1, alice[1].hash)])[0])
    assert logs.suspicions == []


def test_head_disagreeing_with_an_entry_in_the_log_is_a_suspicion() -> None:
    logs = Logs(TABLE)
    alice = log_of(ALICE, 2)
    for entry in alice:
        logs.add(entry)
    logs.add(chain(BOB, ["seen"], heads=[(A, 0, WRONG)])[0])
    assert logs.suspicions == [Suspicion(author=A, seq=0, claimed=WRONG, witness=B)]


def test_head_claim_made_before_the_entry_arrives_that_then_disagrees_is_a_suspicion() -> None:
    logs = Logs(TABLE)
    alice = log_of(ALICE, 2)
    logs.add(chain(BOB, ["seen"], heads=[(A, 1, WRONG)])[0])
    logs.add(alice[0])
    assert logs.suspicions == []
    logs.add(alice[1])
    assert logs.suspicions == [Suspicion(A, 1, WRONG, B)]


def test_head_claim_made_before_the_entry_arrives_that_then_agrees_is_no_suspicion() -> None:
    logs = Logs(TABLE)
    alice = log_of(ALICE, 2)
    logs.add(chain(BOB, ["seen"], heads=[(A, 1, alice[1].hash)])[0])
    for entry in alice:
        logs.add(entry)
    assert logs.suspicions == []


def test_head_claim_on_a_held_entry_is_checked_when_the_entry_is_appended() -> None:
    logs = Logs(TABLE)
    alice = log_of(ALICE, 3)
    logs.add(alice[2])  # held
    logs.add(chain(BOB, ["seen"], heads=[(A, 2, WRONG)])[0])
    assert logs.suspicions == []
    logs.add(alice[0])
    logs.add(alice[1])
    assert logs.suspicions == [Suspicion(A, 2, WRONG, B)]


def test_heads_of_an_entry_are_only_looked_at_once_it_is_appended() -> None:
    logs = Logs(TABLE)
    alice = log_of(ALICE, 1)
    logs.add(alice[0])
    bob = chain(BOB, ["a", "b"], heads=())
    late = chain(BOB, ["c"], start=2, previous=bob[1].hash, heads=[(A, 0, WRONG)])[0]
    logs.add(late)  # held: its heads are not its author's word yet
    assert logs.suspicions == []
    logs.add(bob[0])
    logs.add(bob[1])
    assert logs.suspicions == [Suspicion(A, 0, WRONG, B)]


def test_every_witness_disagreeing_after_the_entry_arrived_is_a_suspicion() -> None:
    logs = Logs(TABLE)
    alice = log_of(ALICE, 1)
    logs.add(alice[0])
    logs.add(chain(BOB, ["seen"], heads=[(A, 0, WRONG)])[0])
    logs.add(chain(CAROL, ["seen"], heads=[(A, 0, b"v" * 32)])[0])
    assert logs.suspicions == [Suspicion(A, 0, WRONG, B), Suspicion(A, 0, b"v" * 32, C)]


def test_disagreeing_claim_after_an_agreeing_one_before_arrival_is_a_suspicion() -> None:
    logs = Logs(TABLE)
    alice = log_of(ALICE, 1)
    logs.add(chain(BOB, ["seen"], heads=[(A, 0, alice[0].hash)])[0])
    logs.add(chain(CAROL, ["seen"], heads=[(A, 0, WRONG)])[0])
    logs.add(alice[0])
    # the same entries with Alice's first: Carol's head is a suspicion
    assert logs.suspicions == [Suspicion(A, 0, WRONG, C)]


def test_author_with_only_held_entries_is_not_listed() -> None:
    logs = Logs(TABLE)
    logs.add(log_of(ALICE, 2)[1])
    assert logs.authors == ()


def test_heads_one_author_claims_ahead_of_the_logs_are_remembered_only_up_to_a_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(condottiere.peer.logs, "MAX_CLAIMS", 3)
    logs = Logs(TABLE)
    strangers = [Identity.generate().public.raw for _ in range(5)]
    logs.add(chain(BOB, ["claims"], heads=[(s, 7, WRONG) for s in sorted(strangers)])[0])
    assert len(logs._claims) == 3
    logs.add(chain(CAROL, ["claims"], heads=[(A, 0, WRONG)])[0])
    assert len(logs._claims) == 4  # another author's claims are its own to bound


def test_an_author_forgotten_leaves_nothing_and_its_claims_go_with_the_unseated() -> None:
    logs = Logs(TABLE)
    bob = chain(BOB, ["join", "chat"], heads=[(A, 5, WRONG)])
    carol = chain(CAROL, ["join"], heads=[(A, 6, WRONG)])
    for entry in [*bob, *carol]:
        logs.add(entry)
    logs.forget(B)
    logs.forget_claims([C])
    assert logs.log(B) == () and B not in logs.authors and not logs.holds(bob[0].signed)
    assert list(logs._claims) == [(A, 6)]
    for entry in log_of(ALICE, 7):
        logs.add(entry)
    assert logs.suspicions == [Suspicion(A, 6, WRONG, C)]  # bob's claim on entry 5 is gone
