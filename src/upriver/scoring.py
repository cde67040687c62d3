"""How a round is scored: the named scorings, a custom one, and a seat's points for a round.

This module is the one owner of scoring: the engine (:mod:`upriver.game`), the score
sheet, the record reader, the compiled kernel (through a table of points it is given)
and every bot ask :func:`round_score` or the helpers below, never a copy of the rule.

With *d* = |tricks − bid| (docs/rules.md §2.8):

============== ================= =====================================================
spelling       exact bid         missed bid
============== ================= =====================================================
ten-plus-bid   10 + bid          0
tricks-plus-ten 10 + tricks      tricks
negative       10                −10·d
balanced       10 + bid          −2·d
hybrid         10 + bid          tricks if under the bid, 0 if over
doubles        10 + 2·bid        −2·d
triples        10 + 3·bid        −3·d
squares        10 + bid²         −d²
anderson       v·bid             −v·d, v = 10 × the round's number
============== ================= =====================================================

>>> round_score(Scoring.SQUARES, 2, 4)
-4
>>> round_score(Scoring.ANDERSON, 2, 2, round_number=3)
60
>>> round_score(CustomScoring(exact_bonus=5, per_trick=2), 1, 1)
7
>>> CustomScoring(exact_bonus=0)
Traceback (most recent call last):
...
upriver.errors.RulesError: a custom scoring must pay an exact bid more than a miss, but ... does: ...
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping

from upriver.errors import RulesError
from upriver.names import quoted

__all__ = [
    "CUSTOM_KEYS",
    "MOST_TRICKS",
    "CustomScoring",
    "Scoring",
    "ScoringRule",
    "custom_scoring",
    "round_score",
    "scoring_of",
    "tricks_pay_past_the_bid",
]

MOST_TRICKS = 17
"""The most tricks a round can have (three players, 17 cards each): the bids a scoring is checked for."""


class Scoring(enum.Enum):
    """How a round is scored, by name (docs/rules.md §2.8)."""

    TEN_PLUS_BID = "ten-plus-bid"
    """Exact bid: 10 + bid; a miss: 0 (source 000; Board Game Arena's *Blackout*)."""
    TRICKS_PLUS_TEN = "tricks-plus-ten"
    """One point a trick, plus 10 for an exact bid; no penalty (sources 001–004; BGA's *Positive*)."""
    NEGATIVE = "negative"
    """Exact: 10; a miss: −10 for every trick off (BGA's *Negative*)."""
    BALANCED = "balanced"
    """Exact: 10 + bid; a miss: −2 for every trick off (BGA's *Balanced*)."""
    HYBRID = "hybrid"
    """Exact: 10 + bid; under the bid: the tricks taken; over it: 0 (BGA's *Hybrid*)."""
    DOUBLES = "doubles"
    """Exact: 10 + 2 × bid; a miss: −2 for every trick off (BGA's *Doubles*)."""
    TRIPLES = "triples"
    """Exact: 10 + 3 × bid; a miss: −3 for every trick off (BGA's *Triples*)."""
    SQUARES = "squares"
    """Exact: 10 + bid²; a miss: −(tricks off)² (BGA's *Squares*)."""
    ANDERSON = "anderson"
    """Exact: v × bid; a miss: −v for every trick off; v is 10 × the round's number (BGA's *Anderson*)."""


CUSTOM_KEYS = ("exact_bonus", "per_trick", "per_trick_when", "per_bid", "miss_per_trick_off")
"""The keys of a custom scoring object, in the record's order."""
_WHEN = ("always", "exact")
_MOST_POINTS = 1000


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class CustomScoring:
    """A scoring given by its numbers: an exact bid scores ``exact_bonus + per_bid·bid + per_trick·tricks``;
    a miss scores ``per_trick·tricks`` when ``per_trick_when`` is ``"always"`` (else 0), minus
    ``miss_per_trick_off`` for every trick off. The defaults are ``tricks-plus-ten``.

    :raises RulesError: for a value that is not a whole number from 0 to 1000, an unknown
        ``per_trick_when``, or numbers that pay no exact bid more than missing it by a trick.
    """

    exact_bonus: int = 10
    per_trick: int = 1
    per_trick_when: str = "always"
    per_bid: int = 0
    miss_per_trick_off: int = 0

    def __post_init__(self) -> None:
        for name in ("exact_bonus", "per_trick", "per_bid", "miss_per_trick_off"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= _MOST_POINTS:
                raise RulesError(
                    f"scoring.{name} must be a whole number from 0 to {_MOST_POINTS}, not {quoted(value)}",
                    option="scoring",
                    facts={"field": name, "case": "range", "most": _MOST_POINTS},
                )
        if self.per_trick_when not in _WHEN:
            raise RulesError(
                f"scoring.per_trick_when must be 'always' or 'exact', not {quoted(self.per_trick_when)}",
                option="scoring",
                facts={"field": "per_trick_when", "case": "when"},
            )
        if not any(_pays_exact(self, bid) for bid in range(MOST_TRICKS)):
            raise RulesError(
                "a custom scoring must pay an exact bid more than a miss, but with "
                f"exact_bonus {self.exact_bonus}, per_trick {self.per_trick} {self.per_trick_when!r}, "
                f"per_bid {self.per_bid} and miss_per_trick_off {self.miss_per_trick_off} no exact bid does: "
                f"bid 0 and take 0 scores {round_score(self, 0, 0)}, "
                f"bid 0 and take 1 scores {round_score(self, 0, 1)}",
                option="scoring",
                facts={
                    "case": "no_exact_pay",
                    "made": round_score(self, 0, 0),
                    "missed": round_score(self, 0, 1),
                },
            )

    @property
    def value(self) -> dict[str, object]:
        """The scoring as a record writes it: the object of its five numbers."""
        return {name: getattr(self, name) for name in CUSTOM_KEYS}


ScoringRule = Scoring | CustomScoring
"""A table's scoring: a named one or a custom one."""


def _pays_exact(scoring: CustomScoring, bid: int) -> bool:
    """Whether an exact ``bid`` scores more than missing it by one trick either way (the bid below
    the most tricks, so that it can be missed both ways in some round)."""
    exact = round_score(scoring, bid, bid)
    return all(exact > round_score(scoring, bid, t) for t in (bid - 1, bid + 1) if t >= 0)


def round_score(scoring: ScoringRule, bid: int, tricks: int, round_number: int = 1) -> int:
    """Points for one seat's round under ``scoring``; ``round_number`` (1-based) matters to ``anderson``."""
    exact = bid == tricks
    if type(scoring) is CustomScoring:
        if exact:
            return scoring.exact_bonus + scoring.per_bid * bid + scoring.per_trick * tricks
        paid = scoring.per_trick * tricks if scoring.per_trick_when == "always" else 0
        return paid - scoring.miss_per_trick_off * abs(tricks - bid)
    if scoring is Scoring.TEN_PLUS_BID:
        return 10 + bid if exact else 0
    if scoring is Scoring.TRICKS_PLUS_TEN:
        return tricks + (10 if exact else 0)
    off = abs(tricks - bid)
    if scoring is Scoring.NEGATIVE:
        return 10 if exact else -10 * off
    if scoring is Scoring.BALANCED:
        return 10 + bid if exact else -2 * off
    if scoring is Scoring.HYBRID:
        return 10 + bid if exact else (tricks if tricks < bid else 0)
    if scoring is Scoring.DOUBLES:
        return 10 + 2 * bid if exact else -2 * off
    if scoring is Scoring.TRIPLES:
        return 10 + 3 * bid if exact else -3 * off
    if scoring is Scoring.SQUARES:
        return 10 + bid * bid if exact else -off * off
    value = 10 * round_number
    return value * bid if exact else -value * off


def tricks_pay_past_the_bid(scoring: ScoringRule) -> bool:
    """Whether a seat already over its bid still gains by taking more tricks (each trick a point).

    The rule of thumb (``basic`` and the kernel's rollouts) then takes every trick it can once its
    bid is lost; under a scoring that charges for tricks off, it sheds them instead.
    """
    return round_score(scoring, 0, 2) > round_score(scoring, 0, 1)


def custom_scoring(value: Mapping[object, object]) -> CustomScoring:
    """A custom scoring from its record object; keys not given keep ``tricks-plus-ten``'s numbers.

    :raises RulesError: for an unknown key or a value :class:`CustomScoring` refuses.
    """
    for key in value:
        if key not in CUSTOM_KEYS:
            raise RulesError(
                f"unknown key {quoted(key)} in a custom scoring: the keys are {', '.join(CUSTOM_KEYS)}",
                option="scoring",
            )
    return CustomScoring(**{str(key): item for key, item in value.items()})  # type: ignore[arg-type]


def scoring_of(value: object) -> ScoringRule:
    """The scoring meant by ``value``: a :class:`Scoring`, its spelling in any case, a
    :class:`CustomScoring` or a custom scoring's object.

    :raises RulesError: naming the choices, for anything else.
    """
    if isinstance(value, Scoring | CustomScoring):
        return value
    if isinstance(value, Mapping):
        return custom_scoring(value)
    if isinstance(value, str):
        spelled = value.strip().lower().replace("_", "-").replace(" ", "-")
        for member in Scoring:
            if member.value == spelled:
                return member
    choices = ", ".join(repr(member.value) for member in Scoring)
    raise RulesError(
        f"scoring must be one of {choices} or a custom scoring object, not {quoted(value)}",
        option="scoring",
    )
