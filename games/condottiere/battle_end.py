"""The end of a battle and its scoring: strengths are compared, the winner takes the region
(or scores a battle in ``zman-duel``) and may have won the game, the battle marker goes to
whoever the edition says, and the battle lines leave the table.

What happens next depends on the edition: FFG chooses the next battle at once
(:mod:`.next_battle`), ``zman-duel`` draws back up to eight, the others hold the discard step
and the round's end (:mod:`.round_end`). How the battle ended is kept as a
:class:`.battle_result.BattleResult` (:attr:`Game.last_battle`).
"""

from __future__ import annotations

from itertools import chain, compress, repeat
from typing import TYPE_CHECKING

from condottiere.games.condottiere import next_battle, round_end, victory
from condottiere.games.condottiere.battle_result import EndedBy
from condottiere.games.condottiere.chance_asked import ask_choice
from condottiere.games.condottiere.piles import throw_away
from condottiere.games.condottiere.strength import strengths

if TYPE_CHECKING:
    from condottiere.games.condottiere.game import Game

__all__ = ["clear_battle", "end_battle"]


def end_battle(game: Game, ended_by: EndedBy) -> None:
    """The battle is over: compare strengths, score the winner (who may have won the game),
    and hand the battle marker on."""
    edition = game.edition
    game._to_act = None
    region = game._battle_region
    bishop = ended_by is EndedBy.BISHOP
    season = game.season
    scores = strengths(game._rows, season)
    winner: int | None = None
    tied: tuple[int, ...] = ()
    if not bishop:
        participants = game._participants
        contested = list(map(scores.__getitem__, participants))
        best = max(contested)
        tied = tuple(compress(participants, map(best.__eq__, contested)))
        if len(tied) == 1:
            winner = tied[0]
    game._last_battle = (
        region,
        tuple(game._rows),
        season,
        tuple(game._bishop_removed),
        scores,
        winner,
        ended_by,
        bool(game._played),
    )
    if game._final_battle:
        victory.finish(game, tied)
        return
    if winner is not None:
        if region is not None:
            victory.take_control(game, region, winner)
        if not edition.board:
            game._battles_won[winner] += 1
        if victory.has_won(game, winner):
            victory.finish(game, (winner,))
            return
    majority = _marker_majority(game)
    if majority is not None:
        _marker_goes_to(game, majority)
    elif winner is not None:
        _marker_goes_to(game, winner)
    elif edition.tie_marker == "next-clockwise":
        _marker_goes_to(game, next_battle.seat_on_the_left(game, game._marker))
    elif edition.tie_marker == "holder-or-owner":
        owner = None if region is None else game._control.get(region)
        if owner is None or owner in game._departed:
            owner = game._marker
        _marker_goes_to(game, owner)
    elif bishop:
        ask_choice(game, game._seated, "battle marker after a Bishop", _marker_goes_to)
    else:
        ask_choice(game, tied, "battle marker after a tie", _marker_goes_to)


def _marker_majority(game: Game) -> int | None:
    """The seat with strictly the most of the edition's marker card (Spy, Courtesan) in its
    row, which takes the battle marker; None if none does."""
    card = game.edition.marker_card
    if card is None:
        return None
    counts = list(map(list.count, game._rows, repeat(card)))
    best = max(counts)
    if best == 0 or counts.count(best) > 1:
        return None
    return counts.index(best)


def _marker_goes_to(game: Game, seat: int) -> None:
    """``seat`` takes the battle marker, and the game goes on to the next battle: chosen at
    once (FFG), after drawing up (``zman-duel``), or after the discard step and the round's
    end."""
    game._marker = seat
    if game.edition.choice_after_compare:
        next_battle.open_choice(game, after_compare=True)
        return
    clear_battle(game)
    if game.edition.per_seat_decks:
        round_end.deal_round(game, then=round_end.duel_drawn)
    else:
        round_end.start_discard_step(game, then=round_end.next_round_or_battle)


def clear_battle(game: Game) -> None:
    """The battle lines and the season cards leave the table (to the discard pile, or out of
    the game in ``zman-duel``), and the battle's bookkeeping starts afresh."""
    rows = game._rows
    if game.edition.per_seat_decks:
        for out, row in zip(game._out, rows, strict=True):
            out += row
    else:
        game._discard.extend(chain.from_iterable(rows))
    game._rows = [[] for _ in rows]
    game._row_mercenaries = [0] * game.players
    for card, owner in game._season_cards:
        throw_away(game, card, owner)
    game._season_cards = []
    if any(game._bishop_removed):
        game._bishop_removed = [[] for _ in range(game.players)]
    game._battle_region = None
    game._passed = set()
    game._played = set()
    game._defender = None
