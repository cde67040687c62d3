"""Computer players that see only a :class:`~upriver.view.SeatView`, and a registry to make them by name.

Kinds: ``random`` (uniform legal moves), ``basic`` (rule of thumb), ``pimc`` (Monte
Carlo over deals that respect revealed voids), ``ipimc`` (the same over deals weighted
by the bids made, with pruning), ``ucb`` (flat UCB1 with random rollouts: a fast
stand-in for OpenSpiel's ISMCTS), the levels ``easy``, ``normal``, ``hard`` and ``expert``
(:mod:`upriver.bots.levels`), ``rival``: the expert playing to win the game rather than
to score, and ``master``, a trial: the expert's bids with its cards from an information-set tree
search (:mod:`upriver.bots.master`). The search kinds import the compiled kernel (numba) at
their first search, not before.

>>> from upriver import Game, preset
>>> from upriver.bots import act, make_bot
>>> game = Game(preset("classic", player_count=4), seed=1)
>>> bots = [make_bot("basic", seed=seat) for seat in range(4)]
>>> while not game.is_over:
...     seat = game.awaiting[0]
...     _ = act(game, seat, bots[seat])
>>> len(game.results)
22
"""

from __future__ import annotations

import dataclasses

from upriver.bots.base import Bot, act
from upriver.bots.basic import BasicBot
from upriver.bots.ipimc import IpimcBot, IpimcConfig
from upriver.bots.levels import LEVELS, EasyBot, ExpertBot, HardBot, NormalBot, RivalBot
from upriver.bots.master import MasterBot
from upriver.bots.pimc import PimcBot, SearchBot, SearchConfig
from upriver.bots.random_bot import RandomBot
from upriver.bots.ucb import UcbBot

__all__ = [
    "BOT_KINDS",
    "LEVELS",
    "BasicBot",
    "Bot",
    "EasyBot",
    "ExpertBot",
    "HardBot",
    "IpimcBot",
    "IpimcConfig",
    "MasterBot",
    "NormalBot",
    "PimcBot",
    "RandomBot",
    "RivalBot",
    "SearchBot",
    "SearchConfig",
    "UcbBot",
    "act",
    "make_bot",
    "parse_budget",
]

BOT_KINDS: dict[str, type[Bot]] = {
    cls.kind: cls
    for cls in (
        RandomBot,
        BasicBot,
        PimcBot,
        IpimcBot,
        UcbBot,
        EasyBot,
        NormalBot,
        HardBot,
        ExpertBot,
        MasterBot,
        RivalBot,
    )
}
"""Every kind of bot by its registry name: kinds, then levels."""


def parse_budget(text: str) -> int | float:
    """A budget written as text: ``200`` (iterations) or ``0.2``, ``0.2s``, ``200ms`` (seconds a move)."""
    word = text.strip().lower()
    try:
        if word.endswith("ms"):
            return float(word[:-2]) / 1000
        if word.endswith("s"):
            return float(word[:-1])
        return int(word) if word.isdigit() else float(word)
    except ValueError:
        raise ValueError(
            f"a budget is a number of iterations like 200, or seconds like 0.2s, not {text!r}"
        ) from None


def make_bot(
    kind: str,
    seed: int | None = None,
    *,
    name: str | None = None,
    budget: int | float | str | None = None,
    iterations: int | None = None,
    time_budget: float | None = None,
) -> Bot:
    """A new bot of this kind or level, reproducible from ``seed`` (with an iteration budget).

    ``kind`` may carry its budget as ``NAME:ARG`` (``"pimc:200"``, ``"expert:0.5s"``).
    ``budget`` is an int (iterations), a float (seconds per decision) or such text; so are
    ``iterations`` and ``time_budget``, which a search kind takes together (both limits hold).
    The random and rule-of-thumb kinds take no budget. Other search settings are a
    :class:`~upriver.bots.pimc.SearchConfig` given to the bot's class.
    """
    key, _, arg = kind.strip().lower().partition(":") if isinstance(kind, str) else ("", "", "")
    cls = BOT_KINDS.get(key)
    if cls is None:
        raise ValueError(f"unknown bot kind {kind!r}: expected one of {', '.join(BOT_KINDS)}")
    if arg:
        budget = arg
    if isinstance(budget, str):
        budget = parse_budget(budget)
    if issubclass(cls, SearchBot):
        config = cls.defaults
        if iterations is not None or time_budget is not None:
            config = dataclasses.replace(config, iterations=iterations, time_budget=time_budget)
        return cls(seed, name=name, config=config, budget=budget)
    if issubclass(cls, UcbBot):
        if time_budget is not None:
            budget = time_budget  # which the bot refuses: it counts simulations, not seconds
        elif budget is None:
            budget = iterations
        return cls(seed, name=name, budget=budget)
    if budget is not None or iterations is not None or time_budget is not None:
        raise ValueError(f"bot kind {key!r} takes no budget")
    return cls(seed, name=name)
