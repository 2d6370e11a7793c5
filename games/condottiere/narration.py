"""A move of Condottiere and what it changed, told in words: the one narration that the
table's log, the client, ``condottiere demo``, ``replay`` and the bots' explanations share.

A narrated game (:meth:`.game.Game.new` with ``narrated=True``, and every game the plugin
makes for the platform) tells each move as it is played: :func:`before_move` notes the little
the sentences need of the game before the move (no copy of the game), :func:`tell_move`
compares it with the game after. It tells only what the table shows everyone (a hand
discarded face up is named from the cards the move revealed). Its sentences leave the seats
to be named (``{0}`` for seat 0: :class:`~condottiere.interface.game.Sentence`) and carry no
layout: a screen indents them by kind as it likes. :func:`table_words` sums up what the table
shows between moves.

>>> from condottiere.games.condottiere import Game
>>> g = Game.setup("zman", players=2, hands=[["10", "3"], ["2"]], first=0, narrated=True)
>>> names = ("ada", "bob")
>>> def tell(move):
...     start = g.narration_length
...     g.play(move)
...     return [sentence.told(names).text for sentence in g.narration(start)]
>>> tell("battle Milano")
['ada opens a battle in Milano']
>>> tell("play 10")
['ada plays 10; strength 10']
>>> tell("play 2")
['bob plays 2; strength 2']
>>> for line in tell("pass"):
...     print(line)
ada passes
ada wins the battle for Milano with 10 (against bob 2)
ada takes Milano
ada: 10 (mercenaries 10: 10)
bob: 2 (mercenaries 2: 2)
>>> table_words(g, names)
'ada holds the battle marker; board: ada Milano; Favor off the board'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from condottiere.games.condottiere.battle_result import BattleResult
from condottiere.games.condottiere.cards import card_name
from condottiere.games.condottiere.moves import Move
from condottiere.interface.bookkeeping import seat_placeholders
from condottiere.interface.game import Sentence, ToldKind

if TYPE_CHECKING:
    from condottiere.games.condottiere.game import Game

__all__ = ["Before", "battle_begins", "before_move", "table_words", "tell_move"]

CHANGES_EVERY_ROW = frozenset({"winter", "spring", "bishop"})
"""Cards that change every row's strength, not only the player's."""


@dataclass(frozen=True, slots=True)
class Before:
    """What the narration of a move needs of the game before it."""

    seat: int
    phase: str
    favor: str | None
    last_battle: BattleResult | None
    hand_size: int
    control: Mapping[str, int]
    battles_begun: int
    told: int
    """How many sentences the game had told."""


def before_move(game: Game, seat: int) -> Before:
    """What :func:`tell_move` will need of ``game`` before ``seat`` moves."""
    return Before(
        seat,
        game.phase,
        game.favor,
        game.last_battle,
        game.hand_size(seat),
        game.control,
        game._battles_begun,
        game.narration_length,
    )


def tell_move(
    before: Before,
    after: Game,
    move: Move,
    shown: Sequence[str],
    during: Sequence[Sentence] = (),
) -> tuple[Sentence, ...]:
    """``move`` (played by ``before.seat`` on the game ``before`` describes, giving
    ``after``; ``shown`` the cards it revealed) and its consequences; ``during``: what the
    rules told while it was applied (the hands kept that the rules kept by themselves), told
    after the battle the move ended and before the battle that then began, as a seat's
    engine, which is asked for each of those keeps, tells them."""
    seat = before.seat
    names = seat_placeholders(after.players)
    ended = after.last_battle is not before.last_battle and after.last_battle is not None
    told = [Sentence(ToldKind.MOVE, _move(before, after, seat, move, shown, names, ended), seat)]
    if after.favor != before.favor and move.verb != "favor" and after.phase != "favor":
        where = f"on {after.favor}" if after.favor else "off the board"
        told.append(Sentence(ToldKind.CHANGE, f"the Favor goes {where}, the only place it may go"))
    if ended:
        assert after.last_battle is not None
        told += _battle_end(before, after, after.last_battle, names)
    told += during
    began = after._battles_begun != before.battles_begun and after.phase == "battle"
    if began and move.verb != "battle":
        told.append(battle_begins(after))
    return tuple(told)


def _move(
    before: Before,
    after: Game,
    seat: int,
    move: Move,
    shown: Sequence[str],
    names: Sequence[str],
    ended: bool,
) -> str:
    who = names[seat]
    verb = move.verb
    if verb == "battle":
        return f"{who} opens a battle in {move.region}"
    if verb == "cede":
        return f"{who} hands the battle marker to {names[after.battle_marker]}"
    if verb == "pass":
        return f"{who} passes"
    if verb == "favor":
        return (
            f"{who} places the Favor on {move.region}"
            if move.region
            else f"{who} leaves the Favor off the board"
        )
    if verb == "discard":
        return f"{who} discards their hand: {', '.join(map(card_name, shown)) or 'nothing'}"
    if verb == "keep":
        return f"{who} keeps their hand of {before.hand_size} cards"
    if verb == "retain":
        kept = ", ".join(map(card_name, move.cards)) or "nothing"
        return f"{who}, last with cards at the round's end, retains {kept}"
    text = f"{who} plays {card_name(str(move.card))}"
    if move.target is not None:
        target = card_name(move.target)
        text += (
            f", taking back a {target}"
            if move.target_seat is None or move.target_seat == seat
            else f", taking {names[move.target_seat]}'s {target} into their hand"
        )
    if ended:
        return text
    if move.card in CHANGES_EVERY_ROW:
        strengths = ", ".join(f"{names[s]} {after.strength(s)}" for s in range(after.players))
        return f"{text}; strengths now: {strengths}"
    return f"{text}; strength {after.strength(seat)}"


def _battle_end(
    before: Before, after: Game, result: BattleResult, names: Sequence[str]
) -> list[Sentence]:
    where = "the battle" if result.region is None else f"the battle for {result.region}"
    if result.ended_by == "bishop":
        return [Sentence(ToldKind.RESULT, f"the Bishop ends {where}: nobody wins it")]
    if not result.cards_played:
        return [Sentence(ToldKind.RESULT, f"nobody played a card in {where}: nobody wins it")]
    ended = "" if result.ended_by == "passes" else f"; a {card_name(result.ended_by)} ended it"
    strengths = dict(enumerate(result.strengths))
    if result.winner is None:
        best = max(strengths.values())
        tied = " and ".join(names[s] for s, v in strengths.items() if v == best)
        told = [Sentence(ToldKind.RESULT, f"nobody wins {where}: {tied} tie at {best}{ended}")]
    else:
        best = strengths.pop(result.winner)
        others = ", ".join(f"{names[s]} {v}" for s, v in strengths.items())
        text = f"{names[result.winner]} wins {where} with {best} (against {others}){ended}"
        told = [Sentence(ToldKind.RESULT, text, result.winner)]
    region = result.region
    if region is not None:
        owner = after.control.get(region)
        if owner is not None and owner != before.control.get(region):
            told.append(Sentence(ToldKind.CHANGE, f"{names[owner]} takes {region}", owner))
        elif owner is not None:
            told.append(Sentence(ToldKind.CHANGE, f"{names[owner]} keeps {region}", owner))
    for seat in range(after.players):
        steps = "; ".join(str(step) for step in result.breakdown(seat)) or "no cards"
        text = f"{names[seat]}: {result.strengths[seat]} ({steps})"
        told.append(Sentence(ToldKind.DETAIL, text, seat))
    return told


def battle_begins(after: Game) -> Sentence:
    """A battle that began without a move choosing where, just now: in a region chosen when
    the last battle ended (``ffg``, once the hands are settled), in the only region left, or
    in no region at all (a final battle, an edition without a board).

    >>> from condottiere.games.condottiere import Game
    >>> g = Game.setup("ffg", players=2, hands=[["10", "scarecrow"], ["2", "bishop"]],
    ...                narrated=True)
    >>> for move in ("battle Milano", "play 10", "play 2", "pass", "pass", "battle Torino"):
    ...     g.play(move)
    >>> g.play("discard")   # the hands are settled before the chosen battle begins
    >>> start = g.narration_length
    >>> g.play("retain bishop")
    >>> for sentence in g.narration(start):
    ...     print(sentence.told(("ada", "bob")).text)
    bob, last with cards at the round's end, retains Bishop
    the battle for Torino begins (chosen when the last battle ended)
    """
    names = seat_placeholders(after.players)
    if after.final_battle:
        tied = " and ".join(names[s] for s in range(after.players) if after.hand_size(s))
        return Sentence(ToldKind.CHANGE, f"a final battle, no region left to fight for: {tied}")
    region = after.battle_region
    if region is not None and after._choice_after_compare:
        text = f"the battle for {region} begins (chosen when the last battle ended)"
        return Sentence(ToldKind.CHANGE, text)
    if region is not None:
        text = f"a battle begins in {region}, the only region left to fight for"
        return Sentence(ToldKind.CHANGE, text)
    first = names[after.battle_marker]
    return Sentence(ToldKind.CHANGE, f"a new battle: {first} holds the marker and plays first")


def table_words(game: Game, names: Sequence[str]) -> str:
    """What everyone sees of the table now, in one line: who holds the battle marker (while
    the game goes on), who holds which region (battles won, in an edition without a board),
    and where the Favor is (in an edition that has it).

    >>> from condottiere.games.condottiere import Game
    >>> duel = Game.new("zman-duel", players=2, seed=3)
    >>> table_words(duel, ("ada", "bob"))
    'bob holds the battle marker; battles won: ada 0, bob 0'
    """
    parts = [] if game.phase == "over" else [f"{names[game.battle_marker]} holds the battle marker"]
    edition = game.edition
    if not edition.board:
        won = ", ".join(f"{names[seat]} {count}" for seat, count in enumerate(game.battles_won))
        parts.append(f"battles won: {won}")
    else:
        regions: dict[int, list[str]] = {}
        for region, owner in sorted(game.control.items()):
            regions.setdefault(owner, []).append(region)
        held = "; ".join(" ".join([names[seat], *regions[seat]]) for seat in sorted(regions))
        parts.append(f"board: {held or 'nobody holds a region'}")
    if edition.favor != "none":
        parts.append(f"Favor on {game.favor}" if game.favor else "Favor off the board")
    return "; ".join(parts)
