"""The arena's result as JSON, as a table in the terminal, and as a chart (PNG).

The chart is drawn on matplotlib's Agg canvas directly, without pyplot, so it
needs no display and leaves matplotlib's global backend alone.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

from rich.table import Table

from upriver.arena.core import ArenaResult
from upriver.arena.stats import Estimate
from upriver.rules import Rules

__all__ = [
    "FORMAT",
    "dumps",
    "output_stem",
    "pair_lines",
    "result_json",
    "table",
    "write_chart",
    "write_json",
]

FORMAT = "upriver-arena/1"
"""The ``format`` of the JSON result; the number changes when a field changes meaning."""


def _number(value: float) -> float | None:
    """JSON has no NaN: a value that could not be measured is written as null."""
    return None if math.isnan(value) else value


def _estimate(value: Estimate) -> dict[str, Any]:
    return {"mean": _number(value.mean), "low": value.low, "high": value.high, "n": value.n}


def _rules(rules: Rules) -> dict[str, Any]:
    """The rules as a record writes them (:meth:`Rules.options`), with the player count and hand sizes."""
    return {"players": rules.player_count, **rules.options(), "hand_sizes": list(rules.hand_sizes)}


def result_json(result: ArenaResult) -> dict[str, Any]:
    """The whole result as JSON-ready data (docs/arena.md says what it holds)."""
    config, summary = result.config, result.summary
    return {
        "format": FORMAT,
        "bots": list(result.names),
        "specs": list(config.bots),
        "rules": _rules(config.rules),
        "seed": config.seed,
        "jobs": config.jobs,
        "games_asked": config.games,
        "games_planned": result.planned,
        "games_played": len(result.results),
        "games_used": summary.games,
        "sets_used": summary.sets,
        "seatings": [list(seating) for seating in result.seatings],
        "interrupted": result.interrupted,
        "elapsed_s": result.elapsed_s,
        "results": [
            {
                "bot": bot.name,
                "games": bot.games,
                "seat_games": bot.seat_games,
                "points_per_game": _estimate(bot.points_per_game),
                "points_per_hand": _estimate(bot.points_per_hand),
                "win_share": _number(bot.win_share),
                "exact_rate": _number(bot.exact_rate),
                "within_one_rate": _number(bot.within_one_rate),
                "moves": bot.moves,
                "mean_move_s": _number(bot.mean_move_s),
                "p95_move_s": _number(bot.p95_move_s),
                "rating": {"mu": bot.rating.mu, "sigma": bot.rating.sigma, "ordinal": bot.rating.ordinal},
            }
            for bot in summary.bots
        ],
        "pairs": [
            {
                "a": pair.a,
                "b": pair.b,
                "points_per_game_difference": _estimate(pair.difference),
                "significant": pair.difference.significant,
            }
            for pair in summary.pairs
        ],
        "games": [
            {
                "index": game.index,
                "deal": game.deal,
                "rotation": game.rotation,
                "seed": game.seed,
                "seating": list(game.seating),
                "totals": list(game.totals),
                "hands": game.hands,
                "exact": list(game.exact),
                "within_one": list(game.within_one),
            }
            for game in result.results
        ],
    }


def output_stem(result: ArenaResult) -> str:
    """A file name for this arena: its bots, seed and game count (``random-vs-basic-s1-n100``)."""
    bots = "-vs-".join(re.sub(r"[^A-Za-z0-9_.#-]+", "_", name).replace("#", "_") for name in result.names)
    return f"{bots}-s{result.config.seed}-n{result.planned}"


def _layout(value: object, indent: int = 0) -> str:
    """JSON indented by object, with lists of plain values kept on one line (a game is one screen line)."""
    pad = "  " * (indent + 1)
    if isinstance(value, dict) and value:
        items = [f"{pad}{json.dumps(key)}: {_layout(item, indent + 1)}" for key, item in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * indent + "}"
    if isinstance(value, list) and any(isinstance(item, dict | list) for item in value):
        items = [pad + _layout(item, indent + 1) for item in value]
        return "[\n" + ",\n".join(items) + "\n" + "  " * indent + "]"
    return json.dumps(value, separators=(", ", ": "))


def dumps(result: ArenaResult) -> str:
    """The JSON result as text."""
    return _layout(result_json(result)) + "\n"


def write_json(result: ArenaResult, path: Path) -> Path:
    """Write the JSON result to ``path`` (parents made as needed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps(result), encoding="utf-8")
    return path


def _interval(value: Estimate, digits: int) -> str:
    if math.isnan(value.mean):
        return "–"
    if value.low is None or value.high is None:
        return f"{value.mean:.{digits}f}"
    return f"{value.mean:.{digits}f} ± {(value.high - value.low) / 2:.{digits}f}"


def _rate(value: float) -> str:
    return "–" if math.isnan(value) else f"{value:.1%}"


def _ms(value: float) -> str:
    if math.isnan(value):
        return "–"
    ms = value * 1000
    return f"{ms:.3f}" if ms < 1 else f"{ms:.1f}"  # a rule-of-thumb move takes microseconds


def table(result: ArenaResult) -> Table:
    """The per-bot statistics as a rich table (95% intervals as ±)."""
    summary = result.summary
    note = f"{summary.games} games in {summary.sets} duplicate sets"
    if result.interrupted:
        note += f" (interrupted: {len(result.results)} of {result.planned} played)"
    out = Table(title=f"upriver arena, seed {result.config.seed}: {note}")
    for heading in (
        "bot",
        "points/game",
        "points/hand",
        "wins",
        "exact",
        "±1",
        "ms/move",
        "p95 ms",
        "rating",
    ):
        out.add_column(heading, justify="left" if heading == "bot" else "right")
    for bot in summary.bots:
        out.add_row(
            bot.name,
            _interval(bot.points_per_game, 1),
            _interval(bot.points_per_hand, 2),
            _rate(bot.win_share),
            _rate(bot.exact_rate),
            _rate(bot.within_one_rate),
            _ms(bot.mean_move_s),
            _ms(bot.p95_move_s),
            f"{bot.rating.mu:.1f} ± {bot.rating.sigma:.1f}",
        )
    return out


def pair_lines(result: ArenaResult) -> list[str]:
    """One line per pair of bots: the paired difference in points a game, and whether it is significant."""
    lines = []
    for pair in result.summary.pairs:
        verdict = "significant at 95%" if pair.difference.significant else "not significant"
        lines.append(f"{pair.a} − {pair.b}: {_interval(pair.difference, 2)} points a game ({verdict})")
    return lines


def write_chart(result: ArenaResult, path: Path) -> Path:
    """Draw the score distribution of every bot and their ratings into a PNG at ``path``."""
    # matplotlib takes most of a second to import: only a finished arena pays for it.
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(11, 4.5), layout="constrained")
    FigureCanvasAgg(figure)
    scores_ax, ratings_ax = figure.subplots(1, 2, width_ratios=(3, 2))
    names = result.names
    per_bot: list[list[int]] = [[] for _ in names]
    for game in result.results:
        for seat, bot in enumerate(game.seating):
            per_bot[bot].append(game.totals[seat])
    everything = [score for scores in per_bot for score in scores]
    if everything:
        low, high = min(everything), max(everything)
        bins = max(1, min(40, high - low + 1))
        for name, scores in zip(names, per_bot, strict=True):
            if scores:
                scores_ax.hist(
                    scores, bins=bins, range=(low, high + 1), histtype="step", linewidth=1.6, label=name
                )
        scores_ax.legend(loc="upper right", fontsize="small")
    scores_ax.set_title("Points a game, per seat")
    scores_ax.set_xlabel("points")
    scores_ax.set_ylabel("seats")
    bots = result.summary.bots
    positions = list(range(len(bots)))
    ratings_ax.errorbar(
        [bot.rating.mu for bot in bots],
        positions,
        xerr=[3 * bot.rating.sigma for bot in bots],
        fmt="o",
        capsize=4,
    )
    ratings_ax.set_yticks(positions, [bot.name for bot in bots])
    ratings_ax.set_ylim(len(bots) - 0.5, -0.5)  # first bot on top, one row per bot
    ratings_ax.set_title("openskill rating (μ ± 3σ)")
    ratings_ax.set_xlabel("μ")
    figure.suptitle(
        f"upriver arena: {result.summary.games} games, {result.config.rules.player_count} players, "
        f"seed {result.config.seed}"
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=100)
    return path
