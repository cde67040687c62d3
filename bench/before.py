"""A level against the same level of an earlier commit, on the arena's duplicate deals.

The earlier code is taken from git (``git archive REV src/upriver``) into a folder outside the
checkout, renamed ``upriver_old`` so that both versions load in one process (each with its own
compiled kernel), and registered as the bot kind ``LEVEL-before``: it is shown the same seat
views, translated field by field into the old package's types, and its moves are translated back.
The arena then plays ``LEVEL`` against ``LEVEL-before`` on duplicate deals with every seating
rotation, and the JSON printed gives the paired difference a game with its 95% interval.

    python bench/before.py normal --rev HEAD~1 --games 200 --jobs 2
    python bench/before.py normal --rev 7cc83c2 --games 200 --rules river-hand

The first run of a revision compiles its kernel (a minute or two).
"""

from __future__ import annotations

import argparse
import dataclasses
import enum
import importlib
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

from rich.console import Console

from upriver.arena.core import ArenaConfig, run_arena
from upriver.arena.report import result_json
from upriver.arena.runner import default_jobs, run_with_progress
from upriver.bots import BOT_KINDS, Bot
from upriver.cards import Card
from upriver.view import SeatView

ROOT = Path(__file__).resolve().parents[1]
_ENV = "UPRIVER_BEFORE"
"""Where the earlier package is and which level it plays (``PATH:LEVEL``), for the spawned workers."""


def checkout(rev: str) -> Path:
    """The package at ``rev`` as ``upriver_old`` in a folder kept between runs (its kernel cache too)."""
    sha = subprocess.run(
        ["git", "rev-parse", "--verify", f"{rev}^{{commit}}"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    folder = Path(tempfile.gettempdir()) / f"upriver-before-{sha[:12]}"
    package = folder / "upriver_old"
    if package.exists():
        return folder
    archive = subprocess.run(
        ["git", "archive", sha, "src/upriver"], cwd=ROOT, check=True, capture_output=True
    )
    staging = Path(tempfile.mkdtemp(prefix="upriver-before-"))
    with tarfile.open(fileobj=__import__("io").BytesIO(archive.stdout)) as tar:
        tar.extractall(staging, filter="data")
    word = re.compile(r"\bupriver(?=[.\s\"'])")
    for path in (staging / "src" / "upriver").rglob("*.py"):
        path.write_text(word.sub("upriver_old", path.read_text("utf-8")), "utf-8")
    folder.mkdir(parents=True, exist_ok=True)
    (staging / "src" / "upriver").rename(package)
    return folder


def _translate(value: Any, old: bool) -> Any:
    """``value`` with every type of one package replaced by the same type of the other."""
    kind = type(value)
    module = kind.__module__
    if not module.startswith("upriver"):
        if isinstance(value, tuple | list):
            return kind(_translate(item, old) for item in value)
        if isinstance(value, dict):
            return {_translate(k, old): _translate(v, old) for k, v in value.items()}
        return value
    target = importlib.import_module(
        module.replace("upriver", "upriver_old", 1) if old else module.replace("upriver_old", "upriver", 1)
    )
    twin = getattr(target, kind.__qualname__)
    if hasattr(value, "_fields"):  # a named tuple
        return twin(*(_translate(item, old) for item in value))
    if isinstance(value, enum.Enum):
        return twin(value.value)
    if isinstance(value, Card) or kind.__name__ == "Card":
        return twin.parse(str(value))
    if dataclasses.is_dataclass(value):
        fields = {
            f.name: _translate(getattr(value, f.name), old) for f in dataclasses.fields(value) if f.init
        }
        return twin(**fields)
    raise TypeError(f"cannot translate a {kind.__qualname__}")


class Before(Bot):
    """A level of the earlier package, playing from translated views."""

    kind = "before"

    def __init__(self, seed: int | None = None, *, name: str | None = None, budget: Any = None) -> None:
        super().__init__(seed, name=name)
        level = os.environ[_ENV].rpartition(":")[2]
        bots = importlib.import_module("upriver_old.bots")
        self.inner = bots.make_bot(level, seed, budget=budget)

    def choose_bid(self, view: SeatView) -> int:
        return int(self.inner.choose_bid(_translate(view, True)))

    def choose_card(self, view: SeatView) -> Card:
        card: Card = _translate(self.inner.choose_card(_translate(view, True)), False)
        return card

    def choose_blind_bid(self, view: SeatView) -> int:
        return int(self.inner.choose_blind_bid(_translate(view, True)))


def _register() -> None:
    where = os.environ.get(_ENV)
    if not where:
        return
    folder, _, level = where.rpartition(":")
    if folder not in sys.path:
        sys.path.insert(0, folder)
    kind = type(f"{level}-before", (Before,), {"kind": f"{level}-before"})
    BOT_KINDS[f"{level}-before"] = kind


_register()  # also in the arena's spawned workers, which import this script again


def main(argv: list[str] | None = None) -> int:
    """Play LEVEL against LEVEL of ``--rev`` and print the arena's verdict as JSON."""
    sys.path.insert(0, str(ROOT / "bench"))
    from strength import RULES

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("level", help="a level or kind, e.g. normal")
    parser.add_argument(
        "--rev", default="HEAD", help="the earlier commit (default HEAD: the work tree against it)"
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=102)
    parser.add_argument("--rules", choices=sorted(RULES), default="river")
    parser.add_argument("--jobs", type=int, default=default_jobs())
    args = parser.parse_args(argv)
    folder = checkout(args.rev)
    os.environ[_ENV] = f"{folder}:{args.level}"
    _register()
    rules, _ = RULES[args.rules]
    bots = (args.level, f"{args.level}-before")
    config = ArenaConfig(bots=bots, rules=rules, games=args.games, seed=args.seed, jobs=args.jobs)
    console = Console(stderr=True, highlight=False)
    result = run_arena(config, runner=lambda tasks: run_with_progress(tasks, jobs=args.jobs, console=console))
    data = result_json(result)
    report = {
        "benchmark": "before",
        "level": args.level,
        "rev": args.rev,
        "rules": args.rules,
        "games": data["games_played"],
        "seed": args.seed,
        "difference_per_game": data["pairs"][0]["points_per_game_difference"],
        "bots": [
            {key: row[key] for key in ("bot", "points_per_game", "exact_rate")} for row in data["results"]
        ],
        "elapsed_s": round(result.elapsed_s, 1),
    }
    json.dump(report, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
