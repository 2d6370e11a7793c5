"""What the keys choose among on a seat's turn, and what a move would do before it is played.

←/→ step along every legal move in the engine's order. The keys 1-9 choose, per phase, what
matters most: a card of the hand (its first move, in the hand's order) where cards are played
(recruit, events, a battle's cards, offers, the hand limit), otherwise the moves that are no
card (a city state, an attack, a block, a troop dismissed, accept or refuse). Space chooses
the move that lets the phase go on: ``done``, ``pass``, ``no-block`` or ``pay``.

>>> from condottiere.games.captains.game import Game
>>> game = Game.setup(2, cities=["milan", "pisa"], hands=[["gonzaga", "pikemen"], []], seed=0,
...                   deck=["duchy"])
>>> keys = choices(game.view(0))
>>> keys.moves
('captain gonzaga', 'emergency gonzaga', 'revenue duchy', 'done')
>>> keys.numbered, keys.space
(('revenue duchy', 'captain gonzaga'), 'done')
"""

from __future__ import annotations

from condottiere.games.captains.cards import CARDS, FORCE, Effect, card_name, ducats
from condottiere.games.captains.cities import CITIES
from condottiere.games.captains.events import CONTROL_PRICE, LOSS, THEFT
from condottiere.games.captains.figures import army, captain_tfr, side_strength, upkeep
from condottiere.games.captains.game import Battle, SeatView
from condottiere.games.captains.moves import Bundle, Move, Verb
from condottiere.games.captains.phase import Phase
from condottiere.games.captains.screen.scene import seat_view
from condottiere.interface.screen import Choices, Scene, Seats

__all__ = [
    "NUMBER_KEYS",
    "bundle_words",
    "card_of",
    "choices",
    "chosen_move",
    "effect",
    "hand_kinds",
    "keyed",
]

NUMBER_KEYS = 9
"""The keys 1 to 9."""
GO_ON = (Move(Verb.DONE), Move(Verb.PASS), Move(Verb.NO_BLOCK), Move(Verb.PAY))
"""What Space chooses, the first of these that is legal."""
CARD_PHASES = frozenset(
    {Phase.MULLIGAN, Phase.RECRUIT, Phase.EVENTS, Phase.CLASH, Phase.DIPLOMACY, Phase.HAND_LIMIT}
)
"""The phases where the keys 1-9 choose a card of the hand."""
_FROM_HAND = frozenset(
    {
        Verb.KEEP,
        Verb.CAPTAIN,
        Verb.EMERGENCY,
        Verb.ATTACH,
        Verb.REVENUE,
        Verb.EVENT,
        Verb.PLAY,
        Verb.DISCARD,
    }
)


def hand_kinds(hand: tuple[str, ...]) -> list[tuple[str, int]]:
    """Each kind of card in ``hand``, in the hand's order, with its count."""
    kinds: dict[str, int] = {}
    for card in hand:
        kinds[card] = kinds.get(card, 0) + 1
    return list(kinds.items())


def card_of(move: Move, view: SeatView) -> str | None:
    """The card of ``view``'s hand that ``move`` plays or gives, if any."""
    if move.verb in _FROM_HAND:
        return move.card
    if move.verb is Verb.OFFER and move.give is not None:
        mine = army(view, view.seat)
        cards = [card for card in move.give.cards if card not in mine]
        return cards[0] if cards else None
    return None


def choices(view: SeatView) -> Choices:
    """What the keys choose among when it is ``view``'s seat's turn."""
    moves = view.legal_moves
    space = next((str(move) for move in GO_ON if move in moves), None)
    if view.phase in CARD_PHASES:
        first: dict[str, str] = {}
        for move in moves:
            card = card_of(move, view)
            if card is not None:
                first.setdefault(card, str(move))
        numbered = [first[card] for card, _ in hand_kinds(view.hand) if card in first]
    else:
        numbered = [str(move) for move in moves if str(move) != space]
    return Choices(tuple(map(str, moves)), tuple(numbered[:NUMBER_KEYS]), space)


def keyed(scene: Scene) -> dict[str, int]:
    """The number key of each numbered choice."""
    return {move: number
            for number, move in enumerate(scene.choices.numbered, start=1) if move}


def chosen_move(scene: Scene) -> Move | None:
    """The move the choice under the cursor plays."""
    return None if scene.chosen is None else Move.parse(scene.chosen)


def effect(scene: Scene, text: str) -> str:
    """What playing ``text`` would do, in a few words; empty when it says nothing worth
    adding (or is no legal move)."""
    view = seat_view(scene)
    try:
        move = Move.parse(text)
    except ValueError:
        return ""
    if move not in view.legal_moves:
        return ""
    return _EFFECTS.get(move.verb, _nothing)(view, scene.seats, move)


def _nothing(view: SeatView, seats: Seats, move: Move) -> str:
    return ""


def _city(view: SeatView, seats: Seats, move: Move) -> str:
    assert move.card is not None
    return CITIES[move.card].power


def _keep(view: SeatView, seats: Seats, move: Move) -> str:
    return "keep the hand; it proves it holds a captain, showing none"


def _mulligan(view: SeatView, seats: Seats, move: Move) -> str:
    return f"show and discard your {len(view.hand)} cards, draw again"


def _captain(view: SeatView, seats: Seats, move: Move) -> str:
    assert move.card is not None
    cost = "for free" if move.verb is Verb.CAPTAIN else f"for {ducats(FORCE[move.card])}"
    return f"{card_name(move.card)} (TFR {FORCE[move.card]}) into play {cost}"


def _attach(view: SeatView, seats: Seats, move: Move) -> str:
    assert move.card is not None and move.captain is not None
    before = captain_tfr(view, view.seat, move.captain)
    after = before + FORCE[move.card] * (-1 if move.verb is Verb.DISMISS else 1)
    return f"{card_name(move.captain)} TFR {before} -> {after}"


def _revenue(view: SeatView, seats: Seats, move: Move) -> str:
    return "1 more ducat each turn"


def _disband(view: SeatView, seats: Seats, move: Move) -> str:
    assert move.captain is not None
    attached = len(army(view, view.seat)[move.captain])
    cards = f" and {attached} card{'s' if attached != 1 else ''}" if attached else ""
    return f"discard {card_name(move.captain)}{cards}"


def _pay(view: SeatView, seats: Seats, move: Move) -> str:
    cost = upkeep(view, view.seat)
    return f"ducats {view.ducats[view.seat]} -> {view.ducats[view.seat] - cost}"


def _event(view: SeatView, seats: Seats, move: Move) -> str:
    assert move.card is not None
    kind = CARDS[move.card].effect
    target = seats.who(move.seat) if move.seat is not None else card_name(move.captain or "")
    if kind is Effect.LOSE_FIVE and move.seat is not None:
        return f"{target} loses {ducats(min(LOSS, view.ducats[move.seat]))}"
    if kind is Effect.STEAL_THREE and move.seat is not None:
        return f"take {ducats(min(THEFT, view.ducats[move.seat]))} from {target}"
    if kind is Effect.CONTROL:
        return f"pay {ducats(CONTROL_PRICE)}, take {target} and his cards"
    if kind is Effect.LOOK:
        return f"see {target}'s hand"
    if kind is Effect.SEARCH:
        return f"search the draw pile for {target}"
    if kind is Effect.NO_ATTACK:
        return f"{target} cannot attack next turn"
    return f"{target}: {kind.value}" if kind is not None else ""


def _attack(view: SeatView, seats: Seats, move: Move) -> str:
    assert move.captain is not None and move.seat is not None
    city = view.cities[view.seat]
    bonus = CITIES[city].attack if city else 0
    strength = captain_tfr(view, view.seat, move.captain) + bonus
    theirs = [captain_tfr(view, move.seat, c) for c in army(view, move.seat)]
    best = f"their best TFR {max(theirs)}" if theirs else "no captain to block"
    return f"TFR {strength} against {seats.who(move.seat)}: {best}"


def _block(view: SeatView, seats: Seats, move: Move) -> str:
    battle = view.battle
    if battle is None or move.captain is None:
        return ""
    city = view.cities[view.seat]
    bonus = CITIES[city].defence if city else 0
    _, attack = side_strength(view, battle, battle.attacker)
    return f"TFR {captain_tfr(view, view.seat, move.captain) + bonus} against {attack}"


def _no_block(view: SeatView, seats: Seats, move: Move) -> str:
    battle = view.battle
    taker = "the attacker" if battle is None else seats.who(battle.attacker)
    return f"{taker} takes one of your provinces"


def _play(view: SeatView, seats: Seats, move: Move) -> str:
    assert move.card is not None
    battle = view.battle
    if battle is None:
        return ""
    if CARDS[move.card].effect is Effect.NEGATE:
        return "the battle ends: nobody wins"
    mine, theirs = _sides(view, battle)
    return f"you {mine} -> {mine + FORCE[move.card]} against {theirs}"


def _pass(view: SeatView, seats: Seats, move: Move) -> str:
    battle = view.battle
    if battle is None:
        return ""
    mine, theirs = _sides(view, battle)
    return f"you {mine} against {theirs}"


def _sides(view: SeatView, battle: Battle) -> tuple[int, int]:
    """This seat's side of ``battle`` and the other's."""
    other = battle.defender if view.seat == battle.attacker else battle.attacker
    return side_strength(view, battle, view.seat)[1], side_strength(view, battle, other)[1]


def bundle_words(bundle: Bundle) -> str:
    """``3 ducats, 1 province, Pikemen``; ``nothing``."""
    parts = [f"{bundle.ducats} ducat{'s' if bundle.ducats != 1 else ''}"] if bundle.ducats else []
    if bundle.provinces:
        parts.append(f"{bundle.provinces} province{'s' if bundle.provinces != 1 else ''}")
    parts += [card_name(card) for card in bundle.cards]
    return ", ".join(parts) or "nothing"


def _offer(view: SeatView, seats: Seats, move: Move) -> str:
    assert move.give is not None and move.get is not None
    return f"to {seats.who(move.seat)}: {bundle_words(move.give)} for {bundle_words(move.get)}"


def _answer(view: SeatView, seats: Seats, move: Move) -> str:
    offer = view.offer
    if offer is None or offer.give is None or offer.get is None:
        return ""
    if move.verb is Verb.REFUSE:
        return "nothing changes hands"
    return f"you get {bundle_words(offer.give)}, give {bundle_words(offer.get)}"


def _discard(view: SeatView, seats: Seats, move: Move) -> str:
    city = view.cities[view.seat]
    limit = CITIES[city].hand_limit if city else CITIES["milan"].hand_limit
    return f"hand {len(view.hand)} -> {len(view.hand) - 1}, limit {limit}"


def _done(view: SeatView, seats: Seats, move: Move) -> str:
    return f"end the {view.phase} phase"


_EFFECTS = {
    Verb.CITY: _city,
    Verb.KEEP: _keep,
    Verb.MULLIGAN: _mulligan,
    Verb.CAPTAIN: _captain,
    Verb.EMERGENCY: _captain,
    Verb.ATTACH: _attach,
    Verb.REVENUE: _revenue,
    Verb.DISMISS: _attach,
    Verb.DISBAND: _disband,
    Verb.PAY: _pay,
    Verb.EVENT: _event,
    Verb.ATTACK: _attack,
    Verb.BLOCK: _block,
    Verb.NO_BLOCK: _no_block,
    Verb.PLAY: _play,
    Verb.PASS: _pass,
    Verb.OFFER: _offer,
    Verb.ACCEPT: _answer,
    Verb.REFUSE: _answer,
    Verb.DISCARD: _discard,
    Verb.DONE: _done,
}
