"""Deals of the unseen cards that agree with everything a seat knows, for the kernel's rollouts.

:func:`sample_worlds` returns a ``(count, players)`` ``uint64`` array of hands, the form
:func:`upriver.fast.rollout` takes: the seat's own hand in its column, every other seat
dealt as many unseen cards as it holds, and no seat given a card of a suit it has shown
it lacks. Draws come from the kernel's uniform dealer and are kept only when they respect
the voids, which makes the kept deals exactly uniform over the consistent ones; when
voids make that too wasteful, the rest are dealt card by card to the seats allowed to
hold them, most constrained card first, with a feasibility check that never dead-ends.

:func:`weigh_by_bids` resamples deals by how well each seat's cards match its bid;
:func:`bid_log_weights` and :func:`play_log_weights` (how likely the cards the others have
played were in each deal) give the log-weights separately, so a bot can add them and
:func:`resample` by the sum, with :func:`effective_deals` telling how many deals the weights
are worth.
"""

from __future__ import annotations

import random

import numpy as np
from numpy.typing import NDArray

from upriver.bots.knowledge import Knowledge
from upriver.fast import Position
from upriver.fast import sample_worlds as uniform_worlds
from upriver.fast.api import option_code
from upriver.fast.infer import bid_estimates, deal_constrained
from upriver.fast.likelihood import play_log_likelihoods
from upriver.fast.policies import LEAD_RULE
from upriver.scoring import tricks_pay_past_the_bid

__all__ = [
    "bid_log_weights",
    "effective_deals",
    "play_log_weights",
    "resample",
    "sample_worlds",
    "weigh_by_bids",
]

MASK = (1 << 62) - 1

DRAWS_PER_WORLD = 16
"""Uniform draws spent per deal wanted on rejection, before dealing the rest under constraints."""


def sample_worlds(know: Knowledge, position: Position, count: int, seed: int = 0) -> NDArray[np.uint64]:
    """``count`` deals of the unseen cards consistent with ``know`` (its hand, counts and voids).

    ``position`` must be the same view's :func:`upriver.fast.position_from_view`. The same
    arguments give the same deals.
    """
    n = know.players
    voids = np.array(know.voids, dtype=np.uint64)
    if not voids.any():
        return np.asarray(uniform_worlds(position, count, seed & MASK, threads=1), dtype=np.uint64)
    kept: list[NDArray[np.uint64]] = []
    have, drawn, batch, round_ = 0, 0, max(64, 2 * count), 0
    limit = DRAWS_PER_WORLD * count + 256
    while have < count and drawn < limit:
        draws = np.asarray(uniform_worlds(position, batch, (seed * 7919 + round_) & MASK, threads=1))
        ok = ~np.any(draws & voids, axis=1)
        kept.append(draws[ok])
        have += int(ok.sum())
        drawn += batch
        round_ += 1
        rate = max(have / drawn, 1 / limit)
        batch = int(min(limit - drawn, max(64, 1.2 * (count - have) / rate)))
    worlds = np.concatenate(kept)[:count]
    if len(worlds) < count:
        known = np.zeros(n, dtype=np.uint64)
        known[know.seat] = know.hand
        need = np.array(know.counts, dtype=np.int64)
        need[know.seat] = 0
        extra = deal_constrained(known, know.unknown, need, voids, count - len(worlds), seed & MASK)
        worlds = np.concatenate([worlds, extra])
    return np.ascontiguousarray(worlds, dtype=np.uint64)


def bid_log_weights(
    know: Knowledge, position: Position, worlds: NDArray[np.uint64], *, spread: float = 0.8
) -> NDArray[np.float64]:
    """Each world's log-weight from the bids made: the sum over the other seats with a known bid
    of ``-(estimate - bid)² / 2 spread²``, the estimate the rule of thumb's count of the seat's
    dealt hand (its cards now plus those it has played)."""
    known = [s for s in range(know.players) if s != know.seat and position.bids[s] >= 0]
    if not known or len(worlds) == 0:
        return np.zeros(len(worlds), dtype=np.float64)
    dealt = worlds | np.array(know.played_by, dtype=np.uint64)
    turned = 0 if position.turned < 0 else 1 << position.turned
    est = bid_estimates(dealt, position.trump, turned, position.hand_size)
    bids = np.array(position.bids, dtype=np.float64)
    gap = (est[:, known] - bids[known]) / spread
    logw: NDArray[np.float64] = -0.5 * np.sum(gap * gap, axis=1)
    return logw


def play_log_weights(
    know: Knowledge,
    position: Position,
    plays: tuple[tuple[int, int], ...],
    worlds: NDArray[np.uint64],
    *,
    eps: float,
) -> NDArray[np.float64]:
    """Each world's log-likelihood of the cards the other seats played this round (``plays``:
    ``(seat, card index)`` in play order), replayed under the softened rule of thumb of
    :func:`upriver.fast.likelihood.play_log_likelihoods`."""
    rules = position.rules
    return play_log_likelihoods(
        worlds,
        know.played_by,
        plays,
        position.bids,
        seat=know.seat,
        hand_size=position.hand_size,
        trump=position.trump,
        turned=0 if position.turned < 0 else 1 << position.turned,
        lead_rule=option_code(rules, LEAD_RULE),
        counts_tricks=tricks_pay_past_the_bid(rules.scoring),
        eps=eps,
    )


def effective_deals(log_weights: NDArray[np.float64]) -> float:
    """Kish's effective sample size of these weights, ``(Σw)² / Σw²``: between 1 and their count."""
    if len(log_weights) == 0:
        return 0.0
    w = np.exp(log_weights - log_weights.max())
    return float(w.sum() ** 2 / np.dot(w, w))


def resample(
    worlds: NDArray[np.uint64], log_weights: NDArray[np.float64], count: int, seed: int = 0
) -> NDArray[np.uint64]:
    """``count`` of ``worlds`` drawn in proportion to ``exp(log_weights)``. Resampling is
    systematic (one random offset, evenly spaced picks), so the result stays close to the
    weights with few draws."""
    w = np.exp(log_weights - log_weights.max())
    cdf = np.cumsum(w / w.sum())
    start = random.Random(seed).random() / count
    picks = np.searchsorted(cdf, start + np.arange(count) / count)
    picks = np.minimum(picks, len(worlds) - 1)
    return np.ascontiguousarray(worlds[picks])


def weigh_by_bids(
    know: Knowledge,
    position: Position,
    worlds: NDArray[np.uint64],
    count: int,
    *,
    spread: float = 0.8,
    seed: int = 0,
) -> NDArray[np.uint64]:
    """``count`` of ``worlds`` drawn in proportion to how well they explain the bids made.

    A seat that bid ``b`` more likely holds cards a rule-of-thumb count rates near ``b``:
    each world's weight is the product over the other seats with a known bid of
    ``exp(-(estimate - bid)² / 2 spread²)`` (:func:`bid_log_weights`), resampled
    systematically (:func:`resample`).
    """
    known = [s for s in range(know.players) if s != know.seat and position.bids[s] >= 0]
    if not known or len(worlds) <= count:
        return worlds[:count]
    return resample(worlds, bid_log_weights(know, position, worlds, spread=spread), count, seed)
