"""The events of a game's record: their two forms round-trip, their public form hides cards,
and the lists records have always stored read back as the same events."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from condottiere.games.captains.game import Game as Captains
from condottiere.games.condottiere import Game as Condottiere
from condottiere.interface.events import (
    Chosen,
    Dealt,
    ForcedMove,
    HandShown,
    MovePlayed,
    RecordEvent,
    Searched,
    SeatLeft,
    event_from_json,
    parse_event,
)

seats = st.integers(min_value=0, max_value=7)
cards = st.lists(
    st.sampled_from(["1", "10", "heroine", "scarecrow", "gonzaga", "heavy-cavalry"]),
    min_size=1,
    max_size=8,
).map(tuple)
cards_or_count = st.one_of(cards, st.integers(min_value=1, max_value=12))
moves = st.sampled_from(
    ["play 10", "battle Firenze", "pass", "discard", "offer 2 give 3d heavy-cavalry get 1p"]
)
events: st.SearchStrategy[RecordEvent] = st.one_of(
    st.builds(MovePlayed, seats, moves, st.none() | cards),
    st.builds(ForcedMove, seats, st.just("keep")),
    st.builds(Dealt, seats, cards_or_count),
    st.builds(
        Chosen,
        st.sampled_from(["first battle marker", "first player"]),
        st.lists(seats, min_size=2, max_size=6, unique=True).map(tuple),
        seats,
    ),
    st.builds(HandShown, seats, seats, cards_or_count, st.booleans()),
    st.builds(Searched, seats, st.sampled_from(["gonzaga", "bartolomeo-colleoni"]), st.booleans()),
    st.builds(SeatLeft, seats),
)


@given(events)
def test_an_events_record_form_reads_back_as_the_same_event(event: RecordEvent) -> None:
    assert event_from_json(event.to_json()) == event


@given(events)
def test_an_events_text_reads_back_as_the_same_event(event: RecordEvent) -> None:
    assert parse_event(str(event)) == event


@given(events)
def test_the_public_form_of_an_event_names_no_card_dealt_or_shown_to_one_seat(
    event: RecordEvent,
) -> None:
    public = event.public()
    if isinstance(event, Dealt | HandShown):
        assert public.cards == event.size and public.size == event.size
        assert public._replace(cards=event.cards) == event
    else:
        assert public == event


def test_an_event_equals_only_an_event_of_its_own_type() -> None:
    assert SeatLeft(1) != (1,) and not SeatLeft(1) == (1,)  # noqa: SIM201
    assert Dealt(0, 3) != HandShown(0, 1, 3)
    assert len({SeatLeft(1), SeatLeft(1), Searched(1, "gonzaga", True)}) == 2


@pytest.mark.parametrize(
    "data",
    [["move", 0], ["deal", 1, "ten"], ["choice", "x", [0, 1]], ["shuffle", 1], ["leave", "a"]],
)
def test_a_list_that_is_no_event_is_refused(data: list[object]) -> None:
    with pytest.raises(ValueError, match="unknown event"):
        event_from_json(data)


@pytest.mark.parametrize("text", ["move 0", "leave 1: x", "deal 1 to 2: 10", "search 1: found"])
def test_text_that_is_no_event_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="not an event"):
        parse_event(text)


def test_both_games_write_typed_events_whose_record_replays() -> None:
    condottiere = Condottiere.setup(
        "zman", 3, hands=[["10"], ["2"], ["bishop"]], battle="Milano", seed=1
    )
    condottiere.play("play 10")
    condottiere.remove_seat(2)
    assert condottiere.events[-2:] == (MovePlayed(0, condottiere.events[-2].move), SeatLeft(2))
    assert str(condottiere.events[-2].move) == "play 10"
    replayed = Condottiere.replay(condottiere.record())
    assert [event.to_json() for event in replayed.events] == condottiere.record()["events"]
    captains = Captains.new(3, seed=4)
    while not any(isinstance(event, Dealt) for event in captains.events):
        captains.play(captains.legal_moves()[0])
    kinds = {type(event) for event in captains.events}
    assert kinds == {Chosen, MovePlayed, Dealt}
    assert captains.record()["events"] == [event.to_json() for event in captains.events]
