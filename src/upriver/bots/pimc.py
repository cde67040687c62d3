"""Perfect-information Monte Carlo (PIMC): try every legal move in many deals of the hidden cards.

For a decision the bot deals the cards it cannot see in many ways consistent with its
view (:mod:`upriver.bots.sampling`: its hand, the turned card, the cards played, the
voids revealed), then, for each legal bid or card, completes the round in every deal in
the compiled kernel with the rule-of-thumb policy for every seat, its own included, and
scores it. Every candidate meets the same deals (common random numbers), so their
differences are measured far more precisely than their values. The move with the best
mean wins. A bid is tried by setting it and letting the rule of thumb play to it, so the
bid's value is the distribution of tricks the hand takes when it plays for that bid.

Every setting of a search is one frozen :class:`SearchConfig`: each kind and level has its
own (``type(bot).defaults``) and a bot may be given another. The budget is a number of deals
per decision (``iterations``: reproducible with a seed) or a wall-clock time per decision
(``time_budget``, seconds); a bot's ``budget`` replaces either (an int is iterations, a
float seconds). The kernel (numba) is imported at the first search, so that making a bot,
or importing this module, stays cheap for the terminal game.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, ClassVar, Self

import numpy as np
from numpy.typing import NDArray

from upriver.bots.base import Bot
from upriver.bots.basic import BasicBot
from upriver.bots.knowledge import Knowledge, knowledge_of
from upriver.bots.rivalry import blend
from upriver.bots.sure import best_bid
from upriver.cards import Card
from upriver.view import SeatView

if TYPE_CHECKING:
    from upriver.fast import Position
    from upriver.fast.api import Policy

__all__ = ["Analysis", "PimcBot", "SearchBot", "SearchConfig", "batches"]

Choice = int | Card


@dataclasses.dataclass(frozen=True, kw_only=True)
class SearchConfig:
    """How a search bot searches: its budget a decision and what it values.

    >>> SearchConfig(iterations=200).with_budget(0.5)  # doctest: +NORMALIZE_WHITESPACE
    SearchConfig(iterations=None, time_budget=0.5, first_batch=64, rivalry=0.0, prune=False, endgame=0,
                 rollout='basic')
    """

    iterations: int | None = 400
    """Deals a decision (a seed then replays the same moves); None: until the time budget."""
    time_budget: float | None = 1.0
    """Seconds a decision, a safeguard that a loaded machine may need; None: no time limit."""
    first_batch: int = 64
    """Deals in the first batch; each batch after it doubles, up to 4096."""
    rivalry: float = 0.0
    """How much a deal is valued by the chance it wins the game rather than by the round
    score: 0 the score alone, 1 the chance alone (:func:`upriver.bots.rivalry.blend`)."""
    prune: bool = False
    """Drop candidates that are clearly worse, so the budget goes to the close ones."""
    endgame: int = 0
    """With this many cards or fewer in hand (fewer at a larger table, see
    :func:`upriver.fast.endgame.fits`), a card is tried by solving the rest of the round
    exactly in each deal, every seat playing its best with all hands open (max^n), instead
    of by the rule of thumb's rollout; 0 turns it off."""
    rollout: str = "basic"
    """Who plays the cards of a card decision's rollouts: ``basic`` the rule of thumb, ``learned``
    the learned play policy (:mod:`upriver.fast.learned`). A bid's rollouts are always the rule
    of thumb's, which the bid model was trained on."""

    def __post_init__(self) -> None:
        if self.iterations is None and self.time_budget is None:
            raise ValueError("a search needs a budget: a number of iterations, a time_budget or both")
        if self.iterations is not None and (isinstance(self.iterations, bool) or self.iterations < 1):
            raise ValueError(f"iterations must be at least 1, not {self.iterations}")
        if self.time_budget is not None and self.time_budget <= 0:
            raise ValueError(f"time_budget must be positive, not {self.time_budget}")
        if self.first_batch < 1:
            raise ValueError(f"first_batch must be at least 1 deal, not {self.first_batch}")
        if not 0.0 <= self.rivalry <= 1.0:
            raise ValueError(f"rivalry is a weight from 0 (score) to 1 (win the game), not {self.rivalry}")
        if self.rollout not in ("basic", "learned"):
            raise ValueError(f"rollout is the policy of the rollouts, basic or learned, not {self.rollout!r}")
        if isinstance(self.endgame, bool) or not isinstance(self.endgame, int) or self.endgame < 0:
            raise ValueError(f"endgame is a number of cards in hand, 0 or more, not {self.endgame!r}")

    def with_budget(self, budget: int | float | None) -> Self:
        """This configuration with ``budget`` instead of its own: an int is iterations with no time
        limit, a float seconds a decision with no iteration count, None keeps the budget."""
        if isinstance(budget, bool):
            raise ValueError("a budget is a number of iterations or seconds, not a truth value")
        if isinstance(budget, int):
            return dataclasses.replace(self, iterations=budget, time_budget=None)
        if isinstance(budget, float):
            return dataclasses.replace(self, iterations=None, time_budget=budget)
        return self


@dataclasses.dataclass(frozen=True, slots=True)
class Analysis:
    """A search's verdict on one decision: each candidate's mean value, chance of making the
    bid and mean tricks, over the deals it was tried in (``worlds``)."""

    choices: tuple[Choice, ...]
    value: tuple[float, ...]
    made: tuple[float, ...]
    tricks: tuple[float, ...]
    worlds: tuple[int, ...]
    best: Choice

    def of(self, choice: Choice) -> int:
        """Where ``choice`` sits in :attr:`choices`."""
        return self.choices.index(choice)


class SearchBot(Bot):
    """The shared search loop: sample deals in batches, roll every surviving candidate out in
    each, stop at the iteration budget or the time budget, whichever comes first.
    Subclasses choose how deals are drawn and how a deal is played out."""

    kind = "search"
    defaults: ClassVar[SearchConfig] = SearchConfig()
    """This kind's configuration, when the bot is given none."""

    def __init__(
        self,
        seed: int | None = None,
        *,
        name: str | None = None,
        config: SearchConfig | None = None,
        budget: int | float | None = None,
    ) -> None:
        super().__init__(seed, name=name)
        self.config = (type(self).defaults if config is None else config).with_budget(budget)
        """How this bot searches: ``config`` (else its kind's :attr:`defaults`) with ``budget``."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r}, name={self.name!r}, config={self.config!r})"

    # ------------------------------------------------------------------ moves

    def choose_bid(self, view: SeatView) -> int:
        """The legal bid with the best mean score over the sampled deals, never one the hand
        cannot make when it can make one (:func:`upriver.bots.sure.best_bid`)."""
        if len(view.legal_bids) == 1:
            return view.legal_bids[0]
        analysis = self.analyse(view)
        self.last_bid_estimates = {
            bid: made
            for bid, made, worlds in zip(analysis.choices, analysis.made, analysis.worlds, strict=True)
            if isinstance(bid, int) and worlds
        }
        assert isinstance(analysis.best, int)
        return analysis.best

    def choose_card(self, view: SeatView) -> Card:
        """The legal card with the best mean score over the sampled deals."""
        if len(view.legal_cards) == 1:
            return view.legal_cards[0]
        best = self.analyse(view).best
        assert isinstance(best, Card)
        return best

    # ----------------------------------------------------------------- search

    def draw(self, know: Knowledge, position: Position, count: int, seed: int) -> NDArray[np.uint64]:
        """``count`` deals of the hidden cards to try the candidates in."""
        from upriver.bots.sampling import sample_worlds

        return sample_worlds(know, position, count, seed)

    def evaluate(
        self, view: SeatView, position: Position, worlds: NDArray[np.uint64], choice: Choice
    ) -> tuple[NDArray[np.int8], NDArray[np.int8], NDArray[np.float64]]:
        """Play the round out from ``position`` in every deal after ``choice``, with the rule of
        thumb (after a card, the :attr:`~SearchConfig.rollout` policy) for every seat, or in the
        endgame (:attr:`endgame`) by the exact solver; the final
        bids, tricks and round scores, ``(deals, players)``."""
        from upriver.fast import rollout

        if isinstance(choice, Card) and self.config.endgame:
            from upriver.fast.endgame import fits, solve_endgame

            if fits(position, self.config.endgame):
                solved = solve_endgame(position, worlds, script=(choice,), check=False)
                return solved.bids, solved.tricks, solved.scores.astype(np.float64)
        if isinstance(choice, Card):
            policy: Policy = "learned" if self.config.rollout == "learned" else "basic"
            out = rollout(position, worlds, policy, script=(choice,), check=False, threads=1)
        else:
            bids = list(position.bids)
            bids[view.seat] = choice  # the rule of thumb then plays this seat to make it
            out = rollout(dataclasses.replace(position, bids=tuple(bids)), worlds, check=False, threads=1)
        return out.bids, out.tricks, out.scores.astype(np.float64)

    def analyse(self, view: SeatView) -> Analysis:
        """Search the decision in ``view`` (a bid or a card, whichever is due) within the budget."""
        bidding = bool(view.legal_bids)
        choices: tuple[Choice, ...] = view.legal_bids if bidding else view.legal_cards
        if not choices:
            raise ValueError("the view offers no decision: it is not this seat's turn")
        from upriver.fast import position_from_view

        config = self.config
        seed = self.rng.getrandbits(31)
        start = time.perf_counter()
        know = knowledge_of(view)
        position = position_from_view(view)
        seat = view.seat
        values: list[list[NDArray[np.float64]]] = [[] for _ in choices]
        made = [0] * len(choices)
        tricks = [0] * len(choices)
        alive = list(range(len(choices)))
        for round_, batch in batches(config, 4096, start):
            worlds = self.draw(know, position, batch, seed + round_)
            for i in alive:
                bids, took, scores = self.evaluate(view, position, worlds, choices[i])
                value = blend(scores, view, config.rivalry) if config.rivalry else scores[:, seat]
                values[i].append(value)
                tricks[i] += int(took[:, seat].sum())
                made[i] += int((took[:, seat] == bids[:, seat]).sum())
            if config.prune and len(alive) > 2:
                alive = _survivors(values, alive)
        return _analysis(choices, values, made, tricks, view)


def batches(config: SearchConfig, most: int, start: float) -> Iterator[tuple[int, int]]:
    """The batches of a search begun at ``start`` (``time.perf_counter()``), as (number, deals):
    ``config.first_batch`` deals, then twice as many each time up to ``most``, until
    ``config.iterations`` deals are searched or the next batch, at the cost a deal so far, would
    overrun ``config.time_budget``. The caller searches each batch's deals before asking for the next,
    so the clock is read between batches.

    >>> list(batches(SearchConfig(iterations=500, time_budget=None), 128, 0.0))
    [(0, 64), (1, 128), (2, 128), (3, 128), (4, 52)]
    """
    deadline = None if config.time_budget is None else start + config.time_budget
    done, batch, number = 0, config.first_batch, 0
    if config.iterations:
        batch = min(batch, config.iterations)
    while True:
        yield number, batch
        done += batch
        number += 1
        batch = min(2 * batch, most)
        if config.iterations:
            if done >= config.iterations:
                return
            batch = min(batch, config.iterations - done)
        if deadline is not None:
            now = time.perf_counter()
            # Stop when the next batch, at the cost per deal so far, would overrun the deadline.
            if now + (now - start) * batch / done > deadline:
                return


def _survivors(values: list[list[NDArray[np.float64]]], alive: list[int]) -> list[int]:
    """The candidates not clearly worse than the leader: paired over the shared deals, the
    mean difference is within three standard errors of zero."""
    total = {i: np.concatenate(values[i]) for i in alive}
    worlds = min(len(v) for v in total.values())
    leader = max(alive, key=lambda i: float(total[i][:worlds].mean()))
    keep = []
    for i in alive:
        diff = total[leader][:worlds] - total[i][:worlds]
        se = float(diff.std()) / np.sqrt(worlds) if worlds > 1 else float("inf")
        if i == leader or float(diff.mean()) <= 3 * se + 1e-9:
            keep.append(i)
    return keep


def _analysis(
    choices: tuple[Choice, ...],
    values: list[list[NDArray[np.float64]]],
    made: list[int],
    tricks: list[int],
    view: SeatView,
) -> Analysis:
    counts = [sum(len(v) for v in vs) for vs in values]
    # A pruned candidate met fewer deals; compare every candidate on the deals all were tried in.
    means = [float(np.concatenate(vs).mean()) if vs else float("-inf") for vs in values]
    top = max(counts)
    kept = [i for i in range(len(choices)) if counts[i] == top]
    if view.legal_bids:
        # Bids go through the one rule of every level: a few deals often miss every bid alike,
        # and such a tie must not fall to a bid below the sure tricks.
        bids = [choice for i in kept if isinstance(choice := choices[i], int)]
        bid = best_bid(view, bids, [means[i] for i in kept])
        best = choices.index(bid)
    else:
        high = max(means[i] for i in kept)
        tied = [i for i in kept if means[i] == high]
        best = tied[0]
        if len(tied) > 1:
            # The deals cannot tell these cards apart: play the rule of thumb's card if it is one of
            # them (it leads the top trump when every trick is needed, the higher of two needed
            # trumps), as the rollouts assume the seat plays on.
            thumb = BasicBot(0).choose_card(view)
            best = next((i for i in tied if choices[i] == thumb), best)
    return Analysis(
        choices=choices,
        value=tuple(means),
        made=tuple(m / c if c else 0.0 for m, c in zip(made, counts, strict=True)),
        tricks=tuple(t / c if c else 0.0 for t, c in zip(tricks, counts, strict=True)),
        worlds=tuple(counts),
        best=choices[best],
    )


class PimcBot(SearchBot):
    """PIMC over uniform deals that respect the revealed voids, scored by the bot's own round score."""

    kind = "pimc"
