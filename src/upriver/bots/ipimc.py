"""PIMC with inference: deals weighted by the bids the other seats made, budget spent where it tells.

Plain PIMC deals the hidden cards uniformly (voids apart), as if the other seats' bids
said nothing about their hands. They say a lot: a seat that bid three holds more high
cards and trumps than one that bid nothing. This bot draws a pool of void-respecting
deals several times larger than it needs and resamples it by how well each seat's dealt
cards explain its bid (:func:`upriver.bots.sampling.weigh_by_bids`), the determinization
with inference that the Oh Hell search literature finds decisive. It also prunes
candidates that are clearly worse, paired over the shared deals, so the rest of the
budget separates the close ones.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from upriver.bots.knowledge import Knowledge
from upriver.bots.pimc import SearchBot

if TYPE_CHECKING:
    from upriver.fast import Position

__all__ = ["IpimcBot"]


class IpimcBot(SearchBot):
    """PIMC over deals resampled to fit the bids made, with pruning of clearly worse moves."""

    kind = "ipimc"
    default_iterations = 2000
    pool = 4
    """Deals drawn per deal kept."""

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

    def draw(self, know: Knowledge, position: Position, count: int, seed: int) -> NDArray[np.uint64]:
        """Void-respecting deals, resampled by how well they explain the other seats' bids."""
        from upriver.bots.sampling import sample_worlds, weigh_by_bids

        if all(b < 0 for s, b in enumerate(position.bids) if s != know.seat):
            return sample_worlds(know, position, count, seed)
        pool = sample_worlds(know, position, self.pool * count, seed)
        return weigh_by_bids(know, position, pool, count, spread=self.spread, seed=seed)
