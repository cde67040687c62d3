"""Legal moves and the two rollout policies, compiled: uniform random and the rule of thumb.

The rule of thumb is :class:`upriver.bots.BasicBot` move for move, over bit sets
instead of card objects, so a search bot's rollouts and the ``basic`` bot play
one strategy (``tests/test_kernel.py`` checks that they choose the same bids and
cards). It sees only what the acting seat sees: its hand, the cards played this
round and the turned card; every other card counts as unseen.

Cards are indices 0–51 (suit * 13 + rank - 2); a card's "danger" is
``16 * is_trump + rank``, so trumps sort above every side card, as in the bot.
"""

from __future__ import annotations

import numpy as np

from upriver.fast import thumb
from upriver.fast._jit import (
    FULL,
    ONE,
    SUIT,
    ZERO,
    Bits,
    Ints,
    above,
    below,
    clz,
    ctz,
    inline_jit,
    jit,
    nth_bit,
    popcount,
    u64,
)

__all__ = [
    "BLIND",
    "COUNTS_TRICKS",
    "DEALER_FREE",
    "DEALER_HOOK",
    "DEALER_OVERBID",
    "DEALER_RULE",
    "LEAD_AFTER_FIRST",
    "LEAD_BROKEN",
    "LEAD_RULE",
    "OPTS_SIZE",
    "POLICY_BASIC",
    "POLICY_LEARNED",
    "POLICY_RANDOM",
    "RANK_OF",
    "ROTATE",
    "SCORES",
    "SIMULTANEOUS",
    "SUIT_OF",
    "TRICKS_MAX",
    "basic_bid",
    "basic_card",
    "blind_bid",
    "danger",
    "estimate_tricks",
    "lead_barred",
    "left_of",
    "legal_bids",
    "legal_cards",
    "masters",
    "score",
    "strength",
    "trick_standing",
    "winners_of",
]

POLICY_RANDOM = 0
POLICY_BASIC = 1
POLICY_LEARNED = 2
"""Cards by the learned policy of :mod:`upriver.fast.learned`, bids by the rule of thumb."""
DEALER_FREE = 0
DEALER_HOOK = 1
DEALER_OVERBID = 2

# The rule options as the kernel takes them, one int64 array ``opts`` a round:
# [dealer rule, simultaneous, lead rule, counts tricks, blind one card, rotate, 0, 0, points…].
DEALER_RULE = 0
"""``opts[DEALER_RULE]``: the dealer's last bid, :data:`DEALER_FREE`, :data:`DEALER_HOOK` or
:data:`DEALER_OVERBID`."""
SIMULTANEOUS = 1
"""``opts[SIMULTANEOUS]``: 1 when every seat bids at once, so no bid is the last one the dealer rule bars."""
LEAD_RULE = 2
"""``opts[LEAD_RULE]``: 0 trump may lead any time, :data:`LEAD_BROKEN`, :data:`LEAD_AFTER_FIRST`."""
LEAD_BROKEN = 1
LEAD_AFTER_FIRST = 2
COUNTS_TRICKS = 3
"""``opts[COUNTS_TRICKS]``: 1 when a seat over its bid still gains a point a trick."""
BLIND = 4
"""``opts[BLIND]``: 1 when the one-card round is played blind."""
ROTATE = 5
"""``opts[ROTATE]``: 1 when trump rotates (hearts, diamonds, clubs, spades, none) and no card is turned."""
SCORES = 8
"""Where the round's points start: ``opts[SCORES + bid * TRICKS_MAX + tricks]``."""
TRICKS_MAX = 18
"""Bids and tricks run from 0 to 17 (three players, 17 cards)."""
OPTS_SIZE = SCORES + TRICKS_MAX * TRICKS_MAX


@jit
def score(opts: Ints, bid: int, took: int) -> int:
    """The round's points for ``bid`` and ``took`` tricks, from the table in ``opts`` (the engine's
    :func:`upriver.scoring.round_score` for this round, written there by :mod:`upriver.fast.api`)."""
    return int(opts[SCORES + bid * TRICKS_MAX + took])


@jit
def lead_barred(opts: Ints, broken: bool, done: int) -> bool:
    """Whether a leader may not lead trump now (unless it holds only trumps): before trump is
    broken under ``broken``, or to the round's first trick under ``after-first-trick``."""
    rule = opts[LEAD_RULE]
    return (rule == LEAD_BROKEN and not broken) or (rule == LEAD_AFTER_FIRST and done == 0)


@jit
def legal_cards(hand: int, lead_suit: int, trump: int, must_break: bool, broken: bool) -> int:
    """The playable cards of ``hand``: follow the led suit (``lead_suit`` -1 when leading) if
    possible; when leading under the trump-broken rule, no trump unless the hand holds only trumps."""
    if lead_suit >= 0:
        follow = hand & SUIT[lead_suit]
        return follow if follow != ZERO else hand
    if must_break and not broken and trump >= 0:
        side = hand & ~SUIT[trump]
        return side if side != ZERO else hand
    return hand


@jit
def legal_bids(size: int, last: bool, dealer_rule: int, others: int) -> int:
    """The allowed bids as a bit set over 0…size; ``last`` marks the last sequential bid,
    ``others`` the total already bid, for the hook and overbid rules."""
    every = (ONE << u64(size + 1)) - ONE
    if not last or dealer_rule == DEALER_FREE:
        return every
    rest = size - others
    if dealer_rule == DEALER_HOOK:
        return every & ~(ONE << u64(rest)) if rest >= 0 else every
    if rest < 0:
        return every
    over = every & ~((ONE << u64(rest + 1)) - ONE)
    return over if over != ZERO else ONE << u64(size)


@inline_jit
def left_of(seat: int, n: int) -> int:
    """The seat to the left of ``seat`` at a table of ``n``, as :func:`upriver.deal.left_of` counts it,
    without an integer division: where the deal passes and the bidding and the first trick start."""
    seat += 1
    return seat if seat < n else 0


SUIT_OF = np.array([c // 13 for c in range(52)], dtype=np.int64)
RANK_OF = np.array([c % 13 for c in range(52)], dtype=np.int64)
"""Suit and rank (0–12) of each card: a table look-up is cheaper than Python's floor division
(compiled, ``//`` and ``%`` on signed integers keep Python's rounding, a branch each)."""


@inline_jit
def strength(card: int, lead_suit: int, trump: int) -> int:
    """How strongly ``card`` stands in a trick led in ``lead_suit``: its rank (0–12), 16 more in the
    suit led and 32 more in trump (-1: none). The strongest card takes the trick, which is
    :func:`upriver.actions.beats` over card indices: the kernel's one statement of who wins a trick
    (``tests/test_kernel.py`` checks the two agree on every pair of cards, trump and suit led)."""
    suit = SUIT_OF[card]
    return int(RANK_OF[card]) + (16 if suit == lead_suit else 0) + (32 if suit == trump else 0)


@jit
def trick_standing(trick: Ints, trick_len: int, leader: int, trump: int) -> tuple[int, int, int, int]:
    """Who is winning the first ``trick_len`` cards of ``trick`` (led by ``leader``): the led suit,
    the winning seat, its card and that card's :func:`strength`, each -1 for an empty trick."""
    n = trick.shape[0]
    lead_suit, win_seat, win, best = -1, -1, -1, -1
    for i in range(trick_len):
        c = trick[i]
        if i == 0:
            lead_suit = c // 13
        value = strength(c, lead_suit, trump)
        if value > best:
            win_seat, win, best = (leader + i) % n, c, value
    return lead_suit, win_seat, win, best


@jit
def random_bit(bits: int, mask: int) -> int:
    """A set bit of a non-empty ``mask``, chosen uniformly with 64 random ``bits``."""
    return nth_bit(mask, below(bits, int(popcount(mask))))


@jit
def masters(mask: int, unseen: int) -> int:
    """The cards of ``mask`` that no unseen card of their suit outranks."""
    out = ZERO
    for s in range(4):
        mine = mask & SUIT[s]
        if mine == ZERO:
            continue
        hidden = unseen & SUIT[s]
        out |= mine if hidden == ZERO else mine & above(63 - int(clz(hidden)))
    return out


@inline_jit
def danger(card: int, trump: int) -> int:
    """How dangerous ``card`` is to hold: its rank, 16 more in trump, so trumps sort above every side card."""
    return card % 13 + (16 if card // 13 == trump else 0)


@inline_jit
def winners_of(cards: int, best: int, trump: int) -> int:
    """The cards of ``cards`` that would beat ``best``, the card winning the trick so far: higher in
    its suit, or any trump when it is not a trump."""
    bsuit = best // 13
    out: int = cards & SUIT[bsuit] & above(best)
    if bsuit != trump and trump >= 0:
        out |= cards & SUIT[trump]
    return out


@jit
def least(mask: int, trump: int) -> int:
    """The least dangerous card of ``mask``; ties go to the lowest index, as ``min`` does in the bot."""
    best, key = -1, 99
    while mask != ZERO:
        c = int(ctz(mask))
        mask &= mask - ONE
        k = danger(c, trump)
        if k < key:
            best, key = c, k
    return best


@jit
def most(mask: int, trump: int) -> int:
    """The most dangerous card of ``mask``; ties go to the lowest index, as ``max`` does in the bot."""
    best, key = -1, -1
    while mask != ZERO:
        c = int(ctz(mask))
        mask &= mask - ONE
        k = danger(c, trump)
        if k > key:
            best, key = c, k
    return best


@jit
def basic_card(
    hand: int,
    legal: int,
    best: int,
    last: bool,
    trump: int,
    need: int,
    left: int,
    unseen: int,
    counts_tricks: bool,
) -> int:
    """The rule of thumb's card: win cheaply while the bid needs tricks, else shed high cards.

    ``best`` is the card winning the trick so far (-1 when leading), ``last`` whether this
    seat plays last to the trick, ``need`` the tricks the bid still needs, ``left`` the
    tricks left in the round including this one. ``counts_tricks`` is the scoring "1 a
    trick + 10 if exact": there a seat whose bid is out of reach (already over it, or
    needing more tricks than are left) takes every trick it can, each one a point.
    """
    if legal & (legal - ONE) == ZERO:
        return int(ctz(legal))
    if counts_tricks and (need < 0 or need > left):
        need = left
    tmask = SUIT[trump] if trump >= 0 else ZERO
    # The top trumps in hand take their tricks whenever played: once they cover the tricks still
    # needed, every other card should lose (upriver.bots.basic keeps the same rule).
    boss = masters(hand & tmask, unseen)
    covered = 0 < need < left and int(popcount(boss)) >= need
    if best < 0:
        if covered and legal & ~boss != ZERO:
            return least(legal & ~boss, trump)
        if need <= 0:
            return least(legal, trump)
        if need >= left:
            return most(legal, trump)
        top = masters(legal, unseen)
        if top & ~tmask != ZERO:
            return most(top & ~tmask, trump)
        if top != ZERO:
            return most(top, trump)
        return least(legal, trump)
    winners = winners_of(legal, best, trump)
    losers = legal & ~winners
    if covered and losers & ~boss != ZERO:
        return most(losers & ~boss, trump)
    if need > 0:
        if winners == ZERO:
            return least(legal, trump)
        if last:
            return least(winners, trump)
        safe = masters(winners, unseen)
        if safe != ZERO:
            return least(safe, trump)
        return most(winners, trump) if need >= left else least(winners, trump)
    if losers != ZERO:
        return most(losers, trump)
    return most(winners, trump) if last else least(winners, trump)


@jit
def estimate_tricks(hand: int, trump: int, size: int, players: int, unseen: int) -> float:
    """:func:`upriver.bots.basic.estimate_tricks`, operation for operation (same floats, the same
    named numbers of :mod:`upriver.fast.thumb`, fixed when this is compiled)."""
    others = players - 1
    dealt = min(1.0, others * size / max(1, int(popcount(unseen))))
    tmask = SUIT[trump] if trump >= 0 else ZERO
    trumps = hand & tmask
    count = int(popcount(trumps))
    total = 0.0
    mine_above = 0
    rest = trumps
    while rest != ZERO:  # trumps from the highest down
        c = 63 - int(clz(rest))
        rest ^= ONE << u64(c)
        higher = int(popcount(unseen & tmask & above(c)))
        clear = (1 - dealt) ** float(higher)
        guarded = min(1.0, (count - 1 - mine_above) / (higher + 1))
        total += clear + (1 - clear) * thumb.BLOCKED_TRUMP_SHARE * guarded
        mine_above += 1
    ruff_risk = (
        0.0 if trump < 0 else min(thumb.RUFF_RISK_MAX, thumb.RUFF_RISK_PER_OPPONENT * others * dealt * 4)
    )
    for s in range(4):
        cards = hand & SUIT[s]
        if s == trump or cards == ZERO:
            continue
        length = int(popcount(cards))
        risk = min(thumb.RISK_MAX, ruff_risk * (1 + thumb.RISK_PER_LONG_CARD * max(0, length - 2)))
        while cards != ZERO:
            c = int(ctz(cards))
            cards &= cards - ONE
            higher = int(popcount(unseen & SUIT[s] & above(c)))
            if higher == 0:
                total += thumb.MASTER * (1 - risk)
            elif higher == 1 and length >= 2:
                total += thumb.SECOND_GUARDED * (1 - dealt) ** 0.5 * (1 - risk)
            elif higher == 1:
                total += thumb.SECOND_SINGLE * (1 - dealt) * (1 - risk)
    if trump >= 0 and size >= 2:
        spare = max(0, count - int(popcount(masters(trumps, unseen))))
        for s in range(4):
            if s == trump or spare <= 0:
                continue
            length = int(popcount(hand & SUIT[s]))
            if length == 0:
                total += thumb.VOID_RUFF * min(spare, 2)
                spare -= min(spare, 2)
            elif length == 1:
                total += thumb.SINGLETON_RUFF
                spare -= 1
    return min(float(size), total * thumb.ESTIMATE_SCALE + thumb.ESTIMATE_OFFSET)


@jit
def basic_bid(hand: int, trump: int, size: int, players: int, unseen: int, legal: int) -> int:
    """The rule of thumb's bid: the legal bid nearest the estimate, not below the sure tricks
    (top trumps) when it can; ties go to the lower bid."""
    estimate = estimate_tricks(hand, trump, size, players, unseen)
    sure = int(popcount(masters(hand & SUIT[trump], unseen))) if trump >= 0 else 0
    choices = legal & ~((ONE << u64(sure)) - ONE)
    if choices == ZERO:
        choices = legal
    best, gap = -1, 1e300
    while choices != ZERO:
        b = int(ctz(choices))
        choices &= choices - ONE
        d = abs(b - estimate)
        if d < gap:
            best, gap = b, d
    return best


@jit
def blind_bid(hands: Bits, seat: int, trump: int, turned: int, leader: int, legal: int, opts: Ints) -> int:
    """The bid of best expected score for ``seat`` in a blind one-card round: it sees every other
    seat's card and not its own, which is any card it cannot see, each as likely. Every card is
    forced, so the chance to win is the share of those cards that would take the trick. Ties go
    to the lower bid. :func:`upriver.bots.blind.blind_bid` is the same, operation for operation."""
    n = hands.shape[0]
    seen = turned
    for s in range(n):
        if s != seat:
            seen |= hands[s]
    unseen = FULL & ~seen
    count = int(popcount(unseen))
    wins = 0
    rest = unseen
    while rest != ZERO:
        mine = int(ctz(rest))
        rest &= rest - ONE
        lead, winner, best = -1, -1, -1
        for i in range(n):
            s = (leader + i) % n
            c = mine if s == seat else int(ctz(hands[s]))
            if i == 0:
                lead = c // 13
            power = strength(c, lead, trump)
            if power > best:
                winner, best = s, power
        if winner == seat:
            wins += 1
    p = wins / count
    choice, value = -1, -1e300
    choices = legal
    while choices != ZERO:
        b = int(ctz(choices))
        choices &= choices - ONE
        expected = p * score(opts, b, 1) + (1 - p) * score(opts, b, 0)
        if expected > value:
            choice, value = b, expected
    return choice
