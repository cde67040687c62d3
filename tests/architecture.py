"""The architecture page's layout table as the layer check and the docs site's test both read it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARCHITECTURE = ROOT / "docs" / "architecture.md"


def architecture_table() -> list[tuple[str, tuple[str, ...]]]:
    """The rows of the architecture page's layout table, top to bottom: (layer, the modules named)."""
    text = ARCHITECTURE.read_text("utf-8").split("## Layout", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.split("|")]
        if line.startswith("| ") and "`" in cells[2]:
            rows.append((cells[1], tuple(re.findall(r"`(upriver\.\w+)`", cells[2]))))
    return rows
