"""A fair resampler for OpenSpiel's ISMCTS, and the ``openspiel-ismcts-fair`` seat that searches with it.

OpenSpiel 2.0's ``OhHellState::ResampleFromInfostate`` shuffles only the cards the
other seats were really dealt and leaves the undealt stock alone (``oh_hell.cc``: ``if
(!p.has_value()) continue;``), so its ISMCTS, searching those deals, always knows which
cards are out of play: 11 of the 41 it cannot see, with 4 players and 10 cards. Here
every card the seat has not seen, the other seats' unplayed cards and the stock alike,
is dealt uniformly over the deals consistent with what the seat knows
(:func:`upriver.bots.knowledge.knowledge_of`: its hand, the turn-up, the cards played
and the suits a seat has shown it lacks), and OpenSpiel's state is rebuilt from each
deal with the same bids and plays. OpenSpiel's Python ISMCTS takes such a resampler
(``ISMCTSBot.set_resampler``; the C++ bot's is not bound in Python), so the seat is
OpenSpiel's own search, fed fair deals.

The deals are exactly uniform, not nearly: the unseen cards fall into classes by which
seats may hold them (with voids, whole suits); a deal is drawn by choosing how many
cards of each class every seat with a void holds, each choice weighted by the exact
number of deals it leaves, then which cards, and the rest are shuffled among the seats
without voids and the stock.

>>> know = Knowledge(seat=0, hand=0b1, unknown=0b1110, counts=(1, 1, 1), voids=(0, 0, 0),
...     played_by=(0, 0, 0))
>>> FairDealer(know).count   # 3 unseen cards: one for each other seat, one left in the stock
6
>>> import dataclasses
>>> FairDealer(dataclasses.replace(know, voids=(0, 0b0110, 0))).count   # seat 1 cannot hold two
2
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Callable, Iterator, Sequence
from math import comb, factorial
from types import ModuleType
from typing import Any

from upriver.arena.base import ArenaError
from upriver.arena.openspiel import Mirror, action_move, deal_actions, load_pyspiel, parse_simulations
from upriver.bots.knowledge import Knowledge, knowledge_of
from upriver.cards import Card, cards_in
from upriver.view import SeatView

__all__ = [
    "FairDealer",
    "FairOpenSpielPlayer",
    "FairResampler",
    "RandomRollout",
    "seat_factory",
]

UCT_C = 2.0
"""The exploration constant of the leaky seat's C++ ISMCTS, so that only the deals differ."""

Split = tuple[int, ...]
"""How many cards of each class one seat holds."""


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _splits(need: int, caps: Sequence[int]) -> Iterator[Split]:
    """Every way to take ``need`` cards from classes holding ``caps`` cards (0 cap: not allowed)."""
    if not caps:
        if need == 0:
            yield ()
        return
    if need > sum(caps):
        return
    for k in range(min(need, caps[0]) + 1):
        for rest in _splits(need - k, caps[1:]):
            yield (k, *rest)


class FairDealer:
    """Deals of every card one seat has not seen, uniform over the deals its :class:`Knowledge` allows.

    A deal is each seat's cards now (bit masks, the seat's own hand in its place); the
    unseen cards in no hand are the stock. :attr:`count` is how many deals there are.

    :raises ArenaError: if no deal agrees with ``know`` (a knowledge no real game gives).
    """

    def __init__(self, know: Knowledge) -> None:
        self.know = know
        others = [s for s in range(know.players) if s != know.seat]
        self._voided = tuple(s for s in others if know.voids[s] & know.unknown)
        """The seats that may not hold some unseen card: their cards are counted out class by class."""
        self._free = tuple(s for s in others if s not in self._voided)
        groups: dict[tuple[bool, ...], list[int]] = {}
        for index in _bits(know.unknown):
            groups.setdefault(tuple(not know.voids[s] >> index & 1 for s in self._voided), []).append(index)
        self._classes = tuple(tuple(cards) for cards in groups.values())
        keys = tuple(groups)
        self._allowed = tuple(tuple(key[i] for key in keys) for i in range(len(self._voided)))
        self._choices: dict[tuple[int, Split], tuple[list[Split], list[int]]] = {}
        sizes = tuple(len(cards) for cards in self._classes)
        left = know.unknown.bit_count() - sum(know.counts[s] for s in self._voided)
        free_needs = [know.counts[s] for s in self._free]
        stock = left - sum(free_needs)
        if stock < 0 or self._ways(0, sizes) == 0:
            raise ArenaError(f"no deal of the unseen cards agrees with seat {know.seat}'s knowledge")
        arrangements = factorial(left)
        for need in [*free_needs, stock]:
            arrangements //= factorial(need)
        self.count = self._ways(0, sizes) * arrangements
        """How many deals agree with the knowledge (the stock's cards in no order)."""
        self._sizes = sizes

    def _ways(self, i: int, left: Split) -> int:
        """Deals of ``left`` cards per class to the voided seats from the ``i``-th on."""
        if i == len(self._voided):
            return 1
        if i == len(self._voided) - 1:  # Vandermonde: any cards of the classes it may hold
            seat = self._voided[i]
            return comb(
                sum(n for n, ok in zip(left, self._allowed[i], strict=True) if ok), self.know.counts[seat]
            )
        cumulative = self._options(i, left)[1]
        return cumulative[-1] if cumulative else 0

    def _options(self, i: int, left: Split) -> tuple[list[Split], list[int]]:
        """The ``i``-th voided seat's possible splits and their cumulative weights (deals each leaves)."""
        key = (i, left)
        if key not in self._choices:
            caps = [n if ok else 0 for n, ok in zip(left, self._allowed[i], strict=True)]
            splits: list[Split] = []
            cumulative: list[int] = []
            total = 0
            for split in _splits(self.know.counts[self._voided[i]], caps):
                weight = self._ways(i + 1, tuple(n - k for n, k in zip(left, split, strict=True)))
                for n, k in zip(left, split, strict=True):
                    weight *= comb(n, k)
                if weight:
                    total += weight
                    splits.append(split)
                    cumulative.append(total)
            self._choices[key] = (splits, cumulative)
        return self._choices[key]

    def deal(self, rng: random.Random) -> tuple[int, ...]:
        """One deal drawn uniformly: every seat's cards now, as bit masks."""
        know = self.know
        left = self._sizes
        taken: list[Split] = []
        for i in range(len(self._voided)):
            splits, cumulative = self._options(i, left)
            split = splits[bisect.bisect_right(cumulative, rng.randrange(cumulative[-1]))]
            taken.append(split)
            left = tuple(n - k for n, k in zip(left, split, strict=True))
        pools = [list(cards) for cards in self._classes]
        held = [0] * know.players
        held[know.seat] = know.hand
        for seat, split in zip(self._voided, taken, strict=True):
            for pool, k in zip(pools, split, strict=True):
                for index in rng.sample(pool, k) if k else ():
                    held[seat] |= 1 << index
                    pool.remove(index)
        rest = [index for pool in pools for index in pool]
        rng.shuffle(rest)
        start = 0
        for seat in self._free:
            need = know.counts[seat]
            for index in rest[start : start + need]:
                held[seat] |= 1 << index
            start += need
        return tuple(held)


class FairResampler:
    """OpenSpiel's ISMCTS resampler for one decision: each call, a fresh fair deal of the hidden cards.

    Called by ``ISMCTSBot`` as ``resampler(state, player)`` at the start of every
    simulation, it answers a new ``oh_hell`` state of the same game: the same hand size,
    dealer and turn-up, every seat dealt its cards of one :class:`FairDealer` deal (the
    cards it holds now and those it has played), then the bids and cards played in
    ``state`` since the deal. Only those public actions are read from ``state``; the rest
    comes from ``view``, so the search can learn nothing its seat was not shown.
    """

    def __init__(self, view: SeatView, rng: random.Random) -> None:
        if view.turned is None:
            raise ArenaError("OpenSpiel's oh_hell always turns up a trump; this round has none")
        self.view = view
        self.know = knowledge_of(view)
        self.dealer = FairDealer(self.know)
        self._rng = rng

    def hands(self) -> list[tuple[Card, ...]]:
        """Every seat's hand as dealt, in one fair deal: its cards now and the cards it has played."""
        held = self.dealer.deal(self._rng)
        return [cards_in(cards | self.know.played_by[s]) for s, cards in enumerate(held)]

    def __call__(self, state: Any, player: int) -> Any:
        if player != self.view.seat:
            raise ArenaError(f"a resampler for seat {self.view.seat} was asked for seat {player}'s deals")
        deal = deal_actions(self.view.player_count, self.view.dealer, self.hands(), self.view.turned)
        sampled = state.get_game().new_initial_state()
        for action in [*deal, *state.history()[len(deal) :]]:
            sampled.apply_action(action)
        return sampled


class RandomRollout:
    """OpenSpiel's random-rollout evaluator with one rollout: a uniform prior, and the returns of one
    playout by uniformly random legal actions. The same as ``RandomRolloutEvaluator(1, seed)``, the
    leaky seat's, drawing with Python's generator (OpenSpiel's Python one spends most of a search in
    NumPy's per-draw overhead)."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def prior(self, state: Any) -> list[tuple[int, float]]:
        """Every legal action, equally likely."""
        actions = state.legal_actions()
        return [(action, 1 / len(actions)) for action in actions]

    def evaluate(self, state: Any) -> list[float]:
        """Each player's return at the end of one uniformly random playout from ``state``."""
        working = state.clone()
        choice = self._rng.choice
        while not working.is_terminal():
            if working.is_chance_node():
                outcomes, chances = zip(*working.chance_outcomes(), strict=True)
                working.apply_action(self._rng.choices(outcomes, chances)[0])
            else:
                working.apply_action(choice(working.legal_actions()))
        returns: list[float] = working.returns()
        return returns


def load_ismcts() -> ModuleType:
    """OpenSpiel's Python ISMCTS module, or an :class:`ArenaError` that says how to install it."""
    load_pyspiel()
    try:
        from open_spiel.python.algorithms import ismcts
    except ImportError:
        raise ArenaError(
            "openspiel-ismcts-fair needs OpenSpiel's Python algorithms: install the bench extra "
            "(pip install 'upriver[bench]')"
        ) from None
    module: ModuleType = ismcts
    return module


class FairOpenSpielPlayer:
    """OpenSpiel's ISMCTS searching fair deals: its Python ``ISMCTSBot`` (UCT, c = 2, one random
    rollout a leaf, the most visited move, a fresh deal every simulation) with a
    :class:`FairResampler`. The same search as ``openspiel-ismcts`` but for the deals it searches."""

    uses_mirror = True
    last_bid_estimates = None
    """OpenSpiel's bots predict no make rates."""
    sees_deal = False

    def __init__(self, simulations: int, seed: int) -> None:
        self.simulations = simulations
        self.seed = seed % (2**31)
        self._rng = random.Random(seed)
        self._mirror: Mirror | None = None
        self._bot: Any = None

    def attach(self, mirror: Mirror) -> None:
        """Play on ``mirror``'s states; the bot is made here, in the process that plays."""
        self._mirror = mirror
        if self._bot is None:
            import numpy as np

            ismcts = load_ismcts()
            self._bot = ismcts.ISMCTSBot(
                mirror.state.get_game(),
                RandomRollout(self.seed),
                UCT_C,
                self.simulations,
                max_world_samples=ismcts.UNLIMITED_NUM_WORLD_SAMPLES,
                random_state=np.random.RandomState(self.seed),
                final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
            )

    def see_deal(self, hands: Sequence[Sequence[Card]]) -> None:
        """Never called: the seat reads its mirrored state and its view."""

    def move(self, view: SeatView) -> int | Card:
        """OpenSpiel's choice after searching fair deals, as an upriver bid or card."""
        if self._mirror is None or self._bot is None:
            raise ArenaError("an OpenSpiel seat plays only in a game with a mirrored OpenSpiel state")
        state = self._mirror.state
        if state.current_player() != view.seat:
            raise ArenaError(f"OpenSpiel has seat {state.current_player()} to act, not seat {view.seat}")
        self._bot.set_resampler(FairResampler(view, self._rng))
        return action_move(int(self._bot.step(state)))


def seat_factory(arg: str | None) -> Callable[[int], FairOpenSpielPlayer]:
    """A maker of fair ISMCTS players; fails now if OpenSpiel is missing or the budget is bad."""
    load_ismcts()
    simulations = parse_simulations("openspiel-ismcts-fair", arg)
    return lambda seed: FairOpenSpielPlayer(simulations, seed)
