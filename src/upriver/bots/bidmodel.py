"""A learned bid model: each candidate bid's chance of being made and its tricks, from rollouts and the hand.

The search values a bid by letting the rule of thumb play the hand out for it, in many
deals of the hidden cards. Those rollouts are informative but miscalibrated: the rule of
thumb plays worse than the bot that will really play the hand, so some bids look riskier
or safer than they are. The model corrects them. For every legal bid it reads the
rollouts' statistics (make rate, mean score, the spread of tricks taken), the hand
(trumps, honours, voids, the rule-of-thumb estimate), the seat's place in the bidding,
the bids already made and the rules, and predicts the probability that the bid is made
and the tricks taken when ``expert`` plays it. It was trained by gradient boosting
(LightGBM, ``training/train_bid_model.py``) on counterfactual self-play: hands forked at
bid time and played out with several bids (``upriver selfplay``). The trees ship as a
small JSON file and are evaluated here in NumPy, so LightGBM is not needed to play.

:func:`bid_table` computes the features of every legal bid of a view; :class:`BidModel`
predicts; :func:`expected_scores` turns predictions into each bid's expected round score.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import functools
import json
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from upriver.cards import mask_of
from upriver.rules import Bidding, DealerBid
from upriver.scoring import Scoring, ScoringRule, round_score, tricks_pay_past_the_bid
from upriver.view import SeatView

if TYPE_CHECKING:
    from upriver.bots.pimc import SearchBot

__all__ = [
    "FEATURES",
    "MODEL_FILE",
    "BidModel",
    "BidTable",
    "bid_table",
    "default_model",
    "expected_scores",
    "rollout_log_odds",
    "rollout_tricks",
    "shipped_model",
    "using_model",
]

MODEL_FILE = "bid_model.json"
"""The shipped model's file name in :mod:`upriver.bots.models`."""

FEATURES: tuple[str, ...] = (
    "bid",
    "bid_share",
    "hand_size",
    "players",
    "position",
    "position_share",
    "last_to_bid",
    "earlier_bids",
    "earlier_total",
    "room",
    "bid_minus_room",
    "dealer_rule",
    "simultaneous",
    "trump_must_break",
    "tricks_plus_ten",
    "no_trump",
    "estimate",
    "bid_minus_estimate",
    "trumps",
    "trump_honours",
    "top_trump",
    "master_trumps",
    "side_aces",
    "side_kings",
    "side_queens",
    "voids",
    "singletons",
    "longest",
    "make_rate",
    "mean_score",
    "mean_tricks",
    "std_tricks",
    "under_rate",
    "over_rate",
    "make_rate_below",
    "make_rate_above",
    "best_make_rate",
    "value_gap",
    "value_rank",
    "bid_minus_mean_tricks",
)
"""The model's inputs, one row per candidate bid, in this order."""

_DEALER = {DealerBid.FREE: 0, DealerBid.HOOK: 1, DealerBid.OVERBID: 2}


@dataclasses.dataclass(frozen=True, slots=True)
class BidTable:
    """The features of every legal bid of one decision (rows in the order of ``bids``)."""

    bids: tuple[int, ...]
    features: NDArray[np.float64]
    """``(len(bids), len(FEATURES))``."""
    tricks_seen: NDArray[np.float64] | None = None
    """``(len(bids), hand size + 1)``: for each bid, the share of its rollouts that took each number
    of tricks; how a miss is spread over the tricks when a scoring pays each miss differently."""

    def column(self, name: str) -> NDArray[np.float64]:
        """One feature for every bid."""
        column: NDArray[np.float64] = self.features[:, FEATURES.index(name)]
        return column


def _bits(mask: int) -> Any:
    """A card set as the kernel's ``uint64`` (its compiled helpers take no Python int)."""
    return np.uint64(mask)


def _hand_features(view: SeatView) -> dict[str, float]:
    from upriver.fast._jit import SUIT
    from upriver.fast.policies import estimate_tricks, masters

    hand = mask_of(view.hand)
    played = mask_of(card for _, card in view.played)
    turned = 0 if view.turned is None else view.turned.mask
    unseen = ((1 << 52) - 1) & ~hand & ~played & ~turned
    trump = -1 if view.trump is None else view.trump.index
    n, size = view.player_count, view.hand_size
    estimate = float(estimate_tricks(_bits(hand), trump, size, n, _bits(unseen)))
    suits = [(hand >> (13 * s)) & 0x1FFF for s in range(4)]
    lengths = [bin(bits).count("1") for bits in suits]
    trump_bits = suits[trump] if trump >= 0 else 0
    side = [bits for s, bits in enumerate(suits) if s != trump]
    top = trump_bits.bit_length() - 1 if trump_bits else -1
    master = int(masters(_bits(hand & int(SUIT[trump])), _bits(unseen))) if trump >= 0 else 0
    return {
        "estimate": estimate,
        "trumps": float(lengths[trump]) if trump >= 0 else 0.0,
        "trump_honours": float(bin(trump_bits >> 9).count("1")),
        "top_trump": float(top + 2) if top >= 0 else 0.0,
        "master_trumps": float(bin(master).count("1")),
        "side_aces": float(sum(bits >> 12 & 1 for bits in side)),
        "side_kings": float(sum(bits >> 11 & 1 for bits in side)),
        "side_queens": float(sum(bits >> 10 & 1 for bits in side)),
        "voids": float(sum(1 for s, ln in enumerate(lengths) if ln == 0 and s != trump)),
        "singletons": float(sum(1 for s, ln in enumerate(lengths) if ln == 1 and s != trump)),
        "longest": float(max(lengths)),
    }


def bid_table(view: SeatView, bot: SearchBot, iterations: int, seed: int) -> BidTable:
    """Roll every legal bid of ``view`` out in the same ``iterations`` deals (drawn as ``bot``
    draws them, fitted to the bids made) and read the features of each bid.

    The same view, bot kind and seed give the same table: the bid model's inputs at play
    time are computed exactly as they were for its training data.
    """
    from upriver.bots.knowledge import knowledge_of
    from upriver.fast import position_from_view

    bids = view.legal_bids
    if not bids:
        raise ValueError("the view offers no bid: it is not this seat's turn to bid")
    know = knowledge_of(view)
    position = position_from_view(view)
    worlds = bot.draw(know, position, iterations, seed)
    seat, size, n = view.seat, view.hand_size, view.player_count
    rows = []
    seen = np.zeros((len(bids), size + 1), dtype=np.float64)
    for i, bid in enumerate(bids):
        _, took, scores = bot.evaluate(view, position, worlds, bid)
        tricks = took[:, seat].astype(np.float64)
        seen[i] = np.bincount(took[:, seat].astype(np.int64), minlength=size + 1)[: size + 1] / len(tricks)
        rows.append(
            (
                float(np.mean(tricks == bid)),
                float(scores[:, seat].mean()),
                float(tricks.mean()),
                float(tricks.std()),
                float(np.mean(tricks < bid)),
                float(np.mean(tricks > bid)),
            )
        )
    stats = np.array(rows, dtype=np.float64)
    make, value = stats[:, 0], stats[:, 1]
    order = np.argsort(-value, kind="stable")
    rank = np.empty(len(bids), dtype=np.float64)
    rank[order] = np.arange(len(bids), dtype=np.float64)
    order_seats = view.bidding_order
    place = order_seats.index(seat)
    simultaneous = view.rules.bidding is Bidding.SIMULTANEOUS
    earlier = [] if simultaneous else [view.bids[s] for s in order_seats[:place]]
    earlier_total = float(sum(b for b in earlier if b is not None))
    hand = _hand_features(view)
    common = {
        "hand_size": float(size),
        "players": float(n),
        "position": float(place),
        "position_share": place / max(1, n - 1),
        "last_to_bid": float(place == n - 1 and not simultaneous),
        "earlier_bids": float(len(earlier)),
        "earlier_total": earlier_total,
        "room": size - earlier_total,
        "dealer_rule": float(_DEALER[view.rules.dealer_bid]),
        "simultaneous": float(simultaneous),
        # Trump must be broken: a later trick may not be led with trump while it is unbroken.
        "trump_must_break": float(view.rules.bars_leading_trump(1, broken=False)),
        "tricks_plus_ten": float(tricks_pay_past_the_bid(view.rules.scoring)),
        "no_trump": float(view.trump is None),
        "best_make_rate": float(make.max()),
        **hand,
    }
    by_bid = dict(zip(bids, make, strict=True))
    table = np.empty((len(bids), len(FEATURES)), dtype=np.float64)
    for i, bid in enumerate(bids):
        row = {
            **common,
            "bid": float(bid),
            "bid_share": bid / size,
            "bid_minus_room": bid - common["room"],
            "bid_minus_estimate": bid - hand["estimate"],
            "make_rate": stats[i, 0],
            "mean_score": stats[i, 1],
            "mean_tricks": stats[i, 2],
            "std_tricks": stats[i, 3],
            "under_rate": stats[i, 4],
            "over_rate": stats[i, 5],
            "make_rate_below": float(by_bid.get(bid - 1, -1.0)),
            "make_rate_above": float(by_bid.get(bid + 1, -1.0)),
            "value_gap": float(value.max() - value[i]),
            "value_rank": float(rank[i]),
            "bid_minus_mean_tricks": bid - stats[i, 2],
        }
        table[i] = [row[name] for name in FEATURES]
    return BidTable(bids=bids, features=table, tricks_seen=seen)


@dataclasses.dataclass(frozen=True, slots=True)
class Forest:
    """A sum of regression trees in flat arrays: node ``i`` tests ``x[feature[i]] <= threshold[i]``
    and goes to ``left[i]`` or ``right[i]``; a leaf has feature -1 and its ``value``."""

    roots: NDArray[np.int64]
    feature: NDArray[np.int64]
    threshold: NDArray[np.float64]
    left: NDArray[np.int64]
    right: NDArray[np.int64]
    value: NDArray[np.float64]
    depth: int

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Forest:
        """A forest from its JSON form (the lists :meth:`to_dict` writes)."""
        return cls(
            roots=np.asarray(data["roots"], dtype=np.int64),
            feature=np.asarray(data["feature"], dtype=np.int64),
            threshold=np.asarray(data["threshold"], dtype=np.float64),
            left=np.asarray(data["left"], dtype=np.int64),
            right=np.asarray(data["right"], dtype=np.int64),
            value=np.asarray(data["value"], dtype=np.float64),
            depth=int(data["depth"]),
        )

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: plain lists."""
        return {
            "roots": self.roots.tolist(),
            "feature": self.feature.tolist(),
            "threshold": self.threshold.tolist(),
            "left": self.left.tolist(),
            "right": self.right.tolist(),
            "value": self.value.tolist(),
            "depth": self.depth,
        }

    def raw(self, x: NDArray[np.float64]) -> NDArray[np.float64]:
        """The sum of every tree's leaf for each row of ``x``, ``(rows,)``."""
        rows = np.arange(x.shape[0])[:, None]
        node = np.broadcast_to(self.roots, (x.shape[0], len(self.roots))).copy()
        for _ in range(self.depth):
            feature = self.feature[node]
            inner = feature >= 0
            if not inner.any():
                break
            go_left = x[rows, np.maximum(feature, 0)] <= self.threshold[node]
            node = np.where(inner, np.where(go_left, self.left[node], self.right[node]), node)
        total: NDArray[np.float64] = self.value[node].sum(axis=1)
        return total


OFFSET_CLIP = 1e-3
"""How close to 0 or 1 a rollout make rate is taken, before its log-odds start the make forest,
in a model file that does not say (each file since carries its own ``offset_clip``)."""


def rollout_log_odds(x: NDArray[np.float64], clip: float = OFFSET_CLIP) -> NDArray[np.float64]:
    """The log-odds of each row's rollout make rate, taken within ``[clip, 1 - clip]``: where the
    make forest starts from. A rollout that never makes a bid in 2000 deals does not make it
    impossible, so a wider clip spares the trees a long way back from the extremes."""
    p = np.clip(x[:, FEATURES.index("make_rate")], clip, 1 - clip)
    odds: NDArray[np.float64] = np.log(p / (1 - p))
    return odds


def rollout_tricks(x: NDArray[np.float64]) -> NDArray[np.float64]:
    """Each row's rollout mean tricks: where the tricks forest starts from."""
    tricks: NDArray[np.float64] = x[:, FEATURES.index("mean_tricks")].copy()
    return tricks


@dataclasses.dataclass(frozen=True, slots=True)
class BidModel:
    """Make probability (a logistic forest) and expected tricks (a regression forest) of a bid.

    Both forests are corrections of the rollouts: the make forest adds to the log-odds of
    the rollout make rate, the tricks forest to the rollout mean tricks, so that what the
    rollouts get right needs no data to learn.
    """

    features: tuple[str, ...]
    make: Forest
    tricks: Forest
    meta: dict[str, Any]
    offset_clip: float = OFFSET_CLIP
    """The clip of the rollout make rate whose log-odds the make forest corrects."""

    @classmethod
    def load(cls, path: str | Path | None = None) -> BidModel:
        """The model in ``path``, or the one shipped with the package."""
        if path is None:
            text = resources.files("upriver.bots.models").joinpath(MODEL_FILE).read_text("utf-8")
        else:
            text = Path(path).read_text("utf-8")
        data = json.loads(text)
        features = tuple(data["features"])
        if features != FEATURES:
            raise ValueError(
                f"the bid model was trained on features {features}, but this version computes {FEATURES}"
            )
        clip = float(data.get("offset_clip", OFFSET_CLIP))
        if not 0.0 < clip < 0.5:
            raise ValueError(
                f"the bid model in {path or MODEL_FILE} clips the rollout make rate by {clip}, "
                "but the clip must be strictly between 0 and 0.5"
            )
        return cls(
            features=features,
            make=Forest.from_dict(data["make"]),
            tricks=Forest.from_dict(data["tricks"]),
            meta=dict(data.get("meta", {})),
            offset_clip=clip,
        )

    def to_json(self) -> str:
        """The model file's text."""
        data: dict[str, Any] = {
            "features": list(self.features),
            "make": self.make.to_dict(),
            "tricks": self.tricks.to_dict(),
            "meta": self.meta,
        }
        if self.offset_clip != OFFSET_CLIP:
            data["offset_clip"] = self.offset_clip
        return json.dumps(data, separators=(",", ":"))

    def make_probability(self, x: NDArray[np.float64]) -> NDArray[np.float64]:
        """The predicted chance that each row's bid is made."""
        start = rollout_log_odds(x, self.offset_clip)
        p: NDArray[np.float64] = 1.0 / (1.0 + np.exp(-(start + self.make.raw(x))))
        return p

    def expected_tricks(self, x: NDArray[np.float64]) -> NDArray[np.float64]:
        """The predicted tricks taken playing each row's bid."""
        tricks: NDArray[np.float64] = rollout_tricks(x) + self.tricks.raw(x)
        return tricks


def expected_scores(
    table: BidTable, model: BidModel, scoring: ScoringRule, round_number: int = 1
) -> NDArray[np.float64]:
    """Each bid's expected round score under ``scoring`` in round ``round_number``.

    ``p`` is the predicted chance to make the bid, and every score is :func:`~upriver.scoring.round_score`'s.
    Under 10 + bid, where a miss scores nothing, it is ``p`` times the exact bid's points; under
    1 a trick + 10, the predicted tricks plus ``p`` times the exact bid's bonus. Under any other scoring the
    exact bid's points weigh ``p`` and each miss's points the rest, spread over the tricks as
    the bid's rollouts spread their misses (:attr:`BidTable.tricks_seen`; without it, one
    trick off on the side of the predicted tricks).
    """
    p = model.make_probability(table.features)
    exacts = np.array([round_score(scoring, bid, bid, round_number) for bid in table.bids], dtype=np.float64)
    if scoring is Scoring.TEN_PLUS_BID:  # a miss scores nothing
        out: NDArray[np.float64] = p * exacts
        return out
    tricks = np.clip(model.expected_tricks(table.features), 0.0, None)
    if scoring is Scoring.TRICKS_PLUS_TEN:  # every trick scores, and an exact bid its bonus besides
        bonus = exacts - np.array(table.bids, dtype=np.float64)
        out = tricks + bonus * p
        return out
    out = np.empty(len(table.bids), dtype=np.float64)
    for i, bid in enumerate(table.bids):
        exact = exacts[i]
        misses = None if table.tricks_seen is None else table.tricks_seen[i].copy()
        if misses is not None:
            misses[bid] = 0.0
        if misses is None or misses.sum() <= 0.0:
            off = bid + 1 if tricks[i] >= bid or bid == 0 else bid - 1
            miss = float(round_score(scoring, bid, off, round_number))
        else:
            weights = misses / misses.sum()
            miss = float(
                sum(w * round_score(scoring, bid, t, round_number) for t, w in enumerate(weights) if w)
            )
        out[i] = p[i] * exact + (1.0 - p[i]) * miss
    return out


@functools.cache
def shipped_model() -> BidModel:
    """The model shipped in the package, read once."""
    return BidModel.load()


_MODEL_IN_USE: contextvars.ContextVar[BidModel | None] = contextvars.ContextVar("bid_model", default=None)


def default_model() -> BidModel:
    """The model ``expert`` bids with: the shipped one, or the one :func:`using_model` set."""
    model = _MODEL_IN_USE.get()
    return shipped_model() if model is None else model


@contextlib.contextmanager
def using_model(model: BidModel) -> Iterator[None]:
    """Within this block (of this thread or task), ``expert`` bids with ``model``: how a
    benchmark plays a candidate model against the shipped one at the same table."""
    token = _MODEL_IN_USE.set(model)
    try:
        yield
    finally:
        _MODEL_IN_USE.reset(token)
