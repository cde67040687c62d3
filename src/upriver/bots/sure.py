"""Sure tricks, and the one rule every level's bid obeys: never a bid the hand cannot make.

A seat's *sure tricks* are the trumps no card it cannot see outranks (the ace of trump; the
king with the ace turned up or played; top trumps in sequence): each is played in some trick,
as every card is, and takes it whatever the others hold. A bid below them is missed on every
deal. A bid above the cards in hand is never legal, so the legal bids from the sure tricks up
are exactly the bids the hand can still make (:func:`makeable_bids`).

Such a bid is never worse than one below the sure tricks, whatever the scoring: with the hook
the nearest makeable bid is at most one above the sure tricks, and the bids below them are at
least one below, so for every number of tricks the hand may take the makeable bid is made or
missed by no more (and under ``hybrid`` a miss below the bid keeps its tricks, one above it
scores nothing); and when every legal bid is below the sure tricks the highest misses by least.
So :func:`best_bid`, where every level's bid is chosen from its estimates,
chooses only among the makeable bids when there are any, and when the estimates cannot tell
bids apart (a handful of sampled deals often miss every bid alike) prefers the bid nearest the
sure tricks. The compiled rule of thumb (:func:`upriver.fast.policies.basic_bid`) counts the
same sure tricks.
"""

from __future__ import annotations

from collections.abc import Sequence

from upriver.cards import DECK, Card
from upriver.view import SeatView

__all__ = ["best_bid", "makeable_bids", "sure_tricks", "unseen_cards"]


def unseen_cards(view: SeatView) -> frozenset[Card]:
    """Cards this seat has not seen: not in its hand, not turned up, not played this round."""
    seen = set(view.hand)
    seen.update(card for _, card in view.played)
    if view.turned is not None:
        seen.add(view.turned)
    return frozenset(card for card in DECK if card not in seen)


def sure_tricks(view: SeatView, unseen: frozenset[Card] | None = None) -> int:
    """The trumps in hand that no unseen card outranks: each takes the trick it is played to.

    >>> from upriver import Card, Game, Rules, Schedule
    >>> rules = Rules(player_count=3, schedule=Schedule.EXPLICIT, explicit_sizes=(3,))
    >>> game = Game(rules, seed=0, dealer=2, auto_deal=False)
    >>> hands = [["AS", "QS", "2H"], ["3C", "4C", "5C"], ["6D", "7D", "8D"]]
    >>> _ = game.deal([[Card.parse(card) for card in hand] for hand in hands], Card.parse("KS"))
    >>> sure_tricks(game.view(0))  # the ace, and the queen with the king turned up
    2
    """
    if view.trump is None:
        return 0
    if unseen is None:
        unseen = unseen_cards(view)
    trump = view.trump
    return sum(
        1
        for card in view.hand
        if card.suit is trump and not any(other.suit is trump and other.rank > card.rank for other in unseen)
    )


def makeable_bids(view: SeatView) -> tuple[int, ...]:
    """The legal bids the hand can still make: from its sure tricks to the cards it holds."""
    sure = sure_tricks(view)
    return tuple(bid for bid in view.legal_bids if sure <= bid <= view.hand_size)


def best_bid(view: SeatView, bids: Sequence[int], values: Sequence[float]) -> int:
    """The bid of greatest value among ``bids`` (each valued by ``values``), the makeable ones only
    when any is among them (else the highest, which misses by least); among equal values the bid
    nearest the sure tricks, then the lower.

    Every level's bid comes through here, whatever its estimates: a rule of thumb's nearness to
    its estimate, a search's mean score, a learned model's expected score.

    :raises ValueError: for no bids, or values not one a bid.
    """
    if not bids or len(bids) != len(values):
        raise ValueError(
            f"best_bid needs one value for each of at least one bid, not {len(values)} for {bids!r}"
        )
    sure = sure_tricks(view)
    pool = [i for i, bid in enumerate(bids) if sure <= bid <= view.hand_size]
    if not pool:  # every bid is missed: the nearest misses by least, whatever the hand takes
        pool = [i for i, bid in enumerate(bids) if bid == max(bids)]
    best = max(pool, key=lambda i: (values[i], -abs(bids[i] - sure), -bids[i]))
    return bids[best]
