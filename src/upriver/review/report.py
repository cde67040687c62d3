"""The review as JSON (docs/review.md; docs/review.schema.json): what the terminal and the web show.

A position is written as the seat saw it (its hand, the turned card, the bids it could
see, the trick on the table, the tricks won so far): the JSON of a seat's review holds
no card that seat could not see at that moment.
"""

from __future__ import annotations

from typing import Any

from upriver.cards import Card
from upriver.review.evaluate import Choice, Evaluation
from upriver.review.model import Decision, RoundReview
from upriver.review.runner import GameReview, SeatReview
from upriver.view import SeatView

__all__ = ["FORMAT", "choice_json", "decision_json", "position_json", "review_json", "round_json"]

FORMAT = "upriver-review/1"
"""The ``format`` of the review's JSON."""

_PLACES = 3


def _num(value: float) -> float:
    return round(value, _PLACES) + 0.0  # + 0.0: never "-0.0"


def choice_json(choice: Choice) -> int | str:
    """A bid as its number, a card as its text (``"TH"``)."""
    return str(choice) if isinstance(choice, Card) else choice


def position_json(view: SeatView) -> dict[str, Any]:
    """The position of a decision, only what the seat saw."""
    return {
        "hand": [str(card) for card in view.hand],
        "turned": None if view.turned is None else str(view.turned),
        "trump": None if view.trump is None else view.trump.value,
        "dealer": view.dealer,
        "bids": list(view.bids),
        "tricks_won": list(view.tricks_won),
        "trick": [[seat, str(card)] for seat, card in view.trick],
        "trick_number": len(view.tricks) + 1,
        "legal": [choice_json(c) for c in (view.legal_bids or view.legal_cards)],
    }


def _evaluation_json(evaluation: Evaluation | None) -> list[dict[str, Any]]:
    if evaluation is None:
        return []
    return [
        {
            "choice": choice_json(c.choice),
            "expected": _num(c.expected),
            "make": _num(c.make),
            "loss": _num(c.loss),
            "loss_error": _num(c.loss_error),
        }
        for c in evaluation.candidates
    ]


def decision_json(decision: Decision) -> dict[str, Any]:
    """One decision: the position, the choice, the expert's best, what it cost, every candidate."""
    evaluation = decision.evaluation
    chosen = None if evaluation is None else evaluation.of(decision.chosen)
    best = None if evaluation is None else evaluation.of(evaluation.best)
    best_make = None if evaluation is None else evaluation.of(evaluation.best_make)
    return {
        "round": decision.round_number,
        "step": decision.step,
        "kind": decision.kind,
        "position": position_json(decision.view),
        "chosen": choice_json(decision.chosen),
        "best": choice_json(decision.chosen if evaluation is None else evaluation.best),
        "best_make": choice_json(decision.chosen if evaluation is None else evaluation.best_make),
        "expected": None if chosen is None else _num(chosen.expected),
        "best_expected": None if best is None else _num(best.expected),
        "make": None if chosen is None else _num(chosen.make),
        "best_make_chance": None if best_make is None else _num(best_make.make),
        "cost": _num(decision.cost),
        "cost_error": None if chosen is None else _num(chosen.loss_error),
        "forced": decision.forced,
        "flagged": decision.flagged,
        "deals": None if evaluation is None else evaluation.deals,
        "distinct_deals": None if evaluation is None else evaluation.distinct,
        "candidates": _evaluation_json(evaluation),
    }


def round_json(review: RoundReview) -> dict[str, Any]:
    """One seat's round: the outcome, the luck, the points lost, and every decision."""
    return {
        "round": review.round_number,
        "hand_size": review.hand_size,
        "bid": review.bid,
        "tricks": review.tricks,
        "score": review.score,
        "luck": None if review.luck is None else _num(review.luck),
        "bidding": _num(review.bidding),
        "play": _num(review.play),
        "flagged": sum(d.flagged for d in review.decisions),
        "decisions": [decision_json(d) for d in review.decisions],
    }


def _mistake_json(decision: Decision) -> dict[str, Any]:
    return {"round": decision.round_number, "step": decision.step, "cost": _num(decision.cost)}


def _seat_json(review: SeatReview) -> dict[str, Any]:
    rounds = [round_json(r) for r in review.rounds]
    return {
        "seat": review.seat,
        "player": review.player,
        "score": review.score,
        "luck": _num(review.luck),
        "bidding": _num(review.bidding),
        "play": _num(review.play),
        "flagged": sum(r["flagged"] for r in rounds),
        "mistakes": [_mistake_json(d) for d in review.mistakes],
        "rounds": rounds,
    }


def review_json(review: GameReview) -> dict[str, Any]:
    """The whole review, as the schema describes it."""
    settings = review.settings
    return {
        "format": FORMAT,
        "players": list(review.players),
        "deals": settings.deals,
        "seed": settings.seed,
        "threshold": settings.threshold,
        "seats": [_seat_json(s) for s in review.seats],
    }
