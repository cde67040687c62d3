"""What one seat, or someone watching, may know: the only picture of a game that bots, clients and agents get.

A :class:`TableView` is what everyone at the table sees: the turned card, the bids
that have been revealed (under simultaneous bidding they stay hidden until everyone
has bid), the cards played, the tricks won and the scores. A :class:`SeatView` adds
one seat's own hand, its own bid and the moves it may make. Both are frozen copies,
not windows onto the game: they hold no reference to it, so code that receives a
view cannot reach another seat's cards.

In a blind one-card round (``blind_one_card``) a seat's view holds every other seat's
card in :attr:`TableView.foreheads` and not its own: its ``hand`` is empty until the
cards are played. A spectator's view holds none of them (a player could open one).
"""

from __future__ import annotations

import dataclasses

from upriver.actions import Phase, RoundResult, Trick, standings_of
from upriver.cards import Card, Suit
from upriver.deal import left_of
from upriver.rules import Bidding, Rules
from upriver.state import GameState

__all__ = ["SeatView", "TableView", "view_of"]


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class TableView:
    """What the whole table knows at one moment: a spectator's view, made by ``Game.view(None)``."""

    players: tuple[str, ...]
    rules: Rules
    phase: Phase
    round_number: int
    hand_size: int
    dealer: int
    to_act: int | None
    turned: Card | None
    trump: Suit | None
    bids: tuple[int | None, ...]
    """Bids in seat order; ``None`` for a bid not made or not yet revealed."""
    bids_made: int
    """How many seats have bid this round, revealed or not."""
    trick: tuple[tuple[int, Card], ...]
    """The trick on the table: (seat, card) in play order."""
    leader: int | None
    tricks: tuple[Trick, ...]
    """This round's finished tricks."""
    tricks_won: tuple[int, ...]
    trump_broken: bool
    totals: tuple[int, ...]
    history: tuple[RoundResult, ...]
    """Every finished round (all of its cards have been seen by the whole table)."""
    last_trick: Trick | None
    """The trick finished last, even when it ended the previous round."""
    foreheads: tuple[Card | None, ...] = ()
    """In a blind one-card round, each seat's card as this viewer sees it (``None`` for its own);
    empty in every other round and for a spectator."""

    @property
    def player_count(self) -> int:
        """How many seats the table has."""
        return len(self.players)

    def standings(self) -> tuple[tuple[int, int, int], ...]:
        """``(place, seat, total)`` from first to last; tied seats share a place (as ``Game.standings``)."""
        return standings_of(self.totals)

    @property
    def bidding_order(self) -> tuple[int, ...]:
        """Seats in bidding order: left of the dealer first, the dealer last."""
        n = len(self.players)
        return tuple(left_of(self.dealer, n, 1 + i) for i in range(n))

    @property
    def played(self) -> tuple[tuple[int, Card], ...]:
        """Every card played this round so far, with its seat, in play order."""
        return tuple(pair for trick in self.tricks for pair in trick.plays) + self.trick


@dataclasses.dataclass(frozen=True, kw_only=True, slots=True)
class SeatView(TableView):
    """One seat's knowledge of a game at one moment; made by ``Game.view(seat)``."""

    seat: int
    hand: tuple[Card, ...]
    legal_bids: tuple[int, ...]
    """The bids this seat may make now; empty unless it is this seat's bid."""
    legal_cards: tuple[Card, ...]
    """The cards this seat may play now; empty unless it is this seat's turn."""

    @property
    def my_turn(self) -> bool:
        """Whether this seat is expected to bid or play now."""
        return bool(self.legal_bids or self.legal_cards)


def view_of(
    state: GameState, seat: int | None, legal_bids: tuple[int, ...], legal_cards: tuple[Card, ...]
) -> SeatView | TableView:
    """What ``seat`` (``None``: a spectator) may know of ``state``, with the moves the game allows it.

    Under simultaneous bidding a bid stays hidden from the others until every seat has bid.
    In a blind round (:attr:`GameState.blind`) the seat's own card is left out of its hand and
    every other seat's card is shown in ``foreheads``.
    """
    phase = state.phase
    hidden = phase is Phase.BIDDING and state.rules.bidding is Bidding.SIMULTANEOUS
    bids = state.bids
    public = {
        "players": state.players,
        "rules": state.rules,
        "phase": phase,
        "round_number": state.round_number,
        "hand_size": state.hand_size,
        "dealer": state.dealer,
        "to_act": state.to_act,
        "turned": state.turned,
        "trump": state.trump,
        "bids": tuple(b if not hidden or s == seat else None for s, b in enumerate(bids)),
        "bids_made": sum(b is not None for b in bids),
        "trick": state.trick,
        "leader": state.leader,
        "tricks": state.tricks,
        "tricks_won": state.tricks_won,
        "trump_broken": state.trump_broken,
        "totals": state.totals,
        "history": state.results,
        "last_trick": state.last_trick,
    }
    if seat is None:
        return TableView(**public)  # type: ignore[arg-type]
    blind = state.blind
    foreheads: tuple[Card | None, ...] = ()
    if blind:
        foreheads = tuple(None if s == seat else state.hand(s)[0] for s in range(len(state.players)))
    return SeatView(
        **public,  # type: ignore[arg-type]
        foreheads=foreheads,
        seat=seat,
        hand=() if blind else state.hand(seat),
        legal_bids=legal_bids,
        legal_cards=legal_cards,
    )
