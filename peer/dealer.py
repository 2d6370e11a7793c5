"""The dealer: the game's deals answered by mental-poker decks, and every card followed.

One :class:`crypto.Deck` per physical deck of the game (``GameState.decks``). The game says
where each deal takes its cards (``GameState.pending_draws``: a pile, an epoch, positions)
and what each move does to the mover's hand (``GameState.card_flow``); the dealer maps that onto
deck slots ``(deck, Slot(round, position))``:

- a deal gives the owner the slots at those positions of the pile's current round;
- a move shows cards: a hidden slot is revealed (the owner's share with its proof), a slot
  already face up is only named; the slots leave the hand, or stay (retained);
- a card taken back from the table (a Scarecrow) enters the hand as a face-up slot;
- a seat proves that its hidden hand holds a card of a set, showing none (a disjunctive
  Chaum-Pedersen proof over its hidden cards and the set's cards: :mod:`crypto.holds
  <condottiere.crypto.holds>`); a face-up card of the set in the hand needs no proof;
- a search of a pile for a named card (a plaintext equivalence test over every slot still
  in the pile) takes the slot found out of the pile, face up into the searcher's hand; the
  positions of later deals of the same round count only the slots still in the pile;
- when a pile is formed again (a new epoch), every slot in no hand goes back into it:
  hidden slots as their ciphertexts (they stay hidden), face-up ones as fresh encryptions of
  their known cards, and the undealt rest of the round too; whole hands whose seats the
  engine emptied go back with them. Nothing hidden is ever revealed by a reshuffle;
- after a seat left, a pile formed again is keyed by the seats still there alone: their parts
  of the leaver's shares take its key off the hidden cards that come back
  (:meth:`Dealer.rekeying`, then ``make_rekey``, ``accept_rekey``, ``complete_rekey``), and at
  three seats or more they back their secrets up again among themselves
  (:meth:`Dealer.redealt`).

The dealer is deterministic: every peer, fed the same entries, tracks the same slots. It
checks what others show but decides nothing about the rules: the engine does.

Each ``make_*`` (and ``show``, ``show_hand``) returns the entry body (``log_pb2``) its
``accept_*`` (``check_shown``, ``check_hand_shown``) takes, so the step rules
(:mod:`condottiere.peer.steps`) pass bodies through and build none of the deck's; the bodies
themselves are built from the crypto objects and read back by :mod:`condottiere.peer.bodies`.
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from condottiere.crypto import (
    MIN_BACKUP_SEATS,
    BoxKey,
    BoxSecret,
    Context,
    Dealing,
    Deck,
    DecodeError,
    GroupError,
    HiddenCard,
    KeyAnnouncement,
    Point,
    Reveal,
    SealedShare,
    ShareBatch,
    Slot,
    StandInBatch,
    VerificationError,
    answer_complaint,
    combine_stand_in,
    decode_scalar,
    make_dealing,
    make_stand_in,
    open_piece,
    prove_holds,
    settle_complaint,
    verification_key,
    verify_holds,
    verify_stand_in,
)
from condottiere.interface import CardFlow, Draw
from condottiere.peer import bodies
from condottiere.peer.entries import Reason, Rejection
from condottiere.v1 import log_pb2

__all__ = ["Card", "Dealer", "HandShowing", "Showing"]

Card = tuple[int, Slot]
"""A physical card by where it was dealt from: (deck index, slot)."""
_RANDOM = secrets.SystemRandom()
"""Which copy of a card a move shows (the operating system's CSPRNG)."""
_Batch = tuple[int, int, int, tuple[int, ...]]


@dataclass
class Showing:
    """The cards one move shows, checked and ready to apply (see :meth:`Dealer.check_shown`)."""

    seat: int
    cards: list[tuple[Card, str]] = field(default_factory=list)
    reveals: list[tuple[int, Reveal]] = field(default_factory=list)
    received: list[tuple[int, Card]] = field(default_factory=list)
    """The face-up cards other seats hand to the mover: (giver, card)."""

    @property
    def names(self) -> list[str]:
        return [name for _, name in self.cards]


@dataclass
class HandShowing:
    """A hand shown to one seat, checked and ready to apply (see
    :meth:`Dealer.check_hand_shown`): each hidden card with its part sealed to the viewer,
    and the face-up cards."""

    seat: int
    viewer: int
    sealed: list[tuple[Card, SealedShare]] = field(default_factory=list)
    face_up: list[Card] = field(default_factory=list)


class Dealer:
    """The decks of one game as seen by ``seat`` (None: a peer that only watches)."""

    def __init__(
        self,
        table_id: bytes,
        seats: int,
        seat: int | None,
        decks: Sequence[Sequence[str]],
        secrets: Sequence[int] | None = None,
        members: Sequence[int] | None = None,
    ) -> None:
        self.seats = seats
        self._table = table_id
        self.members = tuple(range(seats)) if members is None else tuple(members)
        """The seats that take part in the decks, in order: every seat, but for the seats
        that left before the first deal (the decks are keyed among the others). The decks
        number them 0, 1, ...: seat ``members[i]`` is the decks' seat ``i``."""
        self.seat = seat if seat in self.members else None
        self.index = None if self.seat is None else self.members.index(self.seat)
        """This seat's number in the decks."""
        self.decks = [
            Deck.watch(_deck_context(table_id, index), len(self.members), cards)
            if self.index is None
            else Deck(
                _deck_context(table_id, index),
                len(self.members),
                self.index,
                cards,
                None if secrets is None else secrets[index],
            )
            for index, cards in enumerate(decks)
        ]
        self.hands: list[list[Card]] = [[] for _ in range(seats)]
        self.face_up: dict[Card, str] = {}
        """Every card shown to everyone, by slot."""
        self.mine: dict[Card, str] = {}
        """This seat's own cards, opened privately."""
        self._out: list[set[Slot]] = [set() for _ in decks]
        self._search: _Search | None = None
        self._searches = 0
        """Searches started so far: the next one's number (its proofs are bound to it)."""
        self._hand_proofs = 0
        """Proofs that a hand holds a card of a set accepted so far: the next one's number
        (it is bound to it)."""
        self._dealt = [0] * len(decks)
        self._epochs = [0] * len(decks)
        self._home: dict[int, int] = {}
        self.dealt: list[tuple[Card, ...]] = []
        """The slots of every deal, in the order of the game's deal events."""
        self.box_keys: list[BoxKey] = []
        """Every seat's box key (tables of :data:`MIN_BACKUP_SEATS` seats or more)."""
        self.dealings: dict[tuple[int, int], Dealing] = {}
        """(dealer, deck) -> its dealing of that deck's secret (the dealer by its number in
        the decks)."""
        self.pieces: dict[tuple[int, int], int] = {}
        """(dealer, deck) -> this seat's piece of the dealer's secret, opened and checked (the
        dealer by its number in the decks)."""
        self.dealt_among: dict[tuple[int, int], tuple[tuple[int, ...], int]] = {}
        """(dealer, deck) -> the members its dealing is among (by their numbers in the decks;
        the dealing numbers them 0, 1, ... in this order) and the round it was made for:
        every member and round 0 unless it was dealt again (:meth:`make_redealing`)."""
        self.stand_ins: dict[int, list[tuple[int, StandInBatch]]] = {}
        """A member's number in the decks -> its verified stand-in batches (deck, batch) for
        the deal under way."""
        self.rekeys: dict[int, StandInBatch] = {}
        """A member's number in the decks -> its verified parts for the re-keying under way."""

    def _at(self, seat: int) -> int:
        """``seat``'s number in the decks (see :attr:`members`)."""
        return self.members.index(seat)

    def _among(self, dealer: int, index: int) -> tuple[tuple[int, ...], int]:
        """The members ``dealer``'s dealing of deck ``index`` is among, and its round (see
        :attr:`dealt_among`)."""
        return self.dealt_among.get((dealer, index), (tuple(range(len(self.members))), 0))

    def _blame_backup(self, exc: VerificationError, holders: Sequence[int]) -> Rejection:
        """The blame of a backup's verification error, whose seat is numbered in the dealing
        (see :attr:`dealt_among`)."""
        return _blame(self.members[holders[exc.seat]], Reason.BAD_PROOF, exc.reason)

    def _blame_deck(self, exc: VerificationError, detail: str = "") -> Rejection:
        """The blame a deck's verification error puts on its seat (named as the table does)."""
        return _blame(self.members[exc.seat], Reason.BAD_PROOF, detail + exc.reason)

    @property
    def started(self) -> bool:
        """Whether the decks have started (every member's key is in)."""
        return all(deck.round >= 0 for deck in self.decks)

    # -- keys ------------------------------------------------------------------------------

    def secrets(self) -> list[int]:
        """This seat's secret of every deck (to store, and to publish for the audit)."""
        return [deck.secret for deck in self.decks]

    def announcements(self) -> list[bytes]:
        return bodies.encode_announcements(deck.announcement for deck in self.decks)

    def accept_keys(self, announcements: Sequence[Sequence[bytes]]) -> None:
        """Every member's announcements (member by member, one per deck); :class:`Rejection`
        if one is malformed or its proof does not verify."""
        decoded: list[list[KeyAnnouncement]] = []
        for seat, encoded in zip(self.members, announcements, strict=True):
            if len(encoded) != len(self.decks):
                raise _blame(seat, Reason.UNEXPECTED, f"{len(self.decks)} keys expected")
            decoded.append(bodies.read_announcements(seat, encoded))
        try:
            if len(self.decks) > 1:  # every deck checked before any starts: none half-started
                for index, deck in enumerate(self.decks):
                    deck.check_keys([keys[index] for keys in decoded])
            for index, deck in enumerate(self.decks):
                deck.accept_keys([keys[index] for keys in decoded])
        except VerificationError as exc:
            raise self._blame_deck(exc) from None

    # -- shuffles --------------------------------------------------------------------------

    def sync(self, draws: Sequence[Draw], hand_sizes: Sequence[int]) -> None:
        """Form again every pile the pending deals take from at a new epoch (see the module)."""
        for draw in draws:
            self._home.setdefault(draw.deal.seat, draw.pile)
            if draw.epoch != self._epochs[draw.pile]:
                if draw.epoch != self._epochs[draw.pile] + 1:
                    raise RuntimeError(f"deck {draw.pile} skipped an epoch")
                self._reform(draw.pile, hand_sizes, draw.kept_out)

    def _reform(self, index: int, hand_sizes: Sequence[int], kept_out: Sequence[str]) -> None:
        deck = self.decks[index]
        kept: set[Slot] = set()
        for seat, hand in enumerate(self.hands):
            mine = [slot for deck_index, slot in hand if deck_index == index]
            if hand_sizes[seat] == 0:
                self.hands[seat] = [card for card in hand if card[0] != index]
            else:
                kept.update(mine)
        in_play = Counter(kept_out)
        for slot in sorted(self._out[index] - kept):
            name = self.face_up.get((index, slot))
            if name is not None and in_play[name]:  # face up on the table: it stays there
                in_play[name] -= 1
                kept.add(slot)
        returning = sorted(self._out[index] - kept)
        undealt = [Slot(deck.round, p) for p in self.pile_positions(index)]
        hidden = [*undealt, *(s for s in returning if (index, s) not in self.face_up)]
        face_up = [s for s in returning if (index, s) in self.face_up]
        deck.reshuffle(hidden, face_up)
        self._out[index] = kept
        self._dealt[index] = 0
        self._epochs[index] += 1

    def ready(self, index: int) -> bool:
        return self.decks[index].ready

    def next_shuffler(self, index: int) -> int | None:
        shuffler = self.decks[index].next_shuffler
        return None if shuffler is None else self.members[shuffler]

    def round(self, index: int) -> int:
        return self.decks[index].round

    def make_shuffle(self, index: int) -> log_pb2.Shuffle:
        """This seat's step of deck ``index``'s shuffle chain, with its proof."""
        deck = self.decks[index]
        return bodies.shuffle_body(index, deck.round, deck.make_shuffle())

    def make_shuffle_ahead(self, index: int, body: log_pb2.Shuffle) -> None:
        """Make this seat's shuffle of the deck ``body`` (the step just before this seat's)
        makes, while that step is verified on another thread (see
        ``Deck.make_shuffle_ahead``); nothing for a step that does not even decode (its
        verification blames it)."""
        deck = self.decks[index]
        try:
            deck.make_shuffle_ahead(bodies.shuffle_step(body, len(deck.cards)))
        except (DecodeError, ValueError, GroupError):
            return

    def accept_shuffle(self, index: int, seat: int, body: log_pb2.Shuffle, verify: bool) -> None:
        deck = self.decks[index]
        if (body.deck, body.round) != (index, deck.round):
            raise _blame(seat, Reason.UNEXPECTED, f"a shuffle of deck {index}, round {deck.round}")
        # the verification checks every point (or the step was verified before)
        step = bodies.read_shuffle(seat, body, len(deck.cards))
        try:
            deck.accept_shuffle(self._at(seat), step, verify=verify)
        except VerificationError as exc:
            raise self._blame_deck(exc) from None

    # -- deals -----------------------------------------------------------------------------

    def sharers(self, draws: Sequence[Draw]) -> list[int]:
        """The seats that must publish shares for these deals: all but a sole owner."""
        owners = {draw.deal.seat for draw in draws}
        return [seat for seat in self.members if owners - {seat}]

    def _expected(self, seat: int, draws: Sequence[Draw]) -> list[_Batch]:
        """The share batches ``seat`` owes for these deals: (deck, round, owner, positions),
        the owner by its number in the decks."""
        if seat not in self.members:
            return []
        wanted: dict[tuple[int, int], list[int]] = {}
        for draw in draws:
            deck = self.decks[draw.pile]
            if self._at(seat) not in deck.members_of(deck.round):
                continue  # a round keyed without it (see rekeying)
            if draw.deal.seat != seat:
                owner = self._at(draw.deal.seat)
                wanted.setdefault((draw.pile, owner), []).extend(self._positions(draw))
        return [
            (index, self.decks[index].round, owner, tuple(positions))
            for (index, owner), positions in sorted(wanted.items())
        ]

    def make_shares(self, draws: Sequence[Draw]) -> log_pb2.Shares:
        """This seat's shares of the cards these deals give the other seats."""
        assert self.seat is not None
        return bodies.shares_body(
            (index, self.decks[index].make_shares(owner, positions))
            for index, _, owner, positions in self._expected(self.seat, draws)
        )

    def accept_shares(
        self, seat: int, body: log_pb2.Shares, draws: Sequence[Draw], trusted: bool
    ) -> None:
        """Record ``seat``'s shares for these deals. Shares of this seat's own cards are
        verified now (unless ``trusted``: its own entries, or ones it checked before); those
        of other seats' cards when their card is shown (see ``Deck.accept_shares``)."""
        expected = self._expected(seat, draws)
        if len(body.batches) != len(expected):
            raise _blame(seat, Reason.UNEXPECTED, f"{len(expected)} share batches expected")
        batches = []
        for item, (index, round_, owner, positions) in zip(body.batches, expected, strict=True):
            batch = bodies.read_share_batch(seat, item)
            if (item.deck, batch.round, batch.owner, batch.positions) != (
                index,
                round_,
                owner,
                positions,
            ):
                raise _blame(
                    seat,
                    Reason.UNEXPECTED,
                    f"shares of deck {index}, round {round_}, positions {positions[0]}-"
                    f"{positions[-1]} for seat {self.members[owner]} expected",
                )
            batches.append((index, batch))
        checked = []
        for index, batch in batches:  # every batch checked before any is recorded
            verify = not trusted and batch.owner == self.index
            try:
                checks = self.decks[index].check_shares(self._at(seat), batch, verify=verify)
            except VerificationError as exc:
                raise self._blame_deck(exc) from None
            checked.append((index, batch, checks, verify))
        for index, batch, checks, verified in checked:
            self.decks[index].record_shares(self._at(seat), batch, checks, verified)

    def check_shares(self, body: log_pb2.Shares) -> None:
        """Verify every still-unchecked share of an entry this dealer accepted (evidence that
        one is bad); :class:`Rejection` names the seat whose share does not verify."""
        for item in body.batches:
            if not 0 <= item.deck < len(self.decks):
                continue
            batch = ShareBatch.decode(item.batch)
            slots = [Slot(batch.round, position) for position in batch.positions]
            try:
                self.decks[item.deck].verify_pending(slots)
            except VerificationError as exc:
                raise self._blame_deck(exc) from None

    def verify_some(self, slots: int) -> bool:
        """Verify the unchecked shares of up to ``slots`` cards (work a peer does while it
        waits, so that showing a card later costs only its reveal); True if more remain.
        :class:`Rejection` names the seat whose share does not verify."""
        for index, deck in enumerate(self.decks):
            pending = deck.pending()
            if pending:
                try:
                    deck.verify_pending(pending[:slots])
                except VerificationError as exc:
                    raise self._blame_deck(exc) from None
                return len(pending) > slots or any(d.pending() for d in self.decks[index + 1 :])
        return False

    def _positions(self, draw: Draw) -> tuple[int, ...]:
        """The positions of the current round's deck a draw takes: a draw counts only the
        cards still in the pile, so the positions searches took out are skipped."""
        order = self.decks[draw.pile].pile_positions()
        return tuple(order[k] for k in draw.positions)

    def pile_positions(self, index: int) -> tuple[int, ...]:
        """The positions of the current round of deck ``index`` still in the pile, in pile
        order: neither dealt nor taken out by a search."""
        return self.decks[index].pile_positions()[self._dealt[index] :]

    def deal(self, draw: Draw) -> tuple[str, ...] | None:
        """Give the draw's slots to its seat; the card names when the seat is this one."""
        index, seat = draw.pile, draw.deal.seat
        deck = self.decks[index]
        slots = [Slot(deck.round, position) for position in self._positions(draw)]
        self._dealt[index] = max(self._dealt[index], draw.start + draw.deal.count)
        self._out[index].update(slots)
        self.hands[seat].extend((index, slot) for slot in slots)
        self.dealt.append(tuple((index, slot) for slot in slots))
        if seat != self.seat:
            return None
        names = []
        for slot in slots:
            try:
                name = deck.open(slot)
            except VerificationError as exc:
                raise self._blame_deck(exc) from None
            self.mine[(index, slot)] = name
            names.append(name)
        return tuple(names)

    # -- moves -----------------------------------------------------------------------------

    def show(self, flow: CardFlow) -> list[log_pb2.CardShown]:
        """The cards this seat's move shows (revealing hidden ones), for its entry. Of several
        hidden copies of a card, the one shown is drawn uniformly at random (never the lowest
        slot first), so that watchers learn nothing of the copies it leaves hidden."""
        assert self.seat is not None
        hand = self.hands[self.seat]
        if flow.whole_hand:
            chosen = list(hand)
        else:
            chosen = []
            for name in _shown_by(self.seat, flow):
                candidates = [
                    card for card in hand if card not in chosen and self._name(card) == name
                ]
                # a card everyone has seen shows nothing new: play it first; among hidden
                # copies, any one, so that a reveal says nothing of the slots not shown
                seen = [card for card in candidates if card in self.face_up]
                chosen.append(_RANDOM.choice(sorted(seen or candidates)))
        shown = []
        for card in chosen:
            index, slot = card
            if card in self.face_up:
                shown.append(bodies.card_shown(index, slot=slot))
            else:
                reveal = self.decks[index].make_reveal(slot)
                shown.append(bodies.card_shown(index, reveal=reveal))
        return shown

    def _name(self, card: Card) -> str | None:
        return self.face_up.get(card) or self.mine.get(card)

    def check_shown(self, seat: int, flow: CardFlow, shown: Sequence[log_pb2.CardShown]) -> Showing:
        """Check the cards ``seat``'s move shows against its hand and the move; nothing is
        recorded (see :meth:`apply`). :class:`Rejection` names the seat to blame."""
        showing = Showing(seat)
        hand = set(self.hands[seat])
        for item in shown:
            if not 0 <= item.deck < len(self.decks):
                raise _blame(seat, Reason.UNEXPECTED, f"there is no deck {item.deck}")
            kind = item.WhichOneof("shown")
            if kind == "known":
                card = (item.deck, bodies.slot_of(item.known))
                if card not in hand or card not in self.face_up:
                    raise _blame(
                        seat, Reason.ILLEGAL, f"names {card[1]}, not a face-up card of its hand"
                    )
                name = self.face_up[card]
            elif kind == "reveal":
                reveal = bodies.read_reveal(seat, item)
                card = (item.deck, reveal.slot)
                if card not in hand or card in self.face_up:
                    raise _blame(
                        seat,
                        Reason.ILLEGAL,
                        f"reveals {reveal.slot}, not a hidden card of its hand",
                    )
                try:
                    name = self.decks[item.deck].check_reveal(self._at(seat), reveal)
                except VerificationError as exc:
                    raise self._blame_deck(exc) from None
                showing.reveals.append((item.deck, reveal))
            else:
                raise _blame(seat, Reason.UNEXPECTED, "a shown card names no slot")
            if any(card == other for other, _ in showing.cards):
                raise _blame(seat, Reason.ILLEGAL, f"shows {card[1]} twice")
            showing.cards.append((card, name))
        if flow.whole_hand:
            if len(showing.cards) != len(hand):
                raise _blame(
                    seat, Reason.ILLEGAL, f"shows {len(showing.cards)} of {len(hand)} cards"
                )
        elif Counter(showing.names) != Counter(_shown_by(seat, flow)):
            wanted = ", ".join(_shown_by(seat, flow)) or "nothing"
            raise _blame(
                seat, Reason.ILLEGAL, f"shows {', '.join(showing.names) or 'nothing'}, not {wanted}"
            )
        showing.received = self._handed_to(seat, flow)
        return showing

    def _handed_to(self, seat: int, flow: CardFlow) -> list[tuple[int, Card]]:
        """The cards other seats hand to ``seat``'s move (an offer it accepts), each a card of
        the giver's hand shown face up before: (giver, card), the lowest slot of each name
        first (face-up copies are alike). :class:`Rejection` blames ``seat`` for a card that
        is not there."""
        received: list[tuple[int, Card]] = []
        for handed in flow.handed:
            if handed.giver == seat:
                continue
            taken = {card for _, card in received}
            candidates = sorted(
                card
                for card in self.hands[handed.giver]
                if card not in taken and self.face_up.get(card) == handed.card
            )
            if not candidates:
                raise _blame(
                    seat,
                    Reason.ILLEGAL,
                    f"takes {handed.card}, not a face-up card of seat {handed.giver}'s hand",
                )
            received.append((handed.giver, candidates[0]))
        return received

    def apply(self, showing: Showing, flow: CardFlow) -> None:
        """Record a checked move's cards: shown face up, out of the hand or kept."""
        seat = showing.seat
        for index, reveal in showing.reveals:
            self.decks[index].accept_reveal(self._at(seat), reveal)
        for card, name in showing.cards:
            self.face_up[card] = name
        shown = {card for card, _ in showing.cards}
        if flow.rest_returned:
            self.hands[seat] = [card for card in self.hands[seat] if card in shown]
        elif flow.whole_hand:
            self.hands[seat] = [card for card in self.hands[seat] if card not in shown]
        else:  # the played and handed cards leave the hand, the others shown stay in it
            played = Counter(flow.played)
            given = [h for h in flow.handed if h.giver == seat]
            left = set()
            for card, name in showing.cards:
                if played[name]:
                    played[name] -= 1
                    left.add(card)
            for handed in given:
                card = next(
                    c for c, name in showing.cards if c not in left and name == handed.card
                )
                left.add(card)
                self.hands[handed.receiver].append(card)
            self.hands[seat] = [card for card in self.hands[seat] if card not in left]
        for giver, card in showing.received:
            self.hands[giver].remove(card)
            self.hands[seat].append(card)
        for name in flow.taken:
            self.hands[seat].append(self._from_table(seat, name))

    # -- a hand shown to one seat ----------------------------------------------------------

    def show_hand(self, viewer: int) -> log_pb2.HandShown:
        """This seat's whole hand shown to ``viewer`` alone, for its entry: each hidden card's
        part sealed to the viewer with its proof, each face-up card by its slot."""
        assert self.seat is not None
        hand = self.hands[self.seat]
        face_up = [card for card in hand if card in self.face_up]
        sealed = [
            (index, self.decks[index].make_sealed_share(slot, self._at(viewer)))
            for index, slot in hand
            if (index, slot) not in self.face_up
        ]
        return bodies.hand_shown_body(viewer, face_up, sealed)

    def check_hand_shown(self, seat: int, viewer: int, body: log_pb2.HandShown) -> HandShowing:
        """Check ``seat``'s hand shown to ``viewer``: every card of its hand once, each hidden
        one sealed to the viewer with a proof that verifies (the viewer's own dealer opens it
        here); nothing is recorded (see :meth:`apply_hand_shown`). :class:`Rejection` blames
        ``seat``."""
        if body.viewer != viewer:
            raise _blame(seat, Reason.UNEXPECTED, f"shows its hand to seat {body.viewer}, "
                         f"not to seat {viewer}")
        showing = HandShowing(seat, viewer)
        hand = set(self.hands[seat])
        named: set[Card] = set()
        for item in body.face_up:
            card = (item.deck, bodies.slot_of(item.slot))
            if card not in hand or card not in self.face_up or card in named:
                raise _blame(seat, Reason.ILLEGAL, f"names {card[1]}, not a face-up card of "
                             "its hand (or twice)")
            named.add(card)
            showing.face_up.append(card)
        for sealed in body.sealed:
            if not 0 <= sealed.deck < len(self.decks):
                raise _blame(seat, Reason.UNEXPECTED, f"there is no deck {sealed.deck}")
            share = bodies.read_sealed_share(seat, sealed)
            card = (sealed.deck, share.slot)
            if card not in hand or card in self.face_up or card in named:
                raise _blame(seat, Reason.ILLEGAL, f"seals {share.slot}, not a hidden card of "
                             "its hand (or twice)")
            if share.viewer != self._at(viewer):
                raise _blame(seat, Reason.ILLEGAL, f"seals {share.slot} to another seat than "
                             f"seat {viewer}")
            try:
                self.decks[sealed.deck].check_sealed_share(self._at(seat), share)
            except VerificationError as exc:
                raise self._blame_deck(exc) from None
            named.add(card)
            showing.sealed.append((card, share))
        if len(named) != len(hand):
            raise _blame(seat, Reason.ILLEGAL, f"shows {len(named)} of the {len(hand)} cards "
                         "of its hand")
        return showing

    def apply_hand_shown(self, showing: HandShowing, *, handed: bool) -> tuple[str, ...] | None:
        """Record a checked hand shown: the viewer knows its cards; with ``handed`` they go
        to the viewer's hand (hidden cards stay hidden to everyone else). The cards' names
        on the viewer's dealer, None on every other."""
        seat, viewer = showing.seat, showing.viewer
        names = [self.face_up[card] for card in showing.face_up]
        for (index, _), share in showing.sealed:
            name = self.decks[index].accept_sealed_share(self._at(seat), share, handed=handed)
            if name is not None:
                names.append(name)
                if handed:
                    self.mine[(index, share.slot)] = name
        if handed:
            self.hands[viewer].extend(self.hands[seat])
            self.hands[seat] = []
        return tuple(names) if self.seat == viewer else None

    def _from_table(self, seat: int, name: str) -> Card:
        in_hands = {card for hand in self.hands for card in hand}
        home = self._home.get(seat, 0)
        candidates = sorted(
            (index != home, index, slot)
            for index, out in enumerate(self._out)
            for slot in out
            if self.face_up.get((index, slot)) == name and (index, slot) not in in_hands
        )
        if not candidates:
            raise RuntimeError(f"no face-up {name} on the table to take back")
        _, index, slot = candidates[0]
        return (index, slot)

    def drop_hand(self, seat: int) -> None:
        """``seat`` left: its hidden hand leaves the game unseen (no pile takes it back)."""
        for index, slot in self.hands[seat]:
            self._out[index].discard(slot)
        self.hands[seat] = []

    def check_hands(self, sizes: Sequence[int]) -> None:
        """The slots followed per seat agree with the engine's hand sizes (else a bug)."""
        tracked = [len(hand) for hand in self.hands]
        if tracked != list(sizes):
            raise RuntimeError(f"the dealer follows hands of {tracked}, the engine {list(sizes)}")

    # -- audit -----------------------------------------------------------------------------

    @staticmethod
    def encode_secrets(secrets: Iterable[int]) -> list[bytes]:
        return bodies.encode_secrets(secrets)

    def audit(self, secrets: Sequence[Sequence[bytes]]) -> dict[Card, str]:
        """Check the whole game from every member's secrets (member by member); every card of
        every deck by slot. :class:`Rejection` names the seat that cheated."""
        decoded: list[list[int]] = []
        for seat, encoded in zip(self.members, secrets, strict=True):
            try:
                decoded.append([decode_scalar(data) for data in encoded])
            except DecodeError as exc:
                raise _blame(seat, Reason.BAD_PROOF, f"audit secret: {exc}") from None
            if len(decoded[-1]) != len(self.decks):
                raise _blame(seat, Reason.UNEXPECTED, f"{len(self.decks)} secrets expected")
        cards: dict[Card, str] = {}
        for index, deck in enumerate(self.decks):
            try:
                found = deck.audit([seat_secrets[index] for seat_secrets in decoded])
            except VerificationError as exc:
                raise self._blame_deck(exc, "audit: ") from None
            cards.update(((index, slot), name) for slot, name in found.items())
        return cards


    def audit_seat(self, seat: int, secrets: Sequence[bytes]) -> None:
        """Check one seat's secrets (one per deck) against its keys and every share it gave
        (the audit of a table a seat left); :class:`Rejection` blames it otherwise."""
        if len(secrets) != len(self.decks):
            raise _blame(seat, Reason.UNEXPECTED, f"{len(self.decks)} secrets expected")
        for deck, encoded in zip(self.decks, secrets, strict=True):
            try:
                deck.audit_seat(self._at(seat), decode_scalar(encoded))
            except DecodeError as exc:
                raise _blame(seat, Reason.BAD_PROOF, f"audit secret: {exc}") from None
            except VerificationError as exc:
                raise self._blame_deck(exc, "audit: ") from None


    # -- a hidden hand proved to hold a card of a set ----------------------------------------

    def _holds_statement(
        self, seat: int, names: Collection[str]
    ) -> tuple[list[Card], list[HiddenCard], list[Point]] | None:
        """``seat``'s hidden cards, each as every seat knows it, and the points of the cards
        named; None when a face-up card of its hand is named (nothing to prove)."""
        hand = self.hands[seat]
        if any(self.face_up.get(card) in names for card in hand):
            return None
        hidden = [card for card in hand if card not in self.face_up]
        known = [self.decks[index].hidden_card(slot)[1] for index, slot in hidden]
        points = dict.fromkeys(point for deck in self.decks for point in deck.points_named(names))
        return hidden, known, list(points)

    def _holds_context(self, seat: int) -> Context:
        return Context(self._table + b"/hand-holds", self._hand_proofs, seat)

    def prove_holds(self, names: Collection[str]) -> log_pb2.HandProof:
        """This seat's proof that its hand holds a card named in ``names``, for its entry;
        ValueError when it holds none (an honest seat is never asked)."""
        assert self.seat is not None
        statement = self._holds_statement(self.seat, names)
        if statement is None:
            return bodies.hand_proof_body(None)
        hidden, known, points = statement
        for number, card in enumerate(hidden):
            if self.mine.get(card) in names:
                deck = self.decks[card[0]]
                held = (number, points.index(deck.own_point(card[1])))
                context = self._holds_context(self.seat)
                proof = prove_holds(deck.secret, known, points, held, context)
                return bodies.hand_proof_body(proof)
        raise ValueError(f"this hand holds none of {', '.join(sorted(names))}")

    def check_holds(self, seat: int, names: Collection[str], body: log_pb2.HandProof) -> None:
        """Check ``seat``'s proof that its hand holds a card named in ``names`` (every public
        share of its hidden cards verified first); :class:`Rejection` blames ``seat`` for a
        proof missing, malformed or that does not verify (or the seat of a bad share)."""
        try:
            statement = self._holds_statement(seat, names)
        except VerificationError as exc:
            raise self._blame_deck(exc) from None
        if statement is None:
            if body.proof:
                raise _blame(seat, Reason.UNEXPECTED, "a proof where a face-up card shows it")
        else:
            _, known, points = statement
            if not known or not points:
                raise _blame(seat, Reason.ILLEGAL, "its hand holds no hidden card to prove")
            proof = bodies.read_hand_proof(seat, body, len(known) * len(points))
            try:
                verify_holds(proof, known, points, self._holds_context(seat))
            except VerificationError as exc:
                raise _blame(seat, Reason.BAD_PROOF, exc.reason) from None
        self._hand_proofs += 1

    # -- searches of a pile for a named card ---------------------------------------------

    def start_search(self, index: int, card: str) -> None:
        """Begin a search of deck ``index``'s pile for ``card``, under a new number: every
        position still in the pile is tested (a search begun before and not finished, cut
        short by a seat put out, is dropped)."""
        self._search = _Search(self._searches, index, card, self.pile_positions(index))
        self._searches += 1

    def _searching(self) -> _Search:
        if self._search is None:
            raise ValueError("no search is under way")
        return self._search

    def make_search_blinding(self) -> log_pb2.SearchBlinding:
        """This seat's blinding of every card still in the pile, with its proofs."""
        search = self._searching()
        deck = self.decks[search.index]
        blinding = deck.make_search_blinding(search.number, search.card, search.positions)
        return bodies.search_blinding_body(search.index, deck.round, search.card, blinding)

    def _check_searched(self, seat: int, body: Any) -> None:
        """:class:`Rejection` unless ``body`` (a blinding or an opening) is for the search
        under way: its deck, round and card."""
        search = self._searching()
        round_ = self.decks[search.index].round
        if (body.deck, body.round, body.card) != (search.index, round_, search.card):
            raise _blame(
                seat,
                Reason.UNEXPECTED,
                f"a search of deck {search.index}, round {round_}, for {search.card!r} is "
                f"awaited, not of deck {body.deck}, round {body.round}, for {body.card!r}",
            )

    def accept_search_blinding(self, seat: int, body: log_pb2.SearchBlinding) -> None:
        """Verify and record ``seat``'s blinding; :class:`Rejection` blames it when it is
        malformed, of another search, or a proof fails."""
        self._check_searched(seat, body)
        search = self._searching()
        deck = self.decks[search.index]
        blinding = bodies.read_search_blinding(seat, body)
        awaited = (search.number, deck.round, search.card, search.positions)
        if (blinding.search, blinding.round, blinding.card, blinding.positions) != awaited:
            raise _blame(
                seat,
                Reason.UNEXPECTED,
                f"a blinding of search {search.number} for {search.card!r} of the "
                f"{len(search.positions)} cards still in the pile expected",
            )
        try:
            deck.accept_search_blinding(self._at(seat), blinding)
        except VerificationError as exc:
            raise self._blame_deck(exc) from None

    def make_search_opening(self, leaver: int | None) -> log_pb2.SearchOpening:
        """This seat's decryption shares of the combined blindings, with proofs; and with a
        seat out (``leaver``), its parts of that seat's shares."""
        search = self._searching()
        deck = self.decks[search.index]
        opening = deck.make_search_opening(search.number)
        stand_in = None
        if leaver is not None:
            assert self.index is not None
            gone = self._at(leaver)
            context = Context(deck.table, deck.round, self.index)
            pairs = deck.search_ciphertexts(search.number)
            piece = self.pieces[(gone, search.index)]
            stand_in = make_stand_in(piece, gone, pairs, context)
        return bodies.search_opening_body(search.index, deck.round, search.card, opening, stand_in)

    def accept_search_opening(
        self, seat: int, body: log_pb2.SearchOpening, leaver: int | None
    ) -> None:
        """Verify and record ``seat``'s opening (and its stand-in parts for ``leaver``, the
        seat out); :class:`Rejection` blames it when either is malformed or fails."""
        self._check_searched(seat, body)
        search = self._searching()
        deck, member = self.decks[search.index], self._at(seat)
        opening, batch = bodies.read_search_opening(seat, body, leaver is not None)
        if leaver is None and body.stand_in:
            raise _blame(seat, Reason.UNEXPECTED, "stand-in parts where no seat is out")
        if (opening.search, opening.round) != (search.number, deck.round):
            raise _blame(
                seat, Reason.UNEXPECTED, f"an opening of search {search.number} expected"
            )
        try:
            if batch is not None:
                assert leaver is not None
                gone = self._at(leaver)
                dealing = self.dealings[(gone, search.index)]
                key = verification_key(dealing, deck.keys[gone], member)
                context = Context(deck.table, deck.round, member)
                pairs = deck.search_ciphertexts(search.number)
                verify_stand_in(batch, gone, key, pairs, context)
            deck.accept_search_opening(member, opening)
        except VerificationError as exc:
            raise self._blame_deck(exc) from None
        if batch is not None:
            search.stand_ins[member] = batch

    def finish_search(self, seat: int, leaver: int | None) -> tuple[str, ...]:
        """Once every opening is in: ``(card,)`` when the card was found (its slot leaves the
        pile face up into ``seat``'s hand), ``()`` when it is not in the pile."""
        search = self._searching()
        self._search = None
        deck = self.decks[search.index]
        stood_in = {}
        if leaver is not None:
            stood_in[self._at(leaver)] = combine_stand_in(search.stand_ins, len(self.members))
        found = deck.search_result(search.number, stood_in)
        if not found:
            return ()
        position = found[0]
        name = deck.take_out(search.number, position)
        card = (search.index, Slot(deck.round, position))
        self._out[search.index].add(card[1])
        self.face_up[card] = name
        self.hands[seat].append(card)
        return (name,)

    # -- backups of the deck secrets, and standing in for a seat that left --------------

    @property
    def backed_up(self) -> bool:
        """Whether this table backs its deck secrets up (three members or more)."""
        return len(self.members) >= MIN_BACKUP_SEATS

    def accept_box_keys(self, encoded: Sequence[bytes]) -> None:
        """Every member's box key (member by member); :class:`Rejection` names a malformed
        one."""
        self.box_keys = bodies.read_box_keys(self.members, encoded)

    def make_dealings(self) -> log_pb2.Dealings:
        """This seat's dealing of each deck's secret (deterministic: made again alike)."""
        assert self.index is not None
        return bodies.dealings_body(
            make_dealing(deck.secret, self.box_keys, Context(deck.table, 0, self.index))
            for deck in self.decks
        )

    def accept_dealings(
        self, seat: int, body: log_pb2.Dealings, box: BoxSecret | None
    ) -> list[int]:
        """Record ``seat``'s dealings (:class:`Rejection` if malformed); with this seat's box
        secret, open and check its pieces: the decks whose piece fails (to complain of).
        (The dealings and pieces are kept by the dealers' numbers in the decks.)"""
        dealer = self._at(seat)
        if len(body.dealings) != len(self.decks):
            raise _blame(seat, Reason.UNEXPECTED, f"{len(self.decks)} dealings expected")
        dealings = bodies.read_dealings(seat, body, len(self.members))
        bad = []
        for index, (deck, dealing) in enumerate(zip(self.decks, dealings, strict=True)):
            self.dealings[(dealer, index)] = dealing
            if box is None or self.index is None or self.index == dealer:
                continue
            context = Context(deck.table, 0, dealer)
            try:
                self.pieces[(dealer, index)] = open_piece(
                    dealing, deck.keys[dealer], box, self.index, context
                )
            except VerificationError:
                bad.append(index)
        return bad

    def answer(self, recipient: int, index: int) -> bytes:
        """This seat's answer to ``recipient``'s complaint about its dealing of deck
        ``index``: the piece and the box's ephemeral secret."""
        assert self.index is not None
        deck = self.decks[index]
        holders, round_ = self._among(self.index, index)
        keys = [self.box_keys[member] for member in holders]
        context = Context(deck.table, round_, holders.index(self.index))
        to = holders.index(self._at(recipient))
        return answer_complaint(deck.secret, keys, to, context).encode()

    def settle(self, dealer: int, complainer: int, index: int, answer: bytes | None) -> Rejection:
        """The blame a complaint ends with (see ``crypto.settle_complaint``)."""
        deck, dealer, complainer = self.decks[index], self._at(dealer), self._at(complainer)
        holders, round_ = self._among(dealer, index)
        decoded = None if answer is None else bodies.complaint_answer(answer)
        try:
            settle_complaint(
                self.dealings[(dealer, index)],
                deck.keys[dealer],
                [self.box_keys[member] for member in holders],
                holders.index(complainer),
                decoded,
                Context(deck.table, round_, holders.index(dealer)),
            )
        except VerificationError as exc:
            return self._blame_backup(exc, holders)

    def drop_seat(self, seat: int) -> None:
        """``seat`` left: it shuffles no more (see ``Deck.drop_seat``)."""
        for deck in self.decks:
            deck.drop_seat(self._at(seat))

    def owed(self, leaver: int, draws: Sequence[Draw]) -> list[tuple[int, dict[int, int]]]:
        """The cards of these deals that need ``leaver``'s share: (deck, position -> owner,
        by its number in the decks); none for a seat that left before the first deal."""
        owed: dict[int, dict[int, int]] = {}
        for index, _, owner, positions in self._expected(leaver, draws):
            owed.setdefault(index, {}).update(dict.fromkeys(positions, owner))
        return sorted(owed.items())

    def make_stand_in(self, leaver: int, draws: Sequence[Draw]) -> log_pb2.StandIn:
        """This seat's parts of ``leaver``'s shares of these deals' cards, with proofs."""
        assert self.index is not None
        batches = []
        gone = self._at(leaver)
        for index, owners in self.owed(leaver, draws):
            deck = self.decks[index]
            holders, _ = self._among(gone, index)
            cards = {position: deck.cards[position] for position in owners}
            context = Context(deck.table, deck.round, holders.index(self.index))
            piece = self.pieces[(gone, index)]
            batches.append((index, make_stand_in(piece, holders.index(gone), cards, context)))
        return bodies.stand_in_body(leaver, batches)

    def accept_stand_in(
        self, seat: int, leaver: int, body: log_pb2.StandIn, draws: Sequence[Draw]
    ) -> None:
        """Verify ``seat``'s parts of ``leaver``'s shares of these deals' cards, against its
        verification key in ``leaver``'s dealing; :class:`Rejection` blames ``seat``."""
        owed = self.owed(leaver, draws)
        if body.leaver != leaver or [item.deck for item in body.batches] != [i for i, _ in owed]:
            raise _blame(seat, Reason.UNEXPECTED, f"stand-in parts for seat {leaver} expected")
        checked = []
        gone, member = self._at(leaver), self._at(seat)
        for item, (index, owners) in zip(body.batches, owed, strict=True):
            deck = self.decks[index]
            holders, _ = self._among(gone, index)
            batch = bodies.read_stand_in_batch(seat, item)
            try:
                key = verification_key(
                    self.dealings[(gone, index)], deck.keys[gone], holders.index(member)
                )
                cards = {position: deck.cards[position] for position in owners}
                context = Context(deck.table, deck.round, holders.index(member))
                verify_stand_in(batch, holders.index(gone), key, cards, context)
            except VerificationError as exc:
                raise self._blame_backup(exc, holders) from None
            checked.append((index, batch))
        self.stand_ins[member] = checked

    def complete_stand_in(self, leaver: int, draws: Sequence[Draw]) -> None:
        """Combine every other seat's verified parts into ``leaver``'s shares of these deals'
        cards, and record them as its shares."""
        gone = self._at(leaver)
        for index, owners in self.owed(leaver, draws):
            holders, _ = self._among(gone, index)
            batches = {
                holders.index(member): batch
                for member, checked in self.stand_ins.items()
                for deck_index, batch in checked
                if deck_index == index
            }
            shares: dict[int, Point] = combine_stand_in(batches, len(holders))
            self.decks[index].record_stand_in(gone, shares, owners)
        self.stand_ins = {}

    # -- re-keying a pile formed again after a seat left -----------------------------------

    def rekeying(self, index: int) -> int | None:
        """The seat that left whose key deck ``index``'s new round still waits to have taken
        off the hidden cards that came back (see ``Deck.rekey_owed``); None once the round is
        keyed by the seats still there alone."""
        owed = self.decks[index].rekey_owed()
        return self.members[min(owed)] if owed else None

    def make_rekey(self, index: int, leaver: int) -> log_pb2.Rekey:
        """This seat's parts of ``leaver``'s shares of the cards deck ``index``'s new round owes
        it, with proofs (an encoded ``StandInBatch``)."""
        assert self.index is not None
        deck, gone = self.decks[index], self._at(leaver)
        holders, _ = self._among(gone, index)
        context = Context(deck.table, deck.round, holders.index(self.index))
        cards = deck.rekey_owed()[gone]
        piece = self.pieces[(gone, index)]
        batch = make_stand_in(piece, holders.index(gone), cards, context)
        return bodies.rekey_body(index, deck.round, leaver, batch)

    def accept_rekey(self, seat: int, leaver: int, index: int, body: log_pb2.Rekey) -> None:
        """Verify ``seat``'s parts for re-keying deck ``index`` without ``leaver``, against its
        verification key in ``leaver``'s dealing; :class:`Rejection` blames ``seat``."""
        deck = self.decks[index]
        if (body.deck, body.round, body.leaver) != (index, deck.round, leaver):
            raise _blame(
                seat, Reason.UNEXPECTED, f"parts to re-key deck {index}, round {deck.round}, "
                f"without seat {leaver} expected"
            )
        gone, member = self._at(leaver), self._at(seat)
        holders, _ = self._among(gone, index)
        at = holders.index(member)
        batch = bodies.read_rekey(seat, body)
        try:
            key = verification_key(self.dealings[(gone, index)], deck.keys[gone], at)
            context = Context(deck.table, deck.round, at)
            verify_stand_in(batch, holders.index(gone), key, deck.rekey_owed()[gone], context)
        except VerificationError as exc:
            raise _blame(seat, Reason.BAD_PROOF, f"re-key: {exc.reason}") from None
        self.rekeys[at] = batch

    def complete_rekey(self, index: int, leaver: int) -> None:
        """Combine every other seat's verified parts into ``leaver``'s shares of the cards
        that came back into deck ``index``, and take its key off them."""
        gone = self._at(leaver)
        shares = combine_stand_in(self.rekeys, len(self._among(gone, index)[0]))
        self.decks[index].rekey(gone, shares)
        self.rekeys = {}

    def redealt(self, index: int) -> tuple[int, ...] | None:
        """The seats that back their secrets of deck ``index`` up again among themselves once
        its round is keyed without the seats that left (three or more, the round's members);
        None where the backups are among them already, or they are too few."""
        deck = self.decks[index]
        members = deck.members_of(deck.round)
        if len(members) < MIN_BACKUP_SEATS or deck.rekey_owed():
            return None
        if all(self._among(member, index)[0] == members for member in members):
            return None
        return tuple(self.members[member] for member in members)

    def make_redealing(self, index: int) -> log_pb2.Redealing:
        """This seat's secret of deck ``index`` backed up again among the members of its
        re-keyed round (deterministic, as the first dealing)."""
        assert self.index is not None
        deck = self.decks[index]
        members = deck.members_of(deck.round)
        keys = [self.box_keys[member] for member in members]
        context = Context(deck.table, deck.round, members.index(self.index))
        dealing = make_dealing(deck.secret, keys, context)
        return bodies.redealing_body(index, deck.round, dealing)

    def accept_redealing(
        self, seat: int, body: log_pb2.Redealing, box: BoxSecret | None
    ) -> bool:
        """Record ``seat``'s new dealing of a deck (:class:`Rejection` if it is not one for the
        deck's current round); with this seat's box secret, open and check its piece: True
        when it fails (to complain of, as of a first dealing's)."""
        index = body.deck
        if not 0 <= index < len(self.decks) or body.round != self.decks[index].round:
            raise _blame(seat, Reason.UNEXPECTED, "a new backup of another deck or round")
        deck, dealer = self.decks[index], self._at(seat)
        members = deck.members_of(deck.round)
        dealing = bodies.read_redealing(seat, body, len(members))
        self.dealings[(dealer, index)] = dealing
        self.dealt_among[(dealer, index)] = (members, deck.round)
        self.pieces.pop((dealer, index), None)
        if box is None or self.index is None or self.index == dealer or self.index not in members:
            return False  # (a seat that left is no member of the round its backup is for)
        context = Context(deck.table, deck.round, members.index(dealer))
        try:
            self.pieces[(dealer, index)] = open_piece(
                dealing, deck.keys[dealer], box, members.index(self.index), context
            )
        except VerificationError:
            return True
        return False

    def covered(self, seat: int, out: Collection[int]) -> bool:
        """Whether the seats still at the table can act for ``seat`` (just put out; ``out``
        holds every seat out, ``seat`` too): for every deck, ``seat``'s backup is among three
        members or more, every other of them still at the table, and no hidden card still in
        play is under the key of a seat gone before (only its own backup's members' keys)."""
        if seat not in self.members or not self.backed_up:
            return False
        gone = self._at(seat)
        for index, deck in enumerate(self.decks):
            holders, _ = self._among(gone, index)
            if gone not in holders or any(
                self.members[m] in out for m in holders if m != gone
            ):
                return False
            hidden = {slot for hand in self.hands[:seat] + self.hands[seat + 1:]
                      for i, slot in hand if i == index} | self._out[index]
            hidden |= {Slot(deck.round, p) for p in range(self._dealt[index], len(deck.cards))}
            keyed = {deck.members_of(slot.round) for slot in hidden
                     if (index, slot) not in self.face_up}
            if any(not set(members) <= set(holders) for members in keyed):
                return False
        return True

    def audit_rekeyed(self, secrets: Mapping[int, Sequence[bytes]]) -> dict[Card, str]:
        """Check whole every round keyed after a seat left, from the secrets of the seats that
        stayed (seat -> one secret per deck, each already checked by :meth:`audit_seat`);
        the cards of those rounds by slot. :class:`Rejection` names the seat that cheated."""
        cards: dict[Card, str] = {}
        for index, deck in enumerate(self.decks):
            by_member = {
                self._at(seat): decode_scalar(encoded[index]) for seat, encoded in secrets.items()
            }
            try:
                found = deck.audit_rekeyed(by_member)
            except VerificationError as exc:
                raise self._blame_deck(exc, "audit: ") from None
            cards.update(((index, slot), name) for slot, name in found.items())
        return cards


@dataclass
class _Search:
    """Search number ``number`` of deck ``index``'s pile for ``card``, under way: the
    positions searched, and the verified stand-in parts for a seat out (by the standing-in
    seat's number in the decks)."""

    number: int
    index: int
    card: str
    positions: tuple[int, ...]
    stand_ins: dict[int, StandInBatch] = field(default_factory=dict)


def _shown_by(seat: int, flow: CardFlow) -> tuple[str, ...]:
    """The cards of ``seat``'s hand its move must show: played, shown, and handed away."""
    return (*flow.played, *flow.shown, *(h.card for h in flow.handed if h.giver == seat))


def _deck_context(table_id: bytes, index: int) -> bytes:
    return table_id + index.to_bytes(1, "little")


def _blame(seat: int, reason: Reason, detail: str) -> Rejection:
    return Rejection(reason, detail, seat=seat)
