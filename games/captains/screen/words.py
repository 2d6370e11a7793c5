"""Captains' words on the screen: what the seat to act must decide (the headline), the state
of the table in one line, where each seat stands at the end, and the game's part of the help
page, which begins with what the phase under way is about (``?`` explains the phase).

>>> from condottiere.interface.game import TableRules
>>> page = help_page(TableRules("captains", "standard", 3), None)
>>> page[0], page[page.index("Rules") + 1][:40]
('Condottieri Captains', '  Condottieri Captains for 3 players: ea')
"""

from __future__ import annotations

from typing import Any

from condottiere.games.captains.cards import card_name, ducats
from condottiere.games.captains.figures import captain_tfr
from condottiere.games.captains.game import TURNS, Game
from condottiere.games.captains.phase import Phase
from condottiere.games.captains.screen.choices import bundle_words
from condottiere.games.captains.screen.scene import seat_view
from condottiere.games.captains.summary import rules_summary
from condottiere.interface.game import GameState, TableRules
from condottiere.interface.screen import Scene

__all__ = ["HELP", "PHASE_HELP", "headline", "help_page", "standing", "status"]

WAITING_WORDS = {
    Phase.CITY: ("pick your city state", "is picking a city state"),
    Phase.MULLIGAN: (
        "keep your hand (proving a captain, showing none) or take a mulligan",
        "is deciding on a mulligan",
    ),
    Phase.RECRUIT: (
        "recruit a captain, attach troops, traits and revenue, or done",
        "is recruiting",
    ),
    Phase.UPKEEP: ("pay the upkeep (or dismiss troops, disband)", "is paying upkeep"),
    Phase.EVENTS: ("play events, or done", "is playing events"),
    Phase.BATTLE: ("attack a neighbour, or done", "is choosing whom to attack"),
    Phase.BLOCK: ("block the attack, or not", "is choosing a blocker"),
    Phase.CLASH: ("play a battle card or pass", "is playing battle cards"),
    Phase.DIPLOMACY: ("make an offer, or done", "is making offers"),
    Phase.ANSWER: ("accept the offer or refuse it", "is answering an offer"),
    Phase.HAND_LIMIT: ("discard down to your hand limit", "is discarding to the hand limit"),
    Phase.LOSS: ("choose the troop your beaten captain loses", "is choosing a troop to lose"),
}
"""Per phase: what this seat must decide, and what another seat is doing."""

PHASE_HELP = {
    Phase.CITY: "Picking city states: in turn, the last player first, each seat takes one of"
    " the eight; each has a power (see the board). Keys 1-8 pick one.",
    Phase.MULLIGAN: "The starting hand: keep it (keep: your peer proves to everyone that it"
    " holds a captain, without showing which), or, without a captain, show and discard it and"
    " draw again (mulligan, at most 3 times).",
    Phase.RECRUIT: "Recruit: put one captain into play for free (captain NAME), others by"
    " emergency defence for ducats equal to their TFR (emergency NAME); attach troops and"
    " traits to your captains (attach CARD CAPTAIN), revenue cards to a province without one"
    " (revenue CARD); then done. Keys 1-9: a card of your hand.",
    Phase.UPKEEP: "Upkeep: each captain costs half his TFR, rounded up. Pay it (Space), or first"
    " dismiss troops (dismiss TROOP CAPTAIN) or disband a captain with his cards (disband"
    " CAPTAIN) to lower it.",
    Phase.EVENTS: "Events: play event cards on another seat or a captain it controls (event CARD"
    " SEAT or event CARD CAPTAIN), as many as you like; then done (Space).",
    Phase.BATTLE: "Battle: attack a neighbour with a captain (attack CAPTAIN SEAT), one attack at"
    " a time, each captain once; the defender blocks or gives a province; then done (Space)."
    " No attack on one's first turn.",
    Phase.BLOCK: "Block: a captain of yours may block the attack (block CAPTAIN); without a"
    " block the attacker takes a province (no-block, Space). Before blocking, emergency NAME"
    " puts a captain of your hand into play for ducats equal to his TFR.",
    Phase.CLASH: "The battle: attacker first, each side plays a battle card (play CARD) or"
    " passes (Space); two passes in a row decide it. TFR plus city bonus plus cards: the"
    " higher wins, the loser discards a troop of his choice (or his captain). Negate cards end it"
    " with no winner.",
    Phase.DIPLOMACY: "Diplomacy: offer a deal to any seat in the game (offer SEAT give ITEMS get"
    " ITEMS, items like 3d 1p pikemen gonzaga, or nothing), up to 3 a turn; they accept or"
    " refuse at once. Then done (Space); over your hand limit, you discard.",
    Phase.ANSWER: "An offer: accept it (1) and the goods change hands now, or refuse it (2).",
    Phase.HAND_LIMIT: "Hand limit: 5 cards (Papal States 7) at the end of your diplomacy phase;"
    " discard one card at a time (discard CARD) until the hand is within it.",
    Phase.LOSS: "Your captain lost the battle: he discards one of his troops, which you choose"
    " (dismiss TROOP CAPTAIN).",
    Phase.CHANCE: "Chance: the peers deal, draw lots or search the deck; nobody decides.",
    Phase.OVER: "The game is over: the most provinces wins, then the most ducats.",
}
"""What each phase is about, for the help page."""

HELP = (
    "Condottieri Captains",
    "  Moves: city milan · keep · mulligan · captain gonzaga · emergency gonzaga ·"
    " attach pikemen gonzaga · revenue duchy · pay · dismiss pikemen gonzaga · disband"
    " gonzaga · event spies 1 · attack gonzaga 1 · block faggiuola · no-block · play ambush"
    " · pass · offer 1 give 3d get pikemen · accept · refuse · discard spies · done.",
    "  Keys: 1-9 choose a card of your hand where cards are played, else an attack, a block,"
    " a city state; Space chooses done, pass, no-block or pay; ←/→ move along every move.",
    "  The board: your city state, provinces, ducats and income; the battle under way (each"
    " side's TFR step by step and the cards played) or the offer waiting; your captains with"
    " what is attached and their TFR; your neighbours, whom you may attack. Beside it, each"
    " seat: city, provinces, ducats, cards in hand, TFR in play (> whose move it is); ↑/↓"
    " show a seat's whole table. Below: your hand (bold: usable now).",
    "  Cards: C captain (level), S troop, A trait (+force on a captain), E event, B battle"
    " card (+force in a battle), R revenue.",
)
"""Everything but the phase and the rules."""


def headline(scene: Scene, actor: int | None) -> str:
    """``Your turn: play a battle card or pass``, or ``Bob is recruiting``; an attack or an
    offer on this seat says who attacks with what, who offers what."""
    view = seat_view(scene)
    mine, theirs = WAITING_WORDS.get(view.phase, ("decide", "is deciding"))
    if scene.my_turn:
        battle, offer = view.battle, view.offer
        if view.phase is Phase.BLOCK and battle is not None:
            who = scene.seats.who(battle.attacker)
            tfr = captain_tfr(view, battle.attacker, battle.captain)
            mine = f"{who} attacks with {card_name(battle.captain)} ({tfr}): block, or not"
        elif view.phase is Phase.ANSWER and offer is not None and offer.give and offer.get:
            who = scene.seats.who(view.active)
            mine = (
                f"{who} offers {bundle_words(offer.give)} for {bundle_words(offer.get)}:"
                " accept or refuse"
            )
        return f"Your turn: {mine}"
    shown = scene.seats.get(actor)
    if shown is not None and shown.you:  # the peer plays a seat's only legal move itself
        return "Your only legal move is played for you"
    who = scene.seats.who(actor)
    return f"{who[:1].upper()}{who[1:]} {theirs}"


def status(scene: Scene) -> str:
    """Whose turn of how many, the phase, the draw pile and the discards, in one line."""
    view = seat_view(scene)
    parts = []
    if view.active is not None:
        parts.append(f"Turn {view.turns[view.active]} of {TURNS}: {scene.seats.who(view.active)}")
    parts.append(f"phase: {view.phase}")
    parts.append(f"draw pile: {view.draw_pile_size}")
    parts.append(f"discards: {len(view.discard_pile)}")
    return " · ".join(parts)


def standing(scene: Scene) -> tuple[str, ...]:
    """Each seat's provinces, the most first, in one sentence; the ducats of the seats tied
    for the most provinces (they decide between them)."""
    view = seat_view(scene)
    shown = [seat for seat in scene.seats if seat.seat < view.players]
    order = sorted(
        shown,
        key=lambda seat: (-view.provinces[seat.seat], -view.ducats[seat.seat], seat.seat),
    )
    most = max((view.provinces[seat.seat] for seat in shown), default=0)
    tied = sum(1 for seat in shown if view.provinces[seat.seat] == most) > 1
    parts = []
    for seat in order:
        notes = []
        if tied and view.provinces[seat.seat] == most:
            notes.append(ducats(view.ducats[seat.seat]))
        if seat.seat in view.defeated:
            notes.append("defeated")
        elif seat.seat in view.departed:
            notes.append("left")
        name = "you" if seat.you else seat.name
        told = f" ({', '.join(notes)})" if notes else ""
        parts.append(f"{name} {view.provinces[seat.seat]}{told}")
    return (f"Provinces: {', '.join(parts)}.",)


def help_page(table: TableRules, game: GameState[Any] | None) -> tuple[str, ...]:
    """The help's lines: what the phase under way is about (once ``game`` is known), the
    moves, keys and screen, and the rules of ``table`` with the options ``game`` was dealt
    with."""
    phase: tuple[str, ...] = ()
    options = table.options
    if isinstance(game, Game):
        options = tuple(sorted(game.options))
        phase = (f"This phase: {game.phase}", f"  {PHASE_HELP[game.phase]}", "")
    rules = rules_summary(table.seats, options)
    return (*phase, *HELP, "", "Rules", *(f"  {rule}" for rule in rules))
