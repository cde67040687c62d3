"""How many connections a table admits: spectators per table, and connections per seat.

A seat's token is a secret, but whoever holds it may open the seat in as many tabs as they
like; each connection costs the server a writer and a state message per change. So one seat
opens at most :attr:`upriver.web.limits.Limits.seat_connections` at once (eight by default: a
person's phone, laptop and a few tabs), and a table has at most
:attr:`~upriver.web.limits.Limits.spectators` spectators. The next one is told why and closed
with :data:`CLOSE_FULL`; those connected already are not disturbed. Counted in this server
process (with ``--workers``, each process counts its own).
"""

from __future__ import annotations

from collections.abc import Iterable

from upriver.web import protocol
from upriver.web.limits import Limits
from upriver.web.seats import Connection

__all__ = ["CLOSE_FULL", "refusal"]

CLOSE_FULL = 4429
"""WebSocket close code: the table has as many spectators, or the seat as many connections, as allowed."""


def refusal(
    connections: Iterable[Connection], seat: int | None, limits: Limits, version: int = 0
) -> str | None:
    """The ``error`` message (rule ``spectators`` or ``connections``, facts ``limit``) refusing one more
    connection for ``seat`` (``None``: a spectator) beside ``connections``; ``None`` when it is admitted."""
    same = sum(conn.seat == seat for conn in connections)
    if seat is None and same >= limits.spectators:
        sentence = f"this table has {limits.spectators} spectators, this server's limit: try again later"
        return protocol.error_message(version, "spectators", sentence, facts={"limit": limits.spectators})
    if seat is not None and same >= limits.seat_connections:
        sentence = (
            f"seat {seat} is open in {limits.seat_connections} connections already, this server's limit: "
            "close one of its tabs or devices and try again"
        )
        facts = {"limit": limits.seat_connections}
        return protocol.error_message(version, "connections", sentence, seat=seat, facts=facts)
    return None
