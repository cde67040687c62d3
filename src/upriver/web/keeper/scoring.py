"""A scoring's worked examples, for the forms that offer a scoring (the start page, the score keeper).

A form shows the chosen scoring as a small table of examples ("bid 2, took 2 → 12; took 3 → −2")
so a group sees what it agrees to. The points come from the engine's one scoring function
(:func:`upriver.scoring.round_score`), never from a copy in the page, and a custom scoring the
engine refuses is refused here with the engine's own sentence, before a table or sheet is made.

- ``POST /api/scoring`` ``{"scoring": "squares" | {"exact_bonus": 10, …}}`` →
  ``{"scoring": <the scoring as a record writes it>, "by_round": bool, "examples": [{"round",
  "bid", "tricks", "points"}, …]}``: bids 0 and 2, each made, one under and one over; when the
  points depend on the round's number (``anderson``), the same in rounds 1 and 3 (``by_round``).
  A scoring the engine refuses: 400 ``{"error": sentence, "rule": "rules", "option": "scoring",
  "facts": {…}}``; a custom scoring's facts name the ``field`` at fault and the ``case`` (``range``,
  with ``most``; ``when``), or ``no_exact_pay`` (with ``made`` and ``missed``, the points of bid 0
  made and missed by one), so a page words it per field in its own language.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from upriver.errors import RulesError
from upriver.scoring import ScoringRule, round_score, scoring_of
from upriver.web.hosting.guard import AnyObject, InputError, read_body, refusal
from upriver.web.hosting.limits import Limits

__all__ = ["EXAMPLE_MOVES", "scoring_examples", "scoring_router"]

EXAMPLE_MOVES = ((0, 0), (0, 1), (2, 2), (2, 1), (2, 3))
"""The (bid, tricks) pairs a scoring is shown by: a nil bid made and missed, a bid of 2 made,
missed under and missed over."""


def _value(scoring: ScoringRule) -> object:
    return scoring.value


def scoring_examples(value: object) -> dict[str, object]:
    """The examples of the scoring ``value`` (a name or a custom scoring's object), as the route sends them.

    >>> [e["points"] for e in scoring_examples("balanced")["examples"]]
    [10, -2, 12, -2, -2]

    :raises RulesError: naming what is wrong, for a scoring the engine refuses.
    """
    scoring = scoring_of(value)
    by_round = any(
        round_score(scoring, bid, tricks, 1) != round_score(scoring, bid, tricks, 3)
        for bid, tricks in EXAMPLE_MOVES
    )
    rounds = (1, 3) if by_round else (1,)
    examples = [
        {"round": number, "bid": bid, "tricks": tricks, "points": round_score(scoring, bid, tricks, number)}
        for number in rounds
        for bid, tricks in EXAMPLE_MOVES
    ]
    return {"scoring": _value(scoring), "by_round": by_round, "examples": examples}


def scoring_router(limits: Limits | None = None) -> APIRouter:
    """The route ``POST /api/scoring``."""
    router = APIRouter()
    read_limits = limits or Limits()

    @router.post("/api/scoring")
    async def examples(request: Request) -> JSONResponse:
        try:
            body = (await read_body(request, AnyObject, read_limits)).data()
        except InputError as error:
            return refusal(str(error), error.status, field=error.field)
        if set(body) != {"scoring"}:
            return refusal(
                'send {"scoring": …}: a scoring\'s name or a custom scoring object, and nothing else',
                field="scoring",
            )
        try:
            return JSONResponse(scoring_examples(body["scoring"]))
        except RulesError as error:
            return refusal(str(error), rule="rules", option=error.option, facts=error.facts)

    return router
