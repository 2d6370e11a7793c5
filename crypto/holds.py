"""A hidden hand proves that it holds a card of a set, without showing which (DESIGN 6b).

Every peer knows, for each hidden card a seat ``H`` holds, a *base* and a *target* such
that ``target - M = x·base`` exactly when the card is the one encoded by the point ``M``
(``x`` being ``H``'s deck secret, with ``X = x·G`` public): for a card ``(a, b)`` dealt to
``H``, the base is ``a`` and the target ``b`` minus every other seat's public decryption
share; for a card ``H`` received sealed, the base and offset of its
:class:`~condottiere.crypto.sealed.Holding` (:meth:`HiddenCard.of`). "The hand holds a card
of the set ``{M_1 .. M_m}``" is then the disjunction, over every pair (card ``i`` of the
hand, point ``M_c`` of the set), of the Chaum-Pedersen statement

    ``X_i = x·G``  and  ``target_i - M_c = x·base_i``

(``X_i`` the holder's key in card ``i``'s deck). The proof is the Cramer-Damgard-
Schoenmakers OR-composition of those proofs: for every branch but one true branch the
prover picks the challenge ``c_j`` and response ``s_j`` and computes the commitments
backwards (``s_j·G - c_j·X``, ``s_j·base - c_j·Y``: a simulated transcript); for the true one
it commits ``k·G, k·base`` with a fresh nonce ``k``. The challenge ``c`` hashes the context,
the whole statement and every commitment (strong Fiat-Shamir); the true branch takes
``c_j = c - Σ others`` and answers ``s_j = k + c_j·x``. A verifier recomputes every
commitment from ``(c_j, s_j)`` and checks that the challenges add up to the hash.

Special soundness per branch makes it a proof of knowledge that one branch holds: a hand
with no card of the set has no true branch, and passing would mean answering a challenge
fixed before it could be chosen. It is witness-indistinguishable: every branch's
``(c_j, s_j)`` is uniform given the rest, whichever branch is true, so the proof says
nothing of which card it is, nor where it lies in the hand (:func:`prove_with` takes the
randomness explicitly, so that tests can map one true branch's randomness onto another's).
Each branch costs 4 scalar multiplications to check and to simulate (2 for the true one).

>>> from condottiere.crypto.context import Context
>>> from condottiere.crypto.group import add, hash_to_point, mul, mul_base
>>> x = 5
>>> points = [hash_to_point(b"doc", bytes([c])) for c in range(3)]
>>> a = hash_to_point(b"doc", b"a")
>>> hand = [HiddenCard(mul_base(x), a, add(points[i], mul(x, a))) for i in (0, 2)]
>>> ctx = Context(b"t", 0, 1)
>>> proof = prove(x, hand, [points[1], points[2]], held=(1, 1), context=ctx)
>>> verify(proof, hand, [points[1], points[2]], ctx)
>>> verify(proof, hand, [points[1]], ctx)
Traceback (most recent call last):
    ...
condottiere.crypto.errors.VerificationError: seat 1: a proof of another statement
>>> HoldsProof.decode(proof.encode(), proof.branches) == proof
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from condottiere.crypto.codec import Reader, encode_scalar, encode_u32
from condottiere.crypto.context import Context, challenge
from condottiere.crypto.elgamal import Ciphertext
from condottiere.crypto.errors import VerificationError
from condottiere.crypto.group import (
    SCALAR_BYTES,
    GroupError,
    L,
    Point,
    is_scalar,
    mul,
    mul_base,
    random_scalar,
    sub,
)
from condottiere.crypto.sealed import Holding
from condottiere.crypto.shares import unblind

__all__ = ["HiddenCard", "HoldsProof", "Simulated", "prove", "prove_with", "verify"]

_DOMAIN = b"hand-holds"


@dataclass(frozen=True, slots=True)
class HiddenCard:
    """One hidden card of a hand as every peer knows it: ``target - M = x·base`` for the card's
    point ``M``, ``key = x·G`` the holder's key in the card's deck."""

    key: Point
    base: Point
    target: Point

    @classmethod
    def of(
        cls, key: Point, holding: Holding, ciphertext: Ciphertext, public: Iterable[Point]
    ) -> HiddenCard:
        """The card ``ciphertext``, held as ``holding`` by the seat of ``key``, whose other
        decryption shares are ``public``: ``b - Σ public - offset - M = x·base``."""
        target = unblind(ciphertext, public)
        if holding.offset is not None:
            target = sub(target, holding.offset)
        return cls(key, holding.base, target)


@dataclass(frozen=True, slots=True)
class HoldsProof:
    """One challenge and one response per branch, branch ``i·m + c`` for card ``i`` of the
    hand and point ``c`` of the set (``m`` points)."""

    challenges: tuple[int, ...]
    responses: tuple[int, ...]

    @property
    def branches(self) -> int:
        return len(self.challenges)

    def encode(self) -> bytes:
        """Every challenge, then every response, 32 bytes each (the count travels elsewhere:
        the hand and the set fix it)."""
        return b"".join(encode_scalar(k) for k in (*self.challenges, *self.responses))

    @classmethod
    def decode(cls, data: bytes, branches: int) -> HoldsProof:
        """The proof of ``branches`` branches ``data`` holds; :class:`DecodeError` if
        malformed (a wrong length, a scalar not canonical)."""
        reader = Reader(data)
        challenges = tuple(reader.scalar() for _ in range(branches))
        responses = tuple(reader.scalar() for _ in range(branches))
        reader.finish()
        return cls(challenges, responses)

    @staticmethod
    def encoded_bytes(branches: int) -> int:
        return 2 * branches * SCALAR_BYTES


@dataclass(frozen=True, slots=True)
class Simulated:
    """The randomness of one branch the prover does not know: its challenge and response."""

    challenge: int
    response: int


def _statement(hand: Sequence[HiddenCard], points: Sequence[Point]) -> list[bytes]:
    parts = [encode_u32(len(hand)), encode_u32(len(points))]
    for card in hand:
        parts += [card.key, card.base, card.target]
    parts += points
    return parts


def _branch_results(
    hand: Sequence[HiddenCard], points: Sequence[Point]
) -> list[tuple[HiddenCard, Point]]:
    """Each branch's card and its ``Y = target - M_c``, in branch order."""
    return [(card, sub(card.target, point)) for card in hand for point in points]


def _commitments(card: HiddenCard, result: Point, c: int, s: int) -> tuple[Point, Point]:
    """``(s·G - c·X, s·base - c·Y)``: a branch's commitments from its challenge and response."""
    return sub(mul_base(s), mul(c, card.key)), sub(mul(s, card.base), mul(c, result))


def prove(
    secret: int,
    hand: Sequence[HiddenCard],
    points: Sequence[Point],
    held: tuple[int, int],
    context: Context,
) -> HoldsProof:
    """The proof that one card of ``hand`` is encoded by one of ``points``, bound to
    ``context`` and the whole statement; ``held = (i, c)``: card ``i`` of the hand is the
    card of ``points[c]``, and ``secret`` is the holder's secret in that card's deck.
    ValueError when it is not (nothing true to prove)."""
    simulated = [
        Simulated(random_scalar(), random_scalar()) for _ in range(len(hand) * len(points) - 1)
    ]
    return prove_with(secret, hand, points, held, context, random_scalar(), simulated)


def prove_with(
    secret: int,
    hand: Sequence[HiddenCard],
    points: Sequence[Point],
    held: tuple[int, int],
    context: Context,
    nonce: int,
    simulated: Sequence[Simulated],
) -> HoldsProof:
    """:func:`prove` with its randomness given: the true branch's ``nonce`` and the challenge
    and response of every other branch, in branch order (a proof of the same statement made
    with another true branch, and the randomness that maps onto it, is the same proof)."""
    card_index, point_index = held
    if not (0 <= card_index < len(hand) and 0 <= point_index < len(points)):
        raise ValueError(f"no branch {held} in a hand of {len(hand)} and a set of {len(points)}")
    results = _branch_results(hand, points)
    real = card_index * len(points) + point_index
    card, result = results[real]
    if mul_base(secret) != card.key or mul(secret, card.base) != result:
        raise ValueError(f"card {card_index} of the hand is not card {point_index} of the set")
    if len(simulated) != len(results) - 1:
        raise ValueError(f"{len(results) - 1} simulated branches expected")
    others = iter(simulated)
    commitments: list[Point] = []
    chosen: list[Simulated | None] = []
    for branch, (branch_card, branch_result) in enumerate(results):
        if branch == real:
            commitments += [mul_base(nonce), mul(nonce, branch_card.base)]
            chosen.append(None)
        else:
            fake = next(others)
            commitments += _commitments(branch_card, branch_result, fake.challenge, fake.response)
            chosen.append(fake)
    c = challenge(_DOMAIN, context, *_statement(hand, points), *commitments)
    real_challenge = (c - sum(f.challenge for f in chosen if f is not None)) % L
    return HoldsProof(
        tuple(real_challenge if f is None else f.challenge for f in chosen),
        tuple((nonce + real_challenge * secret) % L if f is None else f.response for f in chosen),
    )


def verify(
    proof: HoldsProof,
    hand: Sequence[HiddenCard],
    points: Sequence[Point],
    context: Context,
    subject: str = "the proof that the hand holds a card of the set",
) -> None:
    """Check ``proof`` that a card of ``hand`` is encoded by one of ``points``, for
    ``context``; otherwise :class:`VerificationError` naming ``context.seat``, its reason
    starting with ``subject`` (also for a proof of another number of branches, a scalar that
    is not canonical, or a degenerate branch)."""
    seat = context.seat
    results = _branch_results(hand, points)
    if not results or proof.branches != len(results) or len(proof.responses) != len(results):
        raise VerificationError(seat, "a proof of another statement")
    if not all(is_scalar(k) for k in (*proof.challenges, *proof.responses)):
        raise VerificationError(seat, f"{subject}: not a canonical scalar")
    commitments: list[Point] = []
    try:
        for (card, result), c, s in zip(results, proof.challenges, proof.responses, strict=True):
            commitments += _commitments(card, result, c, s)
    except GroupError:  # a zero challenge or response, or a commitment at the identity
        raise VerificationError(seat, f"{subject}: proof is degenerate") from None
    expected = challenge(_DOMAIN, context, *_statement(hand, points), *commitments)
    if sum(proof.challenges) % L != expected:
        raise VerificationError(seat, f"{subject} does not verify")
