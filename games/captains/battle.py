"""The battle phase (RULES.md items 27-39): attacks declared one at a time, the block (with
emergency defence first), battle cards in turn, the outcome, and a province taken.

>>> from condottiere.games.captains.game import Game
>>> g = Game.setup(2, cities=["milan", "pisa"], hands=[["ambush"], ["reserve"]],
...                armies=[{"gonzaga": ["pikemen"]}, {"faggiuola": []}], turns=[1, 1], seed=0,
...                deck=["rally"])
>>> for move in ("done", "pay", "done", "attack gonzaga 1", "block faggiuola", "play ambush",
...              "play reserve", "pass"):
...     g.play(move)
>>> g.army(1), g.army(0)      # 4+1 +2 (Milan) +5 = 12 against 3 +2 (Pisa) +4 = 9: no troop
({}, {'gonzaga': ('pikemen',)})
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from condottiere.games.captains.cards import CARDS, FORCE, KIND, ORDER, Effect, Kind, card_name
from condottiere.games.captains.cities import CITIES
from condottiere.games.captains.hands import Then, discard_cards, take
from condottiere.games.captains.phase import Battle, Phase
from condottiere.games.captains.setup import note
from condottiere.games.captains.turn import enter_battle, leaves_play
from condottiere.interface.game import ToldKind

if TYPE_CHECKING:
    from condottiere.games.captains.game import Game

__all__ = [
    "attack",
    "block",
    "cede_province",
    "enter_block",
    "fighting_strength",
    "losable_troops",
    "lose_troop",
    "no_block",
    "pass_battle",
    "play_battle_card",
]

CHEAPEST_CAPTAIN = min(FORCE[c] for c in CARDS if KIND[c] is Kind.CAPTAIN)


def attack(game: Game, seat: int, captain: str, target: int) -> None:
    game._attacked = game._attacked | {captain}
    game._must_attack = game._must_attack - {captain}  # the order is obeyed (RULES.md 23)
    game._battle = Battle(seat, target, captain)
    note(
        game,
        ToldKind.CHANGE,
        f"{card_name(captain)} (TFR {game.tfr(captain)}) of {{0}} attacks {{1}}",
        seat,
        target,
    )
    enter_block(game)


def enter_block(game: Game) -> None:
    """The defender is asked to block, unless it has no captain and cannot get one."""
    battle = game._battle
    assert battle is not None
    defender = battle.defender
    if not game._army[defender] and (
        game._sizes[defender] == 0 or game._ducats[defender] < CHEAPEST_CAPTAIN
    ):
        no_block(game)
        return
    game._phase = Phase.BLOCK
    game._to_act = defender
    game._legal = None


def no_block(game: Game) -> None:
    """The attack goes unblocked: the defender gives a province (RULES.md 32)."""
    battle = game._battle
    assert battle is not None
    note(
        game,
        ToldKind.RESULT,
        "the attack is not blocked: {0} takes a province of {1}",
        battle.attacker,
        battle.defender,
        about=battle.attacker,
    )
    cede_province(game, battle.defender, battle.attacker, _attack_over)


def cede_province(game: Game, giver: int, receiver: int, then: Then) -> None:
    """``giver`` gives ``receiver`` a province, a bare one first, with its revenue card
    otherwise; a seat left without a province is defeated (RULES.md 43)."""
    from condottiere.games.captains.ending import defeat

    bare = game._provinces[giver] - len(game._revenues[giver])
    game._provinces[giver] -= 1
    game._provinces[receiver] += 1
    if bare <= 0:
        revenue = min(game._revenues[giver], key=ORDER.__getitem__)
        game._revenues[giver].remove(revenue)
        game._revenues[receiver].append(revenue)
    if game._provinces[giver] == 0:
        defeat(game, giver, receiver, then)
    else:
        then(game)


def block(game: Game, seat: int, captain: str) -> None:
    battle = game._battle
    assert battle is not None
    battle.blocker = captain
    battle.to_play = battle.attacker
    battle.passes = 0
    note(
        game,
        ToldKind.CHANGE,
        f"{card_name(captain)} (TFR {game.tfr(captain)}) of {{0}} blocks",
        seat,
    )
    _next_card(game)


def _next_card(game: Game) -> None:
    """Ask the side whose turn it is for a battle card; a side with no card passes."""
    battle = game._battle
    assert battle is not None
    while battle.passes < 2:
        if game._sizes[battle.to_play]:
            game._phase = Phase.CLASH
            game._to_act = battle.to_play
            game._legal = None
            return
        battle.passes += 1
        battle.to_play = _other(battle, battle.to_play)
    _decide(game)


def _other(battle: Battle, seat: int) -> int:
    return battle.defender if seat == battle.attacker else battle.attacker


def play_battle_card(game: Game, seat: int, card: str) -> None:
    battle = game._battle
    assert battle is not None
    take(game, seat, card)
    discard_cards(game, (card,))
    if seat == battle.attacker:
        battle.attack_cards += (card,)
    else:
        battle.defence_cards += (card,)
    if CARDS[card].effect is Effect.NEGATE:
        note(game, ToldKind.RESULT, f"{card_name(card)}: the battle is negated, nobody wins")
        _attack_over(game)
        return
    battle.passes = 0
    battle.to_play = _other(battle, seat)
    _next_card(game)


def pass_battle(game: Game, seat: int) -> None:
    battle = game._battle
    assert battle is not None
    battle.passes += 1
    battle.to_play = _other(battle, seat)
    _next_card(game)


def fighting_strength(game: Game, battle: Battle, seat: int) -> int:
    """A side's TFR in the battle: its captain's, its city's bonus, its battle cards."""
    city = game._city[seat]
    if seat == battle.attacker:
        bonus = CITIES[city].attack if city else 0
        return game.tfr(battle.captain) + bonus + sum(FORCE[c] for c in battle.attack_cards)
    assert battle.blocker is not None
    bonus = CITIES[city].defence if city else 0
    return game.tfr(battle.blocker) + bonus + sum(FORCE[c] for c in battle.defence_cards)


def _breakdown(game: Game, battle: Battle, seat: int) -> str:
    """A side's strength step by step: ``Gonzaga TFR 5 + Milan 2 + Ambush 5 = 12``."""
    city = game._city[seat]
    attacking = seat == battle.attacker
    captain = battle.captain if attacking else battle.blocker
    assert captain is not None
    parts = [f"{card_name(captain)} TFR {game.tfr(captain)}"]
    bonus = 0 if city is None else CITIES[city].attack if attacking else CITIES[city].defence
    if bonus and city is not None:
        parts.append(f"{CITIES[city].name} {bonus}")
    cards = battle.attack_cards if attacking else battle.defence_cards
    parts += [f"{card_name(card)} {FORCE[card]}" for card in cards]
    return f"{' + '.join(parts)} = {fighting_strength(game, battle, seat)}"


def _details(game: Game, battle: Battle) -> None:
    for seat in (battle.attacker, battle.defender):
        note(game, ToldKind.DETAIL, f"{{0}}: {_breakdown(game, battle, seat)}", seat)


def _decide(game: Game) -> None:
    battle = game._battle
    assert battle is not None and battle.blocker is not None
    attack_tfr = fighting_strength(game, battle, battle.attacker)
    defence_tfr = fighting_strength(game, battle, battle.defender)
    figures = f"attack {attack_tfr} against defence {defence_tfr}"
    if attack_tfr == defence_tfr:
        note(game, ToldKind.RESULT, f"a tie, {figures}: no one wins")
        _details(game, battle)
        _attack_over(game)
        return
    won = attack_tfr > defence_tfr
    winner = battle.attacker if won else battle.defender
    loser, beaten = (battle.defender, battle.blocker) if won else (battle.attacker, battle.captain)
    note(game, ToldKind.RESULT, f"{{0}} wins the battle, {figures}", winner, about=winner)
    _details(game, battle)
    battle.beaten = beaten
    troops = losable_troops(game, loser, beaten)
    if len(troops) > 1:  # the owner chooses (RULES.md 38)
        game._phase = Phase.LOSS
        game._to_act = loser
        game._legal = None
        return
    if troops:
        lose_troop(game, loser, troops[0])
        return
    leaves_play(game, loser, beaten)
    note(game, ToldKind.CHANGE, f"{card_name(beaten)} of {{0}} is discarded", loser)
    _after_loss(game)


def losable_troops(game: Game, seat: int, captain: str) -> list[str]:
    """The troops ``captain`` of ``seat`` may discard when beaten, each name once, in notation
    order."""
    attached = game._army[seat][captain]
    return sorted({card for card in attached if KIND[card] is Kind.TROOP}, key=ORDER.__getitem__)


def lose_troop(game: Game, seat: int, troop: str) -> None:
    """The beaten captain of ``seat`` discards ``troop`` (RULES.md 38)."""
    battle = game._battle
    assert battle is not None and battle.beaten is not None
    game._army[seat][battle.beaten].remove(troop)
    discard_cards(game, (troop,))
    note(
        game,
        ToldKind.CHANGE,
        f"{card_name(battle.beaten)} of {{0}} loses {card_name(troop)}",
        seat,
    )
    _after_loss(game)


def _after_loss(game: Game) -> None:
    battle = game._battle
    assert battle is not None
    won = battle.beaten == battle.blocker
    winner, loser = battle.attacker, battle.defender
    if won and "spoils" in game.options:
        note(game, ToldKind.CHANGE, "the spoils: {0} takes a province of {1}", winner, loser)
        cede_province(game, loser, winner, _attack_over)
    else:
        if won:
            note(game, ToldKind.CHANGE,  # RULES.md 39
                 "the attack was blocked: {0} takes no province of {1}", winner, loser)
        _attack_over(game)


def _attack_over(game: Game) -> None:
    game._battle = None
    if game._phase is Phase.OVER:
        return
    enter_battle(game)
