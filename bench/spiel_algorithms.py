"""OpenSpiel's algorithms on upriver's own game (``python_upriver``, :mod:`upriver.spiel`), with JSON out.

Runs, each on the smallest table that shows it working, and prints one JSON object:

- ``random_sim``: OpenSpiel's ``random_sim_test`` on a 4-seat classic game of rounds 1 2 3
  (clones, serialization, masks, tensors, returns), and the time a game;
- ``ismcts``: OpenSpiel's Python ISMCTS (fair resampling from the information state) in seat 0
  of one-round 4-seat 3-card games against three uniform random seats, on duplicate deals
  with a uniform random seat 0 for reference (same chance outcomes), and its time a move;
- ``cfr``: tabular CFR on three seats with one card each from a three-card deck (trump
  rotating, so no turn-up): NashConv of the average policy after each iteration;
- ``mccfr``: external sampling MCCFR on the smallest full-deck game (three seats, one card):
  iterations a second and information states reached;
- ``ppo``: OpenSpiel's PyTorch PPO (``open_spiel.python.pytorch.ppo``, as its ``ppo_example``)
  learning seat 0 of the 4-seat classic game of rounds 1 2 3 against uniform random seats, once
  per seed of ``--seeds`` (torch, numpy and the environments seeded from it); then each seed's
  greedy policy (the most probable legal action) in seat 0 on ``--ppo-deals`` duplicate deals,
  each also played by a uniform random seat 0 and by the greedy policy of the seed's untrained
  network (same chance outcomes, same streams for the other seats; the same deals for every
  seed): per seed the points a game over each with a 95% interval of the paired difference, and
  across seeds their mean, spread and range.
  Needs PyTorch (``examples/requirements.txt``); without it the entry says so.

    python bench/spiel_algorithms.py [--ismcts-hands 40] [--simulations 100] [--cfr 4]
        [--seeds 1 2 3] [--ppo-updates 100] [--ppo-deals 1000] [--only ppo]
"""

from __future__ import annotations

import argparse
import copy
import importlib
import json
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import cfr, exploitability, external_sampling_mccfr, ismcts

import upriver.spiel  # noqa: F401  # registers python_upriver
from upriver.arena.fair import RandomRollout
from upriver.arena.stats import estimate

CLASSIC_123 = {"players": 4, "hand_sizes": "1,2,3"}
PARTS = ("random_sim", "ismcts", "cfr", "mccfr", "ppo")


def random_sim(sims: int) -> dict[str, Any]:
    game = pyspiel.load_game("python_upriver", CLASSIC_123)
    start = time.perf_counter()
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)
    return {
        "table": CLASSIC_123,
        "games": sims,
        "passed": True,
        "s_a_game": (time.perf_counter() - start) / sims,
    }


def _play(game: Any, seat0: Any, seed: int) -> tuple[float, int, float]:
    """One game: seat 0 by ``seat0(state)`` (None: uniform random), the others uniform random; chance
    and the others from generators seeded by ``seed``, so two calls with one seed deal alike."""
    chance, others, own = random.Random(seed), random.Random(seed + 1), random.Random(seed + 2)
    state = game.new_initial_state()
    moves, thinking = 0, 0.0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, odds = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(chance.choices(outcomes, odds)[0])
        elif state.current_player() == 0 and seat0 is not None:
            start = time.perf_counter()
            state.apply_action(int(seat0(state)))
            thinking += time.perf_counter() - start
            moves += 1
        else:
            pick = own if state.current_player() == 0 else others
            state.apply_action(pick.choice(state.legal_actions()))
    return state.returns()[0], moves, thinking


def ismcts_run(hands: int, simulations: int) -> dict[str, Any]:
    params = {"players": 4, "hand_sizes": "3", "dealer": 3}
    game = pyspiel.load_game("python_upriver", params)
    bot = ismcts.ISMCTSBot(game, RandomRollout(7), 2.0, simulations, random_state=np.random.RandomState(7))
    gains, moves, thinking = [], 0, 0.0
    for hand in range(hands):
        points, made, spent = _play(game, bot.step, 1000 + hand)
        reference = _play(game, None, 1000 + hand)[0]
        gains.append(points - reference)
        moves, thinking = moves + made, thinking + spent
    over_random = estimate(gains)
    return {
        "table": params,
        "simulations": simulations,
        "hands": hands,
        "points_over_random_seat0": over_random.mean,
        "interval95": [over_random.low, over_random.high],
        "s_a_move": thinking / max(moves, 1),
    }


def cfr_run(iterations: int) -> dict[str, Any]:
    params = {
        "players": 3,
        "preset": "",
        "hand_sizes": "1",
        "deck": "AS KS QH",
        "dealer": 0,
        "rules": "trump=rotate",
    }
    game = pyspiel.load_game("python_upriver", params)
    solver = cfr.CFRSolver(game)
    conv = []
    start = time.perf_counter()
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
        conv.append(float(exploitability.nash_conv(game, solver.average_policy())))
    return {"table": params, "nash_conv": conv, "s": time.perf_counter() - start}


def mccfr_run(iterations: int) -> dict[str, Any]:
    params = {"players": 3, "preset": "", "hand_sizes": "1"}
    game = pyspiel.load_game("python_upriver", params)
    solver = external_sampling_mccfr.ExternalSamplingSolver(game, external_sampling_mccfr.AverageType.SIMPLE)
    np.random.seed(0)
    start = time.perf_counter()
    for _ in range(iterations):
        solver.iteration()
    spent = time.perf_counter() - start
    return {
        "table": params,
        "iterations": iterations,
        "per_s": iterations / spent,
        "infostates": len(solver._infostates),
    }


class SeatZero(rl_environment.Environment):  # type: ignore[misc]  # open_spiel is untyped
    """OpenSpiel's RL environment with seats 1… played uniformly at random, so that every time step is
    seat 0's (``ppo_example`` trains one player of a one-player game).

    A time step holds seat 0's information state and legal actions only (the others' lists are
    empty: PPO reads its own player's), made once a step and kept until the next move, since
    the 1695-value tensor is most of a step's cost."""

    def __init__(self, game: Any, seed: int) -> None:
        super().__init__(game, chance_event_sampler=rl_environment.ChanceEventSampler(seed=seed))
        self._others = random.Random(seed)
        self._time_step: Any = None

    def _others_move(self) -> Any:
        state = self._state
        while not state.is_terminal() and state.current_player() != 0:
            if state.is_chance_node():
                state.apply_action(self._chance_event_sampler(state))
            else:
                state.apply_action(self._others.choice(state.legal_actions()))
        last = state.is_terminal()
        self._should_reset = last
        empty: list[list[Any]] = [[] for _ in range(self.num_players - 1)]
        self._time_step = rl_environment.TimeStep(
            observations={
                "info_state": [state.information_state_tensor(0), *empty],
                "legal_actions": [state.legal_actions(0), *empty],
                "current_player": state.current_player(),
                "serialized_state": [],
            },
            rewards=state.rewards(),
            discounts=[0.0 if last else 1.0] * self.num_players,
            step_type=rl_environment.StepType.LAST if last else rl_environment.StepType.MID,
        )
        return self._time_step

    def get_time_step(self) -> Any:
        return self._time_step

    def reset(self) -> Any:
        self._state = self._game.new_initial_state()
        return self._others_move()

    def step(self, actions: list[int]) -> Any:
        if self._should_reset:
            return self.reset()
        self._state.apply_action(actions[0])
        return self._others_move()


def _greedy(torch: Any, network: Any) -> Any:
    """Seat 0 by the most probable legal action of ``network``'s masked policy."""

    def act(state: Any) -> int:
        legal = state.legal_actions(0)
        with torch.no_grad():
            logits = network.actor(torch.tensor(state.information_state_tensor(0), dtype=torch.float32))
        return int(legal[int(torch.argmax(logits[legal]))])

    return act


def ppo_run(seeds: list[int], updates: int, envs: int, steps: int, deals: int) -> dict[str, Any]:
    """PPO trained once per seed (torch, numpy and every environment seeded from it), then its greedy
    policy in seat 0 of ``deals`` games, each played again on the same deal with the same streams
    for the other seats (``_play``) by a uniform random seat 0 and by the greedy policy of the
    untrained network of that seed (a greedy policy is no random one even untrained, so the gain
    over it is what training added); the same deals for every seed."""
    try:
        torch: Any = importlib.import_module("torch")  # examples/requirements.txt; not a dependency
        from open_spiel.python.pytorch.ppo import PPO, PPOAgent
        from open_spiel.python.vector_env import SyncVectorEnv
    except ImportError as error:
        return {"ran": False, "why": f"needs PyTorch (examples/requirements.txt): {error}"}
    torch.set_num_threads(1)
    game = pyspiel.load_game("python_upriver", CLASSIC_123)
    deal_seeds = [1_000_000 + 3 * deal for deal in range(deals)]  # _play uses seed, seed+1, seed+2
    reference = [_play(game, None, seed)[0] for seed in deal_seeds]
    runs, gains, learnts = [], [], []
    for seed in seeds:
        torch.manual_seed(seed)
        np.random.seed(seed)  # PPO shuffles its minibatches with numpy's global generator
        vector = SyncVectorEnv([SeatZero(game, seed * 1_000 + index) for index in range(envs)])
        agent = PPO(
            input_shape=(game.information_state_tensor_size(),),
            num_actions=game.num_distinct_actions(),
            num_players=game.num_players(),
            player_id=0,
            num_envs=envs,
            steps_per_batch=steps,
            agent_fn=PPOAgent,
        )
        untrained = _greedy(torch, copy.deepcopy(agent.network))
        returns: list[list[float]] = []
        start, cpu = time.perf_counter(), time.process_time()
        time_step = vector.reset()
        for _ in range(updates):
            finished: list[float] = []
            for _ in range(steps):
                output = agent.step(time_step)
                time_step, reward, done, unreset = vector.step(output, reset_if_done=True)
                finished += [ts.rewards[0] for ts in unreset if ts.last()]
                agent.post_step([r[0] for r in reward], done)
            agent.learn(time_step)
            returns.append(finished)
        trained_s, trained_cpu_s = time.perf_counter() - start, time.process_time() - cpu
        policy = _greedy(torch, agent.network)
        points = [_play(game, policy, deal)[0] for deal in deal_seeds]
        before = [_play(game, untrained, deal)[0] for deal in deal_seeds]
        over_random = estimate([p - r for p, r in zip(points, reference, strict=True)])
        over_untrained = estimate([p - b for p, b in zip(points, before, strict=True)])
        gains.append(over_random.mean)
        learnts.append(over_untrained.mean)
        runs.append(
            {
                "seed": seed,
                "train_s": trained_s,
                "train_cpu_s": trained_cpu_s,
                "episodes": sum(map(len, returns)),
                "mean_return_first_update": float(np.mean(returns[0])) if returns[0] else None,
                "mean_return_last_update": float(np.mean(returns[-1])) if returns[-1] else None,
                "points_greedy": float(np.mean(points)),
                "over_random_seat0": over_random.mean,
                "interval95": [over_random.low, over_random.high],
                "points_greedy_untrained": float(np.mean(before)),
                "over_untrained": over_untrained.mean,
                "over_untrained_interval95": [over_untrained.low, over_untrained.high],
            }
        )
    return {
        "ran": True,
        "table": CLASSIC_123,
        "updates": updates,
        "decisions_an_update": envs * steps,
        "deals": deals,
        "points_random_seat0": float(np.mean(reference)),
        "seeds": runs,
        "over_random_mean": float(np.mean(gains)),
        "over_random_sd": float(np.std(gains, ddof=1)) if len(gains) > 1 else None,
        "over_random_range": [min(gains), max(gains)],
        "over_untrained_mean": float(np.mean(learnts)),
        "over_untrained_sd": float(np.std(learnts, ddof=1)) if len(learnts) > 1 else None,
        "over_untrained_range": [min(learnts), max(learnts)],
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sims", type=int, default=3, help="random_sim_test games")
    parser.add_argument("--ismcts-hands", type=int, default=40)
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--cfr", type=int, default=4, help="CFR iterations")
    parser.add_argument("--mccfr", type=int, default=200, help="external sampling MCCFR iterations")
    parser.add_argument("--ppo-updates", type=int, default=100, help="PPO updates a seed")
    parser.add_argument("--ppo-envs", type=int, default=8)
    parser.add_argument("--ppo-steps", type=int, default=64, help="steps of every environment an update")
    parser.add_argument("--ppo-deals", type=int, default=1000, help="duplicate deals to evaluate on")
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3], help="PPO training seeds")
    parser.add_argument("--only", choices=PARTS, nargs="+", default=list(PARTS), help="parts to run")
    args = parser.parse_args()
    parts: dict[str, Callable[[], dict[str, Any]]] = {
        "random_sim": lambda: random_sim(args.sims),
        "ismcts": lambda: ismcts_run(args.ismcts_hands, args.simulations),
        "cfr": lambda: cfr_run(args.cfr),
        "mccfr": lambda: mccfr_run(args.mccfr),
        "ppo": lambda: ppo_run(args.seeds, args.ppo_updates, args.ppo_envs, args.ppo_steps, args.ppo_deals),
    }
    out = {name: run() for name, run in parts.items() if name in args.only}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
