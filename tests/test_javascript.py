"""The web pages' JavaScript (``src/upriver/web/static/*.js``) stays clean under ESLint and TypeScript's
checker, as part of the test command (marked ``static``, like ``mypy`` and ``ruff``).

There is no build step: the browser runs the files as they are, and the types are JSDoc comments
that ``tsc --checkJs`` reads. The tools are pinned in ``package-lock.json``; ``python3 run.py test``
installs them with ``npm ci`` into ``node_modules``. Run them alone from the checkout::

    npm ci --ignore-scripts      # once, and whenever package-lock.json changes
    npx eslint                   # the rules in eslint.config.js
    npx tsc -p tsconfig.json     # the types (tsconfig.json: checkJs, noEmit)

Files written with JSDoc types throughout (:data:`TYPED`) are held to one more rule, TypeScript's
``noImplicitAny``: no parameter or variable whose type the checker cannot tell. See them with
``npx tsc -p tsconfig.json --noImplicitAny`` (it lists the other files' untyped parameters too). A
new module joins :data:`TYPED`; once every file is in it, ``noImplicitAny`` moves into tsconfig.json.

A vendored library (``static/vendor``) is neither linted nor checked: a page that imports one needs a
declaration file beside it that the checker reads instead (``chart.umd.min.d.ts`` beside
``chart.umd.min.js``; for an ``.mjs`` file, a ``.d.mts``).
"""

from __future__ import annotations

import functools
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STATIC = "src/upriver/web/static"
BIN = ROOT / "node_modules" / ".bin"

TYPED = frozenset(
    {
        "account.js",
        "app.js",
        "dom.js",
        "group.js",
        "i18n.js",
        "keep.js",
        "keep-api.js",
        "keep-conflicts.js",
        "keep-evening.js",
        "keep-export.js",
        "keep-fix.js",
        "keep-house.js",
        "keep-offline.js",
        "keep-share.js",
        "keep-start.js",
        "keep-sw.js",
        "keep-words.js",
        "lobby.js",
        "lobby-quick.js",
        "paper.js",
        "pwa.js",
        "review.js",
        "review-data.js",
        "review-position.js",
        "review-verdict.js",
        "review-words.js",
        "scoring-form.js",
        "sheet.js",
        "table-cards.js",
        "table-chat.js",
        "table-clock.js",
        "table-deadlink.js",
        "table-felt.js",
        "table-hand.js",
        "table-join.js",
        "table-house.js",
        "table-lobby.js",
        "table-marks.js",
        "table-panels.js",
        "table-presence.js",
        "table-rematch.js",
        "table-results.js",
        "table-seatctl.js",
        "table-seatlink.js",
        "table-socket.js",
        "table-store.js",
    }
)
"""Files under ``static/`` with a type for every parameter and variable the checker cannot infer."""


def tool(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run an npm-installed tool from the checkout; a missing install fails with the command that makes it."""
    path = BIN / name
    assert path.exists(), f"{path} is missing: run `npm ci --ignore-scripts` in {ROOT} (run.py test does)."
    return subprocess.run([str(path), *args], cwd=ROOT, capture_output=True, text=True, check=False)


@functools.cache
def type_errors(*options: str) -> dict[str, list[str]]:
    """tsc's errors by file (each error with its continuation lines), over the whole program."""
    result = tool("tsc", "-p", "tsconfig.json", "--pretty", "false", *options)
    errors: dict[str, list[str]] = {}
    current: list[str] = []
    for line in result.stdout.splitlines():
        found = re.match(r"^(\S[^(]*)\(\d+,\d+\): error ", line)
        if found:
            current = errors.setdefault(found.group(1), [])
        if found or line.startswith(" "):
            current.append(line)
    assert errors or result.returncode == 0, result.stdout + result.stderr
    return errors


def test_eslint_finds_no_problems() -> None:
    result = tool("eslint", "--max-warnings", "0", STATIC)
    assert result.returncode == 0, result.stdout + result.stderr


def test_typescripts_checker_finds_no_type_errors() -> None:
    errors = type_errors()
    shown = [line for _, lines in sorted(errors.items()) for line in lines]
    assert not shown, "\n".join(shown)


def test_the_typed_files_leave_no_type_for_the_checker_to_guess() -> None:
    errors = type_errors("--noImplicitAny")
    missing = sorted(name for name in TYPED if not (ROOT / STATIC / name).exists())
    assert not missing, f"TYPED names files that are gone: {', '.join(missing)}"
    shown = [line for name in sorted(TYPED) for line in errors.get(f"{STATIC}/{name}", [])]
    assert not shown, "\n".join(shown)
