"""`upriver check FILE`: validate and score a game record (see docs/record.md §5).

Exit 0 with the score sheet (or ``--json`` summary) for a valid record, 1 with one
line on standard error for a record that breaks a rule, 2 for a document that is
not a record or a file that cannot be read. Never a traceback, and whatever the
file holds the line stays one bounded line: the reader quotes excerpts, and the
file name and message are escaped here once more.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from upriver.cli.root import app
from upriver.cli.tui import sheet_table
from upriver.errors import RecordError
from upriver.record import RecordRuleError, loads, replay
from upriver.record.decoding import clipped, printable
from upriver.sheet import ScoreSheet

__all__ = ["check"]

RULE_BROKEN = 1
NOT_A_RECORD = 2


def _fail(file: Path, message: str, code: int) -> typer.Exit:
    """Print ``FILE: message`` as one bounded line on standard error; the exit to raise.

    The message is cut to :data:`upriver.record.decoding.MAX_MESSAGE`, the reader's own bound.
    """
    typer.echo(f"{printable(str(file))}: {clipped(printable(message))}", err=True)
    return typer.Exit(code=code)


@app.command()
def check(
    file: Annotated[Path, typer.Argument(help="The game record (JSON) to check.", show_default=False)],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the tricks, scores, totals and winners as JSON.")
    ] = False,
) -> None:
    """Check that a game record is well formed and follows its rules, then print its score sheet."""
    try:
        text = file.read_bytes().decode("utf-8")
    except OSError as error:
        raise _fail(file, f"cannot be read: {error.strerror or error}", NOT_A_RECORD) from None
    except UnicodeDecodeError as error:
        raise _fail(file, f"not a game record: not UTF-8 text (byte {error.start})", NOT_A_RECORD) from None
    try:
        game = replay(loads(text))
    except RecordError as error:
        raise _fail(file, f"not a game record: {error}", NOT_A_RECORD) from None
    except RecordRuleError as error:
        raise _fail(file, f"rule broken: {error}", RULE_BROKEN) from None
    sheet = ScoreSheet.of(game)
    if as_json:
        typer.echo(json.dumps(sheet.summary()))
        return
    console = Console(highlight=False)
    console.print(sheet_table(sheet))
    console.print(sheet.headline, markup=False)
