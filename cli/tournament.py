"""``condottiere tournament``: many offline games between bots, on every core (or on a Dask
cluster: ``--cluster``), and their figures.

The bots named on the command line sit at one table, one per seat; seats rotate from game to
game (the bot listed first plays seat 0 in game 0, seat 1 in game 1, ...), so no bot keeps the
first move. Game ``i`` is dealt from seed ``seed + i`` and its bots are seeded from it too, so a
run with iteration budgets is reproducible (a time budget depends on the machine's speed),
on one process, on several, or on a cluster of machines (Dask's distributed scheduler: the
games are summed in the order of their index wherever they were played).

For each kind of bot it reports the **win share** per seat it held (a shared victory counts
``1/k`` to each of the ``k`` winners; a drawn duel counts to nobody), with a 95% confidence
interval over games, the contests it won (Condottiere's **battles won**) and its standing at
the end (Condottiere's **regions held**; in ``zman-duel``, battles won), each named by the game
(:meth:`~condottiere.interface.GameRules.figure_names`), per seat and game, and the **moves
per second** it chose.

Everything about the game comes from the registry (:func:`~condottiere.interface.game_named`):
its editions and options, its offline games, who won each (``outcome``), each battle's winner
(the seat of the narration's :attr:`~condottiere.interface.ToldKind.RESULT`) and each seat's
standing at the end (``standings``).

>>> report = run_tournament(TournamentSettings("zman-duel", ("greedy", "random"), games=4,
...                                            seed=1, jobs=1))
>>> report.games, round(sum(line.wins for line in report.lines) + report.draws, 6)
(4, 4.0)
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any, TextIO, cast

from condottiere.bots import BOTS, SEARCHING_BOTS, Budget, Strategy, make_bot
from condottiere.bots.command import CommandBot, command_of
from condottiere.bots.loading import StrategyError, load_strategy
from condottiere.cli.arguments import positive_int, positive_seconds
from condottiere.cli.table_options import chosen_edition
from condottiere.interface import (
    DEFAULT_GAME,
    GameRules,
    TableRules,
    ToldKind,
    game_named,
    game_names,
)

__all__ = [
    "BotLine",
    "ClusterError",
    "GameResult",
    "TournamentReport",
    "TournamentSettings",
    "add_tournament_parser",
    "play_game",
    "render_report",
    "run_tournament",
    "seated_bot",
    "tournament_bots",
    "tournament_command",
]

CLUSTER_TIMEOUT = "30s"
"""How long to try to reach a cluster's scheduler."""
Z_95 = 1.959964
"""The standard normal quantile of a two-sided 95% interval."""
DEFAULT_GAMES = 100


@dataclass(frozen=True)
class TournamentSettings:
    """What a tournament plays: the game's edition, one bot name per seat, how many games from
    which seed, on how many processes, and how long searching bots think."""

    edition: str
    bots: tuple[str, ...]
    games: int
    seed: int = 1
    jobs: int = 1
    budget: Budget | None = None
    """For the searching bots; None keeps their default (an iteration budget)."""
    options: tuple[str, ...] = ()
    """House rules of the edition, sorted."""
    game: str = DEFAULT_GAME


@dataclass(frozen=True)
class GameResult:
    """One game's figures, indexed by the bot's place in the list (not by seat)."""

    index: int
    seats: tuple[int, ...]
    shares: tuple[float, ...]
    battles_won: tuple[int, ...]
    regions: tuple[int, ...]
    moves: tuple[int, ...]
    seconds: tuple[float, ...]
    drawn: bool
    played_for: tuple[int, ...] = ()
    """Moves the runner played for a program (``cmd:``) that did not answer in time."""


@dataclass(frozen=True)
class BotLine:
    """One kind of bot's figures over the whole tournament, per seat it held and per game."""

    bot: str
    seats: int
    wins: float
    """Victories summed over its seats and games (shared ones fractionally)."""
    win_share: float
    low: float
    high: float
    battles_won: float
    regions_held: float
    moves: int
    moves_per_second: float
    played_for: int = 0
    """Moves played for it by the runner: a program (``cmd:``) that did not answer in time."""


@dataclass(frozen=True)
class TournamentReport:
    """Everything a tournament measured."""

    game: str
    edition: str
    bots: tuple[str, ...]
    games: int
    seed: int
    jobs: int
    budget: str
    seconds: float
    draws: int
    shared_victories: int
    lines: tuple[BotLine, ...] = field(default_factory=tuple)
    cluster: str = ""
    """The Dask scheduler's address the games were played on; empty: on this machine."""

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def play_game(settings: TournamentSettings, index: int) -> GameResult:
    """Play game ``index`` of the tournament: seeded from ``settings.seed + index``, the bot
    listed ``i``-th at seat ``(i + index) mod n``."""
    players = len(settings.bots)
    game_seed = settings.seed + index
    seat_of = tuple((place + index) % players for place in range(players))
    rules = game_named(settings.game)
    table = TableRules(settings.game, settings.edition, players, settings.options)
    bots: list[Strategy | None] = [None] * players
    for place, name in enumerate(settings.bots):
        bots[seat_of[place]] = seated_bot(name, game_seed * 101 + place, settings.budget, table)
    game = rules.offline(table, game_seed)
    battles = [0] * players
    moves = [0] * players
    seconds = [0.0] * players
    try:
        while (seat := game.to_act) is not None:
            bot = bots[seat]
            assert bot is not None
            started = time.perf_counter()
            # The bots are strategies for this game's own state type, which offline() makes.
            move = bot.choose(cast(Any, game), seat)
            seconds[seat] += time.perf_counter() - started
            moves[seat] += 1
            start = game.narration_length
            game.play(move)
            for told in game.narration(start):
                if told.kind is ToldKind.RESULT and told.seat is not None:
                    battles[told.seat] += 1
    finally:
        for seat, bot in enumerate(bots):
            if isinstance(bot, CommandBot):
                bot.finish(game, seat)
    outcome = game.outcome
    assert outcome is not None, "an offline game is played to its end"
    winners = outcome.winners
    held = rules.standings(game)
    return GameResult(
        index=index,
        seats=seat_of,
        shares=tuple(
            1 / len(winners) if seat_of[place] in winners else 0.0 for place in range(players)
        ),
        battles_won=tuple(battles[seat_of[place]] for place in range(players)),
        regions=tuple(held[seat_of[place]] for place in range(players)),
        moves=tuple(moves[seat_of[place]] for place in range(players)),
        seconds=tuple(seconds[seat_of[place]] for place in range(players)),
        drawn=not winners,
        played_for=tuple(
            _played_for(bots[seat_of[place]]) for place in range(players)
        ),
    )


def _played_for(bot: Strategy | None) -> int:
    return bot.troubles if isinstance(bot, CommandBot) else 0


def seated_bot(name: str, seed: int, budget: Budget | None, table: TableRules) -> Strategy:
    """The bot a tournament's list names: a strategy of :data:`~condottiere.bots.BOTS`, a
    program over the controller service (``cmd:COMMAND``), or a Python class
    (``PATH.py:CLASS``, ``MODULE:CLASS``); :class:`~condottiere.bots.loading.StrategyError`
    when it cannot be made."""
    command = command_of(name)
    if command is not None:
        return cast(Strategy, CommandBot(command, table))
    if name in BOTS:
        return make_bot(name, seed, budget)
    return load_strategy(name, seed)


def tournament_bots(text: str) -> tuple[str, ...]:
    """The bots of ``--bots``, comma-separated: names of the built-in strategies,
    ``cmd:COMMAND`` (a command without commas) or ``PATH.py:CLASS`` / ``MODULE:CLASS``."""
    bots = []
    for item in text.split(","):
        name = item.strip()
        if name.lower() in BOTS:
            bots.append(name.lower())
        elif command_of(name) is not None:
            if not command_of(name):
                raise argparse.ArgumentTypeError("cmd: needs a command, e.g. cmd:node bot.js")
            bots.append(name)
        elif ":" in name:
            bots.append(name)
        else:
            raise argparse.ArgumentTypeError(
                f"unknown bot {name!r} (choose from {', '.join(sorted(BOTS))}); a program "
                "is cmd:COMMAND, a Python class PATH.py:CLASS or MODULE:CLASS"
            )
    return tuple(bots)


def _play_indexed(job: tuple[TournamentSettings, int]) -> GameResult:
    return play_game(*job)


def run_tournament(
    settings: TournamentSettings, progress: TextIO | None = None, cluster: str | None = None
) -> TournamentReport:
    """Play every game of ``settings`` (on ``settings.jobs`` processes, or on the Dask cluster
    whose scheduler is at ``cluster``) and sum them up; ``progress``, when given, is told how
    many games are done as they finish."""
    started = time.perf_counter()
    jobs = [(settings, index) for index in range(settings.games)]
    results: list[GameResult] = []
    if cluster is not None:
        results = _on_cluster(cluster, jobs, progress)
    elif settings.jobs == 1:
        for job in jobs:
            results.append(_play_indexed(job))
            _show_progress(progress, len(results), settings.games)
    else:
        from concurrent.futures import ProcessPoolExecutor  # multiprocessing: only here

        with ProcessPoolExecutor(max_workers=settings.jobs) as pool:
            for result in pool.map(_play_indexed, jobs, chunksize=1):
                results.append(result)
                _show_progress(progress, len(results), settings.games)
    if progress is not None:
        progress.write("\n")
    results.sort(key=lambda result: result.index)
    report = _summarise(settings, results, time.perf_counter() - started)
    return report if cluster is None else replace(report, cluster=cluster)


class ClusterError(RuntimeError):
    """The cluster cannot be used: its engine is not installed, or its scheduler not reached."""


def _on_cluster(
    address: str, jobs: Sequence[tuple[TournamentSettings, int]], progress: TextIO | None
) -> list[GameResult]:
    """Play ``jobs`` on the Dask cluster whose scheduler is at ``address``: every worker needs
    this same version of condottiere installed (and any command a ``cmd:`` bot runs)."""
    try:
        from distributed import (  # type: ignore[import-not-found,unused-ignore]
            Client,
            as_completed,
        )
    except ImportError as error:
        raise ClusterError(
            "--cluster needs Dask's distributed scheduler: pip install 'condottiere[cluster]'"
        ) from error
    try:
        client = Client(address, timeout=CLUSTER_TIMEOUT)  # type: ignore[no-untyped-call,unused-ignore]
    except OSError as error:
        raise ClusterError(f"no Dask scheduler answers at {address}: {error}") from error
    results: list[GameResult] = []
    with client:
        futures = client.map(_play_indexed, jobs, pure=False)
        for future in as_completed(futures):  # type: ignore[no-untyped-call,unused-ignore]
            results.append(future.result())
            _show_progress(progress, len(results), len(jobs))
    return results


def _show_progress(progress: TextIO | None, done: int, games: int) -> None:
    if progress is not None:
        progress.write(f"\r{done}/{games} games played")
        progress.flush()


def _summarise(
    settings: TournamentSettings, results: Sequence[GameResult], seconds: float
) -> TournamentReport:
    games = len(results)
    lines = []
    for name in dict.fromkeys(settings.bots):
        places = [place for place, bot in enumerate(settings.bots) if bot == name]
        per_game = [sum(r.shares[p] for p in places) / len(places) for r in results]
        share = sum(per_game) / games
        spread = math.sqrt(sum((x - share) ** 2 for x in per_game) / max(games - 1, 1))
        margin = Z_95 * spread / math.sqrt(games)
        moves = sum(r.moves[p] for r in results for p in places)
        thinking = sum(r.seconds[p] for r in results for p in places)
        lines.append(
            BotLine(
                bot=name,
                seats=len(places),
                wins=sum(r.shares[p] for r in results for p in places),
                win_share=share,
                low=max(0.0, share - margin),
                high=min(1.0, share + margin),
                battles_won=sum(r.battles_won[p] for r in results for p in places)
                / (games * len(places)),
                regions_held=sum(r.regions[p] for r in results for p in places)
                / (games * len(places)),
                moves=moves,
                moves_per_second=moves / thinking if thinking else 0.0,
                played_for=sum(r.played_for[p] for r in results for p in places),
            )
        )
    return TournamentReport(
        game=settings.game,
        edition=settings.edition,
        bots=settings.bots,
        games=games,
        seed=settings.seed,
        jobs=settings.jobs,
        budget=_budget_text(settings.budget),
        seconds=seconds,
        draws=sum(1 for r in results if r.drawn),
        shared_victories=sum(1 for r in results if sum(1 for x in r.shares if x) > 1),
        lines=tuple(lines),
    )


def _budget_text(budget: Budget | None) -> str:
    if budget is None:
        return "default"
    parts = []
    if budget.iterations is not None:
        parts.append(f"{budget.iterations} iterations")
    if budget.seconds is not None:
        parts.append(f"{budget.seconds:g} s")
    if budget.cpu_seconds is not None:
        parts.append(f"{budget.cpu_seconds:g} s of CPU")
    return " or ".join(parts) + " a move"


def render_report(report: TournamentReport) -> str:
    """The report as the table the command prints."""
    rules = game_named(report.game)
    edition, figures = rules.editions[report.edition], rules.figure_names(report.edition)
    rows = [["bot", "seats", "win share", "95% CI", figures.results, figures.standings, "moves/s"]]
    for line in report.lines:
        rows.append(
            [
                line.bot,
                str(line.seats),
                f"{line.win_share:.1%}",
                f"[{line.low:.1%}, {line.high:.1%}]",
                f"{line.battles_won:.2f}",
                f"{line.regions_held:.2f}",
                f"{line.moves_per_second:,.1f}",
            ]
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    table = [
        "  ".join(
            [row[0].ljust(widths[0])]
            + [cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)]
        )
        for row in rows
    ]
    searching = sorted({bot for bot in report.bots if bot in SEARCHING_BOTS})
    budget = f"; {', '.join(searching)} budget: {report.budget}" if searching else ""
    where = f"on the cluster at {report.cluster}" if report.cluster else f"{report.jobs} processes"
    played_for = [
        f"{line.bot} did not answer {line.played_for} times (the safe move was played)"
        for line in report.lines
        if line.played_for
    ]
    return "\n".join(
        [
            f"tournament: {edition.title} [{report.edition}], {len(report.bots)} seats, "
            f"{report.games} games from seed {report.seed}, {where}{budget}",
            f"bots: {', '.join(report.bots)} (seats rotate every game)",
            "",
            *table,
            "",
            f"win share per seat held (fair share {1 / len(report.bots):.1%}); shared victories: "
            f"{report.shared_victories} games; draws: {report.draws}; "
            f"{report.seconds:,.1f} s ({report.games / report.seconds:,.2f} games/s)",
            *played_for,
        ]
    )


# ------------------------------------------------------------------------ the command line


def add_tournament_parser(commands: Any) -> argparse.ArgumentParser:
    """Add the ``tournament`` sub-command to ``commands`` (an argparse sub-parsers object)."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "tournament",
        help="play many offline games between bots on every core and compare them",
        description="Play many offline games between bots, one bot per seat, rotating the "
        "seats every game, on every core; print each bot's win share with a 95% confidence "
        "interval, its average contests won and standing (as the game names them: "
        "Condottiere's battles won and regions held), and its moves per second.",
    )
    parser.set_defaults(command_parser=parser)
    parser.add_argument(
        "--bots",
        type=tournament_bots,
        required=True,
        metavar="NAME,NAME,...",
        help=f"one bot per seat, e.g. ismcts,greedy,greedy,greedy; known: "
        f"{', '.join(sorted(BOTS))}; also a program over the controller service, started "
        "for each game with a data directory as its last argument (cmd:COMMAND, e.g. "
        "cmd:'node examples/js-bot/bot.js'), or a Python class (PATH.py:CLASS, MODULE:CLASS)",
    )
    parser.add_argument(
        "--game",
        default=DEFAULT_GAME,
        choices=game_names(),
        help=f"the game to play (default {DEFAULT_GAME})",
    )
    parser.add_argument(
        "--edition",
        help=f"the game's edition ({_editions_help()})",
    )
    parser.add_argument(
        "--games", type=positive_int, default=DEFAULT_GAMES,
        help=f"games to play (default {DEFAULT_GAMES})",
    )
    parser.add_argument(
        "--seed", type=int, default=1, help="seed of the first game; game i uses seed+i (default 1)"
    )
    parser.add_argument(
        "--jobs", type=positive_int, help="processes to play on (default: one per core)"
    )
    parser.add_argument(
        "--seconds-per-move",
        type=positive_seconds,
        metavar="S",
        help="searching bots (ismcts) think S seconds a move; a run is then not exactly "
        "reproducible (default: their iteration budget)",
    )
    parser.add_argument(
        "--cpu-seconds-per-move",
        type=positive_seconds,
        metavar="S",
        help="searching bots (ismcts) think S seconds of CPU time a move: the same thinking "
        "whatever else the machine runs (not exactly reproducible either)",
    )
    parser.add_argument(
        "--iterations",
        type=positive_int,
        metavar="N",
        help="searching bots (ismcts) run at most N iterations a move (with --seconds-per-move: "
        "whichever comes first)",
    )
    parser.add_argument(
        "--options",
        default="",
        metavar="OPTION,...",
        help=f"house rules, where the edition allows them ({_options_help()})",
    )
    parser.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="play the games on the Dask cluster whose scheduler is at ADDRESS "
        "(tcp://HOST:8786; needs pip install 'condottiere[cluster]' here and on every worker); "
        "the same seed gives the same figures as on this machine",
    )
    parser.add_argument(
        "--json", action="store_true", help="print the figures as JSON, for scripts"
    )
    return parser


def _editions_help() -> str:
    """Each game's editions, and its default one."""
    return "; ".join(
        f"{name}: {', '.join(sorted(rules.editions))}; default {rules.default_edition}"
        for name, rules in map(_named, game_names())
    )


def _options_help() -> str:
    """Each game's house rules."""
    return "; ".join(
        f"{name}: {', '.join(sorted(rules.options)) or 'none'}"
        for name, rules in map(_named, game_names())
    )


def _named(name: str) -> tuple[str, GameRules]:
    return name, game_named(name)


def tournament_settings(
    parser: argparse.ArgumentParser, args: argparse.Namespace
) -> TournamentSettings:
    """The settings ``args`` ask for; bad input exits with status 2 and a message."""
    rules, offered = chosen_edition(parser, args.game, args.edition)
    edition = offered.name
    seats = len(args.bots)
    if not offered.min_seats <= seats <= offered.max_seats:
        span = (
            f"exactly {offered.min_seats}"
            if offered.min_seats == offered.max_seats
            else f"{offered.min_seats} to {offered.max_seats}"
        )
        parser.error(
            f"{seats} bots given, but edition {edition} is played by {span} players "
            "(give one bot per seat)"
        )
    for name in args.bots:
        if command_of(name) is None and name not in BOTS:
            try:
                load_strategy(name, seed=0)
            except StrategyError as error:
                parser.error(str(error))
    options = tuple(sorted({option for option in args.options.split(",") if option}))
    try:
        rules.check(TableRules(args.game, edition, seats, options))
    except ValueError as error:
        parser.error(str(error))
    budget = None
    if any(x is not None for x in (args.seconds_per_move, args.iterations,
                                   args.cpu_seconds_per_move)):
        budget = Budget(iterations=args.iterations, seconds=args.seconds_per_move,
                        cpu_seconds=args.cpu_seconds_per_move)
    return TournamentSettings(
        edition=edition,
        bots=args.bots,
        games=args.games,
        seed=args.seed,
        jobs=args.jobs or os.cpu_count() or 1,
        budget=budget,
        options=options,
        game=args.game,
    )


def tournament_command(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """Run ``condottiere tournament`` as ``args`` say; the exit status."""
    settings = tournament_settings(parser, args)
    progress = sys.stderr if sys.stderr.isatty() else None
    try:
        report = run_tournament(settings, progress=progress, cluster=args.cluster)
    except ClusterError as error:
        print(f"condottiere tournament: {error}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(report.as_json(), indent=2))
    else:
        print(render_report(report))
    return 0
