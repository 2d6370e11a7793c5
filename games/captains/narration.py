"""A move in words, and the table in one line.

A narrated game tells each move in its own words (:func:`move_words`, told before the move
is applied) and then what it set off (a turn begun, ducats collected, a battle fought, a
province taken, a seat defeated, a captain found in the draw pile, a hand shown to one seat)
in the sentences the rules tell on the way (:func:`.setup.note`). Only public facts are
told: never a card of a hand that was not shown to everyone.

>>> from condottiere.games.captains.game import Game
>>> g = Game.setup(2, cities=["milan", "pisa"], hands=[["gonzaga"], []], seed=0,
...                deck=["duchy"], narrated=True)
>>> start = g.narration_length
>>> g.play("captain gonzaga")
>>> [sentence.told(["ann", "bob"]).text for sentence in g.narration(start)]
['ann puts Gonzaga (level 4) into play']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from condottiere.games.captains.cards import CARDS, FORCE, card_name, ducats
from condottiere.games.captains.cities import CITIES
from condottiere.games.captains.moves import Bundle, Move, Verb
from condottiere.games.captains.turn import upkeep_cost

if TYPE_CHECKING:
    from condottiere.games.captains.game import Game

__all__ = ["move_words", "table_words"]


def move_words(
    game: Game, seat: int, move: Move, shown: Sequence[str], names: Sequence[str]
) -> str:
    """``seat``'s ``move`` in words, as the table sees it."""
    who = names[seat]
    verb, card, captain = move.verb, move.card, move.captain
    name = "" if card is None or verb is Verb.CITY else card_name(card)
    if verb is Verb.CITY:
        assert card is not None
        return f"{who} picks {CITIES[card].name}"
    if verb is Verb.KEEP:
        return f"{who} keeps the hand"
    if verb is Verb.MULLIGAN:
        cards = ", ".join(card_name(c) for c in shown) or "its hand"
        return f"{who} has no captain: shows and discards {cards} (mulligan)"
    if verb is Verb.CAPTAIN:
        return f"{who} puts {name} (level {FORCE[card or '']}) into play"
    if verb is Verb.EMERGENCY:
        return f"{who} puts {name} into play by emergency defence"
    if verb is Verb.ATTACH:
        assert captain is not None
        tfr = game.tfr(captain) + FORCE[card or ""]
        return f"{who} attaches {name} (+{FORCE[card or '']}) to {card_name(captain)} (TFR {tfr})"
    if verb is Verb.REVENUE:
        return f"{who} attaches {name} (revenue) to a province"
    if verb is Verb.DISMISS:
        assert captain is not None
        return f"{who} discards {name} from {card_name(captain)} to save upkeep"
    if verb is Verb.DISBAND:
        assert captain is not None
        return f"{who} disbands {card_name(captain)}"
    if verb is Verb.PAY:
        cost = upkeep_cost(game, seat)
        return f"{who} pays {ducats(cost)} of upkeep ({ducats(game.ducats[seat] - cost)} left)"
    if verb is Verb.EVENT:
        target = names[move.seat] if move.seat is not None else card_name(captain or "")
        effect = CARDS[card or ""].effect
        return f"{who} plays the event {name} ({effect.value if effect else ''}) on {target}"
    if verb is Verb.ATTACK:
        assert captain is not None and move.seat is not None
        return f"{who} attacks {names[move.seat]} with {card_name(captain)}"
    if verb is Verb.BLOCK:
        return f"{who} blocks with {card_name(captain or '')}"
    if verb is Verb.NO_BLOCK:
        return f"{who} does not block"
    if verb is Verb.PLAY:
        effect = CARDS[card or ""].effect
        worth = effect.value if effect else f"+{FORCE[card or '']}"
        return f"{who} plays {name} ({worth})"
    if verb is Verb.PASS:
        return f"{who} passes"
    if verb is Verb.OFFER:
        assert move.seat is not None and move.give is not None and move.get is not None
        return f"{who} offers {names[move.seat]} {_bundle(move.give)} for {_bundle(move.get)}"
    if verb in (Verb.ACCEPT, Verb.REFUSE):
        offerer = game.active
        answer = "accepts" if verb is Verb.ACCEPT else "refuses"
        return f"{who} {answer} the offer of {'?' if offerer is None else names[offerer]}"
    if verb is Verb.DISCARD:
        return f"{who} discards {name} (hand limit)"
    return f"{who} is done with the {game.phase} phase"


def _bundle(bundle: Bundle) -> str:
    """``3 ducats, 1 province and Pikemen``."""
    parts = [ducats(bundle.ducats)] if bundle.ducats else []
    if bundle.provinces:
        parts.append(f"{bundle.provinces} province{'s' if bundle.provinces != 1 else ''}")
    parts += [card_name(card) for card in bundle.cards]
    if not parts:
        return "nothing"
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def table_words(game: Game, names: Sequence[str]) -> str:
    """Each seat's city, provinces, ducats and captains with their TFR, in one line."""
    parts = []
    for seat in range(game.players):
        city = game.cities[seat]
        label = f"{names[seat]}" + (f" ({CITIES[city].name})" if city else "")
        if seat in game.departed:
            parts.append(f"{label}: left")
            continue
        if seat in game.defeated:
            parts.append(f"{label}: defeated")
            continue
        if city is None:
            parts.append(f"{label}: no city state yet")
            continue
        captains = ", ".join(f"{card_name(c)} {game.tfr(c)}" for c in game.army(seat))
        parts.append(
            f"{label}: {game.provinces[seat]} provinces, {ducats(game.ducats[seat])}"
            + (f", captains {captains}" if captains else "")
        )
    return "; ".join(parts)
