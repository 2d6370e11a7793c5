"""Decryption for a seat that left: the others do its part, each with a proof, and nobody
rebuilds its secret.

When seat ``L`` is out, each card ``(a, b)`` that still needs ``L``'s decryption
share ``x_L·a`` gets it from the ``n - 1`` remaining seats, through the backup
``L`` dealt (:mod:`condottiere.crypto.vss`). Each remaining seat ``j``
publishes its *part* ``P_j = s_j·a``, ``s_j`` being its piece of ``L``'s secret
(:func:`~condottiere.crypto.vss.open_piece`), with a Chaum-Pedersen proof
(:mod:`~condottiere.crypto.dleq`, as for a decryption share) that
``log_G V_j = log_a P_j``, where ``V_j = s_j·G`` is
:func:`~condottiere.crypto.vss.verification_key`, which anyone computes from
``L``'s key and public commitments. Anyone then combines the verified parts of
all the remaining seats with the Lagrange coefficients at 0 of their evaluation
points::

    x_L·a = Σ_j λ_j·P_j      (the pieces lie on f_L, and f_L(0) = x_L)

and uses the result as ``L``'s share (:func:`~condottiere.crypto.shares.unblind`).
``x_L`` itself is never rebuilt: the interpolation happens in the exponent, one
card at a time.

A part's proof is bound, by strong Fiat-Shamir under its own domain tag, to the
table, the round of the cards, the seat that makes it, the leaver, ``V_j``, the
card's position and whole ciphertext, and the part; a part replayed for another
card, round, table, seat or leaver, or a decryption share's proof, does not
verify. A part that does not verify is blamed on its author.

**What is learned**: for each card asked for, ``x_L·a``, exactly what ``L``'s own
share would have told, and nothing of any piece (the proof is zero-knowledge).
The parts of fewer than all remaining seats leave ``x_L·a`` undetermined, as
the pieces leave ``x_L``. **The privacy cost**: the remaining seats together
could open ``L``'s own hidden cards as well, by asking for their parts; the
peer layer asks only for cards the game needs opened (cards dealt to the
remaining seats, and, right after ``L`` left, every card still in the pile), and
``L``'s hand goes out of the game unseen. A second leaver before the others stood
in for ``L`` on every card and backed their secrets up again among themselves
leaves too few seats to stand in for either.

**Cost** per card: each remaining seat makes one part and its proof (three
multiplications); each verifier checks ``n - 1`` parts (four multiplications
each) and combines them (``n - 1`` more); ``V_j`` costs ``n - 2``
multiplications per seat, once per leaver.

Sources: D. Chaum, T. P. Pedersen, "Wallet databases with observers", CRYPTO
1992 (the proof); threshold ElGamal decryption by Lagrange interpolation in the
exponent, as in Y. Desmedt, Y. Frankel, "Threshold cryptosystems", CRYPTO 1989.

>>> from condottiere.crypto.context import Context
>>> from condottiere.crypto.elgamal import encrypt
>>> from condottiere.crypto.group import hash_to_point, mul, mul_base
>>> from condottiere.crypto.sealing import BoxSecret
>>> from condottiere.crypto.vss import make_dealing, open_piece, verification_key
>>> x = [11, 22, 33]
>>> boxes = [BoxSecret(bytes([seat]) * 32) for seat in range(3)]
>>> dealing = make_dealing(x[2], [b.public for b in boxes], Context(b"t", 0, 2))
>>> card = hash_to_point(b"doc", b"card")
>>> c = encrypt(card, mul_base(sum(x)), 99)
>>> batches = {}
>>> for j in (0, 1):
...     piece = open_piece(dealing, mul_base(x[2]), boxes[j], j, Context(b"t", 0, 2))
...     batch = make_stand_in(piece, 2, {7: c}, Context(b"t", 0, j))
...     key = verification_key(dealing, mul_base(x[2]), j)
...     verify_stand_in(batch, 2, key, {7: c}, Context(b"t", 0, j))
...     batches[j] = batch
>>> combine_stand_in(batches, 3)[7] == mul(x[2], c[0])
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial

from condottiere.crypto import dleq
from condottiere.crypto.codec import Reader, encode_ciphertext, encode_u32
from condottiere.crypto.context import Context
from condottiere.crypto.elgamal import Ciphertext
from condottiere.crypto.errors import DecodeError, VerificationError
from condottiere.crypto.group import L, Point, is_point, mul, mul_base, multi_mul
from condottiere.crypto.vss import evaluation_point, lagrange_at_zero

__all__ = [
    "StandInBatch",
    "StandInPart",
    "combine_stand_in",
    "make_stand_in",
    "verify_stand_in",
]

_PART_DOMAIN = b"standin-part"


@dataclass(frozen=True, slots=True)
class StandInPart:
    """``P = s·a`` with a DLEQ proof ``(c, s')`` that ``log_G V = log_a P``."""

    part: Point
    challenge: int
    response: int

    ENCODED_BYTES = dleq.ENCODED_BYTES

    def encode(self) -> bytes:
        """``P ‖ c ‖ s'``, 96 bytes."""
        return dleq.encode(self.part, self.challenge, self.response)

    @classmethod
    def decode(cls, data: bytes) -> StandInPart:
        """The part ``data`` encodes; :class:`DecodeError` if malformed."""
        return cls(*dleq.decode(data))


@dataclass(frozen=True, slots=True)
class StandInBatch:
    """A seat's parts of ``leaver``'s decryption shares of cards of one round.

    Positions are strictly increasing, so a batch has exactly one encoding.
    """

    round: int
    leaver: int
    positions: tuple[int, ...]
    parts: tuple[StandInPart, ...]

    def __post_init__(self) -> None:
        if len(self.positions) != len(self.parts):
            raise ValueError("a stand-in batch needs one part per position")
        if any(a >= b for a, b in zip(self.positions, self.positions[1:], strict=False)):
            raise ValueError("stand-in batch positions must be strictly increasing")

    def encode(self) -> bytes:
        """Round, leaver, count (``u32`` each), the positions (``u32``), then the parts."""
        return (
            encode_u32(self.round)
            + encode_u32(self.leaver)
            + encode_u32(len(self.positions))
            + b"".join(encode_u32(p) for p in self.positions)
            + b"".join(p.encode() for p in self.parts)
        )

    @classmethod
    def decode(cls, data: bytes) -> StandInBatch:
        """The batch ``data`` encodes; :class:`DecodeError` if malformed."""
        reader = Reader(data)
        round_, leaver, count = reader.u32(), reader.u32(), reader.u32()
        if reader.remaining != count * (4 + StandInPart.ENCODED_BYTES):
            raise DecodeError(f"a batch of {count} stand-in parts has the wrong length")
        positions = tuple(reader.u32() for _ in range(count))
        parts = tuple(
            StandInPart.decode(reader.take(StandInPart.ENCODED_BYTES)) for _ in range(count)
        )
        reader.finish()
        try:
            return cls(round_, leaver, positions, parts)
        except ValueError as exc:
            raise DecodeError(str(exc)) from None


def _statement(
    leaver: int, key: Point, ciphertext: Ciphertext, position: int, part: Point
) -> tuple[bytes, ...]:
    return (encode_u32(leaver), key, encode_u32(position), encode_ciphertext(ciphertext), part)


def make_stand_in(
    piece: int, leaver: int, cards: Mapping[int, Ciphertext], context: Context
) -> StandInBatch:
    """The parts of ``leaver``'s shares by ``context.seat``, whose piece of ``leaver``'s secret
    is ``piece``, for ``cards`` (position -> ciphertext, of round ``context.round``): exactly
    the cards that need ``leaver``'s share, no more."""
    if leaver == context.seat:
        raise ValueError("a seat does not stand in for itself")
    if not 0 < piece < L:
        raise ValueError("a piece is a non-zero scalar below L")
    key = mul_base(piece)
    positions = tuple(sorted(cards))
    parts = []
    for position in positions:
        if not 0 <= position < 2**32:
            raise ValueError(f"no deck has a position {position}")
        ciphertext = cards[position]
        part = mul(piece, ciphertext[0])
        statement = _statement(leaver, key, ciphertext, position, part)
        proof = dleq.prove(piece, ciphertext[0], _PART_DOMAIN, context, statement)
        parts.append(StandInPart(part, *proof))
    return StandInBatch(context.round, leaver, positions, tuple(parts))


def _verify_part(
    part: StandInPart,
    leaver: int,
    key: Point,
    ciphertext: Ciphertext,
    position: int,
    context: Context,
) -> None:
    dleq.verify(
        key,
        ciphertext[0],
        part.part,
        part.challenge,
        part.response,
        _PART_DOMAIN,
        context,
        _statement(leaver, key, ciphertext, position, part.part),
        f"stand-in part of seat {leaver}'s share at position {position}",
    )


def verify_stand_in(
    batch: StandInBatch,
    leaver: int,
    key: Point,
    cards: Mapping[int, Ciphertext],
    context: Context,
) -> None:
    """Check the batch of ``context.seat`` for ``leaver``'s shares of ``cards`` (position ->
    ciphertext, of round ``context.round``), ``key`` being that seat's verification key in
    ``leaver``'s dealing (:func:`~condottiere.crypto.vss.verification_key`).

    :class:`VerificationError` names ``context.seat`` for a batch for another leaver or round,
    for other cards than exactly ``cards``, or with a part that does not verify (the first in
    position order); parts are checked on threads when there are enough.
    """
    seat = context.seat
    if batch.leaver != leaver or leaver == seat:
        raise VerificationError(seat, f"stands in for seat {batch.leaver}, not {leaver}")
    if batch.round != context.round:
        raise VerificationError(seat, f"stand-in parts for round {batch.round}, not this one")
    if batch.positions != tuple(sorted(cards)):
        raise VerificationError(
            seat, f"stand-in parts for other cards than the ones that need seat {leaver}'s share"
        )
    if not is_point(key):
        raise VerificationError(
            seat, f"holds no valid piece of seat {leaver}'s secret (and did not complain)"
        )
    dleq.verify_all(
        [
            partial(_verify_part, part, leaver, key, cards[position], position, context)
            for position, part in zip(batch.positions, batch.parts, strict=True)
        ]
    )


def combine_stand_in(batches: Mapping[int, StandInBatch], seats: int) -> dict[int, Point]:
    """``x_L·a`` for each card, from the verified batches of every remaining seat (seat ->
    batch) at a table of ``seats`` seats: the leaver's decryption shares, by position."""
    if not batches:
        raise ValueError("no stand-in batches to combine")
    first = next(iter(batches.values()))
    remaining = sorted(batches)
    if remaining != [j for j in range(seats) if j != first.leaver]:
        raise ValueError(f"seat {first.leaver}'s shares need a batch from every other seat")
    if any(
        (b.leaver, b.round, b.positions) != (first.leaver, first.round, first.positions)
        for b in batches.values()
    ):
        raise ValueError("stand-in batches for different leavers, rounds or cards")
    coefficients = lagrange_at_zero([evaluation_point(j) for j in remaining])
    return {
        position: multi_mul(coefficients, [batches[j].parts[index].part for j in remaining])
        for index, position in enumerate(first.positions)
    }
