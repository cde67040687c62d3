"""`upriver import FILE.pbn` and `upriver export FILE --pbn`: a Trickster Cards hand in, a record's
rounds out (docs/trickster.md).

``import`` reads an Oh Hell hand in PBN, as Trickster Cards exports it, replays it through the
engine and writes the game record (to ``-o FILE`` or standard output). ``export`` reads a record
(JSON, or PBN again), replays it, and writes it as PBN with ``--pbn`` or as the canonical JSON
record without. Exit 0 when written; 1 for a hand or record that breaks a rule; 2 for a file that
is not one, cannot be read, or cannot be written in the form asked. Each refusal is one line on
standard error, as ``upriver check`` says it, and nothing is written.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from upriver.cli.root import app
from upriver.errors import RecordError
from upriver.record import Record, RecordRuleError, dumps, dumps_pbn, loads_any, loads_pbn, replay
from upriver.record.decoding import clipped, printable
from upriver.record.trickster import text_of

__all__ = ["export", "import_hand"]

RULE_BROKEN = 1
NOT_A_RECORD = 2


def _fail(file: Path, message: str, code: int) -> typer.Exit:
    typer.echo(f"{printable(str(file))}: {clipped(printable(message))}", err=True)
    return typer.Exit(code=code)


def _read(file: Path, *, pbn_only: bool) -> Record:
    """The record in ``file``, replayed to be sure it follows its rules; exits with the one line."""
    try:
        text = text_of(file.read_bytes())
    except OSError as error:
        raise _fail(file, f"cannot be read: {error.strerror or error}", NOT_A_RECORD) from None
    except UnicodeDecodeError as error:
        raise _fail(file, f"not a game record: not UTF-8 text (byte {error.start})", NOT_A_RECORD) from None
    try:
        record = loads_pbn(text) if pbn_only else loads_any(text)
        replay(record)
    except RecordError as error:
        raise _fail(file, f"not a game record: {error}", NOT_A_RECORD) from None
    except RecordRuleError as error:
        raise _fail(file, f"rule broken: {error}", RULE_BROKEN) from None
    return record


def _write(text: str, output: Path | None, source: Path) -> None:
    if output is None:
        sys.stdout.write(text)
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as error:
        raise _fail(output, f"cannot be written: {error.strerror or error}", NOT_A_RECORD) from None


OutputOption = Annotated[
    Path | None,
    typer.Option("-o", "--output", help="Write here (default: standard output).", show_default=False),
]


@app.command(name="import")
def import_hand(
    file: Annotated[
        Path, typer.Argument(help="An Oh Hell hand (PBN), as Trickster Cards exports it.", show_default=False)
    ],
    output: OutputOption = None,
) -> None:
    """Read a Trickster Cards hand (PBN) and write it as an upriver game record (JSON)."""
    record = _read(file, pbn_only=True)
    _write(dumps(record), output, file)


@app.command()
def export(
    file: Annotated[Path, typer.Argument(help="A game record (JSON, or PBN).", show_default=False)],
    pbn: Annotated[
        bool, typer.Option("--pbn", help="Write PBN, one hand a round, as Trickster Cards writes a hand.")
    ] = False,
    output: OutputOption = None,
) -> None:
    """Write a game record's rounds as PBN (--pbn), or as the canonical JSON record."""
    record = _read(file, pbn_only=False)
    if not pbn:
        _write(dumps(record), output, file)
        return
    try:
        text = dumps_pbn(record)
    except RecordError as error:
        raise _fail(file, f"cannot be written as PBN: {error}", NOT_A_RECORD) from None
    _write(text, output, file)
