"""The verifiable shuffle: re-randomise and permute a deck, with a proof of shuffle.

A seat shuffles the deck ``e = (e_1..e_N)`` (ElGamal ciphertexts under the joint
key ``Y``) into ``e'_i = e_ψ(i) + (r'_i·G, r'_i·Y)`` for a secret permutation ``ψ``
and secret randomness ``r'``, and proves non-interactively that it did so,
without revealing ``ψ`` or ``r'``. The proof is the Terelius-Wikström proof of
shuffle as written out by Haenni, Locher, Koenig and Dubuis ("Pseudo-Code
Algorithms for Verifiable Re-encryption Mix-Nets", FC 2017 workshops:
GenShuffle, GenPermutationCommitment, GenCommitmentChain, GenShuffleProof,
CheckShuffleProof), written additively over the group of :mod:`condottiere.crypto.group`:

- independent generators ``h, h_1..h_N`` from :func:`group.hash_to_point`
  (nobody knows their logarithms);
- a commitment to the permutation, ``c_ψ(i) = r_ψ(i)·G + h_i``;
- challenges ``u_j`` hashed from the context, both decks, the key and ``c``;
  ``u'_i = u_ψ(i)``;
- a commitment chain ``ĉ_0 = h``, ``ĉ_i = r̂_i·G + u'_i·ĉ_{i-1}``, computed in the
  closed form ``ĉ_i = R_i·G + U_i·h`` with ``U_i = u'_1···u'_i`` and
  ``R_i = r̂_i + u'_i·R_{i-1}`` (so every element is independent of the others);
- the Σ-protocol of the paper, with responses ``s = ω - c·witness``. The
  verifier recomputes

  ====================  ===================================================
  ``t_1``               ``s_1·G + c·(Σc_j - Σh_i)``
  ``t_2``               ``s_2·G + c·(ĉ_N - U_N·h)``
  ``t_3``               ``s_3·G + Σ s'_i·h_i + c·Σ u_j·c_j``
  ``t_4`` (both parts)  ``Σ s'_i·e'_i + c·Σ u_j·e_j - s_4·(G, Y)``
  ``t̂_i``               ``ŝ_i·G + s'_i·ĉ_{i-1} + c·ĉ_i``
  ====================  ===================================================

One adaptation: the proof carries the challenge ``c`` instead of the
commitments ``t`` (the equivalent "challenge form" of a Fiat-Shamir proof), and
the verifier checks that hashing the recomputed ``t`` gives ``c`` back. That
saves sending and validating ``N + 5`` points. The challenge hashes the context
(table, round, seat), both decks, the key and every commitment.

The work is linear combinations of points; :func:`_evaluate` splits them
between the calling thread and one worker thread (libsodium releases the GIL).
Every point a verifier receives is multiplied by a scalar at least once, and
libsodium's scalar multiplication refuses anything outside the prime-order
group, so a malformed point in the output deck or the proof fails verification
even if it did not come through :meth:`ShuffleProof.decode` or
:func:`codec.decode_ciphertexts`.

>>> from condottiere.crypto.elgamal import decrypt, trivial
>>> from condottiere.crypto.group import hash_to_point, mul_base
>>> secret = 1234567; key = mul_base(secret)
>>> messages = [hash_to_point(b"doc", bytes([i])) for i in range(3)]
>>> deck = [trivial(m, key) for m in messages]
>>> ctx = Context(table=b"doc", round=0, seat=1)
>>> shuffled, proof = shuffle(deck, key, ctx)
>>> verify_shuffle(deck, shuffled, key, ShuffleProof.decode(proof.encode(), 3), ctx)
>>> sorted(decrypt(c, secret) for c in shuffled) == sorted(messages)
True
>>> verify_shuffle(deck, shuffled, key, proof, ctx.for_seat(2))
Traceback (most recent call last):
...
condottiere.crypto.errors.VerificationError: seat 2: shuffle proof does not verify
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from concurrent.futures import wait
from dataclasses import dataclass
from functools import cache, lru_cache

from condottiere.crypto.codec import Reader, encode_ciphertexts, encode_scalar
from condottiere.crypto.context import Context, challenge
from condottiere.crypto.elgamal import Ciphertext
from condottiere.crypto.errors import DecodeError, VerificationError
from condottiere.crypto.group import (
    BASE,
    POINT_BYTES,
    SCALAR_BYTES,
    GroupError,
    L,
    Point,
    add,
    hash_to_point,
    is_point,
    mul,
    mul_base,
    random_scalar,
    sum_points,
)
from condottiere.crypto.workers import pool

__all__ = [
    "ShuffleProof",
    "prove_shuffle",
    "random_permutation",
    "shuffle",
    "shuffle_with",
    "verify_shuffle",
]

_GENERATOR_DOMAIN = b"shuffle/generator"
_WEIGHTS_DOMAIN = b"shuffle/weights"
_PROOF_DOMAIN = b"shuffle/proof"
_WEIGHT_INDEX_PREFIX = b"condottiere/v1/shuffle/weight"

_MUL_COST, _BASE_COST, _ADD_COST, _VALIDATE_COST = 92, 18, 15, 43
"""Rough costs (µs) of a scalar multiplication, a base multiplication, an addition and a
point validation."""

_PARALLEL_THRESHOLD = 3_000
"""Below this estimated cost (µs), handing half the work to the worker thread does not pay."""


@dataclass(frozen=True, slots=True)
class ShuffleProof:
    """A proof that an output deck is a re-randomised permutation of an input deck.

    ``commitments`` is the permutation commitment ``c``, ``chain`` the commitment
    chain ``ĉ_1..ĉ_N``, ``challenge`` the Fiat-Shamir challenge ``c`` and
    ``s1..s4``, ``s_hat``, ``s_prime`` the responses, named as in Haenni et al.
    The encoding is ``c ‖ ĉ ‖ challenge ‖ s1 ‖ s2 ‖ s3 ‖ s4 ‖ ŝ ‖ s'``: ``32·(4N + 5)``
    bytes for a deck of ``N`` cards.
    """

    commitments: tuple[Point, ...]
    chain: tuple[Point, ...]
    challenge: int
    s1: int
    s2: int
    s3: int
    s4: int
    s_hat: tuple[int, ...]
    s_prime: tuple[int, ...]

    @staticmethod
    def encoded_size(n: int) -> int:
        """The length in bytes of the proof for a deck of ``n`` cards.

        >>> ShuffleProof.encoded_size(110)
        14240
        """
        return 2 * n * POINT_BYTES + (5 + 2 * n) * SCALAR_BYTES

    def encode(self) -> bytes:
        """The canonical encoding."""
        scalars = (self.challenge, self.s1, self.s2, self.s3, self.s4, *self.s_hat, *self.s_prime)
        return (
            b"".join(self.commitments)
            + b"".join(self.chain)
            + b"".join(encode_scalar(k) for k in scalars)
        )

    @classmethod
    def decode(cls, data: bytes, n: int, *, check_points: bool = True) -> ShuffleProof:
        """The proof for a deck of ``n`` cards that ``data`` encodes.

        :class:`DecodeError` for a wrong length, a point that is not a canonical
        encoding of a non-identity element of the group or a scalar ``>= L``. With
        ``check_points=False`` the points are not checked here (a sixth of a verification's
        cost): for a proof that goes straight to :func:`verify_shuffle`, which multiplies
        every point and so refuses, naming the seat, any that is not in the group.
        """
        if n < 1:
            raise DecodeError(f"a shuffle proof is for at least one card, not {n}")
        if not isinstance(data, bytes | bytearray | memoryview):
            raise DecodeError(f"expected bytes, got {type(data).__name__}")
        expected = cls.encoded_size(n)
        if len(data) != expected:
            raise DecodeError(f"a shuffle proof for {n} cards is {expected} bytes, got {len(data)}")
        data = bytes(data)
        points = [data[i : i + POINT_BYTES] for i in range(0, 2 * n * POINT_BYTES, POINT_BYTES)]
        bad = _first_invalid(points) if check_points else None
        if bad is not None:
            raise DecodeError(
                f"proof point {bad} is not a canonical encoding of a non-identity group element"
            )
        reader = Reader(data[2 * n * POINT_BYTES :])
        c, s1, s2, s3, s4 = (reader.scalar() for _ in range(5))
        s_hat = tuple(reader.scalar() for _ in range(n))
        s_prime = tuple(reader.scalar() for _ in range(n))
        commitments, chain = tuple(points[:n]), tuple(points[n:])
        return cls(commitments, chain, c, s1, s2, s3, s4, s_hat, s_prime)


def random_permutation(n: int) -> list[int]:
    """A uniformly random permutation of ``range(n)`` (Fisher-Yates over ``secrets``).

    >>> sorted(random_permutation(5))
    [0, 1, 2, 3, 4]
    """
    permutation = list(range(n))
    for i in range(n - 1, 0, -1):
        j = secrets.randbelow(i + 1)
        permutation[i], permutation[j] = permutation[j], permutation[i]
    return permutation


def shuffle(
    deck: Sequence[Ciphertext], key: Point, context: Context
) -> tuple[list[Ciphertext], ShuffleProof]:
    """Shuffle ``deck`` under ``key`` with a fresh random permutation and randomness.

    ``context.seat`` is the shuffling seat. Returns the new deck and its proof.
    """
    n = len(deck)
    randomness = [random_scalar() for _ in range(n)]
    return shuffle_with(deck, key, context, random_permutation(n), randomness)


def shuffle_with(
    deck: Sequence[Ciphertext],
    key: Point,
    context: Context,
    permutation: Sequence[int],
    randomness: Sequence[int],
) -> tuple[list[Ciphertext], ShuffleProof]:
    """Shuffle with a given permutation and randomness: ``out[i] = deck[π[i]] + Enc(0; r'_i)``.

    The output deck is a function of the arguments; the proof's own nonces are
    always fresh. :class:`ValueError` unless ``permutation`` is a permutation of
    ``range(len(deck))`` and ``randomness`` holds as many scalars in ``[1, L)``.

    >>> from condottiere.crypto.elgamal import trivial
    >>> from condottiere.crypto.group import hash_to_point, mul_base
    >>> key = mul_base(99); deck = [trivial(hash_to_point(b"doc", b"m"), key)]
    >>> ctx = Context(b"doc", 0, 0)
    >>> shuffle_with(deck, key, ctx, [0], [5])[0] == shuffle_with(deck, key, ctx, [0], [5])[0]
    True
    >>> shuffle_with(deck, key, ctx, [1], [5])
    Traceback (most recent call last):
    ...
    ValueError: not a permutation of range(1)
    """
    n = len(deck)
    _check_witness(n, permutation, randomness)
    combinations: list[list[tuple[int, Point]]] = []
    offsets: list[Point] = []
    for i, j in enumerate(permutation):
        a, b = deck[j]
        combinations += ([(randomness[i], BASE)], [(randomness[i], key)])
        offsets += (a, b)
    points = _evaluate(combinations, offsets)
    deck_out = list(zip(points[0::2], points[1::2], strict=True))
    proof = prove_shuffle(deck, deck_out, key, context, permutation, randomness)
    return deck_out, proof


def prove_shuffle(
    deck_in: Sequence[Ciphertext],
    deck_out: Sequence[Ciphertext],
    key: Point,
    context: Context,
    permutation: Sequence[int],
    randomness: Sequence[int],
) -> ShuffleProof:
    """The proof that ``deck_out[i] = deck_in[permutation[i]] + Enc(0; randomness[i])``.

    It verifies only when that is true; a cheater who calls it with any other
    ``deck_out`` gets a proof that fails.
    """
    n = len(deck_in)
    _check_witness(n, permutation, randomness)
    h, generators, _ = _generators(n)
    position_of = [0] * n
    for i, j in enumerate(permutation):
        position_of[j] = i

    # GenPermutationCommitment: c_j = r_j·G + h_{ψ⁻¹(j)}.
    r = [random_scalar() for _ in range(n)]
    commitments = _evaluate(
        [[(r_j, BASE)] for r_j in r], [generators[position_of[j]] for j in range(n)]
    )
    statement = _Statement(context, deck_in, deck_out, key, commitments)
    u = statement.weights()
    u_out = [u[j] for j in permutation]

    # GenCommitmentChain in closed form: ĉ_i = R_i·G + U_i·h, R_i uniformly random.
    chain_r = [random_scalar() for _ in range(n)]
    chain_u: list[int] = []
    running = 1
    for weight in u_out:
        running = running * weight % L
        chain_u.append(running)
    previous_r = [0, *chain_r[:-1]]
    previous_u = [1, *chain_u[:-1]]

    omega_hat = [random_scalar() for _ in range(n)]
    omega_prime = [random_scalar() for _ in range(n)]
    w1, w2, w3, w4 = (random_scalar() for _ in range(4))
    # t_4 = Σω'_i·e'_i - ω_4·(G, Y), expanded over the input deck: the same value, and a
    # single base multiplication when every card still has a = G (the first shuffle).
    reencryption_offset = (
        sum(w * rho for w, rho in zip(omega_prime, randomness, strict=True)) - w4
    ) % L
    a_terms = [(w, deck_in[j][0]) for w, j in zip(omega_prime, permutation, strict=True)]
    b_terms = [(w, deck_in[j][1]) for w, j in zip(omega_prime, permutation, strict=True)]
    combinations: list[list[tuple[int, Point]]] = [
        *([(R_i, BASE), (U_i, h)] for R_i, U_i in zip(chain_r, chain_u, strict=True)),
        *(
            [((w_hat + w * R_prev) % L, BASE), (w * U_prev % L, h)]
            for w_hat, w, R_prev, U_prev in zip(
                omega_hat, omega_prime, previous_r, previous_u, strict=True
            )
        ),
        [(w1, BASE)],
        [(w2, BASE)],
        [(w3, BASE), *zip(omega_prime, generators, strict=True)],
        [*a_terms, (reencryption_offset, BASE)],
        [*b_terms, (reencryption_offset, key)],
    ]
    points = _evaluate(combinations)
    chain = points[:n]
    c = statement.challenge(chain, points[n : 2 * n], points[2 * n :])

    return ShuffleProof(
        commitments=tuple(commitments),
        chain=tuple(chain),
        challenge=c,
        s1=(w1 - c * sum(r)) % L,
        s2=(w2 - c * chain_r[-1]) % L,
        s3=(w3 - c * sum(u_j * r_j for u_j, r_j in zip(u, r, strict=True))) % L,
        s4=(w4 - c * sum(w * rho for w, rho in zip(u_out, randomness, strict=True))) % L,
        s_hat=tuple(
            (w_hat - c * (R_i - w * R_prev)) % L
            for w_hat, R_i, w, R_prev in zip(omega_hat, chain_r, u_out, previous_r, strict=True)
        ),
        s_prime=tuple((w - c * u_i) % L for w, u_i in zip(omega_prime, u_out, strict=True)),
    )


def verify_shuffle(
    deck_in: Sequence[Ciphertext],
    deck_out: Sequence[Ciphertext],
    key: Point,
    proof: ShuffleProof,
    context: Context,
) -> None:
    """Check that ``deck_out`` is a shuffle of ``deck_in`` under ``key`` by ``context.seat``.

    ``deck_in`` is trusted: the starting deck or the output of a verified step.
    Raises :class:`VerificationError` naming ``context.seat`` unless the proof holds.
    """
    seat = context.seat
    n = len(deck_in)
    if n == 0:
        raise VerificationError(seat, "a shuffle of an empty deck")
    problem = _deck_shape_problem(deck_out, n) or _proof_shape_problem(proof, n)
    if problem:
        raise VerificationError(seat, problem)
    h, generators, generator_sum = _generators(n)
    statement = _Statement(context, deck_in, deck_out, key, proof.commitments)
    u = statement.weights()
    c = proof.challenge
    cu = [c * u_j % L for u_j in u]
    u_product = 1
    for u_j in u:
        u_product = u_product * u_j % L
    chain, s_prime = proof.chain, proof.s_prime
    previous_chain = (h, *chain[:-1])
    minus_s4 = -proof.s4 % L
    combinations: list[list[tuple[int, Point]]] = [
        *(
            [(s, BASE), (s_p, previous), (c, current)]
            for s, s_p, previous, current in zip(
                proof.s_hat, s_prime, previous_chain, chain, strict=True
            )
        ),
        [
            (proof.s3, BASE),
            *zip(s_prime, generators, strict=True),
            *zip(cu, proof.commitments, strict=True),
        ],
        [
            *zip(s_prime, (a for a, _ in deck_out), strict=True),
            *zip(cu, (a for a, _ in deck_in), strict=True),
            (minus_s4, BASE),
        ],
        [
            *zip(s_prime, (b for _, b in deck_out), strict=True),
            *zip(cu, (b for _, b in deck_in), strict=True),
            (minus_s4, key),
        ],
        [(proof.s2, BASE), (c, chain[-1]), (-c * u_product % L, h)],
    ]
    try:
        points = _evaluate(combinations)
        # Every commitment has been through a scalar multiplication above, so it is valid.
        commitment_sum = sum_points(proof.commitments)
        (t1,) = _evaluate([[(proof.s1, BASE), (c, commitment_sum), (-c % L, generator_sum)]])
    except GroupError:
        raise VerificationError(seat, _point_problem(deck_in, deck_out, proof)) from None
    t_hat, (t3, t4a, t4b, t2) = points[:n], points[n:]
    if statement.challenge(chain, t_hat, [t1, t2, t3, t4a, t4b]) != c:
        raise VerificationError(seat, "shuffle proof does not verify")


class _Statement:
    """What the Fiat-Shamir challenges of one shuffle hash: context, decks, key, commitments."""

    __slots__ = ("_commitments", "_context", "_deck_in", "_deck_out", "_key")

    def __init__(
        self,
        context: Context,
        deck_in: Sequence[Ciphertext],
        deck_out: Sequence[Ciphertext],
        key: Point,
        commitments: Sequence[Point],
    ) -> None:
        self._context = context
        self._deck_in = encode_ciphertexts(deck_in)
        self._deck_out = encode_ciphertexts(deck_out)
        self._key = key
        self._commitments = b"".join(commitments)

    def _hash(self, domain: bytes, *parts: bytes) -> int:
        return challenge(
            domain, self._context, self._deck_in, self._deck_out, self._key, self._commitments,
            *parts,
        )

    def weights(self) -> list[int]:
        """The challenge vector ``u``: one hash of the statement, then ``u_j = H(seed ‖ j)``."""
        seed = self._hash(_WEIGHTS_DOMAIN).to_bytes(SCALAR_BYTES, "little")
        prefix = hashlib.sha512(_WEIGHT_INDEX_PREFIX + seed)
        weights = []
        for j in range(len(self._commitments) // POINT_BYTES):
            digest = prefix.copy()
            digest.update(j.to_bytes(4, "little"))
            weights.append(int.from_bytes(digest.digest(), "little") % L)
        return weights

    def challenge(self, chain: Sequence[Point], t_hat: Sequence[Point], t: Sequence[Point]) -> int:
        """The final challenge over the statement, the chain and every ``t``."""
        return self._hash(_PROOF_DOMAIN, b"".join(chain), b"".join(t_hat), b"".join(t))


@cache
def _generator(index: int) -> Point:
    return hash_to_point(_GENERATOR_DOMAIN, index.to_bytes(4, "little"))


@lru_cache(maxsize=16)
def _generators(n: int) -> tuple[Point, tuple[Point, ...], Point]:
    """``h`` (the chain's base), ``h_1..h_n`` and their sum."""
    generators = tuple(_generator(i) for i in range(1, n + 1))
    return _generator(0), generators, sum_points(generators)


def _check_witness(n: int, permutation: Sequence[int], randomness: Sequence[int]) -> None:
    if n == 0:
        raise ValueError("cannot shuffle an empty deck")
    if sorted(permutation) != list(range(n)):
        raise ValueError(f"not a permutation of range({n})")
    if len(randomness) != n or not all(0 < rho < L for rho in randomness):
        raise ValueError(f"need {n} scalars in [1, L) of randomness")


def _deck_shape_problem(deck: Sequence[Ciphertext], n: int) -> str | None:
    if len(deck) != n:
        return f"output deck has {len(deck)} cards, the input deck {n}"
    for index, card in enumerate(deck):
        if not (
            isinstance(card, tuple)
            and len(card) == 2
            and all(isinstance(p, bytes) and len(p) == POINT_BYTES for p in card)
        ):
            return f"output card {index} is not a pair of {POINT_BYTES}-byte points"
    return None


def _proof_shape_problem(proof: ShuffleProof, n: int) -> str | None:
    if not isinstance(proof, ShuffleProof):
        return f"expected a ShuffleProof, got {type(proof).__name__}"
    vectors = (proof.commitments, proof.chain, proof.s_hat, proof.s_prime)
    if any(len(vector) != n for vector in vectors):
        return f"proof vectors have lengths {[len(v) for v in vectors]}, not {n}"
    points = (*proof.commitments, *proof.chain)
    if not all(isinstance(p, bytes) and len(p) == POINT_BYTES for p in points):
        return f"a proof point is not {POINT_BYTES} bytes"
    scalars = (proof.challenge, proof.s1, proof.s2, proof.s3, proof.s4)
    if not all(type(k) is int and 0 <= k < L for k in (*scalars, *proof.s_hat, *proof.s_prime)):
        return "a proof scalar is not in [0, L)"
    return None


def _point_problem(
    deck_in: Sequence[Ciphertext], deck_out: Sequence[Ciphertext], proof: ShuffleProof
) -> str:
    """Why a verification left the group (only called once it has failed)."""
    named = (
        ("input card", [p for card in deck_in for p in card]),
        ("output card", [p for card in deck_out for p in card]),
        ("permutation commitment", proof.commitments),
        ("commitment chain element", proof.chain),
    )
    for name, points in named:
        for index, point in enumerate(points):
            if not is_point(point):
                where = f"{index // 2} ({'ab'[index % 2]})" if name.endswith("card") else index
                return f"{name} {where} is not an element of the group"
    return "shuffle proof does not verify (a term vanishes)"


def _first_invalid(points: Sequence[bytes]) -> int | None:
    """The index of the first of ``points`` that :func:`group.is_point` refuses, if any.

    The checks are split between the calling thread and the worker thread.
    """
    if len(points) * _VALIDATE_COST < _PARALLEL_THRESHOLD:
        return _scan_invalid(points, 0)
    half = len(points) // 2
    future = pool().submit(_scan_invalid, points[half:], half)
    first = _scan_invalid(points[:half], 0)
    second = future.result()
    return second if first is None else first


def _scan_invalid(points: Sequence[bytes], offset: int) -> int | None:
    valid = is_point
    for index, point in enumerate(points):
        if not valid(point):
            return offset + index
    return None


_Item = tuple[int, int | None, Point]
"""One term of the flattened work: (combination index, scalar or None for a plain point, point)."""


def _evaluate(
    combinations: Sequence[Sequence[tuple[int, Point]]],
    offsets: Sequence[Point] | None = None,
) -> list[Point]:
    """``Σ k·P`` over each combination's ``(k, P)`` terms, plus ``offsets[i]`` if given.

    Terms of one combination that share a point are merged into one
    multiplication; multiples of ``G`` use the fixed-base multiplication. Every
    remaining term is one libsodium multiplication, even with a scalar of 1, so
    every point is checked by libsodium; a zero scalar raises :class:`GroupError`.
    The flattened terms are cut in two halves of equal estimated cost, one for
    a worker thread and one for the calling thread.
    """
    items: list[_Item] = []
    for index, terms in enumerate(combinations):
        merged: dict[Point, int] = {}
        for k, p in terms:
            merged[p] = merged.get(p, 0) + k
        items += [(index, k % L, p) for p, k in merged.items()]
        if offsets is not None:
            items.append((index, None, offsets[index]))
    cut, total = 0, 0
    costs = [
        _ADD_COST + (0 if k is None else _BASE_COST if p == BASE else _MUL_COST)
        for _, k, p in items
    ]
    half = sum(costs) / 2
    if half * 2 >= _PARALLEL_THRESHOLD:
        while total < half:
            total += costs[cut]
            cut += 1
        future = pool().submit(_partial_sums, items[cut:])
        try:
            sums = _partial_sums(items[:cut])
        except BaseException:
            wait([future])
            raise
        for index, point in future.result().items():
            sums[index] = add(sums[index], point) if index in sums else point
    else:
        sums = _partial_sums(items)
    return [sums[index] for index in range(len(combinations))]


def _partial_sums(items: Sequence[_Item]) -> dict[int, Point]:
    sums: dict[int, Point] = {}
    get = sums.get
    base, mul_, mul_base_, add_ = BASE, mul, mul_base, add
    for index, k, p in items:
        term = p if k is None else mul_base_(k) if p == base else mul_(k, p)
        previous = get(index)
        sums[index] = term if previous is None else add_(previous, term)
    return sums
