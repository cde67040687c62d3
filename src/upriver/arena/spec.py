"""Bot specs: the ``NAME[:ARG]`` words of ``upriver arena`` turned into players for a seat.

``NAME`` is any kind registered in :data:`upriver.bots.BOT_KINDS` (looked up when the
spec is read, so kinds registered later are accepted too) or an OpenSpiel seat
(``openspiel-ismcts``, ``openspiel-ismcts-fair``, ``openspiel-random``). ``ARG`` is the
bot's budget, passed as written to :func:`upriver.bots.make_bot` (``budget=``), which
says what it accepts.

>>> parse_spec(" PIMC:200 ")
BotSpec(kind='pimc', arg='200')
>>> str(parse_spec("basic"))
'basic'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from upriver.arena.base import ArenaError, parse_number
from upriver.arena.standin import STANDIN_KINDS
from upriver.bots import BOT_KINDS, Bot, make_bot
from upriver.cards import Card
from upriver.view import SeatView

if TYPE_CHECKING:
    from upriver.arena.openspiel import Mirror

__all__ = [
    "OPENSPIEL_KINDS",
    "SPIEL_KINDS",
    "ArenaError",
    "BotSpec",
    "SeatPlayer",
    "known_kinds",
    "parse_number",
    "parse_spec",
]

OPENSPIEL_KINDS: dict[str, str] = {
    "openspiel-ismcts": "openspiel-ismcts[:SIMULATIONS] (OpenSpiel's ISMCTS, default 1000; not fair: "
    "its resampler knows which cards are out of play)",
    "openspiel-ismcts-fair": "openspiel-ismcts-fair[:SIMULATIONS] (OpenSpiel's ISMCTS searching fair deals "
    "of every hidden card, the stock's too; default 1000)",
    "openspiel-random": "openspiel-random (uniform over OpenSpiel's legal actions)",
}
"""Seat kinds played by OpenSpiel bots on a mirrored ``oh_hell`` state (the ``bench`` extra)."""

SPIEL_KINDS: dict[str, str] = {
    "spiel-ismcts": "spiel-ismcts[:SIMULATIONS] (OpenSpiel's ISMCTS on upriver's own game, python_upriver: "
    "any rules, fair deals; default 200)",
}
"""Seat kinds played by OpenSpiel bots on ``python_upriver`` states made from the seat's view (the
``bench`` extra): no mirror, so any rules."""


class SeatPlayer(Protocol):
    """Whoever plays one seat of an arena game: it answers a seat's view with a bid or a card."""

    uses_mirror: bool
    """Whether the player acts on a mirrored OpenSpiel state rather than on the view alone."""
    sees_deal: bool
    """Whether the player is told every round's dealt hands (:meth:`see_deal`): only seats that
    imitate a reference which sees them (``ismcts-standin``), never a bot."""

    @property
    def last_bid_estimates(self) -> Mapping[int, float] | None:
        """After its last bid: each candidate bid's predicted make rate, if the player gives them."""

    def attach(self, mirror: Mirror) -> None:
        """Play on this mirrored OpenSpiel state (called once per game when any seat needs one)."""

    def see_deal(self, hands: Sequence[Sequence[Card]]) -> None:
        """The round's dealt hands, every seat's (called at each deal when :attr:`sees_deal`)."""

    def move(self, view: SeatView) -> int | Card:
        """The seat's bid or card for this view."""


class BotPlayer:
    """An upriver bot in an arena seat: it is shown only the seat's view."""

    uses_mirror = False
    sees_deal = False

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    @property
    def last_bid_estimates(self) -> Mapping[int, float] | None:
        """The bot's :attr:`~upriver.bots.Bot.last_bid_estimates`."""
        return self.bot.last_bid_estimates

    def attach(self, mirror: Mirror) -> None:
        """Nothing to do: an upriver bot is shown the seat's view and nothing else."""

    def see_deal(self, hands: Sequence[Sequence[Card]]) -> None:
        """Never called: a bot is shown its seat's view and nothing else."""

    def move(self, view: SeatView) -> int | Card:
        """Whatever the bot answers for this view (the engine judges it)."""
        return self.bot.act(view)


def known_kinds() -> list[str]:
    """Every seat kind the arena accepts now: registered bots, then OpenSpiel seats and stand-ins."""
    return [*BOT_KINDS, *OPENSPIEL_KINDS, *SPIEL_KINDS, *STANDIN_KINDS]


def _kinds_help() -> str:
    return ", ".join([*BOT_KINDS, *OPENSPIEL_KINDS.values(), *SPIEL_KINDS.values(), *STANDIN_KINDS.values()])


@dataclasses.dataclass(frozen=True, slots=True)
class BotSpec:
    """One ``NAME[:ARG]`` word: a seat kind and its optional budget, as typed."""

    kind: str
    arg: str | None = None

    def __str__(self) -> str:
        return self.kind if self.arg is None else f"{self.kind}:{self.arg}"

    @property
    def is_openspiel(self) -> bool:
        """Whether an OpenSpiel bot plays this seat (on a mirrored ``oh_hell`` state)."""
        return self.kind in OPENSPIEL_KINDS

    def factory(self) -> Callable[[int], SeatPlayer]:
        """A maker of this seat's player from a seed; checks the kind and budget before any game runs."""
        if self.is_openspiel:
            # Imported here so that a missing bench extra only matters to OpenSpiel seats.
            if self.kind == "openspiel-ismcts-fair":
                from upriver.arena import fair

                return fair.seat_factory(self.arg)
            from upriver.arena import openspiel

            return openspiel.seat_factory(self.kind, self.arg)
        if self.kind in SPIEL_KINDS:
            from upriver.arena import spielseat

            return spielseat.spiel_factory(self.kind, self.arg)
        if self.kind in STANDIN_KINDS:
            from upriver.arena import standin

            return standin.seat_factory(self.kind, self.arg)
        label = str(self)
        options: dict[str, object] = {} if self.arg is None else {"budget": self.arg}
        # Typed loosely: older registries' make_bot takes no budget, and the TypeError says so.
        make: Callable[..., Bot] = make_bot
        try:
            # Made once here so that a bad budget is reported before any game is played.
            make(self.kind, 0, name=label, **options)
        except TypeError:
            raise ArenaError(f"bot {self.kind!r} takes no budget, so {label!r} cannot be played") from None
        except ValueError as error:
            raise ArenaError(f"bot {label!r} cannot be played: {error}") from None
        return lambda seed: BotPlayer(make(self.kind, seed, name=label, **options))


def parse_spec(text: str) -> BotSpec:
    """Read ``NAME[:ARG]``; raise :class:`ArenaError` naming every accepted kind if ``NAME`` is unknown."""
    kind, sep, arg = text.strip().partition(":")
    kind = kind.strip().lower()
    arg = arg.strip()
    if (
        kind not in BOT_KINDS
        and kind not in OPENSPIEL_KINDS
        and kind not in SPIEL_KINDS
        and kind not in STANDIN_KINDS
    ):
        raise ArenaError(f"unknown bot {text.strip()!r}: expected one of {_kinds_help()}")
    if sep and not arg:
        raise ArenaError(f"bot {text.strip()!r} has a ':' but no budget after it")
    return BotSpec(kind, arg if sep else None)
