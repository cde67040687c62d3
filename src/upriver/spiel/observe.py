"""What a seat of ``python_upriver`` observes: its OpenSpiel strings and tensors, from its view alone."""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from upriver.actions import Phase
from upriver.cards import Card
from upriver.rl.encoding import OBS_SIZE, encode
from upriver.spiel.params import SpielConfig
from upriver.view import SeatView

__all__ = ["SeatObserver"]


class Seated(Protocol):
    """A ``python_upriver`` state as an observer reads it: a seat's view of it, and no more."""

    def seat_view(self, player: int) -> SeatView:
        """What ``player`` may see."""
        ...


class SeatObserver:
    """One seat's observation or information state, as OpenSpiel's Python observers give them.

    The tensor is :func:`upriver.rl.encoding.encode` of the seat's view (``docs/rl.md`` lays it
    out: this round, the score totals, the rules). The information state adds the cards the
    seat was dealt this round and every card played this round in order (slot t, one-hot by
    card index), so two moments of a round the seat can tell apart have different tensors; its
    string also holds every earlier round (deals, turn-up, bids and plays: all shown at the
    table by the end of a round), so the strings are the seat's whole memory of the game.
    """

    def __init__(self, config: SpielConfig, *, perfect_recall: bool) -> None:
        self.config = config
        self.perfect_recall = perfect_recall
        slots = config.players * config.max_bid
        sizes = {"view": OBS_SIZE} | ({"dealt": 52, "played": 52 * slots} if perfect_recall else {})
        self.tensor = np.zeros(sum(sizes.values()), dtype=np.float32)
        self.dict: dict[str, Any] = {}
        at = 0
        for name, size in sizes.items():
            self.dict[name] = self.tensor[at : at + size]
            at += size

    def set_from(self, state: Seated, player: int) -> None:
        """Write ``player``'s tensor of ``state`` (all zeros before the first dealer is drawn)."""
        self.tensor.fill(0.0)
        view = state.seat_view(player)
        if view is None:
            return
        self.dict["view"][:] = encode(view)
        if self.perfect_recall:
            dealt, played = self.dict["dealt"], self.dict["played"]
            for card in _dealt_to(view):
                dealt[card.index] = 1.0
            for t, (_, card) in enumerate(view.played):
                played[52 * t + card.index] = 1.0

    def string_from(self, state: Seated, player: int) -> str:
        """``player``'s observation or information state of ``state``, as text."""
        view = state.seat_view(player)
        if view is None:
            return f"seat {player}; the first dealer is not drawn yet"
        lines = [f"seat {player} of {view.player_count}; totals {' '.join(map(str, view.totals))}"]
        if self.perfect_recall:
            for result in view.history[self.config.first_round - 1 :]:
                hands = " | ".join(" ".join(map(str, hand)) for hand in result.hands or ())
                lines.append(
                    f"round {result.number}: dealer {result.dealer}, hands {hands}, turned {result.turned}, "
                    f"bids {' '.join(map(str, result.bids))}, plays {' '.join(map(str, result.plays or ()))}"
                )
        lines.append(
            f"round {view.round_number} of {view.rules.rounds}: {view.hand_size} cards, "
            f"dealer {view.dealer}, {view.phase.value}"
        )
        if view.foreheads:
            lines.append(
                "foreheads " + " ".join("?" if card is None else str(card) for card in view.foreheads)
            )
        else:
            cards = _dealt_to(view) if self.perfect_recall else view.hand
            lines.append(("dealt " if self.perfect_recall else "hand ") + " ".join(map(str, cards)))
        if view.phase is not Phase.DEALING:
            bids = " ".join("-" if bid is None else str(bid) for bid in view.bids)
            trump = "none" if view.trump is None else view.trump.name.lower()
            lines.append(f"turned {view.turned}, trump {trump}; bids {bids} ({view.bids_made} made)")
        if self.perfect_recall:
            lines.append("played " + " ".join(f"{seat}:{card}" for seat, card in view.played))
        else:
            lines.append("trick " + " ".join(f"{seat}:{card}" for seat, card in view.trick))
            lines.append(f"tricks won {' '.join(map(str, view.tricks_won))}")
        return "\n".join(lines)


def _dealt_to(view: SeatView) -> list[Card]:
    """The cards ``view``'s seat was dealt this round (so far, while dealing), in card order."""
    own = [card for seat, card in view.played if seat == view.seat]
    return sorted((*view.hand, *own), key=lambda card: card.index)
