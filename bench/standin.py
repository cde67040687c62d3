"""How closely ``ucb`` (the compiled stand-in) plays like OpenSpiel's ISMCTS, on OpenSpiel's rules.

Two figures, printed as one JSON document:

- **agreement**: positions are taken from self-play games of the stand-in (4 players,
  single 10-card hands under OpenSpiel's ``oh_hell`` rules; two decisions with a choice
  drawn at random from each game). At each, OpenSpiel's ``ISMCTSBot`` (1000 simulations,
  as the arena plays it) is run ``--runs`` times with different seeds. Its search is
  random, so the reference is the modal move of all runs but the last; the last run's
  agreement with that mode is OpenSpiel's own agreement, the ceiling; the stand-in's
  agreement with the same mode is the figure: the stand-in as the ``ismcts-standin`` seat
  plays it (told the cards in play, as OpenSpiel's resampler is) and as the fair ``ucb``
  bot. Bids and cards are also given apart.
- **head-to-head**: ``ismcts-standin:SIMS`` (or ``--standin ucb``) against
  ``openspiel-ismcts:SIMS`` in the arena on duplicate deals; near 0 with its 95% interval
  if the stand-in plays as strongly.

    python bench/standin.py --positions 500 --games 400 --jobs 2
    python bench/standin.py --positions 0 --games 200          # the head-to-head alone
    python bench/standin.py --write-fixture tests/fixtures/ismcts-moves.json   # the test's fixture

``--write-fixture`` records, for a small fixed set of positions (game seed and the moves
leading there), the moves of OpenSpiel's ISMCTS over the runs, keeping positions where
its runs mostly agree; ``tests/test_standin.py`` checks the stand-in against them. Needs
the ``bench`` extra (pyspiel).
"""

from __future__ import annotations

import argparse
import collections
import json
import math
import random
import sys
import time
from typing import Any

from rich.console import Console

from upriver.arena.core import ArenaConfig, run_arena
from upriver.arena.openspiel import ROLLOUTS, UCT_C, Mirror, action_move, load_pyspiel, openspiel_rules
from upriver.arena.report import result_json
from upriver.arena.runner import default_jobs, run_with_progress
from upriver.bots import Bot, UcbBot, make_bot
from upriver.cards import Card, mask_of
from upriver.game import Game

Move = int | Card


def _text(move: Move) -> int | str:
    return str(move) if isinstance(move, Card) else move


def _ismcts(pyspiel: Any, simulations: int, seed: int) -> Any:
    evaluator = pyspiel.RandomRolloutEvaluator(ROLLOUTS, seed)
    return pyspiel.ISMCTSBot(
        seed, evaluator, UCT_C, simulations, -1, pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False
    )


def positions(count: int, seed: int, simulations: int) -> list[dict[str, Any]]:
    """``count`` decisions with a choice, two a game, from stand-in self-play: seed, moves so far, state."""
    rng = random.Random(seed)
    found: list[dict[str, Any]] = []
    game_seed = seed
    while len(found) < count:
        game_seed += 1
        game = Game(openspiel_rules(4, 10), seed=game_seed)
        mirror = Mirror(game)
        bots: list[Bot] = [make_bot(f"ucb:{simulations}", seed=game_seed * 8 + s) for s in range(4)]
        decisions = 4 + 4 * 10  # bids and cards of a 10-card hand
        picks = set(rng.sample(range(decisions), 2))
        moves: list[Move] = []
        i = 0
        while not game.is_over and len(found) < count:
            seat = game.awaiting[0]
            view = game.view(seat)
            choices = view.legal_bids or view.legal_cards
            if i in picks and len(choices) > 1:
                in_play = mask_of(card for s in range(4) if s != seat for card in game.hand(s))
                found.append(
                    {
                        "seed": game_seed,
                        "moves": list(moves),
                        "view": view,
                        "state": mirror.state.clone(),
                        "in_play": in_play,
                    }
                )
            move = bots[seat].act(view)
            game.move(move, seat=seat)
            mirror.follow(game, move)
            moves.append(move)
            i += 1
    return found


def agreement(count: int, runs: int, simulations: int, seed: int, console: Console) -> dict[str, Any]:
    """OpenSpiel's self-agreement and the stand-in's agreement with OpenSpiel's modal move."""
    pyspiel = load_pyspiel()
    start = time.perf_counter()
    found = positions(count, seed, simulations)
    rows = []
    for k, pos in enumerate(found):
        ours = UcbBot(seed + k, budget=simulations).choose(pos["view"], in_play=pos["in_play"])
        fair = UcbBot(seed + k, budget=simulations).choose(pos["view"])
        theirs = [
            action_move(int(_ismcts(pyspiel, simulations, seed + 1000 * r + k).step(pos["state"])))
            for r in range(runs)
        ]
        rows.append({"bidding": isinstance(ours, int), "ours": ours, "fair": fair, "theirs": theirs})
        if (k + 1) % 50 == 0:
            console.print(f"agreement: {k + 1}/{len(found)} positions")

    def share(subset: list[dict[str, Any]]) -> dict[str, Any]:
        if not subset:
            return {"positions": 0}
        mine = fair = self_ = 0
        for row in subset:
            mode, _ = collections.Counter(row["theirs"][:-1]).most_common(1)[0]
            mine += row["ours"] == mode
            fair += row["fair"] == mode
            self_ += row["theirs"][-1] == mode
        n = len(subset)
        return {
            "positions": n,
            "standin_agrees": round(mine / n, 3),
            "standin_ci95": _wilson(mine, n),
            "fair_ucb_agrees": round(fair / n, 3),
            "fair_ucb_ci95": _wilson(fair, n),
            "openspiel_self_agrees": round(self_ / n, 3),
            "openspiel_ci95": _wilson(self_, n),
        }

    return {
        "runs_per_position": runs,
        "simulations": simulations,
        "all": share(rows),
        "bids": share([r for r in rows if r["bidding"]]),
        "cards": share([r for r in rows if not r["bidding"]]),
        "elapsed_s": round(time.perf_counter() - start, 1),
    }


def _wilson(hits: int, n: int) -> list[float]:
    """The 95% Wilson score interval of a share."""
    z = 1.96
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return [round(centre - half, 3), round(centre + half, 3)]


def head_to_head(
    standin: str, games: int, simulations: int, seed: int, jobs: int, console: Console
) -> dict[str, Any]:
    """The stand-in against OpenSpiel's ISMCTS on duplicate single hands."""
    bots = (f"{standin}:{simulations}", f"openspiel-ismcts:{simulations}")
    config = ArenaConfig(bots=bots, rules=openspiel_rules(4, 10), games=games, seed=seed, jobs=jobs)
    result = run_arena(config, runner=lambda tasks: run_with_progress(tasks, jobs=jobs, console=console))
    data = result_json(result)
    return {
        "command": f"upriver arena {' '.join(bots)} --games {games} --seed {seed} --jobs {jobs}",
        "games_played": data["games_played"],
        "standin_minus_openspiel_per_hand": data["pairs"][0]["points_per_game_difference"],
        "bots": [
            {key: row[key] for key in ("bot", "points_per_hand", "exact_rate", "mean_move_s")}
            for row in data["results"]
        ],
        "elapsed_s": round(result.elapsed_s, 1),
    }


def write_fixture(path: str, count: int, runs: int, simulations: int, seed: int) -> dict[str, Any]:
    """Record OpenSpiel's moves on positions where its runs mostly agree (see the module's docstring)."""
    pyspiel = load_pyspiel()
    kept = []
    for k, pos in enumerate(positions(4 * count, seed, simulations)):
        theirs = [
            action_move(int(_ismcts(pyspiel, simulations, seed + 1000 * r + k).step(pos["state"])))
            for r in range(runs)
        ]
        mode, times = collections.Counter(theirs).most_common(1)[0]
        if times * 5 >= 4 * runs:
            kept.append(
                {
                    "seed": pos["seed"],
                    "moves": [_text(m) for m in pos["moves"]],
                    "openspiel": [_text(m) for m in theirs],
                    "mode": _text(mode),
                }
            )
        if len(kept) == count:
            break
    fixture = {
        "about": (
            "Moves of OpenSpiel's ISMCTSBot (pyspiel 2.0.2; 1000 simulations, UCT c=2, one random rollout, "
            "unlimited world samples, most-visited move) at positions of 4-player single 10-card hands under "
            "OpenSpiel's oh_hell rules (upriver.arena.openspiel.openspiel_rules(4, 10)), each given by the "
            "game seed and the moves leading to it; only positions where at least 4 of 5 runs agree are "
            "kept. Regenerate with: python bench/standin.py --write-fixture tests/fixtures/ismcts-moves.json "
            f"--fixture-positions {count} --runs {runs} --simulations {simulations} --seed {seed}"
        ),
        "simulations": simulations,
        "positions": kept,
    }
    with open(path, "w", encoding="utf-8") as out:
        json.dump(fixture, out, indent=1)
        out.write("\n")
    return {"fixture": path, "positions": len(kept)}


def main(argv: list[str] | None = None) -> int:
    """Measure agreement and the head-to-head (or write the test fixture) and print JSON."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--positions", type=int, default=500, help="positions for the agreement (0: skip)")
    parser.add_argument("--runs", type=int, default=5, help="OpenSpiel runs per position")
    parser.add_argument("--games", type=int, default=200, help="head-to-head hands (0: skip)")
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument(
        "--standin", default="ismcts-standin", help="the head-to-head's stand-in seat: ismcts-standin or ucb"
    )
    parser.add_argument("--seed", type=int, default=77)
    parser.add_argument("--jobs", type=int, default=default_jobs())
    parser.add_argument("--write-fixture", metavar="FILE", help="record the test fixture instead")
    parser.add_argument("--fixture-positions", type=int, default=40)
    args = parser.parse_args(argv)
    console = Console(stderr=True, highlight=False)
    out: dict[str, Any] = {"benchmark": "standin"}
    if args.write_fixture:
        out |= write_fixture(
            args.write_fixture, args.fixture_positions, args.runs, args.simulations, args.seed
        )
    else:
        if args.positions:
            out["agreement"] = agreement(args.positions, args.runs, args.simulations, args.seed, console)
        if args.games:
            out["head_to_head"] = head_to_head(
                args.standin, args.games, args.simulations, args.seed, args.jobs, console
            )
    json.dump(out, sys.stdout, indent=2, default=_text)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
