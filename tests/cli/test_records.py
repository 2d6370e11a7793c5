"""A game's record on the command line: ``verify`` says a finished game was fair, names the
table by its id and every seat by its key's fingerprint, names the seats whose audit secrets
are missing and drops the copies of entries a record holds twice; ``replay`` shows it move by
move, ``export`` writes the table of a data directory to a record that verifies the same; a
file that is no record is refused with exit status 2. The records are those of a real game
between peer processes."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

import pytest

from condottiere.cli.main import main
from condottiere.peer.entries import read_entry
from condottiere.peer.record import export, load
from condottiere.peer.store import Store
from condottiere.v1 import log_pb2
from tests.peer.processes import peers_in
from tests.peer.tables import Harness
from tests.peer.test_network import GAME_SECONDS, stopping_its_bots


@dataclass(frozen=True)
class Played:
    """A game a host played against one bot peer, to its end."""

    host: Path
    """The host's data directory."""
    record: Path
    table_id: str
    fingerprints: tuple[str, str]
    """The host's key's fingerprint (as the host printed it), then the bot's."""
    bot: bytes
    """The bot's key."""


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    root = tmp_path_factory.mktemp("records")
    with peers_in(root) as peers:
        host = peers.start(
            ["host", "--edition", "zman-duel", "--strategy", "greedy", "--bots", "greedy"],
            root / "host",
        )
        with stopping_its_bots(peers, host):
            peers.wait_all([host], GAME_SECONDS)
    host_key = host.wait_for("your key's fingerprint: (.*)", 1).group(1)
    store, bot = Store(root / "host"), Store(root / "host" / "bots" / "1")
    table_id, bot_key = store.setting("table"), bot.identity().public
    store.close()
    bot.close()
    assert table_id is not None
    record = Path(host.result()["record"])
    return Played(
        root / "host", record, table_id.hex(), (host_key, bot_key.fingerprint()), bot_key.raw
    )


def verified(capsys: pytest.CaptureFixture[str], record: Path, status: int) -> list[str]:
    """What ``condottiere verify RECORD`` prints, checking its exit status."""
    capsys.readouterr()
    assert main(["verify", str(record)]) == status
    return capsys.readouterr().out.splitlines()


def rewritten(path: Path, keep: list[bytes]) -> Path:
    """A record file holding ``keep`` (signed entries), in that order."""
    entries = [log_pb2.SignedEntry.FromString(signed) for signed in keep]
    path.write_bytes(log_pb2.GameRecord(entries=entries).SerializeToString())
    return path


def test_a_finished_games_record_is_verified_replayed_and_exported(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, played: Played
) -> None:
    verdict = verified(capsys, played.record, 0)
    assert verdict[-1] == "verdict: FAIR"
    assert main(["replay", str(played.record)]) == 0
    replayed = capsys.readouterr().out.splitlines()
    assert replayed[-1] == "verdict: FAIR"
    assert any(line.startswith("cards dealt: 8 to seat 0") for line in replayed)
    exported = tmp_path / "exported.cdr"
    assert main(["export", "--data", str(played.host), "--output", str(exported)]) == 0
    assert capsys.readouterr().out.startswith("wrote ")
    assert verified(capsys, exported, 0) == verdict


def test_verify_names_the_table_by_its_id_and_every_seat_by_its_keys_fingerprint(
    capsys: pytest.CaptureFixture[str], played: Played
) -> None:
    verdict = verified(capsys, played.record, 0)
    assert f"table id {played.table_id}" in verdict
    seats = [line for line in verdict if line.startswith("  seat ")]
    host_key, bot_key = played.fingerprints
    assert len(seats) == 2 and host_key != bot_key
    assert seats[0].startswith("  seat 0 (") and seats[0].endswith(f"), key {host_key}")
    assert seats[1].startswith("  seat 1 (") and seats[1].endswith(f"), key {bot_key}")


def test_a_record_holding_every_entry_twice_verifies_the_same_with_the_copies_dropped(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, played: Played
) -> None:
    entries = load(played.record)
    doubled = rewritten(tmp_path / "doubled.cdr", entries + entries[::-1])
    verdict = verified(capsys, doubled, 0)
    dropped = f"{len(entries)} duplicated entries dropped"
    assert dropped in verdict
    assert [line for line in verdict if line != dropped] == verified(capsys, played.record, 0)


def test_a_record_without_a_seats_audit_secrets_names_that_seat(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, played: Played
) -> None:
    entries = load(played.record)
    withheld = next(
        signed for signed in entries
        if read_entry(signed).kind == "audit" and read_entry(signed).author == played.bot
    )
    kept = [signed for signed in entries if signed != withheld]
    verdict = verified(capsys, rewritten(tmp_path / "unaudited.cdr", kept), 1)
    seat = next(line for line in verdict if line.endswith(f"key {played.fingerprints[1]}"))
    name = seat.strip().split(", key ")[0]
    assert name.startswith("seat 1 (")
    assert f"no audit secrets from {name}: the cards cannot be audited" in verdict
    assert verdict[-1] == "verdict: NOT SHOWN FAIR"


def test_a_file_that_is_no_record_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "notes.cdr").write_text("not a record")
    for command in ("verify", "replay"):
        assert main([command, str(tmp_path / "notes.cdr")]) == 2
        assert capsys.readouterr().err.startswith("condottiere: ")


def test_replay_tells_the_game_as_text_in_the_tables_order(
    capsys: pytest.CaptureFixture[str], played: Played
) -> None:
    assert main(["replay", "--text", str(played.record)]) == 0
    told = capsys.readouterr().out.splitlines()
    dealt = next(n for n, line in enumerate(told) if line.startswith("cards dealt: "))
    first_move = next(n for n, line in enumerate(told) if " plays " in line or " opens " in line)
    assert told[0].endswith("asks for a seat") and dealt < first_move
    assert told[-1] == "verdict: FAIR"


def test_the_full_screen_replay_steps_forward_and_back_through_every_move(
    played: Played,
) -> None:
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from condottiere.cli.client.replay import Replay, ReplayModel, replay_application
    from condottiere.peer.record import verify

    verdict = verify(load(played.record))
    replay = Replay(verdict, played.record)
    assert verdict.table.game is not None
    assert len(replay) == verdict.table.game.moves_played + 1
    model = ReplayModel(replay)
    seen: list[tuple[int, int, str]] = []

    async def scenario() -> None:
        with create_pipe_input() as pipe:
            application = replay_application(model, input=pipe, output=DummyOutput())
            running = asyncio.ensure_future(application.run_async())
            for key in ("\x1b[C", "\x1b[C", "\x1b[D", "\x1b[F", "\t", "q"):  # → → ← End Tab q
                await asyncio.sleep(0.3)
                pipe.send_text(key)
                await asyncio.sleep(0.3)
                seen.append((model.position, model.viewer, model.banner().headline))
            await asyncio.wait_for(running, 30)

    asyncio.run(scenario())
    last = len(replay) - 1
    assert [(position, viewer) for position, viewer, _ in seen] == [
        (1, 0), (2, 0), (1, 0), (last, 0), (last, 1), (last, 1)
    ]
    assert seen[0][2].startswith(f"Replay 1/{last}: ")
    assert seen[3][2].startswith(f"Replay {last}/{last}: Game over: ")
    moves_shown = sum(event.kind == "move" for event in model.events)
    assert moves_shown == verdict.table.game.moves_played
    assert model.ending() is not None and model.record == str(played.record)
    model.step(-last)
    assert sum(event.kind == "move" for event in model.events) == 0
    assert model.view is not None and model.view.seat == 1


def left_record(path: Path) -> Path:
    """The record of a three-seat table, played by bots in one process, that seat 2 left a
    few moves into the game: the two others finished it without it."""
    harness = Harness("zman", 3, seed=7)
    first = harness.tables[0]
    harness.play(until=lambda: first.game is not None and first.game.moves_played >= 4)
    harness.tables[2].leave("gone home")
    harness.play()
    assert first.halt is None and first.game is not None and first.game.outcome is not None
    return export([e for a in first.logs.authors for e in first.logs.log(a)], path)


def test_standings_count_each_table_once_per_key_and_say_why_a_record_does_not_count(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    played: Played,
) -> None:
    """Over the data directory of a host that played a bot (its record and its bot's copy),
    a game a seat left and the others finished, and a record whose audit is missing: the
    duel counts once, the bot is listed as a bot, the seat that left has a game left and is
    rated, and the broken record is named with the reason."""
    monkeypatch.setenv("CONDOTTIERE_HOME", str(played.host.parent))
    entries = load(played.record)
    withheld = next(
        signed for signed in entries
        if read_entry(signed).kind == "audit" and read_entry(signed).author == played.bot
    )
    broken = rewritten(tmp_path / "broken.cdr", [s for s in entries if s != withheld])
    left = left_record(tmp_path / "left.cdr")
    bot_copy = next((played.host / "bots").glob("**/records/*.cdr"))
    assert main(["standings", str(played.record), str(bot_copy), str(left), str(broken)]) == 0
    told = capsys.readouterr().out.splitlines()
    assert told[0] == "2 games counted from 4 records, 1 copy of them kept by another peer"
    assert told[1] == "Condottiere: 2 games"
    host_key, bot_key = played.fingerprints
    host = next(row for row in told if host_key in row).split()
    bot = next(row for row in told if bot_key in row).split()
    assert "(bot)" in bot and "(bot)" in host  # greedy played the host's seat too: its
    # definition says so (--strategy), as the bot's join does
    assert host[-5:-1] == ["1", host[-4], "0", host[-2]] and bot[-5] == "1"
    assert {host[-4], bot[-4]} == {"0", "1"}  # one of them won the duel
    assert host[-1] != "-" and bot[-1] != "-"
    leavers = [row.split() for row in told if row.startswith("  seat2 ")]
    assert leavers and leavers[0][2:6] == ["1", "0", "1", leavers[0][5]]
    assert leavers[0][-1] != "-", "a game finished without a seat rates every seat"
    (refused,) = [line for line in told if line.startswith("not counted: ")]
    assert refused.startswith(f"not counted: {broken}: no audit secrets from seat 1 (")


def test_standings_share_a_victory_and_rank_forfeits_last() -> None:
    """The tally: a victory shared by two seats counts one half to each; a seat that left a
    finished game (a forfeit) has a game left and ranks last; an abandoned game counts only
    the abandonment; the rating follows the ranks; a key is a bot when this machine holds it
    as one, or when a record says a program played it."""
    from fractions import Fraction

    from condottiere.cli.standings import GameFacts, Standings, fraction
    from condottiere.crypto import Identity
    from condottiere.interface import Outcome, OutcomeKind

    ada, bea, cyd = (Identity.generate().public.raw for _ in range(3))
    keys = (ada, bea, cyd)
    names = ("ada", "bea", "cyd")
    standings = Standings(bots=frozenset({cyd}))
    shared = GameFacts("t1", keys, names, Outcome(OutcomeKind.SHARED, (0, 1), "tied"),
                       frozenset(), (2, 2, 1), (4, 4, 2))
    forfeit = GameFacts("t2", keys, names, Outcome(OutcomeKind.FORFEIT, (0,), "others left"),
                        frozenset({1, 2}), (1, 0, 0), (1, 0, 3))
    abandoned = GameFacts("t3", keys, names, None, frozenset({2}), (0, 1, 0), (0, 0, 0),
                          programs=frozenset({1}))
    assert shared.ranks() == [1, 1, 2] and forfeit.ranks() == [1, 3, 2]
    for number, facts in enumerate((shared, forfeit, abandoned, shared)):
        standings.add(Path(f"r{number}.cdr"), facts)
    assert standings.copies == 1 and len(standings.counted) == 3
    players = standings.players
    assert [players[key].games for key in keys] == [3, 3, 3]
    assert [players[key].wins for key in keys] == [Fraction(3, 2), Fraction(1, 2), 0]
    assert [fraction(players[key].wins) for key in keys] == ["1 1/2", "1/2", "0"]
    assert [players[key].left for key in keys] == [0, 1, 2]
    assert [players[key].battles for key in keys] == [3, 3, 1]
    ratings = [players[key].rating for key in keys]
    assert all(rating is not None for rating in ratings)
    ada_rated, bea_rated, cyd_rated = (rating.ordinal() for rating in ratings if rating)
    assert ada_rated > cyd_rated > bea_rated  # bea came last in the forfeit, cyd second
    table = standings.table()
    assert [row[0] for row in table] == ["player", "ada", "cyd (bot)", "bea (bot)"]


def test_a_record_with_one_damaged_entry_is_said_to_be_damaged_and_where(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, played: Played
) -> None:
    signed = load(played.record)
    middle = len(signed) // 2
    envelope = log_pb2.SignedEntry.FromString(signed[middle])
    envelope.signature = bytes([envelope.signature[0] ^ 1]) + envelope.signature[1:]
    damaged = rewritten(tmp_path / "damaged.cdr", [
        *signed[:middle], envelope.SerializeToString(), *signed[middle + 1 :]])
    start = sum(1 + len(_varint(len(entry))) + len(entry) for entry in signed[:middle])
    verdict = verified(capsys, damaged, 1)
    assert verdict[0].startswith(f"the record file is damaged: 1 of its {len(signed)} entries is")
    assert verdict[1].startswith(f"  damaged: entry {middle + 1} of {len(signed)} (bytes {start}-")
    assert "the signature does not verify" in verdict[1]
    assert verdict[-1].startswith("verdict: DAMAGED RECORD")
    assert not any("withheld" in line or line.startswith("unreadable") for line in verdict)


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        out.append((value & 0x7F) | (0x80 if value > 0x7F else 0))
        value >>= 7
        if not value:
            return bytes(out)


def test_standings_keep_each_games_players_and_ratings_apart() -> None:
    from condottiere.cli.standings import GameFacts, Night
    from condottiere.crypto import Identity
    from condottiere.interface import Outcome, OutcomeKind

    ada, bea = (Identity.generate().public.raw for _ in range(2))
    won = Outcome(OutcomeKind.VICTORY, (0,), "first to 5")
    night = Night()
    night.add(Path("a.cdr"), GameFacts("t1", (ada, bea), ("ada", "bea"), won, frozenset(),
                                       (1, 0), (2, 1)))
    night.add(Path("b.cdr"), GameFacts("t2", (ada, bea), ("ada", "bea"), won, frozenset(),
                                       (1, 0), (2, 1), game="captains"))
    assert list(night.games) == ["condottiere", "captains"] and night.counted == 2
    for standings in night.games.values():
        assert [player.games for player in standings.players.values()] == [1, 1]
