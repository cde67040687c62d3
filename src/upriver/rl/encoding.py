"""The fixed-size observation and action encoding of one seat's view, for learning agents.

Everything here is computed from a :class:`~upriver.view.SeatView` and nothing else, so
an encoded observation can only hold what that seat may know. One layout serves every
rule set and player count (3–8 seats, hands up to 17 cards), so a policy trained at one
table can be run at another. Seats are *relative*: slot 0 is the observing seat, slot 1
the seat on its left, and so on; slots past the table's size stay zero.

Every value lies in [-1, 1]. :data:`FIELDS` is the layout, in order; ``docs/rl.md``
prints it as a table. :data:`ENCODING_VERSION` names the layout: version 2 added the
scoring, the trump rule, trump lead after the first trick and the blind one-card round
(with the cards on the other seats' foreheads) after the blocks of version 1, which keep
their offsets.

Actions are one :data:`ACTION_COUNT`-way choice: action ``c`` in 0–51 plays the card
with ``Card.index == c`` (clubs 2 first, spades ace last), action ``52 + k`` bids ``k``
tricks (k = 0–17). :func:`action_mask` marks exactly the engine's legal choices for the
seat, and only when it is that seat's turn.

>>> from upriver import Game, preset
>>> game = Game(preset("classic", player_count=4), seed=3)
>>> view = game.view(game.to_act)
>>> encode(view).shape, OBS_SIZE, ENCODING_VERSION
((1695,), 1695, 2)
>>> [decode_action(int(a)) for a in action_mask(view).nonzero()[0]]
[0, 1]
"""

from __future__ import annotations

import dataclasses
import functools

import numpy as np
import numpy.typing as npt

from upriver.actions import Phase, winning_play
from upriver.cards import Card
from upriver.options import OPTIONS
from upriver.rules import DECK_SIZE, MAX_PLAYERS, MIN_PLAYERS, Rules
from upriver.scoring import CustomScoring, Scoring, round_score
from upriver.view import SeatView

__all__ = [
    "ACTION_COUNT",
    "BID_ACTIONS",
    "CARD_ACTIONS",
    "ENCODING_VERSION",
    "FIELDS",
    "MAX_HAND",
    "MAX_SEATS",
    "OBS_SIZE",
    "Field",
    "action_mask",
    "bid_action",
    "card_action",
    "decode_action",
    "encode",
    "max_game_points",
    "offset",
]

ENCODING_VERSION = 2
"""The observation layout's version: 2 appended the house rules' blocks to version 1's."""
MAX_SEATS = MAX_PLAYERS
"""Seat slots in the encoding: the largest table (8)."""
MAX_HAND = DECK_SIZE // MIN_PLAYERS
"""The largest hand any rule set deals (17, three players with an explicit schedule)."""
CARD_ACTIONS = DECK_SIZE
BID_ACTIONS = MAX_HAND + 1
ACTION_COUNT = CARD_ACTIONS + BID_ACTIONS
"""70: cards 0–51 by ``Card.index``, then bids 0–17."""

Observation = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]


@dataclasses.dataclass(frozen=True, slots=True)
class Field:
    """One named block of the observation vector."""

    name: str
    size: int
    meaning: str


FIELDS: tuple[Field, ...] = (
    Field("hand", 52, "1 for each card in the seat's own hand, by `Card.index`"),
    Field("trumps_held", 13, "the seat's own trumps by rank, 2 to ace (all 0 in a round without trump)"),
    Field("turned", 52, "the card turned up for trump, one-hot (all 0: no card was turned)"),
    Field("trump", 5, "trump suit one-hot in C, D, H, S order; the 5th bit: no trump this round"),
    Field("trick", 8 * 52, "the trick on the table: block r holds the card relative seat r played to it"),
    Field("leader", 8, "relative seat that led the trick on the table, one-hot (all 0 while bidding)"),
    Field("winning", 8, "relative seat whose card is winning the trick on the table, one-hot"),
    Field("played", 8 * 52, "block r: cards relative seat r played in this round's finished tricks"),
    Field("bids", 8 * 19, "block r: relative seat r's bid one-hot 0–17, last bit 1 if no bid is seen"),
    Field("tricks_won", 8, "tricks each relative seat took this round / 17"),
    Field("to_make", 8, "(bid − tricks taken) / 17 for each seat whose bid is seen, else 0"),
    Field("totals", 8, "each relative seat's score total / the most points one seat can score in the game"),
    Field("lead", 1, "(own total − best other total) / the most points one seat can score in the game"),
    Field("progress", 3, "rounds finished / rounds; rounds after this one / rounds; cards left in hand / 17"),
    Field("hand_size", 17, "this round's hand size, one-hot 1–17"),
    Field("bid_balance", 1, "(sum of the bids seen − hand size) / hand size, clipped to [−1, 1]"),
    Field("phase", 3, "bidding, playing, game over: one-hot"),
    Field("my_turn", 1, "1 when the seat must bid or play now"),
    Field("dealer", 8, "(own seat − dealer) mod players, one-hot: 0 = the seat deals, 1 = it bids first"),
    Field("to_act", 8, "relative seat whose bid or card is awaited, one-hot"),
    Field("players", 6, "player count one-hot, 3–8"),
    Field("seats", 8, "1 for each relative seat slot that exists at this table"),
    Field(
        "rules",
        7,
        "simultaneous bidding; dealer's bid free, hook, overbid; trump must be broken; "
        "scoring 10 + bid, tricks + 10",
    ),
    Field("trump_broken", 1, "1 once a trump has been played this round"),
    Field("scoring", 10, "the scoring one-hot: the nine named ones in `Scoring` order, then a custom one"),
    Field("exact_points", 18, "points of an exact bid of 0–17 in this round / the most one round can pay"),
    Field("over_points", 18, "points of a bid of 0–17 missed by one trick over, in this round, likewise"),
    Field("under_points", 18, "points of a bid of 0–17 missed by one trick under (0 for bid 0), likewise"),
    Field("trump_rule", 2, "how trump is chosen, one-hot: a card turned up, rotating through the suits"),
    Field("trump_first_trick", 1, "1 when trump may not lead the first trick (`after-first-trick`)"),
    Field("blind_rule", 1, "1 when a one-card round is played blind (`blind_one_card`)"),
    Field("blind", 1, "1 in a blind round, while the seat sees the others' cards and not its own"),
    Field("foreheads", 8 * 52, "block r: the card on relative seat r's forehead in a blind round"),
)
"""The observation layout, block by block, in vector order."""

_OFFSETS: dict[str, int] = {}
_SIZES = {field.name: field.size for field in FIELDS}
_at = 0
for _field in FIELDS:
    _OFFSETS[_field.name] = _at
    _at += _field.size
OBS_SIZE = _at
"""Length of the observation vector (1695)."""
del _at, _field

_HAND = _OFFSETS["hand"]
_TRUMPS_HELD = _OFFSETS["trumps_held"]
_TURNED = _OFFSETS["turned"]
_TRUMP = _OFFSETS["trump"]
_TRICK = _OFFSETS["trick"]
_LEADER = _OFFSETS["leader"]
_WINNING = _OFFSETS["winning"]
_PLAYED = _OFFSETS["played"]
_BIDS = _OFFSETS["bids"]
_WON = _OFFSETS["tricks_won"]
_TO_MAKE = _OFFSETS["to_make"]
_TOTALS = _OFFSETS["totals"]
_LEAD = _OFFSETS["lead"]
_PROGRESS = _OFFSETS["progress"]
_SIZE = _OFFSETS["hand_size"]
_BALANCE = _OFFSETS["bid_balance"]
_PHASE = _OFFSETS["phase"]
_MY_TURN = _OFFSETS["my_turn"]
_DEALER = _OFFSETS["dealer"]
_TO_ACT = _OFFSETS["to_act"]
_PLAYERS = _OFFSETS["players"]
_SEATS = _OFFSETS["seats"]
_BROKEN = _OFFSETS["trump_broken"]
_SCORING = _OFFSETS["scoring"]
_EXACT = _OFFSETS["exact_points"]
_OVER = _OFFSETS["over_points"]
_UNDER = _OFFSETS["under_points"]
_BLIND = _OFFSETS["blind"]
_FOREHEADS = _OFFSETS["foreheads"]
_SCORINGS = {scoring: i for i, scoring in enumerate(Scoring)}
_PHASES = {Phase.BIDDING: 0, Phase.PLAYING: 1, Phase.OVER: 2}
_OPTION_BITS = tuple(
    (option.name, _OFFSETS[bit.field] + bit.index, bit.value)
    for option in OPTIONS
    for bit in option.observation
)
"""Where each rule option shows in the observation: its name, a place, and the value that sets it
(:attr:`upriver.options.RuleOption.observation`)."""
if any(not 0 <= bit.index < _SIZES[bit.field] for option in OPTIONS for bit in option.observation):
    raise ValueError("a rule option's observation bit lies outside its field")  # the options table is wrong


def offset(name: str) -> int:
    """Where the field ``name`` starts in the observation vector."""
    return _OFFSETS[name]


@functools.cache
def _most_per_round(rules: Rules) -> tuple[int, ...]:
    """For each round, the most points (won or lost) one seat's round can come to."""
    return tuple(
        max(
            abs(round_score(rules.scoring, bid, took, number))
            for bid in range(size + 1)
            for took in range(size + 1)
        )
        for number, size in enumerate(rules.hand_sizes, start=1)
    )


def max_game_points(rules: Rules) -> int:
    """The most points one seat's total can come to, won or lost, over a whole game.

    It bounds the totals both ways, so a total over it lies in [-1, 1]. Under the sources'
    two scorings it is every bid exact with every trick: hand size + 10 a round.
    """
    return max(1, sum(_most_per_round(rules)))


def _scoring_bits(view: SeatView) -> tuple[list[float], list[float], list[float], list[float]]:
    """The scoring one-hot, and an exact bid's, an over-by-one's and an under-by-one's points this round."""
    rules, number = view.rules, view.round_number
    scoring = rules.scoring
    kind = [0.0] * 10
    kind[9 if isinstance(scoring, CustomScoring) else _SCORINGS[scoring]] = 1.0
    scale = max(_most_per_round(rules)) or 1
    exact = [round_score(scoring, bid, bid, number) / scale for bid in range(MAX_HAND + 1)]
    over = [round_score(scoring, bid, bid + 1, number) / scale for bid in range(MAX_HAND + 1)]
    under = [0.0] + [round_score(scoring, bid, bid - 1, number) / scale for bid in range(1, MAX_HAND + 1)]
    return kind, *(list(np.clip(values, -1.0, 1.0)) for values in (exact, over, under))  # type: ignore[return-value]


@functools.cache
def _rules_places(rules: Rules) -> list[int]:
    """The places of the observation that ``rules``' options set to 1 (the options table says which)."""
    return [place for name, place, value in _OPTION_BITS if getattr(rules, name) == value]


def encode(view: SeatView) -> Observation:
    """The observation vector of ``view``: float32, :data:`OBS_SIZE` long, values in [-1, 1]."""
    obs = np.zeros(OBS_SIZE, dtype=np.float32)
    n, me = len(view.players), view.seat
    rules = view.rules

    def rel(seat: int) -> int:
        return (seat - me) % n

    trump = view.trump
    for card in view.hand:
        obs[_HAND + card.index] = 1.0
        if card.suit is trump:
            obs[_TRUMPS_HELD + card.rank - 2] = 1.0
    if view.turned is not None:
        obs[_TURNED + view.turned.index] = 1.0
    obs[_TRUMP + (4 if trump is None else trump.index)] = 1.0
    for seat, card in view.trick:
        obs[_TRICK + 52 * rel(seat) + card.index] = 1.0
    if view.leader is not None:
        obs[_LEADER + rel(view.leader)] = 1.0
    if view.trick:
        obs[_WINNING + rel(winning_play(view.trick, trump)[0])] = 1.0
    for trick in view.tricks:
        for seat, card in trick.plays:
            obs[_PLAYED + 52 * rel(seat) + card.index] = 1.0
    seen = 0
    for seat, bid in enumerate(view.bids):
        r = rel(seat)
        if bid is None:
            obs[_BIDS + 19 * r + 18] = 1.0
        else:
            obs[_BIDS + 19 * r + bid] = 1.0
            obs[_TO_MAKE + r] = (bid - view.tricks_won[seat]) / MAX_HAND
            seen += bid
        obs[_WON + r] = view.tricks_won[seat] / MAX_HAND
    most = max_game_points(rules)
    for seat, total in enumerate(view.totals):
        obs[_TOTALS + rel(seat)] = total / most
    others = [t for s, t in enumerate(view.totals) if s != me]
    obs[_LEAD] = np.clip((view.totals[me] - max(others)) / most, -1.0, 1.0)
    rounds = rules.rounds
    over = view.phase is Phase.OVER
    finished = len(view.history)
    obs[_PROGRESS] = finished / rounds
    obs[_PROGRESS + 1] = 0.0 if over else (rounds - finished - 1) / rounds
    obs[_PROGRESS + 2] = len(view.hand) / MAX_HAND
    size = view.hand_size
    obs[_SIZE + size - 1] = 1.0
    obs[_BALANCE] = min(1.0, (seen - size) / size)
    if view.phase in _PHASES:
        obs[_PHASE + _PHASES[view.phase]] = 1.0
    mine = view.to_act == me
    obs[_MY_TURN] = float(mine)
    obs[_DEALER + (me - view.dealer) % n] = 1.0
    if view.to_act is not None:
        obs[_TO_ACT + rel(view.to_act)] = 1.0
    obs[_PLAYERS + n - MIN_PLAYERS] = 1.0
    obs[_SEATS : _SEATS + n] = 1.0
    obs[_rules_places(rules)] = 1.0
    obs[_BROKEN] = float(view.trump_broken)
    named, exact, past, under = _scoring_bits(view)
    obs[_SCORING : _SCORING + 10] = named
    obs[_EXACT : _EXACT + 18] = exact
    obs[_OVER : _OVER + 18] = past
    obs[_UNDER : _UNDER + 18] = under
    obs[_BLIND] = float(bool(view.foreheads))
    for seat, shown in enumerate(view.foreheads):
        if shown is not None:
            obs[_FOREHEADS + 52 * rel(seat) + shown.index] = 1.0
    return obs


def card_action(card: Card) -> int:
    """The action that plays ``card``: its index, 0–51."""
    return card.index


def bid_action(bid: int) -> int:
    """The action that bids ``bid`` tricks: 52 + bid."""
    return CARD_ACTIONS + bid


def decode_action(action: int) -> Card | int:
    """The move an action stands for: a :class:`Card` (0–51) or a bid (52 + bid)."""
    if not 0 <= action < ACTION_COUNT:
        raise ValueError(f"action {action} is outside 0–{ACTION_COUNT - 1}")
    if action < CARD_ACTIONS:
        return Card.from_index(action)
    return action - CARD_ACTIONS


def action_mask(view: SeatView) -> Mask:
    """1 for each action the engine accepts from this seat now, 0 elsewhere (all 0 off turn).

    Under simultaneous bidding every seat still to bid could bid, but the seats bid one
    at a time in bidding order here, so only the seat the engine awaits first has a mask.
    """
    mask = np.zeros(ACTION_COUNT, dtype=np.int8)
    if view.to_act != view.seat:
        return mask
    for bid in view.legal_bids:
        mask[CARD_ACTIONS + bid] = 1
    for card in view.legal_cards:
        mask[card.index] = 1
    return mask
