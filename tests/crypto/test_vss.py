"""The backup of a seat's secret among the others (Feldman VSS): sharing, checking, the
complaint path and who it blames, binding to the dealing, and the threshold."""

from __future__ import annotations

import dataclasses
import importlib
import itertools
import random
from collections.abc import Callable, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from condottiere import crypto
from condottiere.crypto.codec import encode_scalar
from condottiere.crypto.context import Context
from condottiere.crypto.errors import DecodeError, VerificationError
from condottiere.crypto.group import IDENTITY, L, mul, mul_base, random_scalar, sub
from condottiere.crypto.sealing import BoxKey, BoxSecret, seal
from condottiere.crypto.vss import (
    PIECE_BOX_BYTES,
    Complaint,
    ComplaintAnswer,
    Dealing,
    _tag,
    answer_complaint,
    evaluation_point,
    lagrange_at_zero,
    make_dealing,
    open_piece,
    settle_complaint,
    verification_key,
)

TABLE = b"vss-table"


class Seats:
    """A table's deck secrets and box secrets, with a helper per step of the backup."""

    def __init__(self, n: int, round_: int = 0, table: bytes = TABLE) -> None:
        self.n = n
        self.secrets = [random_scalar() for _ in range(n)]
        self.keys = [mul_base(x) for x in self.secrets]
        self.box_secrets = [BoxSecret.generate() for _ in range(n)]
        self.box_keys = [BoxKey.decode(b.public.encode()) for b in self.box_secrets]
        self.round = round_
        self.table = table

    def context(self, dealer: int) -> Context:
        return Context(self.table, self.round, dealer)

    def deal(self, dealer: int) -> Dealing:
        """The dealer's dealing, as every seat receives it (through its bytes)."""
        made = make_dealing(self.secrets[dealer], self.box_keys, self.context(dealer))
        return Dealing.decode(made.encode(), self.n)

    def open(self, dealing: Dealing, dealer: int, recipient: int) -> int:
        return open_piece(
            dealing,
            self.keys[dealer],
            self.box_secrets[recipient],
            recipient,
            self.context(dealer),
        )

    def settle(
        self,
        dealing: Dealing,
        dealer: int,
        complainer: int,
        answer: ComplaintAnswer | None,
        *,
        wire: bool = True,
    ) -> VerificationError:
        """Whom the complaint blames (every seat settles it from public data alone); the answer
        goes through its bytes unless ``wire`` is false (for answers that have none)."""
        if wire and answer is not None:
            answer = ComplaintAnswer.decode(answer.encode())
        with pytest.raises(VerificationError) as err:
            settle_complaint(
                dealing, self.keys[dealer], self.box_keys, complainer, answer, self.context(dealer)
            )
        return err.value

    def others(self, dealer: int) -> list[int]:
        return [j for j in range(self.n) if j != dealer]


def interpolate(points: Sequence[tuple[int, int]]) -> list[int]:
    """The coefficients (constant first) of the polynomial of degree below ``len(points)``
    through ``points``, mod L."""
    coefficients = [0] * len(points)
    for m, (z_m, y_m) in enumerate(points):
        basis, denominator = [1], 1
        for k, (z_k, _) in enumerate(points):
            if k != m:
                basis = [
                    (low - z_k * high) % L
                    for low, high in zip([0, *basis], [*basis, 0], strict=True)
                ]
                denominator = denominator * (z_m - z_k) % L
        scale = y_m * pow(denominator, -1, L) % L
        coefficients = [(c + scale * b) % L for c, b in zip(coefficients, basis, strict=True)]
    return coefficients


def evaluate(coefficients: Sequence[int], z: int) -> int:
    return sum(c * pow(z, k, L) for k, c in enumerate(coefficients)) % L


# -- sharing ---------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_every_piece_checks_and_all_the_others_together_hold_the_secret(n: int) -> None:
    seats = Seats(n)
    for dealer in range(n):
        dealing = seats.deal(dealer)
        assert len(dealing.encode()) == 32 * (n - 2) + PIECE_BOX_BYTES * (n - 1)
        pieces = {j: seats.open(dealing, dealer, j) for j in seats.others(dealer)}
        for j, piece in pieces.items():
            assert mul_base(piece) == verification_key(dealing, seats.keys[dealer], j)
        lam = lagrange_at_zero([evaluation_point(j) for j in pieces])
        assert (
            sum(c * s for c, s in zip(lam, pieces.values(), strict=True)) % L
            == (seats.secrets[dealer])
        )


@settings(max_examples=25, deadline=None)
@given(st.integers(3, 6), st.data())
def test_sharing_round_trips_for_any_secret_and_dealer(n: int, data: st.DataObject) -> None:
    seats = Seats(n, round_=data.draw(st.integers(0, 2**32 - 1)))
    dealer = data.draw(st.integers(0, n - 1))
    seats.secrets[dealer] = data.draw(st.integers(1, L - 1))
    seats.keys[dealer] = mul_base(seats.secrets[dealer])
    dealing = seats.deal(dealer)
    pieces = [seats.open(dealing, dealer, j) for j in seats.others(dealer)]
    points = [(evaluation_point(j), s) for j, s in zip(seats.others(dealer), pieces, strict=True)]
    polynomial = interpolate(points)
    assert polynomial[0] == seats.secrets[dealer]
    assert [mul_base(a) for a in polynomial[1:]] == list(dealing.commitments)


def test_a_dealing_is_made_again_byte_for_byte_by_a_restarted_dealer() -> None:
    seats = Seats(4)
    first = make_dealing(seats.secrets[1], seats.box_keys, seats.context(1))
    again = make_dealing(seats.secrets[1], seats.box_keys, seats.context(1))
    assert first == again
    later = make_dealing(
        seats.secrets[1], seats.box_keys, dataclasses.replace(seats.context(1), round=1)
    )
    assert later.commitments != first.commitments


def test_a_table_of_two_shares_nothing() -> None:
    seats = Seats(3)
    with pytest.raises(ValueError, match="3 seats or more"):
        make_dealing(seats.secrets[0], seats.box_keys[:2], seats.context(0))
    with pytest.raises(ValueError, match="3 seats or more"):
        Dealing.decode(b"", 2)


def test_dealings_of_the_wrong_shape_are_refused() -> None:
    seats = Seats(4)
    data = seats.deal(0).encode()
    for bad in (data[:-1], data + b"\x00", b""):
        with pytest.raises(DecodeError):
            Dealing.decode(bad, 4)
    with pytest.raises(DecodeError):
        Dealing.decode(data, 5)
    with pytest.raises(DecodeError):  # a commitment that is the identity
        Dealing.decode(IDENTITY + data[32:], 4)
    with pytest.raises(ValueError):
        Dealing((), ())


# -- bad pieces, complaints, and whom they blame -----------------------------------------------


def sealed(
    seats: Seats, dealing: Dealing, dealer: int, recipient: int, piece_bytes: bytes
) -> tuple[bytes, bytes]:
    """A box a cheating dealer who follows the format seals to ``recipient``: ``piece_bytes``
    then the right tag, under an ephemeral secret it keeps (to answer with)."""
    ephemeral = random_scalar().to_bytes(32, "little")
    tag = _tag(dealing.commitments, seats.keys[dealer], recipient, seats.context(dealer))
    return seal(piece_bytes + tag, seats.box_keys[recipient], ephemeral), ephemeral


def with_box(dealing: Dealing, dealer: int, recipient: int, box: bytes) -> Dealing:
    boxes = list(dealing.boxes)
    boxes[recipient - (recipient > dealer)] = box
    return dataclasses.replace(dealing, boxes=tuple(boxes))


Cheat = Callable[[Seats, Dealing, int, int, int], tuple[bytes, bytes | None, int | None]]
"""(seats, honest dealing, dealer, recipient, honest piece) -> (bad box, the ephemeral secret
the cheater holds or None, the piece it sealed or None)."""


def _wrong_scalar(s: Seats, d: Dealing, i: int, j: int, piece: int) -> tuple[bytes, bytes, int]:
    wrong = (piece + 1) % L
    box, ephemeral = sealed(s, d, i, j, encode_scalar(wrong))
    return box, ephemeral, wrong


def _zero(s: Seats, d: Dealing, i: int, j: int, piece: int) -> tuple[bytes, bytes, int]:
    box, ephemeral = sealed(s, d, i, j, encode_scalar(0))
    return box, ephemeral, 0


def _not_canonical(s: Seats, d: Dealing, i: int, j: int, piece: int) -> tuple[bytes, bytes, None]:
    box, ephemeral = sealed(s, d, i, j, (piece + L).to_bytes(32, "little"))
    return box, ephemeral, None


def _wrong_key(s: Seats, d: Dealing, i: int, j: int, piece: int) -> tuple[bytes, bytes, int]:
    """The right piece and tag, sealed to the dealer's own box key instead of j's."""
    ephemeral = random_scalar().to_bytes(32, "little")
    plaintext = encode_scalar(piece) + _tag(d.commitments, s.keys[i], j, s.context(i))
    return seal(plaintext, s.box_keys[i], ephemeral), ephemeral, piece


def _garbage(s: Seats, d: Dealing, i: int, j: int, piece: int) -> tuple[bytes, None, None]:
    return random.randbytes(PIECE_BOX_BYTES), None, None


def _other_tag(s: Seats, d: Dealing, i: int, j: int, piece: int) -> tuple[bytes, bytes, int]:
    """The right piece, with the tag of the piece for another seat."""
    ephemeral = random_scalar().to_bytes(32, "little")
    other = next(k for k in s.others(i) if k != j)
    plaintext = encode_scalar(piece) + _tag(d.commitments, s.keys[i], other, s.context(i))
    return seal(plaintext, s.box_keys[j], ephemeral), ephemeral, piece


CHEATS: dict[str, tuple[Cheat, str]] = {
    "wrong-scalar": (_wrong_scalar, "does not match its commitments"),
    "zero": (_zero, "not a non-zero scalar"),
    "not-canonical": (_not_canonical, "not a non-zero scalar"),
    "sealed-to-the-wrong-key": (_wrong_key, "does not open"),
    "garbage-bytes": (_garbage, "does not open"),
    "tagged-for-another-seat": (_other_tag, "another dealing or seat"),
}


@pytest.mark.parametrize("n", [3, 5])
@pytest.mark.parametrize("cheat", CHEATS)
def test_a_bad_piece_is_caught_by_its_recipient_and_the_complaint_blames_the_dealer(
    cheat: str, n: int
) -> None:
    seats = Seats(n)
    dealer, recipient = 1, n - 1
    honest = seats.deal(dealer)
    piece = seats.open(honest, dealer, recipient)
    make_box, reason = CHEATS[cheat]
    box, ephemeral, sealed_piece = make_box(seats, honest, dealer, recipient, piece)
    dealing = Dealing.decode(with_box(honest, dealer, recipient, box).encode(), n)

    with pytest.raises(VerificationError, match=reason) as err:
        seats.open(dealing, dealer, recipient)
    assert err.value.seat == dealer
    complaint = Complaint.decode(Complaint(err.value.seat).encode())
    assert complaint.dealer == dealer

    # whatever the dealer answers, or if it never answers, it is the one blamed
    answers: list[ComplaintAnswer | None] = [
        None,
        answer_complaint(seats.secrets[dealer], seats.box_keys, recipient, seats.context(dealer)),
        ComplaintAnswer(recipient, piece, ephemeral or bytes(32)),
    ]
    if sealed_piece is not None and ephemeral is not None:
        answers.append(ComplaintAnswer(recipient, sealed_piece, ephemeral))
    for answer in answers:
        assert seats.settle(dealing, dealer, recipient, answer).seat == dealer
    # the other recipients' pieces are untouched
    for j in seats.others(dealer):
        if j != recipient:
            seats.open(dealing, dealer, j)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, PIECE_BOX_BYTES - 1), st.integers(1, 255))
def test_any_altered_byte_of_a_box_is_caught_and_blamed_on_the_dealer(
    index: int, flip: int
) -> None:
    seats = Seats(3)
    honest = seats.deal(0)
    box = bytearray(honest.box(0, 1))
    box[index] ^= flip
    dealing = with_box(honest, 0, 1, bytes(box))
    with pytest.raises(VerificationError) as err:
        seats.open(dealing, 0, 1)
    assert err.value.seat == 0
    honest_answer = answer_complaint(seats.secrets[0], seats.box_keys, 1, seats.context(0))
    assert seats.settle(dealing, 0, 1, honest_answer).seat == 0


@pytest.mark.parametrize("n", [3, 4, 6])
def test_a_false_complaint_against_an_honest_dealer_blames_the_complainer(n: int) -> None:
    seats = Seats(n)
    for dealer in range(n):
        dealing = seats.deal(dealer)
        for complainer in seats.others(dealer):
            answer = answer_complaint(
                seats.secrets[dealer], seats.box_keys, complainer, seats.context(dealer)
            )
            assert answer.piece == seats.open(dealing, dealer, complainer)
            err = seats.settle(dealing, dealer, complainer, answer)
            assert err.seat == complainer
            assert "complained" in err.reason


def test_an_honest_dealer_is_blamed_only_for_not_answering() -> None:
    seats = Seats(4)
    dealing = seats.deal(0)
    assert seats.settle(dealing, 0, 2, None).seat == 0


def test_an_answer_that_is_not_the_complainers_piece_blames_the_dealer() -> None:
    seats = Seats(4)
    dealing = seats.deal(0)
    right = answer_complaint(seats.secrets[0], seats.box_keys, 2, seats.context(0))
    other = answer_complaint(seats.secrets[0], seats.box_keys, 3, seats.context(0))
    for answer in (
        other,  # another seat's answer, valid for that seat
        dataclasses.replace(right, recipient=3),
        dataclasses.replace(right, piece=(right.piece + 1) % L),
        dataclasses.replace(right, ephemeral=bytes(32)),
        dataclasses.replace(right, ephemeral=right.ephemeral[:31]),
        dataclasses.replace(right, piece=right.piece + L),
    ):
        assert seats.settle(dealing, 0, 2, answer, wire=False).seat == 0


def test_a_complaint_about_oneself_blames_the_complainer() -> None:
    seats = Seats(3)
    dealing = seats.deal(1)
    assert seats.settle(dealing, 1, 1, None).seat == 1


def test_a_dealer_cannot_answer_for_a_box_it_copied_from_another_dealer() -> None:
    """Seat 0 copies seat 2's box for seat 1 and picks its commitment so that seat 2's piece
    would match it: the tag, which binds a box to its dealer, is what stops it (without the
    tag seat 1 would hold a piece of seat 2's secret as seat 0's, and publish its multiples)."""
    seats = Seats(3)
    honest_2 = seats.deal(2)
    v = verification_key(honest_2, seats.keys[2], 1)
    commitment = mul(pow(evaluation_point(1), -1, L), sub(v, seats.keys[0]))
    # seat 0's boxes: for seat 1, seat 2's box; for seat 2, its own
    forged = Dealing((commitment,), (honest_2.box(2, 1), seats.deal(0).box(0, 2)))
    stolen = seats.open(honest_2, 2, 1)
    assert mul_base(stolen) == verification_key(forged, seats.keys[0], 1)
    with pytest.raises(VerificationError, match="another dealing or seat") as err:
        seats.open(forged, 0, 1)
    assert err.value.seat == 0
    assert seats.settle(forged, 0, 1, ComplaintAnswer(1, stolen, bytes(32))).seat == 0


@pytest.mark.parametrize(
    "elsewhere",
    [
        pytest.param(lambda c: dataclasses.replace(c, round=c.round + 1), id="another-round"),
        pytest.param(lambda c: dataclasses.replace(c, table=b"another table"), id="another-table"),
    ],
)
def test_a_box_from_the_same_dealers_dealing_elsewhere_is_refused(
    elsewhere: Callable[[Context], Context],
) -> None:
    seats = Seats(4)
    old = make_dealing(seats.secrets[0], seats.box_keys, elsewhere(seats.context(0)))
    dealing = with_box(seats.deal(0), 0, 2, old.box(0, 2))
    with pytest.raises(VerificationError, match="another dealing or seat") as err:
        seats.open(dealing, 0, 2)
    assert err.value.seat == 0
    assert (
        seats.settle(
            dealing, 0, 2, answer_complaint(seats.secrets[0], seats.box_keys, 2, seats.context(0))
        ).seat
        == 0
    )


def test_a_box_for_another_seat_is_refused() -> None:
    seats = Seats(4)
    honest = seats.deal(0)
    swapped = with_box(honest, 0, 2, honest.box(0, 3))
    with pytest.raises(VerificationError) as err:  # sealed to seat 3: does not open for seat 2
        seats.open(swapped, 0, 2)
    assert err.value.seat == 0


# -- the threshold -----------------------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_no_coalition_short_of_all_the_others_holds_the_secret(n: int) -> None:
    """For every coalition of n - 2 seats or fewer among the others, the pieces it holds are
    those of a valid degree n - 2 sharing of *any* secret x': the polynomial through its pieces
    and (0, x'), completed by arbitrary values at other points, exists for every x', so the
    pieces say nothing of x. (The public commitments F_k = a_k·G and X = x·G do pin x down,
    but only through discrete logarithms; a coalition that could take them would not need the
    pieces.) The n - 1 pieces of all the others, and only they, determine x."""
    seats = Seats(n)
    leaver = random.randrange(n)
    dealing = seats.deal(leaver)
    others = seats.others(leaver)
    pieces = {j: seats.open(dealing, leaver, j) for j in others}
    for size in range(1, n - 1):
        for coalition in itertools.combinations(others, size):
            for _ in range(3):
                x_other = random_scalar()
                outside = [j for j in others if j not in coalition][: n - 2 - size]
                points = [
                    (0, x_other),
                    *((evaluation_point(j), pieces[j]) for j in coalition),
                    *((evaluation_point(j), random_scalar()) for j in outside),
                ]
                g = interpolate(points)
                assert len(g) == n - 1  # degree n - 2 at most
                assert g[0] == x_other
                assert all(evaluate(g, evaluation_point(j)) == pieces[j] for j in coalition)
    everyone = interpolate([(evaluation_point(j), pieces[j]) for j in others])
    assert everyone[0] == seats.secrets[leaver]
    assert [mul_base(a) for a in everyone[1:]] == list(dealing.commitments)


# -- pieces of the API -------------------------------------------------------------------------


def test_lagrange_coefficients_refuse_repeated_or_zero_points() -> None:
    for bad in ([1, 1], [0, 2], [L, 1]):
        with pytest.raises(ValueError):
            lagrange_at_zero(bad)


def test_a_dealing_has_no_box_for_its_dealer() -> None:
    dealing = Seats(3).deal(0)
    with pytest.raises(ValueError):
        dealing.box(0, 0)
    with pytest.raises(ValueError):
        dealing.box(0, 3)


def test_answers_and_complaints_round_trip_and_refuse_malformed_bytes() -> None:
    seats = Seats(3)
    answer = answer_complaint(seats.secrets[0], seats.box_keys, 2, seats.context(0))
    assert ComplaintAnswer.decode(answer.encode()) == answer
    assert len(answer.encode()) == ComplaintAnswer.ENCODED_BYTES
    with pytest.raises(DecodeError):
        ComplaintAnswer.decode(answer.encode()[:-1])
    with pytest.raises(DecodeError):  # a piece that is not canonical
        ComplaintAnswer.decode(
            answer.encode()[:4] + (2**256 - 1).to_bytes(32, "little") + bytes(32)
        )
    with pytest.raises(DecodeError):
        Complaint.decode(b"\x00\x00\x00")
    with pytest.raises(ValueError):
        answer_complaint(seats.secrets[0], seats.box_keys, 0, seats.context(0))


def test_the_dealer_must_hold_a_secret_and_a_seat() -> None:
    seats = Seats(3)
    with pytest.raises(ValueError):
        make_dealing(0, seats.box_keys, seats.context(0))
    with pytest.raises(ValueError):
        make_dealing(seats.secrets[0], seats.box_keys, seats.context(3))


def test_the_package_exports_every_public_name_of_the_backup_modules() -> None:
    for name in ("sealing", "vss", "standin"):
        module = importlib.import_module(f"condottiere.crypto.{name}")
        assert set(module.__all__) <= set(crypto.__all__), name
        assert all(getattr(crypto, n) is getattr(module, n) for n in module.__all__), name
