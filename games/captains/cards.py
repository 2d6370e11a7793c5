"""The cards, exactly as the seed's card list gives them: 90 cards of 80 kinds.

A card is named in moves by its id, the seed's name in lower case with hyphens.

>>> heavy = CARDS["heavy-cavalry"]
>>> len(DECK), heavy.name, heavy.copies, heavy.kind, heavy.force
(90, 'Heavy Cavalry', 2, <Kind.TROOP: 'troop'>, 2)
>>> CARDS["spies"].effect.name, CARDS["field-fortifications"].side.name
('LOOK', 'DEFENDER')
>>> card_name("giovani-acuto"), [c for c in CAPTAINS][:2]
('Giovani Acuto', ['francesco-sforza', 'michele-attendolo'])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

__all__ = [
    "CAPTAINS",
    "CARDS",
    "DECK",
    "ORDER",
    "Card",
    "Effect",
    "Kind",
    "Side",
    "captain_force",
    "card_name",
    "ducats",
    "sort_cards",
]


class Kind(Enum):
    """The six card types (seed: "C S A E B R")."""

    CAPTAIN = "captain"
    TROOP = "troop"
    TRAIT = "trait"
    EVENT = "event"
    BATTLE = "battle"
    REVENUE = "revenue"


class Effect(Enum):
    """What an event or a special battle card does (RULES.md items 19-26, 36)."""

    SEARCH = "search the deck for a captain"
    MUST_BLOCK = "target captain must block"
    MUST_ATTACK = "target captain must attack"
    LOOK = "look at an opponent's hand"
    LOSE_FIVE = "an opponent loses 5 ducats"
    STEAL_THREE = "steal 3 ducats from an opponent"
    CONTROL = "take control of a captain for 10 ducats"
    NO_ATTACK = "an opponent cannot attack on its next turn"
    ASSASSINATE = "discard a captain"
    NEGATE = "negate the battle"


class Side(Enum):
    """Who may play a battle card."""

    ATTACKER = "attacker"
    DEFENDER = "defender"
    EITHER = "either"


@dataclass(frozen=True, slots=True)
class Card:
    """One kind of card: ``force`` is a captain's level, a troop's, trait's or battle card's
    bonus (0 for the others); ``side`` says who may play a battle card."""

    id: str
    name: str
    copies: int
    kind: Kind
    force: int = 0
    effect: Effect | None = None

    @property
    def side(self) -> Side:
        note = _SIDES.get(self.id)
        return Side.EITHER if note is None else note


_SIDES = {
    "field-fortifications": Side.DEFENDER,
    "garrison": Side.DEFENDER,
    "surprise-attack": Side.ATTACKER,
}

_K = Kind
_E = Effect
# The seed's card list, in its order: name, copies, type, force, effect.
_LIST: tuple[tuple[str, int, Kind, int, Effect | None], ...] = (
    ("New Contract", 1, _K.EVENT, 0, _E.SEARCH),
    ("Skilled Commander", 1, _K.TRAIT, 1, None),
    ("Foreign Mercenaries", 2, _K.TROOP, 1, None),
    ("Tactical Leader", 1, _K.TRAIT, 1, None),
    ("Management Skills", 1, _K.TRAIT, 1, None),
    ("Entrepreneur", 1, _K.TRAIT, 1, None),
    ("Avoid Battle", 1, _K.BATTLE, 0, _E.NEGATE),
    ("Prolong War", 1, _K.BATTLE, 0, _E.NEGATE),
    ("Heavy Cavalry", 2, _K.TROOP, 2, None),
    ("Crossbowmen", 2, _K.TROOP, 1, None),
    ("Pikemen", 2, _K.TROOP, 1, None),
    ("Professional Soldiers", 2, _K.TROOP, 1, None),
    ("Besiege Important City", 1, _K.EVENT, 0, _E.MUST_BLOCK),
    ("Field Fortifications", 2, _K.BATTLE, 4, None),
    ("Armored Knights", 2, _K.TROOP, 2, None),
    ("Surprise Attack", 1, _K.BATTLE, 5, None),
    ("Ambush", 1, _K.BATTLE, 5, None),
    ("Rapid March", 1, _K.BATTLE, 5, None),
    ("Disadvantage", 1, _K.BATTLE, 3, None),
    ("Back Against Obstacle", 1, _K.BATTLE, 3, None),
    ("Logistic Strategy", 1, _K.BATTLE, 0, _E.NEGATE),
    ("Strong Position", 1, _K.BATTLE, 4, None),
    ("Spies", 2, _K.EVENT, 0, _E.LOOK),
    ("Cavalry Squadrons", 2, _K.TROOP, 1, None),
    ("Reserve", 1, _K.BATTLE, 4, None),
    ("Devastate Enemy Territory", 1, _K.EVENT, 0, _E.LOSE_FIVE),
    ("Heavy Infantry", 2, _K.TROOP, 1, None),
    ("Crafty", 1, _K.TRAIT, 1, None),
    ("Ambitious", 1, _K.TRAIT, 1, None),
    ("Raise Siege", 1, _K.EVENT, 0, _E.MUST_ATTACK),
    ("Artillery", 1, _K.TROOP, 1, None),
    ("Assess the Situation", 1, _K.EVENT, 0, _E.LOOK),
    ("Pavesarii Shield-Bearers", 1, _K.TROOP, 1, None),
    ("Loyalty", 1, _K.TRAIT, 1, None),
    ("Buy Enemy Captain", 1, _K.EVENT, 0, _E.CONTROL),
    ("Campaign Season Over", 1, _K.EVENT, 0, _E.NO_ATTACK),
    ("Careful Reconnaissance", 1, _K.EVENT, 0, _E.LOOK),
    ("Republican Regime", 1, _K.REVENUE, 0, None),
    ("Francesco Sforza", 1, _K.CAPTAIN, 5, None),
    ("Michele Attendolo", 1, _K.CAPTAIN, 5, None),
    ("Shrewd", 1, _K.TRAIT, 1, None),
    ("Calculating", 1, _K.TRAIT, 1, None),
    ("Take Prisoners", 1, _K.BATTLE, 3, None),
    ("Attack Rear", 1, _K.BATTLE, 4, None),
    ("Determined Resistance", 1, _K.BATTLE, 3, None),
    ("Stalemate", 1, _K.BATTLE, 0, _E.NEGATE),
    ("Maneuvers", 1, _K.BATTLE, 3, None),
    ("Niccolo Piccinino", 1, _K.CAPTAIN, 2, None),
    ("Intrigue", 1, _K.EVENT, 0, _E.LOOK),
    ("Pillage", 1, _K.EVENT, 0, _E.STEAL_THREE),
    ("Plunder", 1, _K.EVENT, 0, _E.STEAL_THREE),
    ("Duchy", 1, _K.REVENUE, 0, None),
    ("Oriental Trade", 1, _K.REVENUE, 0, None),
    ("Merchant Empire", 1, _K.REVENUE, 0, None),
    ("Raze Province", 1, _K.EVENT, 0, _E.LOSE_FIVE),
    ("Rebellion", 1, _K.EVENT, 0, _E.LOSE_FIVE),
    ("Garrison", 1, _K.BATTLE, 3, None),
    ("Patron of the Arts", 1, _K.REVENUE, 0, None),
    ("Shipbuilding", 1, _K.REVENUE, 0, None),
    ("Trade Routes", 1, _K.REVENUE, 0, None),
    ("Reputation", 1, _K.TRAIT, 1, None),
    ("Envelopment", 1, _K.BATTLE, 3, None),
    ("Concentration of Force", 1, _K.BATTLE, 3, None),
    ("Seasoned Commander", 1, _K.TRAIT, 1, None),
    ("Block Route of Retreat", 1, _K.EVENT, 0, _E.MUST_ATTACK),
    ("Balestrieri", 1, _K.TROOP, 1, None),
    ("Rally", 1, _K.BATTLE, 3, None),
    ("Military Intelligence", 1, _K.EVENT, 0, _E.LOOK),
    ("Treachery", 1, _K.EVENT, 0, _E.CONTROL),
    ("Carmagnola", 1, _K.CAPTAIN, 4, None),
    ("Gonzaga", 1, _K.CAPTAIN, 4, None),
    ("Assassination", 1, _K.EVENT, 0, _E.ASSASSINATE),
    ("Braccio da Montone", 1, _K.CAPTAIN, 5, None),
    ("Bartolomeo Colleoni", 1, _K.CAPTAIN, 4, None),
    ("Malatesta da Verruchio", 1, _K.CAPTAIN, 4, None),
    ("Castruccio Castracane", 1, _K.CAPTAIN, 3, None),
    ("Faggiuola", 1, _K.CAPTAIN, 3, None),
    ("Giovani Acuto", 1, _K.CAPTAIN, 3, None),
    ("Casale Monferrato", 1, _K.CAPTAIN, 2, None),
    ("Erasmo de Narni", 1, _K.CAPTAIN, 2, None),
)


def _card_id(name: str) -> str:
    return name.lower().replace(" ", "-")


CARDS: dict[str, Card] = {
    _card_id(name): Card(_card_id(name), name, copies, kind, force, effect)
    for name, copies, kind, force, effect in _LIST
}
"""Every kind of card, by id, in the seed's order."""
ORDER: dict[str, int] = {card: index for index, card in enumerate(CARDS)}
"""Each card's place in the seed's list: the notation order."""
DECK: tuple[str, ...] = tuple(card.id for card in CARDS.values() for _ in range(card.copies))
"""Every card of the deck, in notation order."""
DECK_COUNTS: Counter[str] = Counter(DECK)
CAPTAINS: tuple[str, ...] = tuple(c.id for c in CARDS.values() if c.kind is Kind.CAPTAIN)
"""Every captain, in notation order (each is one card)."""
KIND: dict[str, Kind] = {card: info.kind for card, info in CARDS.items()}
FORCE: dict[str, int] = {card: info.force for card, info in CARDS.items()}


def captain_force(captain: str, attached: Iterable[str]) -> int:
    """A captain's Total Force Rating: his level and the forces of the cards attached to him
    (RULES.md 16)."""
    return FORCE[captain] + sum(map(FORCE.__getitem__, attached))


def card_name(card: str) -> str:
    """The card's name as the seed prints it."""
    return CARDS[card].name


def ducats(amount: int) -> str:
    """An amount of ducats in words.

    >>> ducats(1), ducats(3)
    ('1 ducat', '3 ducats')
    """
    return f"{amount} ducat{'' if amount == 1 else 's'}"


def sort_cards(cards: object) -> tuple[str, ...]:
    """``cards`` (an iterable of ids) in notation order."""
    return tuple(sorted(cards, key=ORDER.__getitem__))  # type: ignore[call-overload]
