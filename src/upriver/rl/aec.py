"""The whole game as a PettingZoo agent-environment-cycle (AEC) environment.

Agents are ``"player_0"`` … ``"player_{n-1}"``, one per seat in seating order. The
agent selected is always the seat the engine awaits: bids in bidding order (left of the
dealer first, the dealer last; under simultaneous bidding too, each seat seeing no
other bid until all are made), then cards in play order. Each agent observes
``{"observation": encode(view), "action_mask": action_mask(view)}`` built from its own
:class:`~upriver.view.SeatView` only (see :mod:`upriver.rl.encoding`); the one action
space, ``Discrete(70)``, holds the 52 cards and the bids 0–17.

Rewards follow ``reward=`` (:mod:`upriver.rl.common`): ``"round"`` gives every agent its
round score when a round ends, ``"game"`` gives the win share when the game ends. All
agents terminate together when the last round is scored; there is no truncation.

``reset(seed=s)`` plays ``Game(rules, seed=s)``; later resets without a seed draw their
game seeds from a generator seeded with ``s``, so a run of episodes replays exactly.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import gymnasium
import numpy as np
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from upriver.game import Game
from upriver.rl.common import check_reward, make_rules, next_seed, rewards_since, table_text
from upriver.rl.encoding import action_mask, decode_action, encode
from upriver.rl.spaces import ObsDict, action_space, observation_space
from upriver.rules import DEFAULT_PRESET, Rules

__all__ = ["UpriverEnv", "agent_name"]


def agent_name(seat: int) -> str:
    """The agent for ``seat``: ``"player_<seat>"``."""
    return f"player_{seat}"


class UpriverEnv(AECEnv):  # type: ignore[misc]
    """Up and Down the River for ``players`` agents under any rules of the engine.

    ``preset`` names a preset (``None`` for plain :class:`~upriver.rules.Rules` options);
    ``**options`` override single rule options (``max_cards=3``, ``dealer_bid="hook"``);
    ``rules`` gives a whole rule set instead. ``reward`` is ``"round"`` or ``"game"``.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "upriver_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        preset: str | None = DEFAULT_PRESET,
        players: int = 4,
        *,
        rules: Rules | None = None,
        reward: str = "round",
        render_mode: str | None = None,
        **options: object,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'human', 'ansi' or None, not {render_mode!r}")
        self.rules = make_rules(preset, players, rules, dict(options))
        self.reward_mode = check_reward(reward)
        self.render_mode = render_mode
        n = self.rules.player_count
        self.possible_agents = [agent_name(seat) for seat in range(n)]
        self._names = tuple(self.possible_agents)
        self._seats = {name: seat for seat, name in enumerate(self.possible_agents)}
        self.observation_spaces = {name: observation_space() for name in self.possible_agents}
        self.action_spaces = {name: action_space() for name in self.possible_agents}
        self._rng = random.Random()
        self.game: Game | None = None

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The same space object for the agent on every call, so seeding it holds."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """``Discrete(70)``: 0–51 play the card with that index, 52 + k bids k."""
        return self.action_spaces[agent]

    def _game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game: ``Game(rules, seed=seed)``, or the generator's next seed."""
        if seed is not None:
            self._rng = random.Random(seed)
            game_seed = seed
        else:
            game_seed = next_seed(self._rng)
        self.game = Game(self.rules, self._names, seed=game_seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {name: {} for name in self.agents}
        self.agent_selection = self._names[self._to_act(self.game)]
        if self.render_mode == "human":
            self.render()

    @staticmethod
    def _to_act(game: Game) -> int:
        seat = game.to_act
        assert seat is not None, "a game being played always awaits a seat"
        return seat

    def observe(self, agent: str) -> ObsDict:
        """The agent's encoded view and its action mask, from its own seat's view only."""
        view = self._game().view(self._seats[agent])
        return {"observation": encode(view), "action_mask": action_mask(view)}

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Apply the selected agent's action (``None`` once it is terminated)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: None is only for terminated agents")
        game = self._game()
        seat = self._seats[agent]
        move = decode_action(int(action))
        before = len(game.results)
        # The engine is the judge: an illegal move raises and leaves the game unchanged.
        game.move(move, seat)
        self._cumulative_rewards[agent] = 0.0
        rewards = rewards_since(self.reward_mode, game, before)
        self.rewards = {name: rewards[self._seats[name]] for name in self.agents}
        if game.is_over:
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self._names[(seat + 1) % len(self._names)]
        else:
            self.agent_selection = self._names[self._to_act(game)]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """``"ansi"``: the table as text; ``"human"``: the same, printed. Every hand is shown."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; use 'human' or 'ansi'")
            return None
        text = table_text(self._game(), self._names)
        if self.render_mode == "ansi":
            return text
        print(text, end="\n\n")
        return None

    def close(self) -> None:
        """Nothing to release; present because PettingZoo expects ``close`` beside ``render``."""
