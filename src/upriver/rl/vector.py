"""Thousands of tables stepped at once in compiled code, for learning fast.

Two faces over one compiled core (:mod:`upriver.fast.vector`):

- :class:`VectorTables`: every seat learns. Each table awaits one seat at a time; ``step``
  takes one action a table, for the seat the last call named, and answers the next seat's
  observation and mask, every seat's rewards and whether the game ended.
- :class:`VectorSingleSeatEnv`: one learning seat a table against the kernel's bots
  (``"basic"``, the rule of thumb, or ``"random"``), as a Gymnasium
  :class:`~gymnasium.vector.VectorEnv` (``Dict`` observations of ``observation`` and
  ``action_mask``, ``MultiDiscrete`` actions).

Observations and masks are :mod:`upriver.rl.encoding`'s, value for value (the tests replay
random games in the engine and compare every observation), written into arrays made once:
each call answers the same arrays, overwritten by the next call; copy what you keep. Rewards
follow ``reward=`` as in :mod:`upriver.rl.common`: ``"round"`` pays each round's points when
the round ends, ``"game"`` the win share when the game ends. An action outside the mask ends
that table's game with ``illegal_reward`` for the seat that sent it (PettingZoo's convention).

Autoreset is *same-step* (:attr:`gymnasium.vector.AutoresetMode.SAME_STEP`): when a table's
game ends during a step, ``terminated`` is true for it, its rewards are the game's last, and the
observation answered is already the first of its next game. With one learner, the learner's
last observation of the ended game is in ``infos["final_obs"]`` (rows where
``infos["_final_obs"]`` is true) and the game's totals in ``infos["totals"]``; with every seat
learning, the ended game's totals are in :attr:`VectorStep.final_totals`. There is no
truncation: every game ends.

Rules are any the engine plays except the blind one-card round. The first dealer follows the
rules (the first-Jack draw, else seat 0) and the deals come from the kernel's generator, seeded
per table from ``reset(seed=…)``, so a seed replays the same games for the same actions
whatever the number of threads. ``threads`` is how many numba threads step the tables
(``None``: all of them).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, NamedTuple

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space
from numpy.typing import NDArray

from upriver.cards import Card, cards_in
from upriver.fast import vector as core
from upriver.fast._jit import set_threads
from upriver.fast.api import round_opts
from upriver.fast.policies import POLICY_BASIC, POLICY_RANDOM
from upriver.game import Game
from upriver.rl.common import check_reward, make_rules
from upriver.rl.encoding import (
    ACTION_COUNT,
    FIELDS,
    OBS_SIZE,
    action_mask,
    decode_action,
    encode,
    max_game_points,
    offset,
)
from upriver.rl.spaces import ObsDict, action_space, observation_space
from upriver.rules import DEFAULT_PRESET, FirstDealer, Rules

__all__ = ["OPPONENT_POLICIES", "VectorSingleSeatEnv", "VectorStep", "VectorTables"]

OPPONENT_POLICIES = {"basic": POLICY_BASIC, "random": POLICY_RANDOM}
"""The kernel's bots a single learner can face: the rule of thumb and uniform random play."""

_WRITTEN = frozenset(core.LAYOUT) | {"blind", "foreheads"}
"""Fields the compiled writer fills (the blind ones stay zero: no blind rounds here); the rest of
the layout is the same through a round and is copied from a template the encoder makes."""


class VectorStep(NamedTuple):
    """What :class:`VectorTables` answers, one row a table (arrays reused by the next call)."""

    obs: NDArray[np.float32]
    """``(T, OBS_SIZE)``: the observation of the seat to act now."""
    mask: NDArray[np.int8]
    """``(T, 70)``: its legal actions."""
    seat: NDArray[np.int64]
    """``(T,)``: the seat to act now, whose action the next ``step`` takes."""
    rewards: NDArray[np.float32]
    """``(T, players)``: every seat's reward for the last step."""
    terminated: NDArray[np.bool_]
    """``(T,)``: the table's game ended in the last step; ``obs`` is already its next game's."""
    illegal: NDArray[np.bool_]
    """``(T,)``: the game ended because the action was not legal."""
    final_totals: NDArray[np.int64]
    """``(T, players)``: where ``terminated``, the ended game's totals."""


def _template(rules: Rules) -> NDArray[np.float32]:
    """Each round's observation fields that stay the same through the round, taken from
    :func:`~upriver.rl.encoding.encode` on a game played by the engine (first legal moves)."""
    game = Game(rules, seed=0)
    rows = np.zeros((rules.rounds, OBS_SIZE), np.float32)
    keep = np.zeros(OBS_SIZE, bool)
    for field in FIELDS:
        if field.name not in _WRITTEN:
            keep[offset(field.name) : offset(field.name) + field.size] = True
    done = -1
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        if game.round_number - 1 > done:
            done = game.round_number - 1
            rows[done, keep] = encode(view)[keep]
        game.move(decode_action(int(np.flatnonzero(action_mask(view))[0])), seat)
    return rows


class _Tables:
    """The compiled tables and their arrays, shared by both faces."""

    def __init__(
        self,
        num_tables: int,
        rules: Rules,
        *,
        reward: str,
        illegal_reward: float,
        single: bool,
        seat: int | None,
        policy: int,
        threads: int | None,
    ) -> None:
        if rules.blind_one_card:
            raise ValueError(
                "the vector environment does not play blind one-card rounds: turn blind_one_card off, "
                "or use upriver.rl.aec / upriver.rl.gym, which play every rule"
            )
        if num_tables < 1:
            raise ValueError(f"num_tables must be 1 or more, not {num_tables}")
        n = rules.player_count
        if seat is not None and not 0 <= seat < n:
            raise ValueError(f"seat must be from 0 to {n - 1}, or None for a random seat, not {seat}")
        self.rules = rules
        self.threads = threads
        self.setup = core.Setup(
            sizes=np.array(rules.hand_sizes, np.int64),
            opts=np.stack([round_opts(rules, number) for number in range(1, rules.rounds + 1)]),
            first_jack=rules.first_dealer is FirstDealer.FIRST_JACK,
            first_dealer=0,
            template=_template(rules),
            layout=np.array([offset(name) for name in core.LAYOUT], np.int64),
            most=max_game_points(rules),
            game_reward=check_reward(reward) == "game",
            illegal_reward=float(illegal_reward),
            single=single,
            random_seat=seat is None,
            fixed_seat=0 if seat is None else seat,
            policy=policy,
        )
        self.tables = core.new_tables(num_tables, n)
        shape = (num_tables, n)
        self.out = core.Outputs(
            obs=np.zeros((num_tables, OBS_SIZE), np.float32),
            mask=np.zeros((num_tables, ACTION_COUNT), np.int8),
            seat=np.zeros(num_tables, np.int64),
            rewards=np.zeros(shape, np.float32),
            terminated=np.zeros(num_tables, np.bool_),
            illegal=np.zeros(num_tables, np.bool_),
            final_obs=np.zeros((num_tables, OBS_SIZE) if single else (num_tables, 0), np.float32),
            final_mask=np.zeros((num_tables, ACTION_COUNT) if single else (num_tables, 0), np.int8),
            final_totals=np.zeros(shape, np.int64),
        )
        self._actions = np.zeros(num_tables, np.int64)
        self._started = False

    def reset(self, seed: int | None) -> None:
        game_seed = random.getrandbits(63) if seed is None else seed
        if self.threads == 1:
            core.reset_range(0, self.tables.hands.shape[0], game_seed, self.tables, self.setup, self.out)
        else:
            with set_threads(self.threads):
                core.reset_parallel(game_seed, self.tables, self.setup, self.out)
        self._started = True

    def step(self, actions: Sequence[int] | NDArray[np.integer[Any]]) -> None:
        if not self._started:
            raise RuntimeError("call reset() before step()")
        given = np.asarray(actions)
        if given.shape != self._actions.shape:
            raise ValueError(
                f"step() needs one action a table, shape {self._actions.shape}, not {given.shape}"
            )
        self._actions[:] = given
        if self.threads == 1:
            core.step_range(0, self._actions.shape[0], self._actions, self.tables, self.setup, self.out)
        else:
            with set_threads(self.threads):
                core.step_parallel(self._actions, self.tables, self.setup, self.out)

    def dealt(self, table: int) -> tuple[int, tuple[tuple[Card, ...], ...], Card | None]:
        """Table ``table``'s current round as dealt: (dealer, every hand, the turned card)."""
        state = self.tables.state[table]
        hands = tuple(cards_in(int(mask)) for mask in self.tables.dealt[table])
        turned = int(state[core.TURNED])
        return int(state[core.DEALER]), hands, None if turned < 0 else Card.from_index(turned)


class VectorTables:
    """``num_tables`` games where every seat learns: one action a table a step, for its seat to act.

    Rules as for :class:`upriver.rl.aec.UpriverEnv` (``preset``, ``players``, rule options or a
    whole ``rules``); ``reward`` ``"round"`` or ``"game"``.
    """

    def __init__(
        self,
        num_tables: int,
        preset: str | None = DEFAULT_PRESET,
        players: int = 4,
        *,
        rules: Rules | None = None,
        reward: str = "round",
        illegal_reward: float = -1.0,
        threads: int | None = None,
        **options: object,
    ) -> None:
        self.rules = make_rules(preset, players, rules, dict(options))
        self.num_tables = num_tables
        self._core = _Tables(
            num_tables, self.rules, reward=reward, illegal_reward=illegal_reward, single=False, seat=None,
            policy=POLICY_RANDOM, threads=threads,
        )  # fmt: skip
        out = self._core.out
        self._step = VectorStep(
            out.obs, out.mask, out.seat, out.rewards, out.terminated, out.illegal, out.final_totals
        )

    def reset(self, seed: int | None = None) -> VectorStep:
        """Start a game at every table; table ``t`` is seeded from ``(seed, t)``."""
        self._core.reset(seed)
        return self._step

    def step(self, actions: Sequence[int] | NDArray[np.integer[Any]]) -> VectorStep:
        """Play ``actions[t]`` for the seat to act at table ``t``; games that end start again."""
        self._core.step(actions)
        return self._step

    def dealt(self, table: int) -> tuple[int, tuple[tuple[Card, ...], ...], Card | None]:
        """The round now being played at ``table`` as it was dealt: (dealer, hands, turned card).

        The whole table's cards, for replaying a game in the engine, as ``render()`` shows them.
        """
        return self._core.dealt(table)


class VectorSingleSeatEnv(gymnasium.vector.VectorEnv[ObsDict, NDArray[np.int64], NDArray[Any]]):
    """``num_envs`` tables, each with one learning seat (``seat``, or ``None``: drawn each game)
    against the kernel's ``opponents`` (``"basic"`` or ``"random"``) in the other seats.

    The learner's reward for a step includes what happened during the bots' moves that followed
    its action, as in :class:`upriver.rl.gym.SingleSeatEnv`. ``infos["seat"]`` is each table's
    learning seat.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 - VectorEnv declares a plain attribute

    def __init__(
        self,
        num_envs: int,
        preset: str | None = DEFAULT_PRESET,
        players: int = 4,
        *,
        rules: Rules | None = None,
        seat: int | None = 0,
        opponents: str = "basic",
        reward: str = "round",
        illegal_reward: float = -1.0,
        threads: int | None = None,
        **options: object,
    ) -> None:
        if opponents not in OPPONENT_POLICIES:
            raise ValueError(
                f"opponents must be one of {', '.join(map(repr, OPPONENT_POLICIES))}, not {opponents!r}"
            )
        self.rules = make_rules(preset, players, rules, dict(options))
        self._core = _Tables(
            num_envs, self.rules, reward=reward, illegal_reward=illegal_reward, single=True, seat=seat,
            policy=OPPONENT_POLICIES[opponents], threads=threads,
        )  # fmt: skip
        self.num_envs = num_envs
        self.single_observation_space = observation_space()
        self.single_action_space = action_space()
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        out = self._core.out
        self._obs: ObsDict = {"observation": out.obs, "action_mask": out.mask}
        self._final: ObsDict = {"observation": out.final_obs, "action_mask": out.final_mask}
        self._rows = np.arange(num_envs)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, dict[str, Any]]:
        """Start a game at every table and play the bots up to each learner's first move."""
        self._core.reset(seed)
        return self._obs, {"seat": self._core.out.seat}

    def step(
        self, actions: NDArray[np.int64]
    ) -> tuple[ObsDict, NDArray[np.float32], NDArray[np.bool_], NDArray[np.bool_], dict[str, Any]]:
        """Play each learner's action, then the bots up to its next move (same-step autoreset)."""
        seats = self._core.out.seat.copy()
        self._core.step(actions)
        out = self._core.out
        rewards = out.rewards[self._rows, seats]
        infos: dict[str, Any] = {"seat": out.seat, "illegal": out.illegal}
        if out.terminated.any():
            infos.update(
                final_obs=self._final,
                _final_obs=out.terminated,
                totals=out.final_totals,
                _totals=out.terminated,
            )
        return self._obs, rewards, out.terminated, np.zeros(self.num_envs, np.bool_), infos

    def action_masks(self) -> NDArray[np.bool_]:
        """Every table's legal actions now, as booleans (what maskable PPO implementations ask for)."""
        return self._core.out.mask.astype(bool)

    def dealt(self, table: int) -> tuple[int, tuple[tuple[Card, ...], ...], Card | None]:
        """The round now being played at ``table`` as it was dealt: (dealer, hands, turned card)."""
        return self._core.dealt(table)
