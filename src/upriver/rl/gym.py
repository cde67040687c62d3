"""One seat learns, upriver bots play the others: the game as a single-agent Gymnasium env.

>>> import gymnasium
>>> import upriver.rl.gym
>>> table = gymnasium.make("upriver/SingleSeat-v0", preset="countdown", players=4, max_cards=2)
>>> obs, info = table.reset(seed=5)
>>> obs["observation"].shape, obs["action_mask"].shape
((1695,), (70,))

Observations, actions and rewards are those of the PettingZoo environment
(:mod:`upriver.rl.aec`) for the learning seat; an episode is one whole game. The other
seats are bots made with ``make_bot(kind, seed)`` for any kind in
:data:`upriver.bots.BOT_KINDS` (with a budget too, as in ``"pimc:200"``), seeded from
the game seed, so ``reset(seed=s)`` replays the same game for the same actions. The
learner's rewards include what happened during the bots' moves that followed its action
(a round usually ends on someone else's card).

An action outside the mask ends the episode at once with reward ``illegal_reward``
(−1) and ``info["illegal"] = True``, PettingZoo's convention for its classic games.
``action_masks()`` returns the current mask, for libraries that ask for it that way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np

from upriver.bots import Bot, act, make_bot
from upriver.game import Game
from upriver.rl.common import check_reward, make_rules, rewards_since, table_text
from upriver.rl.encoding import action_mask, decode_action, encode
from upriver.rl.spaces import ObsDict, action_space, observation_space
from upriver.rules import DEFAULT_PRESET, Rules

__all__ = ["ENV_ID", "SingleSeatEnv"]

ENV_ID = "upriver/SingleSeat-v0"
"""The id under which :class:`SingleSeatEnv` is registered with Gymnasium on import."""


class SingleSeatEnv(gymnasium.Env[ObsDict, int]):
    """The learning agent plays ``seat`` (``None``: a random seat each game) against bots.

    ``opponents`` is one bot kind for every other seat or one kind per other seat, in
    seat order. Rules and ``reward`` are as for :class:`upriver.rl.aec.UpriverEnv`.
    """

    metadata = {"render_modes": ["human", "ansi"]}  # noqa: RUF012 - Env declares it a plain attribute

    def __init__(
        self,
        preset: str | None = DEFAULT_PRESET,
        players: int = 4,
        *,
        rules: Rules | None = None,
        seat: int | None = 0,
        opponents: str | Sequence[str] = "random",
        reward: str = "round",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        **options: object,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'human', 'ansi' or None, not {render_mode!r}")
        self.rules = make_rules(preset, players, rules, dict(options))
        n = self.rules.player_count
        if seat is not None and not 0 <= seat < n:
            raise ValueError(f"seat must be from 0 to {n - 1}, or None for a random seat, not {seat}")
        kinds = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(kinds) != n - 1:
            raise ValueError(f"{n} players need {n - 1} opponents, not {len(kinds)}")
        for kind in kinds:
            make_bot(kind, 0)  # an unknown kind or a bad budget is refused now, with make_bot's message
        self.opponents = tuple(kinds)
        self.fixed_seat = seat
        self.reward_mode = check_reward(reward)
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.observation_space: gymnasium.spaces.Dict = observation_space()  # type: ignore[assignment]
        self.action_space: gymnasium.spaces.Discrete = action_space()  # type: ignore[assignment]
        self.names = tuple(f"player_{s}" for s in range(n))
        self.seat = 0 if seat is None else seat
        self.game: Game | None = None
        self._bots: dict[int, Bot] = {}

    def _game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game

    def _observe(self) -> ObsDict:
        view = self._game().view(self.seat)
        return {"observation": encode(view), "action_mask": action_mask(view)}

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """The learner's legal actions now, as booleans (what sb3-contrib's MaskablePPO asks for)."""
        return action_mask(self._game().view(self.seat)).astype(bool)

    def _bots_play(self) -> None:
        """Let the bots move until the learner must act or the game ends."""
        game = self._game()
        while not game.is_over and game.to_act != self.seat:
            seat = game.to_act
            assert seat is not None
            act(game, seat, self._bots[seat])

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, dict[str, Any]]:
        """Deal a new game (``Game(rules, seed=seed)`` given a seed) and play the bots' first moves."""
        super().reset(seed=seed)
        game_seed = seed if seed is not None else int(self.np_random.integers(2**63 - 1))
        n = self.rules.player_count
        self.seat = self.fixed_seat if self.fixed_seat is not None else int(self.np_random.integers(n))
        others = [s for s in range(n) if s != self.seat]
        self._bots = {
            s: make_bot(kind, seed=(game_seed * 8 + s) % 2**63, name=self.names[s])
            for s, kind in zip(others, self.opponents, strict=True)
        }
        self.game = Game(self.rules, self.names, seed=game_seed)
        self._bots_play()
        if self.render_mode == "human":
            self.render()
        return self._observe(), {"seat": self.seat}

    def step(self, action: int) -> tuple[ObsDict, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play the learner's bid or card, then the bots' moves up to its next turn."""
        game = self._game()
        if game.is_over:
            raise RuntimeError("the game is over: call reset() to start another")
        view = game.view(self.seat)
        if not action_mask(view)[int(action)]:
            return self._observe(), self.illegal_reward, True, False, {"illegal": True}
        before = len(game.results)
        move = decode_action(int(action))
        game.move(move, self.seat)
        self._bots_play()
        reward = rewards_since(self.reward_mode, game, before)[self.seat]
        info: dict[str, Any] = {}
        if game.is_over:
            info = {"totals": game.totals, "winners": game.winners}
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, game.is_over, False, info

    def render(self) -> str | None:
        """``"ansi"``: the table as text; ``"human"``: the same, printed. Every hand is shown."""
        if self.render_mode is None:
            return None
        text = table_text(self._game(), self.names)
        if self.render_mode == "ansi":
            return text
        print(text, end="\n\n")
        return None


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="upriver.rl.gym:SingleSeatEnv")
