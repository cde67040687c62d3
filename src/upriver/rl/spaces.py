"""The Gymnasium spaces of one seat's observation and action, shared by both environments."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from upriver.rl.encoding import ACTION_COUNT, OBS_SIZE

__all__ = ["action_space", "observation_space"]

ObsDict = dict[str, np.ndarray[Any, Any]]
"""``{"observation": float32 vector, "action_mask": int8 vector}``."""


def observation_space() -> gymnasium.spaces.Dict:
    """The encoded view (floats in [-1, 1]) and the action mask (0/1 for each of the 70 actions)."""
    return gymnasium.spaces.Dict(
        {
            "observation": gymnasium.spaces.Box(-1.0, 1.0, (OBS_SIZE,), dtype=np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (ACTION_COUNT,), dtype=np.int8),
        }
    )


def action_space() -> gymnasium.spaces.Discrete:
    """``Discrete(70)``: 0–51 play the card with that ``Card.index``, 52 + k bids k."""
    return gymnasium.spaces.Discrete(ACTION_COUNT)
