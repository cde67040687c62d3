"""One benchmark on this checkout and on an earlier commit, taken in turns, with each figure's ratio.

A refactor promises no change of speed; the machine is shared and its load comes and goes, so the
two versions run alternately (old, new, old, new, …) in the same session, each figure keeps its
median over the runs, and the answer is the ratio new / old of every number the benchmark prints
(a figure where lower is better, such as a latency, is marked so by its name). The earlier commit
is unpacked with ``git archive`` into a folder outside the checkout and runs its own copy of the
benchmark against its own code (its compiled kernel is built at its first run).

    python bench/versus.py engine --rev 7b96ce2~1 --rounds 3 --seconds 1 --repeats 3
    python bench/versus.py kernel --rev 7b96ce2~1 --json
    python bench/versus.py load --rev 7b96ce2~1 --tables 20 --saturate --seconds 10

Arguments this script does not know go to the benchmark.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LOWER_IS_BETTER = ("latency", "_ms", "seconds", "rss", "memory")
"""Parts of a figure's name that say a smaller number is better."""


def unpack(rev: str, into: Path) -> str:
    """The tree of ``rev`` unpacked into ``into``; its full commit id."""
    commit = subprocess.run(
        ["git", "rev-parse", "--verify", f"{rev}^{{commit}}"], cwd=ROOT, capture_output=True, text=True
    )
    if commit.returncode != 0:
        raise SystemExit(f"versus: {rev!r} is not a commit of this repository (try a hash or HEAD~3)")
    archive = subprocess.run(
        ["git", "archive", commit.stdout.strip()], cwd=ROOT, capture_output=True, check=True
    )
    with tempfile.TemporaryFile() as raw:
        raw.write(archive.stdout)
        raw.seek(0)
        with tarfile.open(fileobj=raw) as tar:
            tar.extractall(into, filter="data")
    return commit.stdout.strip()


def figures(value: Any, prefix: str = "") -> dict[str, float]:
    """Every number in a benchmark's JSON, by its dotted path (lists of runs are left out)."""
    found: dict[str, float] = {}
    if isinstance(value, bool):
        return found
    if isinstance(value, int | float):
        found[prefix] = float(value)
    elif isinstance(value, dict):
        for key, inner in value.items():
            found.update(figures(inner, f"{prefix}.{key}" if prefix else str(key)))
    return found


def run_once(tree: Path, bench: str, args: list[str]) -> dict[str, float]:
    """The figures of one run of ``bench/<bench>.py --json`` in ``tree``, against that tree's code."""
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    done = subprocess.run(
        [sys.executable, str(tree / "bench" / f"{bench}.py"), "--json", *args],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise SystemExit(f"versus: bench/{bench}.py failed in {tree}:\n{done.stderr[-2000:]}")
    return figures(json.loads(done.stdout))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "bench", help="a benchmark of bench/ that prints JSON with --json: engine, kernel, load, …"
    )
    parser.add_argument("--rev", required=True, help="the earlier commit to compare with")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each version, taken in turns")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    options, rest = parser.parse_known_args()  # the rest goes to the benchmark
    if not (ROOT / "bench" / f"{options.bench}.py").exists():
        raise SystemExit(
            f"versus: there is no bench/{options.bench}.py; the benchmarks are in {ROOT / 'bench'}"
        )
    with tempfile.TemporaryDirectory(prefix="upriver-versus-") as folder:
        old_tree = Path(folder)
        commit = unpack(options.rev, old_tree)
        runs: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
        for _ in range(options.rounds):
            runs["old"].append(run_once(old_tree, options.bench, rest))
            runs["new"].append(run_once(ROOT, options.bench, rest))
    shared = sorted(set.intersection(*(set(run) for run in runs["old"] + runs["new"])))
    result: dict[str, Any] = {"bench": options.bench, "old": commit, "rounds": options.rounds, "figures": {}}
    for name in shared:
        old = statistics.median(run[name] for run in runs["old"])
        new = statistics.median(run[name] for run in runs["new"])
        lower = any(part in name for part in LOWER_IS_BETTER)
        result["figures"][name] = {
            "old": old,
            "new": new,
            "ratio": new / old if old else None,
            "better": "lower" if lower else "higher",
        }
    if options.json:
        print(json.dumps(result, indent=1))
        return
    print(f"bench/{options.bench}.py, {options.rounds} runs each, new against {commit[:10]}")
    for name, figure in result["figures"].items():
        ratio = "—" if figure["ratio"] is None else f"{figure['ratio']:.3f}"
        numbers = f"{figure['old']:>14.4g} {figure['new']:>14.4g}  ×{ratio}"
        print(f"  {name:60} {numbers} ({figure['better']} is better)")


if __name__ == "__main__":
    main()
