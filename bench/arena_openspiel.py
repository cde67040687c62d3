"""The OpenSpiel mirror against real pyspiel: lockstep, legal sets and scores, then a short arena.

Needs the ``bench`` extra (PyPI ``open_spiel``). First it plays games in which OpenSpiel
seats (ISMCTS and uniform random) sit with upriver bots, and at every decision checks
that pyspiel's legal actions, translated, are exactly the engine's legal bids or cards;
the mirror itself checks whose turn it is after every move and that both score every
round alike. Single 10-card hands under OpenSpiel's rules, and whole ``countdown``
games (10 … 1 … 10, a new pyspiel state each round). Then it runs a short arena,
``basic`` against ``openspiel-ismcts``, and prints everything as JSON.

    python bench/arena_openspiel.py [--hands 40] [--games 2] [--simulations 200] [--arena-games 40]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from upriver import Game, Rules, preset
from upriver.arena.core import ArenaConfig, run_arena
from upriver.arena.match import player_seed
from upriver.arena.openspiel import Mirror, action_move, openspiel_rules
from upriver.arena.report import result_json
from upriver.arena.runner import default_jobs
from upriver.arena.spec import SeatPlayer, parse_spec
from upriver.cards import Card


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


def main(argv: list[str] | None = None) -> int:
    """Check the mirror, run the short arena, print JSON; exit 1 on any mismatch."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--hands", type=int, default=40, help="single 10-card hands to check")
    parser.add_argument("--games", type=int, default=2, help="whole countdown games to check")
    parser.add_argument("--simulations", type=int, default=200, help="ISMCTS simulations in the checks")
    parser.add_argument("--arena-games", type=int, default=40, help="hands of basic vs openspiel-ismcts:1000")
    parser.add_argument("--jobs", type=int, default=default_jobs())
    args = parser.parse_args(argv)
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
    }
    json.dump(report, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
