"""The score keeper: the seeds' paper score sheet for a game played with real cards.

:class:`KeptSheet` (in :mod:`upriver.keeper.sheet`) is the sheet; :mod:`upriver.keeper.entries`
holds the plain data it is made of.
"""

from upriver.keeper.entries import (
    EXTRA,
    JACK_FROM,
    Flag,
    Forbidden,
    KeptRound,
    RoundView,
    SheetEntries,
    split_names,
)
from upriver.keeper.sheet import KeptSheet

__all__ = [
    "EXTRA",
    "JACK_FROM",
    "Flag",
    "Forbidden",
    "KeptRound",
    "KeptSheet",
    "RoundView",
    "SheetEntries",
    "split_names",
]
