"""What one seat knows about the hidden cards, read from its :class:`~upriver.view.SeatView` alone.

A search bot deals the cards it cannot see in many ways and plays each deal out; the
deals are only worth as much as they agree with what the table has shown. Besides its
own hand, the turned card and the cards played, a seat knows how many cards each
other seat still holds, and which suits a seat has shown it lacks: a seat that did not
follow the led suit holds none of it, and (where trump must be broken) a seat that led
trump before trump was broken held nothing but trumps.

Sets of cards are ``int`` bit masks over card indices (0–51), the kernel's layout.
"""

from __future__ import annotations

import dataclasses

from upriver.cards import SUIT_MASKS, Card, mask_of
from upriver.view import SeatView

__all__ = ["Knowledge", "knowledge_of"]

FULL = (1 << 52) - 1


@dataclasses.dataclass(frozen=True, slots=True)
class Knowledge:
    """One seat's certain knowledge of where the unseen cards may be."""

    seat: int
    hand: int
    """The seat's own cards."""
    unknown: int
    """Cards the seat has not seen: in the other hands or left in the stock."""
    counts: tuple[int, ...]
    """Cards each seat holds now (the seat's own included)."""
    voids: tuple[int, ...]
    """Per seat, the cards it has shown it cannot hold (whole suits), as a mask; 0 for this seat."""
    played_by: tuple[int, ...]
    """Per seat, the cards it has played this round (a dealt hand is its hand plus these)."""

    @property
    def players(self) -> int:
        """Seats at the table."""
        return len(self.counts)

    @property
    def stock(self) -> int:
        """How many unseen cards are in no hand (undealt)."""
        held = sum(c for s, c in enumerate(self.counts) if s != self.seat)
        return self.unknown.bit_count() - held

    def allows(self, seat: int, card: Card | int) -> bool:
        """Whether ``seat`` may hold ``card`` for all this seat knows."""
        index = card.index if isinstance(card, Card) else card
        if seat == self.seat:
            return bool(self.hand >> index & 1)
        return bool(self.unknown >> index & 1) and not self.voids[seat] >> index & 1


def knowledge_of(view: SeatView) -> Knowledge:
    """Everything ``view``'s seat knows about the hidden cards, from the view and nothing else."""
    n = view.player_count
    hand = mask_of(view.hand)
    played = mask_of(card for _, card in view.played)
    turned = 0 if view.turned is None else view.turned.mask
    unknown = FULL & ~hand & ~played & ~turned
    voids = [0] * n
    played_by = [0] * n
    trump = view.trump
    broken = False
    tricks = [trick.plays for trick in view.tricks]
    if view.trick:
        tricks.append(view.trick)
    for number, cards in enumerate(tricks):
        led = cards[0][1].suit
        leader = cards[0][0]
        if trump is not None and led is trump and view.rules.bars_leading_trump(number, broken=broken):
            # Trump could be led before it was broken only from a hand of nothing but trumps.
            voids[leader] |= FULL & ~SUIT_MASKS[led]
        for seat, card in cards:
            played_by[seat] |= card.mask
            if card.suit is not led:
                voids[seat] |= SUIT_MASKS[led]
        # Trump is broken for later tricks once any trump falls in this one.
        broken = broken or any(card.suit is trump for _, card in cards)
    voids[view.seat] = 0
    done = len(view.tricks)
    counts = [view.hand_size - done] * n
    for seat, _ in view.trick:
        counts[seat] -= 1
    return Knowledge(
        seat=view.seat,
        hand=hand,
        unknown=unknown,
        counts=tuple(counts),
        voids=tuple(voids),
        played_by=tuple(played_by),
    )
