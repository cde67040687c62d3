"""PIMC with inference: deals weighted by the bids the other seats made, budget spent where it tells.

Plain PIMC deals the hidden cards uniformly (voids apart), as if the other seats' bids
said nothing about their hands. They say a lot: a seat that bid three holds more high
cards and trumps than one that bid nothing. This bot draws a pool of void-respecting
deals several times larger than it needs and resamples it by how well each seat's dealt
cards explain its bid (:func:`upriver.bots.sampling.weigh_by_bids`), the determinization
with inference that the Oh Hell search literature finds decisive. It also prunes
candidates that are clearly worse, paired over the shared deals, so the rest of the
budget separates the close ones.

With ``bid_model`` (the default of ``expert``), bids are chosen by the learned bid model
(:mod:`upriver.bots.bidmodel`): every legal bid is rolled out in the same deals, and the
model turns those rollouts and the hand into each bid's chance of being made and tricks
taken when this bot plays it; the bid with the best expected score wins. The rollouts
alone misjudge bids, since the rule of thumb that plays them out is not this bot.

With ``play_inference`` the deals are also weighted by the cards the other seats have
played this round: each deal is replayed from the first card and every play scored by
a softened rule of thumb (:mod:`upriver.fast.likelihood`), so a seat that ducked
with its lowest card is not dealt a lower one. The weights' effective sample size of
the last draw is kept in :attr:`IpimcBot.last_effective_deals`.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, ClassVar

import numpy as np
from numpy.typing import NDArray

from upriver.bots.knowledge import Knowledge
from upriver.bots.pimc import Analysis, SearchBot, SearchConfig
from upriver.cards import mask_of

if TYPE_CHECKING:
    from upriver.fast import Position
    from upriver.view import SeatView

__all__ = ["PLAY_EPS", "IpimcBot", "IpimcConfig"]

PLAY_EPS = 0.75
"""The share of plays the softened rule of thumb leaves to chance, where play inference is on."""


@dataclasses.dataclass(frozen=True, kw_only=True)
class IpimcConfig(SearchConfig):
    """A :class:`SearchConfig` with what the search infers from the other seats' bids and plays.

    >>> IpimcConfig(play_inference=1.5)
    Traceback (most recent call last):
    ...
    ValueError: play_inference is the share of plays left to chance, strictly between 0 and 1, not 1.5
    """

    iterations: int | None = 2000
    prune: bool = True
    pool: int = 4
    """Deals drawn per deal kept."""
    spread: float = 0.8
    """How far (in tricks) a seat's bid may stray from the rule-of-thumb count of its hand."""
    bid_model: bool = False
    """Whether bids come from the learned bid model rather than from the rollouts' mean score."""
    play_inference: float | None = None
    """The eps of the softened rule of thumb the other seats' plays are weighed by
    (:data:`PLAY_EPS` is a good one); None: off."""

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.pool < 1:
            raise ValueError(f"pool is the deals drawn per deal kept, at least 1, not {self.pool}")
        if self.play_inference is not None and not 0.0 < self.play_inference < 1.0:
            raise ValueError(
                "play_inference is the share of plays left to chance, strictly between 0 and 1, "
                f"not {self.play_inference!r}"
            )


class IpimcBot(SearchBot):
    """PIMC over deals resampled to fit the bids made, with pruning of clearly worse moves."""

    kind = "ipimc"
    defaults: ClassVar[IpimcConfig] = IpimcConfig()
    config: IpimcConfig

    def __init__(
        self,
        seed: int | None = None,
        *,
        name: str | None = None,
        config: IpimcConfig | None = None,
        budget: int | float | None = None,
    ) -> None:
        super().__init__(seed, name=name, config=config, budget=budget)
        self.last_effective_deals: float | None = None
        """The effective sample size of the last decision's weighted deals: Kish's, summed over its
        draws (independent pools); None if no draw was weighted yet."""
        self.last_pool_deals = 0
        """How many deals the last decision's weighted draws held: the most
        :attr:`last_effective_deals` can be."""
        self._weighed: Position | None = None
        self._plays: tuple[tuple[int, int], ...] = ()
        self._plays_mask = 0

    def choose_bid(self, view: SeatView) -> int:
        """With the bid model, the legal bid of best expected score; else the rollouts' best. Either
        way never a bid the hand cannot make when it can make one (:func:`upriver.bots.sure.best_bid`)."""
        if not self.config.bid_model or len(view.legal_bids) == 1:
            return super().choose_bid(view)
        from upriver.bots.bidmodel import bid_table, default_model, expected_scores
        from upriver.bots.sure import best_bid

        # A bot on a time budget reads its table from as many deals as its kind would search.
        iterations = self.config.iterations or type(self).defaults.iterations or 2000
        table = bid_table(view, self, iterations, self.rng.getrandbits(31))
        model = default_model()
        scores = expected_scores(table, model, view.rules.scoring, view.round_number)
        made = model.make_probability(table.features)
        self.last_bid_estimates = {bid: float(p) for bid, p in zip(table.bids, made, strict=True)}
        return best_bid(view, table.bids, [float(score) for score in scores])

    def analyse(self, view: SeatView) -> Analysis:
        """The search of :class:`SearchBot`, remembering the round's plays in order for :meth:`draw`."""
        self.remember_plays(view)
        return super().analyse(view)

    def remember_plays(self, view: SeatView) -> None:
        """Start a decision: the round's plays in order, for :meth:`draw` to weigh its deals by."""
        self.last_effective_deals, self.last_pool_deals = None, 0
        self._plays = tuple((seat, card.index) for seat, card in view.played)
        self._plays_mask = mask_of(card for _, card in view.played)

    def draw(self, know: Knowledge, position: Position, count: int, seed: int) -> NDArray[np.uint64]:
        """Void-respecting deals, resampled by how well they explain the other seats' bids
        (and, with :attr:`play_inference`, the cards they have played)."""
        from upriver.bots.sampling import (
            bid_log_weights,
            effective_deals,
            play_log_weights,
            resample,
            sample_worlds,
        )

        plays = self._plays if self._plays_mask == position.played else ()  # never another decision's plays
        eps = self.config.play_inference
        by_play = eps is not None and any(s != know.seat for s, _ in plays)
        if all(b < 0 for s, b in enumerate(position.bids) if s != know.seat) and not by_play:
            return sample_worlds(know, position, count, seed)
        pool = sample_worlds(know, position, self.config.pool * count, seed)
        log_weights = bid_log_weights(know, position, pool, spread=self.config.spread)
        if eps is not None and by_play:
            log_weights = log_weights + play_log_weights(know, position, plays, pool, eps=eps)
        if self._weighed != position or self.last_effective_deals is None:  # a new decision
            self._weighed, self.last_effective_deals, self.last_pool_deals = position, 0.0, 0
        self.last_effective_deals += effective_deals(log_weights)
        self.last_pool_deals += len(pool)
        if len(pool) <= count:
            return pool[:count]
        return resample(pool, log_weights, count, seed)
