"""What OpenSpiel needs of each game beyond the game interface: a fixed, ordered list of every
move the rules may list (the stable integer encoding of actions is a move's place in it), and
a fixed-size tensor of a seat's view.

The lists are built from each game's own move types and card lists, in a fixed order, so an
action number means the same move in every run and every release that does not change the
game's notation. A Captains offer is one of the offers the rules list (a card of the hand for
the listed price, a province for the listed price, bought or sold): offers of other bundles
are not OpenSpiel actions.

>>> from condottiere.interface import TableRules
>>> spec = spec_for(TableRules("condottiere", "zman", 3))
>>> spec.moves[:3], spec.moves.index("play 10") == spec.action_of("play 10")
(('pass', 'cede', 'discard'), True)
>>> len(spec_for(TableRules("captains", "standard", 3)).moves) > 1000
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations_with_replacement
from typing import Any

import numpy as np
import numpy.typing as npt

from condottiere.interface import TableRules

__all__ = ["GameSpec", "pile_contents", "spec_for"]

Tensor = npt.NDArray[np.float32]


@dataclass(frozen=True)
class GameSpec:
    """One table's OpenSpiel encoding: its moves in action order, its card kinds in chance
    order, and how a seat's view becomes a tensor."""

    table: TableRules
    moves: tuple[str, ...]
    cards: tuple[str, ...]
    """Every card kind of the game's decks, in the order of the chance outcomes of a deal."""
    tensor_size: int
    encode: Callable[[Any, int], Tensor]
    """A seat's view (the game's ``SeatView``) and the number of seats, as a flat tensor."""
    _index: dict[str, int] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self._index.update((move, action) for action, move in enumerate(self.moves))

    def __reduce__(self) -> tuple[Any, tuple[TableRules]]:
        """Pickled as its table: the encoding is made again from it."""
        return spec_for, (self.table,)

    def __deepcopy__(self, memo: dict[int, Any]) -> GameSpec:
        return self  # immutable: a copied state shares its game's encoding

    def action_of(self, move: str) -> int:
        """The action number of ``move`` (in the game's notation); KeyError for a move the
        encoding does not know."""
        try:
            return self._index[move]
        except KeyError:
            raise KeyError(f"{move!r} has no OpenSpiel action in {self.table.game}") from None


def spec_for(table: TableRules) -> GameSpec:
    """The encoding of ``table``'s game (``condottiere`` or ``captains``)."""
    if table.game == "condottiere":
        return _condottiere(table)
    if table.game == "captains":
        return _captains(table)
    raise ValueError(f"no OpenSpiel encoding of the game {table.game!r}")


def pile_contents(game: Any, pile: int) -> tuple[str, ...]:
    """The cards of draw pile ``pile`` of an omniscient game, in any order."""
    piles = getattr(game, "draw_piles", None)
    if piles is not None:
        return tuple(piles[pile])
    return tuple(game.draw_pile)


def _counts(cards: Sequence[str], index: dict[str, int], into: Tensor) -> None:
    for card in cards:
        into[index[card]] += 1


# ---------------------------------------------------------------------------- Condottiere


def _condottiere(table: TableRules) -> GameSpec:
    from condottiere.games.condottiere import Move
    from condottiere.games.condottiere.board import REGIONS
    from condottiere.games.condottiere.cards import CARD_ORDER, MERCENARY_VALUE
    from condottiere.games.condottiere.phase import Phase

    cards = tuple(CARD_ORDER)
    seats = range(table.seats)
    texts = ["pass", "cede", "discard", "keep", "retain", "favor none"]
    texts += [f"battle {region}" for region in REGIONS]
    texts += [f"favor {region}" for region in REGIONS]
    texts += [f"play {card}" for card in cards]
    for value in MERCENARY_VALUE:
        texts.append(f"play scarecrow {value}")
        texts += [f"play scarecrow {value} {seat}" for seat in seats]
    texts += [f"retain {card}" for card in cards]
    texts += [f"retain {a} {b}" for a, b in combinations_with_replacement(cards, 2)]
    moves = tuple(dict.fromkeys(str(Move.parse(text)) for text in texts))
    index = {card: i for i, card in enumerate(cards)}
    regions = {region: i for i, region in enumerate(REGIONS)}
    phases = {phase: i for i, phase in enumerate(Phase)}
    kinds, players, places = len(cards), table.seats, len(REGIONS)
    parts = {
        "to_act": players,
        "phase": len(phases),
        "hand": kinds,
        "rows": players * kinds,
        "hand_sizes": players,
        "strengths": players,
        "passed": players,
        "battles_won": players,
        "control": places * (players + 1),
        "favor": places + 1,
        "battle_region": places + 1,
        "battle_marker": players,
        "discard": kinds,
    }

    def encode(view: Any, seat: int) -> Tensor:
        tensor = np.zeros(sum(parts.values()), np.float32)
        at = _Cursor(tensor, parts)
        if view.to_act is not None:
            at["to_act"][view.to_act] = 1
        at["phase"][phases[view.phase]] = 1
        _counts(view.hand, index, at["hand"])
        rows = at["rows"].reshape(players, kinds)
        for place, row in enumerate(view.rows):
            _counts(row, index, rows[place])
        at["hand_sizes"][:] = view.hand_sizes
        at["strengths"][:] = view.strengths
        for place in view.passed:
            at["passed"][place] = 1
        at["battles_won"][:] = view.battles_won
        control = at["control"].reshape(places, players + 1)
        for region, place in regions.items():
            control[place, view.control.get(region, players)] = 1
        at["favor"][regions.get(view.favor or "", places)] = 1
        at["battle_region"][regions.get(view.battle_region or "", places)] = 1
        at["battle_marker"][view.battle_marker] = 1
        _counts(view.discard_pile, index, at["discard"])
        return tensor

    return GameSpec(table, moves, cards, sum(parts.values()), encode)


# ---------------------------------------------------------------------------- Captains


def _captains(table: TableRules) -> GameSpec:
    from condottiere.games.captains import CARDS, CITIES, Bundle, Kind, Move, Phase, Verb
    from condottiere.games.captains.cards import CAPTAINS
    from condottiere.games.captains.legality import PROVINCE_PRICE, SALE_PRICE

    cards = tuple(CARDS)
    captains = tuple(CAPTAINS)
    seats = range(table.seats)
    of_kind = {kind: [c for c in cards if CARDS[c].kind is kind] for kind in Kind}
    attachable = of_kind[Kind.TROOP] + of_kind[Kind.TRAIT]
    listed = [Move(verb) for verb in (Verb.DONE, Verb.PASS, Verb.PAY, Verb.NO_BLOCK,
                                       Verb.ACCEPT, Verb.REFUSE, Verb.MULLIGAN, Verb.KEEP)]
    listed += [Move(Verb.CITY, city) for city in CITIES]
    for captain in captains:
        listed += [Move(Verb.KEEP, captain), Move(Verb.CAPTAIN, captain),
                   Move(Verb.EMERGENCY, captain), Move(Verb.DISBAND, captain=captain),
                   Move(Verb.BLOCK, captain=captain)]
        listed += [Move(Verb.ATTACK, captain=captain, seat=seat) for seat in seats]
        listed += [Move(Verb.ATTACH, card, captain) for card in attachable]
        listed += [Move(Verb.DISMISS, card, captain) for card in attachable]
    listed += [Move(Verb.REVENUE, card) for card in of_kind[Kind.REVENUE]]
    for card in of_kind[Kind.EVENT]:
        listed.append(Move(Verb.EVENT, card))
        listed += [Move(Verb.EVENT, card, seat=seat) for seat in seats]
        listed += [Move(Verb.EVENT, card, captain) for captain in captains]
    listed += [Move(Verb.PLAY, card) for card in of_kind[Kind.BATTLE]]
    listed += [Move(Verb.DISCARD, card) for card in cards]
    price, gold, province = Bundle(ducats=SALE_PRICE), Bundle(ducats=PROVINCE_PRICE), Bundle(
        provinces=1)
    for seat in seats:
        listed += [Move(Verb.OFFER, seat=seat, give=Bundle(cards=(card,)), get=price)
                   for card in cards]
        listed += [Move(Verb.OFFER, seat=seat, give=gold, get=province),
                   Move(Verb.OFFER, seat=seat, give=province, get=gold)]
    moves = tuple(dict.fromkeys(str(move) for move in listed))
    index = {card: i for i, card in enumerate(cards)}
    cities = {city: i for i, city in enumerate(CITIES)}
    phases = {phase: i for i, phase in enumerate(Phase)}
    kinds, players = len(cards), table.seats
    parts = {
        "to_act": players,
        "phase": len(phases),
        "hand": kinds,
        "known": players * kinds,
        "in_play": players * kinds,
        "cities": players * (len(cities) + 1),
        "provinces": players,
        "ducats": players,
        "hand_sizes": players,
        "turns": players,
        "out": players,
        "discard": kinds,
        "draw_pile": 1,
    }

    def encode(view: Any, seat: int) -> Tensor:
        tensor = np.zeros(sum(parts.values()), np.float32)
        at = _Cursor(tensor, parts)
        if view.to_act is not None:
            at["to_act"][view.to_act] = 1
        at["phase"][phases[view.phase]] = 1
        _counts(view.hand, index, at["hand"])
        known = at["known"].reshape(players, kinds)
        in_play = at["in_play"].reshape(players, kinds)
        city = at["cities"].reshape(players, len(cities) + 1)
        for place in range(players):
            _counts(view.known[place], index, known[place])
            for captain, attached in view.armies[place]:
                _counts((captain, *attached), index, in_play[place])
            _counts(view.revenues[place], index, in_play[place])
            name = view.cities[place]
            city[place, len(cities) if name is None else cities[name]] = 1
            at["out"][place] = place in view.defeated or place in view.departed
        at["provinces"][:] = view.provinces
        at["ducats"][:] = view.ducats
        at["hand_sizes"][:] = view.hand_sizes
        at["turns"][:] = view.turns
        _counts(view.discard_pile, index, at["discard"])
        at["draw_pile"][0] = view.draw_pile_size
        return tensor

    return GameSpec(table, moves, cards, sum(parts.values()), encode)


class _Cursor:
    """Named slices of one flat tensor, in the order of ``parts``."""

    def __init__(self, tensor: Tensor, parts: dict[str, int]) -> None:
        self._slices: dict[str, Tensor] = {}
        start = 0
        for name, size in parts.items():
            self._slices[name] = tensor[start : start + size]
            start += size

    def __getitem__(self, name: str) -> Tensor:
        return self._slices[name]
