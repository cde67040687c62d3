"""Vector environment speed: agent steps a second with observations, against PettingZoo, in one run.

Every figure is the ``classic`` preset with 4 players (whole games, 1 to 13 cards and back):

- ``vector_agent_steps_per_s_{1,2}core``: :class:`upriver.rl.vector.VectorTables` with every seat
  learning, ``--tables`` tables on one and two numba threads; an agent step is one seat's action
  applied and the next seat's observation (1,695 floats) and mask (70) written. The clock runs
  while ``step`` runs: choosing the actions is the learner's time, not the environment's;
- ``vector_agent_steps_per_cpu_s_{1,2}core``: the same per second of CPU time (over both threads
  for 2): other people's jobs on a shared machine lower the wall-clock figures, hardly these;
- ``vector_with_choice_agent_steps_per_s_2core``: the same, the clock also running while numpy
  picks a random legal action for every table from the masks, as a policy would;
- ``single_seat_learner_steps_per_s_2core``: :class:`upriver.rl.vector.VectorSingleSeatEnv`,
  one learner a table against three rule-of-thumb bots, learner steps (the bots' moves between
  them are played in the same call and not counted);
- ``pettingzoo_agent_steps_per_s``: :class:`upriver.rl.aec.UpriverEnv`, a random legal action and
  the next agent's observation each step, in a Python loop;
- ``pettingzoo_agent_steps_per_cpu_s``: the same per second of CPU time;
- ``ratio_vector_2core_to_pettingzoo``: the two measured in the same run, and
  ``ratio_vector_to_pettingzoo_per_cpu_s`` the same per CPU second on one core each, the ratio a
  busy machine distorts least.

The contenders alternate and each keeps its median. ``--tables`` 1,024 (the default) keeps the
observations (7 MB) in the cache; 8,192 tables write 55 MB a step, and memory bounds them.
numba's OpenMP threads wait for work passively here (``OMP_WAIT_POLICY=PASSIVE`` unless set):
spinning between steps takes a core from whatever else runs, which on a shared machine stalls
every step at the barrier.

    python bench/vector_env.py [--seconds S] [--repeats R] [--tables T]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable

import numpy as np

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # before numba starts its threads

PRESET, PLAYERS = "classic", 4


def vector_steps(
    tables: int, threads: int, *, cpu: bool = False, choose: bool = False
) -> Callable[[float], float]:
    """A timer of agent steps a second of every-seat-learning tables."""
    from upriver.rl.vector import VectorTables

    env = VectorTables(tables, PRESET, PLAYERS, threads=threads)
    rng = np.random.default_rng(0)
    step = env.reset(seed=1)
    env.step(step.mask.argmax(axis=1))  # compile or load

    def run(seconds: float) -> float:
        nonlocal step
        steps, busy = 0, 0.0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            t0 = time.perf_counter()
            actions = (step.mask * rng.random(step.mask.shape)).argmax(axis=1)
            c0, t1 = time.process_time(), time.perf_counter()
            step = env.step(actions)
            busy += (time.process_time() - c0) if cpu else time.perf_counter() - (t0 if choose else t1)
            steps += tables
        return steps / busy

    return run


def single_seat_steps(tables: int, threads: int) -> Callable[[float], float]:
    """A timer of learner steps a second, one learner a table against rule-of-thumb bots."""
    from upriver.rl.vector import VectorSingleSeatEnv

    env = VectorSingleSeatEnv(tables, PRESET, PLAYERS, opponents="basic", threads=threads)
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(0)

    def run(seconds: float) -> float:
        nonlocal obs
        steps, busy = 0, 0.0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            mask = obs["action_mask"]
            actions = (mask * rng.random(mask.shape)).argmax(axis=1)
            t1 = time.perf_counter()
            obs, *_ = env.step(actions)
            busy += time.perf_counter() - t1
            steps += tables
        return steps / busy

    return run


def pettingzoo_steps(seconds: float, cpu: bool = False) -> float:
    """Agent steps a second of the PettingZoo environment: a random legal action, then the next
    agent's observation, as a learner loop does; with ``cpu``, a second of CPU time."""
    from upriver.rl.aec import UpriverEnv

    env = UpriverEnv(PRESET, PLAYERS)
    rng = random.Random(0)
    env.reset(seed=1)
    steps = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        obs = env.observe(env.agent_selection)
        if env.terminations[env.agent_selection]:
            env.reset()
            continue
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        steps += 1
    return steps / (time.process_time() - cpu_start if cpu else time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--repeats", type=int, default=3, help="alternating rounds; each figure is a median")
    parser.add_argument("--tables", type=int, default=1024, help="tables stepped at once")
    args = parser.parse_args(argv)
    timers: dict[str, Callable[[float], float]] = {
        "vector_agent_steps_per_s_1core": vector_steps(args.tables, 1),
        "vector_agent_steps_per_s_2core": vector_steps(args.tables, 2),
        "vector_agent_steps_per_cpu_s_1core": vector_steps(args.tables, 1, cpu=True),
        "vector_agent_steps_per_cpu_s_2core": vector_steps(args.tables, 2, cpu=True),
        "vector_with_choice_agent_steps_per_s_2core": vector_steps(args.tables, 2, choose=True),
        "single_seat_learner_steps_per_s_2core": single_seat_steps(args.tables, 2),
        "pettingzoo_agent_steps_per_s": pettingzoo_steps,
        "pettingzoo_agent_steps_per_cpu_s": lambda seconds: pettingzoo_steps(seconds, cpu=True),
    }
    samples: dict[str, list[float]] = {key: [] for key in timers}
    for _ in range(args.repeats):
        for key, timer in timers.items():
            samples[key].append(timer(args.seconds))
    medians = {key: statistics.median(values) for key, values in samples.items()}
    out: dict[str, object] = {key: round(value) for key, value in medians.items()}
    vector = medians["vector_agent_steps_per_s_2core"]
    out["ratio_vector_2core_to_pettingzoo"] = round(vector / medians["pettingzoo_agent_steps_per_s"])
    out["ratio_vector_to_pettingzoo_per_cpu_s"] = round(
        medians["vector_agent_steps_per_cpu_s_1core"] / medians["pettingzoo_agent_steps_per_cpu_s"]
    )
    out["ratio_vector_2core_to_1core"] = round(vector / medians["vector_agent_steps_per_s_1core"], 2)
    out["tables"] = args.tables
    out["omp_wait_policy"] = os.environ["OMP_WAIT_POLICY"]
    out["python"] = platform.python_version()
    json.dump(out, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
