"""Engine speed: uniform-random play through upriver's public, legality-checked API.

Prints hands/s for 4-player 10-card hands and, per preset, full games/s and hands/s.
With the optional ``bench`` extra installed (PyPI ``open_spiel``), it also times
OpenSpiel's ``oh_hell`` (4 players, ``num_tricks_fixed=10``) in a tight
``random.choice(state.legal_actions())`` loop in the same run and prints the ratio.
Measurements alternate between the two engines and keep each one's median, since
the machine is shared and noisy.

It also measures branching mid-hand: moves/s (the hands loop's rate × 44), ``Game.copy()``/s
and ``game_from_view``/s.

Its committed results are ``bench/results/engine.json`` (the documentation site's benchmarks page).
A copy costs about as much as two moves; ``game_from_view`` replays the round on a fresh game.

What bounds it (cProfile and timings of the parts, per 4-player 10-card hand of ~85 µs):
``play`` about 0.6 µs a card and ``legal_cards`` 0.3–0.45 µs (decoding a bit set to a
tuple of cards), together ~40 µs; ``random.choice`` in the loop itself ~13–20 µs (shared
with OpenSpiel's loop, which calls it at every chance node too); the deal ~11 µs, of which
seeding a fresh Mersenne Twister for the round is ~4 µs and the keyed sort of the deck ~5
µs — both fixed, since a seed must keep dealing the same cards; the loop's ``is_over`` and
``phase`` ~5 µs; the round's scoring and ``RoundResult`` ~3 µs.

    python bench/engine.py [--json] [--seconds S] [--repeats R]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable

from upriver import PRESETS, Game, Phase, Rules, Schedule, game_from_view, preset
from upriver.rules import DealerBid

HANDS_PER_GAME = 50


def play_out(game: Game, rng: random.Random) -> None:
    """Finish ``game`` with uniform-random legal bids and cards, through the public API."""
    choice = rng.choice
    bidding = Phase.BIDDING
    while not game.is_over:
        if game.phase is bidding:
            game.bid(choice(game.legal_bids()))
        else:
            game.play(choice(game.legal_cards()))


def upriver_hands(seconds: float) -> float:
    """4-player 10-card hands a second, with the hook as in OpenSpiel's ``oh_hell``."""
    rules = Rules(
        player_count=4,
        schedule=Schedule.EXPLICIT,
        explicit_sizes=(10,) * HANDS_PER_GAME,
        dealer_bid=DealerBid.HOOK,
    )
    rng = random.Random(1)
    hands = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        play_out(Game(rules, seed=rng.getrandbits(32)), rng)
        hands += HANDS_PER_GAME
    return hands / elapsed


def preset_games(name: str, players: int, seconds: float) -> tuple[float, float]:
    """(games/s, hands/s) of whole games under a preset."""
    rules = preset(name, player_count=players)
    rng = random.Random(2)
    games = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds or games == 0:
        play_out(Game(rules, seed=rng.getrandbits(32)), rng)
        games += 1
    return games / elapsed, games * rules.rounds / elapsed


def branching(seconds: float) -> dict[str, float]:
    """Moves/s, ``Game.copy()``/s and ``game_from_view``/s, mid-round in a 4-player 10-card hand."""
    rules = Rules(player_count=4, schedule=Schedule.EXPLICIT, explicit_sizes=(10,), dealer_bid=DealerBid.HOOK)
    rng = random.Random(4)
    game = Game(rules, seed=4)
    for _ in range(4 + 17):  # the bids and 17 cards: mid-trick, in the fifth trick
        if game.phase is Phase.BIDDING:
            game.bid(rng.choice(game.legal_bids()))
        else:
            game.play(rng.choice(game.legal_cards()))
    view = game.view(game.to_act or 0)
    hands = [game.hand(seat) for seat in range(4)]

    def rate(step: Callable[[], object]) -> float:
        count = 0
        start = time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds / 3:
            for _ in range(100):
                step()
            count += 100
        return count / elapsed

    moves = upriver_hands(seconds / 3) * 44  # 4 bids and 40 cards a hand, with the loop's own costs
    return {
        "moves_per_s": round(moves),
        "copies_per_s": round(rate(game.copy)),
        "from_view_per_s": round(rate(lambda: game_from_view(view, hands, seed=1))),
    }


def openspiel_hands(seconds: float) -> Callable[[float], float] | None:
    """A timer of OpenSpiel's tight Python loop, or ``None`` without the ``bench`` extra."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("oh_hell", {"players": 4, "num_tricks_fixed": 10})

    def run(seconds: float) -> float:
        rng = random.Random(3)
        choice = rng.choice
        hands = 0
        start = time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds:
            state = game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(choice(state.legal_actions()))
            hands += 1
        return hands / elapsed

    return run


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print a table, or one JSON object with ``--json``."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of each timed run")
    parser.add_argument("--repeats", type=int, default=5, help="alternating runs per engine")
    parser.add_argument("--players", type=int, default=4, help="players for the per-preset games")
    args = parser.parse_args(argv)

    openspiel = openspiel_hands(args.seconds)
    ours: list[float] = []
    theirs: list[float] = []
    for _ in range(args.repeats):
        ours.append(upriver_hands(args.seconds))
        if openspiel is not None:
            theirs.append(openspiel(args.seconds))
    result: dict[str, object] = {
        "python": platform.python_version(),
        "upriver_hands_per_s_4p10": round(statistics.median(ours)),
    }
    if theirs:
        result["openspiel_loop_hands_per_s_4p10"] = round(statistics.median(theirs))
        result["ratio_upriver_to_openspiel_loop"] = round(
            statistics.median(ours) / statistics.median(theirs), 2
        )
    else:
        result["openspiel_loop_hands_per_s_4p10"] = None
        result["note"] = "install the bench extra (pip install -e '.[bench]') to compare with OpenSpiel"
    presets: dict[str, dict[str, float]] = {}
    for name in PRESETS:
        games, hands = preset_games(name, args.players, args.seconds)
        presets[name] = {"games_per_s": round(games, 1), "hands_per_s": round(hands)}
    result["presets"] = presets
    result["players_in_presets"] = args.players
    result["branching_4p10"] = branch = branching(args.seconds)

    if args.json:
        print(json.dumps(result))
        return 0
    print(f"upriver, 4 players × 10 cards: {result['upriver_hands_per_s_4p10']:>8} hands/s")
    if theirs:
        print(f"OpenSpiel oh_hell tight loop:   {result['openspiel_loop_hands_per_s_4p10']:>8} hands/s")
        print(f"ratio:                          {result['ratio_upriver_to_openspiel_loop']:>8}×")
    else:
        print(result["note"])
    print(f"\nwhole games, {args.players} players:")
    for name, figures in presets.items():
        print(f"  {name:<14} {figures['games_per_s']:>8} games/s {figures['hands_per_s']:>8} hands/s")
    print("\nbranching, mid-hand, 4 players × 10 cards:")
    for key, value in branch.items():
        print(f"  {key:<16} {value:>8}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
