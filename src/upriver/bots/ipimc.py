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
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import numpy as np
from numpy.typing import NDArray

from upriver.bots.knowledge import Knowledge
from upriver.bots.pimc import SearchBot

if TYPE_CHECKING:
    from upriver.fast import Position
    from upriver.view import SeatView

__all__ = ["IpimcBot"]


class IpimcBot(SearchBot):
    """PIMC over deals resampled to fit the bids made, with pruning of clearly worse moves."""

    kind = "ipimc"
    default_iterations = 2000
    pool = 4
    """Deals drawn per deal kept."""
    uses_bid_model: ClassVar[bool] = False
    """Whether this kind bids with the learned bid model unless told otherwise."""

    def __init__(
        self,
        seed: int | None = None,
        *,
        name: str | None = None,
        budget: int | float | None = None,
        iterations: int | None = None,
        time_budget: float | None = None,
        rivalry: float = 0.0,
        prune: bool = True,
        spread: float = 0.8,
        bid_model: bool | None = None,
    ) -> None:
        super().__init__(
            seed,
            name=name,
            budget=budget,
            iterations=iterations,
            time_budget=time_budget,
            rivalry=rivalry,
            prune=prune,
        )
        self.spread = spread
        """How far (in tricks) a seat's bid may stray from the rule-of-thumb count of its hand."""
        self.bid_model = type(self).uses_bid_model if bid_model is None else bid_model
        """Whether bids come from the learned bid model rather than from the rollouts' mean score."""

    def choose_bid(self, view: SeatView) -> int:
        """With the bid model, the legal bid of best expected score; else the rollouts' best."""
        if not self.bid_model or len(view.legal_bids) == 1:
            return super().choose_bid(view)
        from upriver.bots.bidmodel import bid_table, default_model, expected_scores

        iterations = self.iterations or self.default_iterations or 2000
        table = bid_table(view, self, iterations, self.rng.getrandbits(31))
        model = default_model()
        scores = expected_scores(table, model, view.rules.scoring)
        made = model.make_probability(table.features)
        self.last_bid_estimates = {bid: float(p) for bid, p in zip(table.bids, made, strict=True)}
        return table.bids[int(np.argmax(scores))]

    def draw(self, know: Knowledge, position: Position, count: int, seed: int) -> NDArray[np.uint64]:
        """Void-respecting deals, resampled by how well they explain the other seats' bids."""
        from upriver.bots.sampling import sample_worlds, weigh_by_bids

        if all(b < 0 for s, b in enumerate(position.bids) if s != know.seat):
            return sample_worlds(know, position, count, seed)
        pool = sample_worlds(know, position, self.pool * count, seed)
        return weigh_by_bids(know, position, pool, count, spread=self.spread, seed=seed)
