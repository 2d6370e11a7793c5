"""The table a command hosts (``host``, ``play``): the options that define it (``--game``,
``--edition``, ``--seats``, ``--option``, ``--name``, ``--spectators``, and the deadlines
``--move-deadline``, ``--step-deadline``, ``--bot-move-deadline``, ``--ready-deadline``) and
the table definition
they make.

Every choice and default comes from the game, through the registry
(:func:`condottiere.interface.game_named`): its editions, its default
edition, each edition's usual number of seats (:func:`default_seats`) and its house rules.

>>> default_seats("condottiere", "zman"), default_seats("condottiere", "zman-duel")
(4, 2)
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Callable

from condottiere.interface import DEFAULT_GAME, Edition, GameRules, game_named, game_names
from condottiere.peer.lobby import Deadlines, TableSpec

__all__ = [
    "TABLE_OPTIONS",
    "add_table_options",
    "check_bot_count",
    "chosen_edition",
    "default_seats",
    "table_spec",
]

TABLE_OPTIONS = (
    "game", "edition", "seats", "option", "name", "spectators",
    "move_deadline", "step_deadline", "bot_move_deadline", "ready_deadline",
)
"""The options' destinations; each is None unless given (a joiner takes the host's table, so
it gives none of them)."""


def default_seats(game: str, edition: str) -> int:
    """How many seats a table of ``game`` in ``edition`` has when nobody says: the edition's
    own default (:attr:`condottiere.interface.Edition.default_seats`)."""
    return game_named(game).editions[edition].default_seats


def chosen_edition(
    parser: argparse.ArgumentParser, game: str | None, edition: str | None
) -> tuple[GameRules, Edition]:
    """The game (default :data:`DEFAULT_GAME`) and its edition (default the game's own) a
    command's ``--game`` and ``--edition`` ask for; an edition the game has not exits with
    status 2, naming the ones it has."""
    rules = game_named(game or DEFAULT_GAME)
    offered = rules.editions.get(edition or rules.default_edition)
    if offered is None:
        parser.error(
            f"argument --edition: {rules.name} has no edition {edition!r} "
            f"(choose from {', '.join(sorted(rules.editions))})"
        )
    return rules, offered


def add_table_options(parser: argparse._ActionsContainer) -> None:
    """``--game``, ``--edition``, ``--seats``, ``--option``, ``--name`` and ``--spectators``
    on ``parser``, with each game's choices and defaults in their help."""
    parser.add_argument(
        "--game", choices=game_names(), help=f"the game (default {DEFAULT_GAME})"
    )
    parser.add_argument(
        "--edition",
        metavar="EDITION",
        help=f"rules edition: {_each_game(_editions_words)}",
    )
    parser.add_argument(
        "--seats",
        type=int,
        help=f"number of seats (default: the edition's usual number: {_each_game(_seats_words)})",
    )
    parser.add_argument(
        "--option",
        action="append",
        metavar="NAME",
        help=f"a house rule the edition offers ({_each_game(_options_words)}); repeatable",
    )
    parser.add_argument(
        "--name",
        help=f"the table's name (default: its game's, {' or '.join(sorted(game_names()))})",
    )
    defaults = Deadlines()
    parser.add_argument(
        "--move-deadline",
        type=int,
        metavar="SECONDS",
        help="seconds a player has for a move before the others may put the seat out "
        f"(default {defaults.move})",
    )
    parser.add_argument(
        "--step-deadline",
        type=int,
        metavar="SECONDS",
        help="seconds a peer has for a protocol step (keys, shuffle, shares, coin, audit) "
        f"before the others may put the seat out (default {defaults.step})",
    )
    parser.add_argument(
        "--bot-move-deadline",
        type=int,
        metavar="SECONDS",
        help=f"seconds a bot's seat has for a move (default {defaults.bot_move})",
    )
    parser.add_argument(
        "--ready-deadline",
        type=int,
        metavar="SECONDS",
        help="seconds a seated player has to be ready before the others free the seat for"
        f" the next player who asks (default {defaults.ready})",
    )
    parser.add_argument(
        "--spectators", action="store_const", const=True,
        help="let anyone on the LAN watch the table ('condottiere watch NAME': the board and"
        " the log, never a hand); by default only its seated players may follow its logs",
    )


def table_spec(parser: argparse.ArgumentParser, args: argparse.Namespace, player: str) -> TableSpec:
    """The table the options define, created by ``player``; a game that has not the edition
    asked for, or a table it cannot be played at, exits with status 2 and the reason."""
    rules, edition = chosen_edition(parser, args.game, args.edition)
    spec = TableSpec(
        game=rules.name,
        edition=edition.name,
        seats=args.seats or edition.default_seats,
        options=tuple(sorted(set(args.option or ()))),
        name=args.name or rules.name,
        player=player,
        address="",
        deadlines=deadlines_of(args),
        spectators=bool(args.spectators),
    )
    try:
        spec.check()
    except ValueError as error:
        parser.error(str(error))
    return spec


def deadlines_of(args: argparse.Namespace) -> Deadlines:
    """The deadlines the options ask for, the defaults for those not given.

    >>> deadlines_of(argparse.Namespace(move_deadline=60, step_deadline=None,
    ...                                 bot_move_deadline=None, ready_deadline=None))
    Deadlines(move=60, step=30, bot_move=15, ready=60)
    """
    defaults = Deadlines()

    def given(value: int | None, default: int) -> int:
        return default if value is None else value

    return Deadlines(
        given(args.move_deadline, defaults.move),
        given(args.step_deadline, defaults.step),
        given(args.bot_move_deadline, defaults.bot_move),
        given(args.ready_deadline, defaults.ready),
    )


def check_bot_count(parser: argparse.ArgumentParser, bots: int, seats: int) -> None:
    """Exit with status 2 when ``bots`` bots are too many for the seats beside the host's."""
    if bots > seats - 1:
        others = "1 other seat" if seats == 2 else f"{seats - 1} other seats"
        parser.error(f"{bots} bots for {others}")


def _each_game(words: Callable[[GameRules], str]) -> str:
    """``words`` of every game, each named when there are several."""
    games = [game_named(name) for name in game_names()]
    if len(games) == 1:
        return words(games[0])
    return "; ".join(f"{rules.name}: {words(rules)}" for rules in games)


def _editions_words(rules: GameRules) -> str:
    """``eurogames, ffg, zman, ... (default zman)``."""
    return f"{', '.join(sorted(rules.editions))} (default {rules.default_edition})"


def _seats_words(rules: GameRules) -> str:
    """The usual number of seats, and the editions that differ: ``4, or 2 for zman-duel``."""
    counts = Counter(edition.default_seats for edition in rules.editions.values())
    usual = counts.most_common(1)[0][0]
    others = [
        f"{edition.default_seats} for {name}"
        for name, edition in sorted(rules.editions.items())
        if edition.default_seats != usual
    ]
    return f"{usual}, or {', '.join(others)}" if others else str(usual)


def _options_words(rules: GameRules) -> str:
    """The game's house rules by name: ``cede, sieges``."""
    return ", ".join(sorted(rules.options)) or "none"
