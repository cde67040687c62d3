"""`upriver check FILE`: validate and score a game record (see docs/record.md §5), a score keeper's
whole evening too (docs/keeper.md).

Exit 0 with the score sheet (or ``--json`` summary) for a valid record, 1 with one
line on standard error for a record that breaks a rule, 2 for a document that is
not a record or a file that cannot be read. Never a traceback, and whatever the
file holds the line stays one bounded line: the reader quotes excerpts, and the
file name and message are escaped here once more.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from upriver.cli.root import app
from upriver.cli.tui import sheet_table
from upriver.errors import RecordError
from upriver.keeper import KeptSheet
from upriver.keeper.entries import EXTRA
from upriver.record import Record, RecordRuleError, loads_any, replay
from upriver.record.decoding import clipped, printable
from upriver.record.trickster import text_of
from upriver.sheet import ScoreSheet

__all__ = ["check"]

RULE_BROKEN = 1
NOT_A_RECORD = 2


def _is_evening(record: Record) -> bool:
    """Whether the record holds a score keeper's whole evening (docs/keeper.md), not only its game."""
    kept = record.extras.get(EXTRA)
    return isinstance(kept, Mapping) and isinstance(kept.get("evening"), Mapping)


def _evening(record: Record) -> ScoreSheet:
    """The evening's score sheet, as the keeper replays it through the engine.

    :raises RecordError: when the evening is not what the keeper writes.
    :raises RecordRuleError: when the engine refuses one of its rounds (naming it, as the sheet flags it).
    """
    sheet = KeptSheet.from_record(record)
    flag = sheet.flag
    if flag is not None:
        player = None if flag.seat is None else sheet.players[flag.seat]
        raise RecordRuleError(
            f"the evening's {flag.message}",
            round_number=flag.round,
            rule=flag.rule,
            seat=flag.seat,
            player=player,
        )
    return sheet.score_sheet


def _fail(file: Path, message: str, code: int) -> typer.Exit:
    """Print ``FILE: message`` as one bounded line on standard error; the exit to raise.

    The message is cut to :data:`upriver.record.decoding.MAX_MESSAGE`, the reader's own bound.
    """
    typer.echo(f"{printable(str(file))}: {clipped(printable(message))}", err=True)
    return typer.Exit(code=code)


@app.command()
def check(
    file: Annotated[
        Path, typer.Argument(help="The game record (JSON, or a PBN hand) to check.", show_default=False)
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the tricks, scores, totals and winners as JSON.")
    ] = False,
) -> None:
    """Check that a game record is well formed and follows its rules, then print its score sheet.

    The record of a score keeper's evening whose players changed is read whole: every run of
    rounds, the arrivals, departures, sit-outs and adjustments, and the evening's result.
    """
    try:
        text = text_of(file.read_bytes())
    except OSError as error:
        raise _fail(file, f"cannot be read: {error.strerror or error}", NOT_A_RECORD) from None
    except UnicodeDecodeError as error:
        raise _fail(file, f"not a game record: not UTF-8 text (byte {error.start})", NOT_A_RECORD) from None
    try:
        record = loads_any(text)
        game = replay(record)
        sheet = _evening(record) if _is_evening(record) else ScoreSheet.of(game)
    except RecordError as error:
        raise _fail(file, f"not a game record: {error}", NOT_A_RECORD) from None
    except RecordRuleError as error:
        raise _fail(file, f"rule broken: {error}", RULE_BROKEN) from None
    if as_json:
        typer.echo(json.dumps(sheet.summary()))
        return
    console = Console(highlight=False)
    console.print(sheet_table(sheet))
    console.print(sheet.headline, markup=False)
