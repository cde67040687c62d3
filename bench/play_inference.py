"""Inference from card play: its strength on duplicate deals, its effective sample size and its cost a move.

    python bench/play_inference.py duel expert+play expert --deals 600 [--rules hand] [--log FILE]
    python bench/play_inference.py duel expert+play=0.3+pool=16 ucb:1000 --deals 300
    python bench/play_inference.py swap expert+play expert --field expert --deals 400 [--log FILE]
    python bench/play_inference.py cost --eps 0.5 --hands 12
    python bench/play_inference.py fit expert --hands 40

A bot spec is a registry name (``expert``, ``ucb:1000``, ``ipimc:2000``) with options for the
:class:`upriver.bots.IpimcBot` kinds after ``+``: ``play`` (the kind's default eps) or ``play=EPS``
turns inference from card play on, ``noplay`` turns it off, ``pool=N`` sets the deals drawn per deal
kept, ``rollout=learned`` plays card decisions' rollouts by the learned play policy; ``policy``
alone is that policy as a bot. ``duel`` is ``bench/bidmodel.py``'s duel (its games and its summary,
imported, not copied) played in this one process, so these specs need no registry entry: A in seats
0 and 2 then in 1 and 3 of each deal, A's lead a game and a hand with its 95% interval. Under
``hand`` (OpenSpiel's rules: 4 players, one 10-card hand, 1 a trick + 10 for exact) a game is a
hand. With ``--log`` every game is appended as it ends and a rerun resumes. ``swap`` is the same
comparison with far less noise: each deal is played once with the ``--field`` bot in every seat but
one, which is B, and once more with that seat A (same seeds, so the two games agree move for move
until A's inference changes a card), for each of the four seats; a deal's figure is A's mean score
minus B's in that seat, and most hands differ in no card at all. ``cost`` plays hands with plain
``expert`` in every seat and, at every card decision with a choice, times a fresh bot with and
without inference on the same view (same seed) and reads the effective sample size of its weighted
deals. ``fit`` plays hands with one spec in every seat and, at every card play with a choice, asks
the rule of thumb what it would play with the seat's true hand: the share that agree, and the eps
that makes the softened rule of thumb most likely to have produced those plays (the
maximum-likelihood eps against that bot)."""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

import bidmodel
from upriver import DECK, Game
from upriver.bots import BOT_KINDS, BasicBot, Bot, IpimcBot, act, parse_budget
from upriver.bots import make_bot as registry_bot
from upriver.bots.ipimc import PLAY_EPS
from upriver.cards import Card
from upriver.fast import position_from_game, position_from_view, rollout, sample_worlds, world_of
from upriver.view import SeatView


class PolicyBot(BasicBot):
    """The learned play policy on its own: bids by the rule of thumb, each card the one the compiled
    policy (``upriver.fast.learned``) plays first from this seat's view (``policy``)."""

    kind = "policy"

    def choose_card(self, view: SeatView) -> Card:
        if len(view.legal_cards) == 1:
            return view.legal_cards[0]
        position = position_from_view(view)
        # The policy's first card reads only this seat's view, so any deal of the hidden cards will do.
        world = sample_worlds(position, 1, self.rng.getrandbits(31), threads=1)
        out = rollout(position, world, "learned", record=True, threads=1, check=False)
        assert out.cards is not None
        return DECK[int(out.cards[0, 0])]


def make_bot(spec: str, seed: int | None = None) -> Bot:
    """A bot from a spec: a registry name, then ``+play``, ``+play=EPS``, ``+noplay``, ``+pool=N``,
    ``+rollout=POLICY``."""
    if spec == PolicyBot.kind:
        return PolicyBot(seed)
    head, _, budget = spec.partition(":")
    kind, *options = head.split("+")
    if not options:
        return registry_bot(spec, seed)
    cls = BOT_KINDS.get(kind)
    if cls is None or not issubclass(cls, IpimcBot):
        raise ValueError(f"options after + are for the ipimc kinds (ipimc, expert), not {kind!r}")
    config = cls.defaults
    for option in options:
        name, _, value = option.partition("=")
        if name == "play":
            config = dataclasses.replace(config, play_inference=float(value) if value else PLAY_EPS)
        elif name == "noplay" and not value:
            config = dataclasses.replace(config, play_inference=None)
        elif name == "pool" and value.isdigit():
            config = dataclasses.replace(config, pool=int(value))
        elif name == "rollout" and value:
            config = dataclasses.replace(config, rollout=value)
        else:
            raise ValueError(
                f"unknown option {option!r} in {spec!r}: "
                "expected play, play=EPS, noplay, pool=N or rollout=POLICY"
            )
    return cls(seed, config=config, budget=parse_budget(budget) if budget else None)


def duel(a: str, b: str, rules: str, deals: int, seed: int, log: Path | None) -> dict[str, Any]:
    """A against B on ``deals`` duplicate deals in this process, by bench/bidmodel.py's games and summary."""
    make_bot(a), make_bot(b)  # a bad spec fails before any game
    setattr(bidmodel, "make_bot", make_bot)  # noqa: B010  # its games make their bots from these specs
    games: list[dict[str, Any]] = []
    if log is not None and log.exists():
        games = [json.loads(line) for line in log.read_text("utf-8").splitlines() if line.strip()]
        games = [g for g in games if g["names"] == [a, b] and g["rules"] == rules]
    have = {(g["seed"], g["flip"]) for g in games}
    for d in range(deals):
        for flip in (0, 1):
            if (seed + d, flip) in have:
                continue
            game = bidmodel._duel_game((a, b, rules, seed + d, flip, None, None))  # the shipped bid model
            games.append(game)
            if log is not None:
                with log.open("a", encoding="utf-8") as file:
                    file.write(json.dumps(game) + "\n")
    games = [g for g in games if seed <= g["seed"] < seed + deals]
    out = bidmodel.summary(games, a, b, rules)
    out["benchmark"] = "play-inference-duel"
    return out


def _swap_deal(a: str, b: str, field: str, seed: int) -> dict[str, Any]:
    """One deal played with B in each seat in turn and with A there instead: A's lead in that seat."""
    rules = bidmodel.DUEL_RULES["hand"]
    played: dict[tuple[str, ...], Game] = {}  # with B the field's own bot, its four games are one

    def play(lineup: tuple[str, ...]) -> Game:
        if lineup not in played:
            game = Game(rules, seed=seed)
            bots = [make_bot(spec, seed * 8 + s) for s, spec in enumerate(lineup)]
            while not game.is_over:
                turn = game.awaiting[0]
                act(game, turn, bots[turn])
            played[lineup] = game
        return played[lineup]

    gains, changed = [], 0
    for seat in range(4):
        with_a, with_b = (play(tuple(spec if s == seat else field for s in range(4))) for spec in (a, b))
        gains.append(with_a.totals[seat] - with_b.totals[seat])
        changed += with_a.log != with_b.log
    return {"names": [a, b, field], "seed": seed, "gain": statistics.mean(gains), "changed": changed}


def swap(a: str, b: str, field: str, deals: int, seed: int, log: Path | None) -> dict[str, Any]:
    """A against B as one seat among ``field`` bots, paired game by game on the same seeds."""
    make_bot(a), make_bot(b), make_bot(field)
    rows: list[dict[str, Any]] = []
    if log is not None and log.exists():
        rows = [json.loads(line) for line in log.read_text("utf-8").splitlines() if line.strip()]
        rows = [r for r in rows if r["names"] == [a, b, field]]
    have = {r["seed"] for r in rows}
    for d in range(deals):
        if seed + d in have:
            continue
        rows.append(_swap_deal(a, b, field, seed + d))
        if log is not None:
            with log.open("a", encoding="utf-8") as file:
                file.write(json.dumps(rows[-1]) + "\n")
    rows = [r for r in rows if seed <= r["seed"] < seed + deals]
    gains = [r["gain"] for r in rows]
    mean = statistics.mean(gains)
    half = 1.96 * statistics.stdev(gains) / math.sqrt(len(gains)) if len(gains) > 1 else math.inf
    return {
        "benchmark": "play-inference-swap",
        "a": a,
        "b": b,
        "field": field,
        "rules": "hand",
        "deals": len(rows),
        "hands": 4 * len(rows),
        "a_minus_b_per_hand": round(mean, 3),
        "ci95_per_hand": [round(mean - half, 3), round(mean + half, 3)],
        "hands_played_differently": round(sum(r["changed"] for r in rows) / (4 * len(rows)), 3),
    }


def cost(eps: float, hands: int, seed: int) -> dict[str, Any]:
    """Time a move with and without inference on the same card decisions; the weights' effective size."""
    rules = bidmodel.DUEL_RULES["hand"]
    players = [registry_bot("expert", seed * 8 + s) for s in range(4)]
    warm = Game(rules, seed=seed - 1)  # compile the kernels before timing
    while not warm.is_over:
        act(warm, warm.awaiting[0], make_bot(f"expert+play={eps}", 0))
    times: dict[str, list[float]] = {"off": [], "on": []}
    fraction: list[float] = []
    effective: list[float] = []
    by_trick: dict[int, list[float]] = {}
    for h in range(hands):
        game = Game(rules, seed=seed + h)
        while not game.is_over:
            seat = game.awaiting[0]
            view = game.view(seat)
            if len(view.legal_cards) > 1:
                for side, spec in (("off", "expert"), ("on", f"expert+play={eps}")):
                    bot = make_bot(spec, seed + len(times[side]))
                    start = time.perf_counter()
                    bot.act(view)
                    times[side].append(time.perf_counter() - start)
                assert isinstance(bot, IpimcBot)
                if bot.last_effective_deals is not None and bot.last_pool_deals:
                    fraction.append(bot.last_effective_deals / bot.last_pool_deals)
                    effective.append(bot.last_effective_deals)
                    by_trick.setdefault(len(view.tricks), []).append(fraction[-1])
            act(game, seat, players[seat])
    ms = {side: 1000 * np.array(t) for side, t in times.items()}
    return {
        "benchmark": "play-inference-cost",
        "eps": eps,
        "hands": hands,
        "decisions": len(ms["on"]),
        "move_ms_mean": {side: round(float(v.mean()), 2) for side, v in ms.items()},
        "move_ms_p95": {side: round(float(np.percentile(v, 95)), 2) for side, v in ms.items()},
        "added_ms_mean": round(float(ms["on"].mean() - ms["off"].mean()), 2),
        "effective_deals_median": round(statistics.median(effective), 1),
        "effective_fraction_mean": round(statistics.mean(fraction), 3),
        "effective_fraction_by_trick": {t: round(statistics.mean(f), 3) for t, f in sorted(by_trick.items())},
    }


def fit(spec: str, hands: int, seed: int) -> dict[str, Any]:
    """How often ``spec`` plays the rule of thumb's card, and the maximum-likelihood eps for it."""
    rules = bidmodel.DUEL_RULES["hand"]
    choices: list[int] = []
    agree: list[bool] = []
    for h in range(hands):
        game = Game(rules, seed=seed + h)
        bots = [make_bot(spec, (seed + h) * 8 + s) for s in range(4)]
        while not game.is_over:
            seat = game.awaiting[0]
            view = game.view(seat)
            if len(view.legal_cards) > 1:
                thumb = rollout(position_from_game(game), world_of(game), record=True, check=False)
                assert thumb.cards is not None
                move = act(game, seat, bots[seat])
                choices.append(len(view.legal_cards))
                agree.append(getattr(move, "card", None) == Card.from_index(int(thumb.cards[0, 0])))
            else:
                act(game, seat, bots[seat])
    k, hit = np.array(choices, dtype=np.float64), np.array(agree)
    grid = np.linspace(0.01, 0.99, 99)
    log_likelihood = [float(np.where(hit, np.log(1 - e + e / k), np.log(e / k)).sum()) for e in grid]
    return {
        "benchmark": "play-inference-fit",
        "bot": spec,
        "hands": hands,
        "plays_with_a_choice": len(agree),
        "rule_of_thumb_agreement": round(float(hit.mean()), 3),
        "mean_legal_cards": round(float(k.mean()), 2),
        "eps_maximum_likelihood": round(float(grid[int(np.argmax(log_likelihood))]), 2),
    }


def main(argv: list[str] | None = None) -> int:
    """Run one measurement and print it as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    d = sub.add_parser("duel", help="A against B on duplicate deals, in this process")
    d.add_argument("a")
    d.add_argument("b")
    d.add_argument("--rules", choices=sorted(bidmodel.DUEL_RULES), default="hand")
    d.add_argument("--deals", type=int, default=100)
    d.add_argument("--seed", type=int, default=1000)
    d.add_argument("--log", type=Path, help="append each game here; resume from it")
    w = sub.add_parser("swap", help="A against B as one seat among field bots, paired on the same seeds")
    w.add_argument("a")
    w.add_argument("b")
    w.add_argument("--field", default="expert")
    w.add_argument("--deals", type=int, default=100)
    w.add_argument("--seed", type=int, default=1000)
    w.add_argument("--log", type=Path, help="append each deal here; resume from it")
    c = sub.add_parser("cost", help="time a move with and without inference; effective sample size")
    c.add_argument("--eps", type=float, default=PLAY_EPS)
    c.add_argument("--hands", type=int, default=12)
    c.add_argument("--seed", type=int, default=1)
    f = sub.add_parser("fit", help="how often a bot plays the rule of thumb's card; the eps that fits it")
    f.add_argument("bot")
    f.add_argument("--hands", type=int, default=40)
    f.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.what == "duel":
        out = duel(args.a, args.b, args.rules, args.deals, args.seed, args.log)
    elif args.what == "swap":
        out = swap(args.a, args.b, args.field, args.deals, args.seed, args.log)
    elif args.what == "fit":
        out = fit(args.bot, args.hands, args.seed)
    else:
        out = cost(args.eps, args.hands, args.seed)
    json.dump(out, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
