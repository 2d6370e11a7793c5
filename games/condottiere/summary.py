"""The rules of an edition in a few lines, for a player at the table (a client's help screen).

Every sentence comes from the edition's data, so a summary never disagrees with the rules
the engine plays.

>>> lines = rules_summary("zman", players=4)
>>> lines[0]
'Z-Man 2018, the new version (zman), 4 players'
>>> lines[1].split(". ")[0]
'Goal: control 3 connected regions, or 5 in all, and you win at once'
>>> any(line.startswith("Courtesan") for line in lines)
False
"""

from __future__ import annotations

from collections.abc import Iterable

from condottiere.games.condottiere.cards import card_name
from condottiere.games.condottiere.editions import EDITIONS, Edition

__all__ = ["rules_summary"]


def rules_summary(edition: str, players: int, options: Iterable[str] = ()) -> tuple[str, ...]:
    """The rules of ``edition`` at a table of ``players``, one short paragraph a line: the
    goal, a battle, the cards of its deck, and the refill. ValueError for an unknown edition
    or an option it does not allow."""
    if edition not in EDITIONS:
        raise ValueError(f"unknown edition {edition!r}")
    chosen = tuple(sorted(options))
    rules = EDITIONS[edition].with_options(chosen)
    header = f"{rules.title} ({rules.name}), {players} players"
    if chosen:
        header += f", options: {', '.join(chosen)}"
    return (header, _goal(rules, players), *_battle(rules), *_cards(rules), *_refill(rules))


def _goal(rules: Edition, players: int) -> str:
    victory = rules.victory(players)
    if not rules.board:
        return f"Goal: be the first to win {victory.connected} battles."
    total = "" if victory.total is None else f", or {victory.total} in all"
    goal = f"Goal: control {victory.connected} connected regions{total}, and you win at once."
    if rules.no_region_left == "most-wins":
        goal += " With no region left to fight for, most regions wins (ties share)."
    elif rules.no_region_left == "final-battle":
        goal += (
            " With no region left to fight for, the players tied for most regions fight a"
            " final battle."
        )
    return goal


def _battle(rules: Edition) -> tuple[str, ...]:
    if not rules.board:
        opening = "A battle: the battle-marker holder plays first."
    else:
        markers = ["the Favor"] if rules.favor != "none" else []
        if not rules.battle_in_owned:
            markers.insert(0, "a control marker")
        where = f"a region without {' or '.join(markers)}" if markers else "any region"
        opening = f"A battle: the battle-marker holder picks {where}."
    if rules.may_cede:
        opening += " He may instead cede the marker to his left ('cede')."
    turns = (
        "In turn, clockwise, each player plays one card face up into his row, or passes and is"
        " out of the battle. When all have passed, the strongest row wins"
        + (" the region." if rules.board else " the battle.")
    )
    if rules.owner_defends:
        turns += " The owner of a region defends it: he may pass and come back until he plays."
    marker = "The winner takes the battle marker"
    if rules.marker_card is not None:
        marker += f", unless one player has strictly most {_plural(rules.marker_card)}"
    ties = {
        "random": "a fair random draw among the tied gives the marker",
        "next-clockwise": "the marker goes to the next player clockwise",
        "holder-or-owner": "the holder keeps the marker (the region's owner takes it)",
    }[rules.tie_marker]
    return opening, turns, f"{marker}. A tie: nobody wins, and {ties}."


def _plural(card: str) -> str:
    name = card_name(card)
    return name[:-1] + "ies" if name.endswith("y") else name + "s"


def _cards(rules: Edition) -> tuple[str, ...]:
    deck = {card for card, _ in rules.cards}
    lines = ["Mercenaries 1 to 10: worth their number."]
    season_rule = (
        "a season card replaces the one in play"
        if rules.seasons_replace
        else "it discards the other season's cards"
    )
    described = {
        "heroine": "Heroine: 10, changed by nothing.",
        "spy": "Spy: 1; the player with most Spies takes the battle marker.",
        "courtesan": "Courtesan: 1; the player with most Courtesans takes the battle marker.",
        "drummer": "Drummer: doubles your mercenaries.",
        "winter": f"Winter: every mercenary in every row is worth 1 ({season_rule}).",
        "spring": f"Spring: the highest mercenaries on the table get +3 ({season_rule}).",
        "bishop": _bishop(rules),
        "scarecrow": "Scarecrow: take a mercenary of "
        + ("any row" if rules.scarecrow_any_row else "your row")
        + " back into your hand.",
        "turncoat": "Turncoat: ends the battle at once.",
        "surrender": "Surrender: ends the battle at once.",
    }
    lines.extend(text for card, text in described.items() if card in deck)
    steps: list[str] = [card for card in ("winter", "drummer", "spring") if card in deck]
    if rules.bishop == "discard-highest":
        steps.insert(0, "bishop")
    flat = [card_name(card) for card in ("heroine", "spy", "courtesan") if card in deck]
    order = ", ".join(map(card_name, [*steps, *flat]))
    lines.append(f"A row's strength is worked out in this order: mercenaries, {order}.")
    return tuple(lines)


def _bishop(rules: Edition) -> str:
    if rules.bishop == "ends-battle":
        return "Bishop: ends the battle at once; nobody wins it."
    text = "Bishop: discards every mercenary of the highest value, in every row"
    if rules.favor == "empty-region":
        text += "; you then place the Favor on an empty region (no battle there)"
    elif rules.favor == "uncontrolled-or-off":
        text += "; you then place the Favor on a region with no marker, or off the board"
    return text + "."


def _refill(rules: Edition) -> tuple[str, ...]:
    dealt = f"{rules.hand_size} cards + {rules.bonus_per_region} per region controlled"
    if rules.refill == "draw-up":
        return (
            f"After each battle both draw back up to {rules.hand_size} from their own deck;"
            " played cards leave the game.",
        )
    discard = "After a battle, a player holding no mercenary may discard his hand."
    refill = {
        "when-none": f"When nobody holds cards, everyone is dealt {dealt}.",
        "when-one-keeps-two": "When at most one player holds cards, he keeps up to two"
        f" ('retain'); everyone is dealt {dealt}.",
        "when-one": f"When at most one player holds cards, everyone is dealt {dealt}.",
    }[rules.refill]
    return discard, refill
