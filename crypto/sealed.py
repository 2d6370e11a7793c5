"""A card's hidden decryption part sealed to one seat, with a proof every seat checks.

A card ``(a, b)`` dealt to seat ``O`` opens with every seat's decryption share;
the others published theirs at the deal, so the one part that is not public is
``T = x_O·a``, which ``O`` alone knows. To show the card to a *viewer* ``V``
(alone), the seat that holds it seals ``T`` to ``V``'s deck key ``X_V = x_V·G``
(no new keys) as an ElGamal pair::

    (R, C) = (r·G, T + r·X_V)

with a proof of knowledge of ``(x_H, r)`` such that ``X_H = x_H·G``, ``R = r·G`` and
``C - offset = x_H·base + r·X_V`` (:mod:`~condottiere.crypto.linear`), where
``(base, offset)`` says how the holder ``H`` knows ``T`` (a :class:`Holding`):

- the seat it was dealt to: ``T = x_H·a``, so ``(base, offset) = (a, 0)``;
- a seat that received it sealed as ``(R', C')``: ``T = C' - x_H·R'``, so
  ``(base, offset) = (-R', C')``.

One proof covers both, and so chains of transfers (a hand conquered, then conquered
again): each holder proves that what it seals is what it holds, and what the dealt
owner held is ``x_O·a`` by the proof of the first link. The viewer takes ``T`` out,
``T = C - x_V·R``, and so learns the card, ``M = b - Σ public shares - T``; every other
seat checks the proof and learns nothing of ``T`` (``R`` and ``C`` are an ElGamal
encryption under ``X_V``: without ``x_V``, ``C`` is uniformly masked, under DDH).

A seat that received a card and plays it face up publishes ``D = x_H·R`` of the pair it
received, with a Chaum-Pedersen proof (:mod:`~condottiere.crypto.dleq`) that
``log_G X_H = log_R D``: then ``T = C - D`` for everyone (:func:`make_opening`). That is
``log_G X_H = log_base (T - offset)`` for ``(base, offset) = (-R, C)``, published in the
shape of a decryption share.

**What it does not do.** A viewer can always show others what it was shown (it can publish
``x_V·R`` with the same kind of proof): a look keeps the card from the table, not from a
viewer that wants to tell. A card held by a seat that left can no longer be opened by
anyone (its hidden part went with the seat's key); the game puts such a hand out unseen.

The proofs are bound by strong Fiat-Shamir, each under its own domain tag, to the table,
the round of the card and the seat that makes them (the context), the card's position and
whole ciphertext, the viewer and its key, the holder's key and holding, and every point
of the pair: a sealed share replayed for another card, viewer, holder, holding or round
does not verify, nor does one made before the card changed hands again.

>>> from condottiere.crypto.context import Context
>>> from condottiere.crypto.elgamal import encrypt
>>> from condottiere.crypto.group import add, hash_to_point, mul, mul_base, sub
>>> from condottiere.crypto.slot import Slot
>>> x = [5, 9, 13]                      # seat 0 holds the card; seat 2 will see it
>>> M = hash_to_point(b"doc", b"card")
>>> card = encrypt(M, mul_base(sum(x)), 77)
>>> public = [mul(x[1], card[0]), mul(x[2], card[0])]
>>> holding = Holding.dealt(card)
>>> share = seal_share(x[0], holding, card, Slot(0, 4), 2, mul_base(x[2]), Context(b"t", 0, 0))
>>> verify_sealed(share, mul_base(x[0]), holding, card, mul_base(x[2]), Context(b"t", 0, 0))
>>> sub(sub(card[1], mul(x[1], card[0])), mul(x[2], card[0])) == add(M, unseal(share, x[2]))
True
"""

from __future__ import annotations

from dataclasses import dataclass

from condottiere.crypto import dleq, linear
from condottiere.crypto.codec import Reader, encode_ciphertext, encode_u32
from condottiere.crypto.context import Context
from condottiere.crypto.elgamal import Ciphertext
from condottiere.crypto.errors import DecodeError, VerificationError
from condottiere.crypto.group import (
    BASE,
    POINT_BYTES,
    GroupError,
    Point,
    add,
    mul,
    mul_base,
    neg,
    random_scalar,
    sub,
)
from condottiere.crypto.linear import LinearProof
from condottiere.crypto.shares import DecryptionShare
from condottiere.crypto.slot import Slot

__all__ = [
    "Holding",
    "SealedShare",
    "make_opening",
    "seal_share",
    "unseal",
    "verify_opening",
    "verify_sealed",
]

_SEAL_DOMAIN = b"sealed-share"
_OPENING_DOMAIN = b"sealed-opening"


@dataclass(frozen=True, slots=True)
class Holding:
    """How the seat that holds a card knows the card's hidden part ``T``:
    ``T - offset = x·base``, ``x`` being that seat's deck secret."""

    base: Point
    offset: Point | None
    """None for no offset (the seat the card was dealt to)."""

    @classmethod
    def dealt(cls, ciphertext: Ciphertext) -> Holding:
        """The card ``ciphertext`` was dealt to the seat: ``T = x·a``."""
        return cls(ciphertext[0], None)

    @classmethod
    def received(cls, share: SealedShare) -> Holding:
        """The seat received the card sealed as ``share``: ``T = C - x·R``."""
        return cls(neg(share.ephemeral), share.sealed)

    def part(self, secret: int) -> Point:
        """``T``, for the holder whose secret is ``secret``."""
        own = mul(secret, self.base)
        return own if self.offset is None else add(own, self.offset)

    def encode(self) -> bytes:
        """``base ‖ offset``, or ``base`` alone when there is no offset (for transcripts)."""
        return self.base + (self.offset or b"")


@dataclass(frozen=True, slots=True)
class SealedShare:
    """The hidden part of the card at ``slot`` sealed to ``viewer``: ``(R, C)`` and its proof."""

    slot: Slot
    viewer: int
    ephemeral: Point
    """``R = r·G``."""
    sealed: Point
    """``C = T + r·X_viewer``."""
    proof: LinearProof

    ENCODED_BYTES = 3 * 4 + 2 * POINT_BYTES + LinearProof.encoded_bytes(2)

    def encode(self) -> bytes:
        """Round, position, viewer (``u32`` each), ``R``, ``C``, then the proof
        ``c ‖ s_x ‖ s_r``: 172 bytes."""
        return (
            encode_u32(self.slot.round)
            + encode_u32(self.slot.position)
            + encode_u32(self.viewer)
            + self.ephemeral
            + self.sealed
            + self.proof.encode()
        )

    @classmethod
    def decode(cls, data: bytes) -> SealedShare:
        """The sealed share ``data`` encodes; :class:`DecodeError` if malformed (a wrong length,
        a point that is not a canonical non-identity element of the group, a scalar ``>= L``).

        >>> SealedShare.decode(b"\\x01" * SealedShare.ENCODED_BYTES)
        Traceback (most recent call last):
        ...
        condottiere.crypto.errors.DecodeError: not a canonical encoding of a ristretto255 element
        """
        reader = Reader(data)
        if reader.remaining != cls.ENCODED_BYTES:
            raise DecodeError(f"a sealed share is {cls.ENCODED_BYTES} bytes, got {len(data)}")
        slot = Slot(reader.u32(), reader.u32())
        viewer = reader.u32()
        ephemeral, sealed = reader.point(), reader.point()
        proof = LinearProof.read(reader, 2)
        reader.finish()
        return cls(slot, viewer, ephemeral, sealed, proof)


def _statement(
    holder_key: Point,
    holding: Holding,
    ciphertext: Ciphertext,
    slot: Slot,
    viewer: int,
    viewer_key: Point,
    ephemeral: Point,
    sealed: Point,
) -> tuple[bytes, ...]:
    return (
        holder_key,
        holding.encode(),
        encode_u32(slot.position),
        encode_ciphertext(ciphertext),
        encode_u32(viewer),
        viewer_key,
        ephemeral,
        sealed,
    )


def _equations(
    holder_key: Point, holding: Holding, viewer_key: Point, ephemeral: Point, sealed: Point
) -> list[linear.Equation]:
    masked = sealed if holding.offset is None else sub(sealed, holding.offset)
    return [
        (holder_key, (BASE, None)),
        (ephemeral, (None, BASE)),
        (masked, (holding.base, viewer_key)),
    ]


def seal_share(
    secret: int,
    holding: Holding,
    ciphertext: Ciphertext,
    slot: Slot,
    viewer: int,
    viewer_key: Point,
    context: Context,
) -> SealedShare:
    """The hidden part of the card ``ciphertext`` at ``slot`` (of round ``context.round``),
    held by ``context.seat`` (deck secret ``secret``, holding it as ``holding``), sealed to
    ``viewer`` (deck key ``viewer_key``)."""
    if slot.round != context.round:
        raise ValueError(f"{slot} is not of round {context.round}")
    if viewer == context.seat:
        raise ValueError("a seat does not seal a card to itself")
    r = random_scalar()
    ephemeral = mul_base(r)
    sealed = add(holding.part(secret), mul(r, viewer_key))
    holder_key = mul_base(secret)
    statement = _statement(
        holder_key, holding, ciphertext, slot, viewer, viewer_key, ephemeral, sealed
    )
    proof = linear.prove(
        (secret, r),
        _equations(holder_key, holding, viewer_key, ephemeral, sealed),
        _SEAL_DOMAIN,
        context,
        statement,
    )
    return SealedShare(slot, viewer, ephemeral, sealed, proof)


def verify_sealed(
    share: SealedShare,
    holder_key: Point,
    holding: Holding,
    ciphertext: Ciphertext,
    viewer_key: Point,
    context: Context,
) -> None:
    """Check ``share`` by ``context.seat`` (deck key ``holder_key``, holding the card
    ``ciphertext`` as ``holding``), sealed to the seat whose deck key is ``viewer_key``;
    :class:`VerificationError` naming ``context.seat`` otherwise."""
    if share.slot.round != context.round:
        raise VerificationError(context.seat, f"sealed share of {share.slot}, not this round's")
    subject = f"share of {share.slot} sealed to seat {share.viewer}"
    try:
        equations = _equations(holder_key, holding, viewer_key, share.ephemeral, share.sealed)
    except GroupError:
        raise VerificationError(context.seat, f"{subject}: not a group element") from None
    statement = _statement(
        holder_key,
        holding,
        ciphertext,
        share.slot,
        share.viewer,
        viewer_key,
        share.ephemeral,
        share.sealed,
    )
    linear.verify(share.proof, equations, _SEAL_DOMAIN, context, statement, subject)


def unseal(share: SealedShare, secret: int) -> Point:
    """``T = C - x·R``: the hidden part, for the viewer whose deck secret is ``secret``."""
    return sub(share.sealed, mul(secret, share.ephemeral))


def _opening_statement(key: Point, share: SealedShare, opened: Point) -> tuple[bytes, ...]:
    return (
        key,
        encode_u32(share.slot.position),
        encode_u32(share.viewer),
        share.ephemeral,
        share.sealed,
        opened,
    )


def make_opening(secret: int, share: SealedShare, context: Context) -> DecryptionShare:
    """The viewer's ``D = x·R`` of ``share`` with its proof, to make the hidden part public
    (``T = C - D``): how a seat that received a card plays it face up."""
    opened = mul(secret, share.ephemeral)
    statement = _opening_statement(mul_base(secret), share, opened)
    return DecryptionShare(
        opened, *dleq.prove(secret, share.ephemeral, _OPENING_DOMAIN, context, statement)
    )


def verify_opening(
    opening: DecryptionShare, key: Point, share: SealedShare, context: Context
) -> Point:
    """Check the opening of ``share`` by its viewer ``context.seat`` (deck key ``key``); the
    hidden part ``T = C - D``. :class:`VerificationError` naming ``context.seat`` otherwise."""
    dleq.verify(
        key,
        share.ephemeral,
        opening.share,
        opening.challenge,
        opening.response,
        _OPENING_DOMAIN,
        context,
        _opening_statement(key, share, opening.share),
        f"opening of the share of {share.slot} sealed to it",
    )
    return sub(share.sealed, opening.share)
