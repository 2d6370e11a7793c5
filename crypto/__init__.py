"""Mental poker and identity for Condottiere: no trusted dealer, every cheat named.

The peer layer needs little more than :class:`Deck` (one per seat: keys,
shuffle chain, deal, reveal, a card shown or handed to one seat alone
(:class:`SealedShare`), a search of the pile for a named card
(:class:`SearchBlinding`, :class:`SearchOpening`), reshuffle, end-of-game audit), the coin
(:func:`commitment_of`, :func:`outcome`) and :class:`Identity`. Everything that
travels has canonical bytes (``encode`` / ``decode``); decoding refuses
malformed input with :class:`DecodeError`, and every check either passes or
raises one :class:`VerificationError` naming the seat to blame.

The building blocks are exported too. Where ``condottiere.crypto.group`` and
``condottiere.crypto.codec`` share a name (``decode_point``, ``decode_scalar``,
``encode_scalar``), the package exports the codec's, which raise
:class:`DecodeError` as every decoder of received bytes should.

>>> from condottiere import crypto
>>> decks = [crypto.Deck(b"doc", 2, seat, ["10", "10", "spy"]) for seat in range(2)]
>>> for deck in decks:
...     deck.accept_keys([d.announcement for d in decks])
>>> for seat in range(2):
...     step = decks[seat].make_shuffle()
...     for deck in decks:
...         deck.accept_shuffle(seat, step)
>>> batch = decks[1].make_shares(0, [0])
>>> for deck in decks:
...     deck.accept_shares(1, batch)
>>> decks[0].open(crypto.Slot(0, 0)) in {"10", "spy"}
True
"""

from condottiere.crypto.cards import Codebook, PhysicalCard, card_point
from condottiere.crypto.codec import (
    CIPHERTEXT_BYTES,
    Reader,
    decode_ciphertext,
    decode_ciphertexts,
    decode_point,
    decode_scalar,
    encode_bytes,
    encode_ciphertext,
    encode_ciphertexts,
    encode_scalar,
    encode_text,
    encode_u8,
    encode_u16,
    encode_u32,
)
from condottiere.crypto.coin import (
    COMMITMENT_BYTES,
    VALUE_BYTES,
    commitment_of,
    draw_value,
    outcome,
    recover_value,
    value_matches,
)
from condottiere.crypto.context import Context, challenge
from condottiere.crypto.deck import Claim, Deck, Reveal, ShareBatch, ShuffleStep
from condottiere.crypto.elgamal import Ciphertext, decrypt, encrypt, rerandomise, trivial
from condottiere.crypto.errors import DecodeError, VerificationError
from condottiere.crypto.group import (
    BASE,
    IDENTITY,
    POINT_BYTES,
    SCALAR_BYTES,
    GroupError,
    L,
    Point,
    add,
    hash_to_point,
    hash_to_scalar,
    is_point,
    is_scalar,
    mul,
    mul_base,
    multi_mul,
    neg,
    random_scalar,
    sub,
    sum_points,
)
from condottiere.crypto.holds import HiddenCard, HoldsProof
from condottiere.crypto.holds import prove as prove_holds
from condottiere.crypto.holds import verify as verify_holds
from condottiere.crypto.identity import (
    PUBLIC_KEY_BYTES,
    SECRET_KEY_BYTES,
    SIGNATURE_BYTES,
    Identity,
    PublicIdentity,
)
from condottiere.crypto.keys import KeyAnnouncement, generate_key, joint_key, prove_key, verify_key
from condottiere.crypto.linear import LinearProof
from condottiere.crypto.pet import (
    BlindedTest,
    SearchBlinding,
    SearchOpening,
    search_header,
)
from condottiere.crypto.sealed import (
    Holding,
    SealedShare,
    seal_share,
    unseal,
    verify_sealed,
)
from condottiere.crypto.sealing import (
    BOX_KEY_BYTES,
    BOX_SECRET_BYTES,
    EPHEMERAL_BYTES,
    SEAL_OVERHEAD,
    BoxKey,
    BoxSecret,
    seal,
)
from condottiere.crypto.shares import (
    DecryptionShare,
    ShareCheck,
    make_share,
    make_shares,
    share_point,
    unblind,
    verify_share,
    verify_shares,
)
from condottiere.crypto.shuffle import (
    ShuffleProof,
    prove_shuffle,
    random_permutation,
    shuffle,
    shuffle_with,
    verify_shuffle,
)
from condottiere.crypto.slot import Slot
from condottiere.crypto.standin import (
    StandInBatch,
    StandInPart,
    combine_stand_in,
    make_stand_in,
    verify_stand_in,
)
from condottiere.crypto.vss import (
    MIN_BACKUP_SEATS,
    PIECE_BOX_BYTES,
    Complaint,
    ComplaintAnswer,
    Dealing,
    answer_complaint,
    evaluation_point,
    lagrange_at_zero,
    make_dealing,
    open_piece,
    settle_complaint,
    verification_key,
)

__all__ = [
    "BASE",
    "BOX_KEY_BYTES",
    "BOX_SECRET_BYTES",
    "CIPHERTEXT_BYTES",
    "COMMITMENT_BYTES",
    "EPHEMERAL_BYTES",
    "IDENTITY",
    "MIN_BACKUP_SEATS",
    "PIECE_BOX_BYTES",
    "POINT_BYTES",
    "PUBLIC_KEY_BYTES",
    "SCALAR_BYTES",
    "SEAL_OVERHEAD",
    "SECRET_KEY_BYTES",
    "SIGNATURE_BYTES",
    "VALUE_BYTES",
    "BlindedTest",
    "BoxKey",
    "BoxSecret",
    "Ciphertext",
    "Claim",
    "Codebook",
    "Complaint",
    "ComplaintAnswer",
    "Context",
    "Dealing",
    "Deck",
    "DecodeError",
    "DecryptionShare",
    "GroupError",
    "HiddenCard",
    "Holding",
    "HoldsProof",
    "Identity",
    "KeyAnnouncement",
    "L",
    "LinearProof",
    "PhysicalCard",
    "Point",
    "PublicIdentity",
    "Reader",
    "Reveal",
    "SealedShare",
    "SearchBlinding",
    "SearchOpening",
    "ShareBatch",
    "ShareCheck",
    "ShuffleProof",
    "ShuffleStep",
    "Slot",
    "StandInBatch",
    "StandInPart",
    "VerificationError",
    "add",
    "answer_complaint",
    "card_point",
    "challenge",
    "combine_stand_in",
    "commitment_of",
    "decode_ciphertext",
    "decode_ciphertexts",
    "decode_point",
    "decode_scalar",
    "decrypt",
    "draw_value",
    "encode_bytes",
    "encode_ciphertext",
    "encode_ciphertexts",
    "encode_scalar",
    "encode_text",
    "encode_u8",
    "encode_u16",
    "encode_u32",
    "encrypt",
    "evaluation_point",
    "generate_key",
    "hash_to_point",
    "hash_to_scalar",
    "is_point",
    "is_scalar",
    "joint_key",
    "lagrange_at_zero",
    "make_dealing",
    "make_share",
    "make_shares",
    "make_stand_in",
    "mul",
    "mul_base",
    "multi_mul",
    "neg",
    "open_piece",
    "outcome",
    "prove_holds",
    "prove_key",
    "prove_shuffle",
    "random_permutation",
    "random_scalar",
    "recover_value",
    "rerandomise",
    "seal",
    "seal_share",
    "search_header",
    "settle_complaint",
    "share_point",
    "shuffle",
    "shuffle_with",
    "sub",
    "sum_points",
    "trivial",
    "unblind",
    "unseal",
    "value_matches",
    "verification_key",
    "verify_holds",
    "verify_key",
    "verify_sealed",
    "verify_share",
    "verify_shares",
    "verify_shuffle",
    "verify_stand_in",
]
