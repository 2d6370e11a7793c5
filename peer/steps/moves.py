"""Moves and shown hands: the seat the engine waits for plays a move and shows the cards it
shows; a seat the game has show its hand to one other seat seals each hidden card's part to
that viewer, with a proof.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from google.protobuf.message import Message

from condottiere.interface import (
    GameRules,
    GameState,
    HandHolds,
    IllegalMoveError,
    InvalidMoveError,
    SeatToMove,
    ShowHand,
)
from condottiere.peer.dealing import Dealer
from condottiere.peer.entries import LogEntry, Reason, Rejection
from condottiere.peer.lobby import Deadlines, Lobby
from condottiere.peer.steps.base import (
    ACCEPT,
    RuleContext,
    Step,
    StepKind,
    StepRule,
    Verdict,
    register,
)
from condottiere.v1 import log_pb2

MOVE = StepKind("move")
"""The move step: the seat the game waits for plays a move, showing its cards."""
HAND_SHOWN = StepKind("hand_shown")
"""The hand_shown step: a seat shows its hand to one other seat."""
HAND_PROOF = StepKind("hand_proof")
"""The hand_proof step: a seat proves its hidden hand holds a card of a set."""


class Context(RuleContext, Protocol):
    """What the rules of moves and shown hands see of the table."""

    lobby: Lobby
    rules: GameRules
    dealer: Dealer | None
    game: GameState[Any] | None
    hold_forced: bool
    on_move: Callable[[int], None] | None
    step: Step | None
    catching_up: bool

    def forced_move(self) -> int | None: ...

    def _pending(self, author: bytes, step: Step) -> LogEntry | None: ...


class NotNow(ValueError):
    """Why this seat's move is not played now, in a player's words (nothing changes)."""


def submitted(t: Context, text: Any) -> Any:
    """The move this seat's owner submits (its text, or the game's move value), checked: the
    table waits for this seat's move, and the move is legal; :class:`NotNow` says why not."""
    step, game, dealer = t.step, t.game, t.dealer
    if t.halt is not None:
        raise NotNow(f"the table has stopped: {t.halt.detail}")
    if t.catching_up:
        raise NotNow("this seat is taking its own log back from the others first")
    if t.seat in t.out:
        raise NotNow("this seat is out of the game: it may watch, not play")
    if step is None or game is None or dealer is None or step.kind != MOVE:
        raise NotNow("it is not time to move")
    if step.authors != (t.me,) or t._pending(t.me, step) is not None:
        raise NotNow(f"it is not your turn: the table waits for {t.who(step.authors[0])}")
    try:
        move = game.parse_move(str(text))
    except InvalidMoveError as exc:
        raise NotNow(str(exc)) from None
    refused = game.why_illegal(move)
    if refused is not None:
        raise NotNow(refused)
    return move


def forced_turn(t: Context) -> int | None:
    """The turn of this seat's forced move awaited and held (``Table.hold_forced``), or
    None."""
    step, game = t.step, t.game
    if (
        not t.hold_forced
        or t.halt is not None
        or t._quiet
        or step is None
        or game is None
        or step.kind != MOVE
        or step.authors != (t.me,)
        or t._pending(t.me, step) is not None
        or len(game.legal_moves()) != 1
    ):
        return None
    return game.moves_played


def check_hands(t: Context) -> None:
    """The hands the dealer follows agree with the game's (else a bug), before a seat acts."""
    game, dealer = t.game, t.dealer
    assert game is not None and dealer is not None
    dealer.check_hands([game.hand_size(seat) for seat in range(dealer.seats)])


def move_body(game: GameState[Any], dealer: Dealer, move: Any) -> log_pb2.MovePlayed:
    """The entry of ``move`` at this turn, with the cards it shows."""
    return log_pb2.MovePlayed(
        turn=game.moves_played, move=str(move), cards=dealer.moves.show(game.card_flow(move))
    )


class MoveRule(StepRule):
    """The seat the engine waits for: a move and the cards it shows. This seat makes only a
    forced move itself (unless ``Table.hold_forced``); a chosen one comes through
    ``Table.submit``."""

    kind = MOVE
    words = "a move"
    doing = "A move"

    answers = (SeatToMove,)

    def start(self, t: Context, step: Step, waiting: SeatToMove) -> Step | None:
        """A move the game waits for: the step of the seat to move."""
        check_hands(t)
        return step.then(MOVE, t._seat_authors([waiting.seat]))

    def waiting_text(self, t: Context, step: Step, names: str) -> str:
        forced = t.forced_move() is not None
        return f"{names} to move" + (" (its only move: played in a moment)" if forced else "")

    def deadline(self, t: Context, step: Step, deadlines: Deadlines) -> int | None:
        bot = all(author in t.lobby.bots for author in step.authors)
        return deadlines.bot_move if bot else deadlines.move

    def make(self, t: Context, step: Step) -> Message | None:
        game, dealer = t.game, t.dealer
        assert game is not None and dealer is not None
        moves = game.legal_moves()
        if len(moves) != 1 or t.hold_forced:
            return None
        return move_body(game, dealer, moves[0])

    def judge(self, t: Context, step: Step, author: bytes, entry: LogEntry) -> Verdict:
        game, dealer = t.game, t.dealer
        assert game is not None and dealer is not None
        body: log_pb2.MovePlayed = entry.body
        seat = t.seat_of(author)
        assert seat is not None
        if body.turn != game.moves_played:
            raise Rejection(Reason.UNEXPECTED, f"a move for turn {game.moves_played} is awaited")
        try:
            move = game.parse_move(body.move)
        except InvalidMoveError as exc:
            raise Rejection(Reason.ILLEGAL, str(exc)) from None
        flow = game.card_flow(move)
        showing = dealer.moves.check(seat, flow, body.cards)
        try:
            game.play(move, reveal=showing.names if flow.whole_hand else None)
        except IllegalMoveError as exc:
            raise Rejection(Reason.ILLEGAL, str(exc)) from None
        dealer.moves.apply(showing, flow)
        if t.on_move is not None:
            t.on_move(game.moves_played - 1)
        t._tell_game()
        return ACCEPT


class HandShownRule(StepRule):
    """The seat whose hand the game shows to one other seat (the viewer): for each hidden
    card, its part sealed to the viewer with a proof, the face-up ones named (with
    ``handed``, the cards go to the viewer's hand)."""

    kind = HAND_SHOWN
    words = "showing a hand"
    doing = "Showing a hand"
    about = "only the seat it is shown to can read the cards"

    answers = (ShowHand,)

    def start(self, t: Context, step: Step, waiting: ShowHand) -> Step | None:
        """A hand the game shows to one seat: the step of the seat that shows it."""
        check_hands(t)
        return step.then(HAND_SHOWN, t._seat_authors([waiting.seat]), shown=waiting)

    def waiting_text(self, t: Context, step: Step, names: str) -> str:
        viewer = t.who(t.seating[step.shown.viewer]) if step.shown else "another seat"
        return f"{names} to show a hand to {viewer}"

    def make(self, t: Context, step: Step) -> Message | None:
        assert t.dealer is not None and step.shown is not None
        return t.dealer.shown_hands.show(step.shown.viewer)

    def judge(self, t: Context, step: Step, author: bytes, entry: LogEntry) -> Verdict:
        """Check the shown seat's answer (every card of its hand, each hidden one's part
        sealed to the viewer with a proof that verifies), then apply it: the viewer opens
        the cards, the engine is resolved (with the cards where this table may see them), and
        with ``handed`` the cards go to the viewer's hand."""
        game, dealer, shown = t.game, t.dealer, step.shown
        assert game is not None and dealer is not None and shown is not None
        showing = dealer.shown_hands.check(shown.seat, shown.viewer, entry.body)
        opened = dealer.shown_hands.apply(showing, handed=shown.handed)
        if t.seat == shown.seat:
            game.resolve(game.hand(shown.seat))
        elif t.seat == shown.viewer:
            game.resolve(opened)
        else:
            game.resolve(None)
        t._tell_game()
        return ACCEPT


class HandProofRule(StepRule):
    """The seat whose hidden hand the game asks to prove that it holds a card of a set: a
    proof over its hidden cards that one of them is, showing none (nothing when a face-up
    card of its hand is of the set)."""

    kind = HAND_PROOF
    words = "proving what a hand holds"
    doing = "Proving what a hand holds"
    about = "a proof that one of its hidden cards is of the set, showing none"

    answers = (HandHolds,)

    def start(self, t: Context, step: Step, waiting: HandHolds) -> Step | None:
        """A hand the game asks to prove what it holds: the step of its seat."""
        check_hands(t)
        return step.then(HAND_PROOF, t._seat_authors([waiting.seat]), holds=waiting)

    def waiting_text(self, t: Context, step: Step, names: str) -> str:
        return f"{names} to prove what its hand holds"

    def make(self, t: Context, step: Step) -> Message | None:
        assert t.dealer is not None and step.holds is not None
        return t.dealer.hand_proofs.prove(step.holds.cards)

    def judge(self, t: Context, step: Step, author: bytes, entry: LogEntry) -> Verdict:
        """Check the seat's proof that its hidden hand holds a card of the set (a bad or
        missing proof blames it as any bad proof does), then resolve the engine."""
        game, dealer, holds = t.game, t.dealer, step.holds
        assert game is not None and dealer is not None and holds is not None
        dealer.hand_proofs.check(holds.seat, holds.cards, entry.body)
        game.resolve(None)
        t._tell_game()
        return ACCEPT


register(MoveRule(), HandShownRule(), HandProofRule())
