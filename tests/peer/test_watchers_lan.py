"""What a watcher learns of the hidden hands from how a seat plays, with real peer processes
on loopback: a stranger's view is the record every peer exports (every entry it held), read
again here the way a watcher follows the table, with the audit's card names to judge it.

- Which copy is shown: of several hidden copies of a card, the one a move shows is drawn
  uniformly at random (the peer's CSPRNG), so a reveal says nothing of the copies left hidden.
- When a forced move comes: no sooner than a chosen one (``peer/pacing.py``); the watcher is
  the other peer, whose trace says when each move reached it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from condottiere.crypto import Identity
from condottiere.peer.dealing import Card
from condottiere.peer.driver import MemoryKeeper, Table
from condottiere.peer.entries import LogEntry, read_entry
from condottiere.peer.record import load
from condottiere.peer.steps import ACCEPT, Step, Verdict
from condottiere.peer.steps.moves import MOVE
from tests.peer.deliberate import THINK
from tests.peer.processes import peers_in, start_table
from tests.peer.test_network import GAME_SECONDS


@dataclass(frozen=True)
class Shown:
    """One hidden card a move showed while its seat held other hidden copies of it."""

    card: Card
    copies: tuple[Card, ...]
    """Every hidden copy the seat held (the shown one among them), in slot order."""


class Watcher(Table):
    """A table with no seat that notes each move's hand before it is applied."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.moves: list[tuple[list[Card], set[Card], set[Card]]] = []
        """(the mover's hand, cards face up before, cards face up after) of every move."""
        super().__init__(*args, **kwargs)

    def _check(self, step: Step, author: bytes, entry: LogEntry) -> Verdict:
        dealer, seat = self.dealer, self.seat_of(author)
        if step.kind != MOVE or dealer is None or seat is None:
            return super()._check(step, author, entry)
        hand, before = list(dealer.hands[seat]), set(dealer.face_up)
        verdict = super()._check(step, author, entry)
        if verdict == ACCEPT:
            self.moves.append((hand, before, set(dealer.face_up)))
        return verdict


def watched(record: Path) -> Watcher:
    entries = [read_entry(signed) for signed in load(record)]
    definition = next(e for e in entries if e.kind == "table" and e.seq == 0)
    watcher = Watcher(Identity.generate(), definition, MemoryKeeper(), auto_ready=False)
    for entry in entries:
        watcher.receive(entry.signed)
    assert watcher.cards is not None, "the game was not audited"
    return watcher


def shown_among_copies(watcher: Watcher) -> list[Shown]:
    """Every hidden card shown while another hidden copy of it stayed in the hand."""
    names = watcher.cards
    assert names is not None
    found = []
    for hand, before, after in watcher.moves:
        hidden = [card for card in hand if card not in before]
        revealed = [card for card in hidden if card in after]
        for card in revealed:
            copies = tuple(sorted(c for c in hidden if names[c] == names[card]))
            if any(c not in revealed for c in copies):
                found.append(Shown(card, copies))
    return found


def test_a_reveal_among_hidden_copies_is_not_the_lowest_slot_first(tmp_path: Path) -> None:
    events: list[Shown] = []
    for game in range(3):
        root = tmp_path / f"game{game}"
        with peers_in(root) as peers:
            table = start_table(peers, root, "zman", 3, seed=40 + game)
            peers.wait_all(table, GAME_SECONDS)
        events += shown_among_copies(watched(Path(table[0].result()["record"])))
        if len(events) >= 20:
            break
    assert len(events) >= 20, f"only {len(events)} reveals among hidden copies in 3 games"
    lowest = sum(event.card == event.copies[0] for event in events)
    # the lowest-first rule showed the lowest copy every time; a uniform draw does so with
    # probability 1/k for k copies, so all 20 or more (probability 2**-20 at most) is not luck
    assert lowest < len(events), f"the lowest slot was shown in all {len(events)} reveals"


def trace_of(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_forced_move_takes_as_long_as_a_chosen_one_to_a_watcher(tmp_path: Path) -> None:
    """Two bot peers that think THINK seconds over every move they choose. A watcher (the
    other peer: when each move reached it) measures each move from the one before: a forced
    move used to come at once, a chosen one after THINK seconds; now a forced move comes after
    a delay drawn from the mover's own chosen moves' times, so never sooner than THINK."""
    strategy = ["--strategy", "tests.peer.deliberate:Deliberate"]
    traces = [tmp_path / f"trace{seat}.jsonl" for seat in range(2)]
    with peers_in(tmp_path) as peers:
        host = peers.start(
            ["host", "--edition", "zman", "--seats", "2", *strategy, "--name", "pace",
             "--seed", "5", "--trace", str(traces[0])],
            tmp_path / "seat0",
        )
        address = host.address()
        host.wait_for("hosting|taking up", 20)
        bot = peers.start(
            ["bot", "--join", address, *strategy, "--seed", "6", "--trace", str(traces[1])],
            tmp_path / "seat1",
        )
        peers.wait_all([host, bot], GAME_SECONDS * 2)
    forced = {seat: {line["turn"] for line in trace_of(traces[seat]) if line["what"] == "forced"}
              for seat in range(2)}
    assert forced[0] or forced[1], "no forced move in this game"
    gaps: list[tuple[bool, float]] = []
    for mover in range(2):
        watcher = trace_of(traces[1 - mover])
        applied = {line["turn"]: line["t"] for line in watcher if line["what"] == "applied"}
        own = {line["turn"] for line in trace_of(traces[mover]) if line["what"] == "submit"}
        for turn in sorted(applied):
            if turn - 1 in applied and (turn in forced[mover] or turn in own):
                gaps.append((turn in forced[mover], applied[turn] - applied[turn - 1]))
    forced_gaps = [gap for was_forced, gap in gaps if was_forced]
    assert forced_gaps and min(forced_gaps) >= THINK * 0.75, sorted(forced_gaps)
