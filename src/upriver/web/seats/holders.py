"""Seats and who holds them: secret tokens, invites, a joining person's name, and the connections.

A table's row keeps one secret invite token per human seat and a ``seat_key`` that never
leaves the server. When a person joins a seat (event version ``v``), the seat's token
becomes ``HMAC(seat_key, "seat:<seat>:<v>")``: the invite link opens nothing any more
(so the host, who saw every invite, cannot take a seat a person holds), and the new
token goes only to that person's connection, in its state message, for their page to keep
(and to open the seat in a second tab). The creator may revoke an open seat's invite: its
token becomes ``HMAC(seat_key, "invite:<seat>:<v>")``. Both are derived from the stored
events, so a restarted server knows every token without storing new secrets.
"""

from __future__ import annotations

import asyncio
import base64
import collections
import dataclasses
import hashlib
import hmac
import re
from collections.abc import Sequence

from upriver.names import PlayerNameError, compared, player_name, quoted, unique_name

__all__ = [
    "CLOSE_BAD_TOKEN",
    "CLOSE_TOO_SLOW",
    "Connection",
    "bot_label",
    "derived_token",
    "same_token",
    "seat_name",
    "unlabelled",
]

CLOSE_BAD_TOKEN = 4403
"""WebSocket close code: a token (or an origin) that opens no seat, or a seat someone else took."""
CLOSE_TOO_SLOW = 1008
"""WebSocket close code (policy violation): a client that does not read what it is sent."""

_BOT_LABEL = re.compile(r"\(\s*[\w-]+\s*\)\s*$")


def seat_name(value: object, seat: int, taken: Sequence[str | None], bot_kinds: Sequence[str]) -> str:
    """The name a person may take ``seat`` under: :func:`upriver.names.player_name`, unlike every
    other name at the table (:func:`upriver.names.unique_name`), and not looking like a bot's label
    (a name ending in a parenthesised word, as "Dee (basic)", also once compared as names are:
    :func:`upriver.names.compared`, so no fullwidth brackets or invisible characters make it another).

    :raises PlayerNameError: why the name may not be used.
    """
    name = player_name(value, seat)
    if _BOT_LABEL.search(compared(name)):
        raise PlayerNameError(
            f"{quoted(name)} looks like a bot's label (a name ending in a word in brackets, "
            f"such as '(basic)'; the bots are {', '.join(bot_kinds)}): choose a name without one",
            reason="bot label",
            seat=seat,
        )
    return unique_name(name, seat, taken)


def unlabelled(name: str) -> str:
    """``name`` without a bot's label at its end ("Bob (basic)" → "Bob"); a name without one as it is."""
    return _BOT_LABEL.sub("", name).strip() or name


def bot_label(name: str, kind: str) -> str:
    """The name a bot of ``kind`` sits under: ``name`` (a saved game's player, perhaps already
    labelled as a bot of any kind) with exactly one label, its kind's ("Bob (basic)")."""
    return f"{unlabelled(name)} ({kind})"


def derived_token(key: str, purpose: str, seat: int, version: int) -> str:
    """The secret token of ``seat`` after event ``version`` (``purpose``: ``seat`` or ``invite``)."""
    digest = hmac.new(key.encode(), f"{purpose}:{seat}:{version}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:16]).decode().rstrip("=")


def same_token(known: str | None, token: str | None) -> bool:
    """Whether ``token`` is ``known``, in constant time; any text (non-ASCII too) is compared safely."""
    if not known or not token or not token.isascii():
        return False
    return hmac.compare_digest(known.encode(), token.encode())


@dataclasses.dataclass(eq=False)
class Connection:
    """One WebSocket client: its seat (``None``: a spectator), its token, what it still has to be sent."""

    seat: int | None
    token: str | None = None
    limit: int = 100
    address: str = "?"
    """The client's address, as the server's other per-address limits count it (hints are capped by it)."""
    """How many messages may wait for a client that does not read; one more and it is disconnected."""
    wake: asyncio.Event = dataclasses.field(default_factory=asyncio.Event)
    outbox: collections.deque[str] = dataclasses.field(default_factory=collections.deque)
    dirty: bool = True
    sheet_sent: int = -1
    """The round count of the last score sheet sent, so an unchanged sheet is not sent again."""
    closing: int | None = None
    """A close code once the connection must end (its seat taken by someone else, or too slow)."""

    def push(self, text: str) -> None:
        """Queue a message (an error) to be sent before the next state; over the limit, disconnect."""
        if self.closing is not None:
            return
        if len(self.outbox) >= self.limit:
            self.outbox.clear()  # its memory goes now, not when the client finally reads
            self.closing = CLOSE_TOO_SLOW
        else:
            self.outbox.append(text)
        self.wake.set()

    def refresh(self) -> None:
        """Ask the writer to send the newest state."""
        self.dirty = True
        self.wake.set()

    def close(self, code: int, farewell: str | None = None) -> None:
        """End the connection after sending ``farewell`` (an error message), whatever else is queued."""
        self.outbox.clear()
        if farewell is not None:
            self.outbox.append(farewell)
        self.closing = code
        self.wake.set()
