"""Up and Down the River for reinforcement learning, through PettingZoo's AEC interface.

>>> from upriver.pettingzoo import env
>>> table = env(preset="classic", players=4, max_cards=2, reward="game")
>>> table.reset(seed=1)
>>> obs, reward, terminated, truncated, info = table.last()
>>> table.agent_selection, obs["observation"].shape, int(obs["action_mask"].sum())
('player_3', (1695,), 2)

``env(...)`` is the environment with PettingZoo's usual guards, as in its classic card
games: an illegal action ends the game with reward −1 for the offender (and 0 for the
others), an action outside the space is refused, and the call order is enforced.
``raw_env(...)`` is the bare :class:`~upriver.rl.aec.UpriverEnv`, where the engine refuses
an illegal action with :class:`~upriver.errors.IllegalActionError` and nothing changes.

Keyword arguments: ``preset`` (a preset name, or ``None`` for plain rule options),
``players``, any rule option of :data:`upriver.options.OPTIONS` spelled as in the game record and
read by :meth:`~upriver.rules.Rules.from_options` (``schedule`` is ``"up-down"``, ``"down-up"`` or a
list of hand sizes, ``scoring`` a name or a custom scoring's object) or a whole ``rules=Rules(...)``;
``reward`` ``"round"`` (each round's score, to every agent, when the round ends) or ``"game"``
(the win share, 1/k to each of k tied winners, when the game ends); ``render_mode`` ``"human"``
or ``"ansi"``.

Observation encoding and actions: :mod:`upriver.rl.encoding` and ``docs/rl.md``.
Needs the ``rl`` extra (``pip install upriver[rl]``): pettingzoo and gymnasium.
"""

from __future__ import annotations

from typing import Any

from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from upriver.rl.aec import UpriverEnv, agent_name
from upriver.rl.common import REWARD_MODES, win_shares
from upriver.rl.encoding import (
    ACTION_COUNT,
    FIELDS,
    OBS_SIZE,
    action_mask,
    bid_action,
    card_action,
    decode_action,
    encode,
)

__all__ = [
    "ACTION_COUNT",
    "FIELDS",
    "OBS_SIZE",
    "REWARD_MODES",
    "UpriverEnv",
    "action_mask",
    "agent_name",
    "bid_action",
    "card_action",
    "decode_action",
    "encode",
    "env",
    "raw_env",
    "win_shares",
]


def raw_env(**kwargs: Any) -> UpriverEnv:
    """The bare AEC environment: illegal actions raise :class:`~upriver.errors.IllegalActionError`."""
    return UpriverEnv(**kwargs)


def env(**kwargs: Any) -> Any:
    """The AEC environment wrapped as PettingZoo's classic games are (illegal move: −1, game over)."""
    wrapped = wrappers.TerminateIllegalWrapper(raw_env(**kwargs), illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
