"""A structured event log: one JSON line per thing that happened at the tables, with no secret in it.

``upriver serve --event-log`` writes the lines to standard error (:func:`enable`), for journald or a
log shipper, beside the access log (:mod:`upriver.web.hosting.accesslog`); without it nothing is formatted.
Every line is ``{"at": unix seconds, "worker": process id, "event": …}`` and the event's facts:

- ``started`` / ``stopped``: this server process began or ended serving;
- ``created``: a table, with its ``table`` id and its seats' ``kinds`` (``human`` or a bot's kind);
- ``applied``: an event this process committed and applied: ``table``, ``version``, ``seat`` and
  ``kind`` (``join``, ``bot``, ``revoke``, ``bid``, ``play``, ``claim``, ``standin`` — the seat's
  person left and a stand-in plays —, ``back``, …); a card's ``value`` too, and a bid's, since every
  seat sees it once made — but under simultaneous bidding ("closed fists") no seat sees another's bid
  until every seat has bid, so such a bid's line says only ``"sealed": true``;
- ``revealed``: the simultaneous bids of a round, once the last is made: ``table``, ``version`` (the
  last bid's), ``round`` and ``bids`` (seat by seat);
- ``refused``: a refusal answered, by its ``rule`` (:mod:`upriver.web.hosting.refusals`).

No line holds a seat's token or invite, a table's key, a player's name, a sheet's id or a card still
in a hand: the log says what happened, never what would let its reader act for a seat or see a hand.
Standard library only, so the protocol's refusals can be logged without the web framework.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from typing import TYPE_CHECKING

from upriver.actions import Phase
from upriver.rules import Bidding

if TYPE_CHECKING:
    from upriver.state import GameState

__all__ = ["PUBLIC_VALUES", "applied", "enable", "lines_to_stderr", "note"]

log = logging.getLogger("upriver.events")
_STDERR = "upriver.stderr"

PUBLIC_VALUES = ("bid", "play")
"""The event kinds whose value is logged: what every seat sees once it is made (a simultaneous bid
only once every seat has bid: :func:`applied`)."""


def enable() -> None:
    """Write the event log's lines to standard error (once per process)."""
    lines_to_stderr(log)


def lines_to_stderr(logger: logging.Logger) -> None:
    """Write ``logger``'s INFO records to standard error as bare lines, with one handler however
    often it is asked: how the event log and the access log (:mod:`upriver.web.hosting.accesslog`) start."""
    if not any(handler.get_name() == _STDERR for handler in logger.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        handler.set_name(_STDERR)
        logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False


def note(event: str, **facts: object) -> None:
    """Log one line for ``event`` with ``facts`` (plain JSON values, none of them a secret)."""
    if log.isEnabledFor(logging.INFO):
        line = {"at": round(time.time(), 3), "worker": os.getpid(), "event": event, **facts}
        log.info(json.dumps(line))


def applied(table_id: str, version: int, seat: int, kind: str, value: str, game: GameState | None) -> None:
    """Log the ``applied`` line of an event this process committed, ``game`` the table's game after it
    (``None``: not started). A bid made under simultaneous bidding is logged sealed (no value: the other
    seats do not see it yet); the last of a round's such bids adds the ``revealed`` line of them all."""
    if not log.isEnabledFor(logging.INFO):
        return
    sealed = kind == "bid" and game is not None and game.rules.bidding is Bidding.SIMULTANEOUS
    facts: dict[str, object] = {}
    if kind in PUBLIC_VALUES:
        facts = {"sealed": True} if sealed else {"value": value}
    note("applied", table=table_id, version=version, seat=seat, kind=kind, **facts)
    if sealed and game is not None and game.phase is not Phase.BIDDING and None not in game.bids:
        note("revealed", table=table_id, version=version, round=game.round_number, bids=list(game.bids))
