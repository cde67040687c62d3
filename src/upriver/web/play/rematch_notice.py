"""The ``rematch`` message: how the connections of a finished table are told of its rematch.

It lives apart from :mod:`upriver.web.play.rematch` (the HTTP routes, over the manager) so that the
manager's following of other server processes (:mod:`upriver.web.cluster.following`) can tell its own
connections of a rematch another process made, in the same words as the process that made it.

Each connection is told only its own way in: a seat's connection its own seat's link in the new
table, a spectator's (or a bot's seat's) the new table's spectator link. A seat's token opens that
seat and no other, so no seat ever learns another's link.
"""

from __future__ import annotations

import json

from upriver.web.play.table import Table

__all__ = ["rematch_answer", "rematch_link", "tell_rematch"]


def rematch_link(base_url: str, new: Table, seat: int | None) -> str:
    """The link into rematch ``new`` for ``seat`` of the finished table: that seat's own (its invite
    while open, its seat's token once taken), a bot's seat or a spectator gets the spectator link."""
    token = new.tokens[seat] if seat is not None else None
    if token is None:
        return f"{base_url}/t/{new.id}"
    return f"{base_url}/t/{new.id}#token={token}"


def rematch_answer(
    base_url: str, finished: Table, new: Table, seat: int | None, *, created: bool
) -> dict[str, object]:
    """What a seat (or a spectator, ``seat`` ``None``) is told about the rematch: the new table, who
    started it, its own link; ``created``: this request made it."""
    by = new.creator
    return {
        "table": new.id,
        "seat": seat,
        "by": None if by is None else finished.names[by],
        "by_seat": by,
        "url": rematch_link(base_url, new, seat),
        "created": created,
    }


def tell_rematch(base_url: str, finished: Table, new: Table) -> None:
    """Send every connection of ``finished`` a ``rematch`` message with its own seat's link to ``new``."""
    for conn in finished.connections:
        message = {
            "type": "rematch",
            "v": finished.version,
            **rematch_answer(base_url, finished, new, conn.seat, created=False),
        }
        conn.push(json.dumps(message, separators=(",", ":")))
