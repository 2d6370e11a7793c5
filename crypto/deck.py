"""The deck as the peer layer drives it: one :class:`Deck` per seat, no algebra needed outside.

A game's deck goes through these steps, every one of them made by one seat and
accepted (verified, then applied) by every seat, the maker included:

1. **keys** - every seat publishes :attr:`Deck.announcement`; :meth:`Deck.accept_keys`
   checks every proof and builds the joint key and the starting deck
   ``(G, M_c + Y)``, one ciphertext per physical card in the order given;
2. **shuffle** - seats 0, 1, ... in turn publish :meth:`Deck.make_shuffle`
   (re-encrypt and permute with a proof of shuffle); :meth:`Deck.accept_shuffle`;
3. **deal** - for cards dealt to a seat, every other seat publishes
   :meth:`Deck.make_shares`; :meth:`Deck.accept_shares`; the owner then calls
   :meth:`Deck.open` to learn its card privately;
4. **face up** - the owner publishes :meth:`Deck.make_reveal` (its own share and
   the card it claims); :meth:`Deck.accept_reveal` tells everyone the card (a card
   handed to a seat, see 4b, is revealed by its new holder the same way);
4b. **one seat** - the seat that holds a card publishes :meth:`Deck.make_sealed_share`, its
   hidden part sealed to one viewer (:mod:`~condottiere.crypto.sealed`);
   :meth:`Deck.accept_sealed_share` opens the card on the viewer's deck alone, and with
   ``handed=True`` makes the viewer the card's holder (a card given, a hand conquered);
4b'. **a property of a hidden hand** - :meth:`Deck.hidden_card` gives what every seat knows
   of a card a seat holds, for the proof that a hand holds a card of a set
   (:mod:`~condottiere.crypto.holds`), and :meth:`Deck.points_named` the points of the set;
4c. **search** - every seat publishes :meth:`Deck.make_search_blinding` for a named card
   over the undealt pile, then :meth:`Deck.make_search_opening` (a plaintext equivalence
   test, :mod:`~condottiere.crypto.pet`); :meth:`Deck.search_result` gives the positions
   that hold it and :meth:`Deck.take_out` takes the card out of the pile, face up;
5. **reshuffle** - :meth:`Deck.reshuffle` starts a new round from chosen cards
   (hidden ones stay hidden, face-up ones come back as fresh encryptions of
   their known points, kept ones stay out) and the shuffle chain runs again;
6. **audit** - at the end, given every seat's secret, :meth:`Deck.audit`
   decrypts every card of the game and checks every claim.

Making never changes the deck; accepting does, so a peer that replays the
logs (its own included) rebuilds the same deck. Cards are addressed by
:class:`Slot` ``(round, position)``: round 0 is the first deck, each reshuffle
starts the next round, and a card keeps its slot while it stays out of the deck
(in a hand, on the table). Every check either passes or raises one
:class:`VerificationError` naming the seat to blame; a call made out of order
by the caller itself raises :class:`ValueError`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from condottiere.crypto.cards import Codebook, PhysicalCard
from condottiere.crypto.codec import (
    CIPHERTEXT_BYTES,
    Reader,
    decode_ciphertexts,
    encode_ciphertexts,
    encode_text,
    encode_u32,
)
from condottiere.crypto.context import Context
from condottiere.crypto.elgamal import Ciphertext, decrypt, trivial
from condottiere.crypto.errors import DecodeError, VerificationError
from condottiere.crypto.group import (
    POINT_BYTES,
    GroupError,
    L,
    Point,
    mul_base,
    random_scalar,
    sub,
    sum_points,
)
from condottiere.crypto.holds import HiddenCard
from condottiere.crypto.keys import KeyAnnouncement, joint_key, prove_key
from condottiere.crypto.pet import (
    SearchBlinding,
    SearchOpening,
    combine,
    make_blinding,
    matches,
    search_header,
    verify_blinding,
)
from condottiere.crypto.pet import make_opening as make_search_opening
from condottiere.crypto.pet import verify_opening as verify_search_opening
from condottiere.crypto.sealed import (
    Holding,
    SealedShare,
    make_opening,
    seal_share,
    unseal,
    verify_opening,
    verify_sealed,
)
from condottiere.crypto.shares import (
    DecryptionShare,
    ShareCheck,
    make_share,
    make_shares,
    share_point,
    unblind,
    verify_shares,
)
from condottiere.crypto.shuffle import ShuffleProof, shuffle, verify_shuffle
from condottiere.crypto.slot import Slot

__all__ = [
    "Claim",
    "Deck",
    "Reveal",
    "SealedShare",
    "SearchBlinding",
    "SearchOpening",
    "ShareBatch",
    "ShuffleStep",
    "Slot",
]


@dataclass(frozen=True, slots=True)
class ShuffleStep:
    """A seat's shuffled deck and its proof of shuffle."""

    deck: tuple[Ciphertext, ...]
    proof: ShuffleProof

    def encode(self) -> bytes:
        """The ciphertexts, then the proof."""
        return encode_ciphertexts(self.deck) + self.proof.encode()

    @classmethod
    def decode(cls, data: bytes, n: int, *, check_points: bool = True) -> ShuffleStep:
        """The step of an ``n``-card deck ``data`` encodes; :class:`DecodeError` if malformed.

        With ``check_points=False`` its points are not checked here: for a step that
        :meth:`Deck.accept_shuffle` verifies (the verification multiplies every point, and
        refuses any that is not in the group, blaming the seat) or one verified before.
        """
        if len(data) < n * CIPHERTEXT_BYTES:
            raise DecodeError(f"a shuffle step of {n} cards is truncated")
        head, proof = data[: n * CIPHERTEXT_BYTES], data[n * CIPHERTEXT_BYTES :]
        if check_points:
            deck = tuple(decode_ciphertexts(head, n))
        else:
            deck = tuple(
                (
                    bytes(head[i : i + POINT_BYTES]),
                    bytes(head[i + POINT_BYTES : i + CIPHERTEXT_BYTES]),
                )
                for i in range(0, len(head), CIPHERTEXT_BYTES)
            )
        return cls(deck, ShuffleProof.decode(proof, n, check_points=check_points))


@dataclass(frozen=True, slots=True)
class ShareBatch:
    """A seat's decryption shares for cards of one round dealt to ``owner``.

    Positions are strictly increasing, so a batch has exactly one encoding.
    """

    round: int
    owner: int
    positions: tuple[int, ...]
    shares: tuple[DecryptionShare, ...]

    def __post_init__(self) -> None:
        if len(self.positions) != len(self.shares):
            raise ValueError("a share batch needs one share per position")
        if any(a >= b for a, b in zip(self.positions, self.positions[1:], strict=False)):
            raise ValueError("share batch positions must be strictly increasing")

    def encode(self) -> bytes:
        """Round, owner, count (``u32`` each), the positions (``u32``), then the shares."""
        return (
            encode_u32(self.round)
            + encode_u32(self.owner)
            + encode_u32(len(self.positions))
            + b"".join(encode_u32(p) for p in self.positions)
            + b"".join(s.encode() for s in self.shares)
        )

    @classmethod
    def decode(cls, data: bytes) -> ShareBatch:
        """The batch ``data`` encodes; :class:`DecodeError` if malformed."""
        reader = Reader(data)
        round_, owner, count = reader.u32(), reader.u32(), reader.u32()
        if reader.remaining != count * (4 + DecryptionShare.ENCODED_BYTES):
            raise DecodeError(f"a batch of {count} shares has the wrong length")
        positions = tuple(reader.u32() for _ in range(count))
        shares = tuple(
            DecryptionShare.decode(reader.take(DecryptionShare.ENCODED_BYTES))
            for _ in range(count)
        )
        reader.finish()
        try:
            return cls(round_, owner, positions, shares)
        except ValueError as exc:
            raise DecodeError(str(exc)) from None


@dataclass(frozen=True, slots=True)
class Reveal:
    """The owner of a card shows it: its own share of the card, and the card it claims."""

    slot: Slot
    card: str
    share: DecryptionShare

    def encode(self) -> bytes:
        """Round and position (``u32``), the card name (length-prefixed), then the share."""
        return (
            encode_u32(self.slot.round)
            + encode_u32(self.slot.position)
            + encode_text(self.card)
            + self.share.encode()
        )

    @classmethod
    def decode(cls, data: bytes) -> Reveal:
        """The reveal ``data`` encodes; :class:`DecodeError` if malformed."""
        reader = Reader(data)
        slot = Slot(reader.u32(), reader.u32())
        card = reader.text()
        share = DecryptionShare.decode(reader.take(DecryptionShare.ENCODED_BYTES))
        reader.finish()
        return cls(slot, card, share)


@dataclass(frozen=True, slots=True)
class Claim:
    """A seat's statement, recorded by the engine, that the card at ``slot`` was ``card``."""

    seat: int
    slot: Slot
    card: str


_Made = TypeVar("_Made", SealedShare, SearchBlinding, SearchOpening)

_Opened = PhysicalCard | None
"""A card a sealed share opened on this deck (None on every deck but the viewer's)."""


@dataclass(slots=True)
class _Search:
    """One search of the pile for a named card (see :mod:`~condottiere.crypto.pet`)."""

    round: int
    card: str
    positions: tuple[int, ...]
    tests: tuple[tuple[int, PhysicalCard], ...]
    """Each test: a position searched and a copy of the card named."""
    header: bytes
    blindings: dict[int, SearchBlinding] = field(default_factory=dict)
    combined: tuple[Ciphertext, ...] | None = None
    """The combined pairs, fixed by the first opening made or accepted."""
    openings: dict[int, tuple[Point, ...]] = field(default_factory=dict)
    found: dict[int, PhysicalCard] | None = None


@dataclass(slots=True)
class _Round:
    """One deck's life: where its cards came from, each shuffle step, and what was dealt."""

    sources: tuple[Slot | PhysicalCard, ...]
    """For each starting position: the hidden slot it came from, or the known card."""
    steps: list[tuple[Ciphertext, ...]]
    owners: dict[int, int] = field(default_factory=dict)
    shares: dict[int, dict[int, Point]] = field(default_factory=dict)
    opened: dict[int, PhysicalCard] = field(default_factory=dict)
    revealed: dict[int, PhysicalCard] = field(default_factory=dict)
    unchecked: dict[int, dict[int, ShareCheck]] = field(default_factory=dict)
    """Shares recorded without verification: position -> seat -> the check still to run."""
    handed: dict[int, tuple[int, SealedShare]] = field(default_factory=dict)
    """Cards handed over: position -> the seat holding it now, and the share it received."""
    sealed: list[tuple[int, SealedShare, bool]] = field(default_factory=list)
    """Every share sealed to one seat, with the seat that sealed it and whether it handed the
    card over (or only showed it)."""
    seen: dict[int, PhysicalCard] = field(default_factory=dict)
    """Cards this seat learned from a share sealed to it."""
    taken: set[int] = field(default_factory=set)
    """Positions whose card a search took out of the pile (face up: in ``revealed``)."""
    members: tuple[int, ...] | None = None
    """The seats whose keys the round's cards are under (None: every seat); a round started
    after a seat left is keyed by the seats still there (:meth:`Deck.rekey`)."""
    key: Point | None = None
    """The round's joint key, where :attr:`members` is not every seat."""
    owed: dict[int, tuple[int, ...]] = field(default_factory=dict)
    """Leaver -> the starting positions still under its key (hidden cards that came back
    from a round it was a member of), until the others take its key off them."""

    @property
    def deck(self) -> tuple[Ciphertext, ...]:
        return self.steps[-1]


class Deck:
    """One seat's view of the mental-poker deck of one game.

    ``cards`` lists the deck card by card (``["10", "10", "heroine", ...]``);
    ``secret`` is this seat's ElGamal secret (fresh unless given, e.g. when a
    peer restarts from storage).
    """

    def __init__(
        self,
        table: bytes,
        seats: int,
        seat: int | None,
        cards: Iterable[str],
        secret: int | None = None,
    ) -> None:
        if seats < 2:
            raise ValueError("a deal needs at least two seats")
        if seat is not None and not 0 <= seat < seats:
            raise ValueError(f"seat {seat} is not one of {seats} seats")
        if secret is not None and not 0 < secret < L:
            raise ValueError("a secret is a non-zero scalar below L")
        self.table = table
        self.seats = seats
        self.seat = seat
        """This deck's seat; None for a deck that only watches (:meth:`watch`)."""
        self.codebook = Codebook(cards)
        if not self.codebook.cards:
            raise ValueError("a deck needs at least one card")
        self._points = dict(zip(self.codebook.cards, self.codebook.points, strict=True))
        self._secret: int | None = None
        self._announcement: KeyAnnouncement | None = None
        if seat is not None:
            self._secret = random_scalar() if secret is None else secret
            self._announcement = prove_key(self._secret, self._context(0, seat))
        self.keys: tuple[Point, ...] = ()
        self.joint_key: Point | None = None
        self._rounds: list[_Round] = []
        self._returned: set[Slot] = set()
        self._made_step: ShuffleStep | None = None
        self._ahead: tuple[tuple[Ciphertext, ...], ShuffleStep] | None = None
        """This seat's step made ahead (:meth:`make_shuffle_ahead`), with the deck it shuffled."""
        self._checked: dict[Slot, tuple[tuple[int, Reveal], PhysicalCard]] = {}
        self._gone: set[int] = set()
        """Seats that left: they shuffle no more (:meth:`drop_seat`)."""
        self._chains: dict[int, tuple[int, ...]] = {}
        """Each round's shufflers in order, where not every seat."""
        self._checked_sealed: dict[Slot, tuple[tuple[int, SealedShare, Holding], _Opened]] = {}
        """Sealed shares checked (:meth:`check_sealed_share`) and not accepted yet: who sealed
        which, what it held then, and the card it opened on this deck."""
        self._searches: dict[int, _Search] = {}
        self._made: list[SealedShare | SearchBlinding | SearchOpening] = []
        """What this seat made last of each kind: its own proofs need no second check."""

    @classmethod
    def watch(cls, table: bytes, seats: int, cards: Iterable[str]) -> Deck:
        """A deck of no seat: it checks everything the seats publish and makes nothing
        (``condottiere verify`` checks a game's record with one).

        >>> decks = [Deck(b"w", 2, seat, ["1", "2"]) for seat in range(2)]
        >>> watcher = Deck.watch(b"w", 2, ["1", "2"])
        >>> watcher.accept_keys([d.announcement for d in decks])
        >>> watcher.make_shuffle()
        Traceback (most recent call last):
        ...
        ValueError: a deck that only watches makes nothing
        """
        return cls(table, seats, None, cards)

    @property
    def secret(self) -> int:
        """This seat's ElGamal secret (keep it private until the audit)."""
        self._own()
        assert self._secret is not None
        return self._secret

    @property
    def announcement(self) -> KeyAnnouncement:
        """This seat's key and proof, to publish first."""
        self._own()
        assert self._announcement is not None
        return self._announcement

    def _own(self) -> int:
        if self.seat is None:
            raise ValueError("a deck that only watches makes nothing")
        return self.seat

    # -- state -------------------------------------------------------------------------------------

    def _context(self, round_: int, seat: int) -> Context:
        return Context(self.table, round_, seat)

    @property
    def round(self) -> int:
        """The current round (0 for the first deck), -1 before the keys are in."""
        return len(self._rounds) - 1

    @property
    def cards(self) -> tuple[Ciphertext, ...]:
        """The current deck of ciphertexts."""
        return self._current().deck

    @property
    def next_shuffler(self) -> int | None:
        """The seat whose shuffle step the current round awaits; None once every seat has."""
        chain = self._chain()
        done = len(self._current().steps) - 1
        return chain[done] if done < len(chain) else None

    def _chain(self) -> tuple[int, ...]:
        return self._chains.get(self.round, tuple(range(self.seats)))

    def members_of(self, round_: int) -> tuple[int, ...]:
        """The seats whose keys the cards of ``round_`` are under (every seat, unless the
        round was keyed after a seat left)."""
        if not 0 <= round_ < len(self._rounds):
            raise ValueError(f"no round {round_} yet")
        members = self._rounds[round_].members
        return tuple(range(self.seats)) if members is None else members

    def drop_seat(self, seat: int) -> None:
        """``seat`` left the table: it shuffles no more, from the current round's chain on
        (if it had not shuffled it yet) and in every later round. Its decryption shares of
        cards dealt from now on come from the others' stand-in parts
        (:meth:`record_stand_in`). A round whose shuffle it leaves unfinished is formed
        again without it (:meth:`_formed_without`)."""
        self._gone.add(seat)
        if not self._rounds:
            return
        if not self.ready and seat in self.members_of(self.round):
            self._formed_without(seat)
            return
        chain, done = self._chain(), len(self._current().steps) - 1
        self._chains[self.round] = chain[:done] + tuple(s for s in chain[done:] if s != seat)

    def _formed_without(self, leaver: int) -> None:
        """The current round, formed again after ``leaver`` left before its shuffle was done:
        its shuffle steps so far are dropped (no card of them was dealt or shown), and it
        starts again from its starting cards keyed by the seats still there, as
        :meth:`reshuffle` would have formed it: a known card (every card of the first round)
        encrypted afresh under their key, a hidden one with the leaver's key taken off by its
        recorded share, or owed (:meth:`rekey_owed`); then they alone shuffle it. (Its shares
        of cards shuffled further would not hold: the others could not stand in for it on
        this round at once, and a second leaver before the round is dealt would not be
        covered.)"""
        record = self._current()
        members, key = self._members_now()
        start = list(record.steps[0])
        owed = {gone: list(positions) for gone, positions in record.owed.items()}
        for position, source in enumerate(record.sources):
            if isinstance(source, PhysicalCard):
                start[position] = trivial(self.codebook.point_of(source), key)
            elif leaver in self.members_of(source.round):
                share = self._checked_share(self._rounds[source.round], source.position, leaver)
                if share is None:
                    owed.setdefault(leaver, []).append(position)
                else:
                    a, b = start[position]
                    start[position] = (a, sub(b, share))
        record.steps = [tuple(start)]
        record.members, record.key = members, key
        record.owed = {gone: tuple(positions) for gone, positions in sorted(owed.items())}
        self._chains[self.round] = self.staying
        self._ahead = self._made_step = None

    @property
    def staying(self) -> tuple[int, ...]:
        """The seats still at the table, in order (every seat but those that left)."""
        return tuple(s for s in range(self.seats) if s not in self._gone)

    def record_stand_in(
        self, leaver: int, shares: Mapping[int, Point], owners: Mapping[int, int]
    ) -> None:
        """Record ``leaver``'s decryption shares of current-round cards, combined from the
        others' verified stand-in parts (position -> share; ``owners``: position -> the seat
        the card is dealt to, for the cards dealt; a card still in the pile has none)."""
        record = self._current()
        for position, share in shares.items():
            if position in owners:
                record.owners.setdefault(position, owners[position])
            record.shares.setdefault(position, {})[leaver] = share

    def shared(self, slot: Slot, seat: int) -> bool:
        """Whether the card at ``slot`` no longer needs ``seat``'s decryption share: its
        round is keyed without it, its share is recorded (given, or stood in for), or the
        card was dealt to the seat (its share is the card's hidden part, known to whoever
        holds the card now: standing in for it would show the card to everyone)."""
        record = self._round_of(slot)
        return (
            seat not in self.members_of(slot.round)
            or seat in record.shares.get(slot.position, {})
            or record.owners.get(slot.position) == seat
        )

    def unshared(self, leaver: int) -> dict[int, Ciphertext]:
        """The current round's cards that still need ``leaver``'s decryption share (a seat
        that left): position -> ciphertext, once the round is shuffled (empty before, and for
        a round keyed without it). The others stand in for ``leaver``'s shares of them all
        at once (:meth:`record_stand_in`, no owners), so that no card of the round needs it
        again: the cards still in the pile, and any dealt card its share is missing from."""
        if not self.ready:
            return {}
        record = self._current()
        return {
            position: ciphertext
            for position, ciphertext in enumerate(record.deck)
            if position not in record.taken
            and position not in record.revealed
            and not self.shared(Slot(self.round, position), leaver)
        }

    @property
    def ready(self) -> bool:
        """True once every seat has shuffled the current round's deck: cards may be dealt."""
        return bool(self._rounds) and self.next_shuffler is None

    def _current(self) -> _Round:
        if not self._rounds:
            raise ValueError("the deck starts once every seat's key is in")
        return self._rounds[-1]

    def _round_of(self, slot: Slot) -> _Round:
        if not 0 <= slot.round < len(self._rounds):
            raise ValueError(f"no round {slot.round} yet")
        record = self._rounds[slot.round]
        if not 0 <= slot.position < len(record.deck):
            raise ValueError(f"round {slot.round} has no position {slot.position}")
        return record

    def owner_of(self, slot: Slot) -> int | None:
        """The seat that holds the card at ``slot``: the one it was dealt to, or the last one it
        was handed to (:meth:`accept_sealed_share`); None for a card dealt to nobody."""
        record = self._round_of(slot)
        handed = record.handed.get(slot.position)
        return handed[0] if handed is not None else record.owners.get(slot.position)

    def _holding(self, slot: Slot) -> tuple[int, Holding, SealedShare | None] | None:
        """Who holds the card at ``slot``, how it knows the card's hidden part, and the share
        it received the card as (None for the seat it was dealt to); None if nobody does."""
        record = self._round_of(slot)
        handed = record.handed.get(slot.position)
        if handed is not None:
            holder, share = handed
            return holder, Holding.received(share), share
        owner = record.owners.get(slot.position)
        if owner is None:
            return None
        return owner, Holding.dealt(record.deck[slot.position]), None

    def missing_shares(self, slot: Slot) -> list[int]:
        """The seats, other than the card's owner, whose share of ``slot`` is not in yet."""
        record = self._round_of(slot)
        have = record.shares.get(slot.position, {})
        owner = record.owners.get(slot.position)
        return [s for s in self.members_of(slot.round) if s != owner and s not in have]

    def known_card(self, slot: Slot) -> str | None:
        """The card at ``slot`` if this seat knows it (opened it, saw it revealed or taken out
        by a search, or was shown it alone: :meth:`accept_sealed_share`)."""
        record = self._round_of(slot)
        card = (
            record.revealed.get(slot.position)
            or record.opened.get(slot.position)
            or record.seen.get(slot.position)
        )
        return None if card is None else card.name

    # -- keys --------------------------------------------------------------------------------------

    def accept_keys(self, announcements: Sequence[KeyAnnouncement]) -> None:
        """Check every seat's key proof (seat ``i`` is the i-th) and start the first deck."""
        joint = self.check_keys(announcements)
        self.joint_key = joint
        self.keys = tuple(a.key for a in announcements)
        start = tuple(trivial(point, self.joint_key) for point in self.codebook.points)
        self._rounds.append(_Round(sources=self.codebook.cards, steps=[start]))

    def check_keys(self, announcements: Sequence[KeyAnnouncement]) -> Point:
        """Check every seat's key proof as :meth:`accept_keys` does, changing nothing (a caller
        with several decks checks them all before it starts any); the joint key."""
        if self._rounds:
            raise ValueError("the keys are already in")
        if len(announcements) != self.seats:
            raise ValueError(f"{self.seats} seats need {self.seats} keys")
        if self.seat is not None and announcements[self.seat].key != self.announcement.key:
            raise ValueError(f"the key given for seat {self.seat} is not this deck's own")
        return joint_key(announcements, self._context(0, 0))

    def _key(self) -> Point:
        if self.joint_key is None:
            raise ValueError("the deck starts once every seat's key is in")
        return self.joint_key

    def _round_key(self) -> Point:
        """The current round's joint key (see :attr:`_Round.key`)."""
        key = self._current().key
        return self._key() if key is None else key

    # -- shuffle -------------------------------------------------------------------------------

    def make_shuffle(self) -> ShuffleStep:
        """This seat's shuffle of the current deck, with its proof (to publish, then accept)."""
        seat = self._own()
        if self.next_shuffler != seat:
            raise ValueError(f"seat {seat} is not the one to shuffle now")
        if self._current().owed:
            raise ValueError("the deck is shuffled once the seats that left are keyed out")
        ahead, self._ahead = self._ahead, None
        if ahead is not None and ahead[0] == self.cards:
            self._made_step = ahead[1]
        else:
            deck, proof = shuffle(self.cards, self._round_key(), self._context(self.round, seat))
            self._made_step = ShuffleStep(tuple(deck), proof)
        return self._made_step

    def make_shuffle_ahead(self, step: ShuffleStep) -> ShuffleStep:
        """This seat's shuffle of the deck ``step`` makes, ``step`` being the step of the seat
        just before this one, not accepted yet: made (on another thread) while that step is
        verified, so that this seat's own step is ready the moment the one before it is
        accepted. :meth:`make_shuffle` returns it then, provided ``step``'s deck did become
        the current one; a step that fails its verification is never accepted, so what was
        made of it is never published. Nothing of the deck changes before that.

        >>> decks = [Deck(b"a", 2, seat, ["1", "2", "3"]) for seat in range(2)]
        >>> for d in decks: d.accept_keys([x.announcement for x in decks])
        >>> first = decks[0].make_shuffle()
        >>> ahead = decks[1].make_shuffle_ahead(first)
        >>> decks[1].accept_shuffle(0, first)
        >>> decks[1].make_shuffle() is ahead
        True
        """
        seat = self._own()
        if len(step.deck) != len(self.cards):
            raise ValueError("a step of another deck")
        deck, proof = shuffle(step.deck, self._round_key(), self._context(self.round, seat))
        made = ShuffleStep(tuple(deck), proof)
        self._ahead = (step.deck, made)
        return made

    def accept_shuffle(self, seat: int, step: ShuffleStep, *, verify: bool = True) -> None:
        """Verify ``seat``'s shuffle step and make its deck the current one.

        ``verify=False`` skips the proof, for a step this seat already verified once (a peer
        rebuilding its deck from its own store after a restart).
        """
        if seat != self.next_shuffler or self._current().owed:
            raise VerificationError(seat, "shuffled out of turn")
        if len(step.deck) != len(self.cards):
            raise VerificationError(seat, "shuffle step has the wrong number of cards")
        if verify and step is not self._made_step:  # a step made here needs no second check
            context = self._context(self.round, seat)
            verify_shuffle(self.cards, step.deck, self._round_key(), step.proof, context)
        self._made_step = None
        self._current().steps.append(step.deck)

    # -- deal --------------------------------------------------------------------------------------

    def make_shares(self, owner: int, positions: Iterable[int]) -> ShareBatch:
        """This seat's shares of the current round's cards at ``positions``, dealt to ``owner``."""
        seat = self._own()
        if owner == seat:
            raise ValueError("a seat never publishes shares of its own cards")
        if not self.ready:
            raise ValueError("cards are dealt once every seat has shuffled")
        ordered = tuple(sorted(set(positions)))
        record = self._current()
        context = self._context(self.round, seat)
        for position in ordered:
            if not 0 <= position < len(record.deck):
                raise ValueError(f"the deck has no position {position}")
            if position in record.taken:
                raise ValueError(f"position {position} was taken out of the pile by a search")
            dealt_to = record.owners.get(position, owner)
            if dealt_to != owner:
                raise ValueError(f"position {position} is dealt to seat {dealt_to}")
        items = [(record.deck[position], position) for position in ordered]
        shares = make_shares(self.secret, self.keys[seat], items, context)
        return ShareBatch(self.round, owner, ordered, tuple(shares))

    def accept_shares(self, seat: int, batch: ShareBatch, *, verify: bool = True) -> None:
        """Verify ``seat``'s shares and record them (and who the cards are dealt to): the same
        as :meth:`check_shares` then :meth:`record_shares`.

        Only the current round is dealt: shares for an earlier round (whose cards are in
        hands, on the table or back in the deck) are blamed on their maker.

        ``verify=False`` records the shares now and checks their proofs only when they are
        needed: when the card is opened (:meth:`open`) or shown (:meth:`check_reveal`). A seat
        needs the shares of a card dealt to another seat only once that card is shown, so it
        verifies them then, once, or never for a card that stays hidden.
        """
        self.record_shares(seat, batch, self.check_shares(seat, batch, verify=verify), verify)

    def check_shares(
        self, seat: int, batch: ShareBatch, *, verify: bool = True
    ) -> list[ShareCheck]:
        """Check ``seat``'s batch as :meth:`accept_shares` does, without recording anything
        (a caller with several batches checks them all before it records any); the checks,
        for :meth:`record_shares`."""
        if not 0 <= seat < self.seats:
            raise ValueError(f"no seat {seat}")
        if batch.owner == seat:
            raise VerificationError(seat, "published shares of its own cards")
        if not 0 <= batch.owner < self.seats:
            raise VerificationError(seat, f"dealt cards to seat {batch.owner}, who is not playing")
        if batch.round < self.round:
            raise VerificationError(seat, f"shares for round {batch.round}, which is over")
        if batch.round != self.round or not self.ready:
            raise VerificationError(seat, f"shares for round {batch.round}, which is not dealt")
        if seat not in self.members_of(batch.round):
            raise VerificationError(seat, f"shares for round {batch.round}, keyed without it")
        record = self._rounds[batch.round]
        context = self._context(batch.round, seat)
        checks = []
        for position, share in zip(batch.positions, batch.shares, strict=True):
            if position >= len(record.deck):
                raise VerificationError(seat, f"share for position {position}, beyond the deck")
            if position in record.taken:
                raise VerificationError(
                    seat, f"share for position {position}, taken out of the pile by a search"
                )
            dealt_to = record.owners.get(position, batch.owner)
            if dealt_to != batch.owner:
                raise VerificationError(
                    seat, f"position {position} is dealt to seat {dealt_to}, not {batch.owner}"
                )
            ciphertext = record.deck[position]
            checks.append(ShareCheck(share, self.keys[seat], ciphertext, position, context))
        if verify:
            verify_shares(checks)
        return checks

    def record_shares(
        self, seat: int, batch: ShareBatch, checks: Sequence[ShareCheck], verified: bool
    ) -> None:
        """Record a batch :meth:`check_shares` passed (``verified``: with its proofs)."""
        record = self._rounds[batch.round]
        for check in checks:
            record.owners[check.position] = batch.owner
            record.shares.setdefault(check.position, {})[seat] = check.share.share
            if not verified:
                record.unchecked.setdefault(check.position, {})[seat] = check

    def verify_pending(self, slots: Iterable[Slot]) -> None:
        """Check the shares of ``slots`` recorded without verification (see
        :meth:`accept_shares`); :class:`VerificationError` names the first seat whose share
        does not verify. Each share is checked once."""
        checks: list[ShareCheck] = []
        for slot in slots:
            record = self._round_of(slot)
            checks.extend(record.unchecked.get(slot.position, {}).values())
        verify_shares(sorted(checks, key=lambda check: (check.position, check.context.seat)))
        for slot in slots:
            self._round_of(slot).unchecked.pop(slot.position, None)

    def pending(self) -> list[Slot]:
        """The slots still in play whose shares were recorded without verification, in
        order (a seat with time to spare verifies them before their card is shown)."""
        return [
            Slot(round_, position)
            for round_, record in enumerate(self._rounds)
            for position in sorted(record.unchecked)
            if Slot(round_, position) not in self._returned
        ]

    def open(self, slot: Slot) -> str:
        """The card dealt to this seat at ``slot``, from the others' shares and this seat's own."""
        record = self._round_of(slot)
        seat = self._own()
        seen = record.seen.get(slot.position)
        if seen is not None and self.owner_of(slot) == seat:
            return seen.name  # handed to this seat: it opened the card when it received it
        if record.owners.get(slot.position) != seat:
            raise ValueError(f"{slot} is not dealt to seat {seat}")
        missing = self.missing_shares(slot)
        if missing:
            raise ValueError(f"{slot} still needs shares from seats {missing}")
        self.verify_pending([slot])
        ciphertext = record.deck[slot.position]
        points = [*record.shares[slot.position].values(), share_point(self.secret, ciphertext)]
        card = self._card(unblind(ciphertext, points))
        record.opened[slot.position] = card
        return card.name

    def _card(self, point: Point) -> PhysicalCard:
        card = self.codebook.card_of(point)
        if card is None:
            # Verified keys, shuffles and shares cannot lead here: the deck state is corrupt.
            raise RuntimeError("a verified card decrypts to no card of the deck")
        return card

    # -- face up -----------------------------------------------------------------------------------

    def make_reveal(self, slot: Slot) -> Reveal:
        """Show this seat's card at ``slot`` to everyone: its share with proof, and the card.

        For a card dealt to this seat the share is its decryption share ``x·a``; for a card
        handed to it (:meth:`accept_sealed_share`) it is ``x·R`` of the sealed pair
        ``(R, C)`` it received, which makes the card's hidden part ``C - x·R`` public
        (:func:`~condottiere.crypto.sealed.make_opening`): the reveal has the same shape and
        encoding either way, and every deck knows which it is from who holds the card.

        A card that went back into the deck is refused (:class:`ValueError`): its share would
        let anyone decrypt a card that is face down in a later round; so is a card this seat
        handed to another.
        """
        seat = self._own()
        record = self._round_of(slot)
        if slot in self._returned:
            raise ValueError(f"{slot} went back into the deck: it is no longer this seat's")
        holding = self._holding(slot)
        if holding is None or holding[0] != seat:
            raise ValueError(f"seat {seat} does not hold {slot}")
        received = holding[2]
        if received is not None:
            opening = make_opening(self.secret, received, self._context(slot.round, seat))
            return Reveal(slot, record.seen[slot.position].name, opening)
        card = record.opened.get(slot.position)
        if card is None:
            self.open(slot)
            card = record.opened[slot.position]
        share = make_share(
            self.secret,
            self.keys[seat],
            record.deck[slot.position],
            slot.position,
            self._context(slot.round, seat),
        )
        return Reveal(slot, card.name, share)

    def accept_reveal(self, seat: int, reveal: Reveal) -> str:
        """Check ``seat``'s reveal against the card dealt to it, and record the card face up;
        return the card's name."""
        checked = self._checked.pop(reveal.slot, None)
        if checked is not None and checked[0] == (seat, reveal):
            card = checked[1]
        else:
            card = self._checked_reveal(seat, reveal)
        self._round_of(reveal.slot).revealed[reveal.slot.position] = card
        return card.name

    def check_reveal(self, seat: int, reveal: Reveal) -> str:
        """The card ``seat``'s reveal shows, checked as :meth:`accept_reveal` does, without
        recording it: a move that shows a card can be checked whole before anything of it is
        applied. (The shares of the card are verified here, once, if they were not yet; a
        following :meth:`accept_reveal` of the same reveal checks nothing again.)"""
        card = self._checked_reveal(seat, reveal)
        self._checked[reveal.slot] = ((seat, reveal), card)
        return card.name

    def _checked_reveal(self, seat: int, reveal: Reveal) -> PhysicalCard:
        try:
            record = self._round_of(reveal.slot)
        except ValueError as exc:
            raise VerificationError(seat, f"reveals a card that does not exist: {exc}") from None
        position = reveal.slot.position
        holding = self._holding(reveal.slot)
        if holding is None or holding[0] != seat:
            raise VerificationError(
                seat, f"reveals {reveal.slot}, which is not dealt to it or was handed on"
            )
        if reveal.slot in self._returned:
            raise VerificationError(seat, f"reveals {reveal.slot}, which went back into the deck")
        missing = self.missing_shares(reveal.slot)
        if missing:
            raise ValueError(f"{reveal.slot} still needs shares from seats {missing}")
        received = holding[2]
        if seat == self.seat:
            known = record.opened.get(position) if received is None else record.seen[position]
        else:
            known = None
        if known is not None:  # this seat's own card: it knows it, and made the share itself
            if known.name != reveal.card:
                raise VerificationError(seat, f"claims {reveal.card!r} at {reveal.slot}")
            return known
        self.verify_pending([reveal.slot])
        ciphertext = record.deck[position]
        context = self._context(reveal.slot.round, seat)
        if received is None:
            check = ShareCheck(reveal.share, self.keys[seat], ciphertext, position, context)
            verify_shares([check])
            hidden = reveal.share.share
        else:
            hidden = verify_opening(reveal.share, self.keys[seat], received, context)
        card = self._card(unblind(ciphertext, [*record.shares[position].values(), hidden]))
        if card.name != reveal.card:
            raise VerificationError(
                seat, f"claims {reveal.card!r} at {reveal.slot}, but the card is {card.name!r}"
            )
        return card

    # -- one seat's view ---------------------------------------------------------------------------

    def make_sealed_share(self, slot: Slot, viewer: int) -> SealedShare:
        """The hidden part of the card at ``slot``, which this seat holds, sealed to ``viewer``
        alone (:mod:`~condottiere.crypto.sealed`): to show it the card, or to hand it over
        (the caller says which when every deck accepts it).

        The card must be dealt whole (every public share in) and still out of the deck; a card
        known face up to everyone needs no sealing (it is a name, and moves as one).
        """
        seat = self._own()
        holding = self._sealable(slot, viewer)
        if holding is None or holding[0] != seat:
            raise ValueError(f"seat {seat} does not hold {slot}")
        missing = self.missing_shares(slot)
        if missing:
            raise ValueError(f"{slot} still needs shares from seats {missing}")
        return self._keep(
            seal_share(
                self.secret,
                holding[1],
                self._round_of(slot).deck[slot.position],
                slot,
                viewer,
                self.keys[viewer],
                self._context(slot.round, seat),
            )
        )

    def _sealable(
        self, slot: Slot, viewer: int
    ) -> tuple[int, Holding, SealedShare | None] | None:
        if slot in self._returned:
            raise ValueError(f"{slot} went back into the deck")
        if not 0 <= viewer < self.seats:
            raise ValueError(f"no seat {viewer} to show {slot} to")
        if viewer in self._gone:
            raise ValueError(f"seat {viewer} left the table")
        holding = self._holding(slot)
        if holding is not None and holding[0] == viewer:
            raise ValueError(f"seat {viewer} holds {slot} itself")
        return holding

    def _keep(self, made: _Made) -> _Made:
        """Remember ``made``, this seat's own, so that accepting it checks no proof again."""
        self._made = [m for m in self._made if type(m) is not type(made)] + [made]
        return made

    def _made_here(self, seat: int, value: SealedShare | SearchBlinding | SearchOpening) -> bool:
        return seat == self.seat and value in self._made

    def check_sealed_share(self, seat: int, share: SealedShare) -> None:
        """Check ``seat``'s sealed share as :meth:`accept_sealed_share` does, recording nothing
        (a move that hands several cards over is checked whole before any is applied; the
        following :meth:`accept_sealed_share` of the same share checks nothing again, and the
        viewer's deck opens the card here, once). :class:`VerificationError` names ``seat``
        for a share of a card it does not hold, to a seat that is not playing, or whose proof
        does not verify; the viewer's own deck also names the seat of a bad public share of
        the card (verified here, if it was not yet)."""
        holding = self._sealer_holding(seat, share)
        card = self._opened_by(seat, share, holding)
        self._checked_sealed[share.slot] = ((seat, share, holding), card)

    def accept_sealed_share(self, seat: int, share: SealedShare, *, handed: bool) -> str | None:
        """Check ``seat``'s sealed share (as :meth:`check_sealed_share`) and record it: the
        viewer now knows the card (:meth:`known_card`); with ``handed`` the card is the
        viewer's from now on (:meth:`owner_of`, :meth:`make_reveal`, and the next
        :meth:`make_sealed_share` follow it), without it the share is only a look.

        Returns the card's name on the viewer's own deck, None on every other.
        """
        holding = self._sealer_holding(seat, share)
        checked = self._checked_sealed.pop(share.slot, None)
        if checked is not None and checked[0] == (seat, share, holding):
            card = checked[1]
        else:
            card = self._opened_by(seat, share, holding)
        record = self._round_of(share.slot)
        record.sealed.append((seat, share, handed))
        if handed:
            record.handed[share.slot.position] = (share.viewer, share)
            self._checked.pop(share.slot, None)  # a reveal checked before is the old holder's
            # a share this seat made before is of a holding that may be gone: check it if it comes
            self._made = [m for m in self._made if not isinstance(m, SealedShare)]
        if card is None:
            return None
        record.seen[share.slot.position] = card
        return card.name

    def _sealer_holding(self, seat: int, share: SealedShare) -> Holding:
        """How ``seat`` holds the card it seals in ``share``, after every check but the
        proof's; :class:`VerificationError` naming ``seat`` if it may not seal it."""
        if not 0 <= seat < self.seats:
            raise ValueError(f"no seat {seat}")
        if seat in self._gone:
            raise VerificationError(seat, "seals a card after it left the table")
        try:
            holding = self._sealable(share.slot, share.viewer)
        except ValueError as exc:
            raise VerificationError(seat, f"seals a card it cannot: {exc}") from None
        if holding is None or holding[0] != seat:
            raise VerificationError(seat, f"seals {share.slot}, which it does not hold")
        missing = self.missing_shares(share.slot)
        if missing:
            raise ValueError(f"{share.slot} still needs shares from seats {missing}")
        return holding[1]

    def _opened_by(self, seat: int, share: SealedShare, holding: Holding) -> _Opened:
        """Verify the proof of ``seat``'s ``share`` (it holds the card as ``holding``); the
        card, on the viewer's deck."""
        record = self._round_of(share.slot)
        ciphertext = record.deck[share.slot.position]
        context = self._context(share.slot.round, seat)
        viewer_key = self.keys[share.viewer]
        if not self._made_here(seat, share):
            verify_sealed(share, self.keys[seat], holding, ciphertext, viewer_key, context)
        if share.viewer != self.seat:
            return None
        self.verify_pending([share.slot])
        public = record.shares[share.slot.position].values()
        return self._card(unblind(ciphertext, [*public, unseal(share, self.secret)]))

    # -- a property of a hidden hand --------------------------------------------------------------

    def hidden_card(self, slot: Slot) -> tuple[int, HiddenCard]:
        """The seat that holds the card at ``slot`` and the card as every seat knows it:
        ``target - M = x·base`` for its point ``M`` (:class:`~condottiere.crypto.holds.HiddenCard`).
        Every public share of the card is verified first (:class:`VerificationError` names
        the seat of a bad one); ValueError for a card nobody holds, back in the deck, or
        still short of shares."""
        if slot in self._returned:
            raise ValueError(f"{slot} went back into the deck")
        holding = self._holding(slot)
        if holding is None:
            raise ValueError(f"nobody holds {slot}")
        missing = self.missing_shares(slot)
        if missing:
            raise ValueError(f"{slot} still needs shares from seats {missing}")
        self.verify_pending([slot])
        record = self._round_of(slot)
        public = record.shares[slot.position].values()
        holder = holding[0]
        return holder, HiddenCard.of(
            self.keys[holder], holding[1], record.deck[slot.position], public
        )

    def own_point(self, slot: Slot) -> Point:
        """The point of this seat's own card at ``slot`` (opened, or received and seen)."""
        record = self._round_of(slot)
        card = record.opened.get(slot.position) or record.seen.get(slot.position)
        if card is None or self.owner_of(slot) != self._own():
            raise ValueError(f"{slot} is not a card this seat holds and knows")
        return self.codebook.point_of(card)

    def points_named(self, names: Iterable[str]) -> tuple[Point, ...]:
        """The points of every card of this deck named in ``names`` (every copy), in deck
        order."""
        wanted = set(names)
        return tuple(
            point
            for card, point in zip(self.codebook.cards, self.codebook.points, strict=True)
            if card.name in wanted
        )

    # -- search ------------------------------------------------------------------------------------

    def undealt(self) -> tuple[int, ...]:
        """The positions of the current round's deck dealt to nobody and not taken out by a
        search: the pile a search looks through."""
        record = self._current()
        return tuple(
            p for p in range(len(record.deck)) if p not in record.owners and p not in record.taken
        )

    def pile_positions(self) -> tuple[int, ...]:
        """The current round's positions in pile order, leaving out the cards searches took
        out: a deal's ``i``-th card counted in that order (as games count them once a search
        took a card) is at position ``pile_positions()[i]``."""
        record = self._current()
        return tuple(p for p in range(len(record.deck)) if p not in record.taken)

    def _search_plan(self, search: int, card: str, positions: Iterable[int]) -> _Search:
        """The search these parameters start, checked against the current round (ValueError)."""
        if not 0 <= search < 2**32:
            raise ValueError(f"a search number is a u32, not {search}")
        if not self.ready:
            raise ValueError("a search looks through a shuffled deck")
        record = self._current()
        ordered = tuple(sorted(set(positions)))
        if not ordered:
            raise ValueError("a search needs at least one position")
        for position in ordered:
            if not 0 <= position < len(record.deck):
                raise ValueError(f"the deck has no position {position}")
            if position in record.owners:
                raise ValueError(f"position {position} is dealt to seat {record.owners[position]}")
            if position in record.taken:
                raise ValueError(f"position {position} was taken out by a search")
        copies = [c for c in self.codebook.cards if c.name == card]
        if not copies:
            raise ValueError(f"the deck has no card {card!r}")
        tests = tuple((position, copy) for position in ordered for copy in copies)
        return _Search(self.round, card, ordered, tests, search_header(search, card, ordered))

    def _search_items(self, plan: _Search) -> list[tuple[Ciphertext, Point]]:
        """Each test's card and the point of the copy it is tested against. A card is taken
        under the key of the round's members still at the table: the recorded shares of those
        that left are taken off it (the others stood in for them at once: :meth:`unshared`),
        so the search needs nobody that left."""
        record = self._rounds[plan.round]
        gone = [s for s in self.members_of(plan.round) if s in self._gone]
        items = []
        for position, copy in plan.tests:
            a, b = record.deck[position]
            for seat in gone:
                share = record.shares.get(position, {}).get(seat)
                if share is None:
                    raise ValueError(f"position {position} still needs the share of seat {seat}")
                b = sub(b, share)
            items.append(((a, b), self._points[copy]))
        return items

    def _searchers(self, round_: int) -> list[int]:
        """The seats that blind and open a search of ``round_``: its members still there."""
        return [s for s in self.members_of(round_) if s not in self._gone]

    def make_search_blinding(
        self, search: int, card: str, positions: Iterable[int]
    ) -> SearchBlinding:
        """This seat's blinding step of search number ``search`` of the current round's pile
        for ``card``, over ``positions`` (each dealt to nobody and not taken out: usually
        :meth:`undealt`). ``search`` numbers the game's searches (each a new number, the same
        on every peer): every proof is bound to it."""
        seat = self._own()
        plan = self._search_plan(search, card, positions)
        known = self._searches.get(search)
        if known is not None:
            if (known.round, known.card, known.positions) != (plan.round, card, plan.positions):
                raise ValueError(f"search {search} is of another card, round or positions")
            if known.combined is not None:
                raise ValueError(f"search {search} is past its blinding")
        items = self._search_items(plan)
        context = self._context(plan.round, seat)
        return self._keep(make_blinding(search, card, plan.positions, items, context))

    def accept_search_blinding(
        self,
        seat: int,
        blinding: SearchBlinding,
        *,
        card: str | None = None,
        positions: Iterable[int] | None = None,
    ) -> None:
        """Verify ``seat``'s blinding step and record it. The first blinding of a search number
        starts that search (card, positions); every later one must be of the same. ``card``
        and ``positions``, when given, are the search the game asked for (usually the card it
        names and :meth:`undealt`): a blinding of anything else is blamed on ``seat``.
        :class:`VerificationError` names ``seat`` for a blinding of another round, card or
        positions, of positions dealt or out of the deck, a second blinding, one after the
        openings began, or a proof that does not verify."""
        if not 0 <= seat < self.seats:
            raise ValueError(f"no seat {seat}")
        if card is not None and blinding.card != card:
            raise VerificationError(
                seat, f"searches for {blinding.card!r} where {card!r} was named"
            )
        if positions is not None and blinding.positions != tuple(sorted(set(positions))):
            raise VerificationError(seat, "searches other positions than the pile's")
        if seat in self._gone:
            raise VerificationError(seat, "blinds a search after it left the table")
        if blinding.round != self.round:
            raise VerificationError(
                seat, f"blinds a search of round {blinding.round}, not this one"
            )
        try:
            plan = self._search_plan(blinding.search, blinding.card, blinding.positions)
        except ValueError as exc:
            raise VerificationError(seat, f"blinds a search that cannot be: {exc}") from None
        known = self._searches.get(blinding.search, plan)
        if (known.round, known.card, known.positions) != (plan.round, plan.card, plan.positions):
            raise VerificationError(
                seat, f"blinds search {blinding.search} for another card or other positions"
            )
        if known.combined is not None:
            raise VerificationError(seat, f"blinds search {blinding.search} after its openings")
        if seat in known.blindings:
            raise VerificationError(seat, f"blinds search {blinding.search} twice")
        if not self._made_here(seat, blinding):
            verify_blinding(blinding, self._search_items(plan), self._context(plan.round, seat))
        known.blindings[seat] = blinding
        self._searches[blinding.search] = known

    def _search(self, search: int) -> _Search:
        known = self._searches.get(search)
        if known is None:
            raise ValueError(f"search {search} has not started")
        return known

    def missing_blindings(self, search: int) -> list[int]:
        """The seats still at the table whose blinding of ``search`` is not in yet."""
        known = self._search(search)
        if known.combined is not None:
            return []
        return [s for s in self._searchers(known.round) if s not in known.blindings]

    def _combined(self, search: int) -> tuple[Ciphertext, ...]:
        known = self._search(search)
        if known.combined is None:
            if any(seat in self._gone for seat in known.blindings):
                raise ValueError(f"search {search} was blinded by a seat that left: begin again")
            missing = self.missing_blindings(search)
            if missing:
                raise ValueError(f"search {search} still needs blindings from seats {missing}")
            known.combined = combine([known.blindings[s] for s in sorted(known.blindings)])
        return known.combined

    def make_search_opening(self, search: int) -> SearchOpening:
        """This seat's decryption shares of the combined pairs of ``search``, with proofs, once
        every blinding is in."""
        seat = self._own()
        known = self._search(search)
        if known.round != self.round:
            raise ValueError(f"search {search} is of round {known.round}, which is over")
        combined = self._combined(search)
        context = self._context(known.round, seat)
        return self._keep(
            make_search_opening(self.secret, search, known.header, combined, context)
        )

    def accept_search_opening(self, seat: int, opening: SearchOpening) -> None:
        """Verify ``seat``'s opening of a search and record it; :class:`VerificationError`
        names ``seat`` for an opening of a search not started, of another round, a second
        one, or one whose shares do not verify."""
        if not 0 <= seat < self.seats:
            raise ValueError(f"no seat {seat}")
        if seat in self._gone:
            raise VerificationError(seat, "opens a search after it left the table")
        known = self._searches.get(opening.search)
        if known is None:
            raise VerificationError(seat, f"opens search {opening.search}, which never started")
        if opening.round != known.round or known.round != self.round:
            raise VerificationError(seat, f"opens search {opening.search} in another round")
        if seat in known.openings:
            raise VerificationError(seat, f"opens search {opening.search} twice")
        combined = self._combined(opening.search)
        context = self._context(known.round, seat)
        if not self._made_here(seat, opening):
            verify_search_opening(opening, self.keys[seat], known.header, combined, context)
        known.openings[seat] = opening.points

    def missing_openings(self, search: int) -> list[int]:
        """The seats still at the table whose opening of ``search`` is not in."""
        known = self._search(search)
        return [s for s in self._searchers(known.round) if s not in known.openings]

    def search_result(self, search: int) -> tuple[int, ...]:
        """The positions of ``search`` that hold the card named, once the opening of every
        member of the round still at the table is in (a seat that left is needed by no search:
        :meth:`_search_items`). The result is fixed once given."""
        known = self._search(search)
        if known.found is not None:
            return tuple(sorted(known.found))
        combined = self._combined(search)
        missing = self.missing_openings(search)
        if missing:
            raise ValueError(f"search {search} still needs openings from seats {missing}")
        hits = matches(combined, [known.openings[s] for s in self._searchers(known.round)])
        known.found = {
            position: copy for (position, copy), hit in zip(known.tests, hits, strict=True) if hit
        }
        return tuple(sorted(known.found))

    def take_out(self, search: int, position: int) -> str:
        """Take the card ``search`` found at ``position`` out of the pile, face up: every deck
        knows it (:meth:`known_card`), no deal gives it, and :meth:`pile_positions` leaves it
        out; the order of the rest stays as it was, secret. Returns its name."""
        known = self._search(search)
        if known.found is None:
            raise ValueError(f"search {search} has no result yet")
        if position not in known.found:
            raise ValueError(f"search {search} found nothing at position {position}")
        if known.round != self.round:
            raise ValueError(f"search {search} is of round {known.round}, which is over")
        record = self._current()
        if position in record.taken:
            raise ValueError(f"position {position} is already out of the pile")
        card = known.found[position]
        record.taken.add(position)
        record.revealed[position] = card
        return card.name

    # -- reshuffle ---------------------------------------------------------------------------------

    def reshuffle(self, hidden: Sequence[Slot], face_up: Sequence[Slot]) -> None:
        """Start a new round from ``hidden`` cards (kept hidden) and ``face_up`` (revealed) ones.

        Hidden cards go back as their ciphertexts, face-up ones as fresh public
        encryptions of their known points; every other card (in hands) stays
        out. The new deck lists the hidden cards, then the face-up ones, in the
        order given; then every seat shuffles it again.

        After a seat left (:meth:`drop_seat`), the new round is keyed by the seats still
        there alone: face-up cards come back under their joint key, and each hidden card
        that came from a round the leaver was a member of comes back with the leaver's key
        taken off by its recorded share (``(a, b - x_L·a)``: the others stood in for it at
        once, :meth:`unshared`), or, where none is recorded, waits until the others take
        the leaver's key off it (:meth:`rekey_owed`, :meth:`rekey`); the round is shuffled
        after that, by them alone, and its cards never need the leaver again.
        """
        if not self.ready:
            raise ValueError("a reshuffle starts from a shuffled deck")
        slots = [*hidden, *face_up]
        if len(set(slots)) != len(slots):
            raise ValueError("a card can go back into the deck only once")
        if not slots:
            raise ValueError("a reshuffle needs at least one card")
        if self._returned.intersection(slots):
            raise ValueError(f"{sorted(self._returned.intersection(slots))} already went back")
        members, key = self._members_now()
        start: list[Ciphertext] = []
        sources: list[Slot | PhysicalCard] = []
        owed: dict[int, list[int]] = {}
        for slot in hidden:
            record = self._round_of(slot)
            a, b = record.deck[slot.position]
            keyed_by = set(self.members_of(slot.round))
            for leaver in sorted(keyed_by - set(members) if members is not None else ()):
                share = self._checked_share(record, slot.position, leaver)
                if share is None:
                    owed.setdefault(leaver, []).append(len(start))
                else:
                    b = sub(b, share)
            start.append((a, b))
            sources.append(slot)
        for slot in face_up:
            card = self._round_of(slot).revealed.get(slot.position)
            if card is None:
                raise ValueError(f"{slot} was never revealed, so it cannot come back face up")
            start.append(trivial(self.codebook.point_of(card), key))
            sources.append(card)
        self._returned.update(slots)
        self._rounds.append(
            _Round(
                sources=tuple(sources),
                steps=[tuple(start)],
                members=members,
                key=None if members is None else key,
                owed={leaver: tuple(positions) for leaver, positions in owed.items()},
            )
        )
        if self._gone:
            self._chains[self.round] = tuple(s for s in range(self.seats) if s not in self._gone)

    @staticmethod
    def _checked_share(record: _Round, position: int, seat: int) -> Point | None:
        """``seat``'s recorded share of the card at ``position`` of ``record``, its proof
        checked now if it was not yet (see :meth:`accept_shares`); None if there is none or it
        does not verify (the card then waits for the others' parts: :meth:`rekey_owed`)."""
        share = record.shares.get(position, {}).get(seat)
        check = record.unchecked.get(position, {}).get(seat)
        if share is not None and check is not None:
            try:
                check.run()
            except VerificationError:
                return None
            del record.unchecked[position][seat]
            if not record.unchecked[position]:
                del record.unchecked[position]
        return share

    def _members_now(self) -> tuple[tuple[int, ...] | None, Point]:
        """The members of a round started now, and their joint key: None and the deck's
        joint key while every seat is there."""
        if not self._gone:
            return None, self._key()
        members = tuple(s for s in range(self.seats) if s not in self._gone)
        return members, sum_points(self.keys[s] for s in members)

    # -- re-keying after a seat left -----------------------------------------------------------

    def rekey_owed(self) -> dict[int, dict[int, Ciphertext]]:
        """The current round's starting cards still under a leaver's key: leaver -> position
        -> ciphertext (empty once the round is keyed by the seats still there alone). For
        each, every other member publishes its stand-in part (``crypto.make_stand_in``),
        and the parts combined give the leaver's share ``x_L·a`` (:meth:`rekey`)."""
        record = self._current()
        return {
            leaver: {position: record.steps[0][position] for position in positions}
            for leaver, positions in sorted(record.owed.items())
        }

    def rekey(self, leaver: int, shares: Mapping[int, Point]) -> None:
        """Take ``leaver``'s key off the current round's starting cards it is owed for:
        ``shares`` gives ``x_L·a`` for each of them (position -> share, combined from the
        others' verified stand-in parts), and each card ``(a, b)`` becomes ``(a, b - x_L·a)``,
        the same card under the joint key of the seats still there. Nothing else changes:
        no card's point is ever seen.

        >>> from condottiere.crypto.group import mul
        >>> decks = [Deck(b"r", 3, seat, ["1", "2", "3"]) for seat in range(3)]
        >>> x = [d.secret for d in decks]
        >>> for d in decks: d.accept_keys([e.announcement for e in decks])
        >>> for seat in range(3):
        ...     step = decks[seat].make_shuffle()
        ...     for d in decks: d.accept_shuffle(seat, step)
        >>> for d in decks: d.drop_seat(2)
        >>> for d in decks: d.reshuffle([Slot(0, 0), Slot(0, 1), Slot(0, 2)], [])
        >>> owed = decks[0].rekey_owed()[2]
        >>> for d in decks: d.rekey(2, {p: mul(x[2], c[0]) for p, c in owed.items()})
        >>> decks[0].rekey_owed(), decks[0].next_shuffler, decks[0].members_of(1)
        ({}, 0, (0, 1))
        """
        record = self._current()
        positions = record.owed.get(leaver)
        if positions is None:
            raise ValueError(f"round {self.round} owes nothing to seat {leaver}")
        if sorted(shares) != list(positions):
            raise ValueError(f"seat {leaver}'s shares of exactly positions {list(positions)}")
        start = list(record.steps[0])
        for position in positions:
            a, b = start[position]
            start[position] = (a, sub(b, shares[position]))
        record.steps[0] = tuple(start)
        del record.owed[leaver]

    # -- audit ---------------------------------------------------------------------------------

    def audit(self, secrets: Sequence[int], claims: Iterable[Claim] = ()) -> dict[Slot, str]:
        """Check the whole game once every seat has revealed its secret; return every card.

        Checks each secret against its seat's key, that each shuffle step only
        moved cards, that every recorded share was ``x_k·a``, every reveal and
        opening, and each of ``claims``; the first failure raises
        :class:`VerificationError` naming the seat to blame.
        """
        if len(secrets) != self.seats or not self._rounds:
            raise ValueError(f"an audit needs the {self.seats} secrets of a started game")
        for seat, secret in enumerate(secrets):
            if not 0 < secret < L or mul_base(secret) != self.keys[seat]:
                raise VerificationError(seat, "revealed secret does not match its public key")
        cards: dict[Slot, PhysicalCard] = {}
        for round_, record in enumerate(self._rounds):
            sources = [s if isinstance(s, PhysicalCard) else cards[s] for s in record.sources]
            self._audit_round(round_, dict(enumerate(secrets)), sources, cards)
        for claim in claims:
            actual = cards.get(claim.slot)
            if actual is None:
                raise VerificationError(claim.seat, f"claims {claim.slot}, not in the game")
            record = self._rounds[claim.slot.round]
            owner = record.owners.get(claim.slot.position)
            holders = {owner} | {
                share.viewer
                for _, share, handed in record.sealed
                if handed and share.slot == claim.slot
            }
            if owner is not None and claim.seat not in holders:
                raise VerificationError(claim.seat, f"claims {claim.slot}, dealt to seat {owner}")
            if actual.name != claim.card:
                raise VerificationError(
                    claim.seat, f"claimed {claim.card!r} at {claim.slot}, but it is {actual.name!r}"
                )
        return {slot: card.name for slot, card in cards.items()}

    def _audit_round(
        self,
        round_: int,
        secrets: Mapping[int, int],
        start: Sequence[PhysicalCard | None],
        cards: dict[Slot, PhysicalCard],
    ) -> None:
        """Check round ``round_`` with the secrets of its members, its starting deck holding
        ``start`` (a card the audit cannot name is None): each shuffle step only moved cards,
        every share, reveal and opening; its cards go into ``cards``."""
        record = self._rounds[round_]
        whole = sum(secrets[seat] for seat in self.members_of(round_)) % L
        chain = self._chains.get(round_, tuple(range(self.seats)))
        expected = Counter(start)
        decoded: list[PhysicalCard | None] = list(start)
        for seat, deck in zip(chain, record.steps[1:], strict=False):
            decoded = [self._decrypted_card(c, whole) for c in deck]
            if None in decoded and None not in expected:
                raise VerificationError(
                    seat,
                    f"shuffle of round {round_} changed the cards: one is no card of the deck",
                )
            if Counter(decoded) != expected:
                raise VerificationError(seat, f"shuffle of round {round_} changed the cards")
            expected = Counter(decoded)
        for position, (ciphertext, card) in enumerate(zip(record.deck, decoded, strict=True)):
            if card is not None:
                cards[Slot(round_, position)] = card
                self._audit_slot(record, position, ciphertext, card, secrets)

    def audit_rekeyed(self, secrets: Mapping[int, int]) -> dict[Slot, str]:
        """Check every round keyed after a seat left whose members' secrets are all in
        ``secrets`` (seat -> secret, each checked against its key), as :meth:`audit` checks
        every round (the audit of a table a seat left, whose secret went with it: the rounds
        keyed without it can still be checked whole); their cards by slot. A card that came
        back hidden from a round keyed with the leaver is named by its decryption here."""
        for seat, secret in secrets.items():
            if not 0 < secret < L or mul_base(secret) != self.keys[seat]:
                raise VerificationError(seat, "revealed secret does not match its public key")
        cards: dict[Slot, PhysicalCard] = {}
        for round_, record in enumerate(self._rounds):
            members = record.members
            if members is None or record.owed or not set(members) <= set(secrets):
                continue
            whole = sum(secrets[seat] for seat in members) % L
            start = [
                source if isinstance(source, PhysicalCard) else self._decrypted_card(c, whole)
                for source, c in zip(record.sources, record.steps[0], strict=True)
            ]
            self._audit_round(round_, secrets, start, cards)
        return {slot: card.name for slot, card in cards.items()}

    def audit_seat(self, seat: int, secret: int) -> None:
        """Check what one seat did, from its secret alone (the audit of a table some seat
        left, whose secret went with it): the secret matches the seat's key, and every share
        the seat gave was ``x·a``. :class:`VerificationError` names the seat otherwise."""
        if not self._rounds or not 0 <= seat < self.seats:
            raise ValueError(f"no seat {seat} in a started game")
        if not 0 < secret < L or mul_base(secret) != self.keys[seat]:
            raise VerificationError(seat, "revealed secret does not match its public key")
        for record in self._rounds:
            for position, shares in record.shares.items():
                share = shares.get(seat)
                if share is not None and share != share_point(secret, record.deck[position]):
                    raise VerificationError(seat, f"share for position {position} was not x·a")

    def _decrypted_card(self, ciphertext: Ciphertext, whole: int) -> PhysicalCard | None:
        """The card ``ciphertext`` holds under the whole secret; None when it holds none (or
        is not a ciphertext of points of the group at all)."""
        try:
            return self.codebook.card_of(decrypt(ciphertext, whole))
        except GroupError:
            return None

    def _audit_slot(
        self,
        record: _Round,
        position: int,
        ciphertext: Ciphertext,
        card: PhysicalCard,
        secrets: Mapping[int, int],
    ) -> None:
        for seat, share in record.shares.get(position, {}).items():
            if share != share_point(secrets[seat], ciphertext):
                raise VerificationError(seat, f"share for position {position} was not x·a")
        owner = record.owners.get(position)
        for known in (record.revealed.get(position), record.opened.get(position)):
            if owner is not None and known is not None and known != card:
                raise VerificationError(owner, f"position {position} was shown as {known}")
        for seat, sealed, _ in record.sealed:
            if sealed.slot.position != position or owner is None:
                continue
            if unseal(sealed, secrets[sealed.viewer]) != share_point(secrets[owner], ciphertext):
                raise VerificationError(
                    seat, f"sealed a wrong share of position {position} to seat {sealed.viewer}"
                )
