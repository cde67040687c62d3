"""A compiled rollout kernel: whole random games and mid-round rollouts, in batches, with numba.

Importing this package imports numba (the engine and the CLI never do); nothing is
compiled until the first call, and compiled code is cached on disk.

>>> from upriver import Rules, Schedule
>>> sim = simulate(Rules(player_count=4, schedule=Schedule.EXPLICIT, explicit_sizes=(10,)), 1000, seed=1)
>>> sim.tricks.shape, bool((sim.tricks.sum(axis=2) == 10).all())
((1000, 1, 4), True)
"""

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
