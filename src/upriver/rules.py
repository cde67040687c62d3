"""The rule options on which the source documents differ, and one named preset per rule set.

A :class:`Rules` object is frozen and validated when it is made: if it exists, a
game can be played under it. Option values are spelled as in the game record.

>>> rules = Rules(player_count=4)
>>> rules.hand_sizes[:3], len(rules.hand_sizes)
((1, 2, 3), 22)
>>> options = {"preset": "countdown", "bidding": "simultaneous", "dealer_bid": "free"}
>>> Rules.from_options(options, player_count=5) == preset("closed-fists", 5)
True
>>> Rules(player_count=8, max_cards=10)
Traceback (most recent call last):
...
upriver.errors.RulesError: 8 players × 10 cards + 1 turn-up needs 81 cards; the most for 8 players is 6
>>> preset("classic", player_count=5).hand_sizes[-3:]
(3, 2, 1)
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from typing import Any, TypeVar

from upriver.errors import RulesError
from upriver.names import quoted
from upriver.options import OPTION, OPTIONS, Bidding, DealerBid, FirstDealer, Kind, Schedule, Trump, TrumpLead
from upriver.scoring import CustomScoring, Scoring, ScoringRule

__all__ = [
    "DEFAULT_PRESET",
    "OPTION_NAMES",
    "PRESETS",
    "Bidding",
    "CustomScoring",
    "DealerBid",
    "FirstDealer",
    "Preset",
    "Rules",
    "Schedule",
    "Scoring",
    "Trump",
    "TrumpLead",
    "default_max_cards",
    "most_cards",
    "preset",
]

_E = TypeVar("_E", bound=enum.Enum)

DECK_SIZE = 52
MIN_PLAYERS = 3
MAX_PLAYERS = 8


_WRITTEN_SCHEDULES: tuple[enum.Enum, ...] = (Schedule.UP_DOWN, Schedule.DOWN_UP)
"""The schedules a record names by text; an explicit one is written as its list of sizes."""

OPTION_NAMES = ("preset", *(option.name for option in OPTIONS))
"""The keys of a rules section in a game record, and of :meth:`Rules.from_options`: ``preset`` and
every option of :data:`upriver.options.OPTIONS`, in its order."""


def most_cards(players: int) -> int:
    """The largest hand size that leaves one card to turn up for trump."""
    return (DECK_SIZE - 1) // players


def default_max_cards(players: int) -> int:
    """The peak hand size of source 000's table (11, 10, 8, 7 for 4–7 players), else the deck's most."""
    return {4: 11, 5: 10, 6: 8, 7: 7}.get(players, most_cards(players))


def _too_many_cards(players: int, cards: int) -> str:
    return (
        f"{players} players × {cards} cards + 1 turn-up needs {players * cards + 1} cards; "
        f"the most for {players} players is {most_cards(players)}"
    )


def _choice(kind: type[_E], value: object, name: str, listed: tuple[enum.Enum, ...] = ()) -> _E:
    """An option's enum member from the member itself or its record spelling, in any case.

    The refusal lists ``listed`` (default: every member) as the choices.
    """
    if isinstance(value, kind):
        return value
    if isinstance(value, str):
        spelled = value.strip().lower().replace("_", "-").replace(" ", "-")
        for member in kind:
            if member.value == spelled:
                return member
    choices = ", ".join(repr(member.value) for member in listed or tuple(kind))
    if kind is Schedule and listed:
        choices += " or a list of hand sizes such as [1, 2, 3]"
    raise RulesError(f"{name} must be one of {choices}, not {quoted(value)}", option=name)


def _simultaneous_refusal(dealer_bid: DealerBid, *, option: str, preset: Preset | None = None) -> RulesError:
    """The one refusal of simultaneous bidding with a restricted dealer's bid, given or from a preset."""
    whose = f"the {preset.name!r} preset's dealer_bid" if preset is not None else "dealer_bid"
    remedy = "add dealer_bid 'free'" if preset is not None else "use dealer_bid 'free' or sequential bidding"
    if preset is not None and preset.name == "countdown":
        remedy += " or use the 'closed-fists' preset"
    return RulesError(
        f"simultaneous bidding has no last bidder, so {whose} {dealer_bid.value!r} cannot apply; {remedy}",
        option=option,
    )


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class Rules:
    """Every rule option of docs/rules.md §2, validated on construction.

    ``max_cards`` is the peak of ``up-down`` or the start of ``down-up``; ``None``
    means :func:`default_max_cards`. With ``schedule=Schedule.EXPLICIT``,
    ``explicit_sizes`` lists the hand sizes; there a round may use all 52 cards
    and is then played without trump. Read the resolved sizes from
    :attr:`hand_sizes`.
    """

    player_count: int
    schedule: Schedule = Schedule.UP_DOWN
    max_cards: int | None = None
    explicit_sizes: tuple[int, ...] = ()
    first_dealer: FirstDealer = FirstDealer.CHOSEN
    bidding: Bidding = Bidding.SEQUENTIAL
    dealer_bid: DealerBid = DealerBid.FREE
    trump_lead: TrumpLead = TrumpLead.ANY
    scoring: ScoringRule = Scoring.TRICKS_PLUS_TEN
    trump: Trump = Trump.TURN_UP
    blind_one_card: bool = False
    """In a round of one card, each player sees every other player's card but not their own."""
    hand_sizes: tuple[int, ...] = dataclasses.field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for option in OPTIONS:  # in the table's order, so the first refusal is always the same one
            value = getattr(self, option.name)
            if option.read is not None:
                object.__setattr__(self, option.name, option.read(value))
            elif option.kind is Kind.CHOICE:
                object.__setattr__(self, option.name, _choice(option.choice_type, value, option.name))  # type: ignore[arg-type]
            elif option.kind is Kind.SWITCH and not isinstance(value, bool):
                raise RulesError(
                    f"{option.name} must be true or false, not {quoted(value)}", option=option.name
                )
            # max_cards, the one whole number, is checked with the schedule it sizes (_resolve_sizes).
        if not isinstance(self.explicit_sizes, tuple):
            if not isinstance(self.explicit_sizes, list):
                raise RulesError(
                    f"explicit hand sizes are a list of whole numbers, not {quoted(self.explicit_sizes)}",
                    option="schedule",
                )
            object.__setattr__(self, "explicit_sizes", tuple(self.explicit_sizes))
        count = self.player_count
        if not isinstance(count, int) or isinstance(count, bool) or not MIN_PLAYERS <= count <= MAX_PLAYERS:
            raise RulesError(
                f"players must be a whole number from {MIN_PLAYERS} to {MAX_PLAYERS}, not {quoted(count)}"
            )
        if self.bidding is Bidding.SIMULTANEOUS and self.dealer_bid is not DealerBid.FREE:
            raise _simultaneous_refusal(self.dealer_bid, option="dealer_bid")
        object.__setattr__(self, "hand_sizes", self._resolve_sizes())

    def _resolve_sizes(self) -> tuple[int, ...]:
        if self.schedule is Schedule.EXPLICIT:
            if self.max_cards is not None:
                raise RulesError(
                    "max_cards applies to 'up-down' and 'down-up', not to an explicit list",
                    option="max_cards",
                )
            if not self.explicit_sizes:
                raise RulesError(
                    "an explicit schedule needs at least one hand size, e.g. [7]", option="schedule"
                )
            limit = DECK_SIZE // self.player_count
            for size in self.explicit_sizes:
                if not isinstance(size, int) or isinstance(size, bool) or size < 1:
                    raise RulesError(
                        f"hand sizes must be whole numbers of at least 1, not {quoted(size)}",
                        option="schedule",
                    )
                if size > limit:
                    raise RulesError(
                        f"{self.player_count} players × {size} cards needs {self.player_count * size} cards; "
                        f"the deck has 52, so the most for {self.player_count} players is {limit}",
                        option="schedule",
                    )
            return tuple(self.explicit_sizes)
        if self.explicit_sizes:
            raise RulesError(
                f"explicit hand sizes need schedule 'explicit', not {self.schedule.value!r}",
                option="schedule",
            )
        peak = default_max_cards(self.player_count) if self.max_cards is None else self.max_cards
        if not isinstance(peak, int) or isinstance(peak, bool) or peak < 1:
            raise RulesError(
                f"max_cards must be a whole number of at least 1, not {quoted(peak)}", option="max_cards"
            )
        if self.trump is Trump.ROTATE and peak > DECK_SIZE // self.player_count:
            n = self.player_count  # no card is turned up, so the deal may use the whole deck
            raise RulesError(
                f"{n} players × {peak} cards needs {n * peak} cards; the deck has 52, so the most for "
                f"{n} players is {DECK_SIZE // n}",
                option="max_cards",
            )
        if self.trump is Trump.TURN_UP and peak > most_cards(self.player_count):
            raise RulesError(_too_many_cards(self.player_count, peak), option="max_cards")
        up = tuple(range(1, peak + 1))
        down = up[::-1]
        return up + down if self.schedule is Schedule.UP_DOWN else down + up[1:]

    @property
    def rounds(self) -> int:
        """How many rounds a game has."""
        return len(self.hand_sizes)

    def bars_leading_trump(self, trick: int, *, broken: bool) -> bool:
        """Whether a leader holding another suit may not lead trump to trick ``trick`` of a round
        (counted from 0), with trump ``broken`` or not yet: the trump-lead rule, for what a seat infers
        from a lead (only a hand of nothing but trumps could have led it)."""
        if self.trump_lead is TrumpLead.BROKEN:
            return not broken
        return self.trump_lead is TrumpLead.AFTER_FIRST_TRICK and trick == 0

    def replace(self, **changes: object) -> Rules:
        """A copy with some options changed, validated again."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    @classmethod
    def from_options(cls, options: Mapping[str, object], *, player_count: int) -> Rules:
        """Rules from options spelled as in the game record, laid over a preset when one is named.

        This is the one reading of rule options that every adapter uses (records, the
        web lobby, the score keeper, the command line, the RL environments), so they
        accept and refuse exactly the same combinations. Keys are :data:`OPTION_NAMES`;
        ``None`` means "not given". ``schedule`` is ``"up-down"``, ``"down-up"`` or a list
        of hand sizes. Options given override the preset's, one by one and nothing else:
        ``{"preset": "countdown", "bidding": "simultaneous"}`` keeps countdown's hook and
        is refused, because closed fists have no last bidder to hook (add
        ``"dealer_bid": "free"``, or name the ``closed-fists`` preset). A ``schedule``
        given over a preset starts from that schedule's default size unless ``max_cards``
        is given too.

        :raises RulesError: naming the option at fault in :attr:`RulesError.option`.
        """
        for key in options:
            if key not in OPTION_NAMES:
                raise RulesError(
                    f"unknown rule option {quoted(key)}: the options are {', '.join(OPTION_NAMES)}",
                    option=key,
                )
        given = {key: value for key, value in options.items() if value is not None}
        name = given.pop("preset", None)
        fields: dict[str, Any] = {}
        if "schedule" in given:
            schedule = given.pop("schedule")
            if isinstance(schedule, list | tuple):
                fields["schedule"] = Schedule.EXPLICIT
                fields["explicit_sizes"] = tuple(schedule)
            else:
                fields["schedule"] = _choice(Schedule, schedule, "schedule", listed=_WRITTEN_SCHEDULES)
                if fields["schedule"] is Schedule.EXPLICIT:
                    raise RulesError(
                        "an explicit schedule is written as a list of hand sizes, e.g. [1, 2, 3]",
                        option="schedule",
                    )
        for key, value in sorted(given.items(), key=lambda item: OPTION_NAMES.index(item[0])):
            # In the options' own order, so the first refusal is the same whatever order they came in.
            option = OPTION[key]
            if option.read is not None:
                fields[key] = option.read(value)
            elif option.kind is Kind.CHOICE:
                fields[key] = _choice(option.choice_type, value, key)  # type: ignore[arg-type]
            else:
                fields[key] = value  # a whole number or a switch: Rules checks it
        if name is None:
            return cls(player_count=player_count, **fields)
        if not isinstance(name, str):
            raise RulesError(
                f"a preset is named by text, like 'classic', not {quoted(name)}", option="preset"
            )
        found = _preset_named(name)
        kept = found.options.get("dealer_bid", DealerBid.FREE)
        simultaneous = fields.get("bidding") is Bidding.SIMULTANEOUS and "dealer_bid" not in fields
        if simultaneous and isinstance(kept, DealerBid) and kept is not DealerBid.FREE:
            raise _simultaneous_refusal(kept, option="bidding", preset=found)
        return found.rules(player_count, **fields)

    def options(self) -> dict[str, object]:
        """The rule options as a game record writes them, with the peak hand size resolved.

        ``Rules.from_options(rules.options(), player_count=rules.player_count)`` plays
        exactly as ``rules`` does. ``scoring`` is a name, or the object of a custom scoring;
        ``trump`` and ``blind_one_card`` are written only when they are not the default
        (``"turn-up"``, ``false``), so the records of the sources' rules read as they always did.
        """
        written: dict[str, object] = {}
        if self.schedule is Schedule.EXPLICIT:
            written["schedule"] = list(self.explicit_sizes)
        else:
            written["schedule"] = self.schedule.value
            written["max_cards"] = max(self.hand_sizes)
        for option in OPTIONS[2:]:  # the schedule and its size are written above
            value = getattr(self, option.name)
            if option.always_written or value != option.default:
                written[option.name] = value.value if isinstance(value, enum.Enum | CustomScoring) else value
        return written


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class Preset:
    """A named rule set from the sources: fixed options plus the player counts it is written for."""

    name: str
    source: str
    summary: str
    min_players: int
    max_players: int
    options: Mapping[str, object]
    """Rules fields, as enum members."""
    start_cards: int | None = None
    """The first hand size of a ``down-up`` game when ``max_cards`` is not given, capped at
    the deck's most for the player count ("full games start with 8 or 10 cards")."""

    def rules(self, player_count: int, **overrides: object) -> Rules:
        """The preset's rules for this many players; ``overrides`` change single fields.

        :raises RulesError: when the preset is not written for ``player_count`` players,
            or an override makes the rules impossible.
        """
        if (
            not isinstance(player_count, int)
            or isinstance(player_count, bool)
            or not self.min_players <= player_count <= self.max_players
        ):
            raise RulesError(
                f"the {self.name!r} preset (source {self.source}) is for {self.min_players}–"
                f"{self.max_players} players, not {quoted(player_count)}; use custom rules for other counts"
            )
        options: dict[str, object] = {**self.options, **overrides}
        down_up = _choice(Schedule, options.get("schedule", Schedule.UP_DOWN), "schedule") is Schedule.DOWN_UP
        if "max_cards" not in options and down_up and self.start_cards is not None:
            options["max_cards"] = min(self.start_cards, most_cards(player_count))
        return Rules(player_count=player_count, **options)  # type: ignore[arg-type]


CLASSIC = Preset(
    name="classic",
    source="000_e04aff71c7e107c9.txt",
    summary="4–7 players, 1 up to 11/10/8/7 and back down, first Jack deals, "
    "trump must be broken, exact bid scores 10 + bid",
    min_players=4,
    max_players=7,
    options={
        "schedule": Schedule.UP_DOWN,
        "first_dealer": FirstDealer.FIRST_JACK,
        "bidding": Bidding.SEQUENTIAL,
        "dealer_bid": DealerBid.FREE,
        "trump_lead": TrumpLead.BROKEN,
        "scoring": Scoring.TEN_PLUS_BID,
    },
)
"""Source ``000_e04aff71c7e107c9.txt`` (French), its main rules."""

CLASSIC_HOOK = dataclasses.replace(
    CLASSIC,
    name="classic-hook",
    summary="classic with 'screw the dealer': the bids may not total the tricks",
    options={**CLASSIC.options, "dealer_bid": DealerBid.HOOK},
)
"""Source ``000_e04aff71c7e107c9.txt`` (French), its "Vissez le concessionnaire" variation."""

COUNTDOWN = Preset(
    name="countdown",
    source="001_30fd4ee3e97452d8.txt / 003_e379bf01c9006316.txt / 004_59e8131c200403a0.txt",
    summary="4–8 players, from 10 (or the deck's most) down to 1 and back up, left of the "
    "keeper deals, hook on the dealer, 1 a trick + 10 for an exact bid",
    min_players=4,
    max_players=8,
    start_cards=10,
    options={
        "schedule": Schedule.DOWN_UP,
        "first_dealer": FirstDealer.LEFT_OF_KEEPER,
        "bidding": Bidding.SEQUENTIAL,
        "dealer_bid": DealerBid.HOOK,
        "trump_lead": TrumpLead.ANY,
        "scoring": Scoring.TRICKS_PLUS_TEN,
    },
)
"""Sources ``001_30fd4ee3e97452d8.txt`` (Czech), ``003_e379bf01c9006316.txt`` (Italian) and
``004_59e8131c200403a0.txt`` (Swedish): one rule set in three languages."""

CLOSED_FISTS = dataclasses.replace(
    COUNTDOWN,
    name="closed-fists",
    summary="countdown with bids shown together on closed fists, so no hook",
    options={**COUNTDOWN.options, "bidding": Bidding.SIMULTANEOUS, "dealer_bid": DealerBid.FREE},
)
"""Sources 001/003/004, their variation: all reveal a bid at once, and the total may equal the tricks."""

OVERBID = Preset(
    name="overbid",
    source="002_10cdc975e3438e45.txt",
    summary="3–7 players, 1 up and back down, the dealer must overbid, 1 a trick + 10 for an exact bid",
    min_players=3,
    max_players=7,
    options={
        "schedule": Schedule.UP_DOWN,
        "first_dealer": FirstDealer.CHOSEN,
        "bidding": Bidding.SEQUENTIAL,
        "dealer_bid": DealerBid.OVERBID,
        "trump_lead": TrumpLead.ANY,
        "scoring": Scoring.TRICKS_PLUS_TEN,
    },
)
"""Source ``002_10cdc975e3438e45.txt`` (French, after Pagat): the dealer must overbid."""

PRESETS: dict[str, Preset] = {p.name: p for p in (CLASSIC, CLASSIC_HOOK, COUNTDOWN, CLOSED_FISTS, OVERBID)}
"""Every preset by name."""

DEFAULT_PRESET = CLASSIC.name
"""The preset a command, an environment or a page's form starts from when none is chosen; the pages
read it from :func:`rules_catalogue` (``default_preset``)."""

_ALIASES = {"000": "classic", "001": "countdown", "002": "overbid", "003": "countdown", "004": "countdown"}


def preset(name: str, player_count: int, **overrides: object) -> Rules:
    """The rules of a named preset (or a source number such as ``"000"``) for ``player_count`` players.

    :raises RulesError: for an unknown name, a player count the preset is not for, or
        overrides that make the rules impossible.
    """
    return _preset_named(name).rules(player_count, **overrides)


def _preset_named(name: str) -> Preset:
    key = _ALIASES.get(name.strip().lower(), name.strip().lower())
    found = PRESETS.get(key)
    if found is None:
        raise RulesError(
            f"unknown preset {quoted(name)}: expected one of {', '.join(PRESETS)}", option="preset"
        )
    return found


def rules_catalogue() -> dict[str, object]:
    """Every preset and every rule option, spelled as in the game record: what a form offers.

    The one options payload of the web lobby (``GET /api/options``) and the score keeper
    (``GET /api/sheets/options``): ``{"players": {"min", "max"}, "presets": [{"name",
    "seed", "summary", "min_players", "max_players", "options": {option: value}}],
    "rules": {option: [choice, …]}, "default_preset": name}``. A preset's ``max_cards`` is
    ``None`` where the peak depends on the player count (:func:`default_max_cards`), and 10 for
    the countdown family: the first hand size of its down-up game, which with more players starts at the
    deck's most instead. ``rules`` lists the choices of every option that has a fixed set of
    them; ``schedule`` may also be a list of hand sizes, ``max_cards`` a whole number, ``scoring``
    a custom scoring object and ``blind_one_card`` true or false (see :meth:`Rules.from_options`).
    """
    return {
        "players": {"min": MIN_PLAYERS, "max": MAX_PLAYERS},
        "presets": [
            {
                "name": p.name,
                "source": p.source,
                "summary": p.summary,
                "min_players": p.min_players,
                "max_players": p.max_players,
                "options": {
                    "schedule": p.options["schedule"].value,  # type: ignore[attr-defined]
                    "max_cards": p.start_cards,
                    **{
                        option.name: p.options[option.name].value  # type: ignore[attr-defined]
                        for option in OPTIONS
                        if option.in_presets and option.name != "schedule"
                    },
                },
            }
            for p in PRESETS.values()
        ],
        "rules": {
            option.name: [
                option.spelled(value)
                for value in option.choices
                if option.name != "schedule" or value in _WRITTEN_SCHEDULES
            ]
            for option in OPTIONS
            if option.kind is Kind.CHOICE
        },
        "default_preset": DEFAULT_PRESET,
    }
