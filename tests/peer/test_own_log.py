"""A table's own log, as a fold with no socket: it never signs an entry where its key signed
another; taken up from a store that is behind (a backup put back), it signs nothing until it
holds its log as far as the others do; and a store that lost a secret never makes it sign what
would fail its proof (an honest seat taken for a cheater)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from condottiere.peer.driver import MemoryKeeper, Table
from condottiere.peer.entries import SigningConflict
from tests.peer.tables import Harness, address_of


class Withholding(Table):
    """A seat that does not reveal its coin value (until it is taken up as a plain table)."""

    def _entry_body(self, step: Any) -> Any:
        if step.kind == "coin_reveal":
            return None
        return super()._entry_body(step)


def own_log(table: Table) -> list[bytes]:
    return [entry.hash for entry in table.logs.log(table.me)]


def taken_up(harness: Harness, seat: int, entries: Sequence[Any], secrets: dict[str, bytes],
             *, catching_up: bool = False) -> Table:
    """``seat``'s table rebuilt from a keeper holding ``entries`` and ``secrets`` (what its
    store held), in the harness in place of the one it had."""
    keeper = MemoryKeeper(list(entries), dict(secrets))
    table = Table.restore(harness.identities[seat], keeper, keeper.entries,
                          catching_up=catching_up)
    harness.tables[seat], harness.keepers[seat] = table, keeper
    return table


def test_a_table_never_signs_where_another_table_of_its_key_signed_and_publishes_nothing() -> None:
    harness = Harness("zman-duel", 2, seed=4)
    first = harness.tables[0]
    second = Table.restore(first.identity, harness.keepers[0], list(harness.keepers[0].entries))
    second.drain()  # two processes on one store, each with the table as it was
    first.chat("from the first process")
    held = own_log(second)
    with pytest.raises(SigningConflict, match=r"refused to sign entry (\d+) \(chat\) .*"
                       r"already signed another entry \1 there \(chat\)"):
        second.chat("from the second process")
    assert own_log(second) == held
    assert second.drain() == ([], [])


def test_a_table_taken_up_behind_its_own_log_signs_nothing_until_it_holds_what_the_others_do(
) -> None:
    harness = Harness("zman", 3, seed=5, addressed=True)
    seat = harness.tables[1]

    def waits_for_its_move() -> bool:
        step = harness.tables[1].step
        return step is not None and step.kind == "move" and step.missing == (seat.me,)

    harness.play(until=waits_for_its_move)
    backup = (list(harness.keepers[1].entries), dict(harness.keepers[1].secrets))
    behind = len(own_log(seat))
    harness.play(until=lambda: len(own_log(harness.tables[1])) >= behind + 3)
    signed = own_log(harness.tables[1])
    restored = taken_up(harness, 1, *backup, catching_up=True)
    assert restored.submit("pass") == "this seat is taking its own log back from the others first"
    held = {address_of(n): len(harness.tables[n].logs.log(seat.me)) for n in (0, 2)}
    assert not restored.catch_up(held)  # it holds less of its log than the others
    harness.deliver()  # the others send it its own entries too
    assert restored.catching_up and own_log(restored) == signed
    assert not restored.catch_up({address_of(0): len(signed)})  # seat 2 has not said
    assert restored.catch_up(held)
    harness.play()
    assert own_log(restored)[: len(signed)] == signed
    for table in harness.tables:
        assert table.halt is None and table.cards is not None
    assert len({table.record_hash() for table in harness.tables}) == 1


def test_a_seat_whose_store_lost_a_coin_value_reveals_no_other_and_is_only_blamed_for_it() -> None:
    harness = Harness("zman", 3, seed=2, kinds={1: Withholding})  # escrowed, not revealed
    keeper = harness.keepers[1]
    secrets = {name: value for name, value in keeper.secrets.items() if name[:5] != "coin/"}
    restored = taken_up(harness, 1, keeper.entries, secrets)
    harness.deliver()
    assert [e.kind for e in restored.logs.log(restored.me)][-1] == "coin_escrow"
    assert restored.step is not None and restored.step.kind == "coin_reveal"
    for table in (harness.tables[0], harness.tables[2]):
        assert table.give_up_waiting()
    harness.play()
    for table in harness.tables:
        assert table.halt is None and table.cards is not None
        blame = [refusal for refusal in table.refusals if refusal.seat == 1]
        assert blame and "withheld its coin reveal" in blame[0].detail


def test_a_seat_whose_store_lost_its_deck_secrets_stops_rather_than_sign_failing_shares() -> None:
    harness = Harness("zman-duel", 2, seed=3)
    harness.play(until=lambda: harness.tables[1].game is not None
                 and harness.tables[1].game.moves_played >= 2)
    keeper = harness.keepers[1]
    signed = own_log(harness.tables[1])
    secrets = {name: value for name, value in keeper.secrets.items() if name[:5] != "deck/"}
    restored = taken_up(harness, 1, keeper.entries, secrets)
    assert restored.halt is not None and not restored.halt.cheat
    assert "lost the secrets of the keys it published" in restored.halt.detail
    harness.deliver()
    assert own_log(restored) == signed
    assert not any(name.startswith("deck/") for name in harness.keepers[1].secrets)
