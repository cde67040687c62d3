"""Duplicate deals: every seating rotation of the bots plays the same deals, so the luck of the cards cancels.

With ``k`` bots at ``n`` seats, seat ``i`` first gets bot ``i mod k``; that seating is
then rotated round the table through all ``n`` rotations, keeping each distinct
seating once (with 2 bots at 4 seats, ``ABAB`` and ``BABA``). Every rotation of a
duplicate set plays a game with the same seed, and the engine deals each round from
(game seed, round) alone, so every rotation is dealt the same cards seat by seat and
each bot holds every seat's cards equally often.

>>> rotations(4, 2)
((0, 1, 0, 1), (1, 0, 1, 0))
>>> rotations(3, 3)
((0, 1, 2), (1, 2, 0), (2, 0, 1))
"""

from __future__ import annotations

import dataclasses
import random

from upriver.rules import Rules

__all__ = ["GameTask", "deal_seeds", "plan", "rotations"]


def rotations(seats: int, bots: int) -> tuple[tuple[int, ...], ...]:
    """The distinct seatings (bot index per seat) of one duplicate set, in rotation order."""
    if not 1 <= bots <= seats:
        raise ValueError(f"{bots} bots cannot share {seats} seats: give 1 to {seats} bots")
    base = [seat % bots for seat in range(seats)]
    found: list[tuple[int, ...]] = []
    for shift in range(seats):
        seating = tuple(base[(seat + shift) % seats] for seat in range(seats))
        if seating not in found:
            found.append(seating)
    # Every distinct rotation of a cyclic seating occurs equally often among the n shifts,
    # so keeping each once leaves every bot in every seat equally often.
    return tuple(found)


def deal_seeds(seed: int, sets: int) -> list[int]:
    """One game seed per duplicate set, all drawn from the arena's seed."""
    rng = random.Random(seed)
    return [rng.getrandbits(62) for _ in range(sets)]


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class GameTask:
    """One arena game: everything a worker process needs to play it, and where it sits in the plan."""

    index: int
    """Position in the plan; results are ordered by it, so the numbers do not depend on ``--jobs``."""
    deal: int
    """The duplicate set (one deal seed) this game belongs to."""
    rotation: int
    seed: int
    rules: Rules
    specs: tuple[str, ...]
    """The arena's bots as typed, by bot index."""
    seating: tuple[int, ...]
    """The bot index at each seat."""


def plan(specs: tuple[str, ...], rules: Rules, games: int, seed: int) -> list[GameTask]:
    """The arena's games: at least ``games``, rounded up to whole duplicate sets."""
    seatings = rotations(rules.player_count, len(specs))
    sets = max(1, -(-games // len(seatings)))
    tasks: list[GameTask] = []
    for deal, game_seed in enumerate(deal_seeds(seed, sets)):
        for rotation, seating in enumerate(seatings):
            tasks.append(
                GameTask(
                    index=len(tasks),
                    deal=deal,
                    rotation=rotation,
                    seed=game_seed,
                    rules=rules,
                    specs=specs,
                    seating=seating,
                )
            )
    return tasks
