"""The post-game review: every bid and card of a player judged by the expert, from what they saw.

For each decision of a seat the review takes that seat's :class:`~upriver.view.SeatView` at
that moment (never the game) and plays every legal bid or card out in the same deals of the
hidden cards, as the ``expert`` bot does (:mod:`upriver.review.evaluate`): each choice's
expected round score and chance of making the bid, what the choice made cost against the
best one, flagged from a threshold. A round's luck is the expected score of the expert's
bid from the seat's view when it bid. Totals per player: points given up to bidding and to
play, the luck of the deals, the three biggest mistakes.

>>> from upriver import Game, Rules, Schedule
>>> from upriver.bots import act, make_bot
>>> from upriver.record import record_of
>>> game = Game(Rules(player_count=4, schedule=Schedule.EXPLICIT, explicit_sizes=(2,)), seed=5)
>>> while not game.is_over:
...     _ = act(game, game.awaiting[0], make_bot("random", seed=len(game.log)))
>>> review = review_record(record_of(game), seats=(0,), settings=Settings(deals=64))
>>> [d.kind for d in review.seat(0).rounds[0].decisions]
['bid', 'card', 'card']
>>> review_record(record_of(game), seats=(0,), settings=Settings(deals=64)) == review
True

It takes any game record with cards (``upriver.record``), arena games included;
``upriver review FILE`` prints it and the web table shows it (docs/review.md).
"""

from upriver.review.evaluate import Candidate, Choice, Evaluation, evaluate
from upriver.review.model import (
    DEFAULT_DEALS,
    DEFAULT_THRESHOLD,
    MAX_DEALS,
    Decision,
    RoundReview,
    Settings,
    review_round,
)
from upriver.review.moments import Moment, NoCardsError, RoundTask, round_tasks
from upriver.review.report import FORMAT, review_json
from upriver.review.runner import (
    GameReview,
    Progress,
    SeatReview,
    review_record,
    review_tasks,
    seat_review,
    worker_pool,
)

__all__ = [
    "DEFAULT_DEALS",
    "DEFAULT_THRESHOLD",
    "FORMAT",
    "MAX_DEALS",
    "Candidate",
    "Choice",
    "Decision",
    "Evaluation",
    "GameReview",
    "Moment",
    "NoCardsError",
    "Progress",
    "RoundReview",
    "RoundTask",
    "SeatReview",
    "Settings",
    "evaluate",
    "review_json",
    "review_record",
    "review_round",
    "review_tasks",
    "round_tasks",
    "seat_review",
    "worker_pool",
]
