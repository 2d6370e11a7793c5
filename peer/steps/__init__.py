"""The table's steps, one rule per kind, grouped by sub-protocol.

The table (:mod:`condottiere.peer.driver`) walks through these steps:

====================  ==========================================================
step                  who, and what
====================  ==========================================================
1 table               the creator defines the table (its first entry)
2 seating             the creator seats the first joiners (joins are free entries)
3 ready               every seat agrees to the seating
4 keys                every seat publishes its key for each deck, with a proof (and, at
                      three seats or more, its box key)
dealings              (three seats or more) every seat: its deck secrets backed up among the
                      others (Feldman VSS, pieces sealed to each recipient)
piece_checks          every seat: the dealers whose piece for it does not open or check
piece_answers         a dealer complained about: the piece and its box's ephemeral secret
                      (then the dealer, or the complainer of a false complaint, is blamed)
shuffle               one seat re-encrypts and permutes a deck, with a proof
shares                every seat but a deal's owner: decryption shares of its cards
hand_shown            the seat whose hand the game shows to one other seat (the viewer):
                      for each hidden card, its part sealed to the viewer with a proof, the
                      face-up ones named (with ``handed``, the cards go to the viewer's hand)
hand_proof            the seat whose hidden hand the game asks to prove that it holds a card
                      of a set: a proof over its hidden cards that one of them is, showing
                      none (nothing when a face-up card of its hand is of the set)
coin_commit           every committer: a commitment to a value (a fair choice)
coin_escrow           every committer (three or more): its value shared among the others
coin_reveal           every committer: its value (see :mod:`condottiere.peer.coin`)
move                  the seat the engine waits for: a move and the cards it shows
stand_in              every seat still at the table, at a deal under way when a seat left: its
                      parts of the leaver's shares of the cards dealt, with proofs
rekey                 every seat still at the table, right after a seat left: its parts of the
                      leaver's shares of every card of a deck still in play that needs them
                      (the pile), with proofs; then no card needs the leaver again
redealing             (three seats or more still there) every seat, right after a seat left:
                      its secret backed up again among them alone, then piece_checks (and
                      piece_answers) as for the first backup
search_blinding       every seat still at the table, when the game searches a pile for a named
                      card: its blinding of every card still in the pile, with proofs
search_opening        every seat still at the table: its decryption shares of the combined
                      blindings, with proofs (and its parts of a seat out's shares)
audit                 every seat, at the end: its deck secrets, to audit the game
====================  ==========================================================

Every kind of step the table waits for is one :class:`~condottiere.peer.steps.base.StepRule`,
and the rule module is the one place that knows it: the module declares the kind
(``MOVE = StepKind("move")`` in ``moves``: a typed value the rest of the code names by that
constant), and registers the rule (``register``), which holds its words and waiting text, its
deadline and progress, how this seat makes its entry, how an entry is checked (a verdict:
accept, refuse with a typed reason, or not yet), what comes once it is complete, and which of
the game's waiting values (``GameState.waiting``: ``SeatToMove``, ``Deal``, ``Choice``, ...) it
starts the table's steps for (``StepRule.answers`` and ``StepRule.start``). Whom a step waits
for is set where the step is made. The kinds there are, are the kinds of the rules registered
(:data:`~condottiere.peer.steps.base.RULES`); every module of this package is imported with it,
so a new kind is a new rule module (and its entry's body in ``log.proto``), with no other edit.

The table's fold (:mod:`condottiere.peer.driver`) keeps only the loop: it takes an entry, asks
the step's rule, applies the verdict, and asks the one scheduler
(:mod:`~condottiere.peer.steps.schedule`) for the next step when the game goes on; the
scheduler hands the game's waiting value to the rule that answers its type.

==================  =================================================================
module              steps
==================  =================================================================
``base``            a step kind, a step, a verdict, what follows a step, a rule's shape,
                    the registry of the rules
``seating``         the lobby door, the creator's seating, every seat's ready
``keys``            keys, the backups of the deck secrets, their checks and complaints
``deal``            the shuffle chain and the decryption shares of a deal (answers ``Deal``)
``moves``           a move, a hand shown to one seat, a hand's proof of what it holds
                    (answer ``SeatToMove``, ``ShowHand``, ``HandHolds``)
``searches``        the blinding and the opening of a search of a draw pile (answers
                    ``SearchDeck``)
``coins``           the commitments, escrows and reveals of a fair choice, and closes
                    (answers ``Choice``)
``leavers``         silence votes, seats put out or freed, the stand-in, the re-key
``audit``           the audit at the end, and the evidence of a cheat
``schedule``        which step the game asks for next
==================  =================================================================
"""

from __future__ import annotations

import importlib
import pkgutil

from condottiere.peer.steps.base import (
    ACCEPT,
    NOT_YET,
    RULES,
    Accept,
    After,
    Halt,
    Next,
    NotYet,
    Refusal,
    Refuse,
    Step,
    StepKind,
    StepRule,
    TableEvent,
    Verdict,
    Work,
    register,
    rule_answering,
    rule_of,
)

__all__ = [
    "ACCEPT",
    "NOT_YET",
    "RULES",
    "Accept",
    "After",
    "Halt",
    "Next",
    "NotYet",
    "Refusal",
    "Refuse",
    "Step",
    "StepKind",
    "StepRule",
    "TableEvent",
    "Verdict",
    "Work",
    "register",
    "rule_answering",
    "rule_of",
]

for _module in pkgutil.iter_modules(__path__):  # every rule module registers its rules
    importlib.import_module(f"{__name__}.{_module.name}")
