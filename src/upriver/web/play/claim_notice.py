"""The notice of a claim at a web table: who claimed, in which round, and the cards they showed.

A claim (:mod:`upriver.web.play.claims`) finishes the round at once, so the claimer's hand is shown to
everyone for as long as the round's end is on screen: every state message carries the last claim
(``"claim": {"seat", "round", "cards"}``) until the next round's first bid, then ``null``.
"""

from __future__ import annotations

import dataclasses

from upriver.actions import Phase
from upriver.cards import Card
from upriver.game import Game

__all__ = ["ClaimNotice", "claim_json"]


@dataclasses.dataclass(frozen=True, slots=True)
class ClaimNotice:
    """A claim made at the table: the claimer's seat, the round and the cards it held then."""

    seat: int
    round: int
    cards: tuple[Card, ...]


def claim_json(notice: ClaimNotice | None, game: Game | None) -> dict[str, object] | None:
    """The claim every state shows, as JSON data; ``None`` once the next round's first bid is in."""
    if notice is None or game is None:
        return None
    number = game.round_number
    bid = game.phase is not Phase.BIDDING or any(made is not None for made in game.bids)
    later = number > notice.round + 1 or (number == notice.round + 1 and bid)
    if later:
        return None
    return {"seat": notice.seat, "round": notice.round, "cards": [str(card) for card in notice.cards]}
