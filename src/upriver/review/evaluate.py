"""One decision judged from one seat's view: every legal bid or card with its expected score.

This is the expert's own machinery (:class:`upriver.bots.ExpertBot`): deals of the hidden
cards drawn from what the view shows and weighted by the bids made, each candidate played
out in every deal by the compiled kernel. Unlike the bot, the review does not prune: every
candidate meets every deal, so the difference between two candidates (what a choice cost)
is measured on common deals, with its standard error.

:func:`evaluate` is the one place the review asks the expert anything; it takes a
:class:`~upriver.view.SeatView` and nothing else, so no reviewer can see a hidden card.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from upriver.bots.knowledge import knowledge_of
from upriver.bots.levels import ExpertBot
from upriver.cards import Card
from upriver.view import SeatView

__all__ = ["Candidate", "Choice", "Evaluation", "evaluate"]

Choice = int | Card
"""A bid (an ``int``) or a card."""


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Candidate:
    """One legal choice: its expected round score, its chance of making the bid, and how much
    it gives up against the best choice (``loss``, ≥ 0) with that difference's standard error."""

    choice: Choice
    expected: float
    make: float
    loss: float
    loss_error: float


@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Evaluation:
    """The expert's verdict on a decision: every legal choice, in the view's order, over ``deals``
    deals; ``best`` has the highest expected score, ``best_make`` the best chance of making the bid.

    ``distinct`` counts the different deals among them: the expert resamples its deals by how well
    they explain the bids made, and where the bids were unlikely a few deals fit far better than
    the rest and are drawn many times over. Standard errors count the distinct deals only.
    """

    candidates: tuple[Candidate, ...]
    best: Choice
    best_make: Choice
    deals: int
    distinct: int

    def of(self, choice: Choice) -> Candidate:
        """The candidate for ``choice``.

        :raises KeyError: ``choice`` was not a legal choice of the view.
        """
        for candidate in self.candidates:
            if candidate.choice == choice:
                return candidate
        raise KeyError(f"{choice} was not a legal choice here")


def evaluate(view: SeatView, *, deals: int, seed: int) -> Evaluation:
    """Every legal bid or card of ``view``'s seat, played out in the same ``deals`` deals.

    The same view, deals and seed give the same evaluation. A card's expected score is its mean
    over the deals, every seat then playing by the rule of thumb. A bid is valued as the expert
    bids: by its learned bid model (:mod:`upriver.bots.bidmodel`), which reads each bid's rollouts
    in these deals and the hand; the standard error of a bid's loss is that of the rollouts.

    :raises ValueError: it is not the seat's turn, or ``deals`` is below 1.
    """
    if deals < 1:
        raise ValueError(f"a review needs at least 1 deal a decision, not {deals}")
    choices: tuple[Choice, ...] = view.legal_bids if view.legal_bids else view.legal_cards
    if not choices:
        raise ValueError(f"{view.players[view.seat]} has nothing to decide now: it is not their turn")
    if view.foreheads:
        return _blind(view)
    from upriver.fast import position_from_view

    expert = ExpertBot(seed, config=dataclasses.replace(ExpertBot.defaults, prune=False), budget=deals)
    know = knowledge_of(view)
    position = position_from_view(view)
    worlds = expert.draw(know, position, deals, seed)
    values = []
    makes = []
    for choice in choices:
        bids, tricks, scores = expert.evaluate(view, position, worlds, choice)
        values.append(scores[:, view.seat])
        makes.append(float(np.mean(tricks[:, view.seat] == bids[:, view.seat])))
    means = [float(v.mean()) for v in values]
    if view.legal_bids and expert.config.bid_model:
        # The expert bids by its learned model of how it will play each bid (upriver.bots.bidmodel),
        # read from rollouts in these same deals: its expected scores and make chances are the verdict.
        from upriver.bots.bidmodel import bid_table, default_model, expected_scores

        model = default_model()
        table = bid_table(view, expert, deals, seed)
        means = [float(x) for x in expected_scores(table, model, view.rules.scoring, view.round_number)]
        makes = [float(x) for x in model.make_probability(table.features)]
    best = max(range(len(choices)), key=lambda i: (means[i], -i))
    best_make = max(range(len(choices)), key=lambda i: (makes[i], means[i], -i))
    count = len(worlds)
    distinct = len(np.unique(worlds, axis=0))
    candidates = []
    for i, choice in enumerate(choices):
        diff = values[best] - values[i]
        error = float(diff.std(ddof=1)) / np.sqrt(distinct) if count > 1 else 0.0
        candidates.append(
            Candidate(
                choice=choice,
                expected=means[i],
                make=makes[i],
                loss=means[best] - means[i],
                loss_error=error,
            )
        )
    return Evaluation(
        candidates=tuple(candidates),
        best=choices[best],
        best_make=choices[best_make],
        deals=count,
        distinct=distinct,
    )


def _blind(view: SeatView) -> Evaluation:
    """A bid in a blind one-card round, judged exactly: the seat's card is any card it cannot see,
    each as likely, and the trick plays itself (:func:`upriver.bots.blind.blind_chance`), so each
    bid's expected score under the table's scoring is known without deals or error."""
    from upriver.bots.blind import blind_chance, blind_expected

    p = blind_chance(view)
    expected = blind_expected(view, p)
    bids = view.legal_bids
    means = [expected[b] for b in bids]
    makes = [p if b == 1 else 1 - p for b in bids]
    best = max(range(len(bids)), key=lambda i: (means[i], -i))
    best_make = max(range(len(bids)), key=lambda i: (makes[i], means[i], -i))
    candidates = tuple(
        Candidate(choice=b, expected=means[i], make=makes[i], loss=means[best] - means[i], loss_error=0.0)
        for i, b in enumerate(bids)
    )
    return Evaluation(candidates=candidates, best=bids[best], best_make=bids[best_make], deals=0, distinct=0)
