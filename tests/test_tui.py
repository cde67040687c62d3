"""The terminal game's panels word the engine's facts as the rest of upriver does."""

from __future__ import annotations

from upriver import DealerBid, Game, Schedule, preset
from upriver.cli.tui import bids_line


def test_the_dealers_forbidden_bids_are_listed_as_a_person_lists_them() -> None:
    rules = preset("overbid", 4, schedule=Schedule.EXPLICIT, explicit_sizes=(4,), max_cards=None)
    game = Game(rules, ["Ann", "Bob", "Cid", "Dee"], dealer=3, seed=1)
    for _ in range(3):
        game.bid(0)
    restriction = game.bid_restriction()
    assert restriction is not None
    assert (restriction.rule, restriction.forbidden) == (DealerBid.OVERBID, (0, 1, 2, 3))
    line = bids_line(game.view(restriction.seat), restriction).plain
    assert "The dealer, Dee, may not bid 0, 1, 2 or 3: the dealer must overbid" in line
