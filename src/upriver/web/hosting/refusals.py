"""How many refusals this server process has answered, by rule: the figures behind ``/metrics``.

Every WebSocket ``error`` message is made by :func:`upriver.web.play.protocol.error_message` and every
HTTP refusal by :func:`upriver.web.hosting.guard.refusal`; each counts itself here under its rule (an HTTP
refusal without one under its status, ``http 404``), and logs itself in the event log
(:mod:`upriver.web.hosting.eventlog`). Standard library only, so the protocol
stays free of the metrics library; :mod:`upriver.web.hosting.metrics` reads :func:`counts`.
"""

from __future__ import annotations

import collections
import threading

from upriver.web.hosting import eventlog

__all__ = ["count", "counts"]

_counts: collections.Counter[str] = collections.Counter()
_lock = threading.Lock()  # a PostgreSQL commit's refusal may be made on a worker thread


def count(rule: str) -> None:
    """Count one refusal for ``rule``."""
    with _lock:
        _counts[rule[:40]] += 1
    eventlog.note("refused", rule=rule[:40])


def counts() -> dict[str, int]:
    """Every rule's refusals so far in this process."""
    with _lock:
        return dict(_counts)
