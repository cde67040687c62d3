"""A structured event log: one JSON line per thing that happened at the tables, with no secret in it.

``upriver serve --event-log`` writes the lines to standard error (:func:`enable`), for journald or a
log shipper, beside the access log (:mod:`upriver.web.accesslog`); without it nothing is formatted.
Every line is ``{"at": unix seconds, "worker": process id, "event": …}`` and the event's facts:

- ``started`` / ``stopped``: this server process began or ended serving;
- ``created``: a table, with its ``table`` id and its seats' ``kinds`` (``human`` or a bot's kind);
- ``applied``: an event this process committed and applied: ``table``, ``version``, ``seat`` and
  ``kind`` (``join``, ``bot``, ``revoke``, ``bid``, ``play``, ``claim``, ``standin`` — the seat's
  person left and a stand-in plays —, ``back``, …); a bid's or a card's ``value`` too, since every
  seat sees it once made;
- ``refused``: a refusal answered, by its ``rule`` (:mod:`upriver.web.refusals`).

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

__all__ = ["PUBLIC_VALUES", "enable", "lines_to_stderr", "note"]

log = logging.getLogger("upriver.events")
_STDERR = "upriver.stderr"

PUBLIC_VALUES = ("bid", "play")
"""The event kinds whose value is logged: what every seat sees once it is made."""


def enable() -> None:
    """Write the event log's lines to standard error (once per process)."""
    lines_to_stderr(log)


def lines_to_stderr(logger: logging.Logger) -> None:
    """Write ``logger``'s INFO records to standard error as bare lines, with one handler however
    often it is asked: how the event log and the access log (:mod:`upriver.web.accesslog`) start."""
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
