"""Random playouts shared by the engine's property tests."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from condottiere.games.condottiere import EDITIONS, Game

TABLES: list[tuple[str, int, tuple[str, ...]]] = [
    (name, players, options)
    for name, edition in EDITIONS.items()
    for players in range(edition.min_players, edition.max_players + 1)
    for options in ([(), ("sieges",), ("cede",), ("sieges", "cede")] if edition.options else [()])
]
"""Every edition with every player count it allows (and every option set of ffg)."""

MOVE_LIMIT = 50_000


def play_randomly(
    game: Game, rng: random.Random, after_each: Callable[[Game], None] | None = None
) -> int:
    """Play uniformly random legal moves until the game ends; the number of moves played."""
    moves = 0
    while game.to_act is not None:
        legal = game.legal_moves()
        assert legal, f"no legal move for seat {game.to_act} in phase {game.phase}"
        game.play(rng.choice(legal))
        moves += 1
        assert moves < MOVE_LIMIT, "the game does not end"
        if after_each is not None:
            after_each(game)
    return moves


def whole_deck(game: Game) -> Counter[str]:
    deck = game.edition.deck_counter()
    return deck + deck if game.edition.per_seat_decks else deck


def cards_on_table(game: Game) -> Counter[str]:
    """Every card the omniscient game knows of, wherever it is."""
    found: Counter[str] = Counter()
    for seat in range(game.players):
        found.update(game.hand(seat))
        found.update(game.row(seat))
    for pile in game.draw_piles:
        found.update(pile)
    found.update(game.discard_pile)
    found.update(game.out_of_game)
    found.update(game.season_cards)
    return found


def feed(view: Game, event: Sequence[Any]) -> None:
    """Give a seat-view engine one event of the omniscient record, as that seat would see it."""
    kind = event[0]
    if kind == "choice":
        view.resolve(event[3])
    elif kind == "deal":
        view.resolve(event[2] if event[1] == view.observer else None)
    elif kind == "leave":
        view.remove_seat(event[1])
    else:
        view.play(event[2], reveal=event[3] if len(event) > 3 else None)


def public_state(game: Game) -> tuple[Any, ...]:
    """What every seat sees alike."""
    return (
        game.phase,
        game.to_act,
        game.chance,
        tuple(game.row(seat) for seat in range(game.players)),
        tuple(game.strength(seat) for seat in range(game.players)),
        tuple(game.hand_size(seat) for seat in range(game.players)),
        game.control,
        game.favor,
        game.battle_region,
        game.battle_marker,
        game.season,
        game.passed,
        game.discard_pile,
        game.draw_pile_sizes,
        game.battles_won,
        game.winners,
    )


def engines_in_step(game: Game) -> None:
    """The record of the open table ``game`` replays to itself, and every seat's engine and a
    spectator's, folded from it, see the same public state (each seat its own hand, and the
    seat to act the same legal moves)."""
    record = game.record()
    assert Game.replay(record).record() == record
    expected = public_state(game)
    for seat in range(game.players):
        view = game.seen_by(seat)
        assert public_state(view) == expected
        assert view.departed == game.departed
        if seat not in game.departed:
            assert view.hand(seat) == game.hand(seat)
        if game.to_act == seat:
            assert view.legal_moves() == game.legal_moves()
    spectator = Game.spectate(record)
    spectator.follow(record["events"])
    assert public_state(spectator) == expected
