"""`upriver review FILE`: every bid and card of a game record judged by the expert (docs/review.md).

The review goes to standard output (a table per player and their biggest mistakes, or with
``--json`` the JSON of docs/review.md), the progress bar to standard error when it is a
terminal. Exit 0 for a review; 1 for a record that breaks a rule; 2 for a file that is not a
record, cannot be read, or holds no cards (a score keeper's record), or a player the record
does not have — each one line on standard error, as ``upriver check`` says it. ``--ray``
reviews the rounds as Ray tasks (a local Ray, or the cluster at ``--ray-address``): the same
review, for a long record on more cores; 1 when Ray cannot be used.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
import os
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from upriver.cards import Card
from upriver.cli.backend import BackendError, RayAddressOption, RayOption, ray_executor
from upriver.cli.root import app
from upriver.errors import RecordError
from upriver.record import Record, RecordRuleError, loads_any
from upriver.record.decoding import clipped, printable
from upriver.record.trickster import text_of
from upriver.review import (
    DEFAULT_DEALS,
    DEFAULT_THRESHOLD,
    MAX_DEALS,
    Choice,
    Decision,
    GameReview,
    NoCardsError,
    SeatReview,
    Settings,
    review_json,
    review_record,
)

__all__ = ["review"]

RULE_BROKEN = 1
NOT_REVIEWABLE = 2
NO_BACKEND = 1
"""Exit status when ``--ray`` cannot be used (Ray missing, or no cluster at the address)."""


def _fail(file: Path, message: str, code: int) -> typer.Exit:
    typer.echo(f"{printable(str(file))}: {clipped(printable(message))}", err=True)
    return typer.Exit(code=code)


def _seat_of(record: Record, name: str) -> int:
    wanted = "".join(name.split()).casefold()
    for seat, player in enumerate(record.players):
        if "".join(player.split()).casefold() == wanted:
            return seat
    raise ValueError(f"no player is named {name!r}: the players are {', '.join(record.players)}")


def _choice(choice: Choice) -> str:
    return choice.symbol if isinstance(choice, Card) else f"bid {choice}"


def _where(decision: Decision) -> str:
    if decision.kind == "bid":
        return f"round {decision.round_number}, the bid"
    return f"round {decision.round_number}, trick {len(decision.view.tricks) + 1}"


def _position(decision: Decision) -> str:
    """The position as the player saw it, in one line."""
    view = decision.view
    names = view.players
    parts = ["hand " + " ".join(card.symbol for card in view.hand)]
    parts.append("trump –" if view.turned is None else f"turned {view.turned.symbol}")
    bids = [f"{names[s]} {'–' if view.bids[s] is None else view.bids[s]}" for s in view.bidding_order]
    parts.append("bids " + ", ".join(bids))
    if decision.kind == "card":
        parts.append("tricks " + ", ".join(f"{names[s]} {view.tricks_won[s]}" for s in range(len(names))))
        if view.trick:
            parts.append("on the table " + ", ".join(f"{names[s]} {card.symbol}" for s, card in view.trick))
        else:
            parts.append("you lead")
    return "; ".join(parts)


def _mistake_line(decision: Decision) -> str:
    evaluation = decision.evaluation
    assert evaluation is not None
    chosen, best = evaluation.of(decision.chosen), evaluation.of(evaluation.best)
    verb = "the expert would" if decision.kind == "bid" else "best was"
    return (
        f"{_where(decision)}: {_choice(decision.chosen)}, {verb} {_choice(evaluation.best)} — "
        f"{chosen.expected:.1f} against {best.expected:.1f} expected points "
        f"({chosen.make:.0%} against {best.make:.0%} to make the bid): −{decision.cost:.1f}"
    )


def _seat_table(review: SeatReview) -> Table:
    table = Table(title=f"{review.player}", title_justify="left", show_edge=False, pad_edge=False)
    for header in (
        "round",
        "cards",
        "bid (expert)",
        "took",
        "points",
        "luck",
        "lost: bid",
        "lost: play",
        "flags",
    ):
        table.add_column(header, justify="right")
    for r in review.rounds:
        bid = next((d for d in r.decisions if d.kind == "bid"), None)
        expert = ""
        if bid is not None and bid.evaluation is not None and bid.evaluation.best != bid.chosen:
            expert = f" ({bid.evaluation.best})"
        flags = sum(d.flagged for d in r.decisions)
        table.add_row(
            str(r.round_number),
            str(r.hand_size),
            ("·" if r.bid is None else str(r.bid)) + expert,
            "·" if r.tricks is None else str(r.tricks),
            "·" if r.score is None else str(r.score),
            "·" if r.luck is None else f"{r.luck:.1f}",
            f"{r.bidding:.1f}",
            f"{r.play:.1f}",
            "⚑" * flags if flags <= 3 else f"⚑×{flags}",
        )
    table.add_section()
    table.add_row(
        "game",
        "",
        "",
        "",
        str(review.score),
        f"{review.luck:.1f}",
        f"{review.bidding:.1f}",
        f"{review.play:.1f}",
        "",
    )
    return table


def _print(console: Console, review: GameReview) -> None:
    settings = review.settings
    console.print(
        f"Each decision played out in {settings.deals:,} deals of the cards the player could not see; "
        f"flagged (⚑) when it cost at least {settings.threshold:g} expected points. "
        "Luck: an expert's expected points on the same cards.",
        markup=False,
    )
    for seat in review.seats:
        console.print()
        console.print(_seat_table(seat))
        console.print(
            f"{seat.player}: {seat.score} points; the deals were worth {seat.luck:.1f} to an expert; "
            f"lost {seat.bidding:.1f} to bidding and {seat.play:.1f} to play.",
            markup=False,
        )
        if not seat.mistakes:
            console.print("No decision cost the threshold or more.", markup=False)
        for i, decision in enumerate(seat.mistakes, start=1):
            console.print(f"  {i}. {_mistake_line(decision)}", markup=False)
            console.print(f"     {_position(decision)}", markup=False)


@app.command()
def review(
    file: Annotated[
        Path,
        typer.Argument(
            help="The game record (JSON, with cards) or a Trickster Cards hand (PBN) to review.",
            show_default=False,
        ),
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the review as JSON (docs/review.md).")
    ] = False,
    player: Annotated[
        str | None, typer.Option("--player", help="Review this player only (default: everyone).")
    ] = None,
    budget: Annotated[
        int,
        typer.Option(
            "--budget", min=1, max=MAX_DEALS, help="Deals of the hidden cards each decision is played out in."
        ),
    ] = DEFAULT_DEALS,
    threshold: Annotated[
        float, typer.Option("--threshold", min=0.0, help="Expected points a choice must cost to be flagged.")
    ] = DEFAULT_THRESHOLD,
    seed: Annotated[
        int, typer.Option("--seed", min=0, help="The review's seed: the same seed, the same review.")
    ] = 0,
    jobs: Annotated[
        int | None,
        typer.Option("--jobs", min=1, help="Worker processes (default: every core).", show_default=False),
    ] = None,
    ray: RayOption = False,
    ray_address: RayAddressOption = None,
) -> None:
    """Judge every bid and card of a game record from what each player saw: points lost, luck, mistakes."""
    try:
        text = text_of(file.read_bytes())
    except OSError as error:
        raise _fail(file, f"cannot be read: {error.strerror or error}", NOT_REVIEWABLE) from None
    except UnicodeDecodeError as error:
        raise _fail(file, f"not a game record: not UTF-8 text (byte {error.start})", NOT_REVIEWABLE) from None
    try:
        record = loads_any(text)
    except RecordError as error:
        raise _fail(file, f"not a game record: {error}", NOT_REVIEWABLE) from None
    try:
        seats = None if player is None else (_seat_of(record, player),)
    except ValueError as error:
        raise _fail(file, str(error), NOT_REVIEWABLE) from None
    settings = Settings(deals=budget, seed=seed, threshold=threshold)
    err = Console(stderr=True)
    show = err.is_terminal
    try:
        backend = contextlib.ExitStack()
        if ray or ray_address is not None:
            executor = backend.enter_context(ray_executor(jobs or os.cpu_count() or 1, ray_address))
        else:
            executor = None
    except BackendError as error:
        typer.echo(f"Error: {error}", err=True)
        raise typer.Exit(code=NO_BACKEND) from None
    try:
        with backend:
            result = _review(record, seats, settings, jobs, executor, err if show else None)
    except NoCardsError as error:
        raise _fail(file, f"cannot be reviewed: {error}", NOT_REVIEWABLE) from None
    except RecordRuleError as error:
        raise _fail(file, f"rule broken: {error}", RULE_BROKEN) from None
    if as_json:
        sys.stdout.write(json.dumps(review_json(result), ensure_ascii=False) + "\n")
        return
    _print(Console(highlight=False), result)


def _review(
    record: Record,
    seats: tuple[int, ...] | None,
    settings: Settings,
    jobs: int | None,
    executor: concurrent.futures.Executor | None,
    err: Console | None,
) -> GameReview:
    """The review, with a progress bar on ``err`` if given."""
    if err is None:
        return review_record(record, seats=seats, settings=settings, jobs=jobs, executor=executor)
    columns = (TextColumn("reviewing"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=err, transient=True) as bar:
        task = bar.add_task("review", total=None)
        return review_record(
            record,
            seats=seats,
            settings=settings,
            jobs=jobs,
            executor=executor,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
        )
