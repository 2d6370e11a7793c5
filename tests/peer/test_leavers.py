"""Real peer processes on loopback whose seat goes away: killed with ``kill -9`` and never
restarted, or paused (SIGSTOP) and resumed before or after its deadline. The others never
freeze: they put the seat out on every peer alike, write a record each, and ``verify`` names
the seat. Deadlines are short (a few seconds) so that each test runs in well under a minute.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.peer.processes import PeerProcess, Peers, peers_in

DEADLINES = ("--step-deadline", "4", "--bot-move-deadline", "4", "--move-deadline", "4")
COIN = ("--coin-timeout", "4")
"""A coin reveal of three committers or more is the coin's own business (a seat gone between
its commitment and its reveal is blamed as a withholder once this timeout passes)."""
GAME_SECONDS = 150
"""A bound on a whole game of bots on a loaded machine."""


DYING = f"{Path(__file__).with_name('dying_bot.py')}:DyingBot"


def start_table(
    peers: Peers,
    root: Path,
    edition: str,
    seats: int,
    seed: int = 0,
    strategies: dict[int, str] | None = None,
    traced: int | None = None,
    cheats: dict[int, str] | None = None,
) -> list[PeerProcess]:
    """A host and ``seats - 1`` bot peers at its table, every seat played by ``greedy``
    (or by ``strategies[seat]``), with short deadlines; the host writes its trace to
    ``root/host.trace``, the ``traced``-th bot to ``root/trace``; the bot of a seat of
    ``cheats`` runs that module (a dishonest peer of the tests) instead of the command."""
    strategies = strategies or {}
    host = peers.start(
        ["host", "--edition", edition, "--seats", str(seats), "--strategy", "greedy",
         "--name", f"{edition}-{seats}", "--seed", str(seed), *DEADLINES, *COIN,
         "--trace", str(root / "host.trace")],
        root / "seat0",
    )
    address = host.address()
    host.wait_for("hosting", 20)
    table = [host]
    for seat in range(1, seats):
        trace = ["--trace", str(root / "trace")] if seat == traced else []
        strategy = strategies.get(seat, "greedy")
        args = ["bot", "--join", address, "--player", f"bot{seat}", "--strategy", strategy,
                "--seed", str(seed + seat), *COIN, *trace]
        module = (cheats or {}).get(seat)
        if module is None:
            table.append(peers.start(args, root / f"seat{seat}"))
        else:
            data = root / f"seat{seat}"
            table.append(peers.start_program(
                [sys.executable, "-m", module, *args, "--data", str(data)], data, [module]))
    return table


def wait_step(trace: Path, kind: str, timeout: float = GAME_SECONDS, after: int = 0) -> int:
    """Wait until the traced peer's table waits at a step of ``kind`` (numbered above
    ``after``); that step's number."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if trace.exists():
            written = trace.read_text()
            for line in written[: written.rfind("\n") + 1].splitlines():  # whole lines
                step = json.loads(line)
                if step["what"] == "step" and step["kind"] == kind and step["number"] > after:
                    return int(step["number"])
        time.sleep(0.02)
    raise AssertionError(f"the traced peer never waited at a {kind} step")


def verify(record: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "condottiere.cli.main", "verify", record],
        capture_output=True, text=True, timeout=120, check=False,
    )
    return done.stdout + done.stderr


def finish(peers: Peers, survivors: list[PeerProcess]) -> list[dict[str, object]]:
    """Wait for every survivor to end (whatever its status) and read its summary."""
    for peer in survivors:
        peers.wait_for_exit(peer, GAME_SECONDS)
    return [peer.result() for peer in survivors]


def test_a_two_seat_game_whose_bot_is_killed_at_a_move_ends_by_forfeit(tmp_path: Path) -> None:
    with peers_in(tmp_path) as peers:
        host, bot = start_table(peers, tmp_path, "zman-duel", 2, seed=1, strategies={1: DYING})
        assert peers.wait_for_exit(bot, GAME_SECONDS) == -signal.SIGKILL
        (result,) = finish(peers, [host])
        assert result["halt"] is None and result["winners"] == [0], host.output()
        host.wait_for(r"deadlines: a move 4 s \(a bot's 4 s\), a protocol step 4 s", 1)
        text = verify(str(result["record"]))
        assert "FORFEIT" in text and "seat 1 (" in text and "silent at a move" in text, text
        assert "signed by seat 0" in text, text


@pytest.mark.parametrize("step", ["shuffle", "shares", "coin_commit", "move"])
def test_a_four_seat_game_whose_peer_is_killed_finishes_the_same_on_the_three_others(
    tmp_path: Path, step: str
) -> None:
    with peers_in(tmp_path) as peers:
        dying = {2: DYING} if step == "move" else {}
        table = start_table(peers, tmp_path, "zman", 4, seed=2, strategies=dying, traced=2)
        victim = table[2]
        if step == "move":
            peers.wait_for_exit(victim, GAME_SECONDS)
        else:
            wait_step(tmp_path / "trace", step)
            peers.kill(victim)
        survivors = [peer for peer in table if peer is not victim]
        results = finish(peers, survivors)
        assert all(r["halt"] is None and r["audited"] for r in results), peers.outputs(survivors)
        assert len({str(r["record_hash"]) for r in results}) == 1
        assert len({str(r["winners"]) for r in results}) == 1
        assert len({json.dumps(r["state"], sort_keys=True) for r in results}) == 1
        text = verify(str(results[0]["record"]))
        left = re.search(r"left: seat (\d) \(bot2\) silent at ([a-z -]+) for \d+ s; "
                         r"signed by seats ([\d, ]+)", text)
        assert left is not None, text
        seat = int(left.group(1))
        assert left.group(3) == ", ".join(str(s) for s in range(4) if s != seat)
        if step == "move":
            assert left.group(2) == "a move"
        verdict = rf"verdict: (FINISHED|FORFEIT) without seat {seat} \(bot2\)"
        withheld = rf"CHEAT by seat {seat} \(bot2\): bad-proof: withheld its coin reveal"
        assert re.search(verdict, text) or (step == "coin_commit" and re.search(withheld, text))


def test_a_four_seat_game_whose_peer_is_killed_at_the_keys_finishes_the_same_on_the_others(
    tmp_path: Path,
) -> None:
    with peers_in(tmp_path) as peers:
        table = start_table(peers, tmp_path, "zman", 4, seed=6, traced=2)
        victim = table[2]
        wait_step(tmp_path / "trace", "keys")
        peers.kill(victim)
        survivors = [peer for peer in table if peer is not victim]
        results = finish(peers, survivors)
        assert all(r["halt"] is None and r["audited"] for r in results), peers.outputs(survivors)
        assert len({str(r["record_hash"]) for r in results}) == 1
        assert len({str(r["winners"]) for r in results}) == 1
        assert len({json.dumps(r["state"], sort_keys=True) for r in results}) == 1
        text = verify(str(results[0]["record"]))
        left = re.search(r"left: seat (\d) \(bot2\) silent at ([a-z -]+) for \d+ s", text)
        assert left is not None, text
        # killed right after its keys went out: silent at the backup of the keys or their
        # check (the three others key the decks again without it, and every card is audited),
        # or, if its check went out too, at the first shuffle (the others stand in for it)
        if left.group(2) == "a shuffle":
            assert re.search(rf"verdict: FINISHED without seat {left.group(1)} \(bot2\)", text)
        else:
            assert f"verdict: FAIR, played without seat {left.group(1)} (bot2)" in text, text


def test_a_four_seat_game_whose_peer_is_killed_at_the_audit_ends_the_same_on_the_others(
    tmp_path: Path,
) -> None:
    with peers_in(tmp_path) as peers:
        table = start_table(peers, tmp_path, "zman", 4, seed=5, traced=2)
        victim = table[2]
        wait_step(tmp_path / "trace", "audit")
        peers.kill(victim)
        survivors = [peer for peer in table if peer is not victim]
        results = finish(peers, survivors)
        assert all(r["halt"] is None for r in results), peers.outputs(survivors)
        assert len({str(r["record_hash"]) for r in results}) == 1
        assert len({str(r["winners"]) for r in results}) == 1
        text = verify(str(results[0]["record"]))
        assert "verdict: FAIR" in text or re.search(r"FINISHED without seat \d \(bot2\)", text)


def test_a_bot_paused_shorter_than_its_deadline_is_not_put_out(tmp_path: Path) -> None:
    with peers_in(tmp_path) as peers:
        host, bot = start_table(peers, tmp_path, "zman-duel", 2, seed=3, traced=1)
        wait_step(tmp_path / "trace", "move")
        bot.process.send_signal(signal.SIGSTOP)
        time.sleep(1.5)
        bot.process.send_signal(signal.SIGCONT)
        results = finish(peers, [host, bot])
        assert all(r["halt"] is None and r["audited"] for r in results), results
        assert results[0]["record_hash"] == results[1]["record_hash"]
        assert "verdict: FAIR" in verify(str(results[0]["record"]))


def test_a_bot_paused_past_its_deadline_loses_by_forfeit_without_anyone_waiting_for_it(
    tmp_path: Path,
) -> None:
    with peers_in(tmp_path) as peers:
        host, bot = start_table(peers, tmp_path, "zman-duel", 2, seed=4, traced=1)
        wait_step(tmp_path / "trace", "move")
        bot.process.send_signal(signal.SIGSTOP)  # never resumed: stopped with the test
        (result,) = finish(peers, [host])
        assert result["halt"] is None and result["winners"] == [0]
        assert "FORFEIT" in verify(str(result["record"]))



def start_with_a_person(
    peers: Peers, root: Path, seats: int, seed: int
) -> tuple[list[PeerProcess], PeerProcess]:
    """A host and ``seats - 2`` bot peers, played by ``greedy``, and a person (carl) at the
    plain console of a ``join`` peer, whom the test types for: the bots' peers, and carl's."""
    host = peers.start(
        ["host", "--edition", "zman", "--seats", str(seats), "--strategy", "greedy",
         "--name", f"polite-{seats}", "--seed", str(seed), *DEADLINES, *COIN],
        root / "seat0",
    )
    address = host.address()
    host.wait_for("hosting", 20)
    table = [host]
    for seat in range(1, seats - 1):
        table.append(peers.start(
            ["bot", "--join", address, "--player", f"bot{seat}", "--strategy", "greedy",
             "--seed", str(seed + seat), *COIN],
            root / f"seat{seat}",
        ))
        host.wait_for(rf"waiting  bot{seat} ", 30)  # seated in this order: carl last
    carl = peers.start(
        ["join", address, "--player", "carl", *COIN], root / "carl", console=True
    )
    return table, carl


def test_a_person_who_leaves_politely_mid_game_lets_the_three_others_finish_alike(
    tmp_path: Path,
) -> None:
    """Carl types ``leave`` at his first turn of a four-seat game: nobody states him silent
    (the leave is read at once), and the three bots finish the game with one record hash."""
    with peers_in(tmp_path) as peers:
        bots, carl = start_with_a_person(peers, tmp_path, 4, seed=7)
        carl.wait_for(r"^moves: ", GAME_SECONDS)
        carl.type("leave")
        carl.wait_for("you are leaving the table", 20)
        results = finish(peers, bots)
        assert all(r["halt"] is None and r["audited"] for r in results), peers.outputs(bots)
        assert len({str(r["record_hash"]) for r in results}) == 1
        assert len({str(r["winners"]) for r in results}) == 1
        assert len({json.dumps(r["state"], sort_keys=True) for r in results}) == 1
        text = verify(str(results[0]["record"]))
        left = re.search(r"left: seat (\d) \(carl\) left at a move \(left from the console\)",
                         text)
        assert left is not None, text
        seat = left.group(1)
        assert "silent" not in text, "a polite leave needs no statement"
        assert re.search(rf"verdict: (FINISHED|FORFEIT) without seat {seat} \(carl\)", text)


def test_a_seat_killed_before_a_reshuffle_is_keyed_out_of_the_deck_by_the_others(
    tmp_path: Path,
) -> None:
    """A three-seat ``ffg`` game (four connected regions or six to win: it lasts several
    rounds, and each round forms the deck again) whose bot is killed at its second move: the
    next round's deck is keyed again by the two others alone (a ``rekey`` step, then their
    shuffles), they finish with one record hash, and ``verify`` checks the re-keyed rounds
    whole."""
    with peers_in(tmp_path) as peers:
        table = start_table(peers, tmp_path, "ffg", 3, seed=8, strategies={2: DYING}, traced=1)
        victim = table[2]
        assert peers.wait_for_exit(victim, GAME_SECONDS) == -signal.SIGKILL
        wait_step(tmp_path / "trace", "rekey")
        survivors = table[:2]
        results = finish(peers, survivors)
        assert all(r["halt"] is None and r["audited"] for r in results), peers.outputs(survivors)
        assert len({str(r["record_hash"]) for r in results}) == 1
        assert len({json.dumps(r["state"], sort_keys=True) for r in results}) == 1
        text = verify(str(results[0]["record"]))
        left = re.search(r"left: seat (\d) \(bot2\) silent at a move", text)
        assert left is not None, text
        assert re.search(
            rf"audit of the decks keyed again without seat {left.group(1)} \(bot2\): every "
            r"shuffle, share and card checks out \(\d+ cards\)",
            text,
        ), text



def test_a_seats_false_statement_neither_freezes_a_four_seat_game_nor_erases_it(
    tmp_path: Path,
) -> None:
    """The fourth joiner, bot3 (``tests/peer/slanderer.py``, a real process), states the
    first seat it waits a move of silent and out before any deadline: nobody else follows its
    word, and the honest seats finish alike (bot3's own fold went another way: it is out),
    with a record that verifies as finished."""
    with peers_in(tmp_path) as peers:
        table = start_table(peers, tmp_path, "zman", 4, seed=4,
                            cheats={3: "tests.peer.slanderer"})
        honest = table[:3]
        results = finish(peers, honest)
    assert all(r["halt"] is None and r["audited"] for r in results), peers.outputs(honest)
    assert len({str(r["record_hash"]) for r in results}) == 1
    text = verify(str(results[0]["record"]))
    assert re.search(r"verdict: FINISHED without seat \d \(bot3\)", text), text


def standings(record: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "condottiere.cli.main", "standings", record],
        capture_output=True, text=True, timeout=120, check=False,
    )
    return done.stdout + done.stderr


def test_the_creator_killed_mid_game_leaves_a_record_that_verifies_as_finished(
    tmp_path: Path,
) -> None:
    """The host of a four-seat game (its creator, seat 0) is killed at a move and never
    restarted: the three others finish alike, and ``verify`` of a survivor's record says the
    game finished without seat 0 (not abandoned, not unfinished); ``standings`` counts it."""
    with peers_in(tmp_path) as peers:
        table = start_table(peers, tmp_path, "zman", 4, seed=9, traced=2)
        host = table[0]
        wait_step(tmp_path / "trace", "move")
        peers.kill(host)
        survivors = table[1:]
        results = finish(peers, survivors)
    assert all(r["halt"] is None and r["audited"] for r in results), peers.outputs(survivors)
    assert len({str(r["record_hash"]) for r in results}) == 1
    assert len({str(r["winners"]) for r in results}) == 1
    text = verify(str(results[0]["record"]))
    assert re.search(r"left: seat 0 \(\S+\) silent at [a-z -]+ for \d+ s", text), text
    assert re.search(r"verdict: (FINISHED|FORFEIT) without seat 0 \(\S+\)", text), text
    assert "NOT SHOWN FAIR" not in text and "abandoned" not in text, text
    counted = standings(str(results[0]["record"]))
    assert counted.startswith("1 game counted from 1 record"), counted
    assert "not counted" not in counted, counted


def test_a_six_seat_game_whose_seats_are_killed_one_after_another_finishes_at_two_seats(
    tmp_path: Path,
) -> None:
    """The peers of the host (the creator) and of bot1, bot2 and bot3 of a six-seat game are
    killed one after another and never restarted, each at the first move after the others
    re-keyed the decks without the one before and backed their secrets up again: the last two
    finish the game alike, and ``verify`` of a survivor's record says it finished without the
    four, not abandoned. (Seats go in the order the joiners come: the record names them.)"""
    with peers_in(tmp_path) as peers:
        table = start_table(peers, tmp_path, "zman", 6, seed=10, traced=5)
        trace = tmp_path / "trace"
        number = wait_step(trace, "move")
        for peer in (0, 1, 2, 3):
            peers.kill(table[peer])
            if peer < 3:  # the others re-key and back up again (at three seats or more)
                number = wait_step(trace, "redealing", after=number)
                number = wait_step(trace, "move", after=number)
        survivors = table[4:]
        results = finish(peers, survivors)
    assert all(r["halt"] is None and r["audited"] for r in results), peers.outputs(survivors)
    assert len({str(r["record_hash"]) for r in results}) == 1
    assert len({str(r["winners"]) for r in results}) == 1
    text = verify(str(results[0]["record"]))
    left = re.findall(r"left: seat (\d) \((\S+)\) silent at [a-z -]+ for \d+ s", text)
    assert sorted(name for _, name in left) == ["bot1", "bot2", "bot3", "host"], text
    assert ("0", "host") in left, text  # the creator among them
    assert re.search(r"verdict: (FINISHED|FORFEIT) without seat \d \(\S+\) and seat \d "
                     r"\(\S+\) and seat \d \(\S+\) and seat \d \(\S+\)", text), text
    assert "abandoned" not in text.lower(), text
