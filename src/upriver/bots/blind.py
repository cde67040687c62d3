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

__all__ = ["blind_bid", "blind_chance", "blind_expected"]


def blind_chance(view: SeatView) -> float:
    """The chance that ``view.seat`` takes the blind round's one trick, from the others' cards alone."""
    n = view.player_count
    seen = {card for card in view.foreheads if card is not None}
    if view.turned is not None:
        seen.add(view.turned)
    order = [left_of(view.dealer, n, 1 + i) for i in range(n)]  # the dealer's left leads
    unseen = [card for card in DECK if card not in seen]
    wins = 0
    for mine in unseen:
        plays = [(s, mine if s == view.seat else view.foreheads[s]) for s in order]
        if winning_play(plays, view.trump)[0] == view.seat:  # type: ignore[arg-type]  # others' cards are shown
            wins += 1
    return wins / len(unseen)


def blind_expected(view: SeatView, chance: float | None = None) -> dict[int, float]:
    """Each legal bid's expected score in a blind round under the table's scoring: the points of
    taking the one trick weighed by ``chance`` (:func:`blind_chance` when not given), those of
    losing it by the rest."""
    p = blind_chance(view) if chance is None else chance
    scoring, number = view.rules.scoring, view.round_number
    return {
        bid: p * round_score(scoring, bid, 1, number) + (1 - p) * round_score(scoring, bid, 0, number)
        for bid in view.legal_bids
    }


def blind_bid(view: SeatView) -> int:
    """The legal bid of best expected score in a blind round; ties go to the lower bid."""
    expected = blind_expected(view)
    choice, value = -1, -1e300
    for bid in sorted(expected):
        if expected[bid] > value:
            choice, value = bid, expected[bid]
    return choice
