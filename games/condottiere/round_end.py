"""The end of a round and the deal: the discard step after a battle, the round's end (a
reshuffle and a new deal when at most one seat holds cards; FFG's last seat retains up to two
cards), ``zman-duel``'s drawing back up to eight, and the deal itself.

After a battle (:mod:`.battle_end`) every seat holding cards is asked in turn, clockwise from
the battle-marker holder, to ``discard`` or ``keep`` its hand (the discard step); then the
round goes on (:func:`next_round_or_battle`, FFG: :func:`ffg_next_round_or_battle`).
A deal round (:func:`deal_round`) asks chance for every seat's cards and goes on with its
continuation once they are dealt: :func:`round_dealt` at a round's start.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from condottiere.games.condottiere import battle, next_battle, piles, victory
from condottiere.games.condottiere.chance import Deal
from condottiere.games.condottiere.chance_asked import ask_deals
from condottiere.games.condottiere.phase import DISCARD, RETAIN, Then
from condottiere.games.condottiere.tables import CLOCKWISE, MERCENARY_BITS, kinds_of
from condottiere.interface.events import ForcedMove
from condottiere.interface.game import Sentence, ToldKind

if TYPE_CHECKING:
    from condottiere.games.condottiere.game import Game

__all__ = [
    "answer_discard_step",
    "deal_round",
    "discard_step_without",
    "duel_drawn",
    "ffg_next_round_or_battle",
    "ffg_refill",
    "next_round_or_battle",
    "retain",
    "round_dealt",
    "start_discard_step",
]


def start_discard_step(game: Game, then: Then) -> None:
    """Ask the seats in turn, clockwise from the battle-marker holder, whether they discard
    their hand; then go on with ``then``."""
    game._after_discard_step = then
    _ask_first_of(game, CLOCKWISE[game.players][game._marker])


def answer_discard_step(game: Game, seat: int, discarded: Sequence[str] | None) -> None:
    """``seat`` discards its hand, shown as ``discarded``, or keeps it (None); the step goes
    on with the seats after it."""
    if discarded is not None:
        piles.discard_hand(game, seat, discarded)
    order = CLOCKWISE[game.players][game._marker]
    _ask_first_of(game, order[order.index(seat) + 1 :])


def discard_step_without(game: Game, leaver: int, holder_before: int) -> None:
    """The discard step goes on after ``leaver`` left (its hand is gone): the seats not yet
    asked are asked, from the seat to act (``leaver``'s left, if it was to act) clockwise up to
    ``holder_before``, who held the battle marker when the step began; with fewer than two
    seats holding cards now, the step is over."""
    start = leaver + 1 if game._to_act == leaver else game._to_act
    assert start is not None  # the discard step always has a seat to act
    order = CLOCKWISE[game.players][start]
    _ask_first_of(game, order if order[0] == holder_before else order[: order.index(holder_before)])


def _ask_first_of(game: Game, waiting: tuple[int, ...]) -> None:
    """Ask the first seat of ``waiting`` holding cards, keeping a known hand with a mercenary
    (it has no choice) without asking; with fewer than two seats holding cards, nobody is
    asked (no hand changes here). With nobody left to ask, the step is over."""
    sizes = game._sizes
    if len(sizes) - sizes.count(0) >= 2:
        held = game._held if game.observer is None else None
        for seat in waiting:
            if not sizes[seat]:
                continue
            if held is None or not held[seat] & MERCENARY_BITS:
                game._phase = DISCARD
                game._to_act = seat
                return
            game._events.append((ForcedMove, seat, "keep"))
            game._moves_played += 1
            if game._narrated:  # told as a seat's own engine tells the keep it plays
                text = f"{{{seat}}} keeps their hand of {sizes[seat]} cards"
                game.tell(Sentence(ToldKind.MOVE, text, seat))
    then = game._after_discard_step
    assert then is not None  # set whenever the step starts
    game._after_discard_step = None
    game._to_act = None
    then(game)


def next_round_or_battle(game: Game) -> None:
    """After the discard step: when at most one seat holds cards, the round ends (every card
    is gathered, reshuffled and dealt anew); otherwise the next battle is chosen."""
    sizes = game._sizes
    if len(sizes) - sizes.count(0) <= 1:
        piles.gather(game, keep_hands=False)
        deal_round(game, then=round_dealt)
    else:
        next_battle.open_choice(game)


def ffg_next_round_or_battle(game: Game) -> None:
    """FFG, after the discard step: the last seat holding cards retains up to two of them
    before the refill; with none, the refill comes at once; otherwise the battle chosen
    before the discard step begins."""
    holders = [seat for seat in range(game.players) if game._sizes[seat]]
    if len(holders) == 1:
        game._phase = RETAIN
        game._to_act = holders[0]
    elif not holders:
        ffg_refill(game)
    else:
        next_battle.begin_chosen_battle(game)


def retain(game: Game, seat: int, cards: Sequence[str]) -> None:
    """FFG: ``seat`` keeps ``cards`` (at most two, shown) and gives back the rest unseen;
    then the refill."""
    game._hands[seat] = Counter(cards)
    game._held[seat] = kinds_of(cards)
    game._unknown[seat] = 0
    game._sizes[seat] = len(cards)
    ffg_refill(game)


def ffg_refill(game: Game) -> None:
    """FFG: every card not in a hand is reshuffled and dealt; then the chosen battle begins."""
    game._to_act = None
    piles.gather(game, keep_hands=True)
    deal_round(game, then=next_battle.begin_chosen_battle)


def deal_round(game: Game, then: Then) -> None:
    """Deal every seat its hand for the round, then go on with ``then``: ``zman-duel`` draws
    back up to eight (as far as its own pile goes); the others are dealt 10 (the edition's
    hand size) plus a bonus per region held, less the cards they kept (only the seats
    taking part: not a seat that left, nor one outside a final battle). When cards that left
    with a leaver make the draw pile too small, it is dealt out one card a seat at a time."""
    edition = game.edition
    regions = game.battles_won
    sizes = game._sizes
    deals = []
    for seat in range(game.players):
        if edition.per_seat_decks:
            count = min(edition.hand_size - sizes[seat], game._pile_sizes[seat])
        elif seat not in game._participants:
            count = 0
        else:
            count = edition.hand_size + edition.bonus_per_region * regions[seat] - sizes[seat]
        deals.append(Deal(seat, max(count, 0)))
    if not edition.per_seat_decks and sum(deal.count for deal in deals) > game._pile_sizes[0]:
        counts = dealt_one_at_a_time([deal.count for deal in deals], game._pile_sizes[0])
        deals = [Deal(seat, count) for seat, count in enumerate(counts)]
    ask_deals(game, deals, then)


def dealt_one_at_a_time(wanted: Sequence[int], cards: int) -> list[int]:
    """How many of ``cards`` each seat gets when they are dealt one at a time round the table,
    seat 0 first, each seat taking no more than it ``wanted``.

    >>> dealt_one_at_a_time([12, 0, 10, 11], 20)
    [7, 0, 7, 6]
    """
    counts = [0] * len(wanted)
    while cards:
        for seat, want in enumerate(wanted):
            if cards and counts[seat] < want:
                counts[seat] += 1
                cards -= 1
    return counts


def round_dealt(game: Game) -> None:
    """A round is dealt: the battle-marker holder chooses the first battle (``zman-duel``,
    which has no board, simply begins it)."""
    if game.edition.board:
        next_battle.open_choice(game)
    else:
        battle.begin_battle(game, None)


def duel_drawn(game: Game) -> None:
    """``zman-duel``: both seats have drawn back up; the next battle begins, unless the duel
    can go no further."""
    if victory.duel_stalled(game):
        victory.end_stalled_duel(game)
    else:
        battle.begin_battle(game, None)
