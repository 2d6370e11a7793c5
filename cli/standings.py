"""``condottiere standings``: the night's standings, from the records of the games played.

Every record is verified (:func:`condottiere.peer.record.verify`) and counted once per table
(every peer of a table keeps a copy of the same record). A player is a key: shown by the
last name it played under and its fingerprint, so a player who renamed is still one player,
and two people who chose one name are two. For each: the games played, the wins (a victory
shared by k seats counts 1/k to each), the games it left (a forfeit, or a game it abandoned),
the battles it won, and a rating.

What counts:

- a record shown FAIR (every signature, proof, move and card checks out, the game over), or
  FINISHED without seats that left (the seats that stayed passed the audit): everything, and
  each seat that left the game a forfeit;
- a record of a table that stopped because a seat left (nobody cheated, nothing else is
  wrong): an abandonment for the seat that left, and nothing else (no win, no rating: the
  game has no result);
- any other record (a cheat caught, a game not finished, an audit missing, a file that is
  no record): nothing, and the output says why.

The rating is OpenSkill's Plackett-Luce model (``openskill``, a maintained, MIT-licensed,
typed, pure-Python implementation of Weng and Lin's Bayesian rating for games of several
players, TrueSkill's open counterpart): each counted game, in the order the records were
written, ranks its seats: the winners first (tied), then the others by the game's standing
(:meth:`~condottiere.interface.GameRules.standings`: regions held), the seats that left last.
The rating shown is the conservative estimate mu - 3 sigma (OpenSkill's ``ordinal``): a player
seen in few games is rated low until the games say otherwise.

Each game has its standings (a rating means nothing across games): the games are listed one
after the other, each under its title. A key is listed as a bot when the record says a
program played it (a bot's join says so) or a bot peer of this machine holds it (a host's
bots, under ``DATA/bots/``, or the ``bot`` command's data directory).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from condottiere.cli.arguments import default_data
from condottiere.crypto import Identity, PublicIdentity
from condottiere.interface import Outcome, game_named
from condottiere.peer.record import Verdict, load, owner_of, verify
from condottiere.peer.store import DATABASE, Store

if TYPE_CHECKING:
    from openskill.models import PlackettLuce, PlackettLuceRating

__all__ = [
    "GameFacts",
    "Night",
    "Standings",
    "add_command",
    "facts_of",
    "fraction",
    "run_standings",
]


@dataclass(frozen=True)
class GameFacts:
    """What a counted record tells of each seat."""

    table_id: str
    keys: tuple[bytes, ...]
    """Seat by seat, the player's key."""
    names: tuple[str, ...]
    outcome: Outcome | None
    """None for a game abandoned (a seat left and the table stopped)."""
    left: frozenset[int]
    """The seats that left (a forfeit, or the abandonment)."""
    battles: tuple[int, ...]
    standing: tuple[int, ...]
    """The game's count of how far each seat came (regions held), for the ranking."""
    game: str = "condottiere"
    """The table's game (a name of the registry): each game has standings of its own."""
    programs: frozenset[int] = frozenset()
    """The seats a program played, as the record says (a bot's join, or a creator's
    definition, says so)."""

    def ranks(self) -> list[int]:
        """Each seat's place for the rating (1 first; equal places for a tie): the winners,
        then the others by standing, the seats that left last."""
        assert self.outcome is not None
        winners = set(self.outcome.winners)

        def order(seat: int) -> tuple[int, int, int]:
            return (seat in self.left, seat not in winners, -self.standing[seat])

        places = sorted({order(seat) for seat in range(len(self.keys))})
        return [places.index(order(seat)) + 1 for seat in range(len(self.keys))]


def facts_of(verdict: Verdict) -> GameFacts | str:
    """The facts of a record that counts, or why it does not."""
    table = verdict.table
    keys = tuple(table.seating)
    names = tuple(table.lobby.names.get(key, "?") for key in keys)
    battles = [0] * len(keys)
    for event in table.events:
        if event.kind == "result" and event.seat is not None:
            battles[event.seat] += 1
    game = table.game
    programs = frozenset(seat for seat, key in enumerate(keys) if key in table.lobby.bots)
    finished = verdict.fair or verdict.audited_without_leavers
    if finished and game is not None and game.outcome is not None:
        standing = table.rules.standings(game)
        left = frozenset(game.departed) | {departure.seat for departure in verdict.departures}
        return GameFacts(table.table_id.hex(), keys, names, game.outcome, left,
                         tuple(battles), tuple(standing), table.spec.game, programs)
    halt = verdict.halt
    clean = not verdict.refusals and not verdict.unreadable
    if halt is not None and not halt.cheat and clean and halt.seat is not None and keys:
        return GameFacts(table.table_id.hex(), keys, names, None, frozenset({halt.seat}),
                         tuple(battles), (0,) * len(keys), table.spec.game,
                         programs)
    return _why_not(verdict)


def _why_not(verdict: Verdict) -> str:
    """Why a record that is not shown fair does not count, in the verdict's words."""
    lines = verdict.lines()
    reasons = [
        line for line in lines
        if line.startswith(("CHEAT", "STOPPED", "unreadable", "no audit secrets"))
        or line == "the game is not finished"
    ]
    return "; ".join(reasons) or lines[-1]


def _rating_model() -> PlackettLuce:
    from openskill.models import PlackettLuce  # only when standings are made: a quick start

    return PlackettLuce()


@dataclass
class Player:
    """One key's night."""

    key: bytes
    name: str
    bot: bool
    games: int = 0
    wins: Fraction = Fraction(0)
    left: int = 0
    battles: int = 0
    rating: PlackettLuceRating | None = None

    @property
    def fingerprint(self) -> str:
        return PublicIdentity(self.key).fingerprint()


@dataclass
class Standings:
    """The players of one game's tables counted so far."""

    bots: frozenset[bytes] = frozenset()
    players: dict[bytes, Player] = field(default_factory=dict)
    counted: dict[str, Path] = field(default_factory=dict)
    """Table id -> the record it was counted from."""
    copies: int = 0
    """Records of a table already counted (another peer's copy)."""
    abandoned: int = 0
    """Games counted that a seat left before their end (they count only its leaving)."""
    model: PlackettLuce = field(default_factory=_rating_model)

    def add(self, path: Path, facts: GameFacts) -> None:
        """Count one game (once per table)."""
        if facts.table_id in self.counted:
            self.copies += 1
            return
        self.counted[facts.table_id] = path
        seated = []
        for seat, key in enumerate(facts.keys):
            player = self.players.get(key)
            if player is None:
                player = self.players[key] = Player(key, facts.names[seat], key in self.bots)
            player.name = facts.names[seat]
            player.bot = player.bot or seat in facts.programs
            player.games += 1
            player.battles += facts.battles[seat]
            player.left += seat in facts.left
            seated.append(player)
        if facts.outcome is None:
            self.abandoned += 1
            return
        winners = facts.outcome.winners
        for seat in winners:
            seated[seat].wins += Fraction(1, len(winners))
        before = [[player.rating or self.model.rating()] for player in seated]
        after = self.model.rate(before, ranks=[float(rank) for rank in facts.ranks()])
        for player, (rating,) in zip(seated, after, strict=True):
            player.rating = rating

    def table(self) -> list[list[str]]:
        """The standings as rows of text, a header first; the best rated first."""
        rows = [["player", "key", "games", "wins", "left", "battles", "rating"]]
        def rank(player: Player) -> tuple[bool, float, Fraction]:
            rated = player.rating is not None
            return (not rated, -player.rating.ordinal() if player.rating else 0.0, -player.wins)

        ranked = sorted(self.players.values(), key=rank)
        for player in ranked:
            rows.append([
                player.name + (" (bot)" if player.bot else ""),
                player.fingerprint,
                str(player.games),
                fraction(player.wins),
                str(player.left),
                str(player.battles),
                "-" if player.rating is None else f"{player.rating.ordinal():.1f}",
            ])
        return rows


def fraction(value: Fraction) -> str:
    """A number of wins as people write it.

    >>> [fraction(Fraction(*wins)) for wins in ((3, 2), (1, 3), (2, 1), (0, 1))]
    ['1 1/2', '1/3', '2', '0']
    """
    whole, part = divmod(value, 1)
    if not part:
        return str(whole)
    return f"{whole} {part}" if whole else str(part)


@dataclass
class Night:
    """The standings of each game played (a rating means nothing across games), and the
    records not counted."""

    bots: frozenset[bytes] = frozenset()
    games: dict[str, Standings] = field(default_factory=dict)
    """Game name -> its standings, in the order the games first came."""
    refused: list[tuple[Path, str]] = field(default_factory=list)

    def add(self, path: Path, facts: GameFacts) -> None:
        """Count one game in its game's standings."""
        standings = self.games.get(facts.game)
        if standings is None:
            standings = self.games[facts.game] = Standings(self.bots)
        standings.add(path, facts)

    @property
    def counted(self) -> int:
        return sum(len(standings.counted) for standings in self.games.values())

    @property
    def copies(self) -> int:
        return sum(standings.copies for standings in self.games.values())

    @property
    def abandoned(self) -> int:
        return sum(standings.abandoned for standings in self.games.values())


def gather(paths: Iterable[Path], bots: frozenset[bytes] = frozenset()) -> Night:
    """Verify each record of ``paths`` (in that order) and count it, or say why not."""
    night = Night(bots)
    for path in paths:
        try:
            verdict = verify(load(path), owner_of(path))
        except (OSError, ValueError) as exc:
            night.refused.append((path, f"not a record that can be read: {exc}"))
            continue
        facts = facts_of(verdict)
        if isinstance(facts, str):
            night.refused.append((path, facts))
        else:
            night.add(path, facts)
    return night


def _records_in(root: Path) -> list[Path]:
    """Every record under ``root`` (each peer's ``records/``), the oldest first."""
    found = [path for path in root.glob("**/records/*.cdr") if path.is_file()]
    return sorted(found, key=lambda path: (path.stat().st_mtime, path.name))


def _bot_keys(root: Path) -> frozenset[bytes]:
    """The keys of the bot peers whose data is under ``root``."""
    keys = set()
    for database in [*root.glob("**/bots/*/" + DATABASE), *root.glob("bot/" + DATABASE)]:
        try:
            store = Store(database.parent, read_only=True)
        except (OSError, ValueError):
            continue
        try:
            secret = store.setting("identity")
        finally:
            store.close()
        if secret is not None:
            keys.add(Identity(secret).public.raw)
    return frozenset(keys)


def run_standings(records: Sequence[Path], out: TextIO | None = None) -> int:
    """Print the standings of ``records`` (none: every record in the data directories);
    0 when at least one game counted, 1 when none did."""
    out = out or sys.stdout
    root = default_data("play").parent
    paths = list(records) or _records_in(root)
    if not paths:
        print(f"condottiere: no records under {root}: give record files", file=sys.stderr)
        return 1
    night = gather(paths, _bot_keys(root))
    games = night.counted
    copies = ""
    if night.copies:
        several = night.copies > 1
        copies = (f", {night.copies} cop{'ies' if several else 'y'} of them kept by"
                  f" {'other peers' if several else 'another peer'}")
    print(f"{games} game{'s' if games != 1 else ''} counted from {len(paths)} records{copies}",
          file=out)
    if night.abandoned:
        print(f"{night.abandoned} of them stopped when a seat left: they count only as that"
              " seat's leaving", file=out)
    for game, standings in night.games.items():
        counted = len(standings.counted)
        print(f"{game_named(game).title}: {counted} game{'s' if counted != 1 else ''}",
              file=out)
        rows = standings.table()
        widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
        for row in rows:
            cells = [row[0].ljust(widths[0]), row[1].ljust(widths[1])]
            cells += [text.rjust(width) for text, width in zip(row[2:], widths[2:], strict=True)]
            print("  " + "  ".join(cells), file=out)
    for path, reason in night.refused:
        print(f"not counted: {path}: {reason}", file=out)
    return 0 if games else 1


def add_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``standings`` to a parser's sub-commands."""
    standings = commands.add_parser(
        "standings",
        help="the night's standings, from the records of the games played",
        description="Verify every record and print, per player key (by name and "
        "fingerprint): games, wins (a shared victory counts 1/k), games left (forfeits and "
        "abandonments), battles won and an OpenSkill rating (mu - 3 sigma). A table's record "
        "counts once, however many peers kept it; a record that does not verify does not "
        "count, and the output says why.",
    )
    standings.add_argument(
        "records", nargs="*", type=Path, metavar="RECORD",
        help=f"record files (default: every record under {default_data('play').parent})",
    )
