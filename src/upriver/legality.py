"""Why a move is refused: the dealer's bid restriction and the refusals of the card rules.

The engine decides what is legal (:meth:`upriver.Game.legal_bids`,
:meth:`upriver.Game.legal_cards`); this module owns which bids the dealer's rule leaves
(:func:`dealer_bids`) and how a restriction and each refusal are described, as data and as a
sentence, so every adapter shows the same reason and can word it again from the facts (another
language, "you" for "Ann").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import cast

from upriver.actions import Phase
from upriver.cards import Card, Suit
from upriver.errors import IllegalActionError
from upriver.names import quoted
from upriver.rules import DealerBid, TrumpLead
from upriver.state import GameState

__all__ = ["BidRestriction", "check_trick_counts", "dealer_bids", "spoken"]


def spoken(items: Sequence[object]) -> str:
    """Items as a person lists them: ``1, 2 or 3``."""
    words = [str(item) for item in items]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def dealer_bids(rule: DealerBid, tricks: int, others: int) -> tuple[int, ...]:
    """The bids the seat bidding last may make in a round of ``tricks`` tricks when the other
    seats bid ``others`` in all: any under :attr:`DealerBid.FREE`; under the hook, any that does
    not make the total ``tricks``; under overbid, those that make it more (``tricks`` alone when
    none can)."""
    bids = range(tricks + 1)
    if rule is DealerBid.FREE:
        return tuple(bids)
    if rule is DealerBid.HOOK:
        return tuple(b for b in bids if others + b != tricks)
    return tuple(b for b in bids if others + b > tricks) or (tricks,)


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class BidRestriction:
    """The dealer's restriction on the last bid of a round, and the bids it forbids now.

    Made by :meth:`upriver.Game.bid_restriction` only when the rule forbids at least
    one bid, so a table can say "Ann may not bid 2" before Ann tries.
    """

    rule: DealerBid
    """:attr:`DealerBid.HOOK` or :attr:`DealerBid.OVERBID`."""
    seat: int
    """The seat bidding last (the dealer)."""
    tricks: int
    """Tricks in the round: the hand size."""
    others: int
    """The total the other seats bid."""
    forbidden: tuple[int, ...]
    allowed: tuple[int, ...]

    @property
    def reason(self) -> str:
        """The rule in words, e.g. "with the hook, the bids may not total 3, the number of tricks …";
        the English catalogue's ``restriction.hook`` and ``restriction.overbid`` say the same."""
        if self.rule is DealerBid.HOOK:
            return (
                f"with the hook, the bids may not total {self.tricks}, the number of tricks "
                f"(the others bid {self.others})"
            )
        tricks = f"{self.tricks} trick" if self.tricks == 1 else f"{self.tricks} tricks"
        return f"the dealer must overbid, making the total more than {tricks} (the others bid {self.others})"

    def to_json(self) -> dict[str, object]:
        """The restriction as JSON data for a client: the rule's record spelling, the bids, the reason."""
        return {
            "rule": self.rule.value,
            "seat": self.seat,
            "tricks": self.tricks,
            "others": self.others,
            "forbidden": list(self.forbidden),
            "allowed": list(self.allowed),
            "reason": self.reason,
        }

    def refusal(self, bid: int, player: str) -> IllegalActionError:
        """The error for ``player`` trying a forbidden ``bid``."""
        return IllegalActionError(
            f"{player} may not bid {bid}: {self.reason}; {player} may bid {spoken(self.allowed)}",
            rule=self.rule.value,
            seat=self.seat,
            facts={"bid": bid, "tricks": self.tricks, "others": self.others, "allowed": self.allowed},
        )


def restriction_of(state: GameState, legal: tuple[int, ...]) -> BidRestriction | None:
    """The dealer's restriction on the last bid of the round in ``state``, ``legal`` the bids left
    to it; ``None`` when the rule forbids no bid."""
    size = state.hand_size
    forbidden = tuple(b for b in range(size + 1) if b not in legal)
    if not forbidden:
        return None
    return BidRestriction(
        rule=state.rules.dealer_bid,
        seat=cast(int, state.to_act),  # a seat is bidding
        tricks=size,
        others=sum(b for b in state.bids if b is not None),
        forbidden=forbidden,
        allowed=legal,
    )


def card_rule_refusal(state: GameState, seat: int, card: Card) -> IllegalActionError:
    """The refusal of ``card``, held by ``seat`` to play, that the card rules forbid: off the suit led
    while holding that suit, or trump led before the trump-lead rule lets it lead."""
    player = state.players[seat]
    if state.trick:
        led = state.trick[0][1].suit
        held = tuple(c for c in state.hand(seat) if c.suit is led)
        return follow_suit_refusal(player, seat, led, held)
    first_trick = state.rules.trump_lead is TrumpLead.AFTER_FIRST_TRICK
    return trump_lead_refusal(player, seat, card.suit, first_trick=first_trick)


def out_of_phase_refusal(state: GameState, seat: int | None, doing: str) -> IllegalActionError:
    """The refusal of an action the game's phase does not allow now, naming ``seat`` (default: the
    seat to act; no one when none is)."""
    actor = state.to_act if seat is None else seat
    if actor is None:
        who = "no one may"
    else:
        players = state.players
        who = f"{players[actor] if 0 <= actor < len(players) else f'seat {actor}'} may not"
    return IllegalActionError(
        f"{who} {doing} now: the game is {state.phase.value}", rule="turn order", seat=seat
    )


def bid_range_refusal(player: str, seat: int, bid: object, size: int) -> IllegalActionError:
    """The error for a bid that is not a whole number from 0 to ``size``, the cards in hand."""
    return IllegalActionError(
        f"{player} may not bid {bid!r}: a bid is a whole number from 0 to {size}, the cards in hand",
        rule="bid range",
        seat=seat,
        facts={"bid": bid, "tricks": size},
    )


def card_refusal(player: str, seat: int, card: object) -> IllegalActionError:
    """The error for a card given as something that names no card."""
    return IllegalActionError(
        f"{player} must play a card like 'TH', not {card!r}", rule="card", seat=seat, facts={"card": card}
    )


def not_held_refusal(player: str, seat: int, card: Card) -> IllegalActionError:
    """The error for a card that is not in the player's hand."""
    return IllegalActionError(
        f"{player} does not hold {card}", rule="card in hand", seat=seat, facts={"card": card}
    )


def one_bid_refusal(player: str, seat: int) -> IllegalActionError:
    """The error for a second bid by a seat in the same round (simultaneous bidding)."""
    return IllegalActionError(f"{player} has already bid this round", rule="one bid", seat=seat)


def turn_refusal(players: Sequence[str], actor: int, seat: int, doing: str) -> IllegalActionError:
    """The error for ``seat`` trying to ``doing`` ("bid", "play") while it is ``actor``'s turn."""
    other = players[seat] if 0 <= seat < len(players) else f"seat {seat}"
    return IllegalActionError(
        f"it is {players[actor]}'s turn to {doing}, not {other}'s", rule="turn order", seat=seat
    )


def follow_suit_refusal(player: str, seat: int, led: Suit, held: tuple[Card, ...]) -> IllegalActionError:
    """The error for a card off the suit led while ``held`` cards of it remain in hand."""
    return IllegalActionError(
        f"{player} must follow suit: {led.name.lower()} were led and {player} holds "
        f"{' '.join(str(card) for card in held)}",
        rule="follow suit",
        seat=seat,
        facts={"led": led, "held": held},
    )


def trump_lead_refusal(
    player: str, seat: int, trump: Suit, *, first_trick: bool = False
) -> IllegalActionError:
    """The error for leading trump before it is broken (or, with ``first_trick``, to the round's
    first trick under ``trump_lead: "after-first-trick"``) while holding another suit."""
    if first_trick:
        return IllegalActionError(
            f"{player} may not lead trump ({trump.name.lower()}) to the first trick: "
            "trump may lead from the second trick on, and they hold other suits",
            rule="trump first trick",
            seat=seat,
            facts={"trump": trump},
        )
    return IllegalActionError(
        f"{player} may not lead trump ({trump.name.lower()}) before trump is broken: "
        "no trump has been played this round and they hold other suits",
        rule="trump broken",
        seat=seat,
        facts={"trump": trump},
    )


def check_trick_counts(state: GameState, tricks: Sequence[int]) -> None:
    """Raise :class:`IllegalActionError` unless ``tricks``, one count a seat, may end the round now:
    a round played with real cards, its bids made."""
    if state.phase is not Phase.TRICKS:
        raise IllegalActionError(
            f"trick counts are entered after the bids of a round played with real cards; "
            f"the game is {state.phase.value}",
            rule="turn order",
        )
    round_number, players, size = state.round_number, state.players, state.hand_size
    if len(tricks) != len(players):
        raise IllegalActionError(
            f"round {round_number} needs trick counts for {len(players)} players, not {len(tricks)}",
            rule="tricks",
            facts={"round": round_number, "counts": len(tricks)},
        )
    for seat, count in enumerate(tricks):
        if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= size:
            raise IllegalActionError(
                f"{players[seat]} cannot take {quoted(count)} tricks: from 0 to {size} in this round",
                rule="tricks",
                seat=seat,
                facts={"round": round_number, "tricks": count, "hand_size": size},
            )
    if sum(tricks) != size:
        raise IllegalActionError(
            f"round {round_number}: the tricks add up to {sum(tricks)}, but {size} were played",
            rule="tricks add up",
            facts={"round": round_number, "total": sum(tricks), "hand_size": size},
        )
