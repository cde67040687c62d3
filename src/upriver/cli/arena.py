"""`upriver arena BOT BOT [BOT ...]`: bots play duplicate games, and the statistics say who is stronger.

The table (or, with ``--json``, the JSON result) goes to standard output, the
progress bar to standard error; the JSON result and a PNG chart are written to
``--out``. Ctrl-C stops the arena early and still reports the finished games
(exit status 130). ``--hand-log FILE`` also writes every seat's every round (bid,
tricks, bidding position, the bot's predicted make rates) as JSON Lines and prints the
bidding report; ``upriver arena-report FILE`` prints that report from a log again.
``--ray`` plays the games as Ray tasks (a local Ray, or the cluster at ``--ray-address``),
with the same results as ``--jobs`` for the same seed.
"""

from __future__ import annotations

import contextlib
import json
import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from upriver.arena.core import ArenaConfig, check_config, hand_records, run_arena
from upriver.arena.hands import hand_report, hand_tables, read_hand_log, write_hand_log
from upriver.arena.openspiel import openspiel_rules
from upriver.arena.report import dumps, output_stem, pair_lines, table, write_chart, write_json
from upriver.arena.runner import RunOutcome, default_jobs, run_with_progress
from upriver.arena.schedule import GameTask
from upriver.arena.spec import OPENSPIEL_KINDS, known_kinds
from upriver.cli.backend import BackendError, RayAddressOption, RayOption, ray_executor
from upriver.cli.options import NO_FLAGS, RuleFlags, with_rule_flags
from upriver.cli.root import app
from upriver.errors import UpriverError
from upriver.rules import DEFAULT_PRESET, PRESETS, Rules

__all__ = ["arena"]

INTERRUPTED = 130
OPENSPIEL_HAND = 10
"""The hand size of OpenSpiel arenas when no rule option is given: the issue's benchmark, 10 cards."""


def _fail(message: str, code: int = 2) -> typer.Exit:
    typer.echo(f"Error: {message}", err=True)
    return typer.Exit(code)


def _rules(
    bots: list[str],
    preset_name: str | None,
    players: int,
    rule_flags: RuleFlags = NO_FLAGS,
) -> Rules:
    """The command line's rules, or OpenSpiel's single 10-card hand when an OpenSpiel seat plays."""
    openspiel = any(spec.strip().lower().partition(":")[0] in OPENSPIEL_KINDS for spec in bots)
    if openspiel and preset_name is None and not rule_flags.given:
        return openspiel_rules(players, OPENSPIEL_HAND)
    name = preset_name or ("countdown" if openspiel else DEFAULT_PRESET)
    return rule_flags.rules(name, players)


@app.command()
@with_rule_flags
def arena(
    bots: Annotated[
        list[str],
        typer.Argument(
            help=f"Two or more bots, NAME[:BUDGET]: {', '.join(known_kinds())} "
            "(e.g. basic, pimc:200, openspiel-ismcts:1000).",
            show_default=False,
        ),
    ],
    games: Annotated[
        int, typer.Option(help="Games to play, rounded up to whole duplicate sets (one per seating).")
    ] = 100,
    preset_name: Annotated[
        str | None,
        typer.Option(
            "--preset",
            help=f"Rule set: {', '.join(PRESETS)} (default {DEFAULT_PRESET}; with an OpenSpiel seat, "
            "OpenSpiel's rules: one 10-card hand, hook, 1 a trick + 10, any lead).",
            show_default=False,
        ),
    ] = None,
    rule_flags: RuleFlags = NO_FLAGS,
    players: Annotated[int, typer.Option(help="Seats at the table.")] = 4,
    seed: Annotated[
        int | None, typer.Option(help="Seed of the deals and the bots (random if not given).")
    ] = None,
    jobs: Annotated[
        int | None, typer.Option(help="Worker processes (default: one per core).", show_default=False)
    ] = None,
    ray: RayOption = False,
    ray_address: RayAddressOption = None,
    out: Annotated[Path, typer.Option(help="Folder for the JSON result and the PNG chart.")] = Path(
        "arena-results"
    ),
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the JSON result on standard output.")
    ] = False,
    hand_log: Annotated[
        Path | None,
        typer.Option(
            help="Write every seat's every round (bid, tricks, bidding position, predicted make rates) "
            "to this JSON Lines file, and print the bidding report.",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Play bots against each other on duplicate deals and report their strength."""
    if len(bots) < 2:
        raise _fail("name at least two bots, e.g. upriver arena random basic")
    try:
        rules = _rules(bots, preset_name, players, rule_flags)
    except UpriverError as error:
        raise _fail(str(error)) from None
    config = ArenaConfig(
        bots=tuple(bots),
        rules=rules,
        games=games,
        seed=secrets.randbelow(2**31) if seed is None else seed,
        jobs=default_jobs() if jobs is None else jobs,
    )
    try:
        check_config(config)
    except UpriverError as error:
        raise _fail(str(error)) from None
    errors = Console(stderr=True, highlight=False)
    try:
        with contextlib.ExitStack() as backend:
            executor = None
            if ray or ray_address is not None:
                executor = backend.enter_context(ray_executor(config.jobs, ray_address))

            def runner(tasks: Sequence[GameTask]) -> RunOutcome:
                slots = config.jobs if executor is None else executor.slots
                return run_with_progress(tasks, jobs=slots, console=errors, executor=executor)

            result = run_arena(config, runner=runner)
    except BackendError as error:  # no Ray, or no cluster at that address
        raise _fail(str(error), code=1) from None
    except UpriverError as error:  # a bot broke a rule or the OpenSpiel mirror disagreed
        raise _fail(str(error), code=1) from None
    stem = output_stem(result)
    try:
        json_path = write_json(result, out / f"{stem}.json")
        png_path = write_chart(result, out / f"{stem}.png")
    except OSError as error:
        raise _fail(f"cannot write the results to {out}: {error.strerror or error}", code=1) from None
    if hand_log is not None:
        try:
            write_hand_log(hand_records(result), hand_log)
        except OSError as error:
            raise _fail(
                f"cannot write the hand log to {hand_log}: {error.strerror or error}", code=1
            ) from None
    if as_json:
        typer.echo(dumps(result), nl=False)
    else:
        console = Console(highlight=False)
        if not console.is_terminal:
            console.width = 120  # a file or a pipe gets the whole table, not 80 columns of wrapped cells
        console.print(table(result))
        for line in pair_lines(result):
            console.print(line)
        if hand_log is not None:
            if not console.is_terminal:
                console.width = 140
            for hands_table in hand_tables(hand_report(hand_records(result))):
                console.print(hands_table)
        console.print(f"Wrote {json_path} and {png_path}" + ("" if hand_log is None else f" and {hand_log}"))
    if result.interrupted:
        raise typer.Exit(INTERRUPTED)


@app.command("arena-report")
def arena_report(
    log: Annotated[
        Path, typer.Argument(help="A hand log written by upriver arena --hand-log.", show_default=False)
    ],
    bot: Annotated[
        list[str] | None, typer.Option(help="Only this bot's hands (its label in the log); repeatable.")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """The bidding report of a hand log: exact rates by bid and position, over/under, bid 0, calibration."""
    try:
        records = read_hand_log(log)
    except UpriverError as error:
        raise _fail(str(error)) from None
    if bot:
        labels = {record.bot for record in records}
        unknown = [name for name in bot if name not in labels]
        if unknown:
            raise _fail(f"no hands of {unknown[0]!r} in {log}: its bots are {', '.join(sorted(labels))}")
        records = [record for record in records if record.bot in bot]
    report = hand_report(records)
    if as_json:
        typer.echo(json.dumps(report, indent=1))
        return
    console = Console(highlight=False)
    if not console.is_terminal:
        console.width = 140  # a file or a pipe gets whole rows of intervals
    for hands_table in hand_tables(report):
        console.print(hands_table)
