"""One engine per seat, fed only what that seat may see, agrees with the omniscient table."""

from __future__ import annotations

import random

import pytest

from engine import Game, IllegalMoveError
from tests.engine.playout import TABLES, feed, public_state


def _lockstep(edition: str, players: int, options: tuple[str, ...], seed: int) -> None:
    table = Game.new(edition, players, seed, options)
    views = [Game.observe(table.record(), seat) for seat in range(players)]
    rng = random.Random(seed)
    fed = 0

    def catch_up() -> None:
        nonlocal fed
        events = table.record()["events"]
        for view in views:
            for event in events[fed:]:
                feed(view, event)
        fed = len(events)
        for seat, view in enumerate(views):
            assert public_state(view) == public_state(table), (events[-1], seat)
            assert view.hand(seat) == table.hand(seat)
            if table.to_act == seat:
                assert view.legal_moves() == table.legal_moves()

    catch_up()
    while table.to_act is not None:
        table.play(rng.choice(table.legal_moves()))
        catch_up()


@pytest.mark.parametrize(("edition", "players", "options"), TABLES)
def test_every_seat_view_agrees_with_the_omniscient_table_at_every_step(
    edition: str, players: int, options: tuple[str, ...]
) -> None:
    for seed in range(3):
        _lockstep(edition, players, options, seed)


def test_a_seat_view_never_learns_another_seats_dealt_cards() -> None:
    table = Game.new("zman", 3, seed=5)
    view = Game.observe(table.record(), 1)
    for event in table.record()["events"]:
        feed(view, event)
    assert view.hand(1) == table.hand(1)
    with pytest.raises(ValueError, match="cannot see seat 0's hand"):
        view.hand(0)
    with pytest.raises(ValueError, match="cannot see the draw pile"):
        _ = view.draw_piles
    assert all(event[2] == 10 for event in view.record()["events"] if event[0] == "deal"
               and event[1] != 1)


def test_a_seat_view_refuses_a_card_the_other_seat_cannot_hold() -> None:
    table = Game.setup(
        "zman", 2, hands=[["heroine", "10"], ["heroine", "heroine"]], battle="Firenze", first=0
    )
    view = Game.observe(table.record(), 1)
    view.play("play heroine")  # the third Heroine is still unseen: seat 0 may hold it
    view.play("pass")
    before = public_state(view)
    with pytest.raises(IllegalMoveError, match="cannot hold 1 Heroine"):
        view.play("play heroine")
    assert public_state(view) == before


def test_a_discarded_hand_is_shown_and_checked_for_mercenaries() -> None:
    table = Game.setup(
        "zman", 3, hands=[["10"], ["spy", "spy"], ["1", "2"]], deck=[], battle="Firenze", first=0
    )
    table.play("play 10")
    table.play("pass")  # seat 1
    table.play("pass")  # seat 2; seat 0 has no cards left: the battle is over
    assert (table.phase, table.to_act) == ("discard", 1)
    view = Game.observe(table.record(), 2)
    for event in table.record()["events"]:
        feed(view, event)
    assert (view.phase, view.to_act) == ("discard", 1)
    before = public_state(view)
    with pytest.raises(IllegalMoveError, match="must show the hand"):
        view.play("discard")
    with pytest.raises(IllegalMoveError, match="holding mercenaries"):
        view.play("discard", reveal=["spy", "5"])
    with pytest.raises(IllegalMoveError, match="holds 2 cards, not 1"):
        view.play("discard", reveal=["spy"])
    assert public_state(view) == before
    view.play("discard", reveal=["spy", "spy"])
    seen = len(view.record()["events"])
    table.play("discard")
    events = table.record()["events"]
    assert events[seen - 1] == ["move", 1, "discard", ["spy", "spy"]]
    for event in events[seen:]:  # seat 2 alone holds cards: the round ends and cards are dealt
        feed(view, event)
    assert public_state(view) == public_state(table)
