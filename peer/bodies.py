"""The wire bodies of the deck's steps: each built from the crypto objects it carries, and
read back into them.

The dealer (:mod:`condottiere.peer.dealing`) keeps the deck bookkeeping and calls these; each
``*_body`` builds the ``log_pb2`` message a step's entry carries, and each ``read_*`` decodes
what such a message holds, a malformed one blamed on the seat that sent it
(:class:`Rejection`, reason ``BAD_PROOF``). Nothing here checks a proof or knows a deck's
state: the dealer checks what is read.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager

from condottiere.crypto import (
    BoxKey,
    ComplaintAnswer,
    Dealing,
    DecodeError,
    HoldsProof,
    KeyAnnouncement,
    Reveal,
    SealedShare,
    SearchBlinding,
    SearchOpening,
    ShareBatch,
    ShuffleStep,
    Slot,
    StandInBatch,
    encode_scalar,
)
from condottiere.peer.entries import Reason, Rejection
from condottiere.v1 import log_pb2

__all__ = [
    "card_shown",
    "card_slot",
    "complaint_answer",
    "dealings_body",
    "encode_announcements",
    "encode_secrets",
    "hand_proof_body",
    "hand_shown_body",
    "read_announcements",
    "read_box_keys",
    "read_dealings",
    "read_hand_proof",
    "read_redealing",
    "read_rekey",
    "read_reveal",
    "read_sealed_share",
    "read_search_blinding",
    "read_search_opening",
    "read_share_batch",
    "read_shuffle",
    "read_stand_in_batch",
    "redealing_body",
    "rekey_body",
    "search_blinding_body",
    "search_opening_body",
    "shares_body",
    "shuffle_body",
    "shuffle_step",
    "slot_of",
    "stand_in_body",
]


@contextmanager
def _blaming(seat: int, what: str) -> Iterator[None]:
    """Turn a malformed body read inside into a rejection blaming ``seat`` for ``what``."""
    try:
        yield
    except DecodeError as exc:
        raise Rejection(Reason.BAD_PROOF, f"{what}: {exc}", seat=seat) from None


def card_slot(slot: Slot) -> log_pb2.CardSlot:
    return log_pb2.CardSlot(round=slot.round, position=slot.position)


def slot_of(at: log_pb2.CardSlot) -> Slot:
    return Slot(at.round, at.position)


# -- keys ----------------------------------------------------------------------------------


def encode_announcements(announcements: Iterable[KeyAnnouncement]) -> list[bytes]:
    return [announcement.encode() for announcement in announcements]


def read_announcements(seat: int, encoded: Sequence[bytes]) -> list[KeyAnnouncement]:
    with _blaming(seat, "key announcement"):
        return [KeyAnnouncement.decode(data) for data in encoded]


# -- shuffles ------------------------------------------------------------------------------


def shuffle_body(index: int, round_: int, step: ShuffleStep) -> log_pb2.Shuffle:
    return log_pb2.Shuffle(deck=index, round=round_, step=step.encode())


def shuffle_step(body: log_pb2.Shuffle, cards: int) -> ShuffleStep:
    """The step of a ``cards``-card deck ``body`` carries, its points unchecked (the
    verification checks every one); :class:`DecodeError` if malformed."""
    return ShuffleStep.decode(body.step, cards, check_points=False)


def read_shuffle(seat: int, body: log_pb2.Shuffle, cards: int) -> ShuffleStep:
    with _blaming(seat, "shuffle step"):
        return shuffle_step(body, cards)


# -- shares --------------------------------------------------------------------------------


def shares_body(batches: Iterable[tuple[int, ShareBatch]]) -> log_pb2.Shares:
    return log_pb2.Shares(
        batches=[log_pb2.DeckShares(deck=index, batch=batch.encode()) for index, batch in batches]
    )


def read_share_batch(seat: int, item: log_pb2.DeckShares) -> ShareBatch:
    with _blaming(seat, "share batch"):
        return ShareBatch.decode(item.batch)


# -- cards shown -----------------------------------------------------------------------------


def card_shown(
    index: int, slot: Slot | None = None, reveal: Reveal | None = None
) -> log_pb2.CardShown:
    """A card a move shows: a face-up one by its ``slot``, a hidden one by its ``reveal``."""
    if reveal is not None:
        return log_pb2.CardShown(deck=index, reveal=reveal.encode())
    assert slot is not None
    return log_pb2.CardShown(deck=index, known=card_slot(slot))


def read_reveal(seat: int, item: log_pb2.CardShown) -> Reveal:
    with _blaming(seat, "reveal"):
        return Reveal.decode(item.reveal)


def hand_shown_body(
    viewer: int,
    face_up: Iterable[tuple[int, Slot]],
    sealed: Iterable[tuple[int, SealedShare]],
) -> log_pb2.HandShown:
    body = log_pb2.HandShown(viewer=viewer)
    for index, slot in face_up:
        body.face_up.append(log_pb2.FaceUpCard(deck=index, slot=card_slot(slot)))
    for index, share in sealed:
        body.sealed.append(log_pb2.SealedCard(deck=index, share=share.encode()))
    return body


def read_sealed_share(seat: int, sealed: log_pb2.SealedCard) -> SealedShare:
    with _blaming(seat, "sealed share"):
        return SealedShare.decode(sealed.share)


def hand_proof_body(proof: HoldsProof | None) -> log_pb2.HandProof:
    """A hand proof's body; empty where a face-up card shows it (``proof`` None)."""
    return log_pb2.HandProof() if proof is None else log_pb2.HandProof(proof=proof.encode())


def read_hand_proof(seat: int, body: log_pb2.HandProof, size: int) -> HoldsProof:
    with _blaming(seat, "hand proof"):
        return HoldsProof.decode(body.proof, size)


# -- searches --------------------------------------------------------------------------------


def search_blinding_body(
    index: int, round_: int, card: str, blinding: SearchBlinding
) -> log_pb2.SearchBlinding:
    return log_pb2.SearchBlinding(deck=index, round=round_, card=card, blinding=blinding.encode())


def read_search_blinding(seat: int, body: log_pb2.SearchBlinding) -> SearchBlinding:
    with _blaming(seat, "search blinding"):
        return SearchBlinding.decode(body.blinding)


def search_opening_body(
    index: int, round_: int, card: str, opening: SearchOpening
) -> log_pb2.SearchOpening:
    return log_pb2.SearchOpening(deck=index, round=round_, card=card, opening=opening.encode())


def read_search_opening(seat: int, body: log_pb2.SearchOpening) -> SearchOpening:
    with _blaming(seat, "search opening"):
        return SearchOpening.decode(body.opening)


# -- backups, stand-ins, re-keys -------------------------------------------------------------


def encode_secrets(secrets: Iterable[int]) -> list[bytes]:
    return [encode_scalar(secret) for secret in secrets]


def read_box_keys(seats: Sequence[int], encoded: Sequence[bytes]) -> list[BoxKey]:
    """Every member's box key (``seats`` the members, in order)."""
    keys = []
    for seat, data in zip(seats, encoded, strict=True):
        with _blaming(seat, "box key"):
            keys.append(BoxKey.decode(data))
    return keys


def complaint_answer(data: bytes) -> ComplaintAnswer | None:
    """The answer to a complaint ``data`` encodes; None if malformed (as if none came)."""
    try:
        return ComplaintAnswer.decode(data)
    except DecodeError:
        return None


def dealings_body(dealings: Iterable[Dealing]) -> log_pb2.Dealings:
    return log_pb2.Dealings(dealings=[dealing.encode() for dealing in dealings])


def read_dealings(seat: int, body: log_pb2.Dealings, members: int) -> list[Dealing]:
    dealings = []
    for data in body.dealings:
        with _blaming(seat, "dealing"):
            dealings.append(Dealing.decode(data, members))
    return dealings


def stand_in_body(leaver: int, batches: Iterable[tuple[int, StandInBatch]]) -> log_pb2.StandIn:
    return log_pb2.StandIn(
        leaver=leaver,
        batches=[log_pb2.DeckStandIn(deck=index, batch=batch.encode()) for index, batch in batches],
    )


def read_stand_in_batch(seat: int, item: log_pb2.DeckStandIn) -> StandInBatch:
    with _blaming(seat, "stand-in parts"):
        return StandInBatch.decode(item.batch)


def rekey_body(index: int, round_: int, leaver: int, batch: StandInBatch) -> log_pb2.Rekey:
    return log_pb2.Rekey(deck=index, round=round_, leaver=leaver, batch=batch.encode())


def read_rekey(seat: int, body: log_pb2.Rekey) -> StandInBatch:
    with _blaming(seat, "re-key parts"):
        return StandInBatch.decode(body.batch)


def redealing_body(index: int, round_: int, dealing: Dealing) -> log_pb2.Redealing:
    return log_pb2.Redealing(deck=index, round=round_, dealing=dealing.encode())


def read_redealing(seat: int, body: log_pb2.Redealing, members: int) -> Dealing:
    with _blaming(seat, "dealing"):
        return Dealing.decode(body.dealing, members)
