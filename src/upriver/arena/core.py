"""An arena run from start to finish: check the bots, plan the duplicate games, play them, summarise.

>>> from upriver import preset
>>> result = run_arena(ArenaConfig(bots=("random", "basic"), rules=preset("classic", 4), games=2, seed=1))
>>> [bot.name for bot in result.summary.bots], result.summary.games
(['random', 'basic'], 2)
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable, Sequence

from upriver.arena.hands import HandRecord
from upriver.arena.match import GameResult
from upriver.arena.runner import RunOutcome, run_games
from upriver.arena.schedule import GameTask, plan, rotations
from upriver.arena.spec import ArenaError, BotSpec, parse_spec
from upriver.arena.stats import Summary, summarize
from upriver.rules import Rules

__all__ = ["ArenaConfig", "ArenaResult", "bot_labels", "check_config", "hand_records", "run_arena"]


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class ArenaConfig:
    """What to play: the bots (``NAME[:ARG]`` specs), the rules, how many games, the seed and the cores."""

    bots: tuple[str, ...]
    rules: Rules
    games: int
    seed: int
    jobs: int = 1


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class ArenaResult:
    """A finished (or interrupted) arena: its configuration, the games played and their statistics."""

    config: ArenaConfig
    names: tuple[str, ...]
    """The bots' labels in reports: their specs, numbered where the same spec is given twice."""
    seatings: tuple[tuple[int, ...], ...]
    planned: int
    results: tuple[GameResult, ...]
    """Every finished game, in plan order."""
    summary: Summary
    interrupted: bool
    elapsed_s: float


def bot_labels(specs: Sequence[BotSpec]) -> tuple[str, ...]:
    """Report labels: each spec as written canonically, with ``#2``, ``#3`` … on repeats."""
    seen: dict[str, int] = {}
    labels = []
    for spec in specs:
        text = str(spec)
        seen[text] = seen.get(text, 0) + 1
        labels.append(text if seen[text] == 1 else f"{text}#{seen[text]}")
    return tuple(labels)


def check_config(config: ArenaConfig) -> tuple[BotSpec, ...]:
    """The parsed bot specs; raise :class:`ArenaError` for anything that cannot be played."""
    if len(config.bots) < 1:
        raise ArenaError("name at least one bot")
    if len(config.bots) > config.rules.player_count:
        raise ArenaError(f"{len(config.bots)} bots cannot share {config.rules.player_count} seats")
    if config.games < 1:
        raise ArenaError(f"--games must be at least 1, not {config.games}")
    if config.jobs < 1:
        raise ArenaError(f"--jobs must be at least 1, not {config.jobs}")
    specs = tuple(parse_spec(text) for text in config.bots)
    for spec in specs:
        spec.factory()  # an unknown budget or a missing pyspiel fails here, before any game
    if any(spec.is_openspiel for spec in specs):
        from upriver.arena.openspiel import check_rules

        check_rules(config.rules)
    return specs


def run_arena(
    config: ArenaConfig,
    *,
    runner: Callable[[Sequence[GameTask]], RunOutcome] | None = None,
    stop: threading.Event | None = None,
) -> ArenaResult:
    """Play the arena and summarise it; ``runner`` replaces the plain :func:`run_games` (e.g. with a bar)."""
    specs = check_config(config)
    canonical = tuple(str(spec) for spec in specs)
    tasks = plan(canonical, config.rules, config.games, config.seed)
    seatings = rotations(config.rules.player_count, len(specs))
    start = time.perf_counter()
    outcome = run_games(tasks, jobs=config.jobs, stop=stop) if runner is None else runner(tasks)
    elapsed = time.perf_counter() - start
    results = tuple(sorted(outcome.results, key=lambda r: r.index))
    names = bot_labels(specs)
    return ArenaResult(
        config=config,
        names=names,
        seatings=seatings,
        planned=len(tasks),
        results=results,
        summary=summarize(results, names, len(seatings)),
        interrupted=outcome.interrupted,
        elapsed_s=elapsed,
    )


def hand_records(result: ArenaResult) -> tuple[HandRecord, ...]:
    """Every seat's every round of an arena result, in plan order, labelled as the report labels the bots."""
    return tuple(
        dataclasses.replace(record, bot=result.names[game.seating[record.seat]])
        for game in result.results
        for record in game.hand_log
    )
