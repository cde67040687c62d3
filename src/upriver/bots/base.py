"""The bot interface: a bot sees one :class:`~upriver.view.SeatView` and answers with a bid or a card.

Bots never receive the game itself, only a frozen view of what their seat may know,
so a bot cannot peek at hidden cards. :func:`act` is the one place where a bot's
answer is applied to a game, so every adapter (terminal, arena, web) shares it.
"""

from __future__ import annotations

import abc
import random
from collections.abc import Mapping
from typing import ClassVar

from upriver.actions import BidAction, PlayAction
from upriver.cards import Card
from upriver.errors import IllegalActionError
from upriver.game import Game
from upriver.view import SeatView

__all__ = ["Bot", "act"]


class Bot(abc.ABC):
    """A computer player: it chooses bids and cards from a :class:`SeatView` alone.

    ``seed`` fixes every random choice the bot makes, so a game between bots is
    reproducible from the game's seed and the bots' seeds.
    """

    kind: ClassVar[str] = "bot"
    """The registry name of this kind of bot (``make_bot(kind, seed)``)."""

    def __init__(self, seed: int | None = None, *, name: str | None = None) -> None:
        self.seed = seed
        self.name = name if name is not None else self.kind
        self.rng = random.Random(seed)
        self.last_bid_estimates: Mapping[int, float] | None = None
        """After a bid made through :meth:`act`: each candidate bid's predicted chance of taking
        exactly that many tricks, where the bot predicts one (a search bot's rollouts, a learned
        model); ``None`` when it does not. Cleared before every bid; the arena's hand log
        records it, so its report can set the predictions against the tricks taken."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r}, name={self.name!r})"

    @abc.abstractmethod
    def choose_bid(self, view: SeatView) -> int:
        """A bid from ``view.legal_bids``."""

    @abc.abstractmethod
    def choose_card(self, view: SeatView) -> Card:
        """A card from ``view.legal_cards``."""

    def choose_blind_bid(self, view: SeatView) -> int:
        """A bid in a blind one-card round (the view shows the others' cards, not the seat's own):
        the bid of best expected score (:func:`upriver.bots.blind.blind_bid`)."""
        from upriver.bots.blind import blind_bid

        return blind_bid(view)

    def act(self, view: SeatView) -> int | Card:
        """The bot's move for this view: a bid while bidding, a card while playing."""
        if view.legal_bids:
            self.last_bid_estimates = None
            if view.foreheads:
                return self.choose_blind_bid(view)
            return self.choose_bid(view)
        if view.legal_cards:
            return self.choose_card(view)
        raise IllegalActionError(
            f"{view.players[view.seat]} has nothing to do now: it is not their turn", rule="turn order"
        )


def act(game: Game, seat: int, bot: Bot) -> BidAction | PlayAction:
    """Ask ``bot`` for ``seat``'s move (showing it only that seat's view) and apply it to ``game``.

    The engine stays the judge: a bot that answers an illegal move raises
    :class:`~upriver.errors.IllegalActionError` and the game is unchanged.
    """
    return game.move(bot.act(game.view(seat)), seat=seat)
