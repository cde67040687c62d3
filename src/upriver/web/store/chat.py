"""A table's chat lines in the store: the ``chat`` table, beside the events and never among them.

A line is numbered from 1 per table (``n``) as it is stored: the insert takes the table's
last number plus one in the same statement, so two server processes storing at once meet
the primary key and the second tries again with the next number. Chat is not the game: a
line never enters the game record, and replaying the events never reads it.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Mapping

from upriver.database import Database, DuplicateKeyError, StoreError

__all__ = ["ChatLine", "add_line", "lines"]

_ATTEMPTS = 5
"""How many numbers a line tries when other processes store lines at the same table at once."""

_ADD = """
INSERT INTO chat (table_id, n, at, seat, name, kind, text, event, facts)
SELECT ?, COALESCE(MAX(n), 0) + 1, ?, ?, ?, ?, ?, ?, ? FROM chat WHERE table_id = ?
RETURNING n
"""
_COLUMNS = "n, at, seat, name, kind, text, event, facts"


@dataclasses.dataclass(frozen=True, slots=True)
class ChatLine:
    """One line of a table's chat: a person's text (``kind`` ``text``) or the table's notice
    (``kind`` ``system``: ``event`` and its ``facts``, such as ``{"seat": 2, "by": 0}``)."""

    n: int
    at: float
    seat: int | None
    name: str
    kind: str
    text: str
    event: str | None = None
    facts: Mapping[str, object] = dataclasses.field(default_factory=dict)

    def json(self) -> dict[str, object]:
        """The line as a ``chat`` message carries it."""
        return {
            "n": self.n,
            "at": self.at,
            "seat": self.seat,
            "name": self.name,
            "kind": self.kind,
            "text": self.text,
            "event": self.event,
            "facts": dict(self.facts),
        }


def _line(row: tuple[object, ...]) -> ChatLine:
    n, at, seat, name, kind, text, event, facts = row
    return ChatLine(
        int(n),  # type: ignore[call-overload]
        float(at),  # type: ignore[arg-type]
        None if seat is None else int(seat),  # type: ignore[call-overload]
        str(name),
        str(kind),
        str(text),
        None if event is None else str(event),
        json.loads(str(facts)) if facts else {},
    )


def add_line(
    db: Database,
    table_id: str,
    *,
    seat: int | None,
    name: str,
    kind: str,
    text: str,
    event: str | None = None,
    facts: Mapping[str, object] | None = None,
    at: float | None = None,
) -> ChatLine:
    """Store a line as ``table_id``'s next; the line as stored, with its number.

    :raises StoreError: the database failed, or no such table; nothing was written.
    """
    when = time.time() if at is None else at
    facts_text = json.dumps(dict(facts or {}))
    for _ in range(_ATTEMPTS):
        try:
            with db.transaction() as tx:
                rows = tx.fetch(_ADD, (table_id, when, seat, name, kind, text, event, facts_text, table_id))
        except DuplicateKeyError:
            continue  # another process stored that number first
        return ChatLine(int(rows[0][0]), when, seat, name, kind, text, event, dict(facts or {}))
    raise StoreError("other server processes kept storing chat lines first")


def lines(db: Database, table_id: str, *, last: int = 100, after: int | None = None) -> list[ChatLine]:
    """A table's lines in order: the ``last`` ones, or (``after``) every one numbered above it."""
    if after is not None:
        rows = db.fetch(
            f"SELECT {_COLUMNS} FROM chat WHERE table_id = ? AND n > ? ORDER BY n", (table_id, after)
        )
        return [_line(row) for row in rows]
    rows = db.fetch(
        f"SELECT {_COLUMNS} FROM chat WHERE table_id = ? ORDER BY n DESC LIMIT ?", (table_id, last)
    )
    return [_line(row) for row in reversed(rows)]
