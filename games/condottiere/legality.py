"""Which moves are legal now, and why a move is not.

:func:`legal_moves` lists the moves of the seat to act in each phase (a battle's ``play``
moves are read from the tables of :mod:`.tables` by the kinds of card held); for a seat whose
hand this engine does not see, it lists what that seat *could* play, and
:func:`check_hidden_move` checks a move against the cards it could hold (a discarded hand is
shown and checked). :func:`why_illegal` says, in a player's words, what is wrong with a move.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from condottiere.games.condottiere.battle import favor_sites
from condottiere.games.condottiere.cards import MERCENARY_VALUE, card_name, sort_cards
from condottiere.games.condottiere.knowledge import checked_cards, could_hold, holdable, knows_hand
from condottiere.games.condottiere.moves import IllegalMoveError, Move
from condottiere.games.condottiere.next_battle import battle_sites, may_cede
from condottiere.games.condottiere.phase import (
    BATTLE,
    BATTLE_CHOICE,
    DISCARD,
    FAVOR,
    RETAIN,
)
from condottiere.games.condottiere.tables import (
    BATTLE_IN,
    CEDE_MOVE,
    DISCARD_MOVE,
    FAVOR_NONE_MOVE,
    FAVOR_ON,
    HIGH_SHIFT,
    KEEP_MOVE,
    LOW_MASK,
    MERCENARY_BITS,
    MIDDLE_MASK,
    MIDDLE_SHIFT,
    PLAYS_HIGH,
    PLAYS_LOW,
    PLAYS_MIDDLE,
    SCARECROW_ALONE,
    SCARECROW_BIT,
    SCARECROW_TAKES,
    kinds_of,
)

if TYPE_CHECKING:
    from condottiere.games.condottiere.game import Game

__all__ = ["check_hidden_move", "legal_moves", "why_illegal"]

_ATTEMPTS = {
    "battle": "open a battle",
    "cede": "cede the battle marker",
    "play": "play a card",
    "pass": "pass",
    "favor": "place the Favor",
    "discard": "discard your hand",
    "keep": "keep your hand",
    "retain": "retain cards",
}
"""Each verb as what a player tried to do."""
_EXPECTED = {
    BATTLE_CHOICE: "must open a battle (as in 'battle Firenze')",
    BATTLE: "must play a card or pass",
    FAVOR: "must place the Favor (as in 'favor Roma')",
    DISCARD: "must 'discard' or 'keep' its hand",
    RETAIN: "must retain up to two cards (as in 'retain 10 heroine')",
}
"""By phase, what the seat to act must do."""
_VERBS = {
    BATTLE_CHOICE: ("battle", "cede"),
    BATTLE: ("play", "pass"),
    FAVOR: ("favor",),
    DISCARD: ("discard", "keep"),
    RETAIN: ("retain",),
}
"""By phase, the verbs the seat to act may play."""


def legal_moves(game: Game) -> Sequence[Move]:
    """The moves the seat to act may play now, as far as ``game`` can know them."""
    seat = game._to_act
    if seat is None:
        return []
    phase = game._phase
    if phase is BATTLE:
        observer = game.observer
        held = (
            game._held[seat]
            if observer is None or observer == seat
            else kinds_of(holdable(game, seat))
        )
        before = PLAYS_LOW[held & LOW_MASK] + PLAYS_MIDDLE[held >> MIDDLE_SHIFT & MIDDLE_MASK]
        after = PLAYS_HIGH[held >> HIGH_SHIFT]
        if held & SCARECROW_BIT:
            return [*before, *_scarecrow_moves(game, seat), *after]
        return before + after
    if phase is BATTLE_CHOICE:
        moves = list(map(BATTLE_IN.__getitem__, battle_sites(game)))
        if may_cede(game):
            moves.append(CEDE_MOVE)
        return moves
    if phase is FAVOR:
        moves = list(map(FAVOR_ON.__getitem__, favor_sites(game)))
        if game.edition.favor == "uncontrolled-or-off":
            moves.append(FAVOR_NONE_MOVE)
        return moves
    if phase is DISCARD:
        if knows_hand(game, seat) and game._held[seat] & MERCENARY_BITS:
            return [KEEP_MOVE]
        return [DISCARD_MOVE, KEEP_MOVE]
    if phase is RETAIN:
        return _retain_moves(game, seat)
    return []


def _scarecrow_moves(game: Game, seat: int) -> list[Move]:
    """``seat``'s Scarecrow moves: taking back a mercenary of its row (of any row where the
    edition allows), and taking nothing where that is allowed."""
    edition = game.edition
    kinds = game._row_mercenaries
    if edition.scarecrow_any_row:
        moves = [SCARECROW_ALONE]
        for owner, mercenaries in enumerate(kinds):
            if mercenaries:
                moves += SCARECROW_TAKES[None if owner == seat else owner][mercenaries]
    else:
        moves = [SCARECROW_ALONE, *SCARECROW_TAKES[None][kinds[seat]]]
    if len(moves) > 1 and not edition.scarecrow_may_take_nothing:
        del moves[0]
    return moves


def _retain_moves(game: Game, seat: int) -> list[Move]:
    """FFG: every way ``seat`` may retain up to two of its cards."""
    cards = holdable(game, seat)
    moves = [Move("retain")]
    for i, first in enumerate(cards):
        moves.append(Move("retain", cards=(first,)))
        for second in cards[i:]:
            if second != first or could_hold(game, seat, first, 2):
                moves.append(Move("retain", cards=(first, second)))
    return moves


def check_hidden_move(
    game: Game, move: Move, seat: int, reveal: Sequence[str] | None
) -> tuple[str, ...] | None:
    """Check a move of a seat whose hand ``game`` does not see against the cards it could
    hold; the cards it shows (a discarded hand, ``reveal``), or None.
    :class:`IllegalMoveError` when it cannot be legal."""
    phase = game._phase
    if move.verb == "discard" and phase is DISCARD:
        if reveal is None:
            raise IllegalMoveError(f"seat {seat} must show the hand it discards")
        cards = tuple(checked_cards(reveal))
        counts = Counter(cards)
        if len(cards) != game._sizes[seat]:
            raise IllegalMoveError(f"seat {seat} holds {game._sizes[seat]} cards, not {len(cards)}")
        mercenaries = [card for card in cards if card in MERCENARY_VALUE]
        if mercenaries:
            raise IllegalMoveError(
                f"seat {seat} may not discard a hand holding mercenaries ({mercenaries[0]})"
            )
        if any(not could_hold(game, seat, card, k) for card, k in counts.items()):
            raise IllegalMoveError(f"seat {seat} cannot hold those cards")
        return sort_cards(cards)
    if move.verb in ("play", "retain") and phase in (BATTLE, RETAIN):
        needed = Counter([move.card] if move.verb == "play" else move.cards)
        for card, count in needed.items():
            if not could_hold(game, seat, str(card), count):
                raise IllegalMoveError(f"seat {seat} cannot hold {count} {card_name(str(card))}")
    if game._legal is None:
        game._legal = legal_moves(game)
    if move not in game._legal:
        raise IllegalMoveError(why_illegal(game, move, seat))
    return None


def why_illegal(game: Game, move: Move, seat: int) -> str:
    """Why ``move`` is not legal for ``seat`` now, in a player's words."""
    phase = game._phase
    if move.verb not in _VERBS.get(phase, ()):
        tried = _ATTEMPTS[move.verb]
        expected = f"seat {seat} {_EXPECTED[phase]}" if phase in _EXPECTED else "nobody may move"
        return f"you cannot {tried} now: {expected}"
    if move.verb == "battle":
        region = str(move.region)
        if region == game._favor:
            return f"the Favor marker is on {region}: no battle may be fought there"
        return f"{region} is held by seat {game._control.get(region)}"
    if move.verb == "cede":
        if not game.edition.may_cede:
            return "you may not cede the battle marker without the 'cede' option"
        return "the battle marker has gone round the table: you must choose a battle"
    if move.verb == "favor":
        if move.region is None:
            return "the Favor must be placed on the board in this edition"
        region = move.region
        if region == game._battle_region:
            return f"the battle is being fought in {region}: place the Favor elsewhere"
        holder = game._control.get(region)
        return f"{region} is held by seat {holder}: the Favor needs a free region"
    if move.verb == "discard":
        return "you hold mercenaries, so you must keep your hand"
    if move.verb == "retain":
        return f"you do not hold {' and '.join(map(card_name, move.cards))}"
    card = str(move.card)
    if not could_hold(game, seat, card):
        return f"you have no {card_name(card)} in hand"
    if card == "scarecrow":
        if move.target is None:
            return "say which mercenary the Scarecrow takes back, as in 'play scarecrow 5'"
        if move.target_seat is not None and not game.edition.scarecrow_any_row:
            return "a Scarecrow takes back a mercenary from your own row only"
        if move.target_seat is not None and not 0 <= move.target_seat < game.players:
            return f"there is no seat {move.target_seat}"
        whose = "your row" if move.target_seat is None else f"seat {move.target_seat}'s row"
        return f"there is no {move.target} in {whose} to take back"
    return f"you cannot play {card_name(card)} now"
