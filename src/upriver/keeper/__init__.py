"""The score keeper: the sources' paper score sheet for a game played with real cards.

:class:`KeptSheet` (in :mod:`upriver.keeper.sheet`) is the sheet, the entries a keeper makes, and
:mod:`upriver.keeper.state` where it stands; :mod:`upriver.keeper.entries` holds the plain data it
is made of; :mod:`upriver.keeper.evening` how an evening whose players change is replayed as the
engine's games, and :mod:`upriver.keeper.changes` those changes; :mod:`upriver.keeper.records` the
sheet as a game record; :mod:`upriver.keeper.commands` every entry and the sheet as plain JSON (the
API the server and a browser both run); :mod:`upriver.keeper.store` keeps sheets in SQLite or
PostgreSQL. What a sheet shows is the game's own :class:`~upriver.sheet.ScoreSheet`
(:attr:`KeptSheet.score_sheet`).
"""

from upriver.keeper.entries import (
    EXTRA,
    JACK_FROM,
    Adjustment,
    Flag,
    Join,
    KeptRound,
    Leave,
    SheetEntries,
    SitOut,
    Start,
    Waiting,
    split_names,
)
from upriver.keeper.sheet import KeptSheet

__all__ = [
    "EXTRA",
    "JACK_FROM",
    "Adjustment",
    "Flag",
    "Join",
    "KeptRound",
    "KeptSheet",
    "Leave",
    "SheetEntries",
    "SitOut",
    "Start",
    "Waiting",
    "split_names",
]
