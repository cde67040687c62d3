"""The web server's limits, with their defaults: one dataclass that ``upriver serve`` fills in.

It imports nothing but the standard library, so the command line can show the defaults in
``upriver serve --help`` without loading FastAPI or pydantic.
"""

from __future__ import annotations

import dataclasses

__all__ = ["Limits"]


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
    outbox: int = 100
    """Messages queued for a connection that does not read: one more and it is disconnected."""
    archive_after: float = 7 * 24 * 3600.0
    """Seconds after its last event that a finished table is archived (kept in the file, no longer loaded)."""
