"""One engine per seat, fed only what that seat may see, agrees with the omniscient table."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from condottiere.games.condottiere import Choice, Game, IllegalMoveError
from tests.games.condottiere.playout import TABLES, feed, public_state


def _lockstep(edition: str, players: int, options: tuple[str, ...], seed: int) -> None:
    table = Game.new(edition, players, seed, options)
    views = [Game.observe(table.record(), seat) for seat in range(players)]
    spectator = Game.spectate(table.record())
    rng = random.Random(seed)
    fed = 0

    def catch_up() -> None:
        nonlocal fed
        events = table.record()["events"]
        for view in [*views, spectator]:
            for event in events[fed:]:
                feed(view, event)
        fed = len(events)
        for seat, view in enumerate(views):
            assert public_state(view) == public_state(table), (events[-1], seat)
            assert view.hand(seat) == table.hand(seat)
            if table.to_act == seat:
                assert view.legal_moves() == table.legal_moves()
        assert public_state(spectator) == public_state(table), events[-1]
        assert spectator.moves_played == table.moves_played
        assert spectator.choices_made == table.choices_made

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


def test_a_spectator_sees_no_hand_and_is_never_told_dealt_cards() -> None:
    table = Game.new("zman", 3, seed=5)
    events = table.record()["events"]
    spectator = Game.spectate(table.record())
    feed(spectator, events[0])
    with pytest.raises(ValueError, match="a spectator may not see seat 0's cards"):
        spectator.resolve(events[1][2])
    for event in events[1:]:
        feed(spectator, event)
    assert public_state(spectator) == public_state(table)
    with pytest.raises(ValueError, match="a spectator cannot see seat 0's hand"):
        spectator.hand(0)
    with pytest.raises(ValueError, match="a spectator cannot see the draw pile"):
        _ = spectator.draw_piles


@pytest.mark.parametrize(("edition", "players", "options"), TABLES)
def test_pending_draws_name_the_positions_the_seeded_dealer_deals(
    edition: str, players: int, options: tuple[str, ...]
) -> None:
    """Each deal takes the next positions of its pile's order for the epoch: a dealer outside
    the rules that deals those positions of a shuffled pile deals what the rules ask."""
    table = Game({"edition": edition, "players": players, "options": list(options)})
    rng = random.Random(3)
    orders: dict[tuple[int, int], list[str]] = {}
    taken: dict[tuple[int, int], int] = {}
    while table.phase != "over":
        if table.chance is None:
            table.play(rng.choice(table.legal_moves()))
        elif isinstance(table.chance, Choice):
            table.resolve(rng.choice(table.chance.seats))
        else:
            draws = table.pending_draws()
            assert draws[0].deal == table.chance
            for before, after in pairwise(draws):
                if before.pile == after.pile:
                    assert after.epoch == before.epoch
                    assert after.start == before.start + before.deal.count
            draw = draws[0]
            key = (draw.pile, draw.epoch)
            if key not in orders:
                orders[key] = list(table.draw_piles[draw.pile])
                rng.shuffle(orders[key])
            assert draw.start == taken.get(key, 0)
            taken[key] = draw.start + draw.deal.count
            table.resolve([orders[key][p] for p in draw.positions])
    assert table.pending_draws() == ()


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


def test_a_seat_view_accepts_another_seat_retaining_cards_listed_in_notation_order() -> None:
    # The ffg deck lists the Scarecrow before the Courtesan; the notation sorts them the other way.
    table = Game.setup("ffg", 2, hands=[["10", "courtesan", "scarecrow"], ["1"]], battle="Firenze")
    for move in ("play 10", "play 1", "pass", "battle Roma"):
        table.play(move)
    assert (table.phase, table.to_act) == ("retain", 0)
    table.play("retain courtesan scarecrow")
    view = Game.observe(table.record(), 1)
    for event in table.record()["events"]:
        feed(view, event)
    assert public_state(view) == public_state(table)


@pytest.mark.parametrize(("edition", "players", "options"), TABLES[::4])
def test_seen_by_is_the_seats_own_engine_folded_from_the_tables_record(
    edition: str, players: int, options: tuple[str, ...]
) -> None:
    table = Game.new(edition, players, seed=7, options=options)
    rng = random.Random(7)
    for _ in range(60):
        if table.to_act is None:
            break
        table.play(rng.choice(table.legal_moves()))
    for seat in range(players):
        view = table.seen_by(seat)
        fed = Game.observe(table.record(), seat)
        for event in table.record()["events"]:
            feed(fed, event)
        assert view.observer == seat
        assert public_state(view) == public_state(fed) == public_state(table)
        assert view.hand(seat) == table.hand(seat)
        assert view.hidden_count(seat) == 0
        assert all(view.hidden_count(other) + len(view.known_cards(other))
                   == table.hand_size(other) for other in range(players))
        assert view.record() == fed.record()


def test_follow_refuses_an_event_it_does_not_know() -> None:
    view = Game.observe({"edition": "zman", "players": 3}, seat=0)
    with pytest.raises(ValueError, match="unknown event"):
        view.follow([["shuffle", 0]])
