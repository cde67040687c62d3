"""Single-observer information-set MCTS over a round's cards, compiled, with policy rollouts.

The search of ``master`` (:mod:`upriver.bots.master`). One tree is grown for the seat to
play, its nodes keyed by the moves seen from the root (Cowling, Powley and Whitehouse's
SO-ISMCTS, 2012): every simulation takes the next of the deals drawn in advance (from the
seat's own sampler, so weighted by the bids made as ``expert``'s are), walks the tree with
every seat choosing among the cards it holds *in that deal* by UCB1 on its own round score
(availability counts: a child's exploration term counts the simulations it could have been
chosen in), adds one node, and plays the round out with a policy (the rule of thumb or the
learned play policy) for every seat. Each node keeps the sum of the score, scaled to 0–1,
of the seat whose card it is, so each seat in the tree plays for itself (max^n).

Unlike PIMC's one-step look-ahead, where the seat's own later cards are the rule of thumb's,
the tree improves on the policy at the seat's later decisions too, and it does so per
information set, not per deal: a node's statistics are shared by every deal that passes
through it, which is what a player who cannot see the deal can act on. The first move tried
at a new node is the policy's own card, so a tree of few simulations plays as the policy does.

:func:`grow` runs simulations into a :class:`Tree` kept by the caller, so a search can
stop between batches at a deadline and go on with the same tree.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from numpy.typing import NDArray

from upriver.fast._jit import GOLDEN, ONE, ZERO, Bits, Ints, i64, jit, mix, nth_bit, popcount, u64
from upriver.fast.api import Position, position_record, round_opts
from upriver.fast.kernel import (
    PositionRecord,
    RoundState,
    load_world,
    make_bids,
    play_tricks,
    policy_card,
    state_of,
)
from upriver.fast.policies import (
    COUNTS_TRICKS,
    POLICY_BASIC,
    SCORES,
    SUIT_OF,
    TRICKS_MAX,
    lead_barred,
    legal_cards,
    score,
    strength,
    trick_standing,
)

__all__ = ["Tree", "grow", "grown", "new_tree", "score_range", "search_tree"]


@dataclasses.dataclass(frozen=True, slots=True)
class Tree:
    """A search tree in flat arrays, node 0 the root: each node's parent, first child and next
    sibling (-1 for none), the card that leads to it and the seat that played it, its visits, its
    availability (simulations in which its card was legal at its parent) and the summed 0–1 score
    of that seat. ``size[0]`` counts the nodes in use."""

    parent: Ints
    child: Ints
    sibling: Ints
    card: Ints
    mover: Ints
    visits: Ints
    avail: Ints
    reward: NDArray[np.float64]
    size: Ints

    @property
    def root_children(self) -> list[int]:
        """The root's children, in the order they were added."""
        out, node = [], int(self.child[0])
        while node >= 0:
            out.append(node)
            node = int(self.sibling[node])
        return out


def new_tree(capacity: int) -> Tree:
    """An empty tree (a root alone) with room for ``capacity`` nodes."""
    capacity = max(capacity, 2)
    tree = Tree(
        parent=np.full(capacity, -1, np.int64),
        child=np.full(capacity, -1, np.int64),
        sibling=np.full(capacity, -1, np.int64),
        card=np.full(capacity, -1, np.int64),
        mover=np.full(capacity, -1, np.int64),
        visits=np.zeros(capacity, np.int64),
        avail=np.zeros(capacity, np.int64),
        reward=np.zeros(capacity, np.float64),
        size=np.ones(1, np.int64),
    )
    return tree


def grown(tree: Tree, nodes: int) -> Tree:
    """``tree`` with room for at least ``nodes`` nodes (copied into larger arrays when needed)."""
    have = tree.parent.shape[0]
    if nodes <= have:
        return tree
    bigger = new_tree(max(nodes, 2 * have))
    for field in dataclasses.fields(Tree):
        getattr(bigger, field.name)[:have] = getattr(tree, field.name)
    return bigger


def score_range(position: Position) -> tuple[float, float]:
    """The lowest and highest round score any seat can take this round (to scale scores to 0–1)."""
    opts = round_opts(position.rules, position.round_number)
    size = position.hand_size
    table = [int(opts[SCORES + b * TRICKS_MAX + t]) for b in range(size + 1) for t in range(size + 1)]
    return float(min(table)), float(max(table))


@jit
def grow(
    tree_arrays: tuple[Ints, Ints, Ints, Ints, Ints, Ints, Ints, NDArray[np.float64], Ints],
    worlds: Bits,
    position: PositionRecord,
    opts: Ints,
    policy: int,
    uct_c: float,
    low: float,
    span: float,
    searched: int,
    seed: int,
) -> None:
    """One simulation in each deal of ``worlds``, each adding at most one node to the tree.

    ``tree_arrays`` are a :class:`Tree`'s arrays in field order, with room for ``len(worlds)``
    more nodes; ``position`` is a :class:`~upriver.fast.kernel.PositionRecord` of the seat to
    play; ``policy`` plays the rollouts and picks the first card tried at a new node. ``searched``
    is the one seat whose cards the tree chooses by UCB1, the others playing the policy's card
    in the tree too; -1 searches every seat's. A seat's
    score ``s`` counts as ``(s - low) / span``.
    """
    parent, child, sibling, card, mover, visits, avail, reward, size_arr = tree_arrays
    count, n = worlds.shape
    hands = np.zeros(n, dtype=np.uint64)
    bids = np.zeros(n, dtype=np.int64)
    tricks = np.zeros(n, dtype=np.int64)
    trick = np.zeros(n, dtype=np.int64)
    path = np.zeros(64 * n, dtype=np.int64)
    script = np.zeros(0, dtype=np.int64)
    no_record = np.zeros(0, dtype=np.int8)
    state0 = state_of(position)
    bids0, tricks0, trick0 = position.bids, position.tricks, position.trick
    size, trump, dealer = state0.size, state0.trump, state0.dealer
    counts = opts[COUNTS_TRICKS] == 1
    rng = mix(u64(seed) + GOLDEN)
    nodes = size_arr[0]
    for w in range(count):
        load_world(worlds, w, bids0, tricks0, trick0, hands, bids, tricks, trick)
        make_bids(hands, bids, state0, opts, POLICY_BASIC, rng, script, 0)  # bids still hidden
        leader, trick_len, done = state0.leader, state0.trick_len, state0.done
        gone, broken = u64(state0.gone), state0.broken
        lead_suit, win_seat, win, best = trick_standing(trick, trick_len, leader, trump)
        node, depth, in_tree = 0, 0, True
        path[0] = 0
        while done < size and in_tree:
            seat = leader + trick_len
            if seat >= n:
                seat -= n
            hand = hands[seat]
            legal = legal_cards(hand, lead_suit, trump, lead_barred(opts, broken, done), False)
            tried, pick = ZERO, -1
            fixed = searched >= 0 and seat != searched
            if fixed:  # a seat the tree does not search plays the policy's card
                c = policy_card(
                    policy, hand, legal, win, win_seat, trick_len, n, seat, trump, bids, tricks,
                    size - done, i64(gone), counts,
                )  # fmt: skip
                tried = legal & ~(ONE << u64(c))
            ch = child[node]
            while ch >= 0:
                bit = ONE << u64(card[ch])
                if legal & bit != ZERO:
                    avail[ch] += 1
                    tried |= bit
                    if fixed and card[ch] == c:
                        pick = ch
                ch = sibling[ch]
            untried = legal & ~tried
            if fixed and untried == ZERO:
                node = pick
            elif untried != ZERO:
                if not fixed:
                    c = policy_card(
                        policy, hand, legal, win, win_seat, trick_len, n, seat, trump, bids, tricks,
                        size - done, i64(gone), counts,
                    )  # fmt: skip
                if untried & (ONE << u64(c)) == ZERO:
                    rng += GOLDEN
                    c = int(nth_bit(untried, int(mix(rng) % u64(popcount(untried)))))
                new = nodes
                nodes += 1
                parent[new], child[new], card[new], mover[new] = node, -1, c, seat
                visits[new], avail[new], reward[new] = 0, 1, 0.0
                sibling[new] = child[node]
                child[node] = new
                node = new
                in_tree = False
            else:
                pick, top = -1, -1e300
                ch = child[node]
                while ch >= 0:
                    if legal & (ONE << u64(card[ch])) != ZERO:
                        value = reward[ch] / visits[ch] + uct_c * np.sqrt(np.log(avail[ch]) / visits[ch])
                        if value > top:
                            pick, top = ch, value
                    ch = sibling[ch]
                node = pick
                c = card[node]
            depth += 1
            path[depth] = node
            bit = ONE << u64(c)
            hands[seat] = hand ^ bit
            gone |= bit
            suit = SUIT_OF[c]
            if trick_len == 0:
                lead_suit = suit
            power = strength(c, lead_suit, trump)
            if power > best:
                win_seat, win, best = seat, c, power
            broken = broken | (suit == trump)
            trick[trick_len] = c
            trick_len += 1
            if trick_len == n:
                tricks[win_seat] += 1
                done += 1
                trick_len = 0
                lead_suit, win, best = -1, -1, -1
                leader = win_seat
        if done < size:
            state = RoundState(size, trump, dealer, leader, trick_len, done, i64(gone), broken)
            rng = play_tricks(
                hands, bids, tricks, trick, state, opts, policy, rng, script, 0, False, no_record, no_record
            )[1]
        visits[0] += 1
        for d in range(1, depth + 1):
            at = path[d]
            visits[at] += 1
            s = mover[at]
            reward[at] += (score(opts, bids[s], tricks[s]) - low) / span
    size_arr[0] = nodes


def search_tree(
    tree: Tree,
    position: Position,
    worlds: NDArray[np.uint64],
    *,
    policy: int = POLICY_BASIC,
    uct_c: float = 0.7,
    searched: int = -1,
    seed: int = 0,
) -> Tree:
    """``tree`` grown by one simulation in each of ``worlds`` (a deal each, as from the search
    bots' samplers) from ``position``, the seat to play's; returns the tree, in larger arrays if
    it needed room."""
    tree = grown(tree, int(tree.size[0]) + len(worlds) + 1)
    low, high = score_range(position)
    arrays = tuple(getattr(tree, field.name) for field in dataclasses.fields(Tree))
    grow(
        arrays,
        np.ascontiguousarray(worlds, dtype=np.uint64),
        position_record(position),
        round_opts(position.rules, position.round_number),
        policy,
        uct_c,
        low,
        max(high - low, 1.0),
        searched,
        seed,
    )
    return tree
