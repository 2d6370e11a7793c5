"""What the keys choose among on a seat's turn, and what a move would do before it is played.

In a battle the choices are the cards in the hand's order (a Scarecrow once per mercenary it
may take), then ``pass``; the keys 1-9 choose the kinds of card that may be played, and Space
passes. Otherwise they are every legal move, regions in the map's reading order.

>>> from condottiere.games.condottiere import Game
>>> game = Game.setup("zman", players=2, first=0, battle="Firenze",
...                   hands=[["10", "winter", "10"], ["3"]])
>>> choices(game.view(0))
Choices(moves=('play 10', 'play winter', 'pass'), numbered=('play 10', 'play winter'), space='pass')
>>> hand_kinds(game.view(0).hand)
[('10', 2), ('winter', 1)]
"""

from __future__ import annotations

from collections.abc import Sequence

from condottiere.games.condottiere.board import ADJACENT, TEXT_MAP
from condottiere.games.condottiere.game import SeatView
from condottiere.games.condottiere.moves import Move
from condottiere.games.condottiere.screen.scene import game_of, seat_view
from condottiere.interface.screen import Choices, Scene

__all__ = ["NUMBER_KEYS", "choices", "chosen_move", "effect", "hand_kinds"]

NUMBER_KEYS = 9
"""The keys 1 to 9 choose a kind of card each."""
PASS = Move("pass")


def hand_kinds(hand: Sequence[str]) -> list[tuple[str, int]]:
    """Each kind of card in ``hand``, in the hand's order, with its count."""
    kinds: dict[str, int] = {}
    for card in hand:
        kinds[card] = kinds.get(card, 0) + 1
    return list(kinds.items())


def _reading_order(move: Move) -> tuple[int, int, str]:
    """Regions as the map is read (line by line, left to right); other moves as they come."""
    if move.region is not None and move.region in TEXT_MAP:
        line, column = TEXT_MAP[move.region]
        return line, column, ""
    return 99, 0, str(move)


def choices(view: SeatView) -> Choices:
    """What the keys choose among when it is ``view``'s seat's turn."""
    moves = view.legal_moves
    if view.phase != "battle":
        return Choices(tuple(str(move) for move in sorted(moves, key=_reading_order)))
    order = {card: index for index, (card, _) in enumerate(hand_kinds(view.hand))}
    plays = sorted(
        (move for move in moves if move.verb == "play"),
        key=lambda move: order.get(str(move.card), len(order)),
    )
    first_plays = {str(move.card): str(move) for move in reversed(plays)}
    numbered = [first_plays[card] for card in order if card in first_plays]
    return Choices(
        tuple(str(move) for move in [*plays, *(move for move in moves if move.verb != "play")]),
        tuple(numbered[:NUMBER_KEYS]),
        str(PASS) if PASS in moves else None,
    )


def chosen_move(scene: Scene) -> Move | None:
    """The move the choice under the cursor plays."""
    return None if scene.chosen is None else Move.parse(scene.chosen)


def effect(scene: Scene, text: str) -> str:
    """What playing ``text`` would do to the rows' strengths, or what it means, in a few
    words; empty when it says nothing worth adding."""
    view, game = seat_view(scene), game_of(scene)
    try:
        move = Move.parse(text)
    except ValueError:
        return ""
    if move.verb == "battle" and move.region is not None:
        return "borders " + ", ".join(sorted(ADJACENT[move.region]))
    if game is None or move not in view.legal_moves:
        return ""
    if move == PASS:
        return "you are out of this battle"
    if move.verb != "play":
        return ""
    after = game.copy()
    try:
        after.play(move)
    except ValueError:
        return ""
    if after.last_battle is not game.last_battle:
        return f"ends the battle: your row {game.strength(view.seat)} at the end"
    changes = [
        f"{'yours' if seat == view.seat else scene.seats.who(seat)} {game.strength(seat)} -> "
        f"{after.strength(seat)}"
        for seat in range(view.players)
        if after.strength(seat) != game.strength(seat)
    ]
    return "strength: " + ", ".join(changes) if changes else "no change in strength"
