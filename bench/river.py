"""The river rules the benchmarks measure bots under, defined once for every script here.

Four players, 10 … 1 … 10 cards, the dealer's hook and 10 + the bid for an exact bid: countdown's
schedule and hook with source 000's scoring. ``python bench/NAME.py`` puts this folder on the import
path, so each script imports it as ``river``.
"""

from __future__ import annotations

from upriver.rules import DealerBid, Rules, Schedule, Scoring

__all__ = ["RIVER_RULES"]

RIVER_RULES = Rules(
    player_count=4,
    schedule=Schedule.DOWN_UP,
    max_cards=10,
    dealer_bid=DealerBid.HOOK,
    scoring=Scoring.TEN_PLUS_BID,
)
"""The river rules: what ``upriver arena --preset countdown --scoring ten-plus-bid`` plays."""
