"""What the PettingZoo and Gymnasium environments share: their rules and their rewards.

Kept free of pettingzoo and gymnasium so it can be imported, and tested, without them.

Rewards (``reward=``):

- ``"round"``: at the end of each round every seat receives that round's score, in points
  (so one seat's rewards over a game add up to its final total);
- ``"game"``: 0 until the game ends, then the win share: ``1/k`` to each of the ``k``
  seats tied for the most points, 0 to the others (the shares add up to 1).
"""

from __future__ import annotations

import random
from typing import Literal

from upriver.errors import RulesError
from upriver.game import Game
from upriver.rules import Rules, Schedule

__all__ = [
    "REWARD_MODES",
    "RewardMode",
    "check_reward",
    "make_rules",
    "next_seed",
    "rewards_since",
    "table_text",
    "win_shares",
]

RewardMode = Literal["round", "game"]
REWARD_MODES: tuple[RewardMode, ...] = ("round", "game")


def make_rules(
    preset_name: str | None, players: int, rules: Rules | None, options: dict[str, object]
) -> Rules:
    """The rules an environment plays: ``rules`` as given, else options read by :meth:`Rules.from_options`.

    ``options`` are spelled as in the game record (``max_cards=3``, ``schedule=[2, 3]``,
    ``dealer_bid="hook"``, enum members too) and override the preset's; with
    ``preset_name=None`` they are the whole rule set. ``schedule="explicit",
    explicit_sizes=(2, 3)`` (the :class:`~upriver.rules.Rules` fields) is read as
    ``schedule=[2, 3]``. A whole ``rules`` replaces the preset and the player count,
    and takes no options.

    :raises RulesError: with the engine's sentence, for options it refuses.
    :raises ValueError: for ``rules`` together with options.
    """
    if rules is not None:
        if options:
            raise ValueError(f"give either rules=Rules(...) or rule options, not both ({', '.join(options)})")
        return rules
    given = dict(options)
    if "explicit_sizes" in given:
        sizes = given.pop("explicit_sizes")
        schedule = given.get("schedule")
        if schedule not in (None, "explicit", Schedule.EXPLICIT):
            raise RulesError(f"explicit_sizes need schedule 'explicit', not {schedule!r}", option="schedule")
        given["schedule"] = list(sizes) if isinstance(sizes, tuple | list) else sizes
    return Rules.from_options({"preset": preset_name, **given}, player_count=players)


def check_reward(reward: str) -> RewardMode:
    """``reward`` if it is one of :data:`REWARD_MODES`, else a ``ValueError`` naming them."""
    for mode in REWARD_MODES:
        if reward == mode:
            return mode
    raise ValueError(f"reward must be one of {', '.join(map(repr, REWARD_MODES))}, not {reward!r}")


def win_shares(game: Game) -> tuple[float, ...]:
    """Each seat's share of the win of a finished game: 1/k for k tied winners, else 0."""
    winners = game.winners
    return tuple(1.0 / len(winners) if seat in winners else 0.0 for seat in range(game.rules.player_count))


def rewards_since(mode: RewardMode, game: Game, rounds_before: int) -> tuple[float, ...]:
    """Every seat's reward for what happened since the game had ``rounds_before`` finished rounds."""
    n = game.rules.player_count
    if mode == "round":
        totals = [0.0] * n
        for result in game.results[rounds_before:]:
            for seat, score in enumerate(result.scores):
                totals[seat] += score
        return tuple(totals)
    if game.is_over and rounds_before < len(game.results):
        return win_shares(game)
    return (0.0,) * n


def next_seed(rng: random.Random) -> int:
    """A fresh game seed from an environment's generator."""
    return rng.getrandbits(63)


def table_text(game: Game, names: tuple[str, ...]) -> str:
    """The whole table with every hand shown, for ``render()`` (not a spectator's view, which shows none)."""
    n = game.rules.player_count
    if game.is_over:
        won = ", ".join(names[s] for s in game.winners)
        rows = [f"game over after {game.rules.rounds} rounds: {won} won"]
    else:
        trump = "no trump" if game.trump is None else f"trump {game.trump.symbol}"
        turned = "" if game.turned is None else f" (turned {game.turned.symbol})"
        cards = f"{game.hand_size} card{'s' * (game.hand_size > 1)}"
        dealer = names[game.dealer]
        rows = [f"round {game.round_number}/{game.rules.rounds}, {cards}, {dealer} deals, {trump}{turned}"]
    for seat in range(n):
        bid = game.bids[seat]
        hand = " ".join(card.symbol for card in game.hand(seat))
        mark = "*" if seat == game.to_act else " "
        rows.append(
            f"{mark} {names[seat]:<9} bid {'-' if bid is None else bid:>2}  took {game.tricks_won[seat]:>2}  "
            f"total {game.totals[seat]:>4}  {hand}"
        )
    if game.trick:
        rows.append("trick: " + ", ".join(f"{names[s]} {c.symbol}" for s, c in game.trick))
    return "\n".join(rows)
