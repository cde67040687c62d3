"""Compiled helpers for inference over sampled deals: what the rule of thumb makes of each hand.

Search bots weigh sampled deals by how well each seat's cards explain the bid it made;
that needs the rule-of-thumb trick estimate of every seat in thousands of deals per move,
which is cheap here and slow in Python.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from upriver.fast._jit import FULL, GOLDEN, ONE, ZERO, Bits, Ints, below, ctz, jit, mix, u64
from upriver.fast.policies import estimate_tricks

__all__ = ["bid_estimates", "deal_constrained"]


@jit
def _estimates(worlds: Bits, trump: int, turned: int, size: int, out: NDArray[np.float64]) -> None:
    count, n = worlds.shape
    gone = u64(turned)
    for w in range(count):
        for s in range(n):
            hand = worlds[w, s]
            out[w, s] = estimate_tricks(hand, trump, size, n, FULL & ~hand & ~gone)


def bid_estimates(dealt: NDArray[np.uint64], trump: int, turned: int, size: int) -> NDArray[np.float64]:
    """The rule of thumb's expected tricks for every seat's dealt hand in every deal,
    ``(deals, players)``, as each seat saw it at bidding time (its hand and the turn-up)."""
    out = np.empty(dealt.shape, dtype=np.float64)
    _estimates(np.ascontiguousarray(dealt, dtype=np.uint64), trump, turned, size, out)
    return out


@jit
def _feasible(supply: Ints, cap: Ints, allowed: Ints) -> bool:
    """Whether suits with ``supply`` cards left can fill seats with ``cap`` room exactly, each
    seat taking only its ``allowed`` suits (Hall's condition over the 15 sets of suits)."""
    for subset in range(1, 16):
        need = 0
        for i in range(4):
            if subset >> i & 1:
                need += supply[i]
        if need == 0:
            continue
        room = 0
        for s in range(cap.shape[0]):
            if allowed[s] & subset:
                room += cap[s]
        if need > room:
            return False
    return True


@jit
def _deal(count: int, known: Bits, unknown: int, need: Ints, allowed: Ints, seed: int, out: Bits) -> None:
    n = known.shape[0]
    slots = n + 1  # the last slot is the stock, which may hold any suit
    cap = np.zeros(slots, dtype=np.int64)
    ok = np.zeros(slots, dtype=np.int64)
    supply = np.zeros(4, dtype=np.int64)
    cards = np.zeros(52, dtype=np.int64)
    keys = np.zeros(52, dtype=np.int64)
    size = 0
    rest = u64(unknown)
    while rest != ZERO:
        cards[size] = int(ctz(rest))
        rest &= rest - ONE
        size += 1
    rng = mix(u64(seed) + GOLDEN)
    for w in range(count):
        total = 0
        for s in range(n):
            cap[s] = need[s]
            ok[s] = allowed[s]
            total += need[s]
        cap[n], ok[n] = size - total, 15
        supply[:] = 0
        for i in range(size):
            c = cards[i]
            supply[c // 13] += 1
            rng += GOLDEN
            # Most constrained suits first (fewest seats allowed), random order within.
            seats = 0
            for s in range(slots):
                seats += ok[s] >> (c // 13) & 1
            keys[i] = seats * 1024 + int(below(mix(rng), 1024))
        order = np.argsort(keys[:size])
        for s in range(n):
            out[w, s] = known[s]
        for j in range(size):
            c = cards[order[j]]
            suit = c // 13
            supply[suit] -= 1
            cand = 0  # slots that may take this card, as bits
            for s in range(slots):
                if ok[s] >> suit & 1 and cap[s] > 0:
                    cand |= 1 << s
            seat = -1
            while cand:  # a slot in proportion to its room; never one that leaves the rest impossible
                room = 0
                for s in range(slots):
                    if cand >> s & 1:
                        room += cap[s]
                rng += GOLDEN
                pick = int(below(mix(rng), room))
                for s in range(slots):
                    if cand >> s & 1:
                        if pick < cap[s]:
                            seat = s
                            break
                        pick -= cap[s]
                cap[seat] -= 1
                if _feasible(supply, cap, ok):
                    break
                cap[seat] += 1
                cand &= ~(1 << seat)
            if seat < n:
                out[w, seat] |= ONE << u64(c)


def deal_constrained(
    known: NDArray[np.uint64],
    unknown: int,
    need: NDArray[np.int64],
    voids: NDArray[np.uint64],
    count: int,
    seed: int,
) -> NDArray[np.uint64]:
    """``count`` deals of the ``unknown`` cards: seat ``s`` gets ``need[s]`` of them besides
    ``known[s]`` and none of the suits in ``voids[s]``; the rest stay in the stock.

    Each card, most constrained suit first, goes to a seat allowed its suit in proportion to
    the seat's room, never to one that would leave the rest impossible to deal: close to
    uniform over the consistent deals, and never stuck when one exists.
    """
    allowed = np.array(
        [sum(1 << i for i in range(4) if not int(v) >> (13 * i) & 0x1FFF) for v in voids], dtype=np.int64
    )
    out = np.empty((count, len(known)), dtype=np.uint64)
    _deal(count, np.asarray(known, np.uint64), unknown, np.asarray(need, np.int64), allowed, seed, out)
    return out
