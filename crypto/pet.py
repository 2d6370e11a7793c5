"""Searching the deck for a named card: a plaintext equivalence test over the pile.

The card's name is public, its place is secret. For each card ``(a, b)`` of the pile and the
named card's point ``M``, the pair ``(a, b - M)`` is an encryption of the identity exactly when
the card is ``M``. The test (Jakobsson and Juels, "Mix and Match: secure function evaluation
via ciphertexts", ASIACRYPT 2000) opens a *blinded* form of that pair, which tells "the
identity" or "not", and nothing else:

1. **blinding** - each member ``k`` (every seat still at the table; all at once, in any
   order) draws a fresh secret ``z_k`` per test and publishes ``(A_k, B_k) = (z_k·a,
   z_k·(b - M))`` with a proof of knowledge of ``z_k`` as the one exponent of both
   (:mod:`~condottiere.crypto.linear`, a Chaum-Pedersen proof over the bases ``a`` and
   ``b - M``); an identity output is refused;
2. **opening** - once every blinding is in, anyone combines ``A* = Σ_k A_k`` and
   ``B* = Σ_k B_k``; each member publishes its decryption share ``D_k = x_k·A*`` with a
   Chaum-Pedersen proof against its deck key ``X_k`` (a seat that left is stood in for by
   the others' parts, :mod:`~condottiere.crypto.standin`, over the pairs ``(A*, B*)``);
3. **result** - the card is ``M`` iff ``B* - Σ_k D_k`` is the identity: with ``z = Σ_k z_k``
   and the card ``M'``, ``B* - x·A* = z·(M' - M)``.

**Why blinding in parallel is safe.** A member that speaks last sees the others' ``A_k``
and ``B_k`` first, but its own pair must come with a proof of knowledge of its exponent
(special soundness: a prover that passes knows ``z_j``). To cancel the others, making
``A* = 0`` or steering ``A*`` onto a point of its choice (say the ``a`` of a card in an
honest seat's hand, so that that seat's opening share ``x_h·A*`` would be its decryption
share of that card), it would need ``A_j = target - Σ_{k≠j} A_k`` with a known ``z_j``,
i.e. the discrete logarithm of that point to the base ``a``, which nobody has. Its ``z_j``
may depend on what it saw, but never cancels the honest members' exponents, which it does
not know: ``z`` keeps an honest member's uniformly random summand, so for a card that is
not ``M`` the opened point ``z·(M' - M)`` is a random point that says nothing of ``M'``
(testing a guess ``M''`` against it needs ``z_h·(M'' - M)``, a Diffie-Hellman value:
DDH). The proofs (strong Fiat-Shamir) are bound to the table, round and seat, the search's
number, the card named, the positions searched, and each test's position, copy, ciphertext
and points, so a step of one search, round or seat is worthless in any other.

**What is learned**: for each position searched and each copy of the named card, whether
that position holds that copy. For a name with several copies in the pile every copy's
position is learned; a game that wants one copy taken and the others kept secret names
unique cards (Captains' captains are).

**Cost** per test (a position and a copy): each member makes its blinding (four
multiplications) and its opening share (three); each verifier checks every other member's
blinding (four) and opening (four), and sums.

>>> from condottiere.crypto.context import Context
>>> from condottiere.crypto.elgamal import encrypt
>>> from condottiere.crypto.group import hash_to_point, mul_base
>>> x = [5, 9]
>>> cards = [hash_to_point(b"doc", bytes([i])) for i in range(3)]
>>> pile = [encrypt(card, mul_base(sum(x)), 3 + i) for i, card in enumerate(cards)]
>>> header = search_header(1, "second", (0, 1, 2))
>>> items = [(ciphertext, cards[1]) for ciphertext in pile]
>>> ctx = [Context(b"t", 0, seat) for seat in range(2)]
>>> blindings = [make_blinding(1, "second", (0, 1, 2), items, ctx[k]) for k in range(2)]
>>> for k in range(2): verify_blinding(blindings[k], items, ctx[k])
>>> combined = combine(blindings)
>>> openings = [make_opening(x[k], 1, header, combined, ctx[k]) for k in range(2)]
>>> for k in range(2): verify_opening(openings[k], mul_base(x[k]), header, combined, ctx[k])
>>> matches(combined, [o.points for o in openings])
[False, True, False]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TypeVar

from condottiere.crypto import dleq, linear
from condottiere.crypto.codec import (
    Reader,
    encode_ciphertext,
    encode_text,
    encode_u32,
)
from condottiere.crypto.context import Context
from condottiere.crypto.elgamal import Ciphertext
from condottiere.crypto.errors import DecodeError, VerificationError
from condottiere.crypto.group import (
    IDENTITY,
    POINT_BYTES,
    GroupError,
    Point,
    is_point,
    mul,
    mul_base,
    random_scalar,
    sub,
    sum_points,
)
from condottiere.crypto.linear import LinearProof
from condottiere.crypto.shares import DecryptionShare
from condottiere.crypto.workers import WORKERS, pool

__all__ = [
    "BlindedTest",
    "SearchBlinding",
    "SearchOpening",
    "combine",
    "make_blinding",
    "make_opening",
    "matches",
    "search_header",
    "verify_blinding",
    "verify_opening",
]

_BLINDING_DOMAIN = b"search-blinding"
_OPENING_DOMAIN = b"search-opening"

_T = TypeVar("_T")
_R = TypeVar("_R")


def search_header(search: int, card: str, positions: Sequence[int]) -> bytes:
    """What every proof of a search is bound to: its number, the card named and the positions
    searched."""
    return (
        encode_u32(search)
        + encode_text(card)
        + encode_u32(len(positions))
        + b"".join(encode_u32(p) for p in positions)
    )


@dataclass(frozen=True, slots=True)
class BlindedTest:
    """One member's ``(A, B) = (z·a, z·(b - M))`` for one test, with the proof that one ``z``
    made both."""

    blinded_a: Point
    blinded_b: Point
    proof: LinearProof

    ENCODED_BYTES = 2 * POINT_BYTES + LinearProof.encoded_bytes(1)

    def encode(self) -> bytes:
        """``A ‖ B ‖ c ‖ s``, 128 bytes."""
        return self.blinded_a + self.blinded_b + self.proof.encode()

    @classmethod
    def read(cls, reader: Reader) -> BlindedTest:
        """The test at ``reader``'s front."""
        return cls(reader.point(), reader.point(), LinearProof.read(reader, 1))


@dataclass(frozen=True, slots=True)
class SearchBlinding:
    """A member's blinding step of search number ``search`` in round ``round``: one
    :class:`BlindedTest` per position searched and copy of ``card``, position by position
    (the copies of each position in deck order).

    Positions are strictly increasing and there is at least one, so a blinding has exactly
    one encoding.
    """

    search: int
    round: int
    card: str
    positions: tuple[int, ...]
    tests: tuple[BlindedTest, ...]

    def __post_init__(self) -> None:
        if not self.positions:
            raise ValueError("a search needs at least one position")
        if any(a >= b for a, b in zip(self.positions, self.positions[1:], strict=False)):
            raise ValueError("search positions must be strictly increasing")
        if not self.tests or len(self.tests) % len(self.positions):
            raise ValueError("a search blinding needs as many tests for every position")

    def encode(self) -> bytes:
        """Search, round (``u32``), the card (length-prefixed), the positions (a ``u32`` count,
        then ``u32`` each), the number of tests (``u32``), then the tests."""
        return (
            encode_u32(self.search)
            + encode_u32(self.round)
            + encode_text(self.card)
            + encode_u32(len(self.positions))
            + b"".join(encode_u32(p) for p in self.positions)
            + encode_u32(len(self.tests))
            + b"".join(t.encode() for t in self.tests)
        )

    @classmethod
    def decode(cls, data: bytes) -> SearchBlinding:
        """The blinding ``data`` encodes; :class:`DecodeError` if malformed (every point is
        checked: an identity or a point outside the group is refused here)."""
        reader = Reader(data)
        search, round_, card = reader.u32(), reader.u32(), reader.text()
        count = reader.u32()
        if count > reader.remaining // 4:
            raise DecodeError(f"{count} positions cannot fit in {reader.remaining} bytes")
        positions = tuple(reader.u32() for _ in range(count))
        tests = reader.u32()
        if reader.remaining != tests * BlindedTest.ENCODED_BYTES:
            raise DecodeError(f"a blinding of {tests} tests has the wrong length")
        blinded = tuple(BlindedTest.read(reader) for _ in range(tests))
        reader.finish()
        try:
            return cls(search, round_, card, positions, blinded)
        except ValueError as exc:
            raise DecodeError(str(exc)) from None


@dataclass(frozen=True, slots=True)
class SearchOpening:
    """A member's decryption shares ``x·A*`` of every test of search number ``search`` (in
    the order of the tests), with their proofs."""

    search: int
    round: int
    shares: tuple[DecryptionShare, ...]

    def __post_init__(self) -> None:
        if not self.shares:
            raise ValueError("a search opening needs at least one share")

    @property
    def points(self) -> tuple[Point, ...]:
        """The shares' points, test by test."""
        return tuple(share.share for share in self.shares)

    def encode(self) -> bytes:
        """Search, round, the number of shares (``u32`` each), then the shares."""
        return (
            encode_u32(self.search)
            + encode_u32(self.round)
            + encode_u32(len(self.shares))
            + b"".join(share.encode() for share in self.shares)
        )

    @classmethod
    def decode(cls, data: bytes) -> SearchOpening:
        """The opening ``data`` encodes; :class:`DecodeError` if malformed."""
        reader = Reader(data)
        search, round_, count = reader.u32(), reader.u32(), reader.u32()
        if reader.remaining != count * DecryptionShare.ENCODED_BYTES:
            raise DecodeError(f"an opening of {count} shares has the wrong length")
        shares = tuple(
            DecryptionShare.decode(reader.take(DecryptionShare.ENCODED_BYTES)) for _ in range(count)
        )
        reader.finish()
        try:
            return cls(search, round_, shares)
        except ValueError as exc:
            raise DecodeError(str(exc)) from None


def _in_parallel(work: Callable[[Sequence[_T]], list[_R]], items: Sequence[_T]) -> list[_R]:
    """``work`` over ``items`` in order, on the crypto threads when there are enough."""
    if len(items) < dleq.PARALLEL_THRESHOLD or WORKERS == 1:
        return work(items)
    size = -(-len(items) // WORKERS)
    chunks = [items[i : i + size] for i in range(0, len(items), size)]
    return [made for part in pool().map(work, chunks) for made in part]


def _blinding_statement(
    header: bytes, index: int, ciphertext: Ciphertext, target: Point, test: BlindedTest
) -> tuple[bytes, ...]:
    return (
        header,
        encode_u32(index),
        encode_ciphertext(ciphertext),
        target,
        test.blinded_a,
        test.blinded_b,
    )


def _blind(
    header: bytes, context: Context, items: Sequence[tuple[int, Ciphertext, Point]]
) -> list[BlindedTest]:
    made = []
    for index, ciphertext, target in items:
        z = random_scalar()
        shifted = sub(ciphertext[1], target)
        blinded_a, blinded_b = mul(z, ciphertext[0]), mul(z, shifted)
        unproven = BlindedTest(blinded_a, blinded_b, LinearProof(0, (0,)))
        proof = linear.prove(
            (z,),
            [(blinded_a, (ciphertext[0],)), (blinded_b, (shifted,))],
            _BLINDING_DOMAIN,
            context,
            _blinding_statement(header, index, ciphertext, target, unproven),
        )
        made.append(BlindedTest(blinded_a, blinded_b, proof))
    return made


def make_blinding(
    search: int,
    card: str,
    positions: Sequence[int],
    items: Sequence[tuple[Ciphertext, Point]],
    context: Context,
) -> SearchBlinding:
    """``context.seat``'s blinding step of search ``search`` for ``card`` at ``positions`` (of
    round ``context.round``): ``items`` are the tests, ``(ciphertext, M)`` each, position by
    position (every copy of ``card`` at each)."""
    header = search_header(search, card, positions)
    indexed = [(index, c, m) for index, (c, m) in enumerate(items)]
    tests = _in_parallel(partial(_blind, header, context), indexed)
    return SearchBlinding(search, context.round, card, tuple(positions), tuple(tests))


def _verify_test(
    header: bytes,
    index: int,
    ciphertext: Ciphertext,
    target: Point,
    test: BlindedTest,
    context: Context,
) -> None:
    subject = f"blinding of search test {index}"
    if not (is_point(test.blinded_a) and is_point(test.blinded_b)):
        raise VerificationError(context.seat, f"{subject}: the identity, or not a group element")
    try:
        shifted = sub(ciphertext[1], target)
    except GroupError:
        raise VerificationError(context.seat, f"{subject}: not a group element") from None
    linear.verify(
        test.proof,
        [(test.blinded_a, (ciphertext[0],)), (test.blinded_b, (shifted,))],
        _BLINDING_DOMAIN,
        context,
        _blinding_statement(header, index, ciphertext, target, test),
        subject,
    )


def verify_blinding(
    blinding: SearchBlinding, items: Sequence[tuple[Ciphertext, Point]], context: Context
) -> None:
    """Check ``context.seat``'s blinding against the tests ``items`` (as for
    :func:`make_blinding`); :class:`VerificationError` naming that seat otherwise (the first
    failing test in order; on threads when there are enough)."""
    seat = context.seat
    if blinding.round != context.round:
        raise VerificationError(seat, f"blinding for round {blinding.round}, not this one")
    if len(blinding.tests) != len(items):
        raise VerificationError(
            seat, f"a blinding of {len(blinding.tests)} tests, where the search has {len(items)}"
        )
    header = search_header(blinding.search, blinding.card, blinding.positions)
    dleq.verify_all(
        [
            partial(_verify_test, header, index, ciphertext, target, test, context)
            for index, ((ciphertext, target), test) in enumerate(
                zip(items, blinding.tests, strict=True)
            )
        ]
    )


def combine(blindings: Sequence[SearchBlinding]) -> tuple[Ciphertext, ...]:
    """``(A*, B*)`` for each test: the sums of every member's verified blinded pairs.

    A sum that is the identity needs the members' exponents to cancel, which no member can
    bring about without discrete logarithms nobody has (see the module's notes): it raises
    :class:`ValueError`, as a state no verified blindings lead to.
    """
    if not blindings:
        raise ValueError("no blindings to combine")
    tests = len(blindings[0].tests)
    if any(len(b.tests) != tests for b in blindings):
        raise ValueError("blindings of different searches")
    combined = tuple(
        (
            sum_points(b.tests[i].blinded_a for b in blindings),
            sum_points(b.tests[i].blinded_b for b in blindings),
        )
        for i in range(tests)
    )
    if any(IDENTITY in pair for pair in combined):
        raise ValueError("the blinding exponents cancel: no verified blindings lead here")
    return combined


def _opening_statement(
    header: bytes, index: int, key: Point, pair: Ciphertext, share: Point
) -> tuple[bytes, ...]:
    return (header, encode_u32(index), key, encode_ciphertext(pair), share)


def make_opening(
    secret: int,
    search: int,
    header: bytes,
    combined: Sequence[Ciphertext],
    context: Context,
) -> SearchOpening:
    """``context.seat``'s shares ``x·A*`` of every combined pair of search ``search`` (whose
    :func:`search_header` is ``header``), with their proofs."""
    key = mul_base(secret)

    def make(items: Sequence[tuple[int, Ciphertext]]) -> list[DecryptionShare]:
        made = []
        for index, pair in items:
            share = mul(secret, pair[0])
            statement = _opening_statement(header, index, key, pair, share)
            proof = dleq.prove(secret, pair[0], _OPENING_DOMAIN, context, statement)
            made.append(DecryptionShare(share, *proof))
        return made

    shares = _in_parallel(make, list(enumerate(combined)))
    return SearchOpening(search, context.round, tuple(shares))


def _verify_share(
    header: bytes,
    index: int,
    key: Point,
    pair: Ciphertext,
    share: DecryptionShare,
    context: Context,
) -> None:
    dleq.verify(
        key,
        pair[0],
        share.share,
        share.challenge,
        share.response,
        _OPENING_DOMAIN,
        context,
        _opening_statement(header, index, key, pair, share.share),
        f"opening share of search test {index}",
    )


def verify_opening(
    opening: SearchOpening,
    key: Point,
    header: bytes,
    combined: Sequence[Ciphertext],
    context: Context,
) -> None:
    """Check ``context.seat``'s opening (deck key ``key``) of the combined pairs of the search
    whose :func:`search_header` is ``header``; :class:`VerificationError` naming that seat
    otherwise."""
    seat = context.seat
    if opening.round != context.round:
        raise VerificationError(seat, f"search opening for round {opening.round}, not this one")
    if len(opening.shares) != len(combined):
        raise VerificationError(
            seat,
            f"an opening of {len(opening.shares)} shares, where the search has"
            f" {len(combined)} tests",
        )
    dleq.verify_all(
        [
            partial(_verify_share, header, index, key, pair, share, context)
            for index, (pair, share) in enumerate(zip(combined, opening.shares, strict=True))
        ]
    )


def matches(combined: Sequence[Ciphertext], shares: Sequence[Sequence[Point]]) -> list[bool]:
    """For each test, whether it found the card: ``B* = Σ_k x_k·A*``, given every seat's
    share of every test (``shares``: one sequence per seat, stood-in ones included)."""
    return [
        sum_points(points[index] for points in shares) == pair[1]
        for index, pair in enumerate(combined)
    ]
