"""The ``Controller`` gRPC service: a peer's :class:`~condottiere.peer.controller.Controller` for
programs in any language, served to the peer's owner only.

It listens on 127.0.0.1, on a port of its own (the one this data directory used before when it
is free), and refuses with ``UNAUTHENTICATED`` every call that does not carry the data
directory's token (:mod:`condottiere.peer.access`). ``Watch`` streams
:class:`~condottiere.peer.controller.Snapshot` after snapshot as ``Update`` messages, each with the
table's events since the previous one; ``Submit``, ``Chat`` and ``Leave`` are the controller's own
calls. The address is also written to ``DATA/controller.address`` while the peer runs, so that a
program given only the data directory finds both.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import grpc

from condottiere.interface import SeatView, game_named
from condottiere.peer.access import TOKEN_FILE, carries_token, owner_token
from condottiere.peer.controller import Controller, Snapshot
from condottiere.peer.driver import Refusal, TableEvent
from condottiere.v1 import controller_pb2, controller_pb2_grpc

if TYPE_CHECKING:
    from condottiere.peer.store import Store

__all__ = ["ADDRESS_FILE", "CONTROLLER_HOST", "ControllerServer", "update_of"]

CONTROLLER_HOST = "127.0.0.1"
ADDRESS_FILE = "controller.address"
_SERVER_OPTIONS = [("grpc.so_reuseport", 0), ("grpc.max_receive_message_length", 64 * 1024)]
_PORT_SETTING = "controller_port"

_Context = grpc.aio.ServicerContext[Any, Any]


def _seat(seat: int | None) -> int:
    return -1 if seat is None else seat


def update_of(
    snapshot: Snapshot,
    events: Sequence[TableEvent],
    now: float,
    refusals: Sequence[Refusal] = (),
) -> controller_pb2.Update:
    """The ``Update`` message of ``snapshot`` with ``events`` and ``refusals`` (those new to
    its stream); ``now`` is ``time.monotonic()``, to say how long the table has waited."""
    update = controller_pb2.Update(
        controller=controller_pb2.CONTROLLER_VERSION_CURRENT,
        game=snapshot.game,
        table_name=snapshot.table_name,
        edition=snapshot.edition,
        seats=snapshot.seats,
        seat=_seat(snapshot.seat),
        players=[
            controller_pb2.Player(
                seat=_seat(p.seat), name=p.name, fingerprint=p.fingerprint, address=p.address
            )
            for p in snapshot.players
        ],
        stage=snapshot.stage,
        step=snapshot.step,
        events=[controller_pb2.Event(kind=e.kind, text=e.text, seat=_seat(e.seat)) for e in events],
        my_turn=snapshot.my_turn,
        audited=snapshot.audited,
        record_hash=snapshot.record_hash,
        refusals=[
            controller_pb2.Refusal(
                reason=r.reason.value, detail=r.detail, seat=_seat(r.seat), evidence=r.evidence
            )
            for r in refusals
        ],
    )
    waiting = snapshot.waiting
    if waiting is not None:
        update.waiting.CopyFrom(
            controller_pb2.Waiting(
                kind=waiting.kind or "",
                seats=waiting.seats,
                text=waiting.text,
                seconds=max(0.0, now - waiting.since),
                deadline=waiting.deadline or 0,
            )
        )
    if snapshot.progress is not None:
        done, total = snapshot.progress
        update.progress.CopyFrom(controller_pb2.Progress(done=done, total=total))
    outcome = snapshot.outcome
    if outcome is not None:
        update.outcome.CopyFrom(
            controller_pb2.Outcome(
                kind=outcome.kind.value, winners=outcome.winners, how=outcome.how
            )
        )
    halt = snapshot.halt
    if halt is not None:
        update.halt.CopyFrom(
            controller_pb2.Halt(
                detail=halt.detail,
                seat=_seat(halt.seat),
                reason="" if halt.reason is None else halt.reason.value,
                evidence=halt.evidence,
            )
        )
    if snapshot.view is not None:
        update.view.CopyFrom(_view_of(snapshot.game, snapshot.view))
    return update


def _view_of(game: str, view: SeatView) -> controller_pb2.View:
    """The ``View`` of ``view``: what every game has, and ``game``'s own part (the message its
    rules make of ``view``, of a type the game's own .proto defines) packed in ``View.detail``."""
    message = controller_pb2.View(
        phase=view.phase,
        to_act=_seat(view.to_act),
        legal_moves=[str(move) for move in view.legal_moves],
    )
    message.detail.Pack(game_named(game).view_message(view))
    return message


class ControllerService(controller_pb2_grpc.ControllerServicer):
    """The gRPC face of one peer's :class:`Controller`."""

    def __init__(self, controller: Controller) -> None:
        self._controller = controller

    async def Watch(
        self, request: controller_pb2.WatchRequest, context: _Context
    ) -> AsyncIterator[controller_pb2.Update]:
        refused = 0
        async with contextlib.aclosing(self._controller.updates()) as updates:
            async for snapshot, events in updates:
                refusals, refused = snapshot.refusals[refused:], len(snapshot.refusals)
                yield update_of(snapshot, events, time.monotonic(), refusals)
                if snapshot.final:
                    return

    async def Submit(
        self, request: controller_pb2.SubmitRequest, context: _Context
    ) -> controller_pb2.SubmitReply:
        try:
            reason = await self._controller.submit(request.move)
        except RuntimeError as exc:  # no table yet
            reason = str(exc)
        return controller_pb2.SubmitReply(applied=reason is None, reason=reason or "")

    async def Chat(
        self, request: controller_pb2.ChatRequest, context: _Context
    ) -> controller_pb2.ChatReply:
        await self._on_table(context, self._controller.chat(request.text))
        return controller_pb2.ChatReply()

    async def Leave(
        self, request: controller_pb2.LeaveRequest, context: _Context
    ) -> controller_pb2.LeaveReply:
        await self._on_table(context, self._controller.leave(request.reason))
        return controller_pb2.LeaveReply()

    async def _on_table(self, context: _Context, call: Awaitable[None]) -> None:
        try:
            await call
        except ValueError as exc:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        except RuntimeError as exc:
            await context.abort(grpc.StatusCode.FAILED_PRECONDITION, str(exc))


class _OwnerOnly(grpc.aio.ServerInterceptor):
    """Refuses, with ``UNAUTHENTICATED``, every call that does not carry the owner's token."""

    def __init__(self, token: str) -> None:
        self._token = token

    async def intercept_service(
        self,
        continuation: Callable[
            [grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler[Any, Any] | None]
        ],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler[Any, Any] | None:
        handler = await continuation(handler_call_details)
        if handler is None or carries_token(handler_call_details.invocation_metadata, self._token):
            return handler
        return _refusing(handler)


_REFUSAL = (
    "this call needs the token of the peer's data directory, as the metadata "
    "'authorization: Bearer TOKEN' (the token is in DATA/" + TOKEN_FILE + ")"
)


def _refusing(handler: grpc.RpcMethodHandler[Any, Any]) -> grpc.RpcMethodHandler[Any, Any]:
    """A handler of the same shape as ``handler`` that refuses the call."""

    async def refuse(request: Any, context: _Context) -> Any:
        await context.abort(grpc.StatusCode.UNAUTHENTICATED, _REFUSAL)

    async def refuse_stream(request: Any, context: _Context) -> AsyncIterator[Any]:
        await context.abort(grpc.StatusCode.UNAUTHENTICATED, _REFUSAL)
        yield  # pragma: no cover  (makes this an async generator)

    if handler.response_streaming:
        return grpc.unary_stream_rpc_method_handler(
            refuse_stream, request_deserializer=handler.request_deserializer
        )
    return grpc.unary_unary_rpc_method_handler(
        refuse, request_deserializer=handler.request_deserializer
    )


class ControllerServer:
    """The controller service of one peer, on 127.0.0.1; :meth:`start`, then :meth:`stop`."""

    def __init__(self, controller: Controller, store: Store) -> None:
        self._controller = controller
        self._store = store
        self._server: grpc.aio.Server | None = None
        self.address = ""
        self.token_path: Path = store.directory / TOKEN_FILE

    async def start(self) -> None:
        token = owner_token(self._store.directory)
        server = grpc.aio.server(interceptors=[_OwnerOnly(token)], options=_SERVER_OPTIONS)
        controller_pb2_grpc.add_ControllerServicer_to_server(
            ControllerService(self._controller), server
        )
        port = self._bind(server)
        await server.start()
        self._server = server
        self.address = f"{CONTROLLER_HOST}:{port}"
        self._store.set_setting(_PORT_SETTING, str(port).encode())
        (self._store.directory / ADDRESS_FILE).write_text(self.address + "\n")

    def _bind(self, server: grpc.aio.Server) -> int:
        previous = self._store.setting(_PORT_SETTING)
        for port in ([int(previous)] if previous is not None else []) + [0]:
            try:
                bound = server.add_insecure_port(f"{CONTROLLER_HOST}:{port}")
            except RuntimeError:
                bound = 0
            if bound:
                return bound
        raise OSError(f"cannot listen on {CONTROLLER_HOST} for the controller service")

    async def stop(self) -> None:
        (self._store.directory / ADDRESS_FILE).unlink(missing_ok=True)
        if self._server is not None:
            await self._server.stop(grace=0.2)
            self._server = None
