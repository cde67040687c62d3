"""Arena statistics: scores with 95% intervals on duplicate sets, win shares, bid accuracy, speed, ratings.

Scores are averaged per duplicate set first (every rotation of one deal seed), and
the confidence intervals are Student-t intervals over those per-set means: the
rotations of a set played the same cards, so the luck of the deal cancels inside a
set and the sets are independent. The difference between two bots is estimated the
same way, pairing their per-set means. Only complete sets count when there are
any (an interrupted arena leaves a few partial ones); win shares, bid rates and
ratings use the same games. Ratings come from openskill's Plackett–Luce model, one
update per game in plan order, ranking the bots by their mean score at that table.
"""

from __future__ import annotations

import dataclasses
import math
from collections import defaultdict
from collections.abc import Iterable, Sequence

import numpy as np
from openskill.models import PlackettLuce

from upriver.arena.match import GameResult

__all__ = ["BotStats", "Estimate", "PairStats", "Rating", "Summary", "estimate", "summarize", "t_quantile"]

_Z975 = 1.959963984540054
_T975 = (
    12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004, 2.262157, 2.228139,
    2.200985, 2.178813, 2.160369, 2.144787, 2.131450, 2.119905, 2.109816, 2.100922, 2.093024, 2.085963,
    2.079614, 2.073873, 2.068658, 2.063899, 2.059539, 2.055529, 2.051831, 2.048407, 2.045230, 2.042272,
)  # fmt: skip


def t_quantile(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom."""
    if df < 1:
        raise ValueError("a t interval needs at least one degree of freedom")
    if df <= len(_T975):
        return _T975[df - 1]
    # Cornish–Fisher expansion around the normal quantile: within 1e-5 of the exact value beyond 30.
    z = _Z975
    return (
        z
        + (z**3 + z) / (4 * df)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
    )


@dataclasses.dataclass(frozen=True, slots=True)
class Estimate:
    """A mean with its 95% confidence interval; no interval from fewer than two values."""

    mean: float
    low: float | None
    high: float | None
    n: int

    @property
    def significant(self) -> bool:
        """Whether the interval excludes zero."""
        return self.low is not None and self.high is not None and (self.low > 0 or self.high < 0)


def estimate(values: Sequence[float]) -> Estimate:
    """The mean of ``values`` with a Student-t 95% interval."""
    n = len(values)
    if n == 0:
        return Estimate(math.nan, None, None, 0)
    mean = math.fsum(values) / n
    if n < 2:
        return Estimate(mean, None, None, n)
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    half = t_quantile(n - 1) * sd / math.sqrt(n)
    return Estimate(mean, mean - half, mean + half, n)


@dataclasses.dataclass(frozen=True, slots=True)
class Rating:
    """An openskill rating: skill ``mu``, uncertainty ``sigma``, and the cautious ``ordinal`` (mu − 3σ)."""

    mu: float
    sigma: float
    ordinal: float


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class BotStats:
    """Everything the arena measured about one bot."""

    name: str
    games: int
    """Games it sat in."""
    seat_games: int
    """Seats it held, summed over games (two seats in one game count twice)."""
    points_per_game: Estimate
    points_per_hand: Estimate
    win_share: float
    """Its share of the games' wins, ties split; the shares of all bots add up to 1."""
    exact_rate: float
    within_one_rate: float
    moves: int
    mean_move_s: float
    p95_move_s: float
    rating: Rating


@dataclasses.dataclass(frozen=True, slots=True)
class PairStats:
    """Points a game of bot ``a`` minus bot ``b``, paired by duplicate set."""

    a: str
    b: str
    difference: Estimate


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class Summary:
    """The arena's statistics for every bot and every pair of bots."""

    bots: tuple[BotStats, ...]
    pairs: tuple[PairStats, ...]
    games: int
    """Games the statistics use."""
    sets: int
    """Duplicate sets the statistics use."""
    dropped_games: int
    """Finished games left out because their duplicate set was cut short."""


def _used(results: Iterable[GameResult], rotations: int) -> tuple[list[GameResult], int]:
    by_set: dict[int, list[GameResult]] = defaultdict(list)
    for result in results:
        by_set[result.deal].append(result)
    complete = {deal for deal, games in by_set.items() if len(games) == rotations}
    keep = complete or set(by_set)
    used = sorted((r for deal in keep for r in by_set[deal]), key=lambda r: r.index)
    dropped = sum(len(games) for deal, games in by_set.items() if deal not in keep)
    return used, dropped


def _ratings(used: Sequence[GameResult], bots: int) -> list[Rating]:
    model = PlackettLuce()
    ratings = [model.rating() for _ in range(bots)]
    for result in used:
        seated = sorted(set(result.seating))
        if len(seated) < 2:
            continue
        scores = []
        for bot in seated:
            mine = [total for total, b in zip(result.totals, result.seating, strict=True) if b == bot]
            scores.append(sum(mine) / len(mine))
        rated = model.rate([[ratings[bot]] for bot in seated], scores=scores)
        for bot, team in zip(seated, rated, strict=True):
            ratings[bot] = team[0]
    return [Rating(r.mu, r.sigma, r.ordinal()) for r in ratings]


def summarize(results: Iterable[GameResult], names: Sequence[str], rotations: int) -> Summary:
    """The statistics of these finished games, for the bots ``names`` (by bot index)."""
    used, dropped = _used(results, rotations)
    k = len(names)
    # Per duplicate set and bot: points and hands summed over its seats in the set's games.
    points: dict[int, list[float]] = defaultdict(lambda: [0.0] * k)
    hands: dict[int, list[int]] = defaultdict(lambda: [0] * k)
    seat_games: dict[int, list[int]] = defaultdict(lambda: [0] * k)
    wins = [0.0] * k
    exact = [0] * k
    near = [0] * k
    rounds = [0] * k
    games = [0] * k
    times: list[list[float]] = [[] for _ in range(k)]
    for result in used:
        winners = result.winners
        for seat, bot in enumerate(result.seating):
            points[result.deal][bot] += result.totals[seat]
            hands[result.deal][bot] += result.hands
            seat_games[result.deal][bot] += 1
            exact[bot] += result.exact[seat]
            near[bot] += result.within_one[seat]
            rounds[bot] += result.hands
            if seat in winners:
                wins[bot] += 1 / len(winners)
            if seat < len(result.move_seconds):
                times[bot].extend(result.move_seconds[seat])
        for bot in set(result.seating):
            games[bot] += 1
    sets = sorted(points)
    per_game = [[points[d][b] / seat_games[d][b] for d in sets if seat_games[d][b]] for b in range(k)]
    per_hand = [[points[d][b] / hands[d][b] for d in sets if hands[d][b]] for b in range(k)]
    ratings = _ratings(used, k)
    stats = []
    for bot, name in enumerate(names):
        moves = np.asarray(times[bot], dtype=float)
        stats.append(
            BotStats(
                name=name,
                games=games[bot],
                seat_games=sum(seat_games[d][bot] for d in sets),
                points_per_game=estimate(per_game[bot]),
                points_per_hand=estimate(per_hand[bot]),
                win_share=wins[bot] / len(used) if used else math.nan,
                exact_rate=exact[bot] / rounds[bot] if rounds[bot] else math.nan,
                within_one_rate=near[bot] / rounds[bot] if rounds[bot] else math.nan,
                moves=int(moves.size),
                mean_move_s=float(moves.mean()) if moves.size else math.nan,
                p95_move_s=float(np.percentile(moves, 95)) if moves.size else math.nan,
                rating=ratings[bot],
            )
        )
    pairs = []
    for a in range(k):
        for b in range(a + 1, k):
            both = [d for d in sets if seat_games[d][a] and seat_games[d][b]]
            diffs = [points[d][a] / seat_games[d][a] - points[d][b] / seat_games[d][b] for d in both]
            pairs.append(PairStats(names[a], names[b], estimate(diffs)))
    return Summary(
        bots=tuple(stats), pairs=tuple(pairs), games=len(used), sets=len(sets), dropped_games=dropped
    )
