"""The errors of the crypto library."""

from __future__ import annotations

__all__ = ["DecodeError", "VerificationError"]


class DecodeError(ValueError):
    """Bytes that do not canonically encode the object they claim to be."""


class VerificationError(ValueError):
    """A proof, share, commitment or claim that does not check, naming the seat to blame.

    >>> err = VerificationError(2, "shuffle proof does not verify")
    >>> err.seat, str(err)
    (2, 'seat 2: shuffle proof does not verify')
    """

    def __init__(self, seat: int, reason: str) -> None:
        super().__init__(f"seat {seat}: {reason}")
        self.seat = seat
        self.reason = reason
