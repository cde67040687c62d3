"""MkDocs hooks of the documentation site: the benchmarks page drawn from the committed results.

``docs/benchmarks.md`` holds the line ``<!-- bench-results -->``; at build time it is replaced by
``bench/report.py``'s rendering of ``bench/results/*.json``, so a figure is written once, in its
result file, and a malformed result file fails the build with the sentence that names it.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
MARKER = "<!-- bench-results -->"


def _report() -> ModuleType:
    """``bench/report.py``, which is a script beside the benchmarks rather than a package module."""
    path = ROOT / "bench" / "report.py"
    spec = importlib.util.spec_from_file_location("bench_report", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    """Put the benchmark tables where a page asks for them."""
    if MARKER not in markdown:
        return markdown
    report = _report()
    tables: str = report.render(report.load(), level=2)
    return markdown.replace(MARKER, tables)
