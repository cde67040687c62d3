"""Command-line options shared by every command that builds rules: a preset with single options over it.

The command line only translates its spelling (``--schedule 1,2,1``) into the game
record's (``[1, 2, 1]``); :meth:`Rules.from_options` reads the options, so the command
line accepts and refuses exactly what a record, the web lobby and the score keeper do.
"""

from __future__ import annotations

import enum
from typing import Annotated

import typer

from upriver.errors import RulesError
from upriver.rules import Bidding, DealerBid, Rules, Scoring, TrumpLead

__all__ = [
    "BiddingOption",
    "DealerBidOption",
    "MaxCardsOption",
    "ScheduleOption",
    "ScoringOption",
    "TrumpLeadOption",
    "build_rules",
    "schedule_option",
]


def _choices(kind: type[enum.Enum]) -> str:
    return ", ".join(str(member.value) for member in kind)


ScheduleOption = Annotated[
    str | None, typer.Option(help="Override the schedule: up-down, down-up, or hand sizes like 1,2,1.")
]
MaxCardsOption = Annotated[
    int | None, typer.Option(help="Override the peak of up-down / the start of down-up.")
]
BiddingOption = Annotated[
    str | None, typer.Option(help=f"Override how bids are made: {_choices(Bidding)}.", show_default=False)
]
DealerBidOption = Annotated[
    str | None,
    typer.Option(help=f"Override the dealer's restriction: {_choices(DealerBid)}.", show_default=False),
]
TrumpLeadOption = Annotated[
    str | None,
    typer.Option(help=f"Override whether trump may be led: {_choices(TrumpLead)}.", show_default=False),
]
ScoringOption = Annotated[
    str | None, typer.Option(help=f"Override the scoring: {_choices(Scoring)}.", show_default=False)
]


def schedule_option(text: str) -> str | list[int]:
    """``--schedule`` as the record spells it: hand sizes ``1,2,1`` become ``[1, 2, 1]``; a name stays text.

    :raises RulesError: for a list of hand sizes that are not all whole numbers (``1,x``).
    """
    if not any(char.isdigit() or char == "," for char in text):
        return text
    try:
        return [int(part) for part in text.replace(" ", "").split(",")]
    except ValueError:
        raise RulesError(
            f"--schedule must be up-down, down-up or hand sizes like 1,2,1; not {text!r}", option="schedule"
        ) from None


def build_rules(
    preset_name: str | None,
    players: int,
    *,
    schedule: str | None = None,
    max_cards: int | None = None,
    bidding: str | Bidding | None = None,
    dealer_bid: str | DealerBid | None = None,
    trump_lead: str | TrumpLead | None = None,
    scoring: str | Scoring | None = None,
) -> Rules:
    """The preset's rules with the command line's options laid over them, by :meth:`Rules.from_options`.

    :raises RulesError: with the engine's sentence, for options it refuses.
    """
    options: dict[str, object] = {
        "preset": preset_name,
        "schedule": None if schedule is None else schedule_option(schedule),
        "max_cards": max_cards,
        "bidding": bidding,
        "dealer_bid": dealer_bid,
        "trump_lead": trump_lead,
        "scoring": scoring,
    }
    return Rules.from_options(options, player_count=players)
