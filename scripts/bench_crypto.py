"""Benchmark the mental-poker deck against the raw cost of its libsodium operations.

For a table of ``--seats`` seats and a deck of ``--cards`` cards it times

1. one shuffle step with its proof (a step in the middle of the chain, encoded for sending);
2. one verification of that step, from the bytes a peer receives (decoded as a peer does,
   without checking its points, which the verification multiplies: then verified);
3. the whole shuffle chain through :class:`condottiere.crypto.deck.Deck`: every seat shuffles in
   turn and every other seat decodes and verifies the step (all seats in this one process);
4. one seat's shares (with proofs) of a deal of ``--deal`` cards round the table: the cards
   dealt to every other seat (``Deck.make_shares``, as a peer makes them);
5. one seat checking the shares of its own cards of that deal, from the bytes it receives;
6. the whole deal: every seat makes its shares and one peer decodes and verifies all of them;
7. with three seats or more, the backup of the deal (DESIGN.md 6a, :mod:`condottiere.crypto.vss`):
   one dealer's dealing, and one seat opening and checking the pieces the others dealt it;
8. the stand-in for a seat that left (:mod:`condottiere.crypto.standin`), over every card of
   the deck: one remaining seat's parts with their proofs, and one remaining seat decoding and
   verifying the others' parts and combining them into the leaver's shares;
9. a card shown to one seat (:mod:`condottiere.crypto.sealed`), per card of the deal: its
   holder sealing its hidden part to the viewer, a bystander checking that from the bytes, the
   viewer checking it and opening the card; then a card handed over and revealed face up by
   its new holder (its opening made, and checked by another seat);
10. a search of the pile for a named card (:mod:`condottiere.crypto.pet`) over piles of
   ``--search-piles`` cards with ``--search-members`` members (the members work at once, so
   one member's work is the search's time on a LAN): one member's blinding and opening made,
   and one member decoding and verifying every other member's blinding and opening and
   combining them into the result;
11. a hidden hand proving that it holds a card of a set (:mod:`condottiere.crypto.holds`), for
   ``--hand`` hidden cards and a set of ``--set`` cards (7 and 13: a Captains hand kept, the 13
   captains): the proof made and encoded by its holder, and decoded and checked by another
   seat (a disjunctive Chaum-Pedersen proof of hand x set branches, 4 multiplications each).

Beside each figure it prints its floors (``scripts/floors.py``): the raw libsodium calls the
work made, counted during an extra untimed run, then timed right after each timed run (so
both see the same load from other processes) on one thread and spread over every core of the
machine (``os.cpu_count()`` threads). Each ratio is the median over the runs of a run's time
to the floor measured right after it; a ratio to the all-cores floor near 1 means the work
uses every core and costs little beyond its curve arithmetic. Each time is shown as the best
and the median of ``--repeat`` runs. Then the critical path a LAN would see, where every peer
has a machine like this one: each shuffler's step and the next one's verification, in
sequence, then one seat's shares and one owner's check of its own, beside the floor of the
same work.

Usage: ``.venv/bin/python scripts/bench_crypto.py [--seats 6] [--cards 110] [--deal 60]
[--repeat 5] [--search-piles 40,80] [--search-members 2,3,5] [--hand 7] [--set 13]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from floors import COLUMNS, CORES, counting, floor_seconds, op_columns

from condottiere.crypto.codec import encode_ciphertexts
from condottiere.crypto.context import Context
from condottiere.crypto.deck import Deck, Reveal, ShareBatch, ShuffleStep, Slot
from condottiere.crypto.elgamal import encrypt
from condottiere.crypto.group import L, hash_to_point, mul, mul_base, random_scalar
from condottiere.crypto.holds import HiddenCard, HoldsProof
from condottiere.crypto.holds import prove as prove_holds
from condottiere.crypto.holds import verify as verify_holds
from condottiere.crypto.pet import SearchBlinding, SearchOpening
from condottiere.crypto.sealed import Holding, SealedShare
from condottiere.crypto.sealing import BoxSecret
from condottiere.crypto.shuffle import shuffle, verify_shuffle
from condottiere.crypto.standin import (
    StandInBatch,
    combine_stand_in,
    make_stand_in,
    verify_stand_in,
)
from condottiere.crypto.vss import (
    MIN_BACKUP_SEATS,
    Dealing,
    make_dealing,
    open_piece,
    verification_key,
)

TABLE = b"bench-table"
SHUFFLE_TARGET_S = 0.150
DEAL_TARGET_S = 0.5
FLOOR_RATIO_TARGET = 1.3


@dataclass
class Row:
    label: str
    times: list[float]
    counts: Counter[str]
    floors_one: list[float]
    floors_all: list[float]
    target: float | None = None
    """A target for the median time, if any."""
    ratio_target: float | None = None
    """A target for the ratio to the all-cores floor, if any."""

    @property
    def ratio_one(self) -> float:
        return statistics.median(t / f for t, f in zip(self.times, self.floors_one, strict=True))

    @property
    def ratio_all(self) -> float:
        return statistics.median(t / f for t, f in zip(self.times, self.floors_all, strict=True))

    def cells(self) -> list[str]:
        median = statistics.median(self.times)
        verdicts = []
        if self.target is not None:
            met = median <= self.target
            verdicts.append(f"{'ok' if met else 'MISSED'} (<= {fmt(self.target)})")
        if self.ratio_target is not None:
            met = self.ratio_all <= self.ratio_target
            verdicts.append(f"{'ok' if met else 'MISSED'} (<= {self.ratio_target}x)")
        return [
            self.label,
            fmt(min(self.times)),
            fmt(median),
            *(str(n) for n in op_columns(self.counts)),
            fmt(statistics.median(self.floors_one)),
            f"{self.ratio_one:.2f}",
            fmt(statistics.median(self.floors_all)),
            f"{self.ratio_all:.2f}",
            ", ".join(verdicts),
        ]


def fmt(seconds: float) -> str:
    return f"{seconds * 1e3:.1f} ms" if seconds < 10 else f"{seconds:.2f} s"


def measure(
    label: str,
    prepare: Callable[[], Callable[[], object]],
    repeat: int,
    target: float | None = None,
    ratio_target: float | None = None,
) -> Row:
    """Time the action ``prepare()`` returns (a fresh one each run), each run followed by its
    floors, so that the action and its floors see the same load from other processes."""
    counted = prepare()
    with counting() as counts:
        counted()
    row = Row(label, [], counts, [], [], target, ratio_target)
    for _ in range(repeat):
        action = prepare()
        start = time.perf_counter()
        action()
        row.times.append(time.perf_counter() - start)
        row.floors_one.append(floor_seconds(counts, 1, repeat=3))
        row.floors_all.append(floor_seconds(counts, CORES, repeat=3))
    return row


def new_table(seats: int, names: list[str]) -> list[Deck]:
    decks = [Deck(TABLE, seats, seat, names) for seat in range(seats)]
    announcements = [deck.announcement for deck in decks]
    for deck in decks:
        deck.accept_keys(announcements)
    return decks


def shuffle_chain(decks: list[Deck]) -> None:
    """Every seat shuffles in turn; every other seat decodes and verifies the step (decoded as
    a peer decodes it: its points are checked by the verification)."""
    n = len(decks[0].cards)
    for seat, maker in enumerate(decks):
        step = maker.make_shuffle()
        data = step.encode()
        for deck in decks:
            received = step if deck is maker else ShuffleStep.decode(data, n, check_points=False)
            deck.accept_shuffle(seat, received)


def positions_of(owner: int, cards: int, seats: int) -> range:
    """The positions of a deal of ``cards`` round the table that go to ``owner``."""
    return range(owner, cards, seats)


def shares_made(deck: Deck, cards: int) -> list[bytes]:
    """``deck``'s seat's share batches of a deal of ``cards`` cards, encoded for sending."""
    seat = deck.seat
    return [
        deck.make_shares(owner, positions_of(owner, cards, deck.seats)).encode()
        for owner in range(deck.seats)
        if owner != seat
    ]


def deal(decks: list[Deck], cards: int, verifier: Deck) -> None:
    """Cards 0..cards-1 dealt round the table; every seat makes its shares of others' cards;
    ``verifier`` decodes and verifies every batch."""
    seats = len(decks)
    batches = []
    for seat, deck in enumerate(decks):
        for owner in range(seats):
            if owner != seat:
                batches.append((seat, deck.make_shares(owner, positions_of(owner, cards, seats))))
    for seat, batch in batches:
        verifier.accept_shares(seat, ShareBatch.decode(batch.encode()))


def own_shares_checked(decks: list[Deck], cards: int) -> Callable[[], None]:
    """Seat 0 decoding and checking the others' shares of its own cards (checking a batch
    again records the same shares again, so one dealt table serves every run)."""
    seats = len(decks)
    received = [
        (seat, decks[seat].make_shares(0, positions_of(0, cards, seats)).encode())
        for seat in range(1, seats)
    ]

    def check() -> None:
        for seat, data in received:
            decks[0].accept_shares(seat, ShareBatch.decode(data))

    return check


def backup_rows(decks: list[Deck], repeat: int) -> list[Row]:
    """The backup's figures at a table of three seats or more whose deck is shuffled: one
    dealing; seat 0 opening and checking the pieces the others dealt it; and, for the last
    seat leaving, seat 0's parts for every card of the deck, then seat 0 decoding and
    verifying the other remaining seats' parts and combining them (every message from its
    bytes)."""
    seats = len(decks)
    keys = decks[0].keys
    boxes = [BoxSecret.generate() for _ in range(seats)]
    box_keys = [box.public for box in boxes]
    dealt_by = [Context(TABLE, 0, seat) for seat in range(seats)]
    dealings = [
        make_dealing(deck.secret, box_keys, dealt_by[seat]).encode()
        for seat, deck in enumerate(decks)
    ]

    def one_dealing() -> bytes:
        return make_dealing(decks[0].secret, box_keys, dealt_by[0]).encode()

    def pieces_checked() -> None:
        for dealer in range(1, seats):
            received = Dealing.decode(dealings[dealer], seats)
            open_piece(received, keys[dealer], boxes[0], 0, dealt_by[dealer])

    leaver = seats - 1
    dealing = Dealing.decode(dealings[leaver], seats)
    remaining = range(leaver)
    pieces = [open_piece(dealing, keys[leaver], boxes[j], j, dealt_by[leaver]) for j in remaining]
    cards = dict(enumerate(decks[0].cards))
    parts_by = [Context(TABLE, decks[0].round, j) for j in remaining]
    batches = [make_stand_in(pieces[j], leaver, cards, parts_by[j]).encode() for j in remaining]
    verification_keys = [verification_key(dealing, keys[leaver], j) for j in remaining]

    def parts_made() -> bytes:
        return make_stand_in(pieces[0], leaver, cards, parts_by[0]).encode()

    def parts_checked_and_combined() -> None:
        received = {j: StandInBatch.decode(batches[j]) for j in remaining}
        for j in range(1, leaver):
            verify_stand_in(received[j], leaver, verification_keys[j], cards, parts_by[j])
        combine_stand_in(received, seats)

    count = len(cards)
    return [
        measure(
            f"7. backup: one dealing ({seats - 2} commitments, {seats - 1} boxes)",
            lambda: one_dealing,
            repeat,
        ),
        measure(f"   backup: one seat checks {seats - 1} pieces", lambda: pieces_checked, repeat),
        measure(f"8. stand-in: one seat's {count} parts", lambda: parts_made, repeat),
        measure(
            f"   stand-in: {(seats - 2) * count} parts verified + {count} shares combined",
            lambda: parts_checked_and_combined,
            repeat,
        ),
    ]


def one_seat_rows(seats: int, names: list[str], repeat: int) -> list[Row]:
    """The figures for one card shown to one seat, at a table of ``seats`` that dealt two
    cards to seat 0: seat 0 seals its first card to seat 1; seat 2 (a bystander) and seat 1
    (the viewer, which opens the card) check it from its bytes; then seat 0's second card is
    handed to seat 1, which reveals it face up, and seat 2 checks the reveal from its bytes."""
    decks = new_table(seats, names)
    shuffle_chain(decks)
    shown, handed = Slot(0, 0), Slot(0, 1)
    for seat in range(1, seats):
        batch = decks[seat].make_shares(0, [shown.position, handed.position])
        for deck in decks:
            deck.accept_shares(seat, batch)
    bystander = decks[2] if seats > 2 else None
    wire = decks[0].make_sealed_share(shown, 1).encode()
    given = decks[0].make_sealed_share(handed, 1)
    for deck in decks:
        deck.accept_sealed_share(0, given, handed=True)
    reveal = decks[1].make_reveal(handed).encode()
    checker = decks[0] if bystander is None else bystander

    def sealed_made() -> bytes:
        return decks[0].make_sealed_share(shown, 1).encode()

    def checked_by(deck: Deck) -> Callable[[], object]:
        return lambda: deck.check_sealed_share(0, SealedShare.decode(wire))

    def reveal_made() -> bytes:
        return decks[1].make_reveal(handed).encode()

    def reveal_checked() -> str:
        return checker.check_reveal(1, Reveal.decode(reveal))

    rows = [measure("9. one seat: a card's part sealed to it", lambda: sealed_made, repeat)]
    if bystander is not None:
        rows.append(
            measure("   checked by a bystander", lambda: checked_by(bystander), repeat)
        )
    rows += [
        measure("   checked and opened by the viewer", lambda: checked_by(decks[1]), repeat),
        measure("   a handed card's reveal made by its holder", lambda: reveal_made, repeat),
        measure("   that reveal checked (the card opened)", lambda: reveal_checked, repeat),
    ]
    return rows


class _SearchTable:
    """``members`` seats with a shuffled pile of ``pile`` cards, dealt to nobody, and the bytes
    of every member's blinding of search 1 and of its opening; a fresh deck of seat 0 is built
    (untimed) for each run that checks them."""

    CARD = "card-3"

    def __init__(self, members: int, pile: int) -> None:
        self.names = [f"card-{i}" for i in range(pile)]
        self.decks = new_table(members, self.names)
        self.steps = []
        for seat, maker in enumerate(self.decks):
            step = maker.make_shuffle()
            for deck in self.decks:
                deck.accept_shuffle(seat, step)
            self.steps.append(step)
        self.positions = self.decks[0].undealt()
        self.blindings = [
            deck.make_search_blinding(1, self.CARD, self.positions).encode() for deck in self.decks
        ]
        for seat in range(members):
            for deck in self.decks:
                deck.accept_search_blinding(seat, SearchBlinding.decode(self.blindings[seat]))
        self.openings = [deck.make_search_opening(1).encode() for deck in self.decks]

    def made(self) -> Callable[[], object]:
        """Seat 0 makes its blinding (of another search: search 1 is past its blinding) and
        its opening of search 1, encoded."""
        deck = self.decks[0]

        def make() -> tuple[bytes, bytes]:
            blinding = deck.make_search_blinding(2, self.CARD, self.positions).encode()
            return blinding, deck.make_search_opening(1).encode()

        return make

    def _member(self, blindings: range) -> Deck:
        """A fresh deck of seat 0 with the keys and the shuffle (steps it checked before)
        and the blindings of ``blindings`` in (untimed)."""
        deck = Deck(TABLE, len(self.decks), 0, self.names, self.decks[0].secret)
        deck.accept_keys([d.announcement for d in self.decks])
        for seat, step in enumerate(self.steps):
            deck.accept_shuffle(seat, step, verify=False)
        for seat in blindings:
            deck.accept_search_blinding(seat, SearchBlinding.decode(self.blindings[seat]))
        return deck

    def blindings_checked(self) -> Callable[[], object]:
        """Seat 0, its own blinding in, decodes and checks every other member's."""
        deck = self._member(range(1))

        def check() -> None:
            for seat in range(1, len(self.decks)):
                deck.accept_search_blinding(seat, SearchBlinding.decode(self.blindings[seat]))

        return check

    def openings_checked(self) -> Callable[[], object]:
        """Seat 0, every blinding and its own opening in, decodes and checks every other
        member's opening, then finds the card."""
        deck = self._member(range(len(self.decks)))
        deck.accept_search_opening(0, SearchOpening.decode(self.openings[0]))

        def check() -> tuple[int, ...]:
            for seat in range(1, len(self.decks)):
                deck.accept_search_opening(seat, SearchOpening.decode(self.openings[seat]))
            return deck.search_result(1)

        return check


def summed(label: str, parts: list[Row]) -> Row:
    """One figure made of several measured in turn: run ``i`` is the sum of every part's run
    ``i`` (and so are its floors and counts)."""
    counts: Counter[str] = Counter()
    for part in parts:
        counts.update(part.counts)
    return Row(
        label,
        [sum(times) for times in zip(*(part.times for part in parts), strict=True)],
        counts,
        [sum(f) for f in zip(*(part.floors_one for part in parts), strict=True)],
        [sum(f) for f in zip(*(part.floors_all for part in parts), strict=True)],
    )


def search_rows(piles: list[int], members: list[int], repeat: int) -> list[Row]:
    """For each pile size and number of members: one member's blinding and opening made, and
    one member checking every other member's blinding and opening and finding the card."""
    rows = []
    for pile in piles:
        for count in members:
            table = _SearchTable(count, pile)
            label = f"10. search {pile} cards, {count} members"
            rows.append(measure(f"{label}: one's blinding + opening", table.made, repeat))
            checked = [
                measure("blindings", table.blindings_checked, repeat),
                measure("openings", table.openings_checked, repeat),
            ]
            rows.append(summed(f"{' ' * len(label)}  {count - 1} others' checked", checked))
    return rows


def hand_proof_rows(seats: int, hand: int, wanted: int, repeat: int) -> list[Row]:
    """A hand of ``hand`` hidden cards dealt to seat 0 of ``seats`` (its first card of the set
    of ``wanted`` cards) proving it holds a card of the set, and another seat checking it."""
    secrets = [random_scalar() for _ in range(seats)]
    joint = mul_base(sum(secrets) % L)
    points = [hash_to_point(b"bench-holds", n.to_bytes(2, "little")) for n in range(hand + wanted)]
    known = []
    for n in range(hand):
        card = encrypt(points[n], joint, random_scalar())
        public = [mul(x, card[0]) for x in secrets[1:]]
        known.append(HiddenCard.of(mul_base(secrets[0]), Holding.dealt(card), card, public))
    members = [points[0], *points[hand : hand + wanted - 1]]
    context = Context(TABLE, 0, 0)
    wire = prove_holds(secrets[0], known, members, (0, 0), context).encode()

    def made() -> bytes:
        return prove_holds(secrets[0], known, members, (0, 0), context).encode()

    def checked() -> None:
        verify_holds(HoldsProof.decode(wire, hand * wanted), known, members, context)

    label = f"11. a hand of {hand} proves a card of {wanted}"
    return [
        measure(f"{label}: made", lambda: made, repeat),
        measure(f"{' ' * len(label)}  checked", lambda: checked, repeat),
    ]


def print_table(rows: list[Row]) -> None:
    header = [
        "operation",
        "best",
        "median",
        *COLUMNS,
        "floor 1 thread",
        "ratio",
        f"floor {CORES} cores",
        "ratio",
        "target",
    ]
    table = [header, *(row.cells() for row in rows)]
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    for index, line in enumerate(table):
        print(
            "  ".join(
                cell.ljust(w) if i == 0 else cell.rjust(w)
                for i, (cell, w) in enumerate(zip(line, widths, strict=True))
            ).rstrip()
        )
        if index == 0:
            print("  ".join("-" * w for w in widths))


def _sizes(text: str) -> list[int]:
    """``40,80`` -> ``[40, 80]``: whole numbers of 2 or more."""
    try:
        sizes = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not comma-separated whole numbers: {text!r}") from None
    if not sizes or min(sizes) < 2:
        raise argparse.ArgumentTypeError(f"each must be 2 or more: {text!r}")
    return sizes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seats", type=int, default=6, help="seats at the table (default 6)")
    parser.add_argument("--cards", type=int, default=110, help="cards in the deck (default 110)")
    parser.add_argument("--deal", type=int, default=60, help="cards dealt (default 60)")
    parser.add_argument("--repeat", type=int, default=5, help="timed runs per figure (default 5)")
    parser.add_argument(
        "--no-backup", action="store_true", help="skip the backup and stand-in figures"
    )
    parser.add_argument(
        "--search-piles",
        type=_sizes,
        default=[40, 80],
        help="pile sizes searched for a named card, comma-separated (default 40,80)",
    )
    parser.add_argument(
        "--search-members",
        type=_sizes,
        default=[2, 3, 5],
        help="members that search, comma-separated (default 2,3,5)",
    )
    parser.add_argument(
        "--no-one-seat", action="store_true", help="skip the figures of cards shown to one seat"
    )
    parser.add_argument("--no-search", action="store_true", help="skip the search figures")
    parser.add_argument(
        "--hand", type=int, default=7, help="hidden cards of a hand that proves (default 7)"
    )
    parser.add_argument(
        "--set", type=int, default=13, help="cards of the set it proves one of (default 13)"
    )
    parser.add_argument(
        "--only-hand-proof", action="store_true", help="only the figures of a hand's proof"
    )
    args = parser.parse_args(argv)
    if args.seats < 2 or args.cards < 1 or not 1 <= args.deal <= args.cards or args.repeat < 1:
        parser.error(
            "need at least 2 seats, 1 card, a deal of 1 card or more within the deck, 1 repeat"
        )

    if args.only_hand_proof:
        print_table(hand_proof_rows(args.seats, args.hand, args.set, args.repeat))
        print(_HAND_PROOF_NOTE)
        return 0
    names = [f"card-{i % 22}" for i in range(args.cards)]
    print(
        f"{args.seats} seats, {args.cards} cards, deal of {args.deal}; {args.repeat} runs each;"
        f" {CORES} cores, load average {os.getloadavg()[0]:.2f} at start (other busy"
        " processes inflate every figure, the floors too)"
    )

    decks = new_table(args.seats, names)
    key = decks[0].joint_key
    if key is None:
        sys.exit("bench_crypto: the table has no joint key")
    step0 = decks[0].make_shuffle()
    for deck in decks:
        deck.accept_shuffle(0, step0)
    deck_in = list(decks[0].cards)
    ctx = Context(TABLE, 0, 1)
    out, proof = shuffle(deck_in, key, ctx)
    deck_bytes, proof_bytes = encode_ciphertexts(out), proof.encode()

    def one_step() -> bytes:
        made, made_proof = shuffle(deck_in, key, ctx)
        return encode_ciphertexts(made) + made_proof.encode()

    def one_verification() -> None:
        step = ShuffleStep.decode(deck_bytes + proof_bytes, args.cards, check_points=False)
        verify_shuffle(deck_in, list(step.deck), key, step.proof, ctx)

    def fresh_chain() -> Callable[[], object]:
        table = new_table(args.seats, names)
        return lambda: shuffle_chain(table)

    dealt = new_table(args.seats, names)
    shuffle_chain(dealt)

    steps = args.seats * (args.seats - 1)
    own = len(positions_of(0, args.deal, args.seats)) * (args.seats - 1)
    made = args.deal - len(positions_of(1, args.deal, args.seats))
    rows = [
        measure("1. shuffle step + proof", lambda: one_step, args.repeat, SHUFFLE_TARGET_S),
        measure("2. verify one step", lambda: one_verification, args.repeat, SHUFFLE_TARGET_S),
        measure(f"3. chain: {args.seats} steps, {steps} verifications", fresh_chain, args.repeat),
        measure(
            f"4. deal {args.deal}: one seat's {made} shares",
            lambda: lambda: shares_made(dealt[1], args.deal),
            args.repeat,
            ratio_target=FLOOR_RATIO_TARGET,
        ),
        measure(
            f"5. deal {args.deal}: one seat checks its {own} shares",
            lambda: own_shares_checked(dealt, args.deal),
            args.repeat,
        ),
        measure(
            f"6. deal {args.deal}: {args.deal * (args.seats - 1)} shares made + verified",
            lambda: lambda: deal(dealt, args.deal, dealt[0]),
            args.repeat,
            DEAL_TARGET_S,
        ),
    ]
    backup = []
    if args.seats >= MIN_BACKUP_SEATS and not args.no_backup:
        backup = backup_rows(dealt, args.repeat)
    one_seat = [] if args.no_one_seat else one_seat_rows(args.seats, names, args.repeat)
    searches = []
    if not args.no_search:
        searches = search_rows(args.search_piles, args.search_members, args.repeat)
    hand_proof = hand_proof_rows(args.seats, args.hand, args.set, args.repeat)
    rows += backup + one_seat + searches + hand_proof
    print()
    print_table(rows)
    print()
    path = [rows[0], rows[1]]
    lan = args.seats * sum(statistics.median(row.times) for row in path)
    lan += statistics.median(rows[3].times) + statistics.median(rows[4].times)
    lan_floor = args.seats * sum(statistics.median(row.floors_all) for row in path)
    lan_floor += statistics.median(rows[3].floors_all) + statistics.median(rows[4].floors_all)
    print(
        f"LAN critical path (each peer a machine like this one): {args.seats} x (step + the next"
        f" one's verification) + one seat's shares + one owner's check = {fmt(lan)};"
        f" floor {fmt(lan_floor)}, ratio {lan / lan_floor:.2f}"
    )
    if backup:
        made_s, checked_s = (statistics.median(row.times) for row in backup[-2:])
        print(
            f"A card opened for a seat that left costs each remaining seat about"
            f" {fmt((made_s + checked_s) / args.cards)} (its part, the others' checked,"
            " combined)."
        )
    elif args.seats < MIN_BACKUP_SEATS:
        print("With 2 seats nothing is backed up: a seat that leaves forfeits.")
    if one_seat:
        made_s, *_, viewer_s, _, _ = (statistics.median(row.times) for row in one_seat)
        print(
            f"A card shown to one seat: {fmt(made_s)} for its holder, {fmt(viewer_s)} for the"
            " viewer to check and open it, while every other seat checks it too."
        )
    for made, checked in zip(searches[::2], searches[1::2], strict=True):
        total = statistics.median(made.times) + statistics.median(checked.times)
        floor = statistics.median(made.floors_all) + statistics.median(checked.floors_all)
        print(
            f"{made.label.split(':')[0].removeprefix('10. ').capitalize()}: one member's work"
            f" (what the search takes on a LAN, members working at once) {fmt(total)};"
            f" floor {fmt(floor)}, ratio {total / floor:.2f}"
        )
    print(_HAND_PROOF_NOTE)
    print(
        "Ratios are medians over the runs of time / floor (each run is followed by its floors)."
        f" Targets: the times above for the median, and <= {FLOOR_RATIO_TARGET}x the"
        f" {CORES}-core floor where shown."
    )
    return 0


_HAND_PROOF_NOTE = (
    "A hand's proof: its floor is its scalar multiplications alone (4 a branch, 2 for the true"
    " branch when made); the rest is hashing the statement and Python."
)


if __name__ == "__main__":
    raise SystemExit(main())
