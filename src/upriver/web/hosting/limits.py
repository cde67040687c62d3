"""The web server's limits, with their defaults: one dataclass that ``upriver serve`` fills in.

It imports nothing but the standard library, so the command line can show the defaults in
``upriver serve --help`` without loading FastAPI or pydantic.
"""

from __future__ import annotations

import dataclasses

__all__ = ["Limits", "RoundsLimitError"]


class RoundsLimitError(ValueError):
    """A game longer than the server plays (:meth:`Limits.check_rounds`); ``field`` names the part of the
    request at fault, ``limit`` the most rounds."""

    def __init__(self, message: str, *, field: str, limit: int) -> None:
        super().__init__(message)
        self.field = field
        self.limit = limit


@dataclasses.dataclass(frozen=True, slots=True)
class Limits:
    """The server's limits; each refusal says which was reached. Defaults are in docs/hosting.md."""

    body_bytes: int = 1_000_000
    """Largest HTTP request body (a whole game record is about 20 KB)."""
    schedule_rounds: int = 100
    """Longest explicit schedule (the longest any preset makes is 34 rounds)."""
    creations_per_minute: int = 30
    """Tables, and separately sheets, one client address may create per minute."""
    spectators: int = 50
    """Spectators connected to one table at once."""
    seat_connections: int = 8
    """Connections one seat's token holds open at once (a person's tabs and devices)."""
    outbox: int = 100
    """Messages queued for a connection that does not read: one more and it is disconnected."""
    archive_after: float = 7 * 24 * 3600.0
    """Seconds after its last event that a finished table is archived (kept in the file, no longer loaded)."""
    sign_ins_per_minute: int = 10
    """Passkey registrations and sign-ins, and recovery codes tried, one client address may start a minute."""
    session_idle_days: float = 30.0
    """Days an account's session (a signed-in browser) lasts without a visit."""

    def check_rounds(self, rounds: int, what: str, field: str) -> None:
        """Refuse a game of more than :attr:`schedule_rounds` rounds, whichever way it comes in: a table's
        or a sheet's schedule, a record continued at a table or kept as a sheet. ``what`` names it.

        >>> Limits(schedule_rounds=100).check_rounds(5_000, "the record", "record")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        upriver.web.hosting.limits.RoundsLimitError: the record has 5,000 rounds: a game has at most ...

        :raises RoundsLimitError: naming ``what`` and the limit, with ``field``.
        """
        if rounds > self.schedule_rounds:
            raise RoundsLimitError(
                f"{what} has {rounds:,} rounds: a game has at most {self.schedule_rounds} rounds on this "
                "server (the longest any preset makes is 34)",
                field=field,
                limit=self.schedule_rounds,
            )
