"""The dealer: the game's deals answered by mental-poker decks, and every card followed.

One :class:`crypto.Deck` per physical deck of the game (``GameState.decks``). The game says
where each deal takes its cards (``GameState.pending_draws``: a pile, an epoch, positions) and
what each move does to the mover's hand (``GameState.card_flow``); the dealer maps that onto
deck slots ``(deck, Slot(round, position))``. A :class:`Dealer` is the :class:`~.book.Book` of
the hidden cards with one part per sub-protocol, each in its own module and each reading and
moving the book's cards:

- :mod:`.book`: the decks, the hands, the cards face up, opened or out of the pile;
- :mod:`.keys` (``dealer.keys``): each member's key of every deck;
- :mod:`.shuffles` (``dealer.shuffles``): a pile formed (again) and shuffled in turn;
- :mod:`.shares` (``dealer.shares``): the decryption shares of the cards dealt, and the deals;
- :mod:`.moves` (``dealer.moves``): the cards a move shows, takes back or hands over;
- :mod:`.shown_hands` (``dealer.shown_hands``): a hand shown to one seat alone;
- :mod:`.hand_proofs` (``dealer.hand_proofs``): a hidden hand proved to hold a card of a set;
- :mod:`.searches` (``dealer.searches``): a search of a pile for a named card;
- :mod:`.backups` (``dealer.backups``): the deck secrets backed up among the members, the
  complaints about a piece, new backups right after a seat left, whether a leaver is covered;
- :mod:`.stand_ins` (``dealer.stand_ins``): the seats still there stand in for a leaver's
  shares of a deal under way;
- :mod:`.rekeys` (``dealer.rekeys``): right after a seat left, the seats still there stand in
  for its shares of every card still in play (and a pile formed again is keyed by them alone);
- :mod:`.audit` (``dealer.audit``): the whole game checked from the published secrets.

The dealer is deterministic: every peer, fed the same entries, tracks the same slots. It
checks what others show but decides nothing about the rules: the engine does. Each part's
``make*`` (and ``show``) returns the entry body (``log_pb2``) its ``accept*`` (``check``)
takes, so the step rules (:mod:`condottiere.peer.steps`) pass bodies through and build none of
the deck's; the bodies themselves are built from the crypto objects and read back by
:mod:`condottiere.peer.bodies`.
"""

from __future__ import annotations

from collections.abc import Sequence

from condottiere.peer.dealing.audit import Audit
from condottiere.peer.dealing.backups import Backups
from condottiere.peer.dealing.book import Book, Card
from condottiere.peer.dealing.hand_proofs import HandProofs
from condottiere.peer.dealing.keys import Keys
from condottiere.peer.dealing.moves import Moves, Showing
from condottiere.peer.dealing.rekeys import Rekeys
from condottiere.peer.dealing.searches import Searches
from condottiere.peer.dealing.shares import Shares
from condottiere.peer.dealing.shown_hands import HandShowing, ShownHands
from condottiere.peer.dealing.shuffles import Shuffles
from condottiere.peer.dealing.stand_ins import StandIns

__all__ = ["Card", "Dealer", "HandShowing", "Showing"]


class Dealer(Book):
    """The decks of one game as seen by ``seat`` (None: a peer that only watches): the book
    of its cards, and one part per sub-protocol over it."""

    def __init__(
        self,
        table_id: bytes,
        seats: int,
        seat: int | None,
        decks: Sequence[Sequence[str]],
        secrets: Sequence[int] | None = None,
        members: Sequence[int] | None = None,
    ) -> None:
        super().__init__(table_id, seats, seat, decks, secrets, members)
        self.keys = Keys(self)
        self.shuffles = Shuffles(self)
        self.shares = Shares(self)
        self.moves = Moves(self)
        self.shown_hands = ShownHands(self)
        self.hand_proofs = HandProofs(self)
        self.backups = Backups(self)
        self.searches = Searches(self, self.backups)
        self.stand_ins = StandIns(self, self.backups, self.shares)
        self.rekeys = Rekeys(self, self.backups)
        self.audit = Audit(self)
