"""The one table of rule options: for each, its name, kind, default, sources and every adapter's spelling.

A rule option is a choice on which the source documents differ (``docs/rules.md`` §2). Each
row of :data:`OPTIONS` says all that the code base needs to know about one option besides what it
means in play (the engine's part, :mod:`upriver.game`):

- its ``name``: the :class:`~upriver.rules.Rules` field, the key of a game record's rules and of
  :meth:`~upriver.rules.Rules.from_options`;
- its ``kind`` (a choice of an enum's values, a whole number, true or false) and its ``default``;
- the sources that use it, and the values that no source uses (the house rules);
- the command line's flag and help (:mod:`upriver.cli.options` makes one shared set of flags);
- the words of the pages and the terminal: the catalogue keys ``option.<name>`` and
  ``rule.<name>.<value>``;
- the kernel's number for each value and its place in the kernel's options (:mod:`upriver.fast.api`);
- the bits of the RL observation that show it (:mod:`upriver.rl.encoding`).

:class:`~upriver.rules.Rules` validates, reads and writes its options from this table, and the
options catalogue the pages get (:func:`upriver.rules.rules_catalogue`), the tests' Hypothesis
strategies, the kernel's numbers and the observation's bits are all derived from it.

>>> [option.name for option in OPTIONS][:4]
['schedule', 'max_cards', 'first_dealer', 'bidding']
>>> OPTION["bidding"].flag, OPTION["bidding"].default
('--bidding', <Bidding.SEQUENTIAL: 'sequential'>)
>>> OPTION["bidding"].value_keys()
('rule.bidding.sequential', 'rule.bidding.simultaneous')
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Mapping

from upriver.scoring import Scoring, scoring_of

__all__ = [
    "OPTION",
    "OPTIONS",
    "Bidding",
    "Bit",
    "DealerBid",
    "FirstDealer",
    "Kind",
    "RuleOption",
    "Schedule",
    "Trump",
    "TrumpLead",
]


class Schedule(enum.Enum):
    """How the hand size moves from round to round."""

    UP_DOWN = "up-down"
    """1, 2, … max, max, … 2, 1: the peak is played twice (source 000)."""
    DOWN_UP = "down-up"
    """max, max − 1, … 1, … max: one card is played once (sources 001/003/004)."""
    EXPLICIT = "explicit"
    """A list of hand sizes given in full."""


class FirstDealer(enum.Enum):
    """How the first dealer of a game is chosen."""

    FIRST_JACK = "first-jack"
    """Cards are dealt face up one at a time; the first player dealt a Jack deals (source 000)."""
    LEFT_OF_KEEPER = "left-of-keeper"
    """The player to the left of the score keeper deals (sources 001/003/004)."""
    CHOSEN = "chosen"
    """The players choose a seat (source 002 leaves it open)."""


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
    AFTER_FIRST_TRICK = "after-first-trick"
    """No trump lead to the first trick, unless the leader holds only trumps; any later trick may
    be led with trump (Trickster Cards)."""


class Trump(enum.Enum):
    """How each round's trump suit is chosen."""

    TURN_UP = "turn-up"
    """The card turned up after the deal names trump (every source)."""
    ROTATE = "rotate"
    """Hearts, diamonds, clubs, spades, then a round without trump, again and again from the first
    round; no card is turned up (Nomination Whist)."""


class Kind(enum.Enum):
    """What an option's value is."""

    CHOICE = "choice"
    """One of an enum's values, spelled as in the record (``scoring`` may also be a custom object)."""
    WHOLE = "whole number"
    SWITCH = "true or false"


@dataclasses.dataclass(frozen=True, slots=True)
class Bit:
    """One bit of the RL observation (:data:`upriver.rl.encoding.FIELDS`): ``index`` of the field
    ``field`` is 1 when the option's value is ``value``."""

    field: str
    index: int
    value: object


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class RuleOption:
    """One rule option, as every part of the code base spells it (see the module's docstring)."""

    name: str
    kind: Kind
    choices: tuple[object, ...] = ()
    """The values of a choice in their order (an enum's members), or ``(False, True)`` for a switch."""
    default: object
    """The value when it is not given; ``None`` for ``max_cards``: it depends on the player count."""
    section: str
    """Its clause in ``docs/rules.md``."""
    sources: str
    """Which source uses which value, as ``docs/rules.md`` §2's table says."""
    house: tuple[object, ...] = ()
    """The values no source document uses (the house rules): self-play seeds keep to the others."""
    always_written: bool = True
    """Whether :meth:`upriver.rules.Rules.options` writes it even at its default; the house-rule
    options are written only when set, so the records of the sources' rules read as they always did."""
    in_presets: bool = True
    """Whether a preset names a value of it, so the catalogue lists each preset's."""
    named: bool = True
    """Whether the catalogues name it (``option.<name>``)."""
    worded: bool = True
    """Whether the catalogues say its values in a sentence (``rule.<name>.<value>``)."""
    help: str | None = None
    """The command line's help for its flag, ``{choices}`` standing for the values; ``None``: no flag."""
    kernel: str | None = None
    """Its place in the kernel's options: the name of a constant of :mod:`upriver.fast.policies`."""
    kernel_codes: Mapping[object, int] = dataclasses.field(default_factory=dict)
    """The kernel's number for each value, as :mod:`upriver.fast.policies` names them."""
    observation: tuple[Bit, ...] = ()
    """The bits of the RL observation that show the value."""
    read: Callable[[object], object] | None = None
    """How a value spelled as in a record becomes the field's (``None``: by :attr:`kind`)."""

    @property
    def flag(self) -> str | None:
        """The command line's flag, ``--trump-lead`` for ``trump_lead``; ``None`` when it has none."""
        return None if self.help is None else "--" + self.name.replace("_", "-")

    @property
    def choice_type(self) -> type[enum.Enum] | None:
        """The enum a choice's values belong to."""
        if self.kind is Kind.CHOICE and self.choices:
            return type(self.choices[0])  # type: ignore[return-value]
        return None

    def spelled(self, value: object) -> str:
        """``value`` as the record and the catalogue keys spell it: ``"after-first-trick"``, ``"true"``."""
        if isinstance(value, enum.Enum):
            return str(value.value)
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)

    def catalogue_keys(self) -> tuple[str, ...]:
        """Its keys in the catalogues of words: its name, ``option.<name>``, and the sentences that
        say its values, ``rule.<name>.<value>`` (see :meth:`value_keys`)."""
        return ((f"option.{self.name}",) if self.named else ()) + self.value_keys()

    def value_keys(self) -> tuple[str, ...]:
        """The catalogue keys that say a value in a sentence, ``rule.<name>.<value>``: every value
        of a choice, and for a switch only ``true`` (a rule that is off is not said)."""
        if not self.worded:
            return ()
        shown = (True,) if self.kind is Kind.SWITCH else self.choices
        return tuple(f"rule.{self.name}.{self.spelled(value)}" for value in shown)

    def source_values(self) -> tuple[object, ...]:
        """The values some source document uses."""
        return tuple(value for value in self.choices if value not in self.house)


OPTIONS: tuple[RuleOption, ...] = (
    RuleOption(
        name="schedule",
        kind=Kind.CHOICE,
        choices=tuple(Schedule),
        default=Schedule.UP_DOWN,
        section="2.2",
        sources="000: up-down; 001/003/004: down-up",
        worded=False,
        help="Override the schedule: up-down, down-up, or hand sizes like 1,2,1.",
    ),
    RuleOption(
        name="max_cards",
        kind=Kind.WHOLE,
        default=None,
        section="2.3",
        sources="000's table; 001/003/004: 8 or 10",
        in_presets=False,
        named=False,
        worded=False,
        help="Override the peak of up-down / the start of down-up.",
    ),
    RuleOption(
        name="first_dealer",
        kind=Kind.CHOICE,
        choices=tuple(FirstDealer),
        default=FirstDealer.CHOSEN,
        section="2.4",
        sources="000: first-jack; 001/003/004: left-of-keeper; 002 is silent",
    ),
    RuleOption(
        name="bidding",
        kind=Kind.CHOICE,
        choices=tuple(Bidding),
        default=Bidding.SEQUENTIAL,
        section="2.5",
        sources="all: sequential; 001/003/004's variation: simultaneous",
        help="Override how bids are made: {choices}.",
        kernel="SIMULTANEOUS",
        kernel_codes={Bidding.SEQUENTIAL: 0, Bidding.SIMULTANEOUS: 1},
        observation=(Bit("rules", 0, Bidding.SIMULTANEOUS),),
    ),
    RuleOption(
        name="dealer_bid",
        kind=Kind.CHOICE,
        choices=tuple(DealerBid),
        default=DealerBid.FREE,
        section="2.6",
        sources="000: free; 000's variation and 001/003/004: hook; 002: overbid",
        help="Override the dealer's restriction: {choices}.",
        kernel="DEALER_RULE",
        kernel_codes={DealerBid.FREE: 0, DealerBid.HOOK: 1, DealerBid.OVERBID: 2},
        observation=(
            Bit("rules", 1, DealerBid.FREE),
            Bit("rules", 2, DealerBid.HOOK),
            Bit("rules", 3, DealerBid.OVERBID),
        ),
    ),
    RuleOption(
        name="trump_lead",
        kind=Kind.CHOICE,
        choices=tuple(TrumpLead),
        default=TrumpLead.ANY,
        section="2.7",
        sources="001–004: any; 000: broken; Trickster Cards: after-first-trick",
        house=(TrumpLead.AFTER_FIRST_TRICK,),
        help="Override whether trump may be led: {choices}.",
        kernel="LEAD_RULE",
        kernel_codes={TrumpLead.ANY: 0, TrumpLead.BROKEN: 1, TrumpLead.AFTER_FIRST_TRICK: 2},
        observation=(
            Bit("rules", 4, TrumpLead.BROKEN),
            Bit("trump_first_trick", 0, TrumpLead.AFTER_FIRST_TRICK),
        ),
    ),
    RuleOption(
        name="scoring",
        kind=Kind.CHOICE,
        choices=tuple(Scoring),
        default=Scoring.TRICKS_PLUS_TEN,
        section="2.8",
        sources="000: ten-plus-bid; 001–004: tricks-plus-ten; Board Game Arena: the others",
        house=tuple(s for s in Scoring if s not in (Scoring.TEN_PLUS_BID, Scoring.TRICKS_PLUS_TEN)),
        help="Override the scoring: {choices}, or a custom one as JSON such as "
        '\'{{"exact_bonus": 20, "per_trick": 2, "per_trick_when": "exact", "miss_per_trick_off": 5}}\'.',
        # The kernel reads a scoring as its points for every bid and take (upriver.fast.api.round_opts).
        observation=(Bit("rules", 5, Scoring.TEN_PLUS_BID), Bit("rules", 6, Scoring.TRICKS_PLUS_TEN)),
        read=scoring_of,
    ),
    RuleOption(
        name="trump",
        kind=Kind.CHOICE,
        choices=tuple(Trump),
        default=Trump.TURN_UP,
        section="2.9",
        sources="every source: turn-up; Nomination Whist: rotate",
        house=(Trump.ROTATE,),
        always_written=False,
        in_presets=False,
        help="Override how trump is chosen: {choices} (hearts, diamonds, clubs, spades, no trump).",
        kernel="ROTATE",
        kernel_codes={Trump.TURN_UP: 0, Trump.ROTATE: 1},
        observation=(Bit("trump_rule", 0, Trump.TURN_UP), Bit("trump_rule", 1, Trump.ROTATE)),
    ),
    RuleOption(
        name="blind_one_card",
        kind=Kind.SWITCH,
        choices=(False, True),
        default=False,
        section="2.10",
        sources="a well-known variant",
        house=(True,),
        always_written=False,
        in_presets=False,
        help="Play a one-card round blind: each player sees the others' cards, not their own.",
        kernel="BLIND",
        kernel_codes={False: 0, True: 1},
        observation=(Bit("blind_rule", 0, True),),
    ),
)
"""Every rule option, in the order a record writes them and a refusal checks them."""

OPTION: Mapping[str, RuleOption] = {option.name: option for option in OPTIONS}
"""Every rule option by name."""
