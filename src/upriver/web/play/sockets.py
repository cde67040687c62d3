"""A table's WebSocket: each client's reader and writer, and what each client message does.

:func:`serve_socket` keeps one connection sent its seat's newest state and reads its messages until
it goes away; :func:`handle_message` turns one message into the table's action (through the
:class:`~upriver.web.play.tables.Manager`'s one path of events) or an ``error`` reply. A message acts
only for its connection's own seat; a refusal changes nothing. The messages are those of
:mod:`upriver.web.play.protocol`.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import assert_never

from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect

from upriver.errors import IllegalActionError
from upriver.web.hosting import metrics
from upriver.web.play import protocol
from upriver.web.play.hints import ask_hint
from upriver.web.play.messages import (
    Back,
    Bid,
    Bot,
    Chat,
    Claim,
    Confirm,
    Handover,
    Hint,
    Join,
    Leave,
    OwnSeatMessage,
    Play,
    ProtocolError,
    React,
    Reinvite,
    Rekey,
    Revoke,
    Sync,
    parse_client,
)
from upriver.web.play.tables import CommitError, Manager, Table, TableRefusalError
from upriver.web.seats.holders import CLOSE_TOO_SLOW, Connection
from upriver.web.social.talk import Social

__all__ = ["handle_message", "serve_socket"]

_OFFERED_ONLY = (Join, Sync, Chat, Revoke, Bot)
"""What a link that only offers its seat may send (the host's two are refused as the host's)."""


async def serve_socket(
    manager: Manager, table: Table, websocket: WebSocket, conn: Connection, social: Social
) -> None:
    """Read a client's messages and keep it sent the newest state, until it goes away.

    A client whose queued replies reach its limit (it does not read) is disconnected and
    its queue dropped; a connection whose seat someone else took is told so and closed.
    Its coming and going is the table's presence, and it gets the chat's last lines at once
    (:mod:`upriver.web.social.talk`).
    """
    conn.refresh()  # the first state goes out at once
    greeting = social.connected(table, conn)
    if greeting is not None:
        conn.push(greeting)
    table.connections.add(conn)
    closed = asyncio.Event()

    async def write() -> None:
        while conn.closing is None or conn.outbox:
            await conn.wake.wait()
            conn.wake.clear()
            while conn.outbox:
                await websocket.send_text(conn.outbox.popleft())
            if conn.dirty and conn.closing is None:
                conn.dirty = False
                await websocket.send_text(table.state(conn, manager.base_url))
        with contextlib.suppress(Exception):
            await websocket.close(conn.closing)
        closed.set()

    writer = asyncio.create_task(write())
    try:
        while conn.closing is None:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            text = frame.get("text")
            if text is None:
                text = (frame.get("bytes") or b"").decode("utf-8", "replace")
            with metrics.timed():  # the event loop's time per message (/metrics)
                handle_message(manager, table, conn, text, social)
        if conn.closing is not None:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(closed.wait(), 2.0)
    except WebSocketDisconnect:
        pass
    finally:
        table.connections.discard(conn)
        social.disconnected(table, conn)
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer
        if conn.closing == CLOSE_TOO_SLOW and not closed.is_set():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(websocket.close(CLOSE_TOO_SLOW), 1.0)


def handle_message(manager: Manager, table: Table, conn: Connection, text: str, social: Social) -> None:
    """Apply one client message, or queue the error reply; a refusal changes nothing."""
    try:
        message = parse_client(text)
    except ProtocolError as error:
        conn.push(
            protocol.error_message(table.version, error.rule, str(error), error.client_id, facts=error.facts)
        )
        return
    if isinstance(message, Sync):
        conn.refresh()
        return
    # A link that offers a seat (an open one, or one the host re-invited) acts once the seat is taken;
    # it may join, sync and chat, and the host's messages are refused as the host's.
    if conn.seat is not None and table.invited(conn.seat) and not isinstance(message, _OFFERED_ONLY):
        conn.push(
            protocol.error_message(
                table.version,
                "join",
                f"take this seat first (join): until then this link only offers seat {conn.seat}",
                message.id,
                seat=conn.seat,
            )
        )
        return
    if isinstance(message, Chat | React):  # spectators too, as the table allows
        social.handle(table, conn, message)
        return
    if isinstance(message, Hint) and conn.seat is None:
        ask_hint(table, conn, message)  # refused to spectators with the hint's own rule
        return
    seat = conn.seat
    if seat is None:
        conn.push(
            protocol.error_message(
                table.version, "spectator", "spectators watch; they cannot act", message.id
            )
        )
        return
    if isinstance(message, OwnSeatMessage) and message.seat is not None and message.seat != seat:
        conn.push(
            protocol.error_message(
                table.version,
                "seat",
                f"this connection holds seat {seat}'s token, not seat {message.seat}'s",
                message.id,
                seat=seat,
            )
        )
        return

    def refused(error: Exception) -> None:
        """Queue the reply to a refused message (at once, or once a move's commit failed)."""
        if isinstance(error, IllegalActionError):  # the engine's refusal
            conn.push(
                protocol.error_message(
                    table.version,
                    error.rule,
                    str(error),
                    message.id,
                    seat=error.seat,
                    facts=error.facts_json(),
                )
            )
        elif isinstance(error, TableRefusalError):  # stale, duplicate, a seat that cannot be taken, …
            conn.push(
                protocol.error_message(
                    table.version, error.rule, str(error), message.id, seat=error.seat, facts=error.facts
                )
            )
            if error.rule == "stale":
                conn.refresh()
        else:
            conn.push(protocol.error_message(table.version, "store", str(error), message.id))

    try:
        match message:
            case Join():
                manager.join(table, seat, message.name, conn, message.proof)
            case Revoke():
                manager.revoke(table, seat, message.seat)
            case Bot():
                manager.give_to_bot(table, seat, message.seat, message.kind)
            case Claim():
                manager.claims.claim(table, seat, message)
            case Confirm():
                manager.standins.confirm(table, seat)
            case Leave():
                manager.standins.leave(table, seat)
            case Back():
                manager.standins.back(table, seat)
            case Rekey():
                manager.links.rekey(table, seat, conn)
            case Reinvite():
                manager.links.reinvite(table, seat, message.seat)
            case Handover():
                manager.standins.handover(table, seat, message.seat)
            case Bid() | Play():
                manager.act(table, seat, message, refused=refused)
            case Hint():
                ask_hint(table, conn, message)
            case _:
                assert_never(message)
    except (IllegalActionError, TableRefusalError, CommitError) as error:
        refused(error)
