"""Kernel speed: compiled random hands and rollouts, against the engine and OpenSpiel, in one run.

Every figure is 4 players × 10 cards with the hook (as OpenSpiel's ``oh_hell`` with
``num_tricks_fixed=10``):

- ``kernel_random_hands_per_s_{1,2}core``: whole random hands (deal, bids, ten tricks,
  scores) from :func:`upriver.fast.simulate` on one and two numba threads, and the same
  per second of CPU time (``…_per_cpu_s_…``): their ratio is the parallel efficiency, which
  other people's jobs on a shared machine do not lower, while they do lower the 2-core figure;
- ``kernel_basic_hands_per_s_1core``: the same under the rule-of-thumb policy;
- ``kernel_{random,basic}_rollouts_per_s_1core``: completions of one mid-round position
  (bids made, two tricks and a card played) across sampled worlds;
- ``engine_api_hands_per_s``: the engine's legality-checked API (``bench/engine.py``);
- ``openspiel_loop_hands_per_s``: OpenSpiel in a tight Python loop; and
  ``openspiel_cpp_hands_per_s``: ``pyspiel.evaluate_bots`` with C++ uniform random bots
  (both only when ``import pyspiel`` works).

The machine is shared, so the contenders alternate and each keeps its median, and
every ``ratio_…`` compares figures taken in the same run.

    python bench/kernel.py [--json] [--seconds S] [--repeats R]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from upriver import Game, Phase, Rules, Schedule
from upriver.rules import DealerBid

RULES = Rules(player_count=4, schedule=Schedule.EXPLICIT, explicit_sizes=(10,), dealer_bid=DealerBid.HOOK)
BATCH = 100_000


def kernel_hands(policy: str, threads: int, cpu: bool = False) -> Callable[[float], float]:
    """A timer of whole hands a second from :func:`upriver.fast.simulate`; with ``cpu``, hands
    per second of CPU time summed over threads, which other jobs on the machine cannot lower."""
    from upriver.fast import simulate

    simulate(RULES, 1000, policy, seed=0, threads=threads)  # type: ignore[arg-type]  # compile or load

    def run(seconds: float) -> float:
        hands, seed = 0, 1
        start, cpu_start = time.perf_counter(), time.process_time()
        while time.perf_counter() - start < seconds:
            simulate(RULES, BATCH, policy, seed=seed, threads=threads)  # type: ignore[arg-type]
            hands += BATCH
            seed += 1
        elapsed = time.process_time() - cpu_start if cpu else time.perf_counter() - start
        return hands / elapsed

    return run


def mid_round_position() -> tuple[Any, Any]:
    """A position with every bid made, two tricks and one card played, and worlds to complete it."""
    from upriver.fast import position_from_view, sample_worlds

    rng = random.Random(5)
    game = Game(RULES, seed=5)
    while game.phase is Phase.BIDDING or len(game.tricks) < 2 or not game.trick:
        if game.phase is Phase.BIDDING:
            game.bid(rng.choice(game.legal_bids()))
        else:
            game.play(rng.choice(game.legal_cards()))
    assert game.to_act is not None
    position = position_from_view(game.view(game.to_act))
    return position, sample_worlds(position, BATCH, seed=1)


def kernel_rollouts(policy: str) -> Callable[[float], float]:
    """A timer of mid-round rollouts a second on one thread."""
    from upriver.fast import rollout

    position, worlds = mid_round_position()
    rollout(position, worlds[:1000], policy, threads=1)  # type: ignore[arg-type]

    def run(seconds: float) -> float:
        done, seed = 0, 1
        start = time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds:
            rollout(position, worlds, policy, seed=seed, threads=1, check=False)  # type: ignore[arg-type]
            done += len(worlds)
            seed += 1
        return done / elapsed

    return run


def openspiel_cpp_hands() -> Callable[[float], float] | None:
    """A timer of OpenSpiel's all-C++ random play, or ``None`` without ``pyspiel``."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("oh_hell", {"players": 4, "num_tricks_fixed": 10})
    bots = [pyspiel.make_uniform_random_bot(player, 100 + player) for player in range(4)]

    def run(seconds: float) -> float:
        hands = 0
        start = time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds:
            pyspiel.evaluate_bots(game.new_initial_state(), bots, hands)
            hands += 1
        return hands / elapsed

    return run


def engine_timers() -> tuple[Callable[[float], float], Callable[[float], float] | None]:
    """The engine's API timer and OpenSpiel's Python loop timer, shared with ``bench/engine.py``."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from engine import openspiel_hands, upriver_hands

    return upriver_hands, openspiel_hands(0.0)


def measure(seconds: float, repeats: int) -> dict[str, object]:
    """Every figure (median of alternating runs) and every ratio."""
    engine_api, openspiel_loop = engine_timers()
    timers: dict[str, Callable[[float], float] | None] = {
        "kernel_random_hands_per_s_1core": kernel_hands("random", 1),
        "kernel_random_hands_per_s_2core": kernel_hands("random", 2),
        "kernel_random_hands_per_cpu_s_1core": kernel_hands("random", 1, cpu=True),
        "kernel_random_hands_per_cpu_s_2core": kernel_hands("random", 2, cpu=True),
        "kernel_basic_hands_per_s_1core": kernel_hands("basic", 1),
        "kernel_random_rollouts_per_s_1core": kernel_rollouts("random"),
        "kernel_basic_rollouts_per_s_1core": kernel_rollouts("basic"),
        "engine_api_hands_per_s": engine_api,
        "openspiel_loop_hands_per_s": openspiel_loop,
        "openspiel_cpp_hands_per_s": openspiel_cpp_hands(),
    }
    runs: dict[str, list[float]] = {name: [] for name, timer in timers.items() if timer is not None}
    for _ in range(repeats):
        for name, timer in timers.items():
            if timer is not None:
                runs[name].append(timer(seconds))
    fig = {name: statistics.median(values) for name, values in runs.items()}
    result: dict[str, object] = {name: round(value) for name, value in fig.items()}
    one = fig["kernel_random_hands_per_s_1core"]
    ratios = {
        "ratio_kernel_2core_to_1core": fig["kernel_random_hands_per_s_2core"] / one,
        "ratio_parallel_efficiency_2core": fig["kernel_random_hands_per_cpu_s_2core"]
        / fig["kernel_random_hands_per_cpu_s_1core"],
        "ratio_kernel_1core_to_engine_api": one / fig["engine_api_hands_per_s"],
        "ratio_basic_rollouts_to_random_hands": fig["kernel_basic_rollouts_per_s_1core"] / one,
        "ratio_basic_to_random_rollouts_same_position": fig["kernel_basic_rollouts_per_s_1core"]
        / fig["kernel_random_rollouts_per_s_1core"],
        "ratio_basic_to_random_hands": fig["kernel_basic_hands_per_s_1core"] / one,
    }
    if "openspiel_cpp_hands_per_s" in fig:
        cpp = fig["openspiel_cpp_hands_per_s"]
        ratios["ratio_kernel_1core_to_openspiel_cpp"] = one / cpp
        ratios["ratio_kernel_2core_to_openspiel_cpp"] = fig["kernel_random_hands_per_s_2core"] / cpp
    if "openspiel_loop_hands_per_s" in fig:
        ratios["ratio_kernel_1core_to_openspiel_loop"] = one / fig["openspiel_loop_hands_per_s"]
    result.update({name: round(value, 2) for name, value in ratios.items()})
    result["python"] = platform.python_version()
    result["seconds_per_run"] = seconds
    result["repeats"] = repeats
    if "openspiel_cpp_hands_per_s" not in fig:
        result["note"] = "install the bench extra (pip install -e '.[bench]') to compare with OpenSpiel"
    return result


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print a table, or one JSON object with ``--json``."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of each timed run")
    parser.add_argument("--repeats", type=int, default=3, help="alternating runs per contender")
    args = parser.parse_args(argv)
    result = measure(args.seconds, args.repeats)
    if args.json:
        print(json.dumps(result))
        return 0
    width = max(len(name) for name in result)
    for name, value in result.items():
        print(f"{name:<{width}}  {value:>12}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
