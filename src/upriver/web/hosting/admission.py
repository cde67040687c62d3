"""Who is admitted: requests for a host this server answers to, spectators per table, and
connections per seat.

A seat's token is a secret, but whoever holds it may open the seat in as many tabs as they
like; each connection costs the server a writer and a state message per change. So one seat
opens at most :attr:`upriver.web.hosting.limits.Limits.seat_connections` at once (eight by default: a
person's phone, laptop and a few tabs), and a table has at most
:attr:`~upriver.web.hosting.limits.Limits.spectators` spectators. The next one is told why and closed
with :data:`CLOSE_FULL`; those connected already are not disturbed. Counted in this server
process (:func:`refusal`) and, with several processes, across them all in the database they share
(:meth:`upriver.web.social.talk.Social.admit`, over :func:`place`).
"""

from __future__ import annotations

from collections.abc import Iterable

from starlette.types import Receive, Scope, Send

from upriver.web.hosting import guard
from upriver.web.hosting.hosts import CLOSE_BAD_HOST, HostPolicy
from upriver.web.hosting.limits import Limits
from upriver.web.play import protocol
from upriver.web.seats.holders import Connection

__all__ = ["CLOSE_FULL", "full_message", "place", "refusal", "refuse_host"]

CLOSE_FULL = 4429
"""WebSocket close code: the table has as many spectators, or the seat as many connections, as allowed."""


def refusal(
    connections: Iterable[Connection], seat: int | None, limits: Limits, version: int = 0
) -> str | None:
    """The ``error`` message (rule ``spectators`` or ``connections``, facts ``limit``) refusing one more
    connection for ``seat`` (``None``: a spectator) beside ``connections`` (this process's); ``None``
    when it is admitted."""
    same = sum(conn.seat == seat for conn in connections)
    if same >= (limits.spectators if seat is None else limits.seat_connections):
        return full_message(seat, limits, version)
    return None


def place(table_id: str, seat: int | None, limits: Limits) -> tuple[str, int]:
    """The key of the places of ``seat`` (``None``: the spectators) at ``table_id`` across a cluster
    (:mod:`upriver.web.cluster.shared_limits`), and how many there are."""
    if seat is None:
        return f"spectators:{table_id}", limits.spectators
    return f"connections:{table_id}:{seat}", limits.seat_connections


def full_message(seat: int | None, limits: Limits, version: int = 0) -> str:
    """The ``error`` message refusing one more connection for ``seat`` (``None``: a spectator)."""
    if seat is None:
        sentence = f"this table has {limits.spectators} spectators, this server's limit: try again later"
        return protocol.error_message(version, "spectators", sentence, facts={"limit": limits.spectators})
    sentence = (
        f"seat {seat} is open in {limits.seat_connections} connections already, this server's limit: "
        "close one of its tabs or devices and try again"
    )
    facts = {"limit": limits.seat_connections}
    return protocol.error_message(version, "connections", sentence, seat=seat, facts=facts)


async def refuse_host(policy: HostPolicy, scope: Scope, receive: Receive, send: Send) -> None:
    """Answer a request for a host ``policy`` does not allow: HTTP 400 with the API's error shape, or a
    WebSocket accepted only to be told why (an ``error`` message, rule ``host``) and closed with
    :data:`CLOSE_BAD_HOST`."""
    headers = dict(scope.get("headers", []))
    raw = headers.get(b"host")
    sentence = policy.sentence(None if raw is None else raw.decode("latin-1"))
    if scope["type"] == "websocket":
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": protocol.error_message(0, "host", sentence)})
        await send({"type": "websocket.close", "code": CLOSE_BAD_HOST})
        return
    await guard.refusal(sentence, 400, rule="host")(scope, receive, send)
