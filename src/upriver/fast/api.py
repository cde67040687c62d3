"""The Python face of the kernel: whole random games in batches, and rollouts from a position.

:func:`simulate` deals and plays whole games (a one-round explicit schedule makes
that single hands). :class:`Position` is one seat's picture of a round in
compact form; :func:`sample_worlds` deals the cards that seat cannot see, and
:func:`rollout` completes the round in every sampled world. Nothing compiles until
one of these is first called, and compiled code is cached on disk.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from upriver.cards import Card, mask_of
from upriver.deal import left_of
from upriver.game import Game
from upriver.options import OPTIONS
from upriver.rules import FirstDealer, Rules
from upriver.scoring import round_score, tricks_pay_past_the_bid
from upriver.view import SeatView

from . import kernel, policies
from ._jit import set_threads, u64
from .kernel import Outcomes, PositionRecord
from .learned import COUNT, decision_features
from .policies import (
    COUNTS_TRICKS,
    OPTS_SIZE,
    POLICY_BASIC,
    POLICY_LEARNED,
    POLICY_RANDOM,
    SCORES,
    TRICKS_MAX,
    lead_barred,
    legal_cards,
    trick_standing,
)

__all__ = [
    "Policy",
    "Position",
    "Rollout",
    "Simulation",
    "check_worlds",
    "option_code",
    "play_features",
    "position_from_game",
    "position_from_view",
    "position_record",
    "rollout",
    "round_opts",
    "sample_worlds",
    "simulate",
    "world_of",
]

Policy = Literal["random", "basic", "learned"]
"""``random``: uniform over legal moves; ``basic``: the rule of thumb of :class:`upriver.bots.BasicBot`;
``learned``: cards by the learned play policy (:mod:`upriver.fast.learned`), bids by the rule of thumb."""

_POLICIES = {"random": POLICY_RANDOM, "basic": POLICY_BASIC, "learned": POLICY_LEARNED}
_PLACES: tuple[tuple[str, int, Mapping[object, int]], ...] = tuple(
    (option.name, getattr(policies, option.kernel), option.kernel_codes)
    for option in OPTIONS
    if option.kernel is not None
)
"""Each rule option the kernel reads, its place in the kernel's options and its number for each value
(:data:`upriver.options.OPTIONS`); the scoring is read as its points (:func:`round_opts`)."""
_FULL = (1 << 52) - 1


def _policy(policy: str) -> int:
    try:
        return _POLICIES[policy]
    except KeyError:
        raise ValueError(f"policy must be one of {', '.join(_POLICIES)}, not {policy!r}") from None


def round_opts(rules: Rules, round_number: int = 1) -> NDArray[np.int64]:
    """The kernel's options for one round (:mod:`upriver.fast.policies` names the places): the
    rules as numbers, then the engine's points for every bid and tricks taken in that round."""
    opts = np.zeros(OPTS_SIZE, dtype=np.int64)
    for name, place, codes in _PLACES:
        opts[place] = codes[getattr(rules, name)]
    opts[COUNTS_TRICKS] = tricks_pay_past_the_bid(rules.scoring)
    for bid in range(TRICKS_MAX):
        for took in range(TRICKS_MAX):
            opts[SCORES + bid * TRICKS_MAX + took] = round_score(rules.scoring, bid, took, round_number)
    return opts


def option_code(rules: Rules, place: int) -> int:
    """The kernel's number for the rule option at ``place`` of its options (``LEAD_RULE``, …)."""
    for name, at, codes in _PLACES:
        if at == place:
            return codes[getattr(rules, name)]
    raise ValueError(f"no rule option is at place {place} of the kernel's options")


def _game_opts(rules: Rules) -> NDArray[np.int64]:
    """:func:`round_opts` for every round of a game, one row a round."""
    return np.stack([round_opts(rules, number) for number in range(1, rules.rounds + 1)])


def _chunks(count: int) -> int:
    return (count + kernel.CHUNK - 1) // kernel.CHUNK


@dataclasses.dataclass(frozen=True)
class Simulation:
    """Bids, tricks and scores of simulated games, each shaped ``(games, rounds, players)``."""

    bids: NDArray[np.int8]
    tricks: NDArray[np.int8]
    scores: NDArray[np.int16]

    @property
    def totals(self) -> NDArray[np.int32]:
        """Each game's final totals, ``(games, players)``."""
        totals: NDArray[np.int32] = self.scores.sum(axis=1, dtype=np.int32)
        return totals


def simulate(
    rules: Rules,
    n: int,
    policy: Policy = "random",
    seed: int = 0,
    *,
    dealer: int | None = None,
    threads: int | None = None,
) -> Simulation:
    """Deal and play ``n`` whole games under ``rules`` with ``policy`` for every seat.

    The first dealer follows the rules (a first-Jack draw, left of the last seat as
    keeper, else seat 0) unless ``dealer`` is given. ``threads`` 1 runs in the calling
    thread; ``None`` uses every numba thread. Results depend only on the seed.
    """
    sizes = np.array(rules.hand_sizes, dtype=np.int64)
    shape = (n, len(sizes), rules.player_count)
    out = Simulation(np.empty(shape, np.int8), np.empty(shape, np.int8), np.empty(shape, np.int16))
    first_jack = dealer is None and rules.first_dealer is FirstDealer.FIRST_JACK
    first = dealer if dealer is not None else 0
    unrecorded = np.empty((0, 0), np.int8)
    into = Outcomes(out.bids, out.tricks, out.scores, np.empty(0, np.int8), unrecorded, unrecorded)
    args = (first_jack, first, _game_opts(rules), _policy(policy), seed, into)
    if threads == 1:
        kernel.games_range(0, _chunks(n), n, sizes, *args)
    else:
        with set_threads(threads):
            kernel.games_parallel(n, sizes, *args)
    return out


@dataclasses.dataclass(frozen=True, kw_only=True)
class Position:
    """A round as one seat sees it, in the kernel's terms (cards as indices 0–51, sets as bits).

    ``bids`` has -1 for a bid not yet made, or hidden (simultaneous bidding): the
    kernel bids for those seats. ``trick`` lists the cards on the table from the
    leader; ``played`` is every card played this round, the trick included.
    ``round_number`` (1-based) is the round's place in the game, which ``anderson`` pays by.
    """

    rules: Rules
    seat: int
    hand: int
    hand_size: int
    dealer: int
    turned: int
    trump: int
    bids: tuple[int, ...]
    tricks_won: tuple[int, ...]
    tricks_done: int
    leader: int
    trick: tuple[int, ...]
    played: int
    trump_broken: bool
    round_number: int = 1

    @property
    def players(self) -> int:
        """Seats at the table."""
        return self.rules.player_count

    @property
    def counts(self) -> tuple[int, ...]:
        """How many cards each seat holds now."""
        n = self.players
        base = self.hand_size - self.tricks_done
        return tuple(base - (1 if (s - self.leader) % n < len(self.trick) else 0) for s in range(n))

    @property
    def unknown(self) -> int:
        """The cards this seat cannot place: not its own, not played, not turned up."""
        turned = 0 if self.turned < 0 else 1 << self.turned
        return _FULL & ~self.hand & ~self.played & ~turned


def position_from_view(view: SeatView) -> Position:
    """The kernel's form of a seat's view (the only picture a bot gets)."""
    n = len(view.players)
    return Position(
        rules=view.rules,
        seat=view.seat,
        hand=mask_of(view.hand),
        hand_size=view.hand_size,
        dealer=view.dealer,
        turned=-1 if view.turned is None else view.turned.index,
        trump=-1 if view.trump is None else view.trump.index,
        bids=tuple(-1 if b is None else b for b in view.bids),
        tricks_won=view.tricks_won,
        tricks_done=len(view.tricks),
        leader=left_of(view.dealer, n) if view.leader is None else view.leader,
        trick=tuple(card.index for _, card in view.trick),
        played=mask_of(card for _, card in view.played),
        trump_broken=view.trump_broken,
        round_number=view.round_number,
    )


def position_from_game(game: Game, seat: int | None = None) -> Position:
    """The position of a game in progress, seen by ``seat`` (default: the seat to act) but with
    every bid made so far, hidden or not; pair it with :func:`world_of` for the true deal."""
    seat = game.to_act if seat is None else seat
    if seat is None:
        raise ValueError("the game is not in a round: name the seat to see it from")
    view = game.view(seat)
    bids = tuple(-1 if b is None else b for b in game.bids)
    # The seat's own cards even in a blind round, where its view leaves them out.
    return dataclasses.replace(position_from_view(view), bids=bids, hand=mask_of(game.hand(seat)))


def world_of(game: Game) -> NDArray[np.uint64]:
    """The game's actual hands as a batch of one world, ``(1, players)``."""
    n = game.rules.player_count
    return np.array([[mask_of(game.hand(s)) for s in range(n)]], dtype=np.uint64)


def sample_worlds(
    position: Position, count: int, seed: int = 0, *, threads: int | None = None
) -> NDArray[np.uint64]:
    """``count`` deals of the unknown cards consistent with the card counts (uniform; no
    inference from play), each ``(players,)`` hands with the seat's own hand in place."""
    n = position.players
    known = np.zeros(n, dtype=np.uint64)
    known[position.seat] = position.hand
    need = np.array(position.counts, dtype=np.int64)
    need[position.seat] = 0
    out = np.empty((count, n), dtype=np.uint64)
    if threads == 1:
        kernel.sample_range(0, _chunks(count), count, known, position.unknown, need, seed, out)
    else:
        with set_threads(threads):
            kernel.sample_parallel(count, known, position.unknown, need, seed, out)
    return out


@dataclasses.dataclass(frozen=True)
class Rollout:
    """Completed rounds, one row per world: final ``bids``, ``tricks`` and round ``scores``
    ``(worlds, players)``; ``status`` 0, or 1 where a scripted move was illegal. With
    ``record``: ``cards`` played after the position (-1 padded) and each trick's ``winners``."""

    bids: NDArray[np.int8]
    tricks: NDArray[np.int8]
    scores: NDArray[np.int16]
    status: NDArray[np.int8]
    cards: NDArray[np.int8] | None = None
    winners: NDArray[np.int8] | None = None


def check_worlds(position: Position, worlds: NDArray[np.uint64]) -> None:
    """Raise :class:`ValueError`, saying what is wrong, unless ``worlds`` are deals that fit
    ``position``: a ``(count, players)`` uint64 array giving the seat its own hand, each seat its
    count of cards, and no card twice or already gone."""
    n = position.players
    if worlds.ndim != 2 or worlds.shape[1] != n or worlds.dtype != np.uint64:
        raise ValueError(
            f"worlds must be a (count, {n}) uint64 array of hands, not {worlds.dtype}{worlds.shape}"
        )
    if not np.all(worlds[:, position.seat] == position.hand):
        raise ValueError(f"every world must give seat {position.seat} its own hand")
    counts = np.bitwise_count(worlds)
    if not np.all(counts == np.array(position.counts)):
        raise ValueError(f"every world must deal the seats {position.counts} cards")
    union = np.bitwise_or.reduce(worlds, axis=1)
    if np.any(union & np.uint64(_FULL & ~position.unknown & ~position.hand)) or np.any(
        np.bitwise_count(union) != sum(position.counts)
    ):
        raise ValueError("a world deals a card twice, or a card already played or turned up")


def position_record(position: Position) -> PositionRecord:
    """``position`` as the compiled code takes it: the cards gone are the cards played and the
    turned card, and the trick is padded to a seat count of cards."""
    trick = np.zeros(position.players, dtype=np.int64)
    trick[: len(position.trick)] = position.trick
    return PositionRecord(
        size=position.hand_size,
        trump=position.trump,
        dealer=position.dealer,
        leader=position.leader,
        trick_len=len(position.trick),
        done=position.tricks_done,
        gone=position.played | (0 if position.turned < 0 else 1 << position.turned),
        broken=position.trump_broken,
        bids=np.array(position.bids, dtype=np.int64),
        tricks=np.array(position.tricks_won, dtype=np.int64),
        trick=trick,
    )


def rollout(
    position: Position,
    worlds: NDArray[np.uint64],
    policy: Policy = "basic",
    seed: int = 0,
    *,
    script: tuple[int | Card, ...] = (),
    record: bool = False,
    threads: int | None = None,
    check: bool = True,
) -> Rollout:
    """Complete the round from ``position`` in each world of ``worlds`` with ``policy``.

    ``script`` forces the first moves in every world (bids in bidding order, then cards,
    as indices or :class:`Card`); the policy plays the rest. ``check`` validates the worlds.
    """
    if check:
        check_worlds(position, worlds)
    n, count = position.players, worlds.shape[0]
    packed = position_record(position)
    moves = np.array([m.index if isinstance(m, Card) else m for m in script], dtype=np.int64)
    shape = (count, n)
    out = Rollout(
        np.empty(shape, np.int8),
        np.empty(shape, np.int8),
        np.empty(shape, np.int16),
        np.empty(count, np.int8),
        np.full((count, 52 if record else 0), -1, np.int8),
        np.full((count, position.hand_size if record else 0), -1, np.int8),
    )
    assert out.cards is not None
    assert out.winners is not None
    into = Outcomes(out.bids, out.tricks, out.scores, out.status, out.cards, out.winners)
    args = (round_opts(position.rules, position.round_number), _policy(policy), seed, moves, record, into)
    if threads == 1 or count <= kernel.CHUNK:
        kernel.rollout_range(0, _chunks(count), worlds, packed, *args)
    else:
        with set_threads(threads):
            kernel.rollout_parallel(worlds, packed, *args)
    if record:
        return out
    return dataclasses.replace(out, cards=None, winners=None)


def play_features(position: Position) -> tuple[tuple[int, ...], NDArray[np.float64]]:
    """The legal cards of the seat to play in ``position`` (indices, lowest first) and each one's
    features for the learned play policy (:data:`upriver.fast.learned.FEATURES`), one row a card."""
    record = position_record(position)
    opts = round_opts(position.rules, position.round_number)
    trump = position.trump
    lead_suit, win_seat, win, _ = trick_standing(record.trick, len(position.trick), position.leader, trump)
    barred = bool(lead_barred(opts, position.trump_broken, position.tricks_done))
    legal = int(legal_cards(u64(position.hand), lead_suit, trump, barred, False))
    out = np.zeros((legal.bit_count(), COUNT), dtype=np.float64)
    unseen = _FULL & ~position.hand & ~record.gone
    decision_features(
        u64(position.hand), u64(legal), win, win_seat, len(position.trick), position.seat, trump,
        record.bids, record.tricks, position.hand_size - position.tricks_done, u64(unseen),
        bool(opts[COUNTS_TRICKS] == 1), out,
    )  # fmt: skip
    cards = tuple(c for c in range(52) if legal >> c & 1)
    return cards, out
