"""Train a small policy for one seat with masked PPO, then play it in the arena.

Masked PPO in PyTorch on the CPU: the environment gives the learner's encoded view and the
mask of its legal actions; illegal actions get zero probability, so the policy never has to
learn the rules. Rewards are each round's score (``reward="round"``, divided by 10).

The games come from the Gymnasium wrapper ``upriver.rl.gym.SingleSeatEnv`` (the learner in a
random seat, ``--opponents`` in the others), from the compiled ``upriver.rl.vector.VectorSingleSeatEnv``
(``--vector``), or, with ``--opponents self``, from ``upriver.rl.vector.VectorTables`` with the
policy in every seat (self-play: each seat's decisions are an episode of their own).

After training, the greedy policy is registered as the bot kind ``ppo`` and measured with
``upriver.arena`` on duplicate deals (every seat rotation plays each deal): alone against three
``random`` bots, or (``--against normal``) head to head against the ``normal`` level, two seats
each; the ``basic`` bot is measured the same way on the same deals for reference. Writes the
learning curve to ``learning_curve.png`` and the numbers to ``results.json`` beside this file.

    python -m pip install -r examples/requirements.txt
    python examples/train_ppo.py                 # 200 updates, about 23,000 games: 5 minutes on one core
    python examples/train_ppo.py --updates 30 --eval-games 400   # a quick look
    python examples/train_ppo.py --vector        # the games played by upriver.rl.vector, in compiled code
    python examples/train_ppo.py --opponents self --against normal --envs 64 --steps 72 \\
        --updates 100000 --minutes 35 --anneal --eval-games 4000 --prefix normal_   # beats normal
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
import torch
from numpy.typing import NDArray
from torch import nn

from upriver import Rules, SeatView, preset
from upriver.arena.core import ArenaConfig, run_arena
from upriver.arena.stats import estimate
from upriver.bots import BOT_KINDS, Bot
from upriver.cards import Card
from upriver.rl.encoding import ACTION_COUNT, OBS_SIZE, action_mask, decode_action, encode
from upriver.rl.gym import SingleSeatEnv
from upriver.rl.vector import VectorSingleSeatEnv, VectorTables

matplotlib.use("Agg")
import matplotlib.pyplot as plt

HERE = Path(__file__).resolve().parent
ARENA_SEED = 2024


class Policy(nn.Module):
    """A two-layer MLP with a policy head over the 70 actions and a value head."""

    def __init__(self, hidden: int = 256) -> None:
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(OBS_SIZE, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU()
        )
        self.pi = nn.Linear(hidden, ACTION_COUNT)
        self.v = nn.Linear(hidden, 1)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(obs)
        # Illegal actions get (practically) zero probability: the mask is the engine's legal set.
        logits = self.pi(h).masked_fill(~mask, -1e9)
        return logits, self.v(h).squeeze(-1)


class PolicyBot(Bot):
    """The trained policy as an upriver bot: greedy over the legal actions of its seat's view."""

    kind = "ppo"
    model: Policy | None = None

    def act(self, view: SeatView) -> int | Card:
        assert self.model is not None, "set PolicyBot.model before playing"
        with torch.no_grad():
            obs = torch.from_numpy(encode(view)).unsqueeze(0)
            mask = torch.from_numpy(action_mask(view).astype(bool)).unsqueeze(0)
            logits, _ = self.model(obs, mask)
        return decode_action(int(logits.argmax()))

    def choose_bid(self, view: SeatView) -> int:
        move = self.act(view)
        assert isinstance(move, int)
        return move

    def choose_card(self, view: SeatView) -> Card:
        move = self.act(view)
        assert isinstance(move, Card)
        return move


def selfplay_advantages(
    seat: NDArray[np.int64],
    rewards: NDArray[np.float32],
    values: NDArray[np.float32],
    per_game: int,
    gamma: float,
    lam: float,
) -> NDArray[np.float32]:
    """GAE for self-play: each seat's decisions at a table form its own episode, paid the rewards
    of the steps from its decision up to its next one (or the game's end)."""
    steps, n, players = rewards.shape
    per_seat = per_game // players
    # Per table, its steps sorted by seat then time: (n, players, decisions of one seat).
    idx = np.argsort(seat.T * steps + np.arange(steps), axis=1, kind="stable").reshape(n, players, -1)
    length = idx.shape[2]
    cum = np.concatenate([np.zeros((1, n, players), np.float32), np.cumsum(rewards, axis=0)])
    last = (np.arange(length) % per_seat) == per_seat - 1
    game_end = (np.arange(length) // per_seat + 1) * per_game
    ends = np.concatenate([idx[:, :, 1:], np.full((n, players, 1), steps)], axis=2)
    ends = np.where(last, game_end, ends)
    table = np.arange(n)[:, None, None]
    who = np.arange(players)[None, :, None]
    rew = cum[ends, table, who] - cum[idx, table, who]
    val = values[idx, table]
    adv = np.zeros_like(rew)
    running = np.zeros((n, players), np.float32)
    for j in reversed(range(length)):
        alive = 0.0 if last[j] else 1.0
        following = val[:, :, j + 1] if j + 1 < length else 0.0
        delta = rew[:, :, j] + gamma * following * alive - val[:, :, j]
        running = delta + gamma * lam * alive * running
        adv[:, :, j] = running
    out = np.zeros((steps, n), np.float32)
    out[idx, table] = adv
    return out


def train(args: argparse.Namespace, rules: Rules) -> tuple[Policy, list[dict[str, float]]]:
    """Masked PPO with GAE; returns the policy and its learning curve: a point per update from the
    training games, or in self-play a point per probe (the greedy policy against 3 basic bots)."""
    torch.manual_seed(args.seed)
    n, steps = args.envs, args.steps
    selfplay = args.opponents == "self"
    players = rules.player_count
    per_game = players * (rules.rounds + sum(rules.hand_sizes))  # decisions in a game, every seat's
    if selfplay:
        # Every seat of every table plays the policy; tables start together and every game has the
        # same number of decisions, so each update's steps hold whole games.
        steps = -(-steps // per_game) * per_game
        tables = VectorTables(n, rules=rules, reward="round", threads=1)
        first_step = tables.reset(seed=args.seed)
        obs, mask, seat = first_step.obs.copy(), first_step.mask.astype(bool), first_step.seat.copy()
        envs: list[SingleSeatEnv] = []
    elif args.vector:
        # One compiled vector environment: n tables, the kernel's random or basic bots in the other seats.
        vector = VectorSingleSeatEnv(
            n, rules=rules, seat=None, opponents=args.opponents, reward="round", threads=1
        )
        envs = []
        first_obs, vector_info = vector.reset(seed=args.seed)
        obs = first_obs["observation"].copy()
        mask = first_obs["action_mask"].astype(bool)
        seats = vector_info["seat"].copy()
    else:
        envs = [
            SingleSeatEnv(rules=rules, seat=None, opponents=args.opponents, reward="round") for _ in range(n)
        ]
        first = [env.reset(seed=args.seed + i)[0] for i, env in enumerate(envs)]
        obs = np.stack([o["observation"] for o in first])
        mask = np.stack([o["action_mask"] for o in first]).astype(bool)
    model = Policy(args.hidden)
    BOT_KINDS[PolicyBot.kind] = PolicyBot
    optimiser = torch.optim.Adam(model.parameters(), lr=args.lr, eps=1e-5)
    score = [0.0] * n
    games: list[tuple[float, float]] = []  # (points, win share) of every finished training game
    curve: list[dict[str, float]] = []
    start = time.perf_counter()
    update = 0
    while update < args.updates and time.perf_counter() - start < args.minutes * 60:
        update += 1
        if args.anneal:  # the learning rate falls linearly to zero by the last update or the time limit
            done = max((update - 1) / args.updates, (time.perf_counter() - start) / (args.minutes * 60))
            for group in optimiser.param_groups:
                group["lr"] = args.lr * max(0.0, 1.0 - done)
        b_obs = np.zeros((steps, n, OBS_SIZE), np.float32)
        b_mask = np.zeros((steps, n, ACTION_COUNT), bool)
        b_act = np.zeros((steps, n), np.int64)
        b_logp = np.zeros((steps, n), np.float32)
        b_val = np.zeros((steps + 1, n), np.float32)
        b_rew = np.zeros((steps, n), np.float32)
        b_done = np.zeros((steps, n), np.float32)
        b_seat = np.zeros((steps, n), np.int64)
        b_rews = np.zeros((steps, n, players), np.float32)
        for t in range(steps):
            with torch.no_grad():
                logits, value = model(torch.from_numpy(obs), torch.from_numpy(mask))
                dist = torch.distributions.Categorical(logits=logits)
                action = dist.sample()
            b_obs[t], b_mask[t], b_act[t] = obs, mask, action.numpy()
            b_logp[t], b_val[t] = dist.log_prob(action).numpy(), value.numpy()
            if selfplay:
                out = tables.step(action.numpy())
                b_seat[t], b_rews[t] = seat, out.rewards / 10.0
                obs, mask, seat = out.obs.copy(), out.mask.astype(bool), out.seat.copy()
                continue
            if args.vector:
                o, rewards, dones, _, vector_info = vector.step(action.numpy())
                for i in range(n):
                    score[i] += float(rewards[i])
                b_rew[t], b_done[t] = rewards / 10.0, dones
                for i in np.flatnonzero(dones).tolist():
                    totals = vector_info["totals"][i]
                    winners = np.flatnonzero(totals == totals.max())
                    games.append((score[i], 1 / len(winners) if seats[i] in winners else 0.0))
                    score[i] = 0.0
                seats = vector_info["seat"].copy()  # a new game draws a new seat
                obs, mask = o["observation"].copy(), o["action_mask"].astype(bool)
                continue
            for i, env in enumerate(envs):
                o, reward, done, _, info = env.step(int(action[i]))
                score[i] += float(reward)
                b_rew[t, i] = float(reward) / 10.0
                b_done[t, i] = float(done)
                if done:
                    winners = info["winners"]
                    games.append((score[i], 1 / len(winners) if env.seat in winners else 0.0))
                    score[i] = 0.0
                    o, _ = env.reset()
                obs[i], mask[i] = o["observation"], o["action_mask"].astype(bool)
        with torch.no_grad():
            b_val[steps] = model(torch.from_numpy(obs), torch.from_numpy(mask))[1].numpy()
        if selfplay:
            adv = selfplay_advantages(b_seat, b_rews, b_val, per_game, args.gamma, args.lam)
        else:
            # Generalised advantage estimation; an episode is a whole game, undiscounted.
            adv = np.zeros((steps, n), np.float32)
            last = np.zeros(n, np.float32)
            for t in reversed(range(steps)):
                alive = 1.0 - b_done[t]
                delta = b_rew[t] + args.gamma * b_val[t + 1] * alive - b_val[t]
                last = delta + args.gamma * args.lam * alive * last
                adv[t] = last
        ret = adv + b_val[:steps]
        flat = {
            "obs": torch.from_numpy(b_obs.reshape(-1, OBS_SIZE)),
            "mask": torch.from_numpy(b_mask.reshape(-1, ACTION_COUNT)),
            "act": torch.from_numpy(b_act.reshape(-1)),
            "logp": torch.from_numpy(b_logp.reshape(-1)),
            "adv": torch.from_numpy(adv.reshape(-1)),
            "ret": torch.from_numpy(ret.reshape(-1)),
        }
        size = steps * n
        for _ in range(args.epochs):
            for idx in torch.randperm(size).split(size // args.minibatches):
                logits, value = model(flat["obs"][idx], flat["mask"][idx])
                dist = torch.distributions.Categorical(logits=logits)
                ratio = (dist.log_prob(flat["act"][idx]) - flat["logp"][idx]).exp()
                a = flat["adv"][idx]
                a = (a - a.mean()) / (a.std() + 1e-8)
                policy_loss = -torch.min(ratio * a, ratio.clamp(1 - args.clip, 1 + args.clip) * a).mean()
                value_loss = (value - flat["ret"][idx]).pow(2).mean()
                loss = policy_loss + 0.5 * value_loss - args.entropy * dist.entropy().mean()
                optimiser.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(model.parameters(), 0.5)
                optimiser.step()
        if selfplay:
            if update % args.probe_every == 0:
                # The greedy policy alone against 3 basic bots, on deals of its own (not the final arena's).
                PolicyBot.model = model.eval()
                probe = arena("ppo", "basic", rules, args.probe_games, seed=update, alone=True)
                model.train()
                curve.append(
                    {
                        "update": update,
                        "games": update * steps * n // per_game,
                        "seconds": time.perf_counter() - start,
                        "win_share": probe["win_share"][0],
                        "points": probe["points_per_game"][0],
                    }
                )
                c = curve[-1]
                print(
                    f"update {update:4d}  games {c['games']:6.0f}  {c['seconds']:6.0f} s  greedy vs 3 basic: "
                    f"win share {c['win_share']:.3f}  points {c['points']:.1f}",
                    flush=True,
                )
            continue
        recent = games[-args.window :]
        if recent:
            curve.append(
                {
                    "update": update,
                    "games": len(games),
                    "seconds": time.perf_counter() - start,
                    "win_share": float(np.mean([w for _, w in recent])),
                    "points": float(np.mean([p for p, _ in recent])),
                }
            )
            if update % 10 == 0:
                c = curve[-1]
                print(
                    f"update {update:4d}  games {len(games):6d}  {c['seconds']:6.0f} s  "
                    f"win share {c['win_share']:.3f}  points {c['points']:.1f}  (last {len(recent)} games)",
                    flush=True,
                )
    return model, curve


def arena(bot: str, against: str, rules: Rules, games: int, seed: int, *, alone: bool) -> dict[str, Any]:
    """``bot`` against ``against`` on duplicate deals: its points a game, its share of the wins and
    its margin over ``against`` in points a game, with 95% intervals over the duplicate sets.

    ``alone``: the bot in one seat, three ``against`` bots in the others (every deal played four
    times, the bot in each seat in turn). Otherwise head to head, two seats each, alternating
    (ABAB, then BABA on the same deals).
    """
    bots = (bot, against, against, against) if alone else (bot, against)
    result = run_arena(ArenaConfig(bots=bots, rules=rules, games=games, seed=seed))
    by_deal: dict[int, list[float]] = {}
    for game in result.results:
        mine = [seat for seat, who in enumerate(game.seating) if who == 0]
        winners = game.winners
        by_deal.setdefault(game.deal, []).append(sum(w in mine for w in winners) / len(winners))
    share = estimate([float(np.mean(v)) for v in by_deal.values()])
    ours, theirs = result.summary.bots[0], result.summary.bots[1]
    margin = result.summary.pairs[0].difference
    return {
        "bot": bot,
        "against": f"3 {against}" if alone else f"{against}, head to head",
        "games": result.summary.games,
        "deal_sets": result.summary.sets,
        "win_share": [share.mean, share.low, share.high],
        "points_per_game": [ours.points_per_game.mean, ours.points_per_game.low, ours.points_per_game.high],
        f"points_minus_{against}": [margin.mean, margin.low, margin.high],
        f"{against}_points_per_game": theirs.points_per_game.mean,
        "exact_bid_rate": ours.exact_rate,
        "seconds": result.elapsed_s,
    }


def plot(
    curve: list[dict[str, float]],
    opponents: str,
    lines: dict[str, dict[str, Any]],
    path: Path,
    *,
    learner: str,
    note: str,
) -> None:
    """Win share and points per game of the ``learner`` curve against 3 ``opponents``, with the
    arena's figures against the same 3 bots (``lines``: label to :func:`arena` numbers)."""
    x = [c["games"] for c in curve]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    left.plot(x, [c["win_share"] for c in curve], label=learner)
    left.axhline(0.25, color="grey", ls=":", label="chance (1 in 4)")
    right.plot(x, [c["points"] for c in curve], color="tab:orange", label=learner)
    theirs = next(iter(lines.values()))[f"{opponents}_points_per_game"]
    right.axhline(theirs, color="grey", ls=":", label=f"the {opponents} bots beside the PPO policy (arena)")
    for (label, numbers), colour in zip(lines.items(), ("tab:blue", "tab:green"), strict=False):
        left.axhline(numbers["win_share"][0], color=colour, ls="--", label=f"{label} (arena)")
        right.axhline(numbers["points_per_game"][0], color=colour, ls="--", label=f"{label} (arena)")
    title = f"Win share against 3 {opponents} bots"
    left.set(xlabel="training games", ylabel="win share", title=title, ylim=(0, 1))
    right.set(xlabel="training games", ylabel="points per game", title="Points per game")
    left.legend(loc="lower right", fontsize=8)
    right.legend(loc="lower right", fontsize=8)
    fig.suptitle(f"upriver: masked PPO, classic rules, 4 players, hands 1-2-3-3-2-1{note}", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--updates", type=int, default=200, help="PPO updates, each of envs × steps moves (default 200)"
    )
    parser.add_argument("--minutes", type=float, default=30.0, help="stop training after this long anyway")
    parser.add_argument("--eval-games", type=int, default=2000, help="arena games per bot (default 2000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--envs", type=int, default=16, help="tables played at once (default 16)")
    parser.add_argument(
        "--vector",
        action="store_true",
        help="collect the games with the compiled vector environment (upriver.rl.vector) instead of "
        "--envs Python environments",
    )
    parser.add_argument(
        "--opponents",
        choices=("random", "basic", "self"),
        default="random",
        help="who sits in the learner's three other seats while it trains: random or basic bots, or the "
        "policy itself in every seat (self: compiled, --envs tables of --steps moves, rounded up to "
        "whole games) (default random)",
    )
    parser.add_argument("--steps", type=int, default=128, help="steps per env per update (default 128)")
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument(
        "--anneal", action="store_true", help="lower the learning rate linearly to 0 over the run"
    )
    parser.add_argument("--gamma", type=float, default=1.0)
    parser.add_argument("--lam", type=float, default=0.95)
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--minibatches", type=int, default=4)
    parser.add_argument("--probe-every", type=int, default=50, help="self-play: updates between probes")
    parser.add_argument("--probe-games", type=int, default=400, help="self-play: arena games a probe")
    parser.add_argument("--window", type=int, default=500, help="training games averaged per curve point")
    parser.add_argument(
        "--against",
        choices=("random", "normal"),
        default="random",
        help="the arena: the policy alone against 3 random bots, or head to head against normal",
    )
    parser.add_argument("--out", type=Path, default=HERE, help="folder for the PNG and results.json")
    parser.add_argument(
        "--prefix", default="", help="name the files PREFIXlearning_curve.png and PREFIXresults.json"
    )
    parser.add_argument("--save", type=Path, help="also save the trained weights here (torch.save)")
    args = parser.parse_args()
    torch.set_num_threads(1)  # a small network: one thread is as fast, and leaves the other cores free
    rules = preset("classic", player_count=4, max_cards=3)
    began = time.perf_counter()
    model, curve = train(args, rules)
    trained = time.perf_counter() - began
    if args.save is not None:
        torch.save(model.state_dict(), args.save)
    PolicyBot.model = model.eval()
    BOT_KINDS[PolicyBot.kind] = PolicyBot  # the arena plays any registered kind
    alone = args.against == "random"  # against random: one seat against three; else head to head
    evals = {
        f"{bot}_vs_{args.against}": arena(bot, args.against, rules, args.eval_games, ARENA_SEED, alone=alone)
        for bot in ("ppo", "basic")
    }
    # The curve's reference lines: the greedy policy and the next bot up, each against 3 training opponents.
    faced = "basic" if args.opponents == "self" else args.opponents  # the curve's opponents
    stronger = {"random": "basic", "basic": "normal"}[faced]
    lines = {}
    for label, bot in (("PPO greedy", "ppo"), (f"{stronger} bot", stronger)):
        key = f"{bot}_vs_{faced}" if alone else f"{bot}_vs_3_{faced}"
        if key not in evals:
            evals[key] = arena(bot, faced, rules, args.eval_games, ARENA_SEED, alone=True)
        lines[label] = evals[key]
    args.out.mkdir(parents=True, exist_ok=True)
    note = ""
    if not alone:
        m = evals[f"ppo_vs_{args.against}"][f"points_minus_{args.against}"]
        note = (
            f"\nhead to head, PPO greedy − {args.against}: {m[0]:+.2f} points a game "
            f"(95% interval {m[1]:+.2f} to {m[2]:+.2f})"
        )
    selfplay = args.opponents == "self"
    learner = (
        f"PPO greedy ({args.probe_games}-game arena probes)" if selfplay else "PPO learner (training games)"
    )
    plot(curve, faced, lines, args.out / f"{args.prefix}learning_curve.png", learner=learner, note=note)
    results = {
        "rules": "classic, 4 players, max_cards 3 (hands 1 2 3 3 2 1)",
        "train_opponents": args.opponents,
        "train_seconds": trained,
        "train_games": curve[-1]["games"] if curve else 0,
        "updates": int(curve[-1]["update"]) if curve else 0,
        "hidden": args.hidden,
        "torch": torch.__version__,
        "arena_seed": ARENA_SEED,
        **evals,
        "curve": curve[:: max(1, len(curve) // 60)],
    }
    (args.out / f"{args.prefix}results.json").write_text(json.dumps(results, indent=1) + "\n")
    for numbers in evals.values():
        against = numbers["against"].split(",")[0].split()[-1]
        w, m = numbers["win_share"], numbers[f"points_minus_{against}"]
        print(
            f"{numbers['bot']:>6} vs {numbers['against']}, {numbers['games']} games: win share {w[0]:.3f} "
            f"[{w[1]:.3f}, {w[2]:.3f}], points - {against} {m[0]:+.2f} [{m[1]:+.2f}, {m[2]:+.2f}]"
        )


if __name__ == "__main__":
    main()
