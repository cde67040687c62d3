"""The rule of thumb's numbers, named once: how much each kind of card is worth in tricks.

:func:`upriver.bots.basic.estimate_tricks` (Python, over cards) and
:func:`upriver.fast.policies.estimate_tricks` (compiled, over bit sets) count a hand's
tricks the same way, operation for operation; both read these constants, so a change
here changes both, and ``tests/test_kernel.py`` checks that they still choose the same
bids and cards. The compiled copy takes them in as constants when it is compiled. They live
with the kernel, which the bots stand on, and this module imports nothing (not numba), so the
``basic`` bot reads them without loading the kernel.

The values were set by hand and checked in self-play (the last two by measurement: the
raw count under-bids).
"""

from __future__ import annotations

__all__ = [
    "BLOCKED_TRUMP_SHARE",
    "ESTIMATE_OFFSET",
    "ESTIMATE_SCALE",
    "MASTER",
    "RISK_MAX",
    "RISK_PER_LONG_CARD",
    "RUFF_RISK_MAX",
    "RUFF_RISK_PER_OPPONENT",
    "SECOND_GUARDED",
    "SECOND_SINGLE",
    "SINGLETON_RUFF",
    "VOID_RUFF",
]

BLOCKED_TRUMP_SHARE = 0.5
"""A trump some unseen trump outranks: this share of the chance that it falls to a higher one,
scaled by how many lower trumps of its own can wait behind it."""

RUFF_RISK_PER_OPPONENT = 0.07
"""The chance, per opponent (times four, times the share of unseen cards dealt), that a side
card is ruffed."""
RUFF_RISK_MAX = 0.6
"""The ruff risk of a side card in a suit of two or fewer, at most."""
RISK_PER_LONG_CARD = 0.3
"""How much more likely a ruff becomes for each card of a side suit beyond two."""
RISK_MAX = 0.9
"""The ruff risk of a side card, at most, however long its suit."""

MASTER = 0.9
"""A side card no unseen card of its suit outranks: a trick, unless it is ruffed."""
SECOND_GUARDED = 0.55
"""A side card one unseen card outranks, with another card of its suit to guard it."""
SECOND_SINGLE = 0.3
"""A side card one unseen card outranks, alone in its suit."""

VOID_RUFF = 0.5
"""Each of at most two spare trumps for a side suit the hand lacks: a likely ruff."""
SINGLETON_RUFF = 0.3
"""A spare trump for a side suit the hand holds one card of."""

ESTIMATE_SCALE = 1.15
"""The raw count is multiplied by this: in self-play it under-bid (40% of rounds took more than
bid), and the scaling brings exact bids from 50% to 52% in 4-player games."""
ESTIMATE_OFFSET = 0.15
"""And then this is added, for the same reason."""
