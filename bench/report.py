"""The benchmarks page: committed results of the ``bench/`` scripts, rendered as Markdown tables.

Each script here prints its figures as JSON. A run worth keeping is committed as one file under
``bench/results/`` (a ``.json`` per script or question), which says what was measured and holds
the runs, each with the figures the script printed (``output``, under the script's own keys):

.. code-block:: json

    {
      "title": "Rollout kernel",
      "script": "bench/kernel.py",
      "about": "What the figures are, in a sentence or two (no dates: they belong to a run).",
      "layout": "figures",
      "columns": [{"key": "kernel_random_hands_per_s_1core", "label": "kernel, random, 1 core"}],
      "runs": [
        {"date": "2026-12-01", "command": "python bench/kernel.py --json",
         "machine": "2 cores, idle", "output": {"kernel_random_hands_per_s_1core": 1619565}}
      ]
    }

``layout`` ``"runs"`` draws one table with a row per run (its date, command and machine, then a
column per entry of ``columns``); ``"figures"`` draws, per run, a table of figure and value (for a
script that prints many figures at once); ``"entries"`` draws a list, one entry per run headed by its
first column's value, for results that are sentences rather than numbers. A column may give a
``unit`` written after each value; a run may add a ``note``; a file's ``order`` (default 100)
places it on the page.
The documentation site's benchmarks page is this rendering (``docs/hooks/bench_page.py`` puts it into
``docs/benchmarks.md`` at build time), so a figure is written once, in its result file.

    python bench/report.py [--results bench/results]     # the Markdown, on standard output

A result file that does not say all of this is refused with a sentence naming the file and what is
missing, so a broken file stops the site's build instead of vanishing from the page.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"
"""Where the committed results live."""

LAYOUTS = ("runs", "figures", "entries")


class ResultError(ValueError):
    """A result file that cannot be rendered; the message names the file and what is wrong."""


@dataclass(frozen=True)
class Column:
    """One figure of a script's output: its key there, how the page calls it, its unit."""

    key: str
    label: str
    unit: str = ""


@dataclass(frozen=True)
class Run:
    """One run of a script: when, how, where, and what it printed."""

    date: str
    command: str
    machine: str
    output: dict[str, Any]
    note: str = ""


@dataclass(frozen=True)
class Result:
    """One result file: a question, the script that answers it, and its runs, oldest first."""

    name: str
    title: str
    script: str
    about: str
    layout: str
    columns: tuple[Column, ...]
    runs: tuple[Run, ...]


def _text(data: dict[str, Any], key: str, where: str, *, optional: bool = False) -> str:
    value = data.get(key, "" if optional else None)
    if not isinstance(value, str):
        raise ResultError(f"{where}: {key!r} must be text, not {value!r}")
    return value


def parse(name: str, data: object) -> Result:
    """The result file ``name`` read from its JSON ``data``; :class:`ResultError` if it is malformed."""
    if not isinstance(data, dict):
        raise ResultError(f"{name}: a result file is a JSON object with title, script, columns and runs")
    layout = _text(data, "layout", name, optional=True) or "runs"
    if layout not in LAYOUTS:
        raise ResultError(f"{name}: layout {layout!r} is not one of {', '.join(LAYOUTS)}")
    raw_columns = data.get("columns")
    if not isinstance(raw_columns, list) or not raw_columns:
        raise ResultError(f"{name}: 'columns' must be a non-empty list of {{key, label}} objects")
    columns = []
    for index, raw in enumerate(raw_columns):
        where = f"{name}: column {index + 1}"
        if not isinstance(raw, dict):
            raise ResultError(f"{where} must be an object with key and label")
        unit = _text(raw, "unit", where, optional=True)
        columns.append(Column(_text(raw, "key", where), _text(raw, "label", where), unit))
    raw_runs = data.get("runs")
    if not isinstance(raw_runs, list) or not raw_runs:
        raise ResultError(f"{name}: 'runs' must be a non-empty list of runs")
    runs = []
    for index, raw in enumerate(raw_runs):
        where = f"{name}: run {index + 1}"
        if not isinstance(raw, dict) or not isinstance(raw.get("output"), dict):
            raise ResultError(f"{where} must be an object with date, command, machine and output")
        runs.append(
            Run(
                date=_text(raw, "date", where),
                command=_text(raw, "command", where),
                machine=_text(raw, "machine", where),
                output=raw["output"],
                note=_text(raw, "note", where, optional=True),
            )
        )
    for column in columns:
        if not any(column.key in run.output for run in runs):
            raise ResultError(f"{name}: column {column.key!r} is in no run's output; fix the key or drop it")
    return Result(
        name=name,
        title=_text(data, "title", name),
        script=_text(data, "script", name),
        about=_text(data, "about", name),
        layout=layout,
        columns=tuple(columns),
        runs=tuple(runs),
    )


def load(folder: Path = RESULTS) -> list[Result]:
    """Every result file in ``folder``, in the order of their ``order`` key, then by name."""
    found: list[tuple[int, Result]] = []
    for path in sorted(folder.glob("*.json")):
        try:
            data = json.loads(path.read_text("utf-8"))
        except json.JSONDecodeError as error:
            raise ResultError(f"{path.name}: not JSON ({error})") from None
        order = data.get("order", 100) if isinstance(data, dict) else 100
        found.append((order if isinstance(order, int) else 100, parse(path.name, data)))
    return [result for _, result in sorted(found, key=lambda item: item[0])]


def figure(value: object, unit: str = "") -> str:
    """A figure as the page writes it: thousands separated, a few significant digits, text as it is."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        text = "yes" if value else "no"
    elif isinstance(value, int):
        text = f"{value:,}"
    elif isinstance(value, float):
        size = abs(value)
        text = f"{value:,.0f}" if size >= 100 else f"{value:.1f}" if size >= 10 else f"{value:.3g}"
    else:
        text = str(value)
    text = text.replace("|", "\\|")
    return f"{text} {unit}" if unit else text


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def render_result(result: Result, level: int = 2) -> str:
    """One result file as Markdown: its title, what it measures, and its table(s)."""
    lines = [f"{'#' * level} {result.title}", "", f"`{result.script}`: {result.about}", ""]
    if result.layout == "entries":
        head, *rest = result.columns
        for run in result.runs:
            parts = [f"- **{figure(run.output.get(head.key), head.unit)}**"]
            parts.append(
                f"`{run.command}` ({run.date}, {run.machine})"
                if run.command
                else f"{run.date}, {run.machine}"
            )
            parts += [
                f"{column.label}: {figure(run.output[column.key], column.unit)}"
                for column in rest
                if column.key in run.output
            ]
            if run.note:
                parts.append(run.note)
            lines.append("<br>\n  ".join(parts))
        lines.append("")
    elif result.layout == "runs":
        numeric = [
            all(isinstance(run.output.get(column.key), int | float | None) for run in result.runs)
            for column in result.columns
        ]
        lines.append(_row(["date", "command", "machine", *(column.label for column in result.columns)]))
        lines.append(_row(["---", "---", "---", *("---:" if right else "---" for right in numeric)]))
        for run in result.runs:
            cells = [run.date, f"`{run.command}`", run.machine]
            cells += [figure(run.output.get(column.key), column.unit) for column in result.columns]
            lines.append(_row(cells))
        lines.append("")
        lines += [f"- {run.date}: {run.note}" for run in result.runs if run.note]
    else:
        for run in result.runs:
            lines += [f"`{run.command}`, {run.date}, {run.machine}.", ""]
            if run.note:
                lines += [run.note, ""]
            lines += [_row(["figure", "value"]), _row(["---", "---:"])]
            lines += [
                _row([column.label, figure(run.output.get(column.key), column.unit)])
                for column in result.columns
                if column.key in run.output
            ]
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def render(results: list[Result], level: int = 2) -> str:
    """Every result as Markdown, one section each."""
    return "\n".join(render_result(result, level) for result in results)


def main(argv: list[str] | None = None) -> int:
    """Print the benchmarks page's tables (exit 1 with one sentence if a result file is malformed)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--results", type=Path, default=RESULTS, help="the folder of result files")
    args = parser.parse_args(argv)
    try:
        print(render(load(args.results)), end="")
    except ResultError as error:
        print(f"bench/report.py: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
