"""The fixed-size observation and action encoding of one seat's view, for learning agents.

Everything here is computed from a :class:`~upriver.view.SeatView` and nothing else, so
an encoded observation can only hold what that seat may know. One layout serves every
rule set and player count (3–8 seats, hands up to 17 cards), so a policy trained at one
table can be run at another. Seats are *relative*: slot 0 is the observing seat, slot 1
the seat on its left, and so on; slots past the table's size stay zero.

Every value lies in [-1, 1]. :data:`FIELDS` is the layout, in order; ``docs/rl.md``
prints it as a table.

Actions are one :data:`ACTION_COUNT`-way choice: action ``c`` in 0–51 plays the card
with ``Card.index == c`` (clubs 2 first, spades ace last), action ``52 + k`` bids ``k``
tricks (k = 0–17). :func:`action_mask` marks exactly the engine's legal choices for the
seat, and only when it is that seat's turn.

>>> from upriver import Game, preset
>>> game = Game(preset("classic", player_count=4), seed=3)
>>> view = game.view(game.to_act)
>>> encode(view).shape, OBS_SIZE
((1210,), 1210)
>>> [decode_action(int(a)) for a in action_mask(view).nonzero()[0]]
[0, 1]
"""

from __future__ import annotations

import dataclasses

import numpy as np
import numpy.typing as npt

from upriver.actions import Phase
from upriver.cards import Card, Suit
from upriver.rules import DECK_SIZE, MAX_PLAYERS, MIN_PLAYERS, Bidding, DealerBid, Rules, Scoring, TrumpLead
from upriver.view import SeatView

__all__ = [
    "ACTION_COUNT",
    "BID_ACTIONS",
    "CARD_ACTIONS",
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
)
"""The observation layout, block by block, in vector order."""

_OFFSETS: dict[str, int] = {}
_at = 0
for _field in FIELDS:
    _OFFSETS[_field.name] = _at
    _at += _field.size
OBS_SIZE = _at
"""Length of the observation vector (1210)."""
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
_RULES = _OFFSETS["rules"]
_BROKEN = _OFFSETS["trump_broken"]
_PHASES = {Phase.BIDDING: 0, Phase.PLAYING: 1, Phase.OVER: 2}
_DEALER_BIDS = {DealerBid.FREE: 1, DealerBid.HOOK: 2, DealerBid.OVERBID: 3}


def offset(name: str) -> int:
    """Where the field ``name`` starts in the observation vector."""
    return _OFFSETS[name]


def max_game_points(rules: Rules) -> int:
    """The most points one seat can score in a whole game: every bid exact with every trick.

    Both scorings give at most hand size + 10 a round, so this bounds the totals.
    """
    return sum(size + 10 for size in rules.hand_sizes)


def _rules_bits(rules: Rules) -> tuple[int, ...]:
    bits = [0] * 7
    bits[0] = rules.bidding is Bidding.SIMULTANEOUS
    bits[_DEALER_BIDS[rules.dealer_bid]] = 1
    bits[4] = rules.trump_lead is TrumpLead.BROKEN
    bits[5 if rules.scoring is Scoring.TEN_PLUS_BID else 6] = 1
    return tuple(bits)


def _winning_seat(trick: tuple[tuple[int, Card], ...], trump: Suit | None) -> int:
    """The seat whose card now wins ``trick``: the highest trump, else the highest card of the suit led."""
    best_seat, best = trick[0]
    for seat, card in trick[1:]:
        if (card.suit is best.suit and card.rank > best.rank) or (
            card.suit is trump and best.suit is not trump
        ):
            best_seat, best = seat, card
    return best_seat


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
        obs[_WINNING + rel(_winning_seat(view.trick, trump))] = 1.0
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
    obs[_LEAD] = (view.totals[me] - max(others)) / most
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
    obs[_RULES : _RULES + 7] = _rules_bits(rules)
    obs[_BROKEN] = float(view.trump_broken)
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
