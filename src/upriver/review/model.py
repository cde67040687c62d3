"""The review's verdicts as frozen data, and the pure function that reviews one seat's round.

:func:`review_round` turns a :class:`~upriver.review.moments.RoundTask` (the seat's views and
its moves) into a :class:`RoundReview`. It depends on nothing but its arguments: each
decision's seed comes from the review's seed and where the decision stands (seat, round,
step), so any worker, in any order, on any number of cores, gives the same review.
"""

from __future__ import annotations

import dataclasses
import zlib
from typing import Literal

from upriver.review.evaluate import Choice, Evaluation, evaluate
from upriver.review.moments import Moment, RoundTask
from upriver.view import SeatView

__all__ = ["DEFAULT_DEALS", "DEFAULT_THRESHOLD", "Decision", "RoundReview", "Settings", "review_round"]

DEFAULT_DEALS = 2000
"""Deals each decision is played out in, by default (``bench/review.py`` measures what that buys)."""
MAX_DEALS = 100_000
"""The most deals a decision a review takes: 50 times the default, already minutes a round, while a
budget much past it would not fit in memory."""
DEFAULT_THRESHOLD = 2.0
"""Expected points a choice must cost before it is flagged, by default."""


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    """How hard to look: ``deals`` per decision, the review's ``seed``, and the flagging ``threshold``."""

    deals: int = DEFAULT_DEALS
    seed: int = 0
    threshold: float = DEFAULT_THRESHOLD

    def __post_init__(self) -> None:
        if (
            isinstance(self.deals, bool)
            or not isinstance(self.deals, int)
            or not 1 <= self.deals <= MAX_DEALS
        ):
            raise ValueError(
                f"the budget is a whole number of deals a decision, from 1 to {MAX_DEALS:,}, "
                f"not {self.deals!r}"
            )
        if not self.threshold >= 0:
            raise ValueError(f"the threshold is expected points, 0 or more, not {self.threshold!r}")


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Decision:
    """One bid or card of the seat, judged from its view at that moment.

    ``step`` counts the seat's decisions in the round from 0 (its bid). ``evaluation`` is
    ``None`` for a card that was the only legal one (``forced``): there was nothing to choose.
    ``cost`` is the expected points the choice gave up against the best one; ``flagged`` when
    it reaches the threshold (never for a forced move).
    """

    round_number: int
    step: int
    kind: Literal["bid", "card"]
    view: SeatView
    chosen: Choice
    evaluation: Evaluation | None
    forced: bool
    cost: float
    flagged: bool

    @property
    def seat(self) -> int:
        """The seat that decided."""
        return self.view.seat


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class RoundReview:
    """One seat's round: its decisions, the points its bid and its play gave up, and its luck.

    ``luck`` is the expected score of the expert's bid from the seat's view when it bid (its
    cards, the turned card, the bids before it): how good the deal was, whatever was done
    with it; ``None`` if the seat had not bid yet. ``score`` and ``tricks`` are ``None`` for
    a round the record leaves unfinished.
    """

    seat: int
    round_number: int
    hand_size: int
    bid: int | None
    tricks: int | None
    score: int | None
    luck: float | None
    bidding: float
    play: float
    decisions: tuple[Decision, ...]


def decision_seed(seed: int, seat: int, round_number: int, step: int) -> int:
    """The seed of one decision: from the review's seed and where the decision stands, never a card."""
    return zlib.crc32(f"{seed}/{seat}/{round_number}/{step}".encode()) & 0x7FFFFFFF


def _decide(moment: Moment, round_number: int, step: int, settings: Settings) -> Decision:
    view = moment.view
    bidding = bool(view.legal_bids)
    choices = view.legal_bids if bidding else view.legal_cards
    forced = len(choices) == 1
    evaluation = None
    cost = 0.0
    if bidding or not forced:  # a forced bid is still played out: it measures the deal's luck
        evaluation = evaluate(
            view, deals=settings.deals, seed=decision_seed(settings.seed, view.seat, round_number, step)
        )
        cost = evaluation.of(moment.chosen).loss
    return Decision(
        round_number=round_number,
        step=step,
        kind="bid" if bidding else "card",
        view=view,
        chosen=moment.chosen,
        evaluation=evaluation,
        forced=forced,
        cost=cost,
        flagged=not forced and cost >= settings.threshold,
    )


def review_round(task: RoundTask, settings: Settings) -> RoundReview:
    """Judge every decision of one seat's round from its views alone (a pure function of its arguments)."""
    decisions = tuple(
        _decide(moment, task.round_number, step, settings) for step, moment in enumerate(task.moments)
    )
    luck = None
    for decision in decisions:
        if decision.kind == "bid" and decision.evaluation is not None:
            luck = decision.evaluation.of(decision.evaluation.best).expected
    return RoundReview(
        seat=task.seat,
        round_number=task.round_number,
        hand_size=task.hand_size,
        bid=task.bid,
        tricks=task.tricks,
        score=task.score,
        luck=luck,
        bidding=sum(d.cost for d in decisions if d.kind == "bid"),
        play=sum(d.cost for d in decisions if d.kind == "card"),
        decisions=decisions,
    )
