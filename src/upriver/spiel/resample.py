"""Hidden cards dealt fairly: OpenSpiel's ``resample_from_infostate`` for ``python_upriver``, and a
state made from an upriver seat's view, for an OpenSpiel bot to search from.

Both deal every card the seat has not seen uniformly over the deals that agree with what it
knows, with upriver's own dealer of such deals (:class:`upriver.arena.fair.FairDealer`, over
:func:`upriver.bots.knowledge.knowledge_of`): the other hands and the undealt stock alike, no
card to a seat that has shown it lacks the suit. OpenSpiel's own ``oh_hell`` resampler, by
contrast, never deals the stock, so its searches know which cards are out of play.

The state is rebuilt by OpenSpiel's own moves: the state where the round's deal began (kept
once a round), then the sampled deal card by card, the turn-up, the bids and the plays, so its
history is a true history of the game.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from upriver.actions import Phase
from upriver.arena.fair import FairDealer
from upriver.bots.knowledge import knowledge_of
from upriver.cards import Card, cards_in, mask_of
from upriver.deal import left_of
from upriver.view import SeatView

if TYPE_CHECKING:
    from upriver.spiel.params import SpielConfig


class SpielGame(Protocol):
    """A ``python_upriver`` game as this module uses it (:class:`upriver.spiel.game.UpriverGame`)."""

    @property
    def config(self) -> SpielConfig:
        """The game's parameters, read."""
        ...

    def new_initial_state(self) -> Any:
        """The state before the deal."""
        ...


__all__ = ["resample", "round_start", "state_from_view"]


def _index(card: Card) -> int:
    return card.index


def resample(start: Any, view: SeatView, dealt: Sequence[Sequence[Card]], rng: random.Random) -> Any:
    """``start`` (the state where ``view``'s round began) carried on to ``view``'s moment with the
    cards hidden from ``view``'s seat dealt fairly; ``dealt`` is every seat's cards in the order
    dealt (only the seat's own are read, and the others' counts while the cards are dealt)."""
    seat = view.seat
    own = list(dealt[seat])
    if view.phase is Phase.DEALING:  # nothing is known yet of the others' cards dealt so far
        pool = list(cards_in(start._core.config.deck & ~mask_of(own)))
        rng.shuffle(pool)
        hands = [own if s == seat else [pool.pop() for _ in cards] for s, cards in enumerate(dealt)]
        return _replay(start, view, hands, None, rng)
    return _complete(start, view, own, rng)


def _complete(start: Any, view: SeatView, own: Sequence[Card], rng: random.Random) -> Any:
    """``start`` (a state before ``view``'s round is dealt) carried on to ``view``'s moment, while
    the round is bid or played, the hidden cards dealt fairly; ``own`` is the seat's dealt cards."""
    config: SpielConfig = start._core.config
    n, seat = len(view.players), view.seat
    if view.foreheads:  # a blind round: the seat's own card is the one it cannot see
        shown = [card for card in view.foreheads if card is not None]
        turned = 0 if view.turned is None else view.turned.mask
        mine = rng.choice(cards_in(config.deck & ~mask_of(shown) & ~turned))
        hands = [[mine] if s == seat else [view.foreheads[s] or mine] for s in range(n)]
        return _replay(start, view, hands, view.turned, rng)
    know = knowledge_of(view)
    know = dataclasses.replace(know, unknown=know.unknown & config.deck)
    held = FairDealer(know).deal(rng)
    hands = []
    for s in range(n):
        cards = list(cards_in(held[s] | know.played_by[s]))
        if s == seat and own:
            cards = list(own)
        else:
            rng.shuffle(cards)
        hands.append(cards)
    return _replay(start, view, hands, view.turned, rng)


def _replay(
    start: Any, view: SeatView, hands: Sequence[Sequence[Card]], turned: Card | None, rng: random.Random
) -> Any:
    """A clone of ``start`` dealt ``hands`` (each seat's cards in the order dealt) and ``turned``,
    then bid and played as ``view`` shows; a bid ``view`` hides is drawn from the legal bids."""
    state = start.clone()
    n = len(hands)
    for k in range(sum(map(len, hands))):
        state.apply_action(hands[left_of(view.dealer, n, 1 + k)][k // n].index)
    if turned is not None:
        state.apply_action(turned.index)
    if view.phase is Phase.DEALING:
        return state
    for seat in view.bidding_order[: view.bids_made]:
        bid = view.bids[seat]
        state.apply_action(rng.choice(state.legal_actions()) if bid is None else bid)
    offset = start._core.config.max_bid + 1
    for _, card in view.played:
        state.apply_action(offset + card.index)
    return state


def state_from_view(game: SpielGame, view: SeatView, rng: random.Random, start: Any = None) -> Any:
    """A state of ``game`` in ``view``'s seat's information set, the hidden cards dealt fairly
    (as :meth:`UpriverState.resample_from_infostate` deals them): how a seat of upriver's own
    game hands its position to an OpenSpiel bot.

    ``game`` plays ``view``'s rules, from the round its ``first_round`` names: the rounds of
    ``view.history`` from there are replayed as they were played. ``start``, if given, is
    :func:`round_start` of the same view, kept to spare replaying them again.

    :raises ValueError: when the view is not bidding or playing, or ``game`` is not its game.
    """
    if view.phase is not Phase.BIDDING and view.phase is not Phase.PLAYING:
        raise ValueError(f"a view while a round is bid or played is wanted, not one while {view.phase.value}")
    if start is None:
        start = round_start(game, view)
    own = sorted((*view.hand, *(card for seat, card in view.played if seat == view.seat)), key=_index)
    return _complete(start, view, own, rng)


def round_start(game: SpielGame, view: SeatView) -> Any:
    """The state of ``game`` where ``view``'s round is about to be dealt, its earlier rounds (from
    ``game``'s first round) replayed from ``view.history``.

    :raises ValueError: when ``game`` does not play ``view``'s table and rounds.
    """
    config = game.config
    n, first = view.player_count, config.first_round
    sizes = config.rules.hand_sizes
    done = view.history[first - 1 :]
    if (
        n != config.players
        or first > view.round_number
        or len(sizes) <= len(done)
        or (*tuple(r.hand_size for r in done), view.hand_size) != sizes[: len(done) + 1]
    ):
        raise ValueError(
            f"this python_upriver game ({n} seats? {config.players}; hands {list(sizes)} from round "
            f"{first}) does not play round {view.round_number} of this view"
        )
    state = game.new_initial_state()
    dealer = (view.dealer - len(done)) % n
    if state.is_chance_node() and state._core.game is None:
        state.apply_action(dealer)
    elif state.upriver_game is None or state.upriver_game.dealer != dealer:
        raise ValueError(
            f"this python_upriver game's first dealer is seat {config.dealer}, not seat {dealer}"
        )
    offset = config.max_bid + 1
    blind = config.rules.blind_one_card
    for result in done:
        hands = result.hands or ()
        for k in range(n * result.hand_size):
            state.apply_action(hands[left_of(result.dealer, n, 1 + k)][k // n].index)
        if result.turned is not None:
            state.apply_action(result.turned.index)
        for seat in range(n):
            state.apply_action(result.bids[left_of(result.dealer, n, 1 + seat)])
        if not (blind and result.hand_size == 1):
            for card in result.plays or ():
                state.apply_action(offset + card.index)
    return state
