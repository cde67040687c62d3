"""Train a small policy for one seat against three random bots, then play it in the arena.

Masked PPO in PyTorch on the CPU: the Gymnasium wrapper ``upriver.rl.gym.SingleSeatEnv``
gives the learner's encoded view and the mask of its legal actions; illegal actions get
zero probability, so the policy never has to learn the rules. Rewards are each round's
score (``reward="round"``, divided by 10). The learner takes a random seat each game.

After training, the greedy policy is registered as a bot kind and played against
``random`` and, for reference, ``basic`` against ``random``, on the same duplicate deals
with ``upriver.arena`` (every seat rotation plays each deal). Writes the learning curve
to ``learning_curve.png`` and the measured numbers to ``results.json`` beside this file.

    python -m pip install -r examples/requirements.txt
    python examples/train_ppo.py                 # 200 updates, about 23,000 games: 5 minutes on one core
    python examples/train_ppo.py --updates 30 --eval-games 400   # a quick look
    python examples/train_ppo.py --vector        # the games played by upriver.rl.vector, in compiled code
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
from torch import nn

from upriver import Rules, SeatView, preset
from upriver.arena.core import ArenaConfig, ArenaResult, run_arena
from upriver.arena.stats import estimate
from upriver.bots import BOT_KINDS, Bot
from upriver.cards import Card
from upriver.rl.encoding import ACTION_COUNT, OBS_SIZE, action_mask, decode_action, encode
from upriver.rl.gym import SingleSeatEnv
from upriver.rl.vector import VectorSingleSeatEnv

matplotlib.use("Agg")
import matplotlib.pyplot as plt

HERE = Path(__file__).resolve().parent


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


def train(args: argparse.Namespace, rules: Rules) -> tuple[Policy, list[dict[str, float]]]:
    """Masked PPO with GAE; returns the policy and one learning-curve point per update."""
    torch.manual_seed(args.seed)
    n, steps = args.envs, args.steps
    if args.vector:
        # One compiled vector environment: n tables, the kernel's uniform random bots in the other seats.
        vector = VectorSingleSeatEnv(n, rules=rules, seat=None, opponents="random", reward="round", threads=1)
        envs: list[SingleSeatEnv] = []
        first_obs, vector_info = vector.reset(seed=args.seed)
        obs = first_obs["observation"].copy()
        mask = first_obs["action_mask"].astype(bool)
        seats = vector_info["seat"].copy()
    else:
        envs = [SingleSeatEnv(rules=rules, seat=None, opponents="random", reward="round") for _ in range(n)]
        first = [env.reset(seed=args.seed + i)[0] for i, env in enumerate(envs)]
        obs = np.stack([o["observation"] for o in first])
        mask = np.stack([o["action_mask"] for o in first]).astype(bool)
    model = Policy(args.hidden)
    optimiser = torch.optim.Adam(model.parameters(), lr=args.lr, eps=1e-5)
    score = [0.0] * n
    games: list[tuple[float, float]] = []  # (points, win share) of every finished training game
    curve: list[dict[str, float]] = []
    start = time.perf_counter()
    update = 0
    while update < args.updates and time.perf_counter() - start < args.minutes * 60:
        update += 1
        b_obs = np.zeros((steps, n, OBS_SIZE), np.float32)
        b_mask = np.zeros((steps, n, ACTION_COUNT), bool)
        b_act = np.zeros((steps, n), np.int64)
        b_logp = np.zeros((steps, n), np.float32)
        b_val = np.zeros((steps + 1, n), np.float32)
        b_rew = np.zeros((steps, n), np.float32)
        b_done = np.zeros((steps, n), np.float32)
        for t in range(steps):
            with torch.no_grad():
                logits, value = model(torch.from_numpy(obs), torch.from_numpy(mask))
                dist = torch.distributions.Categorical(logits=logits)
                action = dist.sample()
            b_obs[t], b_mask[t], b_act[t] = obs, mask, action.numpy()
            b_logp[t], b_val[t] = dist.log_prob(action).numpy(), value.numpy()
            if args.vector:
                o, rewards, dones, _, vector_info = vector.step(action.numpy())
                for i in range(n):
                    score[i] += float(rewards[i])
                b_rew[t], b_done[t] = rewards / 10.0, dones
                for i in np.flatnonzero(dones):
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


def arena(bot: str, rules: Rules, games: int, seed: int) -> tuple[ArenaResult, dict[str, Any]]:
    """``bot`` against three random bots on duplicate deals; its win share and points with 95% intervals."""
    result = run_arena(
        ArenaConfig(bots=(bot, "random", "random", "random"), rules=rules, games=games, seed=seed)
    )
    by_deal: dict[int, list[float]] = {}
    for game in result.results:
        seat = game.seating.index(0)
        winners = game.winners
        by_deal.setdefault(game.deal, []).append(1 / len(winners) if seat in winners else 0.0)
    share = estimate([float(np.mean(v)) for v in by_deal.values()])
    mine = result.summary.bots[0]
    pair = result.summary.pairs[0]
    numbers = {
        "bot": bot,
        "games": result.summary.games,
        "deal_sets": result.summary.sets,
        "win_share": [share.mean, share.low, share.high],
        "points_per_game": [mine.points_per_game.mean, mine.points_per_game.low, mine.points_per_game.high],
        "points_minus_random": [pair.difference.mean, pair.difference.low, pair.difference.high],
        "random_points_per_game": result.summary.bots[1].points_per_game.mean,
        "exact_bid_rate": mine.exact_rate,
        "seconds": result.elapsed_s,
    }
    return result, numbers


def plot(curve: list[dict[str, float]], reference: dict[str, Any], final: dict[str, Any], path: Path) -> None:
    """Win share and points per game of the training games, with the baselines."""
    x = [c["games"] for c in curve]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    left.plot(x, [c["win_share"] for c in curve], label="PPO learner (training games)")
    left.axhline(0.25, color="grey", ls=":", label="random (1 in 4)")
    left.axhline(reference["win_share"][0], color="tab:green", ls="--", label="basic bot vs random (arena)")
    left.axhline(final["win_share"][0], color="tab:blue", ls="--", label="PPO greedy vs random (arena)")
    left.set(
        xlabel="training games", ylabel="win share", title="Win share against 3 random bots", ylim=(0, 1)
    )
    left.legend(loc="lower right", fontsize=8)
    right.plot(x, [c["points"] for c in curve], color="tab:orange", label="PPO learner (training games)")
    right.axhline(reference["points_per_game"][0], color="tab:green", ls="--", label="basic bot (arena)")
    right.axhline(final["points_per_game"][0], color="tab:blue", ls="--", label="PPO greedy (arena)")
    right.axhline(final["random_points_per_game"], color="grey", ls=":", label="random bot (arena)")
    right.set(xlabel="training games", ylabel="points per game", title="Points per game")
    right.legend(loc="lower right", fontsize=8)
    fig.suptitle("upriver: masked PPO, classic rules, 4 players, hands 1-2-3-3-2-1", fontsize=10)
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
    parser.add_argument("--steps", type=int, default=128, help="steps per env per update (default 128)")
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--gamma", type=float, default=1.0)
    parser.add_argument("--lam", type=float, default=0.95)
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--minibatches", type=int, default=4)
    parser.add_argument("--window", type=int, default=500, help="training games averaged per curve point")
    parser.add_argument("--out", type=Path, default=HERE, help="folder for the PNG and results.json")
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
    _, final = arena("ppo", rules, args.eval_games, seed=2024)
    _, reference = arena("basic", rules, args.eval_games, seed=2024)
    args.out.mkdir(parents=True, exist_ok=True)
    plot(curve, reference, final, args.out / "learning_curve.png")
    results = {
        "rules": "classic, 4 players, max_cards 3 (hands 1 2 3 3 2 1)",
        "train_seconds": trained,
        "train_games": curve[-1]["games"] if curve else 0,
        "updates": len(curve),
        "torch": torch.__version__,
        "arena_seed": 2024,
        "ppo_vs_random": final,
        "basic_vs_random": reference,
        "curve": curve[:: max(1, len(curve) // 60)],
    }
    (args.out / "results.json").write_text(json.dumps(results, indent=1) + "\n")
    for numbers in (final, reference):
        w, p = numbers["win_share"], numbers["points_minus_random"]
        print(
            f"{numbers['bot']:>5} vs 3 random, {numbers['games']} games: win share {w[0]:.3f} "
            f"[{w[1]:.3f}, {w[2]:.3f}], points - random {p[0]:+.1f} [{p[1]:+.1f}, {p[2]:+.1f}]"
        )


if __name__ == "__main__":
    main()
