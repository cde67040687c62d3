"""upriver as an OpenSpiel game: ``import upriver.spiel`` registers ``python_upriver``.

OpenSpiel's own ``oh_hell`` plays one hand under one rule set. ``python_upriver`` plays
upriver's engine (:class:`upriver.game.Game`) under any of its rules, a whole game of
rounds or some of them, so OpenSpiel's algorithms (ISMCTS, CFR and MCCFR, its RL agents)
run on the game as upriver's tables play it. The core never imports this package; it
needs the ``bench`` extra (PyPI ``open_spiel``). ``docs/rl.md`` shows it at work.

Parameters (``pyspiel.load_game("python_upriver", {...})``), every one optional:

- ``players`` (default 4) and ``preset`` (default ``"classic"``; ``""`` for none);
- ``rules``: rule options over the preset, as a JSON object (``{"dealer_bid": "hook"}``) or
  ``key=value`` pairs (``dealer_bid=hook,scoring=ten-plus-bid``), read by
  :meth:`upriver.rules.Rules.from_options`;
- ``hand_sizes``: ``"1,2,3"`` plays those rounds instead of the rules' schedule;
- ``deck``: ``""`` for all 52 cards, or the cards to deal from (``"AS,KS,QS,AH"``), so that a
  game is small enough for CFR: the engine plays it as ever, the deal only holds no other card;
- ``dealer``: the seat that deals first, or -1 (default) for a chance node that draws it
  uniformly (the first-Jack draw's odds are not modelled);
- ``first_round``: the number of the game's first round within a longer game (what the
  rotating trump and ``anderson`` scoring count from), default 1;
- ``utility``: ``"scores"`` (default): each seat's final total, a general-sum game; or
  ``"differences"``: each total less the table's mean, a zero-sum game.

Chance deals one card at a time: the k-th card of a round goes to seat (dealer + 1 + k) mod
players, then a card is turned up for trump (when the rules turn one up and cards are left).
A player's action is a bid of k tricks as action k (0 … ``max_bid``, the largest hand size),
or the card with :attr:`Card.index` c (clubs 2 … spades ace, suit by suit) as
``max_bid + 1 + c``; chance outcomes are seats (the first dealer) and card indices. The game
pays its returns at the end (``RewardModel.TERMINAL``). A seat's strings and tensors are made
from its :class:`~upriver.view.SeatView` alone (:mod:`.observe`), and
:meth:`UpriverState.resample_from_infostate` deals the hidden cards fairly (:mod:`.resample`).

>>> import pyspiel
>>> game = pyspiel.load_game("python_upriver", {"players": 3, "preset": "", "hand_sizes": "2"})
>>> game.num_distinct_actions(), game.max_chance_outcomes(), game.max_game_length()
(55, 52, 9)
>>> state = game.new_initial_state()
>>> for action in (0, 0, 1, 2, 3, 4, 5, 6):   # seat 0 deals 2C 3C 4C 5C 6C 7C, turns up 8C
...     state.apply_action(action)
>>> state.current_player(), state.legal_actions()       # seat 1 bids 0, 1 or 2
(1, [0, 1, 2])
>>> print(state.observation_string(1))
seat 1 of 3; totals 0 0 0
round 1 of 1: 2 cards, dealer 0, bidding
hand 2C 5C
turned 8C, trump clubs; bids - - - (0 made)
trick
tricks won 0 0 0
"""

from __future__ import annotations

import pyspiel

from upriver.spiel.game import UpriverGame, UpriverState, game_type, move_of
from upriver.spiel.observe import SeatObserver
from upriver.spiel.params import (
    DEFAULTS,
    GAME_NAME,
    SpielConfig,
    SpielParameterError,
    Utility,
    config_of,
    params_of,
)
from upriver.spiel.resample import round_start, state_from_view

__all__ = [
    "DEFAULTS",
    "GAME_NAME",
    "SeatObserver",
    "SpielConfig",
    "SpielParameterError",
    "UpriverGame",
    "UpriverState",
    "Utility",
    "config_of",
    "move_of",
    "params_of",
    "round_start",
    "state_from_view",
]

if GAME_NAME not in pyspiel.registered_names():
    pyspiel.register_game(game_type(Utility.SCORES), UpriverGame)
