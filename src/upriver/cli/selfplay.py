"""`upriver selfplay OUT`: counterfactual bid data for the bid model, every hand played out with several bids.

Each deal draws its rules (3–8 players, every dealer rule, scoring, bidding and trump-lead
option, every hand size), deals one hand, lets the other seats bid up to one seat's turn,
and forks the hand there: the evaluator (``expert``'s rollouts) rates every legal bid,
and the hand is played to the end once for each of its best few bids and one random
other bid, the bidding seat played by ``expert`` and the other seats by a mix of bots.
Each candidate bid becomes one row: the features of :func:`upriver.bots.bidmodel.bid_table`
and the labels, whether the bid was made, the tricks taken and the round score.

The work is cut into chunks of deals; a chunk is a pure function of ``(seed, chunk)``
and the settings, written to its own ``.npz`` file as soon as it is done, and skipped
when its file is already there, so an interrupted run resumes where it stopped, and any
backend that runs the same chunks writes the same data. Chunks run on every core, or as
Ray tasks with ``--ray`` (a chunk's rows come back to this process, which writes them, so a
cluster's machines need no shared folder).
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import dataclasses
import hashlib
import json
import multiprocessing
import os
import random
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import typer
from numpy.typing import NDArray
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from upriver.bots import Bot, act, make_bot
from upriver.bots.bidmodel import FEATURES, bid_table
from upriver.bots.ipimc import IpimcBot
from upriver.cli.backend import BackendError, RayAddressOption, RayOption, ray_executor
from upriver.cli.root import app
from upriver.deal import left_of
from upriver.game import Game
from upriver.rules import Bidding, DealerBid, Rules, Schedule, Scoring, TrumpLead, default_max_cards

__all__ = ["SelfplayConfig", "chunk_path", "play_chunk", "run_selfplay", "selfplay"]

FOCUS_SIZE = 10
"""The benchmark's hand size, drawn more often than the others."""
SEED_MASK = (1 << 62) - 1


@dataclasses.dataclass(frozen=True, kw_only=True)
class SelfplayConfig:
    """Everything a chunk's data depends on, besides its number."""

    seed: int = 0
    deals_per_chunk: int = 8
    opponents: tuple[str, ...] = ("expert", "basic")
    """Bot kinds the other seats are drawn from, one per seat and deal."""
    iterations: int = 2000
    """Deals per decision of the evaluator and of the ``expert`` seats."""
    candidates: int = 3
    """The evaluator's best bids played out, besides one random other bid."""

    def as_json(self) -> dict[str, Any]:
        """The settings as written beside the chunks (a resumed run must match them)."""
        return {**dataclasses.asdict(self), "opponents": list(self.opponents), "features": list(FEATURES)}


def chunk_path(out: Path, config: SelfplayConfig, chunk: int) -> Path:
    """Where chunk ``chunk``'s rows are written."""
    return out / f"chunk-{config.seed}-{chunk:06d}.npz"


def _rules(rng: random.Random) -> Rules:
    players = 4 if rng.random() < 0.5 else rng.randint(3, 8)
    top = default_max_cards(players)
    size = FOCUS_SIZE if top >= FOCUS_SIZE and rng.random() < 0.25 else rng.randint(1, top)
    simultaneous = rng.random() < 0.15
    dealer_bid = DealerBid.FREE if simultaneous else rng.choice(list(DealerBid))
    return Rules(
        player_count=players,
        schedule=Schedule.EXPLICIT,
        explicit_sizes=(size,),
        bidding=Bidding.SIMULTANEOUS if simultaneous else Bidding.SEQUENTIAL,
        dealer_bid=dealer_bid,
        trump_lead=rng.choice(_SEED_LEADS),
        scoring=rng.choice(_SEED_SCORINGS),
    )


# The sources' values, which the shipped bid model was trained on: the house rules (trump lead after
# the first trick, Board Game Arena's scorings) would change every chunk a seed makes.
_SEED_LEADS = (TrumpLead.ANY, TrumpLead.BROKEN)
_SEED_SCORINGS = (Scoring.TEN_PLUS_BID, Scoring.TRICKS_PLUS_TEN)


def _bot(kind: str, seed: int, iterations: int) -> Bot:
    if kind == "expert":
        # An iteration budget alone (no time cap), so a chunk replays exactly on any machine.
        return make_bot("expert", seed, iterations=iterations)
    return make_bot(kind, seed)


def _play_candidate(
    game: Game, seat: int, bid: int, bots: list[Bot], player: IpimcBot
) -> tuple[int, int, int]:
    branch = game.copy()
    branch.bid(bid, seat=seat)
    while not branch.is_over:
        turn = branch.awaiting[0]
        act(branch, turn, player if turn == seat else bots[turn])
    result = branch.results[0]
    took = result.tricks_won[seat]
    return int(took == bid), took, result.scores[seat]


def _deal_rows(config: SelfplayConfig, deal: int) -> list[list[float]]:
    rng = random.Random(f"selfplay-{config.seed}-{deal}")
    rules = _rules(rng)
    n = rules.player_count
    game = Game(rules, seed=rng.getrandbits(62), dealer=rng.randrange(n))
    place = rng.randrange(n)
    seat = left_of(game.dealer, n, 1 + place)
    base = rng.getrandbits(40)
    kinds = [rng.randrange(len(config.opponents)) for _ in range(n)]

    def table_bots() -> list[Bot]:
        # Fresh bots with the same seeds for every candidate: the candidates meet the same players.
        return [_bot(config.opponents[kinds[s]], base + s, config.iterations) for s in range(n)]

    bots = table_bots()
    while not (seat in game.awaiting and game.view(seat).legal_bids):
        turn = game.awaiting[0] if game.awaiting[0] != seat else game.awaiting[1]
        act(game, turn, bots[turn])
    view = game.view(seat)
    if len(view.legal_bids) == 1:
        return []
    evaluator = IpimcBot(base, budget=config.iterations)
    table = bid_table(view, evaluator, config.iterations, rng.getrandbits(31))
    order = np.argsort(table.column("value_rank"))
    picked = [int(i) for i in order[: config.candidates]]
    rest = [i for i in range(len(table.bids)) if i not in picked]
    if rest:
        picked.append(rng.choice(rest))
    rows = []
    for rank, i in enumerate(picked):
        player = IpimcBot(base + 97, budget=config.iterations)
        made, took, score = _play_candidate(game, seat, table.bids[i], table_bots(), player)
        random_pick = float(rank >= config.candidates)
        opponent_mix = [float(kinds[s]) for s in range(n) if s != seat]
        rows.append(
            [
                *table.features[i],
                float(made),
                float(took),
                float(score),
                float(deal),
                random_pick,
                float(np.mean(opponent_mix)),
            ]
        )
    return rows


LABELS = ("made", "tricks", "score", "deal", "random_pick", "opponent_mix")
"""The columns after the features: labels, then the deal's number and how the row was drawn."""


def play_chunk(config: SelfplayConfig, chunk: int) -> dict[str, NDArray[np.float64]]:
    """The rows of one chunk, column by column: a pure function of the settings and ``chunk``."""
    rows: list[list[float]] = []
    for index in range(config.deals_per_chunk):
        rows += _deal_rows(config, chunk * config.deals_per_chunk + index)
    data = np.array(rows, dtype=np.float64).reshape(-1, len(FEATURES) + len(LABELS))
    names = (*FEATURES, *LABELS)
    return {name: data[:, j].copy() for j, name in enumerate(names)}


def _fingerprint() -> str:
    """A digest of the rollout policy's source: data from different policies should not be mixed."""
    from upriver import fast

    folder = Path(fast.__file__).parent
    digest = hashlib.sha256()
    for name in ("policies.py", "kernel.py"):
        digest.update((folder / name).read_bytes())
    return digest.hexdigest()[:16]


def _write_chunk(
    out: Path, config: SelfplayConfig, chunk: int, columns: dict[str, NDArray[np.float64]]
) -> int:
    path = chunk_path(out, config, chunk)
    temporary = path.with_suffix(".tmp.npz")
    np.savez_compressed(temporary, policy=np.array(_fingerprint()), **columns)  # type: ignore[arg-type]
    os.replace(temporary, path)
    return len(columns["made"])


def run_selfplay(
    out: Path,
    config: SelfplayConfig,
    chunks: int,
    jobs: int,
    console: Console | None = None,
    executor: cf.Executor | None = None,
) -> tuple[int, int]:
    """Write chunks ``0 … chunks-1`` that are not written yet; return (chunks done now, rows in them).

    The chunks are played in ``executor`` if given, else on ``jobs`` processes (1: here).
    """
    out.mkdir(parents=True, exist_ok=True)
    settings = out / f"settings-{config.seed}.json"
    wanted = config.as_json()
    if settings.exists():
        written = json.loads(settings.read_text("utf-8"))
        if written != wanted:
            raise ValueError(
                f"{out} holds chunks made with other settings ({settings}): "
                "use another folder or the same settings to resume"
            )
    else:
        settings.write_text(json.dumps(wanted, indent=1), "utf-8")
    todo = [c for c in range(chunks) if not chunk_path(out, config, c).exists()]
    columns = [
        TextColumn("selfplay"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("chunks, {task.fields[rows]} rows"),
        TimeRemainingColumn(),
    ]
    rows = 0
    with Progress(*columns, console=console or Console(stderr=True), transient=False) as progress:
        bar = progress.add_task("selfplay", total=chunks, completed=chunks - len(todo), rows=0)
        if executor is None and jobs <= 1:
            for chunk in todo:
                rows += _write_chunk(out, config, chunk, play_chunk(config, chunk))
                progress.update(bar, advance=1, rows=rows)
        else:
            with contextlib.ExitStack() as stack:
                if executor is None:
                    context = multiprocessing.get_context("spawn")
                    executor = stack.enter_context(cf.ProcessPoolExecutor(jobs, mp_context=context))
                futures = {executor.submit(play_chunk, config, chunk): chunk for chunk in todo}
                for future in cf.as_completed(futures):
                    rows += _write_chunk(out, config, futures[future], future.result())
                    progress.update(bar, advance=1, rows=rows)
    return len(todo), rows


@app.command()
def selfplay(
    out: Annotated[Path, typer.Argument(help="Folder for the chunks (.npz), made if missing.")],
    deals: Annotated[int, typer.Option(help="Deals in all, rounded up to whole chunks.")] = 64,
    chunk_size: Annotated[int, typer.Option(help="Deals per chunk (one file each).")] = 8,
    seed: Annotated[int, typer.Option(help="Seed of the whole run: same seed, same data.")] = 0,
    opponents: Annotated[
        str, typer.Option(help="Bot kinds for the other seats, comma-separated, drawn per seat.")
    ] = "expert,basic",
    iterations: Annotated[int, typer.Option(help="Deals per decision of the evaluator and experts.")] = 2000,
    candidates: Annotated[int, typer.Option(help="Evaluator's best bids played out, plus a random one.")] = 3,
    jobs: Annotated[
        int | None, typer.Option(help="Worker processes (default: one per core).", show_default=False)
    ] = None,
    ray: RayOption = False,
    ray_address: RayAddressOption = None,
) -> None:
    """Fork dealt hands at bid time and play each out with several bids: data for the bid model."""
    kinds = tuple(kind.strip() for kind in opponents.split(",") if kind.strip())
    for value, name in ((deals, "--deals"), (chunk_size, "--chunk-size"), (iterations, "--iterations")):
        if value < 1:
            typer.echo(f"Error: {name} must be at least 1, not {value}", err=True)
            raise typer.Exit(2)
    if candidates < 1 or not kinds:
        typer.echo("Error: --candidates must be at least 1 and --opponents must name a bot kind", err=True)
        raise typer.Exit(2)
    for kind in kinds:
        try:
            _bot(kind, 0, iterations)
        except ValueError as error:
            typer.echo(f"Error: --opponents: {error}", err=True)
            raise typer.Exit(2) from None
    config = SelfplayConfig(
        seed=seed, deals_per_chunk=chunk_size, opponents=kinds, iterations=iterations, candidates=candidates
    )
    chunks = -(-deals // chunk_size)
    workers = jobs or (os.cpu_count() or 1)
    try:
        with contextlib.ExitStack() as backend:
            executor = None
            if ray or ray_address is not None:
                executor = backend.enter_context(ray_executor(workers, ray_address))
            done, rows = run_selfplay(out, config, chunks, workers, executor=executor)
    except BackendError as error:
        typer.echo(f"Error: {error}", err=True)
        raise typer.Exit(1) from None
    except (ValueError, OSError) as error:
        typer.echo(f"Error: {error}", err=True)
        raise typer.Exit(2) from None
    typer.echo(f"{done} chunks written now ({rows} rows), {chunks - done} already there, in {out}")
