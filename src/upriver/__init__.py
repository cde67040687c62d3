"""upriver: Up and Down the River (Oh Hell, Nomination Whist), rules-exact.

>>> from upriver import Game, preset
>>> game = Game(preset("countdown", player_count=4), ["Ann", "Bob", "Cid", "Dee"], seed=1)
>>> game.hand_size, game.players[game.dealer], game.players[game.to_act]
(10, 'Ann', 'Bob')
"""

from upriver.actions import (
    Action,
    BidAction,
    DealAction,
    Phase,
    PlayAction,
    RoundResult,
    Trick,
    TricksAction,
    round_score,
    standings_of,
    winning_play,
)
from upriver.branch import InconsistentDealError, game_from_view
from upriver.cards import DECK, Card, Rank, Suit
from upriver.errors import (
    IllegalActionError,
    NotationError,
    RecordError,
    RulesError,
    UpriverError,
)
from upriver.game import Game
from upriver.rules import (
    PRESETS,
    Bidding,
    CustomScoring,
    DealerBid,
    FirstDealer,
    Preset,
    Rules,
    Schedule,
    Scoring,
    Trump,
    TrumpLead,
    preset,
)
from upriver.view import SeatView

__all__ = [
    "DECK",
    "PRESETS",
    "Action",
    "BidAction",
    "Bidding",
    "Card",
    "CustomScoring",
    "DealAction",
    "DealerBid",
    "FirstDealer",
    "Game",
    "IllegalActionError",
    "InconsistentDealError",
    "NotationError",
    "Phase",
    "PlayAction",
    "Preset",
    "Rank",
    "RecordError",
    "RoundResult",
    "Rules",
    "RulesError",
    "Schedule",
    "Scoring",
    "SeatView",
    "Suit",
    "Trick",
    "TricksAction",
    "Trump",
    "TrumpLead",
    "UpriverError",
    "game_from_view",
    "preset",
    "round_score",
    "standings_of",
    "winning_play",
]
__version__ = "0.1.0"
