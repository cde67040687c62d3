"""A compiled rollout kernel: whole random games and mid-round rollouts, in batches, with numba.

The kernel sits below the bots in the bots layer: the search bots, the sampler and the bid
model call it, and it calls no bot. The first name taken from this package imports numba (the
engine and the CLI never do); :mod:`upriver.fast.thumb`, the rule of thumb's numbers that the
``basic`` bot shares with the kernel, imports nothing, so that bot runs without numba. Nothing
is compiled until the first call, and compiled code is cached on disk.

>>> from upriver import Rules, Schedule
>>> from upriver.fast import simulate
>>> sim = simulate(Rules(player_count=4, schedule=Schedule.EXPLICIT, explicit_sizes=(10,)), 1000, seed=1)
>>> sim.tricks.shape, bool((sim.tricks.sum(axis=2) == 10).all())
((1000, 1, 4), True)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from upriver.fast.api import (
        Policy,
        Position,
        Rollout,
        Simulation,
        position_from_game,
        position_from_view,
        rollout,
        sample_worlds,
        simulate,
        world_of,
    )
    from upriver.fast.endgame import Solution, solve_endgame

__all__ = [
    "Policy",
    "Position",
    "Rollout",
    "Simulation",
    "Solution",
    "position_from_game",
    "position_from_view",
    "rollout",
    "sample_worlds",
    "simulate",
    "solve_endgame",
    "world_of",
]

_HOME = {
    name: "upriver.fast.endgame" if name in ("Solution", "solve_endgame") else "upriver.fast.api"
    for name in __all__
}
"""The module each public name comes from, imported (with numba) when the name is first asked for."""


def __getattr__(name: str) -> object:
    """A public name of the kernel, from its module, imported on first use (PEP 562)."""
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
