"""The bid in a blind one-card round, where a seat sees every other seat's card and not its own.

Every bot bids here by the same reckoning (:meth:`upriver.bots.base.Bot.act` sends a blind
view to :meth:`~upriver.bots.base.Bot.choose_blind_bid`): the seat's card is any card it
cannot see (not on another forehead, not turned up), each as likely; with one card each the
trick plays itself, so its chance to take it is the share of those cards that would win.
The bid of best expected score under the table's scoring wins, ties to the lower bid. The
compiled rule of thumb (:func:`upriver.fast.policies.blind_bid`) reckons the same way,
operation for operation, so rollouts bid as the bots do. Nothing here reads the seat's card:
the view does not hold it.
"""

from __future__ import annotations

from upriver.actions import winning_play
from upriver.cards import DECK
from upriver.deal import left_of
from upriver.scoring import round_score
from upriver.view import SeatView

__all__ = ["blind_bid", "blind_chance"]


def blind_chance(view: SeatView) -> float:
    """The chance that ``view.seat`` takes the blind round's one trick, from the others' cards alone."""
    n = view.player_count
    seen = {card for card in view.foreheads if card is not None}
    if view.turned is not None:
        seen.add(view.turned)
    leader = left_of(view.dealer, n)
    unseen = [card for card in DECK if card not in seen]
    wins = 0
    for mine in unseen:
        order = [(leader + i) % n for i in range(n)]
        plays = [(s, mine if s == view.seat else view.foreheads[s]) for s in order]
        if winning_play(plays, view.trump)[0] == view.seat:  # type: ignore[arg-type]  # others' cards are shown
            wins += 1
    return wins / len(unseen)


def blind_bid(view: SeatView) -> int:
    """The legal bid of best expected score in a blind round; ties go to the lower bid."""
    p = blind_chance(view)
    number = view.round_number
    choice, value = -1, -1e300
    for bid in sorted(view.legal_bids):
        win = round_score(view.rules.scoring, bid, 1, number)
        lose = round_score(view.rules.scoring, bid, 0, number)
        expected = p * win + (1 - p) * lose
        if expected > value:
            choice, value = bid, expected
    return choice
