"""The rule options on which the seed documents differ, and one named preset per rule set.

A :class:`Rules` object is frozen and validated when it is made: if it exists, a
game can be played under it. Option values are spelled as in the game record.

>>> rules = Rules(players=4)
>>> rules.hand_sizes[:3], len(rules.hand_sizes)
((1, 2, 3), 22)
>>> Rules(players=8, max_cards=10)
Traceback (most recent call last):
...
upriver.errors.RulesError: 8 players × 10 cards + 1 turn-up needs 81 cards; the most for 8 players is 6
>>> preset("classic", players=5).hand_sizes[-3:]
(3, 2, 1)
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping

from upriver.errors import RulesError

__all__ = [
    "PRESETS",
    "Bidding",
    "DealerBid",
    "FirstDealer",
    "Preset",
    "Rules",
    "Schedule",
    "Scoring",
    "TrumpLead",
    "default_max_cards",
    "most_cards",
    "preset",
]

DECK_SIZE = 52
MIN_PLAYERS = 3
MAX_PLAYERS = 8


class Schedule(enum.Enum):
    """How the hand size moves from round to round."""

    UP_DOWN = "up-down"
    """1, 2, … max, max, … 2, 1: the peak is played twice (seed 000)."""
    DOWN_UP = "down-up"
    """max, max − 1, … 1, … max: one card is played once (seeds 001/003/004)."""
    EXPLICIT = "explicit"
    """A list of hand sizes given in full."""


class FirstDealer(enum.Enum):
    """How the first dealer of a game is chosen."""

    FIRST_JACK = "first-jack"
    """Cards are dealt face up one at a time; the first player dealt a Jack deals (seed 000)."""
    LEFT_OF_KEEPER = "left-of-keeper"
    """The player to the left of the score keeper deals (seeds 001/003/004)."""
    CHOSEN = "chosen"
    """The players choose a seat (seed 002 leaves it open)."""


class Bidding(enum.Enum):
    """Whether bids are called in turn or revealed together."""

    SEQUENTIAL = "sequential"
    SIMULTANEOUS = "simultaneous"
    """"Closed fists": bids stay hidden until everyone has bid."""


class DealerBid(enum.Enum):
    """The restriction, if any, on the last bid of a round (the dealer's)."""

    FREE = "free"
    HOOK = "hook"
    """The total of all bids may not equal the number of tricks ("screw the dealer")."""
    OVERBID = "overbid"
    """The total must exceed the number of tricks; when no bid can, the dealer bids the hand size."""


class TrumpLead(enum.Enum):
    """Whether trump may be led before it is broken."""

    ANY = "any"
    BROKEN = "broken"
    """No trump lead until a trump was played in an earlier trick, unless the leader holds only trumps."""


class Scoring(enum.Enum):
    """How a round is scored."""

    TEN_PLUS_BID = "ten-plus-bid"
    """Exact bid: 10 + bid; a miss: 0 (seed 000)."""
    TRICKS_PLUS_TEN = "tricks-plus-ten"
    """One point a trick, plus 10 for an exact bid; no penalty (seeds 001–004)."""


def most_cards(players: int) -> int:
    """The largest hand size that leaves one card to turn up for trump."""
    return (DECK_SIZE - 1) // players


def default_max_cards(players: int) -> int:
    """The peak hand size of seed 000's table (11, 10, 8, 7 for 4–7 players), else the deck's most."""
    return {4: 11, 5: 10, 6: 8, 7: 7}.get(players, most_cards(players))


def _too_many_cards(players: int, cards: int) -> str:
    return (
        f"{players} players × {cards} cards + 1 turn-up needs {players * cards + 1} cards; "
        f"the most for {players} players is {most_cards(players)}"
    )


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class Rules:
    """Every rule option of RULES.md, validated on construction.

    ``max_cards`` is the peak of ``up-down`` or the start of ``down-up``; ``None``
    means :func:`default_max_cards`. With ``schedule=Schedule.EXPLICIT``,
    ``explicit_sizes`` lists the hand sizes; there a round may use all 52 cards
    and is then played without trump. Read the resolved sizes from
    :attr:`hand_sizes`.
    """

    players: int
    schedule: Schedule = Schedule.UP_DOWN
    max_cards: int | None = None
    explicit_sizes: tuple[int, ...] = ()
    first_dealer: FirstDealer = FirstDealer.CHOSEN
    bidding: Bidding = Bidding.SEQUENTIAL
    dealer_bid: DealerBid = DealerBid.FREE
    trump_lead: TrumpLead = TrumpLead.ANY
    scoring: Scoring = Scoring.TRICKS_PLUS_TEN
    hand_sizes: tuple[int, ...] = dataclasses.field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name, kind in (
            ("schedule", Schedule),
            ("first_dealer", FirstDealer),
            ("bidding", Bidding),
            ("dealer_bid", DealerBid),
            ("trump_lead", TrumpLead),
            ("scoring", Scoring),
        ):
            value = getattr(self, name)
            if isinstance(value, str) and not isinstance(value, enum.Enum):
                # The written form of the game record is accepted as well as the enum.
                spelled = value.strip().lower().replace("_", "-")
                value = next((member for member in kind if member.value == spelled), value)
                object.__setattr__(self, name, value)
            if not isinstance(value, kind):
                choices = ", ".join(repr(member.value) for member in kind)
                raise RulesError(f"{name} must be one of {choices}, not {value!r}")
        if not isinstance(self.explicit_sizes, tuple):
            object.__setattr__(self, "explicit_sizes", tuple(self.explicit_sizes))
        if not isinstance(self.players, int) or not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise RulesError(
                f"players must be a whole number from {MIN_PLAYERS} to {MAX_PLAYERS}, not {self.players!r}"
            )
        if self.bidding is Bidding.SIMULTANEOUS and self.dealer_bid is not DealerBid.FREE:
            raise RulesError(
                f"simultaneous bidding has no last bidder, so dealer_bid {self.dealer_bid.value!r} "
                "cannot apply; use dealer_bid 'free' or sequential bidding"
            )
        object.__setattr__(self, "hand_sizes", self._resolve_sizes())

    def _resolve_sizes(self) -> tuple[int, ...]:
        if self.schedule is Schedule.EXPLICIT:
            if self.max_cards is not None:
                raise RulesError("max_cards applies to 'up-down' and 'down-up', not to an explicit list")
            if not self.explicit_sizes:
                raise RulesError("an explicit schedule needs at least one hand size, e.g. [7]")
            limit = DECK_SIZE // self.players
            for size in self.explicit_sizes:
                if not isinstance(size, int) or isinstance(size, bool) or size < 1:
                    raise RulesError(f"hand sizes must be whole numbers of at least 1, not {size!r}")
                if size > limit:
                    raise RulesError(
                        f"{self.players} players × {size} cards needs {self.players * size} cards; "
                        f"the deck has 52, so the most for {self.players} players is {limit}"
                    )
            return tuple(self.explicit_sizes)
        if self.explicit_sizes:
            raise RulesError(f"explicit hand sizes need schedule 'explicit', not {self.schedule.value!r}")
        peak = default_max_cards(self.players) if self.max_cards is None else self.max_cards
        if not isinstance(peak, int) or isinstance(peak, bool) or peak < 1:
            raise RulesError(f"max_cards must be a whole number of at least 1, not {peak!r}")
        if peak > most_cards(self.players):
            raise RulesError(_too_many_cards(self.players, peak))
        up = tuple(range(1, peak + 1))
        down = up[::-1]
        return up + down if self.schedule is Schedule.UP_DOWN else down + up[1:]

    @property
    def rounds(self) -> int:
        """How many rounds a game has."""
        return len(self.hand_sizes)

    def replace(self, **changes: object) -> Rules:
        """A copy with some options changed, validated again."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class Preset:
    """A named rule set from the seeds: fixed options plus the player counts it is written for."""

    name: str
    seed: str
    summary: str
    min_players: int
    max_players: int
    options: Mapping[str, object]

    def rules(self, players: int, **overrides: object) -> Rules:
        """The preset's rules for this many players; ``overrides`` change single options."""
        if not self.min_players <= players <= self.max_players:
            raise RulesError(
                f"the {self.name!r} preset (seed {self.seed}) is for {self.min_players}–"
                f"{self.max_players} players, not {players}; use custom rules for other counts"
            )
        options: dict[str, object] = {**self.options, **overrides}
        if options.get("max_cards") == "start":
            # "full games start with 8 or 10 cards": 10 where the deck allows it; other schedules' default.
            down_up = options.get("schedule") is Schedule.DOWN_UP
            options["max_cards"] = min(10, most_cards(players)) if down_up else None
        return Rules(players=players, **options)  # type: ignore[arg-type]


CLASSIC = Preset(
    name="classic",
    seed="000_e04aff71c7e107c9.txt",
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
"""Seed ``000_e04aff71c7e107c9.txt`` (French), its main rules."""

CLASSIC_HOOK = dataclasses.replace(
    CLASSIC,
    name="classic-hook",
    summary="classic with 'screw the dealer': the bids may not total the tricks",
    options={**CLASSIC.options, "dealer_bid": DealerBid.HOOK},
)
"""Seed ``000_e04aff71c7e107c9.txt`` (French), its "Vissez le concessionnaire" variation."""

COUNTDOWN = Preset(
    name="countdown",
    seed="001_30fd4ee3e97452d8.txt / 003_e379bf01c9006316.txt / 004_59e8131c200403a0.txt",
    summary="4–8 players, from 10 (or the deck's most) down to 1 and back up, left of the "
    "keeper deals, hook on the dealer, 1 a trick + 10 for an exact bid",
    min_players=4,
    max_players=8,
    options={
        "schedule": Schedule.DOWN_UP,
        "max_cards": "start",
        "first_dealer": FirstDealer.LEFT_OF_KEEPER,
        "bidding": Bidding.SEQUENTIAL,
        "dealer_bid": DealerBid.HOOK,
        "trump_lead": TrumpLead.ANY,
        "scoring": Scoring.TRICKS_PLUS_TEN,
    },
)
"""Seeds ``001_30fd4ee3e97452d8.txt`` (Czech), ``003_e379bf01c9006316.txt`` (Italian) and
``004_59e8131c200403a0.txt`` (Swedish): one rule set in three languages."""

CLOSED_FISTS = dataclasses.replace(
    COUNTDOWN,
    name="closed-fists",
    summary="countdown with bids shown together on closed fists, so no hook",
    options={**COUNTDOWN.options, "bidding": Bidding.SIMULTANEOUS, "dealer_bid": DealerBid.FREE},
)
"""Seeds 001/003/004, their variation: everyone reveals a bid at once, and the total may equal the tricks."""

OVERBID = Preset(
    name="overbid",
    seed="002_10cdc975e3438e45.txt",
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
"""Seed ``002_10cdc975e3438e45.txt`` (French, after Pagat): the dealer must overbid."""

PRESETS: dict[str, Preset] = {p.name: p for p in (CLASSIC, CLASSIC_HOOK, COUNTDOWN, CLOSED_FISTS, OVERBID)}
"""Every preset by name."""

_ALIASES = {"000": "classic", "001": "countdown", "002": "overbid", "003": "countdown", "004": "countdown"}


def preset(name: str, players: int, **overrides: object) -> Rules:
    """The rules of a named preset (or a seed number such as ``"000"``) for ``players`` players."""
    key = _ALIASES.get(name.strip().lower(), name.strip().lower())
    found = PRESETS.get(key)
    if found is None:
        raise RulesError(f"unknown preset {name!r}: expected one of {', '.join(PRESETS)}")
    return found.rules(players, **overrides)
