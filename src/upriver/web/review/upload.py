"""The review of a hand or record a person brings: pasted from Trickster Cards (PBN) or saved by upriver.

HTTP:

- ``POST /api/review?seat=S`` with the text of a game record (JSON, docs/record.md) or of an Oh
  Hell hand in PBN as Trickster Cards exports it (docs/trickster.md) as the body, whatever its
  content type: the review (docs/review.md) of every round of it, the one in progress as far as it
  goes, for seat ``S`` (omit it: every seat). The first request starts the work in the review's
  pool and answers ``202`` ``{"status": "running", "done", "total"}``; posting the same text again
  answers the same until the review is ready, then ``200`` ``{"status": "done", "record", "review"}``
  (``record``: the record as read, so a page can show the hand). Reviews are kept by the record's
  content, as a table's are by table.

Who may see what: the person sent every card, so every seat's review is theirs. A text that is
not a record or a hand is refused in a sentence naming what is wrong and what would be right, its
facts as data (``400`` ``{"error", "rule": "record", "tag", "line", …}`` for PBN; ``"rule":
"record rule"`` with ``round``, ``seat``, ``broken`` for a hand that breaks a rule), and nothing
is kept. A body over the server's limit is ``413``. Starting reviews of new texts is limited per
client address (:data:`NEW_PER_MINUTE`), and the work shares the service's bounds with the tables'.
"""

from __future__ import annotations

import collections
import hashlib
import logging

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from upriver.errors import RecordError
from upriver.record import Record, RecordRuleError, dumps, loads_any, replay, to_json
from upriver.record.pbn import PbnError
from upriver.record.trickster import text_of
from upriver.review import GameReview, NoCardsError, review_json, seat_review
from upriver.web.hosting.guard import RateLimiter, refusal
from upriver.web.hosting.limits import Limits
from upriver.web.review.api import ReviewService, ReviewUnavailableError

__all__ = ["NEW_PER_MINUTE", "review_upload_router"]

log = logging.getLogger("upriver.web")

NEW_PER_MINUTE = 10
"""Texts not seen before one client address may send for review in a minute (asking again is free)."""

_SEEN = 1024
"""Texts whose review was started, remembered so that asking again is not counted as new."""


def _record(text: str) -> Record:
    record = loads_any(text)
    replay(record)
    return record


def _refused(error: Exception) -> JSONResponse:
    if isinstance(error, PbnError):
        return refusal(str(error), 400, rule="record", **error.facts_json())
    if isinstance(error, RecordRuleError):
        return refusal(
            f"rule broken: {error}",
            400,
            rule="record rule",
            round=error.round_number,
            seat=error.seat,
            broken=error.rule,
        )
    if isinstance(error, NoCardsError):
        return refusal(str(error), 400, rule="record")
    return refusal(f"not a game record: {error}", 400, rule="record")


def review_upload_router(service: ReviewService, limits: Limits | None = None) -> APIRouter:
    """The route ``POST /api/review`` over ``service`` (the tables' own, so one pool serves both)."""
    router = APIRouter()
    read_limits = limits or Limits()
    new = RateLimiter(NEW_PER_MINUTE)
    seen: collections.OrderedDict[str, None] = collections.OrderedDict()

    @router.post("/api/review")
    async def review(request: Request, seat: int | None = None) -> Response:
        raw = bytearray()
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > read_limits.body_bytes:
                return refusal(
                    f"the text is over {read_limits.body_bytes:,} bytes: a hand or record is far smaller",
                    413,
                    field="body",
                )
        try:
            text = text_of(bytes(raw))
        except UnicodeDecodeError as error:
            return refusal(
                f"the text is not UTF-8 (byte {error.start}), nor a PBN hand in Latin-1", 400, field="body"
            )
        try:
            record = _record(text)
        except (RecordError, RecordRuleError) as error:
            return _refused(error)
        n = len(record.players)
        if seat is not None and not 0 <= seat < n:
            return refusal(f"the hand has seats 0 to {n - 1}, not {seat}", 400, field="seat")
        key = "upload:" + hashlib.sha256(dumps(record).encode("utf-8")).hexdigest()[:32]
        if key not in seen:
            host = request.client.host if request.client else "?"
            if not new.allow(host):
                return refusal(
                    f"at most {NEW_PER_MINUTE} new hands a minute may be sent for review: "
                    "ask again in a moment",
                    429,
                    rule="review",
                )
            seen[key] = None
            while len(seen) > _SEEN:
                seen.popitem(last=False)
        seen.move_to_end(key)
        seats = tuple(range(n)) if seat is None else (seat,)
        rounds = tuple(range(1, len(record.rounds) + 1))
        if not rounds:
            return refusal("the record has no round to review yet", 400, rule="record")
        done = total = 0
        reviewed = []
        try:
            for target in seats:
                progress = service.progress_of(key, lambda: record, target, rounds)
                if progress.error is not None:
                    return refusal(progress.error, 503, rule="review")
                done += progress.done
                total += progress.total
                if progress.rounds is not None:
                    reviewed.append(seat_review(target, record.players[target], progress.rounds))
        except NoCardsError as error:
            return _refused(error)
        except ReviewUnavailableError as error:
            return refusal(str(error), 503, rule="review")
        except Exception as error:  # a review that breaks is said in a sentence, never a 500
            log.exception("the review of a sent record failed")
            return refusal(
                f"the review could not be computed ({type(error).__name__}): try again", 503, rule="review"
            )
        if len(reviewed) < len(seats):
            return JSONResponse({"status": "running", "done": done, "total": total}, status_code=202)
        whole = GameReview(players=record.players, settings=service.settings, seats=tuple(reviewed))
        return JSONResponse({"status": "done", "record": to_json(record), "review": review_json(whole)})

    return router
