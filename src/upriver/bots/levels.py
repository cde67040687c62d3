"""Difficulty levels: ``easy``, ``normal``, ``hard`` and ``expert``, each a kind of bot with a budget.

A level is a name people choose from; behind it is a bot kind and its search configuration
(:class:`~upriver.bots.pimc.SearchConfig`), above all a budget per decision: a number of
sampled deals, which keeps a level reproducible from its seed, capped by a time (one second)
that only a badly loaded machine reaches. ``bench/bots.py`` measures the ladder and each
level's time per move. Any budget given to the bot (an int for iterations, a float for
seconds) replaces the level's.
"""

from __future__ import annotations

import dataclasses

from upriver.bots.base import Bot
from upriver.bots.basic import BasicBot
from upriver.bots.ipimc import IpimcBot, IpimcConfig
from upriver.bots.pimc import PimcBot, SearchConfig

__all__ = ["LEVELS", "EasyBot", "ExpertBot", "HardBot", "NormalBot", "RivalBot"]


class EasyBot(BasicBot):
    """``easy``: the rule of thumb, instant (bids its count of tricks and plays to make it)."""

    kind = "easy"


class NormalBot(PimcBot):
    """``normal``: PIMC over a handful of deals of the hidden cards: sound, but noisy."""

    kind = "normal"
    defaults = SearchConfig(iterations=8)


class HardBot(PimcBot):
    """``hard``: PIMC over hundreds of deals that respect the voids shown."""

    kind = "hard"
    defaults = SearchConfig(iterations=400)


class ExpertBot(IpimcBot):
    """``expert``: PIMC over thousands of deals weighted by the bids made, pruning clear losers;
    bids from the learned bid model (``ipimc:2000`` is the same bot bidding from its rollouts)."""

    kind = "expert"
    defaults = IpimcConfig(iterations=2000, bid_model=True)


class RivalBot(ExpertBot):
    """``rival``: the expert playing to win the game rather than to score. It values each deal by
    its chance of finishing first (:mod:`upriver.bots.rivalry`) when it chooses a card (its bids
    are the expert's, from the bid model): it gives up points, mostly to hold a lead or to chase
    one late in the game. Against ``expert`` it took 59% [54, 64] of the wins over 150 duplicate
    river deals (``bench/rivalry.py``; at 500 deals a move instead of 2000 the gain was unclear)."""

    kind = "rival"
    defaults = dataclasses.replace(ExpertBot.defaults, rivalry=1.0)


LEVELS: dict[str, type[Bot]] = {cls.kind: cls for cls in (EasyBot, NormalBot, HardBot, ExpertBot)}
"""Every level by name, weakest first."""
