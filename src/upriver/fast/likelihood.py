"""Compiled inference from card play: how likely each sampled deal makes the cards the others played.

A seat's past plays say something about the cards it held: under the rule of thumb a seat
that ducked under the ace led its lowest card, so it holds nothing lower of that suit; a
seat that led a king had no master to cash first. Each sampled deal is replayed from the
round's first card: a seat's hand at the time of a play is its cards in the deal plus the
cards it played later, and the bids, the trick on the table, the tricks won and whether
trump was broken are the round's own at that moment. Each play of another seat with a
choice is scored by a softened rule of thumb (:func:`upriver.fast.policies.basic_card`),

    P(card) = (1 - eps) * [card is the rule of thumb's] + eps / (legal cards),

and a deal's log-likelihood is the sum over those plays. The rule of thumb ranks no cards
(it names one), so a softmax over a score has nothing to soften; ``eps`` is the share of
plays the model leaves to anything else, which also keeps a deal that contradicts it alive.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from upriver.fast._jit import FULL, ONE, ZERO, Bits, Ints, jit, popcount, u64
from upriver.fast.policies import LEAD_AFTER_FIRST, LEAD_BROKEN, basic_card, legal_cards, strength

__all__ = ["play_log_likelihoods"]


@jit
def _log_likelihoods(
    worlds: Bits,
    played_by: Ints,
    seats: Ints,
    cards: Ints,
    bids: Ints,
    me: int,
    size: int,
    trump: int,
    turned: int,
    lead_rule: int,
    counts_tricks: bool,
    eps: float,
    out: NDArray[np.float64],
) -> None:
    count, n = worlds.shape
    plays = seats.shape[0]
    hands = np.zeros(n, dtype=np.uint64)
    tricks = np.zeros(n, dtype=np.int64)
    log_hit = np.zeros(53, dtype=np.float64)
    log_miss = np.zeros(53, dtype=np.float64)
    for k in range(1, 53):  # by the number of legal cards: the log-probability of the choice, of another
        log_miss[k] = np.log(eps / k)
        log_hit[k] = np.log(1.0 - eps + eps / k)
    for w in range(count):
        for s in range(n):
            hands[s] = worlds[w, s] | u64(played_by[s])
            tricks[s] = 0
        gone = u64(turned)
        broken = False
        lead_suit, win_seat, win, best = -1, -1, -1, -1
        in_trick, done = 0, 0
        total = 0.0
        for p in range(plays):
            seat = seats[p]
            c = cards[p]
            bit = ONE << u64(c)
            hand = hands[seat]
            if seat != me and bids[seat] >= 0:
                barred = (lead_rule == LEAD_BROKEN and not broken) or (
                    lead_rule == LEAD_AFTER_FIRST and done == 0
                )
                legal = legal_cards(hand, lead_suit, trump, barred, False)
                k = int(popcount(legal))
                if k > 1:
                    unseen = FULL & ~hand & ~gone
                    choice = basic_card(
                        hand, legal, win, in_trick == n - 1, trump, bids[seat] - tricks[seat], size - done,
                        unseen, counts_tricks,
                    )  # fmt: skip
                    if choice == c and legal & bit != ZERO:
                        total += log_hit[k]
                    else:
                        total += log_miss[k]
            hands[seat] = hand & ~bit
            gone |= bit
            suit = c // 13
            if in_trick == 0:
                lead_suit = suit
            value = strength(c, lead_suit, trump)
            if value > best:
                win_seat, win, best = seat, c, value
            broken = broken or suit == trump
            in_trick += 1
            if in_trick == n:
                tricks[win_seat] += 1
                done += 1
                in_trick = 0
                lead_suit, win_seat, win, best = -1, -1, -1, -1
        out[w] = total


def play_log_likelihoods(
    worlds: NDArray[np.uint64],
    played_by: tuple[int, ...],
    plays: tuple[tuple[int, int], ...],
    bids: tuple[int, ...],
    *,
    seat: int,
    hand_size: int,
    trump: int,
    turned: int,
    lead_rule: int,
    counts_tricks: bool,
    eps: float,
) -> NDArray[np.float64]:
    """Each deal's log-likelihood of the other seats' ``plays`` this round under the softened rule of thumb.

    ``worlds`` is ``(deals, players)`` hands held now, ``played_by`` each seat's cards played
    this round (as bits), ``plays`` every ``(seat, card index)`` of the round in play order,
    ``bids`` the bids (-1 unknown: that seat's plays are not scored), ``seat`` the deciding
    seat (its own plays say nothing about the deal), ``turned`` the turned card's bit (0 if
    none), ``lead_rule`` the trump-lead rule (0 any, 1 only once broken, 2 not to the first
    trick), ``counts_tricks`` whether a seat over its bid still gains a point a trick,
    ``eps`` in (0, 1) the share of plays left to chance.
    """
    if not 0.0 < eps < 1.0:
        raise ValueError(f"eps is the share of plays left to chance, strictly between 0 and 1, not {eps}")
    out = np.zeros(len(worlds), dtype=np.float64)
    if not plays or len(worlds) == 0:
        return out
    _log_likelihoods(
        np.ascontiguousarray(worlds, dtype=np.uint64),
        np.array(played_by, dtype=np.int64),
        np.array([s for s, _ in plays], dtype=np.int64),
        np.array([c for _, c in plays], dtype=np.int64),
        np.array(bids, dtype=np.int64),
        seat,
        hand_size,
        trump,
        turned,
        lead_rule,
        counts_tricks,
        eps,
        out,
    )
    return out
