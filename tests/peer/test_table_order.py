"""A record's entries in the order the table lived them (``table_order``): a chat line after
what its author had seen when sending it, a join before the game it joined, whatever order
the record keeps them in; and every entry once, whatever heads claim."""

from __future__ import annotations

from google.protobuf.message import Message
from hypothesis import given, settings
from hypothesis import strategies as st

from condottiere.crypto import Identity
from condottiere.peer.entries import LogEntry, make_entry
from condottiere.peer.record import table_order
from condottiere.v1 import log_pb2

TABLE = b"T" * 32
ADA, BEA = Identity.generate(), Identity.generate()


class Logs:
    """Two seats writing their logs, each entry naming the other's last entry it has seen."""

    def __init__(self) -> None:
        self.logs: dict[bytes, list[LogEntry]] = {ADA.public.raw: [], BEA.public.raw: []}
        self.written: list[LogEntry] = []

    def write(self, who: Identity, step: int, body: Message,
              seen: LogEntry | None = None) -> LogEntry:
        log = self.logs[who.public.raw]
        heads = () if seen is None else ((seen.author, seen.seq, seen.hash),)
        entry = make_entry(who, TABLE, len(log), log[-1].hash if log else b"", step=step,
                           heads=heads, body=body)
        log.append(entry)
        self.written.append(entry)
        return entry


def move(text: str) -> log_pb2.MovePlayed:
    return log_pb2.MovePlayed(turn=0, move=text)


def a_game() -> Logs:
    logs = Logs()
    first = logs.write(ADA, 1, move("battle Roma"))
    joined = logs.write(BEA, 0, log_pb2.Join(player="bea"), seen=first)
    second = logs.write(ADA, 2, move("play 1"), seen=joined)
    answer = logs.write(BEA, 3, move("play 2"), seen=second)
    chat = logs.write(ADA, 3, log_pb2.Chat(text="nice"), seen=answer)
    logs.write(ADA, 4, move("pass"), seen=answer)
    logs.write(BEA, 5, move("pass"), seen=chat)
    return logs


def test_entries_come_in_the_order_they_were_written_whatever_the_records_order() -> None:
    logs = a_game()
    by_author = [e for log in logs.logs.values() for e in log]  # how a record keeps them
    assert [e.hash for e in table_order(by_author)] == [e.hash for e in logs.written]
    assert [e.hash for e in table_order(by_author[::-1])] == [e.hash for e in logs.written]


@settings(max_examples=50, deadline=None)
@given(st.permutations(range(7)))
def test_any_order_of_a_record_gives_the_same_table_order(order: list[int]) -> None:
    logs = a_game()
    shuffled = [logs.written[index] for index in order]
    assert [e.hash for e in table_order(shuffled)] == [e.hash for e in logs.written]


def test_an_entry_whose_head_is_not_in_the_record_keeps_its_place() -> None:
    logs = Logs()
    unseen = make_entry(BEA, TABLE, 0, b"", step=0, heads=(), body=log_pb2.Chat(text="?"))
    lone = logs.write(ADA, 1, move("pass"), seen=unseen)
    later = logs.write(ADA, 2, move("pass"))
    assert table_order([later, lone]) == [lone, later]
