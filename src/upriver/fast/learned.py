"""The learned play policy, compiled: a card's features and the trees that rank the legal cards.

The rule of thumb plays the search bots' rollouts; it is weaker than the bots themselves, so
every estimate a search makes is biased by it. The learned policy ranks each legal card by a
small forest of regression trees (LightGBM's ``lambdarank``, trained by
``training/train_play_model.py`` on the cards ``expert`` chose in self-play) over the
features :func:`card_features` computes from what the acting seat sees: its hand, the cards
gone, the trick on the table, every seat's bid and tricks, and the rule of thumb's own card.
It plays the best-ranked card; the rule of thumb's card keeps ties, so an untrained (empty)
forest plays the rule of thumb.

The forest is read once from ``upriver/bots/models/play_model.json`` (the flat arrays of
:class:`upriver.bots.bidmodel.Forest`) and compiled into the kernel as constants. Bids are
not learned: the policy bids by the rule of thumb.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import numpy as np

from upriver.fast._jit import ONE, SUIT, ZERO, Ints, above, ctz, jit, nth_bit, popcount, u64
from upriver.fast.policies import basic_card, danger, winners_of

__all__ = ["FEATURES", "MODEL_FILE", "card_features", "decision_features", "learned_card"]

MODEL_FILE = "play_model.json"
"""The shipped forest's file name in :mod:`upriver.bots.models`."""

FEATURES = (
    "is_thumb",
    "is_trump",
    "rank",
    "higher_unseen",
    "lower_unseen",
    "leading",
    "seats_after",
    "wins_now",
    "need",
    "left",
    "suit_length",
    "suit_unseen",
    "danger_order",
    "legal_count",
    "others_need",
    "others_made",
    "winner_need",
    "next_need",
    "trumps_held",
    "trumps_unseen",
    "counts_tricks",
    "winner_is_trump",
    "follows",
    "top_of_suit",
    "bottom_of_suit",
)
"""The features of a legal card, in the order of :func:`card_features`' output."""

COUNT = len(FEATURES)
THUMB = FEATURES.index("is_thumb")


def _load() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The shipped forest laid out for a walk without branches: the two children of a node side by
    side (``child[i]`` the left, ``child[i] + 1`` the right), each leaf its own child behind a
    test that never passes, so every tree is walked its depth's number of steps (an empty forest
    when there is no file)."""
    data: dict[str, Any]
    try:
        text = resources.files("upriver.bots.models").joinpath(MODEL_FILE).read_text("utf-8")
    except FileNotFoundError:
        data = {"roots": [0], "feature": [-1], "threshold": [0.0], "left": [0], "right": [0], "value": [0.0]}
    else:
        model = json.loads(text)
        if model["features"] != list(FEATURES):
            raise ValueError(f"{MODEL_FILE} was trained on other features than upriver.fast.learned.FEATURES")
        data = model["forest"]
    feature: list[int] = []
    threshold: list[float] = []
    child: list[int] = []
    value: list[float] = []
    roots: list[int] = []
    depths: list[int] = []

    def place() -> int:
        feature.append(0)
        threshold.append(np.inf)
        child.append(len(child))
        value.append(0.0)
        return len(feature) - 1

    for root in data["roots"]:
        roots.append(place())
        depth, level = 0, [(root, roots[-1])]
        while level:
            below: list[tuple[int, int]] = []
            for old, new in level:
                if data["feature"][old] < 0:
                    child[new] = new
                    value[new] = float(data["value"][old])
                    continue
                feature[new] = int(data["feature"][old])
                threshold[new] = float(data["threshold"][old])
                left, _ = place(), place()
                child[new] = left
                below += [(data["left"][old], left), (data["right"][old], left + 1)]
            depth += 1 if below else 0
            level = below
        depths.append(depth)
    return (
        np.asarray(roots, dtype=np.int64),
        np.asarray(depths, dtype=np.int64),
        np.asarray(feature, dtype=np.int64),
        np.asarray(threshold, dtype=np.float64),
        np.asarray(child, dtype=np.int64),
        np.asarray(value, dtype=np.float64),
    )


ROOTS, DEPTHS, FEATURE, THRESHOLD, CHILD, VALUE = _load()


@jit
def _need(bids: Ints, tricks: Ints, seat: int) -> int:
    return int(bids[seat] - tricks[seat])


@jit
def card_features(
    c: int,
    hand: int,
    legal: int,
    thumb: int,
    win: int,
    win_seat: int,
    on_table: int,
    seat: int,
    trump: int,
    bids: Ints,
    tricks: Ints,
    left: int,
    unseen: int,
    counts_tricks: bool,
    out: np.ndarray,
) -> None:
    """Write the features of playing card ``c`` into ``out`` (one value per :data:`FEATURES`).

    ``win`` is the card winning the trick so far and ``win_seat`` its seat (-1 when leading),
    ``on_table`` the cards already in the trick, ``left`` the tricks left including this one,
    ``unseen`` every card the seat cannot see; the rest as in :func:`upriver.fast.policies.basic_card`.
    """
    n = bids.shape[0]
    suit, rank, bit = c // 13, c % 13, ONE << u64(c)
    tmask = SUIT[trump] if trump >= 0 else ZERO
    mine = hand & SUIT[suit]
    lower = SUIT[suit] & ~above(c) & ~bit
    order = 0
    rest = legal
    while rest != ZERO:
        d = int(ctz(rest))
        rest &= rest - ONE
        if danger(d, trump) < danger(c, trump):
            order += 1
    others_need, others_made = 0, 0
    for s in range(n):
        if s != seat and bids[s] >= 0:
            need = _need(bids, tricks, s)
            others_need += max(0, need)
            others_made += 1 if need <= 0 else 0
    out[0] = 1.0 if c == thumb else 0.0
    out[1] = 1.0 if suit == trump else 0.0
    out[2] = rank
    out[3] = int(popcount(unseen & SUIT[suit] & above(c)))
    out[4] = int(popcount(unseen & lower))
    out[5] = 1.0 if on_table == 0 else 0.0
    out[6] = n - 1 - on_table
    out[7] = 1.0 if win >= 0 and winners_of(bit, win, trump) != ZERO else 0.0
    out[8] = _need(bids, tricks, seat)
    out[9] = left
    out[10] = int(popcount(mine))
    out[11] = int(popcount(unseen & SUIT[suit]))
    out[12] = order
    out[13] = int(popcount(legal))
    out[14] = others_need
    out[15] = others_made
    out[16] = _need(bids, tricks, win_seat) if win_seat >= 0 else -9
    out[17] = _need(bids, tricks, (seat + 1) % n)
    out[18] = int(popcount(hand & tmask))
    out[19] = int(popcount(unseen & tmask))
    out[20] = 1.0 if counts_tricks else 0.0
    out[21] = 1.0 if win >= 0 and win // 13 == trump else 0.0
    out[22] = 1.0 if win >= 0 and suit == win // 13 else 0.0
    out[23] = 1.0 if mine & above(c) == ZERO else 0.0
    out[24] = 1.0 if mine & lower == ZERO else 0.0


@jit
def _forest_rows(x: np.ndarray) -> np.ndarray:
    """Every row's sum of leaves. The rows walk each tree side by side: their walks do not wait on
    each other, so the processor overlaps them."""
    k = x.shape[0]
    total = np.zeros(k, dtype=np.float64)
    node = np.empty(k, dtype=np.int64)
    for t in range(ROOTS.shape[0]):
        node[:] = ROOTS[t]
        for _ in range(DEPTHS[t]):
            for j in range(k):
                i = node[j]
                node[j] = CHILD[i] + (x[j, FEATURE[i]] > THRESHOLD[i])
        for j in range(k):
            total[j] += VALUE[node[j]]
    return total


@jit
def _thumb(hand: int, legal: int, win: int, on_table: int, seat: int, trump: int, bids: Ints, tricks: Ints,
           left: int, unseen: int, counts_tricks: bool) -> int:  # fmt: skip
    last = on_table == bids.shape[0] - 1
    return basic_card(hand, legal, win, last, trump, _need(bids, tricks, seat), left, unseen, counts_tricks)


@jit
def decision_features(
    hand: int,
    legal: int,
    win: int,
    win_seat: int,
    on_table: int,
    seat: int,
    trump: int,
    bids: Ints,
    tricks: Ints,
    left: int,
    unseen: int,
    counts_tricks: bool,
    out: np.ndarray,
) -> int:
    """Write the features of every legal card, lowest index first, into the rows of ``out`` (a row
    a legal card at least, :data:`COUNT` columns); returns how many. What the trainer learns from,
    computed as the policy computes it."""
    thumb = _thumb(hand, legal, win, on_table, seat, trump, bids, tricks, left, unseen, counts_tricks)
    rows = 0
    rest = legal
    while rest != ZERO:
        c = int(ctz(rest))
        rest &= rest - ONE
        card_features(c, hand, legal, thumb, win, win_seat, on_table, seat, trump, bids, tricks, left, unseen,
                      counts_tricks, out[rows])  # fmt: skip
        rows += 1
    return rows


@jit
def learned_card(
    hand: int,
    legal: int,
    win: int,
    win_seat: int,
    on_table: int,
    seat: int,
    trump: int,
    bids: Ints,
    tricks: Ints,
    left: int,
    unseen: int,
    counts_tricks: bool,
) -> int:
    """The legal card the forest ranks best (the rule of thumb's card on a tie); the arguments as
    for :func:`card_features`."""
    if legal & (legal - ONE) == ZERO:
        return int(ctz(legal))
    x = np.empty((int(popcount(legal)), COUNT), dtype=np.float64)
    rows = decision_features(
        hand, legal, win, win_seat, on_table, seat, trump, bids, tricks, left, unseen, counts_tricks, x
    )
    scores = _forest_rows(x)
    best = 0
    for row in range(rows):
        if x[row, THUMB] == 1.0:  # the rule of thumb's card keeps a tie
            best = row
    for row in range(rows):
        if scores[row] > scores[best]:
            best = row
    return int(nth_bit(legal, best))
