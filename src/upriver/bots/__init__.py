"""Computer players that see only a :class:`~upriver.view.SeatView`, and a registry to make them by name.

>>> from upriver import Game, preset
>>> from upriver.bots import act, make_bot
>>> game = Game(preset("classic", players=4), seed=1)
>>> bots = [make_bot("basic", seed=seat) for seat in range(4)]
>>> while not game.is_over:
...     seat = game.awaiting[0]
...     _ = act(game, seat, bots[seat])
>>> len(game.results)
22
"""

from __future__ import annotations

from upriver.bots.base import Bot, act
from upriver.bots.basic import BasicBot
from upriver.bots.random_bot import RandomBot

__all__ = ["BOT_KINDS", "BasicBot", "Bot", "RandomBot", "act", "make_bot"]

BOT_KINDS: dict[str, type[Bot]] = {cls.kind: cls for cls in (RandomBot, BasicBot)}
"""Every kind of bot by its registry name."""


def make_bot(kind: str, seed: int | None = None, *, name: str | None = None) -> Bot:
    """A new bot of this kind (``"random"`` or ``"basic"``), reproducible from ``seed``."""
    cls = BOT_KINDS.get(kind.strip().lower()) if isinstance(kind, str) else None
    if cls is None:
        raise ValueError(f"unknown bot kind {kind!r}: expected one of {', '.join(BOT_KINDS)}")
    return cls(seed, name=name)
