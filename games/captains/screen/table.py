"""The table: on the board, this seat's city state and purse, the contest under way (a battle
with both sides step by step, an offer waiting for its answer, the city states to pick), the
choices the number keys make that are no card of the hand, this seat's captains with what is
attached and their TFR, and its neighbours; beside it, every seat's row; and why a seat's row
is worth what it is (its whole table, captain by captain)."""

from __future__ import annotations

from condottiere.games.captains.cards import CARDS, FORCE, KIND, Kind, card_name, ducats
from condottiere.games.captains.cities import CITIES
from condottiere.games.captains.figures import (
    army,
    captain_tfr,
    income,
    neighbours,
    side_strength,
    upkeep,
)
from condottiere.games.captains.game import TURNS, Battle, SeatView
from condottiere.games.captains.moves import Move, Verb
from condottiere.games.captains.phase import Phase
from condottiere.games.captains.screen.choices import (
    CARD_PHASES,
    bundle_words,
    card_of,
    hand_kinds,
    keyed,
)
from condottiere.games.captains.screen.scene import seat_view, tag
from condottiere.games.captains.turn import upkeep_of
from condottiere.interface.screen import Explanation, Line, Scene, SeatShown, cells, crop, fit

__all__ = ["BOARD_LINES", "BOARD_WIDTH", "board", "explain", "rows", "short_city"]

BOARD_WIDTH = 44
"""Cells the board takes; the rows take the rest (35 at 80 columns)."""
ROW_FIGURES = 23
"""Cells a row's figures take after the name: city, provinces, ducats, hand, TFR."""
HEADER = f"{'city':<4} {'prov':>4}{'duc':>4}{'hand':>5}{'TFR':>4}"
BOARD_LINES = 9
"""Lines the board and the rows take: the rows' header and eight seats."""


def short_city(city: str | None) -> str:
    """A city state in three letters (``Mil``, ``Pap``); ``-`` before it is picked."""
    return "-" if city is None else CITIES[city].name[:3]


def _mark(shown: SeatShown | None, seat: int | None) -> tuple[str, str]:
    if shown is None:
        return ("class:empty", "?" if seat is None else str(seat))
    return (f"class:seat.{shown.seat} bold", shown.mark)


def _named(scene: Scene, seat: int | None) -> Line:
    """A seat as the board names it: its mark, then ``you`` or its name."""
    shown = scene.seats.get(seat)
    return [_mark(shown, seat), ("", f" {scene.seats.who(seat)}")]


# ---------------------------------------------------------------------- the board


def board(scene: Scene, width: int, height: int) -> list[Line]:
    """This seat's part of the table and the contest under way, cut to ``height`` lines."""
    view = seat_view(scene)
    if view.phase is Phase.CITY or view.cities[view.seat] is None:
        lines = _cities(scene, width)
    else:
        lines = [_domain(view, width), *_contest(scene, width), *_keyed(scene, width)]
        tail = [_neighbours(scene)]
        lines += _captains(view, width, height - len(lines) - len(tail))
        lines += tail
        lines += _hand_in_full(view, width, height - len(lines))
    return [crop(line, width) for line in lines[:height]]


def _hand_in_full(view: SeatView, width: int, room: int) -> list[Line]:
    """The hand's cards with their whole names, and what each event does, on the board's
    lines left over (the hand's own line shortens the names to fit): the cards this seat
    may use now first."""
    kinds = [card for card, _ in hand_kinds(view.hand)]
    if room < 2 or not kinds:
        return []
    usable = {card_of(move, view) for move in view.legal_moves}
    kinds.sort(key=lambda card: card not in usable)
    lines: list[Line] = [[("class:title", " In hand")]]
    for card in kinds[: room - 1]:
        effect = CARDS[card].effect
        does = f": {effect.value}" if KIND[card] is Kind.EVENT and effect is not None else ""
        style = "class:choosable" if card in usable else ""
        lines.append([(style, fit(f"  {card_name(card)} {tag(card)}{does}", width))])
    return lines


def _cities(scene: Scene, width: int) -> list[Line]:
    """The city states: who took each, and the keys that pick the others."""
    view = seat_view(scene)
    keys = keyed(scene)
    chosen = scene.chosen
    owners = {city: seat for seat, city in enumerate(view.cities) if city is not None}
    lines: list[Line] = [[("class:title", " City states"), ("class:detail", "  (picked in turn)")]]
    for city in CITIES.values():
        move = f"city {city.id}"
        owner = owners.get(city.id)
        if owner is not None:
            head: list[tuple[str, str]] = [("", "  "), _mark(scene.seats.get(owner), owner)]
            name_style = f"class:seat.{owner}"
        else:
            key = keys.get(move)
            head = [("class:key", f"  {key}" if key else "   ")]
            name_style = "class:chosen" if move == chosen else (
                "class:choosable" if move in scene.choices.moves else "")
        room = width - 4 - 13
        lines.append([*head, ("", " "), (name_style, f"{city.name:<12}"),
                      ("class:detail", " " + fit(city.power, room))])
    return lines


def _domain(view: SeatView, width: int) -> Line:
    seat = view.seat
    city = view.cities[seat]
    assert city is not None
    provinces = view.provinces[seat]
    text = (
        f" {provinces} province{'s' if provinces != 1 else ''} · {ducats(view.ducats[seat])}"
        f" · +{income(view, seat)} a turn"
    )
    if seat in view.defeated or seat in view.departed:
        text = " · defeated" if seat in view.defeated else " · left the table"
    return [("class:title", f" {CITIES[city].name}"), ("", fit(text, width - 1 - cells(city)))]


def _contest(scene: Scene, width: int) -> list[Line]:
    view = seat_view(scene)
    if view.battle is not None:
        return _battle(scene, view.battle, width)
    offer = view.offer
    if offer is not None and offer.give is not None and offer.get is not None:
        return [
            [("class:contest", " Offer: "), *_named(scene, view.active), ("", " to "),
             *_named(scene, offer.seat)],
            [("class:detail", "  gives "), ("", fit(bundle_words(offer.give), width - 9))],
            [("class:detail", "  asks  "), ("", fit(bundle_words(offer.get), width - 9))],
        ]
    return []


def _battle(scene: Scene, battle: Battle, width: int) -> list[Line]:
    view = seat_view(scene)
    lines: list[Line] = [
        [("class:contest", " Battle: "), *_named(scene, battle.attacker), ("", " attacks "),
         *_named(scene, battle.defender)]
    ]
    for seat in (battle.attacker, battle.defender):
        steps, total = side_strength(view, battle, seat)
        mark = [("", "  "), _mark(scene.seats.get(seat), seat), ("", " ")]
        if not steps:
            lines.append([*mark, ("class:detail", "no block yet")])
            continue
        total_text = f" = {total}"
        parts = [f"{_step_name(steps[0][0])} TFR {steps[0][1]}"]
        parts += [f"+{_step_name(name)} {value}" for name, value in steps[1:]]
        room = width - 4 - len(total_text)
        lines.append([*mark, ("", fit(" ".join(parts), room)), ("class:strength", total_text)])
    return lines


def _step_name(name: str) -> str:
    return CITIES[name].name if name in CITIES else card_name(name)


def _keyed(scene: Scene, width: int) -> list[Line]:
    """The numbered choices that are no card of the hand (an attack, a block...)."""
    view = seat_view(scene)
    if not scene.my_turn or view.phase in CARD_PHASES:
        return []
    lines: list[Line] = []
    for number, text in enumerate(scene.choices.numbered, start=1):
        if not text:  # a key whose choice is gone this phase
            continue
        move = Move.parse(text)
        style = "class:chosen" if text == scene.chosen else "class:choosable"
        lines.append([("class:key", f" {number} "), (style, fit(_label(scene, move), width - 4))])
    return lines


def _label(scene: Scene, move: Move) -> str:
    view = seat_view(scene)
    verb = move.verb
    if verb is Verb.ATTACK and move.captain is not None:
        tfr = captain_tfr(view, view.seat, move.captain)
        return f"attack {scene.seats.who(move.seat)} with {card_name(move.captain)} ({tfr})"
    if verb is Verb.BLOCK and move.captain is not None:
        tfr = captain_tfr(view, view.seat, move.captain)
        return f"block with {card_name(move.captain)} ({tfr})"
    if verb is Verb.EMERGENCY and move.card is not None:
        return f"{card_name(move.card)} into play for {ducats(FORCE[move.card])}"
    if verb is Verb.DISMISS and move.card is not None and move.captain is not None:
        return f"dismiss {card_name(move.card)} from {card_name(move.captain)}"
    if verb is Verb.DISBAND and move.captain is not None:
        return f"disband {card_name(move.captain)}"
    return str(move)


def _captains(view: SeatView, width: int, room: int) -> list[Line]:
    if room <= 0:
        return []
    mine = army(view, view.seat)
    if not mine:
        return [[("class:detail", " No captain in play")]]
    lines: list[Line] = [
        [("class:title", " Your captains"), ("class:detail", f"  upkeep {upkeep(view, view.seat)}")]
    ]
    captains = list(mine.items())
    if len(captains) > room - 1:
        shown = max(0, room - 2)
        rest = len(captains) - shown
        captains = captains[:shown]
    else:
        rest = 0
    for captain, attached in captains:
        tfr = f" TFR {captain_tfr(view, view.seat, captain)}"
        words = f"  {card_name(captain)} {FORCE[captain]}" + "".join(
            f" +{card_name(card)}" for card in attached
        )
        lines.append([("", fit(words, width - len(tfr))), ("class:strength", tfr)])
    if rest:
        lines.append([("class:detail", f"  and {rest} more (↓ explains your row)")])
    return lines[:room]


def _neighbours(scene: Scene) -> Line:
    view = seat_view(scene)
    line: Line = [("class:detail", " Neighbours:")]
    for seat in neighbours(view, view.seat):
        line += [("", " "), *_named(scene, seat)]
    if len(line) == 1:
        line.append(("class:detail", " none"))
    turns = view.turns[view.seat]
    first = turns == 0 or (turns == 1 and view.active == view.seat)
    if first and view.phase is not Phase.OVER:
        line.append(("class:detail", " · first turn: no attack"))
    return line


# ---------------------------------------------------------------------- the rows


def rows(scene: Scene, width: int, height: int) -> list[Line]:
    """A header, then every seat: whose turn it is (``>``), its mark and name, city state,
    provinces, ducats, cards in hand and the TFR of its captains in play."""
    view = seat_view(scene)
    name_width = max(4, min(10, width - 3 - ROW_FIGURES))
    lines: list[Line] = [
        [("class:title", f"{' Seats':<{3 + name_width}}"), ("class:detail", f" {HEADER}")]
    ]
    for shown in scene.seats:
        seat = shown.seat
        if seat >= view.players:
            continue
        name = "you" if shown.you else shown.name
        style = f"class:seat.{seat}"
        line: Line = [
            ("class:turn", ">") if view.to_act == seat else ("", " "),
            (f"{style} bold", shown.mark),
            ("", " "),
            ("class:you" if shown.you else style, f"{fit(name, name_width):<{name_width}}"),
        ]
        if seat in view.departed or seat in view.defeated:
            gone = "left the table" if seat in view.departed else "defeated"
            line.append(("class:empty", f" {short_city(view.cities[seat]):<4}{gone}"))
        else:
            armies = sum(captain_tfr(view, seat, c) for c in army(view, seat))
            line.append((
                "class:you" if shown.you else "",
                f" {short_city(view.cities[seat]):<4} {view.provinces[seat]:>4}"
                f"{view.ducats[seat]:>4}{view.hand_sizes[seat]:>5}{armies or '-':>4}",
            ))
        if shown.link is not None:
            line.append(("class:alert", " no link"))
        lines.append(crop(line, width))
    return lines[:height]


# ---------------------------------------------------------------------- why a row


def explain(scene: Scene, seat: int, width: int) -> Explanation:
    """``seat``'s whole table: its city state, provinces and revenue, ducats, hand (and the
    cards of it this seat has seen), and each captain with his cards and TFR."""
    view = seat_view(scene)
    shown = scene.seats.get(seat)
    whose = "your" if shown is not None and shown.you else f"{scene.seats.who(seat)}'s"
    if not 0 <= seat < view.players:
        return Explanation(f"Nobody sits at seat {seat}", ())
    provinces = view.provinces[seat]
    title = f"Why is {whose} row worth {provinces} province{'s' if provinces != 1 else ''}?"
    city = view.cities[seat]
    lines: list[Line] = []

    def add(text: str, style: str = "") -> None:
        lines.append([(style, fit("   " + text, width))])

    if city is None:
        add("no city state yet", "class:detail")
    else:
        revenue = ", ".join(card_name(card) for card in view.revenues[seat]) or "none"
        add(f"{CITIES[city].name} ({CITIES[city].power}) · revenue cards: {revenue} · "
            f"+{income(view, seat)} ducats a turn")
    hand = f"{ducats(view.ducats[seat])} · turn {view.turns[seat]} of {TURNS} · "
    hand += f"{view.hand_sizes[seat]} cards in hand"
    known = view.known[seat] if seat != view.seat else ()
    if known:
        hand += ", seen: " + ", ".join(card_name(card) for card in known)
    add(hand)
    captains = army(view, seat)
    for captain, attached in captains.items():
        tfr = captain_tfr(view, seat, captain)
        parts = [f"{card_name(captain)} {FORCE[captain]}"]
        parts += [f"{card_name(card)} {FORCE[card]}" for card in attached]
        cost = upkeep_of({captain: attached}, city)
        add(f"{' + '.join(parts)} = TFR {tfr} (upkeep {cost})")
    if not captains:
        add("no captain in play", "class:detail")
    return Explanation(title, tuple(lines))
