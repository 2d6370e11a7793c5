"""Fair random choices on the table: commit, escrow, reveal; a withheld reveal is opened
without its committer, so withholding never changes the odds.

The engine asks for a fair choice among some seats (who holds the battle marker first, who
takes it after a tie). Every *committer* (every seat) takes part in three steps:

1. **commit**: it draws a secret value ``v`` (a random scalar) and publishes ``C = v·G``,
   with a box key of its own for this choice;
2. **escrow** (three committers or more): once every commitment is in, it shares ``v`` among
   the others by Feldman verifiable secret sharing (:mod:`condottiere.crypto.vss`, degree
   ``n - 2`` with ``F_0 = C``): one piece sealed to each other committer's box key, checked
   against the public commitments when it is needed (below);
3. **reveal**: once every escrow is in, it publishes ``v``.

The outcome comes from every value (``crypto.outcome``). A value is the one scalar whose
multiple of ``G`` is its commitment, so it is fixed at the commitment, before anyone could
learn any other (the escrows come only after every commitment is in).

**A withheld reveal never pays.** Every committer *closes* the choice once (``CoinClose``): at
once when it holds every reveal, or when its timeout expires first, naming the seats whose
reveals it lacks and giving the secret of its box key for this choice, which opens its pieces
of their values. Once every other committer has given its pieces of a seat's value, that value
is opened by Lagrange interpolation (:meth:`Coin.opened`): the very value its reveal would
have shown. So the outcome is the one the commitments fixed, on every peer, whatever arrives
in whatever order, whether the reveal came or not; the withholder forfeits its say (its value
is taken from the escrow) and gains nothing. A piece that does not open or check, once its
recipient's box secret is public, proves its dealer cheated (the table halts, blaming it); a
box secret that is not the one of the key its closer published proves the closer lied.

**Blame.** A seat is blamed for withholding once a strict majority of the other committers
closed naming it (:func:`blamed`). Each
committer closes once, so this is a count that only grows: every peer reaches the same
blame once the closes are in, whatever their order, even when they split (two closes name
one seat, two another: each is named by two of its three others, and both are blamed).

**What escrow cannot do.** A value opens only with the pieces of *all* the other committers,
so two withholders at once, or a withheld reveal between two committers (no escrow: the one
other seat's piece would be the value itself), leave the table waiting, blame shown: the
withholders stop the game, as leaving would, and gain nothing else. No choice is ever made
again without them (that is what let a withholder steer the choice among the others).

>>> flip = Flip(choice=0, attempt=0, purpose="first battle marker", options=(0, 1, 2),
...             committers=(0, 1, 2))
>>> blamed(flip, {0: frozenset({2}), 1: frozenset({2})})
(2,)
>>> blamed(flip, {0: frozenset({2}), 1: frozenset(), 2: frozenset()})
()
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field

from condottiere import crypto
from condottiere.crypto import BoxKey, BoxSecret, Context, Dealing

__all__ = ["Coin", "Flip", "blamed", "box_secret_of"]

_CONTEXT_DOMAIN = b"condottiere/v1/coin-escrow\0"
_BOX_DOMAIN = b"condottiere/v1/coin-box\0"


@dataclass(frozen=True)
class Flip:
    """One fair choice (``attempt`` counts the times it was started again, which the coin
    itself never does)."""

    choice: int
    """The engine's count of choices made before this one."""
    attempt: int
    purpose: str
    options: tuple[int, ...]
    """The seats among which the choice is made."""
    committers: tuple[int, ...]

    @property
    def label(self) -> bytes:
        """What the values of this flip, and no other, are bound to."""
        return f"choice {self.choice}, attempt {self.attempt}: {self.purpose}".encode()

    @property
    def escrowed(self) -> bool:
        """Whether the committers escrow their values (three or more of them)."""
        return len(self.committers) >= crypto.MIN_BACKUP_SEATS

    def context(self, table_id: bytes, dealer: int) -> Context:
        """What ``dealer``'s escrow of this flip is bound to (its seat: its committer index)."""
        bound = hashlib.sha256(_CONTEXT_DOMAIN + table_id + b"\0" + self.label).digest()
        return Context(bound, 0, self.committers.index(dealer))

    def outcome(self, table_id: bytes, values: Mapping[int, int]) -> int:
        """The chosen seat, from every committer's value (by seat)."""
        ordered = [values[seat] for seat in self.committers]
        return self.options[crypto.outcome(table_id, self.label, len(self.options), ordered)]


def box_secret_of(flip: Flip, value: int) -> BoxSecret:
    """A committer's box secret for ``flip``, derived from its value (so nothing more is kept;
    publishing it tells nothing of the value, a hash's preimage)."""
    seed = _BOX_DOMAIN + flip.label + b"\0" + crypto.encode_scalar(value)
    return BoxSecret(hashlib.sha256(seed).digest())


@dataclass
class Coin:
    """What a table holds of one flip: commitments and box keys (once every commitment is
    in), dealings (once every escrow is in), and the pieces of withheld values that closes
    opened."""

    flip: Flip
    commitments: dict[int, bytes] = field(default_factory=dict)
    box_keys: dict[int, BoxKey] = field(default_factory=dict)
    dealings: dict[int, Dealing] = field(default_factory=dict)
    pieces: dict[int, dict[int, int]] = field(default_factory=dict)
    """Seat of a value -> seat of a holder -> that holder's piece of it, checked."""

    @property
    def escrow_complete(self) -> bool:
        return self.flip.escrowed and len(self.dealings) == len(self.flip.committers)

    def open_pieces(
        self, table_id: bytes, closer: int, secret: bytes, missing: frozenset[int]
    ) -> None:
        """Take ``closer``'s pieces of the values of ``missing`` from its box secret;
        ``crypto.VerificationError`` naming the seat to blame (by seat, not committer index)
        when the secret is not the one of its box key, or a piece does not open or check."""
        try:
            box = BoxSecret(secret)
        except ValueError:
            raise crypto.VerificationError(closer, "its box secret is not 32 bytes") from None
        if box.public != self.box_keys[closer]:
            raise crypto.VerificationError(closer, "its box secret is not its box key's")
        recipient = self.flip.committers.index(closer)
        for seat in sorted(missing):
            context = self.flip.context(table_id, seat)
            dealer_key = self.commitments[seat]
            try:
                piece = crypto.open_piece(
                    self.dealings[seat], dealer_key, box, recipient, context
                )
            except crypto.VerificationError as error:
                raise crypto.VerificationError(seat, str(error).split(": ", 1)[1]) from None
            self.pieces.setdefault(seat, {})[closer] = piece

    def opened(self, seat: int) -> int | None:
        """``seat``'s value opened from its escrow, once every other committer's piece is
        in; None before."""
        pieces = self.pieces.get(seat, {})
        holders = [other for other in self.flip.committers if other != seat]
        if not self.flip.escrowed or any(holder not in pieces for holder in holders):
            return None
        by_index = {self.flip.committers.index(h): pieces[h] for h in holders}
        return crypto.recover_value(
            self.commitments[seat], by_index, self.flip.committers.index(seat)
        )


def blamed(flip: Flip, closes: Mapping[int, frozenset[int]]) -> tuple[int, ...]:
    """The committers blamed for withholding: each named missing by a strict majority of the
    other committers' closes (``closes``: committer -> the seats its first close names). A
    count that only grows, so a blame, once reached, stays. A close naming its own seat or a
    seat that is no committer counts for nothing against it.
    """
    committers = set(flip.committers)
    majority = (len(committers) - 1) // 2 + 1
    return tuple(
        seat
        for seat in flip.committers
        if sum(
            seat in missing
            for closer, missing in closes.items()
            if closer in committers and closer != seat
        )
        >= majority
    )
