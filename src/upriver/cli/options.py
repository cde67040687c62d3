"""Command-line options shared by every command that builds rules: a preset with single options over it."""

from __future__ import annotations

from typing import Annotated

import typer

from upriver.errors import RulesError
from upriver.rules import Bidding, DealerBid, Rules, Schedule, Scoring, TrumpLead, preset

__all__ = [
    "BiddingOption",
    "DealerBidOption",
    "MaxCardsOption",
    "ScheduleOption",
    "ScoringOption",
    "TrumpLeadOption",
    "build_rules",
]

ScheduleOption = Annotated[
    str | None, typer.Option(help="Override the schedule: up-down, down-up, or hand sizes like 1,2,1.")
]
MaxCardsOption = Annotated[
    int | None, typer.Option(help="Override the peak of up-down / the start of down-up.")
]
BiddingOption = Annotated[Bidding | None, typer.Option(help="Override how bids are made.")]
DealerBidOption = Annotated[DealerBid | None, typer.Option(help="Override the dealer's restriction.")]
TrumpLeadOption = Annotated[TrumpLead | None, typer.Option(help="Override whether trump may be led.")]
ScoringOption = Annotated[Scoring | None, typer.Option(help="Override the scoring.")]


def _schedule_options(text: str) -> dict[str, object]:
    key = text.strip().lower()
    if key in ("up-down", "down-up"):
        return {"schedule": Schedule(key)}
    try:
        sizes = tuple(int(part) for part in key.replace(" ", "").split(","))
    except ValueError:
        raise RulesError(
            f"--schedule must be up-down, down-up or hand sizes like 1,2,1; not {text!r}"
        ) from None
    return {"schedule": Schedule.EXPLICIT, "explicit_sizes": sizes, "max_cards": None}


def build_rules(
    preset_name: str,
    players: int,
    *,
    schedule: str | None = None,
    max_cards: int | None = None,
    bidding: Bidding | None = None,
    dealer_bid: DealerBid | None = None,
    trump_lead: TrumpLead | None = None,
    scoring: Scoring | None = None,
) -> Rules:
    """The preset's rules with the command line's options laid over them; raises :class:`RulesError`."""
    overrides: dict[str, object] = {}
    if schedule is not None:
        overrides.update(_schedule_options(schedule))
        # A preset's "start" peak only means something for down-up; elsewhere use the default peak.
        if overrides["schedule"] is Schedule.UP_DOWN:
            overrides["max_cards"] = None
    if max_cards is not None:
        overrides["max_cards"] = max_cards
    if bidding is not None:
        overrides["bidding"] = bidding
        if bidding is Bidding.SIMULTANEOUS and dealer_bid is None:
            # Closed fists have no last bidder, so a preset's hook or overbid cannot apply.
            overrides["dealer_bid"] = DealerBid.FREE
    for name, value in (("dealer_bid", dealer_bid), ("trump_lead", trump_lead), ("scoring", scoring)):
        if value is not None:
            overrides[name] = value
    return preset(preset_name, players, **overrides)
