"""A seat's deck secret backed up among the other seats: Feldman verifiable secret sharing.

So that a table survives a seat that leaves (DESIGN.md 6a), each seat ``i`` of
a table of ``n >= 3`` seats shares its deck secret ``x_i`` (the ElGamal secret
of the key ``X_i = x_i·G`` it published and proved) among the ``n - 1`` other
seats, so that all of them together, and no fewer, can later do its part of a
decryption (:mod:`condottiere.crypto.standin`). Nobody ever rebuilds ``x_i``.

**Dealing** (:func:`make_dealing`). Dealer ``i`` takes the polynomial of degree ``n - 2``

    ``f_i(z) = x_i + a_1·z + … + a_{n-2}·z^(n-2)  (mod L)``

and publishes the Feldman commitments ``F_k = a_k·G`` for ``k = 1 … n-2``
(``F_0`` is ``X_i`` itself and is not sent again: the backup is tied to the
key already published) and, for every other seat ``j``, the *piece*
``s_j = f_i(z_j)`` at ``j``'s evaluation point ``z_j = j + 1`` (never 0, where
the secret is), sealed to ``j``'s box key (:mod:`condottiere.crypto.sealing`)
together with a tag that binds it to the table, round, dealer, recipient and
commitments. A dealing is deterministic: the coefficients, and the ephemeral
secret of each box, are hashed from ``x_i`` and what they serve, so a peer
restarted from its stored deck secret makes the same dealing again, byte for
byte, and can still answer for it. Its size is ``32·(n-2) + 112·(n-1)`` bytes.

**Checking** (:func:`open_piece`). ``j`` opens its box at once, checks the
tag, and checks its piece against the public commitments::

    s_j·G == V_ij = X_i + Σ_k z_j^k·F_k          (verification_key)

A piece that fails (the box does not open, the tag is another box's, the piece
is not a canonical non-zero scalar, or it does not match) makes ``j`` publish a
:class:`Complaint`.

**Complaints** (:func:`answer_complaint`, :func:`settle_complaint`). The dealer
answers with the piece and the ephemeral secret of that box. Anyone seals the
piece again with it, compares with the box in the dealing, byte for byte, and
checks the piece against the commitments. Both pass only when the box held a
valid piece for ``j``, so the complaint was false: the *complainer* is blamed.
Otherwise, or when no answer comes (the peer layer keeps the time), the
*dealer* is blamed. An honest dealer can always answer, so a false complaint
cannot frame it; an honest recipient complains only about a box that holds no
valid piece, and for such a box no answer passes. Either way a complaint ends
with a blame, proven by public data alone. The answer makes ``j``'s piece
public, which gives nobody more than ``j`` could have handed out itself.

**What each party learns.** Everyone: the commitments, which tell nothing of
``x_i`` beyond ``X_i`` (that would need discrete logarithms). Seat ``j``: its
piece ``f_i(z_j)``. Any ``n - 2`` pieces or fewer are consistent with *every*
value of ``x_i`` (a polynomial of degree ``n - 2`` passes through them with any
value at 0), so a coalition short of all other seats learns nothing; the
``n - 1`` pieces of all other seats together determine ``x_i``. That is the
privacy cost of the backup: all the others together could open the dealer's
hidden cards too, as they can act for it. With two seats nothing is shared (a
piece would be the secret itself): a leave is a forfeit.

**Cost** per deal: a dealer makes ``n - 2`` commitments and ``n - 1`` boxes (two
X25519 multiplications each); a recipient opens ``n - 1`` boxes and checks each
piece with one base multiplication and ``n - 2`` multiplications, about
``(n - 1)²`` in all.

Sources: P. Feldman, "A practical scheme for non-interactive verifiable secret
sharing", FOCS 1987 (the commitments and the check); R. Gennaro, S. Jarecki,
H. Krawczyk, T. Rabin, "Secure distributed key generation for discrete-log
based cryptosystems", EUROCRYPT 1999 (the complaint answered by opening the
piece in public); A. Shamir, "How to share a secret", 1979 (the threshold).

>>> from condottiere.crypto.context import Context
>>> from condottiere.crypto.group import mul_base
>>> from condottiere.crypto.sealing import BoxSecret
>>> boxes = [BoxSecret(bytes([seat]) * 32) for seat in range(3)]
>>> keys = [box.public for box in boxes]
>>> secret, ctx = 1234567, Context(b"table", 0, 0)
>>> dealing = make_dealing(secret, keys, ctx)
>>> len(dealing.commitments), len(dealing.boxes), dealing.seats
(1, 2, 3)
>>> pieces = {j: open_piece(dealing, mul_base(secret), boxes[j], j, ctx) for j in (1, 2)}
>>> lam = lagrange_at_zero([evaluation_point(j) for j in (1, 2)])
>>> (lam[0] * pieces[1] + lam[1] * pieces[2]) % L == secret
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NoReturn

from condottiere.crypto.codec import Reader, encode_scalar, encode_u32
from condottiere.crypto.context import Context
from condottiere.crypto.errors import DecodeError, VerificationError
from condottiere.crypto.group import (
    POINT_BYTES,
    SCALAR_BYTES,
    L,
    Point,
    add,
    hash_to_scalar,
    is_point,
    is_scalar,
    mul_base,
    multi_mul,
)
from condottiere.crypto.sealing import EPHEMERAL_BYTES, SEAL_OVERHEAD, BoxKey, BoxSecret, seal

__all__ = [
    "MIN_BACKUP_SEATS",
    "PIECE_BOX_BYTES",
    "Complaint",
    "ComplaintAnswer",
    "Dealing",
    "answer_complaint",
    "evaluation_point",
    "lagrange_at_zero",
    "make_dealing",
    "open_piece",
    "settle_complaint",
    "verification_key",
]

MIN_BACKUP_SEATS = 3
"""The fewest seats that share: with two, the one other seat's piece would be the secret."""

_TAG_BYTES = SCALAR_BYTES
_PLAINTEXT_BYTES = SCALAR_BYTES + _TAG_BYTES
PIECE_BOX_BYTES = SEAL_OVERHEAD + _PLAINTEXT_BYTES
"""A sealed piece: 112 bytes, the box of the piece (32 bytes) and its tag (32 bytes)."""

_COEFFICIENT_DOMAIN = b"vss-coefficient"
_EPHEMERAL_DOMAIN = b"vss-ephemeral"
_TAG_DOMAIN = b"vss-piece-tag"


def evaluation_point(seat: int) -> int:
    """Where seat ``seat``'s piece is the polynomial's value: ``seat + 1`` (never 0).

    >>> [evaluation_point(seat) for seat in range(3)]
    [1, 2, 3]
    """
    if not 0 <= seat < 2**32:
        raise ValueError(f"no seat {seat}")
    return seat + 1


def lagrange_at_zero(points: Sequence[int]) -> list[int]:
    """The coefficients ``λ_j`` with ``f(0) = Σ λ_j·f(z_j)`` for every polynomial ``f`` of
    degree below ``len(points)``, the ``z_j`` being ``points`` (distinct, non-zero, below L).

    >>> lam = lagrange_at_zero([1, 2])
    >>> f = lambda z: (5 + 3 * z) % L
    >>> (lam[0] * f(1) + lam[1] * f(2)) % L
    5
    """
    if len(set(points)) != len(points) or not all(0 < z < L for z in points):
        raise ValueError("interpolation points must be distinct, non-zero scalars")
    coefficients = []
    for j, z_j in enumerate(points):
        numerator, denominator = 1, 1
        for m, z_m in enumerate(points):
            if m != j:
                numerator = numerator * z_m % L
                denominator = denominator * (z_m - z_j) % L
        coefficients.append(numerator * pow(denominator, -1, L) % L)
    return coefficients


@dataclass(frozen=True, slots=True)
class Dealing:
    """A dealer's backup of its secret: commitments ``F_1 … F_{n-2}`` and one sealed piece per
    other seat, in seat order (the dealer's own seat skipped)."""

    commitments: tuple[Point, ...]
    boxes: tuple[bytes, ...]

    def __post_init__(self) -> None:
        if len(self.boxes) != len(self.commitments) + 1 or not self.commitments:
            raise ValueError("a dealing of n seats has n - 2 commitments and n - 1 boxes, n >= 3")
        if any(len(box) != PIECE_BOX_BYTES for box in self.boxes):
            raise ValueError(f"a sealed piece is {PIECE_BOX_BYTES} bytes")
        if not all(is_point(c) for c in self.commitments):
            raise ValueError("a commitment is a valid, non-identity point")

    @property
    def seats(self) -> int:
        """How many seats the table has."""
        return len(self.commitments) + 2

    def box(self, dealer: int, recipient: int) -> bytes:
        """The box sealed to ``recipient`` in ``dealer``'s dealing."""
        if not 0 <= dealer < self.seats or not 0 <= recipient < self.seats:
            raise ValueError(f"a dealing of {self.seats} seats has no seat {dealer}/{recipient}")
        if recipient == dealer:
            raise ValueError("a dealer seals no piece to itself")
        return self.boxes[recipient - (recipient > dealer)]

    def encode(self) -> bytes:
        """The commitments (32 bytes each), then the boxes (112 bytes each)."""
        return b"".join(self.commitments) + b"".join(self.boxes)

    @classmethod
    def decode(cls, data: bytes, seats: int) -> Dealing:
        """The dealing of a table of ``seats`` seats that ``data`` encodes; :class:`DecodeError`
        if malformed (a commitment that is not a valid point, a wrong length)."""
        if seats < MIN_BACKUP_SEATS:
            raise ValueError(f"only tables of {MIN_BACKUP_SEATS} seats or more share their secrets")
        expected = (seats - 2) * POINT_BYTES + (seats - 1) * PIECE_BOX_BYTES
        if len(data) != expected:
            raise DecodeError(f"a dealing for {seats} seats is {expected} bytes, got {len(data)}")
        reader = Reader(data)
        commitments = tuple(reader.point() for _ in range(seats - 2))
        boxes = tuple(reader.take(PIECE_BOX_BYTES) for _ in range(seats - 1))
        reader.finish()
        return cls(commitments, boxes)


@dataclass(frozen=True, slots=True)
class Complaint:
    """A recipient's public claim that ``dealer``'s piece for it does not open or check."""

    dealer: int

    def encode(self) -> bytes:
        """The dealer's seat, ``u32``."""
        return encode_u32(self.dealer)

    @classmethod
    def decode(cls, data: bytes) -> Complaint:
        """The complaint ``data`` encodes; :class:`DecodeError` if malformed."""
        reader = Reader(data)
        complaint = cls(reader.u32())
        reader.finish()
        return complaint


@dataclass(frozen=True, slots=True)
class ComplaintAnswer:
    """A dealer's public answer to a complaint: the piece it sealed to ``recipient`` and the
    ephemeral secret of that box, with which anyone seals the piece again and compares."""

    recipient: int
    piece: int
    ephemeral: bytes

    ENCODED_BYTES = 4 + SCALAR_BYTES + EPHEMERAL_BYTES

    def encode(self) -> bytes:
        """The recipient (``u32``), the piece (a scalar), the ephemeral secret: 68 bytes."""
        return encode_u32(self.recipient) + encode_scalar(self.piece) + self.ephemeral

    @classmethod
    def decode(cls, data: bytes) -> ComplaintAnswer:
        """The answer ``data`` encodes; :class:`DecodeError` if malformed."""
        reader = Reader(data)
        answer = cls(reader.u32(), reader.scalar(), reader.take(EPHEMERAL_BYTES))
        reader.finish()
        return answer


def verification_key(dealing: Dealing, dealer_key: Point, seat: int) -> Point:
    """``V = X + Σ_k z^k·F_k``, ``z`` being ``seat``'s evaluation point: ``f(z)·G``, the public
    key of ``seat``'s piece in this dealing (the identity when the commitments make it so, for
    which no piece is valid)."""
    z = evaluation_point(seat)
    powers = [pow(z, k, L) for k in range(1, len(dealing.commitments) + 1)]
    return add(dealer_key, multi_mul(powers, dealing.commitments))


def _tag(
    commitments: Sequence[Point], dealer_key: Point, recipient: int, context: Context
) -> bytes:
    """What binds a piece to its dealing: the table, round, dealer, its key and commitments,
    and the recipient."""
    return encode_scalar(
        hash_to_scalar(
            _TAG_DOMAIN, context.encode(), dealer_key, encode_u32(recipient), *commitments
        )
    )


def _coefficients(secret: int, seats: int, context: Context) -> list[int]:
    """``[x, a_1, …, a_{n-2}]``, hashed from the secret and the context; drawn again in the
    (2^-250) case that a coefficient or a seat's value is zero, which commitments and checks
    refuse."""
    attempt = 0
    while True:
        coefficients = [secret] + [
            hash_to_scalar(
                _COEFFICIENT_DOMAIN,
                encode_scalar(secret),
                context.encode(),
                encode_u32(seats),
                encode_u32(attempt),
                encode_u32(k),
            )
            for k in range(1, seats - 1)
        ]
        if all(coefficients) and all(
            _evaluate(coefficients, evaluation_point(j)) for j in range(seats)
        ):
            return coefficients
        attempt += 1


def _evaluate(coefficients: Sequence[int], z: int) -> int:
    value = 0
    for coefficient in reversed(coefficients):
        value = (value * z + coefficient) % L
    return value


def _sealed_piece(secret: int, piece: int, tag: bytes, recipient: BoxKey) -> tuple[bytes, bytes]:
    """The box of ``piece ‖ tag`` to ``recipient`` and its ephemeral secret, hashed from the
    dealer's secret and everything the box holds (so one ephemeral seals one message only)."""
    plaintext = encode_scalar(piece) + tag
    ephemeral = encode_scalar(
        hash_to_scalar(_EPHEMERAL_DOMAIN, encode_scalar(secret), recipient.raw, plaintext)
    )
    return seal(plaintext, recipient, ephemeral), ephemeral


def _deal(
    secret: int, box_keys: Sequence[BoxKey], context: Context
) -> tuple[Dealing, dict[int, ComplaintAnswer]]:
    """The dealing, and for each recipient what would answer its complaint."""
    seats, dealer = len(box_keys), context.seat
    if seats < MIN_BACKUP_SEATS:
        raise ValueError(f"only tables of {MIN_BACKUP_SEATS} seats or more share their secrets")
    if not 0 <= dealer < seats:
        raise ValueError(f"seat {dealer} is not one of {seats} seats")
    if not 0 < secret < L:
        raise ValueError("a secret is a non-zero scalar below L")
    coefficients = _coefficients(secret, seats, context)
    commitments = tuple(mul_base(a) for a in coefficients[1:])
    dealer_key = mul_base(secret)
    boxes, openings = [], {}
    for j in range(seats):
        if j != dealer:
            piece = _evaluate(coefficients, evaluation_point(j))
            tag = _tag(commitments, dealer_key, j, context)
            box, ephemeral = _sealed_piece(secret, piece, tag, box_keys[j])
            boxes.append(box)
            openings[j] = ComplaintAnswer(j, piece, ephemeral)
    return Dealing(commitments, tuple(boxes)), openings


def make_dealing(secret: int, box_keys: Sequence[BoxKey], context: Context) -> Dealing:
    """The dealing of ``context.seat``, whose deck secret is ``secret``, to the seats whose box
    keys are ``box_keys`` (seat ``j``'s is the j-th; the dealer's own is not used).

    Deterministic: the same arguments give the same dealing (see the module's docstring).
    """
    return _deal(secret, box_keys, context)[0]


def open_piece(
    dealing: Dealing, dealer_key: Point, box_secret: BoxSecret, recipient: int, context: Context
) -> int:
    """``recipient``'s piece of the dealing by ``context.seat`` (whose key is ``dealer_key``),
    opened with its box secret and checked against the commitments.

    :class:`VerificationError` names the dealer when the piece does not open or check: the
    recipient's own finding, which it makes public as a :class:`Complaint`.
    """
    dealer = context.seat
    box = dealing.box(dealer, recipient)
    try:
        plaintext = box_secret.open(box)
    except DecodeError:
        raise VerificationError(dealer, f"its piece for seat {recipient} does not open") from None
    piece = int.from_bytes(plaintext[:SCALAR_BYTES], "little")
    if not 0 < piece < L:
        raise VerificationError(dealer, f"its piece for seat {recipient} is not a non-zero scalar")
    if plaintext[SCALAR_BYTES:] != _tag(dealing.commitments, dealer_key, recipient, context):
        raise VerificationError(
            dealer, f"its box for seat {recipient} was sealed for another dealing or seat"
        )
    if mul_base(piece) != verification_key(dealing, dealer_key, recipient):
        raise VerificationError(
            dealer, f"its piece for seat {recipient} does not match its commitments"
        )
    return piece


def answer_complaint(
    secret: int, box_keys: Sequence[BoxKey], recipient: int, context: Context
) -> ComplaintAnswer:
    """The answer of ``context.seat`` to ``recipient``'s complaint about its dealing, made
    again from the same ``secret``, ``box_keys`` and ``context`` (so a restarted dealer
    answers for the dealing it published before)."""
    openings = _deal(secret, box_keys, context)[1]
    if recipient not in openings:
        raise ValueError(f"seat {recipient} has no piece from seat {context.seat}")
    return openings[recipient]


def settle_complaint(
    dealing: Dealing,
    dealer_key: Point,
    box_keys: Sequence[BoxKey],
    complainer: int,
    answer: ComplaintAnswer | None,
    context: Context,
) -> NoReturn:
    """Settle ``complainer``'s complaint about the dealing of ``context.seat``: always raises
    the :class:`VerificationError` that names the seat to blame.

    The dealer is blamed when ``answer`` is None (it never came), is for another seat, or does
    not both seal again to the very box of the dealing and match the commitments; otherwise
    the box held a valid piece and the complainer is blamed for a false complaint. A complaint
    about a dealer that is not one (the complainer itself, a seat not at the table) is blamed
    on the complainer.
    """
    dealer = context.seat
    if len(box_keys) != dealing.seats:
        raise ValueError(f"a dealing of {dealing.seats} seats needs {dealing.seats} box keys")
    if not 0 <= complainer < dealing.seats:
        raise ValueError(f"no seat {complainer} at a table of {dealing.seats}")
    if not 0 <= dealer < dealing.seats or dealer == complainer:
        raise VerificationError(complainer, f"complains about seat {dealer}, not its dealer")
    if answer is None:
        raise VerificationError(dealer, f"did not answer the complaint of seat {complainer}")
    if answer.recipient != complainer:
        raise VerificationError(
            dealer, f"answered seat {complainer}'s complaint with seat {answer.recipient}'s piece"
        )
    well_formed = is_scalar(answer.piece) and answer.piece != 0
    if not well_formed or len(answer.ephemeral) != EPHEMERAL_BYTES:
        raise VerificationError(dealer, f"answered seat {complainer} with a malformed piece")
    plaintext = encode_scalar(answer.piece) + _tag(
        dealing.commitments, dealer_key, complainer, context
    )
    if seal(plaintext, box_keys[complainer], answer.ephemeral) != dealing.box(dealer, complainer):
        raise VerificationError(
            dealer, f"its answer to seat {complainer} is not what it sealed to that seat"
        )
    if mul_base(answer.piece) != verification_key(dealing, dealer_key, complainer):
        raise VerificationError(
            dealer, f"its piece for seat {complainer} does not match its commitments"
        )
    raise VerificationError(
        complainer, f"complained about seat {dealer}'s piece, which opens and checks"
    )
