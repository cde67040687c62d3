"""The OpenSpiel mirror against real pyspiel: lockstep, legal sets and scores, then a short arena.

Needs the ``bench`` extra (PyPI ``open_spiel``). First it plays games in which OpenSpiel
seats (ISMCTS and uniform random) sit with upriver bots, and at every decision checks
that pyspiel's legal actions, translated, are exactly the engine's legal bids or cards;
the mirror itself checks whose turn it is after every move and that both score every
round alike. Single 10-card hands under OpenSpiel's rules, and whole ``countdown``
games (10 … 1 … 10, a new pyspiel state each round). Then it runs a short arena,
``basic`` against ``openspiel-ismcts``, and prints everything as JSON.

With ``--references DEALS`` it then measures the references on OpenSpiel's single 10-card
hands, every pair on the same duplicate deals: the fair ISMCTS against the leaky one (what
knowing the cards out of play is worth), and ``expert`` against each. The deals are played
in chunks (``--chunk`` deals, one arena run a pair, with the chunk's own seed), each chunk's
per-deal differences appended to ``--log`` as it finishes, so a run stopped early keeps
every chunk it finished; ``--summarize LOG`` prints the pooled figures of such a log.

    python bench/arena_openspiel.py [--hands 40] [--games 2] [--simulations 200] [--arena-games 40]
    python bench/arena_openspiel.py --hands 0 --games 0 --arena-games 0 --references 200 --log refs.jsonl
    python bench/arena_openspiel.py --summarize refs.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from upriver import Game, Rules, preset
from upriver.arena.core import ArenaConfig, ArenaResult, run_arena
from upriver.arena.match import player_seed
from upriver.arena.openspiel import Mirror, action_move, openspiel_rules
from upriver.arena.report import result_json
from upriver.arena.runner import default_jobs
from upriver.arena.spec import SeatPlayer, parse_spec
from upriver.arena.stats import estimate
from upriver.cards import Card

REFERENCE_PAIRS = (
    ("openspiel-ismcts-fair:{s}", "openspiel-ismcts:{s}"),
    ("expert", "openspiel-ismcts-fair:{s}"),
    ("expert", "openspiel-ismcts:{s}"),
)
"""The pairs ``--references`` plays, ``{s}`` the simulations a move: the leak's worth, then expert
against the fair reference and against the leaky one."""


def checked_game(rules: Rules, seed: int, specs: list[str]) -> tuple[int, list[str]]:
    """Play one game, comparing both legal sets at every decision; return (decisions checked, mismatches)."""
    players: list[SeatPlayer] = [
        parse_spec(spec).factory()(player_seed(seed, s)) for s, spec in enumerate(specs)
    ]
    game = Game(rules, seed=seed)
    mirror = Mirror(game)
    for player in players:
        player.attach(mirror)
    checked, mismatches = 0, []
    while not game.is_over:
        seat = game.awaiting[0]
        view = game.view(seat)
        ours: set[int | Card] = set(view.legal_bids or view.legal_cards)
        theirs = {action_move(action) for action in mirror.state.legal_actions()}
        checked += 1
        if ours != theirs:
            mismatches.append(f"seed {seed}, round {game.round_number}, seat {seat}: {ours} vs {theirs}")
        move = players[seat].move(view)
        if isinstance(move, Card):
            game.play(move, seat=seat)
        else:
            game.bid(move, seat=seat)
        mirror.follow(game, move)
    return checked, mismatches


def deal_differences(result: ArenaResult) -> list[float]:
    """Per duplicate deal, the first bot's mean score a hand less the second's (the arena's pairing)."""
    by_deal: dict[int, list[list[float]]] = {}
    for game in result.results:
        sums = by_deal.setdefault(game.deal, [[], []])
        for seat, bot in enumerate(game.seating):
            sums[bot].append(game.totals[seat] / game.hands)
    return [sum(a) / len(a) - sum(b) / len(b) for a, b in by_deal.values()]


def play_references(
    deals: int, simulations: int, chunk: int, seed: int, jobs: int, log: Path, pairs: tuple[int, ...]
) -> None:
    """Play the reference pairs numbered ``pairs`` (1 is the first of :data:`REFERENCE_PAIRS`) on the
    same deals, chunk by chunk, appending each chunk to ``log``; a chunk already there is skipped,
    so a stopped run resumes."""
    have: set[tuple[tuple[str, ...], int]] = set()
    if log.exists():
        for text in log.read_text("utf-8").splitlines():
            line = json.loads(text)
            have.add((tuple(line["bots"]), line["seed"]))
    done = 0
    while done < deals:
        size = min(chunk, deals - done)
        chunk_seed = seed + done
        for number in pairs:
            first, second = REFERENCE_PAIRS[number - 1]
            bots = (first.format(s=simulations), second.format(s=simulations))
            if (bots, chunk_seed) in have:
                continue
            config = ArenaConfig(
                bots=bots, rules=openspiel_rules(4, 10), games=2 * size, seed=chunk_seed, jobs=jobs
            )
            result = run_arena(config)
            moves = {stats.name: [stats.mean_move_s, stats.moves] for stats in result.summary.bots}
            line = {"bots": list(bots), "seed": chunk_seed, "diffs": deal_differences(result), "moves": moves}
            with log.open("a", encoding="utf-8") as out:
                out.write(json.dumps(line) + "\n")
        done += size


def summarize_references(log: Path) -> list[dict[str, Any]]:
    """Each pair's pooled per-hand difference (mean, 95% interval, deals) and time a move, from ``log``."""
    pooled: dict[tuple[str, str], dict[str, Any]] = {}
    for text in log.read_text(encoding="utf-8").splitlines():
        line = json.loads(text)
        pair = pooled.setdefault(tuple(line["bots"]), {"diffs": [], "seeds": [], "moves": {}})
        pair["diffs"] += line["diffs"]
        pair["seeds"].append(line["seed"])
        for name, (mean, count) in line["moves"].items():
            total, moves = pair["moves"].get(name, (0.0, 0))
            pair["moves"][name] = (total + mean * count, moves + count)
    summary = []
    for (first, second), pair in pooled.items():
        diff = estimate(pair["diffs"])
        summary.append(
            {
                "bots": [first, second],
                "deals": diff.n,
                "difference_per_hand": {
                    "mean": round(diff.mean, 3),
                    "low": None if diff.low is None else round(diff.low, 3),
                    "high": None if diff.high is None else round(diff.high, 3),
                },
                "seeds": sorted(pair["seeds"]),
                "mean_move_s": {name: round(t / n, 4) for name, (t, n) in pair["moves"].items() if n},
            }
        )
    return summary


def main(argv: list[str] | None = None) -> int:
    """Check the mirror, run the short arena, print JSON; exit 1 on any mismatch."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--hands", type=int, default=40, help="single 10-card hands to check")
    parser.add_argument("--games", type=int, default=2, help="whole countdown games to check")
    parser.add_argument("--simulations", type=int, default=200, help="ISMCTS simulations in the checks")
    parser.add_argument("--arena-games", type=int, default=40, help="hands of basic vs openspiel-ismcts:1000")
    parser.add_argument("--jobs", type=int, default=default_jobs())
    parser.add_argument("--references", type=int, default=0, help="duplicate deals of every reference pair")
    parser.add_argument("--reference-simulations", type=int, default=1000, help="ISMCTS simulations a move")
    parser.add_argument("--chunk", type=int, default=10, help="deals a pair plays before the next pair")
    parser.add_argument(
        "--pairs", type=int, nargs="+", choices=range(1, len(REFERENCE_PAIRS) + 1), default=[1, 2, 3],
        help="the pairs to play: 1 fair against leaky, 2 expert against fair, 3 expert against leaky",
    )  # fmt: skip
    parser.add_argument("--seed", type=int, default=25000, help="the first chunk's arena seed")
    parser.add_argument("--log", type=Path, default=Path("references.jsonl"), help="per-chunk differences")
    parser.add_argument("--summarize", type=Path, help="print the pooled figures of a --log and exit")
    args = parser.parse_args(argv)
    if args.summarize is not None:
        json.dump(
            {"benchmark": "openspiel-references", "pairs": summarize_references(args.summarize)}, sys.stdout
        )
        sys.stdout.write("\n")
        return 0
    ismcts = f"openspiel-ismcts:{args.simulations}"
    start = time.perf_counter()
    checked = 0
    mismatches: list[str] = []
    seats = [ismcts, "basic", "openspiel-random", "random"]
    for seed in range(args.hands):
        count, bad = checked_game(openspiel_rules(4, 10), seed, seats[seed % 4 :] + seats[: seed % 4])
        checked += count
        mismatches += bad
    for seed in range(args.games):
        count, bad = checked_game(preset("countdown", 4), 1000 + seed, seats)
        checked += count
        mismatches += bad
    check_s = time.perf_counter() - start
    config = ArenaConfig(
        bots=("basic", "openspiel-ismcts:1000"),
        rules=openspiel_rules(4, 10),
        games=args.arena_games,
        seed=7,
        jobs=args.jobs,
    )
    arena = result_json(run_arena(config)) if args.arena_games > 0 else None
    if args.references > 0:
        sims = args.reference_simulations
        play_references(args.references, sims, args.chunk, args.seed, args.jobs, args.log, tuple(args.pairs))
    report: dict[str, Any] = {
        "benchmark": "arena-openspiel",
        "hands_checked": args.hands,
        "countdown_games_checked": args.games,
        "decisions_checked": checked,
        "mismatches": mismatches[:20],
        "check_s": round(check_s, 1),
        "arena": None
        if arena is None
        else {key: arena[key] for key in ("bots", "games_played", "seed", "results", "pairs", "elapsed_s")},
        "references": summarize_references(args.log) if args.references > 0 else None,
    }
    json.dump(report, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
