"""Playing to win the game rather than to score: a round's outcome valued by the chance it wins.

A search bot normally values a deal's completed round by its own round score, which is
right while many rounds remain: points are points. Near the end only the order counts. A
leader should not gamble, and a seat that is behind has to. Denying the nearest rival can
also be worth more than a point of one's own. :func:`win_chance` turns the round scores
of the sampled deals into each deal's chance that the bot finishes first. It adds them
to the totals so far and treats the rounds still to come as noise: each seat gains
:data:`ROUND_SPREAD` points of standard deviation a round, independently, and equally
on average. The seat wins if its margin over every rival survives that noise; the chance
is averaged over the seat's own noise, which all its rivals share.

With no rounds left this is the game's verdict (a tie at the top is a shared win). With many
left it is close to the seat's score minus a share of its rivals', so early play hardly
changes.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray

from upriver.view import SeatView

__all__ = ["ROUND_SPREAD", "TIE_BREAK", "blend", "rounds_after", "win_chance"]

ROUND_SPREAD = 5.0
"""Standard deviation of one seat's score in one round, in points. The ten points for an
exact bid, made a little over half the time, dominate a round's spread under both
scorings."""

TIE_BREAK = 1e-3
"""The weight of the round score that remains at rivalry 1, to choose between deals of equal chance."""

_NODES, _WEIGHTS = np.polynomial.hermite_e.hermegauss(16)
_WEIGHTS = _WEIGHTS / _WEIGHTS.sum()
_LOGISTIC = 1.702
"""The logistic curve with this slope is within 0.01 of the normal distribution function."""


def rounds_after(view: SeatView) -> int:
    """How many rounds the game has after the one being played."""
    return len(view.rules.hand_sizes) - len(view.history) - 1


def win_chance(scores: NDArray[np.float64], view: SeatView) -> NDArray[np.float64]:
    """Each deal's chance that ``view.seat`` wins the game, from the round's scores ``(deals, players)``.

    The margin over each rival after this round is ``totals + scores``. With ``r`` rounds to
    come, every seat adds independent normal noise of deviation ``s = ROUND_SPREAD · √r``. The
    seat wins when its margin plus its own noise beats every rival's noise, which is averaged
    over its own noise by Gauss–Hermite quadrature. With no rounds left it is the game's verdict:
    1 for the one leader, ``1/k`` for each of ``k`` seats tied at the top (a shared win), else 0.
    """
    seat = view.seat
    final = scores + np.asarray(view.totals, dtype=np.float64)
    margins = final[:, [seat]] - np.delete(final, seat, axis=1)
    left = rounds_after(view)
    if left <= 0:
        level = np.sum(margins == 0, axis=1)
        verdict: NDArray[np.float64] = np.where(np.all(margins >= 0, axis=1), 1.0 / (1.0 + level), 0.0)
        return verdict
    spread = ROUND_SPREAD * math.sqrt(left)
    # z[deal, rival, node]: how far this seat stays ahead of the rival when its own noise is node.
    z = (margins[:, :, None] + spread * _NODES[None, None, :]) / spread
    ahead = 1.0 / (1.0 + np.exp(-_LOGISTIC * z))
    chance: NDArray[np.float64] = np.prod(ahead, axis=1) @ _WEIGHTS
    return chance


def blend(scores: NDArray[np.float64], view: SeatView, rivalry: float) -> NDArray[np.float64]:
    """Each deal's value to ``view.seat``: ``(1 - rivalry)`` of its round score plus ``rivalry`` of
    its chance to win, counted in points, and a thousandth of the round score.

    The chance is scaled by ``2 · ROUND_SPREAD · √(π r)`` (``r`` the rounds to come, at least one),
    so that, against a single level rival, a point of margin moves it by about a point (against
    several, a point of one's own moves it more than a point for one rival does). The thousandth
    breaks ties: when the game is already won or lost whatever happens, the chance is the same
    in every deal, and the bot should still take its points rather than play any card.
    """
    own = scores[:, view.seat]
    if rivalry <= 0.0:
        return own
    worth = 2.0 * ROUND_SPREAD * math.sqrt(math.pi * max(rounds_after(view), 1))
    chance = win_chance(scores, view)
    value: NDArray[np.float64] = (1.0 - rivalry + TIE_BREAK) * own + rivalry * worth * chance
    return value
