"""Command-line options shared by every command that builds rules: a preset with single options over it.

The command line only translates its spelling (``--schedule 1,2,1``) into the game
record's (``[1, 2, 1]``); :meth:`Rules.from_options` reads the options, so the command
line accepts and refuses exactly what a record, the web lobby and the score keeper do.
"""

from __future__ import annotations

import enum
import json
from typing import Annotated

import typer

from upriver.errors import RulesError
from upriver.rules import Bidding, DealerBid, Rules, Scoring, Trump, TrumpLead

__all__ = [
    "BiddingOption",
    "BlindOneCardOption",
    "DealerBidOption",
    "MaxCardsOption",
    "ScheduleOption",
    "ScoringOption",
    "TrumpLeadOption",
    "TrumpOption",
    "build_rules",
    "schedule_option",
    "scoring_option",
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
    str | None,
    typer.Option(
        help=f"Override the scoring: {_choices(Scoring)}, or a custom one as JSON such as "
        '\'{"exact_bonus": 20, "per_trick": 2, "per_trick_when": "exact", "miss_per_trick_off": 5}\'.',
        show_default=False,
    ),
]
TrumpOption = Annotated[
    str | None,
    typer.Option(
        help=f"Override how trump is chosen: {_choices(Trump)} (hearts, diamonds, clubs, spades, no trump).",
        show_default=False,
    ),
]
BlindOneCardOption = Annotated[
    bool | None,
    typer.Option(
        "--blind-one-card/--no-blind-one-card",
        help="Play a one-card round blind: each player sees the others' cards, not their own.",
        show_default=False,
    ),
]


def scoring_option(text: str) -> str | object:
    """``--scoring`` as the record spells it: a name stays text; ``{…}`` is a custom scoring's object.

    :raises RulesError: for text that starts like an object but is not one.
    """
    if not text.lstrip().startswith("{"):
        return text
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        value = None
    if not isinstance(value, dict):
        raise RulesError(
            "--scoring must be a scoring's name or a custom scoring as a JSON object such as "
            f'\'{{"exact_bonus": 20, "per_trick": 2}}\', not {text!r}',
            option="scoring",
        )
    return value


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
    trump: str | Trump | None = None,
    blind_one_card: bool | None = None,
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
        "scoring": scoring_option(scoring) if isinstance(scoring, str) else scoring,
        "trump": trump,
        "blind_one_card": blind_one_card,
    }
    return Rules.from_options(options, player_count=players)
