"""A rule-of-thumb bot: bid the tricks the hand is likely to take, then play to make that bid exactly.

Bidding counts sure tricks (top trumps), likely ones (other trumps, side aces and
kings) and ruffs (short side suits with spare trumps), then picks the legal bid
closest to that estimate, never below its sure tricks when it can help it
(:func:`upriver.bots.sure.best_bid`, where every level's bid is chosen). Play
wins tricks only while the bid still needs them, as cheaply as it can, and once
the bid is made sheds its most dangerous cards on tricks it cannot win; so it does while
the top trumps it holds cover the tricks still needed, keeping those trumps. It knows
the scoring: under "1 a trick + 10 if exact", a seat already over its bid or
needing more tricks than are left takes every trick it can, since each is a point
and the bonus is gone (under "10 + bid" such a seat scores nothing whatever it
does, so it plays on as before). The bot is deterministic: its seed is kept only
for the interface.
"""

from __future__ import annotations

from upriver.actions import beats, winning_play
from upriver.bots.base import Bot
from upriver.bots.sure import best_bid, sure_tricks, unseen_cards
from upriver.cards import Card, Rank, Suit
from upriver.fast import thumb
from upriver.scoring import tricks_pay_past_the_bid
from upriver.view import SeatView

__all__ = ["BasicBot", "estimate_tricks"]


def _danger(card: Card, trump: Suit | None) -> tuple[bool, Rank]:
    """How likely a card is to take a trick later: trumps first, then by rank."""
    return (card.suit is trump, card.rank)


def _higher_unseen(card: Card, unseen: frozenset[Card]) -> int:
    """How many unseen cards of the same suit outrank ``card``."""
    return sum(1 for other in unseen if other.suit is card.suit and other.rank > card.rank)


def estimate_tricks(view: SeatView) -> float:
    """The tricks this hand is expected to take, by rule of thumb (its numbers: :mod:`upriver.fast.thumb`)."""
    hand, trump, size = view.hand, view.trump, view.hand_size
    others = view.player_count - 1
    unseen = unseen_cards(view)
    # Chance that a given unseen card sits in some opponent's hand rather than in the stock.
    dealt = min(1.0, others * size / max(1, len(unseen)))
    suits: dict[Suit, list[Card]] = {suit: [] for suit in Suit}
    for card in hand:
        suits[card.suit].append(card)
    trumps = sorted(suits[trump], key=lambda c: -c.rank) if trump is not None else []
    total = 0.0
    for mine_above, card in enumerate(trumps):
        higher = _higher_unseen(card, unseen)
        clear = (1 - dealt) ** higher
        # A trump with lower trumps behind it can wait for the higher ones to fall.
        guarded = min(1.0, (len(trumps) - 1 - mine_above) / (higher + 1))
        total += clear + (1 - clear) * thumb.BLOCKED_TRUMP_SHARE * guarded
    ruff_risk = (
        0.0 if trump is None else min(thumb.RUFF_RISK_MAX, thumb.RUFF_RISK_PER_OPPONENT * others * dealt * 4)
    )
    for suit, cards in suits.items():
        if suit is trump or not cards:
            continue
        length = len(cards)
        risk = min(thumb.RISK_MAX, ruff_risk * (1 + thumb.RISK_PER_LONG_CARD * max(0, length - 2)))
        for card in cards:
            higher = _higher_unseen(card, unseen)
            if higher == 0:
                total += thumb.MASTER * (1 - risk)
            elif higher == 1 and length >= 2:
                total += thumb.SECOND_GUARDED * (1 - dealt) ** 0.5 * (1 - risk)
            elif higher == 1:
                total += thumb.SECOND_SINGLE * (1 - dealt) * (1 - risk)
    if trump is not None and size >= 2:
        spare = max(0, len(trumps) - sure_tricks(view, unseen))
        for suit in Suit:
            if suit is trump or spare <= 0:
                continue
            if not suits[suit]:
                total += thumb.VOID_RUFF * min(spare, 2)
                spare -= min(spare, 2)
            elif len(suits[suit]) == 1:
                total += thumb.SINGLETON_RUFF
                spare -= 1
    return min(float(size), total * thumb.ESTIMATE_SCALE + thumb.ESTIMATE_OFFSET)


class BasicBot(Bot):
    """Bids its estimated tricks and plays to make them exactly, like a careful beginner."""

    kind = "basic"

    def choose_bid(self, view: SeatView) -> int:
        """The legal bid closest to :func:`estimate_tricks`, not below the sure tricks if possible;
        ties to the lower. (The estimate is never below the sure tricks, so the bid nearest it is
        the one nearest them too: the compiled rule of thumb's bid, which :func:`best_bid` keeps.)"""
        estimate = estimate_tricks(view)
        bids = view.legal_bids
        return best_bid(view, bids, [-abs(bid - estimate) for bid in bids])

    def choose_card(self, view: SeatView) -> Card:
        """Win a trick cheaply while the bid needs tricks; otherwise lose it, shedding high cards."""
        legal, trump = view.legal_cards, view.trump
        if len(legal) == 1:
            return legal[0]
        bid = view.bids[view.seat] or 0
        need = bid - view.tricks_won[view.seat]
        left = view.hand_size - len(view.tricks)
        if tricks_pay_past_the_bid(view.rules.scoring) and (need < 0 or need > left):
            need = left  # the exact bonus is out of reach, and every trick is still a point
        danger = lambda card: _danger(card, trump)  # noqa: E731  (one sort key, used many times)
        unseen = unseen_cards(view)
        # The top trumps in hand take their tricks whenever they are played: once they cover what
        # the bid still needs, every other card should lose, and the top trumps wait for later.
        covered = 0 < need < left and sure_tricks(view, unseen) >= need
        boss = [card for card in legal if card.suit is trump and _higher_unseen(card, unseen) == 0]
        if not view.trick:
            spare = [card for card in legal if card not in boss]
            if covered and spare:
                return min(spare, key=danger)
            return self._lead(view, need, left)
        _, best = winning_play(view.trick, trump)
        winners = [card for card in legal if beats(card, best, trump)]
        losers = [card for card in legal if card not in winners]
        last = len(view.trick) == view.player_count - 1
        spare = [card for card in losers if card not in boss]
        if covered and spare:
            return max(spare, key=danger)
        if need > 0:
            if not winners:
                return min(legal, key=danger)
            if last:
                return min(winners, key=danger)
            # A winner no unseen card of its suit outranks is likely to hold (bar a ruff).
            safe = [card for card in winners if _higher_unseen(card, unseen) == 0]
            if safe:
                return min(safe, key=danger)
            return max(winners, key=danger) if need >= left else min(winners, key=danger)
        if losers:
            return max(losers, key=danger)
        return max(winners, key=danger) if last else min(winners, key=danger)

    def _lead(self, view: SeatView, need: int, left: int) -> Card:
        legal, trump = view.legal_cards, view.trump
        danger = lambda card: _danger(card, trump)  # noqa: E731
        if need <= 0:
            return min(legal, key=danger)
        if need >= left:
            return max(legal, key=danger)
        unseen = unseen_cards(view)
        masters = [card for card in legal if _higher_unseen(card, unseen) == 0]
        side = [card for card in masters if card.suit is not trump]
        if side:
            return max(side, key=danger)
        if masters:
            return max(masters, key=danger)
        return min(legal, key=danger)
